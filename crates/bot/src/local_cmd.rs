//! `jieqi-bot local`: the whole chat surface in a terminal, with no account. Each input line
//! is one player's message in one shared chat (`alice: /challenge @bob`); the service
//! handles it exactly as it handles a Telegram update, and its messages come back through
//! the outbox to a [`Terminal`] sender that prints them.
//!
//! Lines are numbered by a counter kept in the data folder, and the number is the request's
//! idempotency key. After a crash, `--resume` replays the same script from the start of the
//! interrupted run (lines already handled change nothing again), or a client that printed
//! `--ack` numbers itself resends from the first unacknowledged line with `--first-line`.

mod counter;
mod script;
mod transcript;

use std::num::NonZeroU64;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, SystemTime};

use anyhow::Context;
use jieqi_service::personal_link::WebSecret;
use jieqi_service::{
    ChatId, Destination, IdempotencyKey, Language, MessageKind, OutboxEntry, Platform, Request,
    Sender, Service, ServiceConfig, User, UserId,
};
use jieqi_web::{Web, WebConfig};
use rand::RngCore;
use rand::rngs::OsRng;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio_util::sync::CancellationToken;

use crate::config::{Config, ConfigFile};
use counter::{LineCounter, Start};
use script::Said;
use transcript::Terminal;

/// The one chat of a terminal session.
const CHAT: &str = "local";
/// How often time-outs and expired challenges are checked while nobody types.
const TICK: Duration = Duration::from_secs(5);
/// Outbox entries read at a time.
const BATCH: usize = 32;
/// The first line printed: the input format, so that the screen does not start blank.
const BANNER: &str = "type one message a line as `name: text`, e.g. `alice: /challenge @bob`; \
                      `dm alice: /peek` writes in private, `bob: [button] acc_…` presses a button, \
                      `alice: /help` lists the commands, `alice: /learn` starts the rules course";

#[derive(Debug, clap::Args)]
pub struct LocalArgs {
    /// Game store folder [default: DATA_DIR, else ./data].
    #[arg(long, value_name = "DIR")]
    data: Option<PathBuf>,
    /// Folder the pictures are written to.
    #[arg(long, value_name = "DIR", default_value = "out")]
    out: PathBuf,
    /// Language of the chat until /settings changes it: en, zh or vi [default: DEFAULT_LANGUAGE, else en].
    #[arg(long, value_name = "CODE")]
    lang: Option<Language>,
    /// Configuration file [default: ./jieqi-bot.toml if it exists].
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Number the lines from where the previous run started: feed the same script again after
    /// a crash and nothing already done happens twice.
    #[arg(long, conflicts_with = "first_line")]
    resume: bool,
    /// Number the first line N (resend from the first line not acknowledged with --ack).
    #[arg(long, value_name = "N")]
    first_line: Option<NonZeroU64>,
    /// Print `[ack N]` once line N is handled and everything it caused is printed.
    #[arg(long)]
    ack: bool,
    /// Serve each game's live web page too, on this address [default: 127.0.0.1:8090]; its
    /// link is printed under every board, and each player's own link to play on it by
    /// tapping when their game starts.
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = "127.0.0.1:8090")]
    web: Option<std::net::SocketAddr>,
}

