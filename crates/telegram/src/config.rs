//! How the adapter is set up: the token, which Bot API server, how updates arrive, and how
//! fast it may send.

use std::fmt;
use std::net::SocketAddr;
use std::time::Duration;

use url::Url;

/// Set-up of the Telegram adapter.
#[derive(Clone)]
pub struct TelegramConfig {
    /// The bot token from @BotFather (`TELEGRAM_TOKEN`). Never logged.
    pub token: String,
    /// Another Bot API server (`TELEGRAM_API_URL`): a local Bot API server, a proxy, or a fake
    /// in tests. `None`: Telegram's own.
    pub api_url: Option<Url>,
    /// Long polling, or a webhook.
    pub receiving: Receiving,
    /// How fast messages may go out.
    pub limits: SendLimits,
    /// How long one `getUpdates` call waits for updates (long polling); at most 15 s, below
    /// teloxide's HTTP timeout (17 s), or every quiet poll would end as a network error.
    pub poll_timeout: Duration,
}

impl TelegramConfig {
    /// Long polling against Telegram's own server, within Telegram's published limits.
    pub fn new(token: impl Into<String>) -> TelegramConfig {
        TelegramConfig {
            token: token.into(),
            api_url: None,
            receiving: Receiving::Polling,
            limits: SendLimits::default(),
            poll_timeout: Duration::from_secs(10),
        }
    }
}

impl fmt::Debug for TelegramConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TelegramConfig")
            .field("token", &"<secret>")
            .field("api_url", &self.api_url.as_ref().map(Url::as_str))
            .field("receiving", &self.receiving)
            .field("limits", &self.limits)
            .field("poll_timeout", &self.poll_timeout)
            .finish()
    }
}

/// How updates reach the bot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Receiving {
    /// `getUpdates` long polling (the default: works behind any firewall).
    Polling,
    /// Telegram posts updates to `url` (`TELEGRAM_WEBHOOK_URL`, https); the adapter listens on
    /// `listen` behind the proxy that terminates TLS for that URL and forwards its path.
    Webhook {
        /// The public URL given to Telegram.
        url: Url,
        /// Where the adapter's HTTP server listens.
        listen: SocketAddr,
    },
}

impl Receiving {
    /// Where a webhook listens unless told otherwise (a port Telegram allows for webhooks).
    pub const DEFAULT_WEBHOOK_LISTEN: &str = "0.0.0.0:8443";
}

/// Send rates, enforced by teloxide's `Throttle` adaptor. The defaults are Telegram's published
/// limits (and teloxide's stricter figure for supergroups); raise them only if Telegram raised
/// them for this bot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SendLimits {
    /// Messages to one chat per second.
    pub per_chat_per_second: u32,
    /// Messages to one chat per minute.
    pub per_chat_per_minute: u32,
    /// Messages to one supergroup or channel per minute.
    pub per_group_per_minute: u32,
    /// Messages in all per second.
    pub overall_per_second: u32,
}

impl Default for SendLimits {
    fn default() -> Self {
        let limits = teloxide::adaptors::throttle::Limits::default();
        SendLimits {
            per_chat_per_second: limits.messages_per_sec_chat,
            per_chat_per_minute: limits.messages_per_min_chat,
            per_group_per_minute: limits.messages_per_min_channel_or_supergroup,
            overall_per_second: limits.messages_per_sec_overall,
        }
    }
}

impl From<SendLimits> for teloxide::adaptors::throttle::Limits {
    fn from(limits: SendLimits) -> Self {
        teloxide::adaptors::throttle::Limits {
            messages_per_sec_chat: limits.per_chat_per_second,
            messages_per_min_chat: limits.per_chat_per_minute,
            messages_per_min_channel_or_supergroup: limits.per_group_per_minute,
            messages_per_sec_overall: limits.overall_per_second,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_token_never_shows_in_debug_output() {
        let config = TelegramConfig::new("123456:very-secret");
        assert!(!format!("{config:?}").contains("very-secret"));
    }
}
