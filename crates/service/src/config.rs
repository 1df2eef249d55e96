//! How the service is set up: where it stores games, its defaults, and where deals come from.

use std::path::PathBuf;
use std::time::Duration;

use crate::i18n::Language;

/// Set-up of a [`crate::Service`].
#[derive(Clone, Debug)]
pub struct ServiceConfig {
    /// The sled database folder (`DATA_DIR`, default `./data`).
    pub data_dir: PathBuf,
    /// The language of a new chat when the requester's client reports none we speak.
    pub default_language: Language,
    /// How long a challenge stays open (default 1 h).
    pub challenge_ttl: Duration,
    /// Time per move when a challenge names none (default 24 h).
    pub default_move_time: Duration,
    /// The Telegram bot's username (without `@`), for `t.me/<bot>?start=` deep links and the
    /// "start a private chat with me" hint.
    pub bot_username: Option<String>,
    /// Width in pixels of board pictures (400: readable at phone chat-preview size and quick
    /// to draw; every move draws one).
    pub board_width: u32,
    /// Where deals, salts and ids come from. Always [`DealSource::Os`] outside tests.
    pub deal_source: DealSource,
    /// The web page's public address (`PUBLIC_URL`, no trailing `/`): boards link to
    /// `<public_url>/g/<game>`. `None`: no web page, no links.
    pub public_url: Option<String>,
    /// The secret personal links to a player's board are signed with (`WEB_SECRET`, shared
    /// by every process). `None`: no personal links (Telegram players still have the Mini App).
    pub web_secret: Option<crate::personal_link::WebSecret>,
    /// The Telegram Mini App's short name (`TELEGRAM_MINI_APP`, made with BotFather's
    /// `/newapp`, its URL `<PUBLIC_URL>/app`): boards in Telegram groups link to
    /// `t.me/<bot>/<app>?startapp=<game>`. `None`: no "Open the board" button in groups.
    pub telegram_mini_app: Option<String>,
    /// Whether the bot's Discord Activity is on (`DISCORD_CLIENT_SECRET` set, with
    /// `PUBLIC_URL` and `WEB_SECRET`): Discord boards then carry "Play in Discord".
    pub discord_activity: bool,
    /// The process's own clock (the system's; tests inject a fake or a wrong one). Live
    /// games read it through the offset measured from the store's clock
    /// (`Service::measure_clock`).
    pub wall_clock: crate::shared_clock::WallClock,
    /// A live game's boards in a group chat come at most once per this much time, each naming
    /// every move since the one before (`LIVE_BOARD_INTERVAL`, default 20 s; see
    /// `live_boards.rs`). Zero posts a board per move, as for games on a time per move.
    pub live_board_interval: Duration,
}

/// The default of [`ServiceConfig::live_board_interval`]: a 3+2 game moving every 2–5 s shows
/// 4–10 moves a board, few enough to read in one caption, and its three boards a minute leave
/// most of a Telegram group's 20 posts a minute to the chat's other games and commands, while
/// the group still sees the game move on about as often as a person glances at it.
pub const LIVE_BOARD_INTERVAL: Duration = Duration::from_secs(20);

impl Default for ServiceConfig {
    fn default() -> Self {
        ServiceConfig {
            data_dir: PathBuf::from("./data"),
            default_language: Language::En,
            challenge_ttl: Duration::from_secs(60 * 60),
            default_move_time: Duration::from_secs(24 * 60 * 60),
            bot_username: None,
            board_width: 400,
            deal_source: DealSource::Os,
            public_url: None,
            web_secret: None,
            telegram_mini_app: None,
            discord_activity: false,
            wall_clock: crate::shared_clock::WallClock::system(),
            live_board_interval: LIVE_BOARD_INTERVAL,
        }
    }
}

impl ServiceConfig {
    /// The live page of game `game`, when the web page is on.
    pub fn game_link(&self, game: &crate::ids::GameId) -> Option<String> {
        self.public_url
            .as_deref()
            .map(|base| format!("{}/g/{game}", base.trim_end_matches('/')))
    }
}

impl ServiceConfig {
    /// The Telegram Mini App's direct link opening game `game`, when the Mini App is set up.
    pub fn mini_app_link(&self, game: &crate::ids::GameId) -> Option<String> {
        let bot = self.bot_username.as_deref()?.trim_start_matches('@');
        let app = self.telegram_mini_app.as_deref()?;
        self.public_url.as_ref()?;
        Some(format!("https://t.me/{bot}/{app}?startapp={game}"))
    }
}

/// Where the secret randomness of a game (deal, salt) comes from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum DealSource {
    /// The operating system's CSPRNG. The only source a real bot uses: a deal must not be
    /// predictable from anything public (time, ids).
    #[default]
    Os,
    /// Deals, salts and ids from a ChaCha generator with this seed (tests only).
    #[cfg(feature = "test-hooks")]
    Seeded(u64),
    /// These deals (deal letters as `GameDeal::letters` writes them), one per game in order;
    /// salts and ids from a ChaCha generator with `seed` (tests only). Once the list is used
    /// up, deals are drawn from the seeded generator.
    #[cfg(feature = "test-hooks")]
    Scripted {
        /// Seed for ids, salts, colours and any further deals.
        seed: u64,
        /// The deals to hand out, in order.
        deals: Vec<String>,
    },
}
