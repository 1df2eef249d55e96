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
    /// `getUpdates` long polling (the default: works behind any firewall; one process only).
    Polling,
    /// Telegram posts updates to `url` (`TELEGRAM_WEBHOOK_URL`, https); the adapter listens on
    /// `listen` (`TELEGRAM_WEBHOOK_ADDR`) behind the proxy or load balancer that terminates TLS
    /// for that URL and forwards its path. Several processes may serve one URL: they all check
    /// the same `secret`.
    Webhook {
        /// The public URL given to Telegram.
        url: Url,
        /// Where the adapter's HTTP server listens.
        listen: SocketAddr,
        /// What Telegram sends in every post (`TELEGRAM_WEBHOOK_SECRET`).
        secret: WebhookSecret,
    },
}

impl Receiving {
    /// Where a webhook listens unless told otherwise (a port Telegram allows for webhooks).
    pub const DEFAULT_WEBHOOK_LISTEN: &str = "0.0.0.0:8443";
}

/// The secret token Telegram repeats in the `X-Telegram-Bot-Api-Secret-Token` header of every
/// webhook post: 1 to 256 characters of `A-Z`, `a-z`, `0-9`, `_` and `-` (Telegram's rule).
/// Its `Debug` never shows it.
#[derive(Clone, PartialEq, Eq)]
pub struct WebhookSecret(String);

/// A webhook secret Telegram would refuse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WebhookSecretError {
    /// Empty, or longer than 256 characters.
    #[error("{0} characters long, but it must have 1 to 256 (e.g. 64 from `openssl rand -hex 32`)")]
    Length(usize),
    /// A character Telegram does not allow.
    #[error(
        "not allowed to contain `{0}`: use only A-Z, a-z, 0-9, _ and - (e.g. `openssl rand -hex 32`)"
    )]
    Character(char),
}

impl WebhookSecret {
    /// Checks `secret` against Telegram's rule.
    pub fn new(secret: &str) -> Result<WebhookSecret, WebhookSecretError> {
        let length = secret.chars().count();
        if !(1..=256).contains(&length) {
            return Err(WebhookSecretError::Length(length));
        }
        if let Some(bad) = secret
            .chars()
            .find(|c| !(c.is_ascii_alphanumeric() || *c == '_' || *c == '-'))
        {
            return Err(WebhookSecretError::Character(bad));
        }
        Ok(WebhookSecret(secret.to_owned()))
    }

    /// The secret itself, for `setWebhook` and the check of each post.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for WebhookSecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("WebhookSecret(hidden)")
    }
}

/// Send rates, kept per chat (a chat over its rate waits alone) and overall. The defaults are
/// Telegram's published limits; raise them only if Telegram raised them for this bot.
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
        SendLimits {
            per_chat_per_second: 1,
            per_chat_per_minute: 20,
            per_group_per_minute: 20,
            overall_per_second: 30,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn webhook_secrets_follow_telegrams_rule_and_stay_hidden() {
        let secret = WebhookSecret::new("Abc_09-xyz").expect("valid");
        assert_eq!(secret.expose(), "Abc_09-xyz");
        assert!(!format!("{secret:?}").contains("Abc"));
        assert!(WebhookSecret::new(&"a".repeat(256)).is_ok());
        assert_eq!(WebhookSecret::new(""), Err(WebhookSecretError::Length(0)));
        assert_eq!(
            WebhookSecret::new(&"a".repeat(257)),
            Err(WebhookSecretError::Length(257))
        );
        assert_eq!(
            WebhookSecret::new("with space"),
            Err(WebhookSecretError::Character(' '))
        );
        assert_eq!(
            WebhookSecret::new("sécret"),
            Err(WebhookSecretError::Character('é'))
        );
    }

    #[test]
    fn the_token_never_shows_in_debug_output() {
        let config = TelegramConfig::new("123456:very-secret");
        assert!(!format!("{config:?}").contains("very-secret"));
    }
}
