//! # jieqi-web
//!
//! The live web page of every game: `/g/<game>` shows the board as the chat pictures show
//! it, the players, the move record (step through it with buttons or ← →), whose turn it is
//! with the time left, and once over the result and the deal with its commitment checked in
//! the browser. It updates by itself within a second of each move, over Server-Sent Events.
//!
//! Where to start: [`Web`] (mounted by the `jieqi-bot` binary on `WEB_ADDR`), then `routes`
//! (the HTTP routes), `live` (one page per game revision shared by every spectator, and the
//! signal that wakes their streams), `page` (the HTML), `boards` (board pictures drawn by the
//! render crate, cached) and `net` (the connections: write timeouts, client addresses, and
//! live streams written without hyper's buffers).
//!
//! Hidden information: everything here comes from the service's public page
//! ([`jieqi_service::game_page`]) and public boards; this crate never sees a deal. Player
//! names are untrusted text: escaped in HTML, `textContent` in the script. The page allows
//! only its own scripts, styles, pictures and stream (`Content-Security-Policy`).
//!
//! In the repository: `docs/web.md` (routes, caching, limits, several processes).

mod activity;
mod assets;
mod boards;
mod credentials;
mod limits;
mod live;
pub mod net;
mod page;
mod players;
mod routes;
mod tournaments;

use std::sync::Arc;
use std::time::Duration;

use jieqi_service::Service;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

pub use boards::BOARD_WIDTHS;
pub use credentials::sign_init_data;

/// The Telegram bot's token, which Mini App sign-ins (`initData`) are checked against. Never
/// printed.
#[derive(Clone, PartialEq, Eq)]
pub struct BotToken(pub String);

impl std::fmt::Debug for BotToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("BotToken(…)")
    }
}

/// The origins of Discord's clients, which alone may frame the Activity: the web and
/// desktop clients (stable, PTB, Canary) and the Activity's own proxy, `<application
/// id>.discordsays.com`, which Discord serves it through.
pub const DISCORD_CLIENT_ORIGINS: &[&str] = &[
    "https://discord.com",
    "https://ptb.discord.com",
    "https://canary.discord.com",
    "https://*.discordsays.com",
];

/// How the web page runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WebConfig {
    /// The address people reach it at (`PUBLIC_URL`, e.g. `https://bot.example.org`), for
    /// links and previews.
    pub public_url: String,
    /// Live streams one client address may hold open at once (`WEB_STREAMS_PER_ADDRESS`).
    pub streams_per_address: usize,
    /// Live streams the process holds open at once, from everyone.
    pub max_streams: usize,
    /// A connection whose client reads nothing for this long while the server writes is
    /// dropped.
    pub write_timeout: Duration,
    /// The kernel's send buffer of each connection, in bytes.
    pub send_buffer: usize,
    /// The Telegram bot's token, when the bot runs on Telegram: its Mini App's players sign
    /// in with `initData` signed for it. `None`: only personal links sign players in.
    pub telegram_bot_token: Option<BotToken>,
    /// Who may frame the Discord Activity (`frame-ancestors`): Discord's clients
    /// ([`DISCORD_CLIENT_ORIGINS`]); tests name their own host page instead.
    pub discord_client_origins: Vec<String>,
}

impl WebConfig {
    /// The defaults, reached at `public_url`.
    pub fn new(public_url: impl Into<String>) -> WebConfig {
        WebConfig {
            public_url: public_url.into().trim_end_matches('/').to_owned(),
            streams_per_address: 64,
            max_streams: 16_000,
            write_timeout: Duration::from_secs(20),
            send_buffer: 64 << 10,
            telegram_bot_token: None,
            discord_client_origins: DISCORD_CLIENT_ORIGINS
                .iter()
                .map(|o| (*o).to_owned())
                .collect(),
        }
    }
}

/// The web page of a service's games. Cheap to clone.
#[derive(Clone, Debug)]
pub struct Web {
    inner: Arc<routes::Site>,
}

impl Web {
    /// The page of `service`'s games.
    pub fn new(service: Service, config: WebConfig) -> Web {
        Web::build(service, config, None)
    }

    /// The page of `service`'s games and the bot's Discord Activity (`/activity`), whose
    /// players sign in through `discord` (`DISCORD_CLIENT_SECRET`).
    pub fn with_activity(
        service: Service,
        config: WebConfig,
        discord: jieqi_discord::DiscordOAuth,
    ) -> Web {
        Web::build(service, config, Some(discord))
    }

    fn build(
        service: Service,
        config: WebConfig,
        discord: Option<jieqi_discord::DiscordOAuth>,
    ) -> Web {
        let site = routes::Site::new(service, config, discord);
        site.service.metrics_registry().register(
            "jieqi_web_streams",
            "Live streams of the web page open now",
            site.limits.gauge(),
        );
        Web {
            inner: Arc::new(site),
        }
    }

    /// The routes, for mounting or testing.
    pub fn router(&self) -> axum::Router {
        routes::router(self.inner.clone())
    }

    /// Serves the page on `listener` until `stop`; then open streams end.
    pub async fn serve(
        self,
        listener: TcpListener,
        stop: CancellationToken,
    ) -> std::io::Result<()> {
        match self.inner.stopping.lock() {
            Ok(mut token) => *token = stop.clone(),
            Err(poisoned) => *poisoned.into_inner() = stop.clone(),
        }
        let hub = tokio::spawn(self.inner.hub.clone().run(stop.clone()));
        let config = &self.inner.config;
        let sockets = net::Sockets {
            write_timeout: config.write_timeout,
            send_buffer: config.send_buffer,
        };
        let served = net::serve(listener, self.router(), sockets, stop.clone()).await;
        stop.cancel();
        let _ = hub.await;
        served
    }

    /// Live streams open now.
    pub fn open_streams(&self) -> usize {
        self.inner.limits.open()
    }
}
