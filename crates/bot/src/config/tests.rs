//! The configuration's tests: defaults, the file and the environment, and every refusal
//! naming what is wrong.

use super::*;
use figment::Jail;

#[test]
fn defaults_apply_when_nothing_is_set() {
    Jail::expect_with(|jail| {
        jail.clear_env();
        let config = Config::load(&ConfigFile::Default).map_err(|e| e.to_string())?;
        assert_eq!(config.discord_token, None);
        assert_eq!(config.telegram_token, None);
        assert_eq!(config.data_dir, PathBuf::from("./data"));
        assert_eq!(
            config.http_addr,
            "127.0.0.1:8080"
                .parse::<SocketAddr>()
                .map_err(|e| e.to_string())?
        );
        assert_eq!(config.challenge_expiry, Duration::from_secs(3600));
        assert_eq!(config.default_move_time, Duration::from_secs(24 * 3600));
        assert_eq!(config.default_language, Language::En);
        assert_eq!(config.log_filter, None);
        Ok(())
    });
}

#[test]
fn environment_wins_over_the_file() {
    Jail::expect_with(|jail| {
        jail.clear_env();
        jail.create_file(
            DEFAULT_FILE,
            "data_dir = \"/from/file\"\nhttp_addr = \"0.0.0.0:9000\"\ndefault_language = \"vi\"\n",
        )?;
        jail.set_env("DATA_DIR", "/from/env");
        let config = Config::load(&ConfigFile::Default).map_err(|e| e.to_string())?;
        assert_eq!(config.data_dir, PathBuf::from("/from/env"));
        assert_eq!(config.http_addr.port(), 9000);
        assert_eq!(config.default_language, Language::Vi);
        Ok(())
    });
}

#[test]
fn numeric_environment_values_are_read_as_text() {
    Jail::expect_with(|jail| {
        jail.clear_env();
        jail.set_env("DISCORD_GUILD_ID", "1234567890123456789");
        jail.set_env("TELEGRAM_TOKEN", "123456:ABC-def_ghi");
        let config = Config::load(&ConfigFile::Default).map_err(|e| e.to_string())?;
        assert_eq!(
            config.discord_guild_id.map(NonZeroU64::get),
            Some(1_234_567_890_123_456_789)
        );
        assert_eq!(
            config.telegram_token.as_ref().map(Token::expose),
            Some("123456:ABC-def_ghi")
        );
        Ok(())
    });
}

#[test]
fn an_empty_token_counts_as_unset() {
    Jail::expect_with(|jail| {
        jail.clear_env();
        jail.set_env("DISCORD_TOKEN", "  ");
        let config = Config::load(&ConfigFile::Default).map_err(|e| e.to_string())?;
        assert_eq!(config.discord_token, None);
        Ok(())
    });
}

#[test]
fn a_bad_address_error_names_the_variable_and_the_fix() {
    Jail::expect_with(|jail| {
        jail.clear_env();
        jail.set_env("HTTP_ADDR", "localhost");
        let error = Config::load(&ConfigFile::Default)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(error.contains("environment variable HTTP_ADDR"), "{error}");
        assert!(error.contains("`localhost`"), "{error}");
        assert!(error.contains("127.0.0.1:8080"), "{error}");
        Ok(())
    });
}

#[test]
fn database_connections_default_to_sixteen_and_a_bad_count_is_refused_naming_the_range() {
    Jail::expect_with(|jail| {
        jail.clear_env();
        let config = Config::load(&ConfigFile::Default).map_err(|e| e.to_string())?;
        assert_eq!(config.database_connections, 16);
        jail.set_env("DATABASE_CONNECTIONS", "6");
        let config = Config::load(&ConfigFile::Default).map_err(|e| e.to_string())?;
        assert_eq!(config.database_connections, 6);
        for bad in ["0", "1001", "many", "-3"] {
            jail.set_env("DATABASE_CONNECTIONS", bad);
            let error = Config::load(&ConfigFile::Default)
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default();
            assert!(
                error.contains("environment variable DATABASE_CONNECTIONS"),
                "{error}"
            );
            assert!(error.contains(&format!("`{bad}`")), "{error}");
            assert!(error.contains("from 1 to 1000"), "{error}");
        }
        Ok(())
    });
}

#[test]
fn a_bad_value_in_the_file_names_the_file() {
    Jail::expect_with(|jail| {
        jail.clear_env();
        jail.create_file(DEFAULT_FILE, "challenge_expiry = \"soon\"\n")?;
        let error = Config::load(&ConfigFile::Default)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(error.contains("`challenge_expiry` in"), "{error}");
        assert!(error.contains(DEFAULT_FILE), "{error}");
        assert!(error.contains("30m, 1h or 24h"), "{error}");
        Ok(())
    });
}

#[test]
fn an_unknown_key_in_the_file_is_refused_with_the_list_of_keys() {
    Jail::expect_with(|jail| {
        jail.clear_env();
        jail.create_file(DEFAULT_FILE, "DISCORD_TOKEN = \"x\"\n")?;
        let error = Config::load(&ConfigFile::Default)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(error.contains("unknown key `DISCORD_TOKEN`"), "{error}");
        assert!(error.contains("lower case"), "{error}");
        assert!(error.contains("discord_token"), "{error}");
        Ok(())
    });
}

#[test]
fn a_missing_given_file_is_an_error() {
    Jail::expect_with(|jail| {
        jail.clear_env();
        let error = Config::load(&ConfigFile::Given(PathBuf::from("nowhere.toml")))
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(error.contains("nowhere.toml does not exist"), "{error}");
        Ok(())
    });
}

