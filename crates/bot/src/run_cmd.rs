//! `jieqi-bot run`: the bot in production. It starts every chat platform that has a token,
//! the health and metrics endpoint, one delivery loop per platform and the clock that
//! times games out, then waits for SIGTERM or ctrl-c and stops in order: adapters finish
//! the request at hand, delivery stops between two messages, the store is flushed.
//!
//! Platforms plug in through [`Adapter`]: each entry of [`PLATFORMS`] names its token and,
//! once its crate exists, the one function that builds it.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use anyhow::Context;
use async_trait::async_trait;
use jieqi_service::{
    GameStore, Platform, SendBudgets, Sender, Service, ServiceConfig, SledStore, StoreError,
    run_delivery,
};
use jieqi_store_pg::PgStore;
use jieqi_web::{BotToken, Web, WebConfig};
use tokio::net::TcpListener;
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;

use crate::config::{Config, ConfigFile, Token};

/// How long the adapters, delivery and the endpoint get to stop after the signal.
const GRACE: Duration = Duration::from_secs(20);
/// How often time-outs and expired challenges are checked.
const TICK: Duration = Duration::from_secs(5);
/// How often the offset from this process's clock to the store's is measured again.
const CLOCK_MEASURE: Duration = Duration::from_secs(60);

#[derive(Debug, clap::Args)]
pub struct RunArgs {
    /// Configuration file [default: ./jieqi-bot.toml if it exists].
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
}

/// A chat platform as `run` drives it.
#[async_trait]
pub trait Adapter: Send + Sync {
    /// Which platform; its outbox messages go to [`Adapter::sender`].
    fn platform(&self) -> Platform;
    /// Delivers this platform's outbox messages, pacing them by `budgets` (the store's,
    /// shared by every process on the database).
    fn sender(&self, budgets: SendBudgets) -> Arc<dyn Sender>;
    /// The bot's own username, if the platform builds deep links with it (Telegram's
    /// `t.me/<bot>?start=...` accept buttons). Asked once, before the service opens.
    async fn bot_username(&self) -> anyhow::Result<Option<String>> {
        Ok(None)
    }
    /// The Discord Activity's sign-in, when this adapter runs the Activity.
    fn activity_sign_in(&self) -> Option<jieqi_discord::DiscordOAuth> {
        None
    }
    /// Turns the platform's events into requests for `service` until `shutdown` is
    /// cancelled, then returns after finishing the request at hand. Returning earlier is
    /// a failure: `run` then stops everything.
    async fn receive(
        self: Box<Self>,
        service: Service,
        shutdown: CancellationToken,
    ) -> anyhow::Result<()>;
}

/// Builds an adapter from the configuration and its token.
type Build = fn(&Config, &Token) -> anyhow::Result<Box<dyn Adapter>>;

/// One platform `run` knows of.
struct PlatformSlot {
    name: &'static str,
    key: &'static str,
    how_to_get: &'static str,
    token: fn(&Config) -> Option<&Token>,
    /// `None` until the platform's adapter crate is part of this binary.
    build: Option<Build>,
}

/// Every platform. An adapter crate plugs in by filling its `build` (one line).
const PLATFORMS: [PlatformSlot; 2] = [
    PlatformSlot {
        name: "Telegram",
        key: "TELEGRAM_TOKEN",
        how_to_get: "send /newbot to @BotFather in Telegram and copy the token it answers with",
        token: |config| config.telegram_token.as_ref(),
        build: Some(telegram::build),
    },
    PlatformSlot {
        name: "Discord",
        key: "DISCORD_TOKEN",
        how_to_get: "create an application at https://discord.com/developers/applications, \
                     open Bot and press Reset Token",
        token: |config| config.discord_token.as_ref(),
        build: Some(discord::build),
    },
];

/// Why `run` will not start.
#[derive(Debug, thiserror::Error)]
pub enum RunRefusal {
    #[error(
        "no chat platform is configured: set {keys} (in the environment or in jieqi-bot.toml) \
         and run again. To get one: {hows}. To play in this terminal without any account, run \
         `jieqi-bot local`."
    )]
    NoToken { keys: String, hows: String },
    #[error(
        "{key} is set, but the {name} adapter is not built into this binary yet: unset {key} \
         to run the other platforms, or play in this terminal with `jieqi-bot local`"
    )]
    NotBuilt {
        name: &'static str,
        key: &'static str,
    },
}

