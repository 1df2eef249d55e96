//! What the Discord adapter needs to know: the token, where Discord's HTTP API is, the guild
//! commands go to during development, which gateway shards this process runs, how long an
//! interaction may wait before it is deferred, and how long a deferred one waits for its own
//! process before another finishes it.

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
    /// answered with a follow-up. Discord gives three seconds for the first answer. Zero:
    /// always defer.
    pub respond_within: Duration,
    /// How long a deferred interaction's own process has to answer it before any process
    /// running the outbox may (it died meanwhile): the answer is then read from the store,
    /// or, if the request never went through, the requester is told to send it again. Well
    /// inside the interaction token's 15 minutes, and well past a slow answer's time.
    pub take_over_after: Duration,
    /// The gateway shards this process runs (`DISCORD_SHARDS` of `DISCORD_SHARD_COUNT`), so
    /// that several processes share the bot's guilds; `None`: all of them, as many as Discord
    /// recommends. The outbox is delivered by every process whatever its shards.
    pub shards: Option<ShardRange>,
    /// Whether the bot's Activity is on (`DISCORD_CLIENT_SECRET` set, with the web page):
    /// its entry point command is registered, and "Play in Discord" and `/launch` open it.
    pub activity: bool,
}

/// A range of gateway shards out of a shard count: `2-3` of 8 runs shards 2 and 3. Discord
/// sends a guild's interactions to shard `(guild_id >> 22) % count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShardRange {
    first: u32,
    last: u32,
    count: u32,
}

/// Why a shard range cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShardRangeError {
    /// `DISCORD_SHARDS` is not `N` or `N-M`.
    #[error("`{0}` is not a shard or a range of shards: write it like 2, or 0-3")]
    Unreadable(String),
    /// The range runs backwards.
    #[error("shards {first}-{last} run backwards: write the lower shard first ({last}-{first})")]
    Backwards {
        /// The first shard named.
        first: u32,
        /// The last shard named.
        last: u32,
    },
    /// A shard at or past the count (shards are numbered from 0).
    #[error(
        "shard {last} does not exist with {count} shards: shards are numbered 0 to {}",
        count.saturating_sub(1)
    )]
    OutOfCount {
        /// The highest shard named.
        last: u32,
        /// The shard count.
        count: u32,
    },
    /// No shards at all.
    #[error("the shard count must be at least 1")]
    NoShards,
}

impl ShardRange {
    /// Shards `first..=last` of `count`.
    pub fn new(first: u32, last: u32, count: u32) -> Result<ShardRange, ShardRangeError> {
        if count == 0 {
            return Err(ShardRangeError::NoShards);
        }
        if first > last {
            return Err(ShardRangeError::Backwards { first, last });
        }
        if last >= count {
            return Err(ShardRangeError::OutOfCount { last, count });
        }
        Ok(ShardRange { first, last, count })
    }

    /// Every shard of `count`.
    pub fn all(count: u32) -> Result<ShardRange, ShardRangeError> {
        ShardRange::new(0, count.saturating_sub(1), count)
    }

    /// `N` or `N-M` (as in `DISCORD_SHARDS`) of `count`.
    pub fn parse(text: &str, count: u32) -> Result<ShardRange, ShardRangeError> {
        let unreadable = || ShardRangeError::Unreadable(text.to_owned());
        let number = |s: &str| s.trim().parse::<u32>().map_err(|_| unreadable());
        let (first, last) = match text.split_once('-') {
            Some((first, last)) => (number(first)?, number(last)?),
            None => {
                let shard = number(text)?;
                (shard, shard)
            }
        };
        ShardRange::new(first, last, count)
    }

    /// The first shard.
    pub fn first(&self) -> u32 {
        self.first
    }

    /// The last shard (included).
    pub fn last(&self) -> u32 {
        self.last
    }

    /// How many shards the bot has in all.
    pub fn count(&self) -> u32 {
        self.count
    }
}

impl fmt::Display for ShardRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{} of {}", self.first, self.last, self.count)
    }
}

/// The default of [`DiscordConfig::respond_within`]: well inside Discord's three seconds.
pub const RESPOND_WITHIN: Duration = Duration::from_millis(1500);
/// The default of [`DiscordConfig::take_over_after`].
pub const TAKE_OVER_AFTER: Duration = Duration::from_secs(20);

impl DiscordConfig {
    /// A configuration talking to Discord itself, with commands registered globally.
    pub fn new(token: impl Into<String>) -> DiscordConfig {
        DiscordConfig {
            token: token.into(),
            api_url: None,
            guild_id: None,
            respond_within: RESPOND_WITHIN,
            take_over_after: TAKE_OVER_AFTER,
            shards: None,
            activity: false,
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
            .field("take_over_after", &self.take_over_after)
            .field("shards", &self.shards)
            .field("activity", &self.activity)
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
    fn shard_ranges_are_checked_against_the_count() {
        let range = ShardRange::parse("2-3", 8).unwrap();
        assert_eq!((range.first(), range.last(), range.count()), (2, 3, 8));
        assert_eq!(ShardRange::parse(" 5 ", 8), ShardRange::new(5, 5, 8));
        assert_eq!(ShardRange::all(4), ShardRange::new(0, 3, 4));
        assert_eq!(
            ShardRange::parse("3-1", 8),
            Err(ShardRangeError::Backwards { first: 3, last: 1 })
        );
        let error = ShardRange::parse("4-8", 8).unwrap_err();
        assert_eq!(error, ShardRangeError::OutOfCount { last: 8, count: 8 });
        assert!(error.to_string().contains("0 to 7"), "{error}");
        assert!(matches!(
            ShardRange::parse("1..2", 8),
            Err(ShardRangeError::Unreadable(_))
        ));
        assert_eq!(ShardRange::all(0), Err(ShardRangeError::NoShards));
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