#[test]
fn webhook_must_be_https_and_language_must_be_known() {
    Jail::expect_with(|jail| {
        jail.clear_env();
        jail.set_env("TELEGRAM_WEBHOOK_URL", "http://example.org/hook");
        let error = Config::load(&ConfigFile::Default)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(
            error.contains("TELEGRAM_WEBHOOK_URL") && error.contains("https"),
            "{error}"
        );
        jail.set_env("TELEGRAM_WEBHOOK_URL", "https://example.org/hook");
        jail.set_env("TELEGRAM_WEBHOOK_SECRET", "s3cret");
        jail.set_env("DEFAULT_LANGUAGE", "fr");
        let error = Config::load(&ConfigFile::Default)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(
            error.contains("DEFAULT_LANGUAGE") && error.contains("en, zh, vi"),
            "{error}"
        );
        Ok(())
    });
}

// Telegram webhook address and secret.
#[test]
fn a_webhook_needs_a_valid_shared_secret_and_listens_where_told() {
    Jail::expect_with(|jail| {
        jail.clear_env();
        let error = |_: &Jail| {
            Config::load(&ConfigFile::Default)
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default()
        };
        jail.set_env("TELEGRAM_WEBHOOK_URL", "https://example.org/hook");
        let missing = error(jail);
        assert!(
            missing.contains("TELEGRAM_WEBHOOK_SECRET") && missing.contains("not set"),
            "{missing}"
        );
        jail.set_env("TELEGRAM_WEBHOOK_SECRET", "no spaces");
        let bad = error(jail);
        assert!(
            bad.contains("environment variable TELEGRAM_WEBHOOK_SECRET")
                && bad.contains("A-Z, a-z, 0-9, _ and -"),
            "{bad}"
        );
        assert!(
            !bad.contains("no spaces"),
            "the secret is not repeated: {bad}"
        );
        jail.set_env("TELEGRAM_WEBHOOK_SECRET", "x".repeat(257));
        assert!(error(jail).contains("1 to 256"));
        jail.set_env("TELEGRAM_WEBHOOK_SECRET", "Shared_secret-1");
        jail.set_env("TELEGRAM_WEBHOOK_ADDR", "8443");
        let addr = error(jail);
        assert!(
            addr.contains("TELEGRAM_WEBHOOK_ADDR") && addr.contains("0.0.0.0:8443"),
            "{addr}"
        );
        jail.set_env("TELEGRAM_WEBHOOK_ADDR", "10.0.0.5:9000");
        let config = Config::load(&ConfigFile::Default).map_err(|e| e.to_string())?;
        assert_eq!(
            config
                .telegram_webhook_secret
                .as_ref()
                .map(WebhookSecret::expose),
            Some("Shared_secret-1")
        );
        assert_eq!(config.telegram_webhook_addr.to_string(), "10.0.0.5:9000");
        jail.clear_env();
        let config = Config::load(&ConfigFile::Default).map_err(|e| e.to_string())?;
        assert_eq!(config.telegram_webhook_addr.to_string(), "0.0.0.0:8443");
        assert_eq!(config.telegram_webhook_secret, None);
        Ok(())
    });
}

#[test]
fn an_invalid_log_filter_is_refused() {
    Jail::expect_with(|jail| {
        jail.clear_env();
        jail.set_env("RUST_LOG", "info,=[");
        let error = Config::load(&ConfigFile::Default)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(error.contains("RUST_LOG"), "{error}");
        Ok(())
    });
}

#[test]
fn discord_shards_are_a_range_within_the_shard_count() {
    Jail::expect_with(|jail| {
        jail.clear_env();
        let load = || Config::load(&ConfigFile::Default).map_err(|e| e.to_string());
        assert_eq!(load()?.discord_shards, None);
        jail.set_env("DISCORD_SHARD_COUNT", "8");
        assert_eq!(load()?.discord_shards, ShardRange::all(8).ok());
        jail.set_env("DISCORD_SHARDS", "4-7");
        assert_eq!(load()?.discord_shards, ShardRange::new(4, 7, 8).ok());
        jail.set_env("DISCORD_SHARDS", "2");
        assert_eq!(load()?.discord_shards, ShardRange::new(2, 2, 8).ok());
        for (shards, count, expected) in [
            ("6-9", "8", "numbered 0 to 7"),
            ("3-1", "8", "lower shard first"),
            ("a-b", "8", "like 2, or 0-3"),
            ("1", "0", "DISCORD_SHARD_COUNT"),
        ] {
            jail.set_env("DISCORD_SHARDS", shards);
            jail.set_env("DISCORD_SHARD_COUNT", count);
            let error = load().err().unwrap_or_default();
            assert!(error.contains(expected), "{shards} of {count}: {error}");
            assert!(
                error.contains("environment variable DISCORD_SHARD"),
                "{error}"
            );
        }
        jail.set_env("DISCORD_SHARD_COUNT", "");
        jail.set_env("DISCORD_SHARDS", "0-3");
        let error = load().err().unwrap_or_default();
        assert!(error.contains("without DISCORD_SHARD_COUNT"), "{error}");
        Ok(())
    });
}

#[test]
fn tokens_never_show_in_debug_output() {
    let token = Token("123456:very-secret".to_owned());
    assert!(!format!("{token:?}").contains("secret"));
}

#[test]
fn the_documentation_table_lists_every_key() {
    let docs = include_str!("../../../../docs/configuration.md");
    for key in KEYS {
        assert!(
            docs.contains(&format!("| `{key}` |")),
            "docs/configuration.md lacks {key}"
        );
    }
}
