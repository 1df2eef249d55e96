//! What the Discord adapter needs to know: the token, where Discord's HTTP API is, the guild
//! commands go to during development, and how long an interaction may wait before it is
//! deferred.

use std::fmt;
use std::num::NonZeroU64;
use std::time::Duration;

use serenity::http::{Http, HttpBuilder};
use url::Url;

/// Set-up of the Discord adapter.
#[derive(Clone)]
pub struct DiscordConfig {
    /// The bot token (`DISCORD_TOKEN`). Never printed.
    pub token: String,
    /// Another base URL for Discord's HTTP API (`DISCORD_API_URL`): a fake Discord in tests,
    /// or a rate-limiting proxy in front of several bots. Requests then go to
    /// `<api_url>/api/v10/...` and serenity's own rate limiter is off, because the proxy (or
    /// the fake) owns rate limiting.
    pub api_url: Option<Url>,
    /// Register the commands in this guild only (`DISCORD_GUILD_ID`): guild commands appear
    /// at once, global ones can take a while, so this is the setting for development.
    pub guild_id: Option<NonZeroU64>,
    /// An interaction whose answer is not ready this soon is deferred ("thinking…") and
    /// answered with a follow-up. Discord gives three seconds for the first answer.
    pub respond_within: Duration,
}

/// The default of [`DiscordConfig::respond_within`]: well inside Discord's three seconds.
pub const RESPOND_WITHIN: Duration = Duration::from_millis(1500);

impl DiscordConfig {
    /// A configuration talking to Discord itself, with commands registered globally.
    pub fn new(token: impl Into<String>) -> DiscordConfig {
        DiscordConfig {
            token: token.into(),
            api_url: None,
            guild_id: None,
            respond_within: RESPOND_WITHIN,
        }
    }

    /// An HTTP client for this configuration.
    pub(crate) fn http(&self) -> Http {
        let builder = HttpBuilder::new(&self.token);
        match &self.api_url {
            // serenity swaps `https://discord.com` for the proxy in every route; its own rate
            // limiter only works against Discord itself, so it is off here.
            Some(url) => builder
                .proxy(url.as_str().trim_end_matches('/'))
                .ratelimiter_disabled(true)
                .build(),
            None => builder.build(),
        }
    }
}

impl fmt::Debug for DiscordConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DiscordConfig")
            .field("token", &"<secret>")
            .field("api_url", &self.api_url.as_ref().map(Url::as_str))
            .field("guild_id", &self.guild_id)
            .field("respond_within", &self.respond_within)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_token_never_appears_in_debug_output() {
        let config = DiscordConfig::new("secret-token-123");
        let shown = format!("{config:?}");
        assert!(!shown.contains("secret-token-123"), "{shown}");
        assert!(shown.contains("<secret>"));
    }

    #[test]
    fn an_api_url_becomes_the_proxy_without_a_trailing_slash() {
        let mut config = DiscordConfig::new("t");
        config.api_url = Some(Url::parse("http://127.0.0.1:4000/").unwrap());
        let http = config.http();
        assert_eq!(http.proxy.as_deref(), Some("http://127.0.0.1:4000"));
        assert!(http.ratelimiter.is_none());
        assert!(DiscordConfig::new("t").http().ratelimiter.is_some());
    }
}
