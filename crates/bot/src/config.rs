//! Configuration: environment variables, and the same keys (in lower case) in an optional
//! `jieqi-bot.toml`. The environment wins over the file, so a container can override one
//! value of a mounted file.
//!
//! Values arrive as text and are parsed here, once, into a typed [`Config`]; an error names
//! the key, where it came from (environment variable or file) and what is wrong with it.
//! Tokens are wrapped in [`Token`], whose `Debug` never shows the secret, so a logged
//! `Config` does not leak them.

use std::fmt;
use std::net::SocketAddr;
use std::num::NonZeroU64;
use std::path::{Path, PathBuf};
use std::time::Duration;

use figment::Figment;
use figment::providers::{Env, Format, Toml};
use jieqi_discord::ShardRange;
use jieqi_service::Language;
use jieqi_service::personal_link::WebSecret;
use jieqi_telegram::{Receiving, WebhookSecret};
use serde::Deserialize;
use url::Url;

mod web;

/// The file read when no `--config` is given (if it exists).
pub const DEFAULT_FILE: &str = "jieqi-bot.toml";

/// Every key this binary reads, in the order of the table in `docs/configuration.md`
/// (which gives each one's default and meaning).
pub const KEYS: &[&str] = &[
    "DISCORD_TOKEN",
    "TELEGRAM_TOKEN",
    "DATA_DIR",
    "DATABASE_URL",
    "DATABASE_SCHEMA",
    "DATABASE_CONNECTIONS",
    "DISCORD_API_URL",
    "TELEGRAM_API_URL",
    "DISCORD_GUILD_ID",
    "DISCORD_SHARDS",
    "DISCORD_SHARD_COUNT",
    "TELEGRAM_WEBHOOK_URL",
    "TELEGRAM_WEBHOOK_ADDR",
    "TELEGRAM_WEBHOOK_SECRET",
    "HTTP_ADDR",
    "PUBLIC_URL",
    "WEB_ADDR",
    "WEB_STREAMS_PER_ADDRESS",
    "WEB_SECRET",
    "TELEGRAM_MINI_APP",
    "DISCORD_CLIENT_SECRET",
    "RUST_LOG",
    "CHALLENGE_EXPIRY",
    "DEFAULT_MOVE_TIME",
    "DEFAULT_LANGUAGE",
    "LIVE_BOARD_INTERVAL",
];

/// A bot token. Its `Debug` hides the value and it has no `Display`, so it cannot leak into
/// a log line or an error message by accident.
#[derive(Clone, PartialEq, Eq)]
pub struct Token(String);

impl Token {
    /// Wraps a secret (the configuration does this from text).
    #[cfg(test)]
    pub fn new(secret: impl Into<String>) -> Token {
        Token(secret.into())
    }

    /// The secret itself, for the one place that sends it to the platform.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Token(hidden)")
    }
}

/// The whole configuration, parsed and checked.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    pub discord_token: Option<Token>,
    pub telegram_token: Option<Token>,
    pub data_dir: PathBuf,
    /// `DATABASE_URL`: PostgreSQL instead of sled (a secret: it may hold a password).
    pub database_url: Option<Token>,
    /// `DATABASE_SCHEMA`: the PostgreSQL schema of the bot's tables.
    pub database_schema: String,
    /// `DATABASE_CONNECTIONS`: PostgreSQL connections this process keeps for its calls.
    pub database_connections: usize,
    pub discord_api_url: Option<Url>,
    pub telegram_api_url: Option<Url>,
    pub discord_guild_id: Option<NonZeroU64>,
    /// `DISCORD_SHARDS` of `DISCORD_SHARD_COUNT`; `None`: as many as Discord recommends.
    pub discord_shards: Option<ShardRange>,
    pub telegram_webhook_url: Option<Url>,
    /// Where the webhook's HTTP server listens (`TELEGRAM_WEBHOOK_ADDR`).
    pub telegram_webhook_addr: SocketAddr,
    /// Checked on every webhook post; set whenever `telegram_webhook_url` is.
    pub telegram_webhook_secret: Option<WebhookSecret>,
    pub http_addr: SocketAddr,
    /// `PUBLIC_URL`: where people reach the web page (`None`: no web page).
    pub public_url: Option<Url>,
    /// `WEB_ADDR`: where the web page listens.
    pub web_addr: SocketAddr,
    /// `WEB_STREAMS_PER_ADDRESS`: live streams one client address may hold open.
    pub web_streams_per_address: usize,
    /// `WEB_SECRET`: signs players' personal links to the web board (`None`: no personal
    /// links). Its `Debug` hides it.
    pub web_secret: Option<WebSecret>,
    /// `TELEGRAM_MINI_APP`: the short name of the bot's Mini App (BotFather's `/newapp`).
    pub telegram_mini_app: Option<String>,
    /// `DISCORD_CLIENT_SECRET`: the application's OAuth2 client secret, which signs Discord
    /// users in to the bot's Activity (`None`: no Activity). Its `Debug` hides it.
    pub discord_client_secret: Option<Token>,
    /// `RUST_LOG`, already checked to be a valid filter.
    pub log_filter: Option<String>,
    pub challenge_expiry: Duration,
    pub default_move_time: Duration,
    pub default_language: Language,
    /// `LIVE_BOARD_INTERVAL`: a live game's boards in a group come at most this often.
    pub live_board_interval: Duration,
}

