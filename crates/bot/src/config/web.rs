//! The settings of playing on the web board: `WEB_SECRET`, which signs players' personal
//! links (every process must share it, and whoever knows it can sign a link to play as
//! anyone), and `TELEGRAM_MINI_APP`, the short name of the bot's Telegram Mini App.

use jieqi_service::personal_link::WebSecret;

use super::{Checker, ConfigError, Text, present};

/// The longest Mini App short name Telegram accepts, and the shortest.
const MINI_APP_NAME: std::ops::RangeInclusive<usize> = 3..=30;

impl Checker<'_> {
    /// `WEB_SECRET`, taken as its bytes. The value is never repeated in an error.
    pub(super) fn web_secret(&self, raw: Option<Text>) -> Result<Option<WebSecret>, ConfigError> {
        let Some(text) = present(raw) else {
            return Ok(None);
        };
        let length = text.len();
        WebSecret::new(text.into_bytes()).map(Some).ok_or_else(|| {
            self.invalid(
                "WEB_SECRET",
                format!(
                    "{length} bytes long, but it must be at least {} (whoever guesses it can play \
                     as anyone on the web board): make one with `openssl rand -hex 32` and give \
                     every bot process the same",
                    WebSecret::SHORTEST
                ),
            )
        })
    }

    /// `TELEGRAM_MINI_APP`: the short name given to @BotFather's `/newapp`. The Mini App is
    /// the web page (`PUBLIC_URL/app`) of the Telegram bot, so it needs both.
    pub(super) fn mini_app(
        &self,
        raw: Option<Text>,
        public_url: bool,
        telegram: bool,
    ) -> Result<Option<String>, ConfigError> {
        let Some(name) = present(raw) else {
            return Ok(None);
        };
        if !is_mini_app_name(&name) {
            return Err(self.invalid(
                "TELEGRAM_MINI_APP",
                format!(
                    "`{}`, not a Mini App short name: write the short name you gave @BotFather's \
                     /newapp ({} to {} of A-Z, a-z, 0-9 and _; the app's link is \
                     t.me/<bot>/<short name>)",
                    name.chars().take(40).collect::<String>(),
                    MINI_APP_NAME.start(),
                    MINI_APP_NAME.end(),
                ),
            ));
        }
        if !public_url {
            return Err(self.invalid(
                "TELEGRAM_MINI_APP",
                "set, but PUBLIC_URL is not: the Mini App is the web page at PUBLIC_URL/app, so \
                 set PUBLIC_URL too (or unset TELEGRAM_MINI_APP)"
                    .to_owned(),
            ));
        }
        if !telegram {
            return Err(self.invalid(
                "TELEGRAM_MINI_APP",
                "set, but TELEGRAM_TOKEN is not: the Mini App belongs to the Telegram bot, so \
                 set TELEGRAM_TOKEN too (or unset TELEGRAM_MINI_APP)"
                    .to_owned(),
            ));
        }
        Ok(Some(name))
    }
}

fn is_mini_app_name(name: &str) -> bool {
    MINI_APP_NAME.contains(&name.len())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

#[cfg(test)]
#[allow(clippy::result_large_err)] // `Jail` closures must return figment's own (large) error type.
mod tests {
    use figment::Jail;

    use super::super::{Config, ConfigFile};
    use super::*;

    fn refusal() -> String {
        Config::load(&ConfigFile::Default)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default()
    }

    #[test]
    fn a_short_web_secret_is_refused_naming_the_setting_without_repeating_it() {
        Jail::expect_with(|jail| {
            jail.clear_env();
            jail.set_env("WEB_SECRET", "hunter2-is-too-short");
            let error = refusal();
            assert!(error.contains("environment variable WEB_SECRET"), "{error}");
            assert!(
                error.contains("20 bytes") && error.contains("at least 32"),
                "{error}"
            );
            assert!(error.contains("openssl rand -hex 32"), "{error}");
            assert!(
                !error.contains("hunter2"),
                "the secret is not repeated: {error}"
            );
            Ok(())
        });
    }

    #[test]
    fn a_long_enough_web_secret_is_kept_and_never_shown() {
        Jail::expect_with(|jail| {
            jail.clear_env();
            let secret = "0123456789abcdef0123456789abcdef";
            jail.set_env("WEB_SECRET", secret);
            let config = Config::load(&ConfigFile::Default).map_err(|e| e.to_string())?;
            assert_eq!(config.web_secret, WebSecret::new(secret.as_bytes()));
            assert!(
                !format!("{config:?}").contains(secret),
                "a logged configuration shows no secret"
            );
            jail.set_env("WEB_SECRET", "");
            let config = Config::load(&ConfigFile::Default).map_err(|e| e.to_string())?;
            assert_eq!(config.web_secret, None, "empty counts as unset");
            Ok(())
        });
    }

    #[test]
    fn a_bad_mini_app_name_is_refused_with_what_a_name_looks_like() {
        Jail::expect_with(|jail| {
            jail.clear_env();
            jail.set_env("PUBLIC_URL", "https://bot.example.org");
            jail.set_env("TELEGRAM_TOKEN", "123:abc");
            for bad in [
                "ab",
                "board-app",
                "t.me/bot/board",
                &"x".repeat(31),
                "доска",
            ] {
                jail.set_env("TELEGRAM_MINI_APP", bad);
                let error = refusal();
                assert!(
                    error.contains("environment variable TELEGRAM_MINI_APP")
                        && error.contains("/newapp")
                        && error.contains("3 to 30"),
                    "{bad}: {error}"
                );
            }
            jail.set_env("TELEGRAM_MINI_APP", "board");
            let config = Config::load(&ConfigFile::Default).map_err(|e| e.to_string())?;
            assert_eq!(config.telegram_mini_app.as_deref(), Some("board"));
            Ok(())
        });
    }

    #[test]
    fn a_mini_app_needs_the_web_page_and_the_telegram_bot() {
        Jail::expect_with(|jail| {
            jail.clear_env();
            jail.set_env("TELEGRAM_MINI_APP", "board");
            jail.set_env("TELEGRAM_TOKEN", "123:abc");
            let error = refusal();
            assert!(
                error.contains("TELEGRAM_MINI_APP") && error.contains("PUBLIC_URL is not"),
                "{error}"
            );
            jail.set_env("PUBLIC_URL", "https://bot.example.org");
            jail.set_env("TELEGRAM_TOKEN", "");
            let error = refusal();
            assert!(
                error.contains("TELEGRAM_MINI_APP") && error.contains("TELEGRAM_TOKEN is not"),
                "{error}"
            );
            Ok(())
        });
    }
}
