//! Structured logs with `tracing`, written to standard error so that standard output stays
//! the chat transcript in `jieqi-bot local`.
//!
//! The filter starts from the `RUST_LOG` environment variable (or a default) as soon as the
//! binary starts, and is replaced once the configuration is loaded, because `RUST_LOG` may
//! also come from `jieqi-bot.toml`. What is logged at info level must be public: the
//! service never logs a deal or a salt above debug level, and this crate logs neither.

use std::io::IsTerminal;
use std::sync::OnceLock;

use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::{EnvFilter, Registry, reload};

static FILTER: OnceLock<reload::Handle<EnvFilter, Registry>> = OnceLock::new();

/// Why a log filter could not be applied.
#[derive(Debug, thiserror::Error)]
pub enum LogError {
    #[error(
        "`{directive}` is not a log filter ({reason}); try `info` or `jieqi_service=debug,info`"
    )]
    BadFilter { directive: String, reason: String },
    #[error("the log filter could not be changed ({0})")]
    Reload(String),
}

/// Installs the global subscriber. `default` is used when `RUST_LOG` is unset or unusable
/// (the configuration check reports an unusable one properly later).
pub fn init(default: &str) {
    let from_env = std::env::var("RUST_LOG")
        .ok()
        .filter(|d| !d.trim().is_empty());
    let (filter, rejected) = match from_env {
        Some(directive) => match EnvFilter::try_new(&directive) {
            Ok(filter) => (filter, None),
            Err(_) => (EnvFilter::new(default), Some(directive)),
        },
        None => (EnvFilter::new(default), None),
    };
    let (filter, handle) = reload::Layer::new(filter);
    let output = tracing_subscriber::fmt::layer()
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal());
    if tracing_subscriber::registry()
        .with(filter)
        .with(output)
        .try_init()
        .is_ok()
    {
        // Only the first init wins; a second call (tests) keeps the first subscriber.
        let _ = FILTER.set(handle);
    }
    if let Some(directive) = rejected {
        tracing::warn!(%directive, "RUST_LOG is not a valid log filter; using `{default}`");
    }
}

/// Replaces the filter, e.g. with `RUST_LOG` from the configuration file.
pub fn set_filter(directive: &str) -> Result<(), LogError> {
    let filter = EnvFilter::try_new(directive).map_err(|error| LogError::BadFilter {
        directive: directive.to_owned(),
        reason: error.to_string(),
    })?;
    match FILTER.get() {
        Some(handle) => handle
            .reload(filter)
            .map_err(|error| LogError::Reload(error.to_string())),
        // No subscriber of ours is installed (a unit test): nothing to change.
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bad_filter_is_refused_with_an_example() {
        let error = set_filter("info,=[")
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(error.contains("not a log filter"), "{error}");
        assert!(error.contains("try `info`"), "{error}");
    }

    #[test]
    fn a_good_filter_is_accepted() {
        assert!(set_filter("jieqi_service=debug,info").is_ok());
    }
}