pub fn run(args: RunArgs) -> anyhow::Result<ExitCode> {
    let file = args.config.map_or(ConfigFile::Default, ConfigFile::Given);
    let config = Config::load(&file)?;
    if let Some(filter) = &config.log_filter {
        crate::logging::set_filter(filter)?;
    }
    let adapters = adapters(&config, &PLATFORMS)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(start(config, adapters))
}

/// The adapters of every platform that has a token.
fn adapters(
    config: &Config,
    platforms: &[PlatformSlot],
) -> Result<Vec<Box<dyn Adapter>>, anyhow::Error> {
    let mut adapters = Vec::new();
    for slot in platforms {
        let Some(token) = (slot.token)(config) else {
            continue;
        };
        let build = slot.build.ok_or(RunRefusal::NotBuilt {
            name: slot.name,
            key: slot.key,
        })?;
        adapters.push(
            build(config, token)
                .with_context(|| format!("cannot start the {} adapter", slot.name))?,
        );
    }
    if adapters.is_empty() {
        let keys: Vec<&str> = platforms.iter().map(|slot| slot.key).collect();
        let hows: Vec<String> = platforms
            .iter()
            .map(|slot| format!("for {}, {}", slot.key, slot.how_to_get))
            .collect();
        return Err(RunRefusal::NoToken {
            keys: keys.join(" or "),
            hows: hows.join("; "),
        }
        .into());
    }
    Ok(adapters)
}