/// Where a configuration file comes from.
#[derive(Debug, Clone)]
pub enum ConfigFile {
    /// `./jieqi-bot.toml` if it exists, else none.
    Default,
    /// A file named on the command line: it must exist.
    Given(PathBuf),
}

/// Why the configuration cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("the configuration file {} does not exist (give an existing file to --config, or leave it out)", .0.display())]
    MissingFile(PathBuf),
    #[error(
        "{origin}: unknown key `{key}`; the keys are {known}{hint}",
        known = known_keys(),
        hint = if key.chars().any(|c| c.is_ascii_uppercase()) {
            " (write them in lower case in the file, e.g. `data_dir = \"/var/lib/jieqi-bot\"`)"
        } else {
            ""
        }
    )]
    UnknownKey { key: String, origin: String },
    #[error("cannot read the configuration: {0}")]
    Unreadable(String),
    #[error("{origin} is {problem}")]
    Invalid { origin: String, problem: String },
}

fn known_keys() -> String {
    KEYS.iter()
        .map(|key| key.to_ascii_lowercase())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The keys as they appear before parsing: every value is text (numbers and booleans from
/// the environment are turned back into text so that `DISCORD_GUILD_ID=123` reads as
/// a string like everything else).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    discord_token: Option<Text>,
    telegram_token: Option<Text>,
    data_dir: Option<Text>,
    database_url: Option<Text>,
    database_schema: Option<Text>,
    database_connections: Option<Text>,
    discord_api_url: Option<Text>,
    telegram_api_url: Option<Text>,
    discord_guild_id: Option<Text>,
    discord_shards: Option<Text>,
    discord_shard_count: Option<Text>,
    telegram_webhook_url: Option<Text>,
    telegram_webhook_addr: Option<Text>,
    telegram_webhook_secret: Option<Text>,
    http_addr: Option<Text>,
    public_url: Option<Text>,
    web_addr: Option<Text>,
    web_streams_per_address: Option<Text>,
    web_secret: Option<Text>,
    telegram_mini_app: Option<Text>,
    discord_client_secret: Option<Text>,
    rust_log: Option<Text>,
    challenge_expiry: Option<Text>,
    default_move_time: Option<Text>,
    default_language: Option<Text>,
    live_board_interval: Option<Text>,
}

/// A value read as text whatever scalar type the provider guessed.
#[derive(Debug)]
struct Text(String);

impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Text, D::Error> {
        struct TextVisitor;
        impl serde::de::Visitor<'_> for TextVisitor {
            type Value = Text;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string, number or boolean")
            }
            fn visit_str<E: serde::de::Error>(self, value: &str) -> Result<Text, E> {
                Ok(Text(value.to_owned()))
            }
            fn visit_bool<E: serde::de::Error>(self, value: bool) -> Result<Text, E> {
                Ok(Text(value.to_string()))
            }
            fn visit_i64<E: serde::de::Error>(self, value: i64) -> Result<Text, E> {
                Ok(Text(value.to_string()))
            }
            fn visit_u64<E: serde::de::Error>(self, value: u64) -> Result<Text, E> {
                Ok(Text(value.to_string()))
            }
            fn visit_i128<E: serde::de::Error>(self, value: i128) -> Result<Text, E> {
                Ok(Text(value.to_string()))
            }
            fn visit_u128<E: serde::de::Error>(self, value: u128) -> Result<Text, E> {
                Ok(Text(value.to_string()))
            }
            fn visit_f64<E: serde::de::Error>(self, value: f64) -> Result<Text, E> {
                Ok(Text(value.to_string()))
            }
        }
        deserializer.deserialize_any(TextVisitor)
    }
}