pub fn run(args: LocalArgs) -> anyhow::Result<ExitCode> {
    let file = args
        .config
        .clone()
        .map_or(ConfigFile::Default, ConfigFile::Given);
    let mut config = Config::load(&file)?;
    if let Some(filter) = &config.log_filter {
        crate::logging::set_filter(filter)?;
    }
    if let Some(dir) = &args.data {
        config.data_dir = dir.clone();
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let played = runtime.block_on(play(args, config));
    // A read of standard input may still be blocked in its thread (after a signal); it
    // cannot be cancelled, and everything that matters is flushed by now.
    runtime.shutdown_background();
    played?;
    Ok(ExitCode::SUCCESS)
}

async fn play(args: LocalArgs, config: Config) -> anyhow::Result<()> {
    let language = match args.lang {
        Some(language) => language,
        None => config.default_language,
    };
    // Bound first: the page's address (its port may be chosen by the system) goes into
    // every board's link.
    let web_listener = match args.web {
        Some(addr) => Some(tokio::net::TcpListener::bind(addr).await.with_context(|| {
            format!("cannot listen on {addr} for --web: give a free address and port, e.g. --web 127.0.0.1:8091")
        })?),
        None => None,
    };
    let public_url = match &web_listener {
        Some(listener) => {
            let mut addr = listener
                .local_addr()
                .context("cannot read the web page's address")?;
            if addr.ip().is_unspecified() {
                addr.set_ip(std::net::Ipv4Addr::LOCALHOST.into());
            }
            Some(format!("http://{addr}"))
        }
        None => None,
    };
    // Personal links need a secret; the terminal makes its own unless one is configured.
    let web_secret = match (&public_url, &config.web_secret) {
        (None, _) => None,
        (Some(_), Some(secret)) => Some(secret.clone()),
        (Some(_), None) => Some(one_run_secret()?),
    };
    let service = Service::open(ServiceConfig {
        data_dir: config.data_dir.clone(),
        default_language: language,
        challenge_ttl: config.challenge_expiry,
        default_move_time: config.default_move_time,
        live_board_interval: config.live_board_interval,
        public_url: public_url.clone(),
        web_secret,
        ..ServiceConfig::default()
    })
    .with_context(|| {
        format!(
            "cannot open the game store in {} (one jieqi-bot process at a time can use a data folder)",
            config.data_dir.display()
        )
    })?;
    let mut counter = LineCounter::open(&config.data_dir)?;
    let start = match (args.resume, args.first_line) {
        (_, Some(n)) => Start::At(n),
        (true, None) => Start::Resume,
        (false, None) => Start::Fresh,
    };
    let mut number = counter.start_run(start)?;
    let session = Session {
        service: service.clone(),
        terminal: Terminal::new(ChatId::new(Platform::Local, CHAT), args.out.clone()),
        personal_links: public_url.is_some(),
    };

    session
        .terminal
        .note(BANNER)
        .context("cannot write to the terminal")?;
    let shutdown = CancellationToken::new();
    let signals = crate::shutdown::on_signal(shutdown.clone());
    let web = match (web_listener, &public_url) {
        (Some(listener), Some(url)) => {
            session
                .terminal
                .note(&format!(
                    "the games' web page is on {url}: each board shows its game's link"
                ))
                .context("cannot write to the terminal")?;
            Some(tokio::spawn(
                Web::new(service.clone(), WebConfig::new(url.clone()))
                    .serve(listener, shutdown.clone()),
            ))
        }
        _ => None,
    };
    // Messages committed before an earlier run stopped are owed first.
    session.deliver().await?;

    let mut input = BufReader::new(tokio::io::stdin());
    let mut ticks = tokio::time::interval(TICK);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    // Not cleared when a tick interrupts a read: the bytes read so far stay in it and the
    // next read goes on from there.
    let mut bytes = Vec::new();
    // Messages queued outside a request (the engine's reply, say) are printed as soon as
    // they are committed, not at the next tick.
    let mut queued = service.outbox_changes();
    loop {
        let read = tokio::select! {
            read = input.read_until(b'\n', &mut bytes) => read.context("cannot read standard input")?,
            () = shutdown.cancelled() => break,
            Ok(()) = queued.changed() => {
                session.deliver().await?;
                continue;
            }
            _ = ticks.tick() => {
                service.tick(SystemTime::now()).await;
                session.deliver().await?;
                continue;
            }
        };
        if read == 0 && bytes.is_empty() {
            break;
        }
        let line = String::from_utf8_lossy(&bytes).into_owned();
        bytes.clear();
        let Some(said) = script::parse(&line) else {
            continue;
        };
        counter.reserve(number)?;
        match said {
            Ok(said) => session.handle(number, said).await?,
            Err(error) => session.refuse_line(&error.to_string())?,
        }
        session.deliver().await?;
        if args.ack {
            session.terminal.ack(number)?;
        }
        number = number.saturating_add(1);
    }
    session.deliver().await?;
    shutdown.cancel();
    if let Some(web) = web {
        let _ = web.await;
    }
    signals.abort();
    service
        .shutdown()
        .await
        .context("cannot flush the game store")?;
    Ok(())
}

/// A secret for this run's personal links: from the system's randomness, so nobody can sign
/// a link for the terminal's players; forgotten at exit, which ends the links with the run.
fn one_run_secret() -> anyhow::Result<WebSecret> {
    let mut bytes = [0u8; WebSecret::SHORTEST];
    OsRng
        .try_fill_bytes(&mut bytes)
        .context("cannot get randomness from the system for the personal links' secret")?;
    WebSecret::new(bytes.to_vec())
        .ok_or_else(|| anyhow::anyhow!("a secret of {} bytes is too short", bytes.len()))
}

/// The service and the terminal it talks to.
struct Session {
    service: Service,
    terminal: Terminal,
    /// With `--web`: print each player's personal link to the board when their game starts.
    personal_links: bool,
}

impl Session {
    async fn handle(&self, number: u64, said: Said) -> anyhow::Result<()> {
        let user = local_user(&said.speaker);
        let requester = user.id.id.clone();
        let chat = if said.private {
            ChatId::new(Platform::Local, format!("dm-{requester}"))
        } else {
            ChatId::new(Platform::Local, CHAT)
        };
        let request = Request {
            key: IdempotencyKey(number.to_string()),
            chat,
            is_private_chat: said.private,
            // Everyone at the terminal is at home: the admin of its one chat.
            is_admin: true,
            user,
            mentioned: said.mentioned.iter().map(|name| local_user(name)).collect(),
            input: said.input,
            received_at: SystemTime::now(),
        };
        let answer = self.service.handle(request).await;
        for (i, reply) in answer.replies.iter().enumerate() {
            self.terminal
                .reply(&requester, reply, &format!("line{number}-{i}"))
                .context("cannot write to the terminal")?;
        }
        Ok(())
    }

    fn refuse_line(&self, why: &str) -> anyhow::Result<()> {
        self.terminal
            .note(why)
            .context("cannot write to the terminal")
    }

    /// Prints every pending message of this platform and marks each delivered once printed.
    async fn deliver(&self) -> anyhow::Result<()> {
        loop {
            let local = self
                .service
                .pending_for(Platform::Local, BATCH)
                .await
                .context("cannot read the outbox")?;
            if local.is_empty() {
                return Ok(());
            }
            for entry in local {
                let reference = self
                    .terminal
                    .send(&entry)
                    .await
                    .map_err(|error| anyhow::anyhow!("{error}"))?;
                self.print_personal_link(&entry).await?;
                self.service
                    .delivered(entry.id, reference)
                    .await
                    .context("cannot record a delivery")?;
            }
        }
    }

    /// After the private "your game started" message (one per human player, delivered once),
    /// the player's personal link to play on the web board, so that two browser tabs can play
    /// against each other. The terminal is everyone's screen: the link is printed there.
    async fn print_personal_link(&self, entry: &OutboxEntry) -> anyhow::Result<()> {
        let message = &entry.message;
        let (true, MessageKind::GameStarted, Destination::Private(player), Some(game)) = (
            self.personal_links,
            message.kind,
            &message.to,
            &message.game,
        ) else {
            return Ok(());
        };
        let Some(link) = self.service.personal_link(game, player) else {
            return Ok(());
        };
        let language = self
            .service
            .game_language(game)
            .await
            .context("cannot read the game's language")?
            .unwrap_or_default();
        let text = self.service.text(
            language,
            "local-personal-link",
            &[("player", player.id.as_str()), ("link", link.as_str())],
        );
        self.terminal
            .note(&text)
            .context("cannot write to the terminal")
    }
}

/// A terminal player: the name is the id (case-insensitive), as typed for display.
fn local_user(name: &str) -> User {
    User::new(UserId::new(Platform::Local, name.to_lowercase()), name)
}