async fn start(config: Config, adapters: Vec<Box<dyn Adapter>>) -> anyhow::Result<ExitCode> {
    let store = open_store(&config).await?;
    let bot_username = bot_username(&adapters).await?;
    let service = Service::open_with_store(store, service_config(&config, bot_username))
        .context("cannot start the service")?;
    let listener = TcpListener::bind(config.http_addr).await.with_context(|| {
        format!(
            "cannot listen on HTTP_ADDR {}: set HTTP_ADDR to a free address and port",
            config.http_addr
        )
    })?;
    tracing::info!(
        addr = %listener.local_addr().unwrap_or(config.http_addr),
        store = %store_name(&config),
        platforms = ?adapters.iter().map(|a| a.platform()).collect::<Vec<_>>(),
        "jieqi-bot running"
    );
    if config.public_url.is_some() && config.web_secret.is_none() {
        tracing::info!(
            "WEB_SECRET is not set, so there are no personal links to the web board: Discord \
             players get no \"Play on the board\" button (set WEB_SECRET to the output of \
             `openssl rand -hex 32`, the same in every process)"
        );
    }
    if config.discord_client_secret.is_some() && !activity_on(&config) {
        tracing::info!(
            "DISCORD_CLIENT_SECRET is set, but the Discord Activity also needs DISCORD_TOKEN, \
             PUBLIC_URL and WEB_SECRET: it stays off"
        );
    }
    let shutdown = CancellationToken::new();
    let activity = adapters.iter().find_map(|a| a.activity_sign_in());
    let web = match web_config(&config) {
        Some(web_config) => Some(
            start_web(
                service.clone(),
                web_config,
                activity,
                config.web_addr,
                "WEB_ADDR",
                shutdown.clone(),
            )
            .await?,
        ),
        None => None,
    };
    let signals = crate::shutdown::on_signal(shutdown.clone());
    let mut clean = serve(service, adapters, listener, shutdown).await?;
    if let Some(web) = web {
        clean &= matches!(web.await, Ok(Ok(())));
    }
    signals.abort();
    Ok(if clean {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// The service's settings from the configuration; `bot_username` is what Telegram's getMe
/// answered (deep links and the Mini App's links name the bot).
fn service_config(config: &Config, bot_username: Option<String>) -> ServiceConfig {
    ServiceConfig {
        data_dir: config.data_dir.clone(),
        default_language: config.default_language,
        challenge_ttl: config.challenge_expiry,
        default_move_time: config.default_move_time,
        live_board_interval: config.live_board_interval,
        bot_username,
        public_url: config.public_url.as_ref().map(public_base),
        web_secret: config.web_secret.clone(),
        telegram_mini_app: config.telegram_mini_app.clone(),
        discord_activity: activity_on(config),
        ..ServiceConfig::default()
    }
}

/// Whether the Discord Activity runs: it needs the client secret, the Discord adapter, and
/// the web page with personal links (the Activity is that page, and plays with their tokens).
pub(crate) fn activity_on(config: &Config) -> bool {
    config.discord_client_secret.is_some()
        && config.discord_token.is_some()
        && config.public_url.is_some()
        && config.web_secret.is_some()
}

/// The web page's settings, when `PUBLIC_URL` asks for the page. With Telegram running, its
/// bot token checks the Mini App's sign-ins.
fn web_config(config: &Config) -> Option<WebConfig> {
    let url = config.public_url.as_ref()?;
    Some(WebConfig {
        streams_per_address: config.web_streams_per_address,
        telegram_bot_token: config
            .telegram_token
            .as_ref()
            .map(|token| BotToken(token.expose().to_owned())),
        ..WebConfig::new(public_base(url))
    })
}

/// `PUBLIC_URL` as a base to append paths to (no trailing `/`).
pub(crate) fn public_base(url: &url::Url) -> String {
    url.as_str().trim_end_matches('/').to_owned()
}

/// Listens on `addr` and serves the games' web page there until `shutdown`.
pub(crate) async fn start_web(
    service: Service,
    config: WebConfig,
    activity: Option<jieqi_discord::DiscordOAuth>,
    addr: std::net::SocketAddr,
    key: &str,
    shutdown: CancellationToken,
) -> anyhow::Result<tokio::task::JoinHandle<std::io::Result<()>>> {
    let listener = TcpListener::bind(addr).await.with_context(|| {
        format!("cannot listen on {key} {addr}: set {key} to a free address and port")
    })?;
    tracing::info!(
        addr = %listener.local_addr().unwrap_or(addr),
        url = %config.public_url,
        "the games' web page is on"
    );
    let web = match activity {
        Some(discord) => {
            tracing::info!("the Discord Activity is on (PUBLIC_URL/activity)");
            Web::with_activity(service, config, discord)
        }
        None => Web::new(service, config),
    };
    Ok(tokio::spawn(web.serve(listener, shutdown)))
}

/// The game store the configuration names: PostgreSQL with `DATABASE_URL` (shared by
/// several processes), else sled in `DATA_DIR` (one process).
pub(crate) async fn open_store(config: &Config) -> anyhow::Result<Arc<dyn GameStore>> {
    match &config.database_url {
        Some(url) => {
            let store = PgStore::connect_with(
                url.expose(),
                Some(&config.database_schema),
                config.database_connections,
            )
            .await
            .map_err(|error| match error {
                StoreError::Backend(reason) => anyhow::anyhow!(
                    "cannot use the PostgreSQL database: {reason}. Check DATABASE_URL \
                         (postgres://user:password@host:5432/database) and that the server runs"
                ),
                other => anyhow::anyhow!("cannot use the PostgreSQL database: {other}"),
            })?;
            Ok(Arc::new(store))
        }
        None => {
            let store = SledStore::open(&config.data_dir).map_err(|error| match error {
                StoreError::Backend(reason) => anyhow::anyhow!(
                    "cannot open the game store in {}: {reason} (one jieqi-bot process at a \
                     time can use a data folder; set DATABASE_URL to share a PostgreSQL \
                     database between processes)",
                    config.data_dir.display()
                ),
                other => anyhow::anyhow!(
                    "cannot open the game store in {}: {other}",
                    config.data_dir.display()
                ),
            })?;
            Ok(Arc::new(store))
        }
    }
}

fn store_name(config: &Config) -> String {
    match config.database_url {
        Some(_) => format!("PostgreSQL (schema {})", config.database_schema),
        None => format!("sled in {}", config.data_dir.display()),
    }
}

/// The first username an adapter reports (only Telegram has one to report).
async fn bot_username(adapters: &[Box<dyn Adapter>]) -> anyhow::Result<Option<String>> {
    for adapter in adapters {
        let platform = adapter.platform();
        if let Some(name) = adapter
            .bot_username()
            .await
            .with_context(|| format!("cannot ask {platform} for the bot's username"))?
        {
            return Ok(Some(name));
        }
    }
    Ok(None)
}

/// Runs everything until `shutdown` (or until an adapter stops on its own, which cancels
/// `shutdown`), then stops in order and flushes the store. True if nothing failed.
pub async fn serve(
    service: Service,
    adapters: Vec<Box<dyn Adapter>>,
    listener: TcpListener,
    shutdown: CancellationToken,
) -> anyhow::Result<bool> {
    let mut tasks: JoinSet<()> = JoinSet::new();
    let http = tokio::spawn(crate::http::serve(
        listener,
        service.clone(),
        shutdown.clone(),
    ));
    tasks.spawn(tick(service.clone(), shutdown.clone()));
    let mut receivers = JoinSet::new();
    for adapter in adapters {
        let platform = adapter.platform();
        tasks.spawn(run_delivery(
            service.clone(),
            adapter.sender(service.send_budgets()),
            platform,
            shutdown.clone(),
        ));
        let (service, shutdown) = (service.clone(), shutdown.clone());
        receivers.spawn(async move { (platform, adapter.receive(service, shutdown).await) });
    }

    let mut clean = true;
    tokio::select! {
        // An adapter returning because it was asked to is not a failure.
        biased;
        () = shutdown.cancelled() => {}
        Some(joined) = receivers.join_next() => {
            clean &= report_stop(joined, shutdown.is_cancelled());
            shutdown.cancel();
        }
    }
    let stopped = tokio::time::timeout(GRACE, async {
        while let Some(joined) = receivers.join_next().await {
            clean &= report_stop(joined, true);
        }
        while tasks.join_next().await.is_some() {}
        match http.await {
            Ok(Ok(())) => true,
            Ok(Err(error)) => {
                tracing::error!(%error, "the health and metrics endpoint failed");
                false
            }
            Err(error) => {
                tracing::error!(%error, "the health and metrics endpoint panicked");
                false
            }
        }
    })
    .await;
    match stopped {
        Ok(http_clean) => clean &= http_clean,
        Err(_) => {
            tracing::warn!("not everything stopped within {GRACE:?}; stopping it now");
            receivers.abort_all();
            tasks.abort_all();
            clean = false;
        }
    }
    service
        .shutdown()
        .await
        .context("cannot flush the game store")?;
    tracing::info!("jieqi-bot stopped");
    Ok(clean)
}

/// Logs how an adapter stopped; true if it stopped cleanly when asked to.
fn report_stop(
    joined: Result<(Platform, anyhow::Result<()>), tokio::task::JoinError>,
    asked: bool,
) -> bool {
    match joined {
        Ok((platform, Ok(()))) if asked => {
            tracing::info!(%platform, "adapter stopped");
            true
        }
        Ok((platform, Ok(()))) => {
            tracing::error!(%platform, "adapter stopped on its own; stopping the bot");
            false
        }
        Ok((platform, Err(error))) => {
            tracing::error!(%platform, error = %format!("{error:#}"), "adapter failed");
            false
        }
        Err(error) => {
            tracing::error!(%error, "an adapter task panicked");
            false
        }
    }
}

/// Time-outs and challenge expiry, checked every few seconds; and the offset from this
/// process's clock to the store's, measured at start and every minute (live games' clocks
/// read the store's clock through it, `docs/clocks.md`). Once it is first measured, the
/// store's news of every commit arms this process's flag timers of live games
/// (`Service::follow_flags`), so that a flag falls on time whichever process made the move.
async fn tick(service: Service, shutdown: CancellationToken) {
    let mut ticks = tokio::time::interval(TICK);
    let mut measured: Option<std::time::Instant> = None;
    let mut following: Option<AbortOnDrop> = None;
    loop {
        tokio::select! {
            () = shutdown.cancelled() => return,
            _ = ticks.tick() => {
                if measured.is_none_or(|at| at.elapsed() >= CLOCK_MEASURE) {
                    match service.measure_clock().await {
                        Ok(offset) => {
                            measured = Some(std::time::Instant::now());
                            if let Some(offset) = offset {
                                tracing::debug!(offset_ms = offset, "measured the store's clock");
                            }
                        }
                        Err(error) => tracing::warn!(%error, "cannot read the store's clock"),
                    }
                }
                if following.is_none() && measured.is_some() {
                    let service = service.clone();
                    following = Some(AbortOnDrop(tokio::spawn(async move {
                        service.follow_flags().await;
                    })));
                }
                service.tick(SystemTime::now()).await;
            }
        }
    }
}

/// A task stopped when its handle is dropped (the flag follower stops with the tick).
struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

#[path = "run_cmd/discord.rs"]
mod discord;
mod telegram;

#[cfg(test)]
#[path = "run_cmd/tests.rs"]
mod tests;