impl Config {
    /// Reads the file (if any) and the environment; the environment wins.
    pub fn load(file: &ConfigFile) -> Result<Config, ConfigError> {
        let path = match file {
            ConfigFile::Default => Some(PathBuf::from(DEFAULT_FILE)).filter(|path| path.is_file()),
            ConfigFile::Given(path) if path.is_file() => Some(path.clone()),
            ConfigFile::Given(path) => return Err(ConfigError::MissingFile(path.clone())),
        };
        Config::from_figment(&figment(path.as_deref()))
    }

    fn from_figment(figment: &Figment) -> Result<Config, ConfigError> {
        let raw: RawConfig = figment
            .extract()
            .map_err(|error| read_error(figment, error))?;
        Checker { figment }.check(raw)
    }
}

/// The file (if any), then the environment on top of it.
fn figment(file: Option<&Path>) -> Figment {
    let names: Vec<String> = KEYS.iter().map(|key| key.to_ascii_lowercase()).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let mut figment = Figment::new();
    if let Some(file) = file {
        figment = figment.merge(Toml::file_exact(file));
    }
    figment.merge(Env::raw().only(&names))
}

fn read_error(figment: &Figment, error: figment::Error) -> ConfigError {
    if let figment::error::Kind::UnknownField(key, _) = &error.kind {
        let origin = error
            .metadata
            .as_ref()
            .and_then(|metadata| metadata.source.as_ref())
            .map_or_else(
                || "the configuration".to_owned(),
                |source| source.to_string(),
            );
        return ConfigError::UnknownKey {
            key: key.clone(),
            origin,
        };
    }
    // Name the key in the form the user wrote it, when figment knows it.
    let key = error.path.join(".");
    match KEYS.iter().find(|k| k.eq_ignore_ascii_case(&key)) {
        Some(k) => ConfigError::Invalid {
            origin: origin(figment, k),
            problem: format!("not readable ({})", error.kind),
        },
        None => ConfigError::Unreadable(error.to_string()),
    }
}

/// "environment variable HTTP_ADDR" or "`http_addr` in /etc/jieqi-bot.toml".
fn origin(figment: &Figment, name: &str) -> String {
    let lower = name.to_ascii_lowercase();
    match figment.find_metadata(&lower) {
        Some(metadata) => match &metadata.source {
            Some(source) => format!("`{lower}` in {source}"),
            None => format!("environment variable {name}"),
        },
        None => name.to_owned(),
    }
}

struct Checker<'a> {
    figment: &'a Figment,
}

impl Checker<'_> {
    fn check(&self, raw: RawConfig) -> Result<Config, ConfigError> {
        let telegram_webhook_url =
            self.url("TELEGRAM_WEBHOOK_URL", raw.telegram_webhook_url, true)?;
        let telegram_webhook_secret =
            self.webhook_secret(raw.telegram_webhook_secret, telegram_webhook_url.is_some())?;
        let public_url = self.url("PUBLIC_URL", raw.public_url, false)?;
        let telegram_token = token(raw.telegram_token);
        let telegram_mini_app = self.mini_app(
            raw.telegram_mini_app,
            public_url.is_some(),
            telegram_token.is_some(),
        )?;
        Ok(Config {
            discord_token: token(raw.discord_token),
            telegram_token,
            data_dir: match present(raw.data_dir) {
                Some(dir) => PathBuf::from(dir),
                None => PathBuf::from("./data"),
            },
            database_url: token(raw.database_url),
            database_schema: self.schema(raw.database_schema)?,
            database_connections: self.connections(raw.database_connections)?,
            discord_api_url: self.url("DISCORD_API_URL", raw.discord_api_url, false)?,
            telegram_api_url: self.url("TELEGRAM_API_URL", raw.telegram_api_url, false)?,
            discord_guild_id: self.guild_id(raw.discord_guild_id)?,
            discord_shards: self.shards(raw.discord_shards, raw.discord_shard_count)?,
            telegram_webhook_url,
            telegram_webhook_addr: self.webhook_addr(raw.telegram_webhook_addr)?,
            telegram_webhook_secret,
            http_addr: self.http_addr(raw.http_addr)?,
            public_url,
            web_addr: self.socket_addr("WEB_ADDR", raw.web_addr, "0.0.0.0:8090")?,
            web_streams_per_address: self.streams_per_address(raw.web_streams_per_address)?,
            web_secret: self.web_secret(raw.web_secret)?,
            telegram_mini_app,
            discord_client_secret: token(raw.discord_client_secret),
            log_filter: self.log_filter(raw.rust_log)?,
            challenge_expiry: self.duration("CHALLENGE_EXPIRY", raw.challenge_expiry, "1h")?,
            default_move_time: self.duration("DEFAULT_MOVE_TIME", raw.default_move_time, "24h")?,
            default_language: self.language(raw.default_language)?,
            live_board_interval: self.duration(
                "LIVE_BOARD_INTERVAL",
                raw.live_board_interval,
                "20s",
            )?,
        })
    }

    fn invalid(&self, name: &str, problem: String) -> ConfigError {
        ConfigError::Invalid {
            origin: origin(self.figment, name),
            problem,
        }
    }

    fn url(
        &self,
        name: &str,
        raw: Option<Text>,
        https_only: bool,
    ) -> Result<Option<Url>, ConfigError> {
        let Some(text) = present(raw) else {
            return Ok(None);
        };
        let url = Url::parse(&text).map_err(|error| {
            self.invalid(
                name,
                format!(
                    "`{text}`, which is not a URL ({error}); write it like https://example.org/path"
                ),
            )
        })?;
        let allowed: &[&str] = if https_only {
            &["https"]
        } else {
            &["http", "https"]
        };
        if !allowed.contains(&url.scheme()) {
            let wanted = if https_only {
                "an https URL (Telegram only posts updates to https)"
            } else {
                "an http or https URL"
            };
            return Err(self.invalid(name, format!("`{text}`, but it must be {wanted}")));
        }
        Ok(Some(url))
    }

    fn guild_id(&self, raw: Option<Text>) -> Result<Option<NonZeroU64>, ConfigError> {
        let Some(text) = present(raw) else {
            return Ok(None);
        };
        text.parse::<NonZeroU64>().map(Some).map_err(|_| {
            self.invalid(
                "DISCORD_GUILD_ID",
                format!(
                    "`{text}`, which is not a server id: copy the id (a number such as 1234567890123456789) \
                     with \"Copy Server ID\" in Discord's developer mode"
                ),
            )
        })
    }

    fn shards(
        &self,
        shards: Option<Text>,
        count: Option<Text>,
    ) -> Result<Option<ShardRange>, ConfigError> {
        let (shards, count) = (present(shards), present(count));
        let count = match count {
            None => None,
            Some(text) => Some(text.parse::<u32>().ok().filter(|n| *n > 0).ok_or_else(|| {
                self.invalid(
                    "DISCORD_SHARD_COUNT",
                    format!("`{text}`, which is not a number of shards: write 1 or more, e.g. 8"),
                )
            })?),
        };
        match (shards, count) {
            (None, None) => Ok(None),
            (None, Some(count)) => Ok(ShardRange::all(count).ok()),
            (Some(text), None) => Err(self.invalid(
                "DISCORD_SHARDS",
                format!(
                    "`{text}` without DISCORD_SHARD_COUNT: set that to the bot's total number of shards"
                ),
            )),
            (Some(text), Some(count)) => ShardRange::parse(&text, count)
                .map(Some)
                .map_err(|error| {
                    self.invalid(
                        "DISCORD_SHARDS",
                        format!("`{text}` of {count} shards (DISCORD_SHARD_COUNT): {error}"),
                    )
                }),
        }
    }

    fn schema(&self, raw: Option<Text>) -> Result<String, ConfigError> {
        let Some(name) = present(raw) else {
            return Ok("public".to_owned());
        };
        let mut chars = name.chars();
        let first_ok = chars
            .next()
            .is_some_and(|c| c.is_ascii_lowercase() || c == '_');
        if first_ok
            && name.len() <= 63
            && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        {
            Ok(name)
        } else {
            Err(self.invalid(
                "DATABASE_SCHEMA",
                format!(
                    "`{}`, not a schema name: use lower-case letters, digits and _ (at most 63, \
                     not starting with a digit), e.g. jieqi",
                    name.chars().take(64).collect::<String>()
                ),
            ))
        }
    }

    fn connections(&self, raw: Option<Text>) -> Result<usize, ConfigError> {
        let Some(text) = present(raw) else {
            return Ok(jieqi_store_pg::DEFAULT_CONNECTIONS);
        };
        match text.parse::<usize>() {
            Ok(n) if (1..=1000).contains(&n) => Ok(n),
            _ => Err(self.invalid(
                "DATABASE_CONNECTIONS",
                format!(
                    "`{}`, not a number of connections from 1 to 1000, e.g. 16",
                    text.chars().take(64).collect::<String>()
                ),
            )),
        }
    }

    fn socket_addr(
        &self,
        name: &str,
        raw: Option<Text>,
        default: &str,
    ) -> Result<SocketAddr, ConfigError> {
        let text = present(raw).unwrap_or_else(|| default.to_owned());
        text.parse::<SocketAddr>().map_err(|_| {
            self.invalid(
                name,
                format!("`{text}`, which is not an IP address and port such as {default}"),
            )
        })
    }

    fn streams_per_address(&self, raw: Option<Text>) -> Result<usize, ConfigError> {
        let Some(text) = present(raw) else {
            return Ok(64);
        };
        match text.parse::<usize>() {
            Ok(n) if (1..=100_000).contains(&n) => Ok(n),
            _ => Err(self.invalid(
                "WEB_STREAMS_PER_ADDRESS",
                format!("`{text}`, not a number of streams from 1 to 100000, e.g. 64"),
            )),
        }
    }

    fn http_addr(&self, raw: Option<Text>) -> Result<SocketAddr, ConfigError> {
        let text = present(raw).unwrap_or_else(|| "127.0.0.1:8080".to_owned());
        text.parse::<SocketAddr>().map_err(|_| {
            self.invalid(
                "HTTP_ADDR",
                format!("`{text}`, which is not an IP address and port such as 127.0.0.1:8080 or 0.0.0.0:8080"),
            )
        })
    }

    // Telegram webhook (several processes behind one URL share the address and the secret).
    fn webhook_addr(&self, raw: Option<Text>) -> Result<SocketAddr, ConfigError> {
        let text = present(raw).unwrap_or_else(|| Receiving::DEFAULT_WEBHOOK_LISTEN.to_owned());
        text.parse::<SocketAddr>().map_err(|_| {
            self.invalid(
                "TELEGRAM_WEBHOOK_ADDR",
                format!("`{text}`, which is not an IP address and port such as 0.0.0.0:8443"),
            )
        })
    }

    fn webhook_secret(
        &self,
        raw: Option<Text>,
        webhook: bool,
    ) -> Result<Option<WebhookSecret>, ConfigError> {
        match present(raw) {
            Some(text) => WebhookSecret::new(&text)
                .map(Some)
                .map_err(|error| self.invalid("TELEGRAM_WEBHOOK_SECRET", error.to_string())),
            None if webhook => Err(self.invalid(
                "TELEGRAM_WEBHOOK_SECRET",
                "not set, but TELEGRAM_WEBHOOK_URL is: set it to the secret every bot process \
                 behind the webhook checks (1 to 256 of A-Z, a-z, 0-9, _ and -, e.g. from \
                 `openssl rand -hex 32`)"
                    .to_owned(),
            )),
            None => Ok(None),
        }
    }

    fn log_filter(&self, raw: Option<Text>) -> Result<Option<String>, ConfigError> {
        let Some(text) = present(raw) else {
            return Ok(None);
        };
        match tracing_subscriber::EnvFilter::try_new(&text) {
            Ok(_) => Ok(Some(text)),
            Err(error) => Err(self.invalid(
                "RUST_LOG",
                format!("`{text}`, which is not a log filter ({error}); try `info` or `jieqi_service=debug,info`"),
            )),
        }
    }

    fn duration(
        &self,
        name: &str,
        raw: Option<Text>,
        default: &str,
    ) -> Result<Duration, ConfigError> {
        let text = present(raw).unwrap_or_else(|| default.to_owned());
        match humantime::parse_duration(&text) {
            Ok(duration) if !duration.is_zero() => Ok(duration),
            Ok(_) => Err(self.invalid(name, format!("`{text}`, but it must be longer than zero"))),
            Err(error) => Err(self.invalid(
                name,
                format!(
                    "`{text}`, which is not a duration ({error}); write it like 30m, 1h or 24h"
                ),
            )),
        }
    }

    fn language(&self, raw: Option<Text>) -> Result<Language, ConfigError> {
        let Some(text) = present(raw) else {
            return Ok(Language::default());
        };
        text.parse::<Language>().map_err(|_| {
            let codes: Vec<&str> = Language::ALL
                .iter()
                .map(|language| language.code())
                .collect();
            self.invalid(
                "DEFAULT_LANGUAGE",
                format!("`{text}`, but the languages are {}", codes.join(", ")),
            )
        })
    }
}

/// An empty value counts as unset: compose files often pass `DISCORD_TOKEN=` through.
fn present(raw: Option<Text>) -> Option<String> {
    raw.map(|Text(text)| text.trim().to_owned())
        .filter(|text| !text.is_empty())
}

fn token(raw: Option<Text>) -> Option<Token> {
    present(raw).map(Token)
}

#[cfg(test)]
#[allow(clippy::result_large_err)] // `Jail` closures must return figment's own (large) error type.
mod tests;
