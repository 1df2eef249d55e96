//! Who is asking, for the player's routes: a personal link's token (`Authorization: Bearer
//! <token>`, checked by the service with `WEB_SECRET`) or a Telegram Mini App's `initData`
//! (`Authorization: tma <initData>`), checked here exactly as Telegram's documentation for
//! Mini Apps defines it:
//!
//! - the data-check string is every received field but `hash`, as `key=value` with the value
//!   decoded, sorted by key, joined by line feeds;
//! - the secret key is HMAC-SHA256 of the bot's token under the key `WebAppData`;
//! - `hash` must be the hex HMAC-SHA256 of the data-check string under the secret key,
//!   compared in constant time;
//! - `auth_date` must be no older than a day (and not from the future).
//!
//! Credentials come in a header only, never a cookie, so no other site can make a browser
//! send them (no CSRF surface). Anything wrong is one answer, 401, and changes nothing.

use std::time::Duration;

use axum::http::{HeaderMap, header};
use hmac::{Hmac, Mac};
use jieqi_service::{GameId, Platform, Service, UserId};
use sha2::Sha256;

/// How old Telegram's `initData` may be.
pub(crate) const INIT_DATA_LIFETIME: Duration = Duration::from_secs(24 * 60 * 60);
/// How far in the future `auth_date` may be (clocks differ a little).
const CLOCK_SKEW: u64 = 60;
/// The longest `Authorization` value read: `initData` is well under 2 KiB.
const CREDENTIAL_LONGEST: usize = 4096;

/// Someone the player's routes act for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Person {
    /// Who.
    pub user: UserId,
    /// The only game the credential acts in, when it names one (a personal link always does;
    /// a Mini App opened from a game's link names that game).
    pub game: Option<GameId>,
}

/// Why a credential was refused (logged; the client sees only 401).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum CredentialError {
    #[error("no Authorization header")]
    Missing,
    #[error("the Authorization header is not one of ours")]
    Malformed,
    #[error("initData has no hash")]
    NoHash,
    #[error("initData's hash does not match (tampered, or for another bot)")]
    BadHash,
    #[error("initData is too old or from the future")]
    Expired,
    #[error("initData names no user")]
    NoUser,
    #[error("Telegram sign-in is not set up on this bot")]
    NoTelegram,
    #[error("the personal link is refused: {0}")]
    Token(jieqi_service::personal_link::TokenError),
    #[error("the credential is for another game")]
    OtherGame,
}

/// The person `headers` name, if their credential holds for `game` at `now` (Unix seconds).
pub(crate) fn person(
    headers: &HeaderMap,
    game: &GameId,
    service: &Service,
    telegram_bot_token: Option<&str>,
    now: u64,
) -> Result<Person, CredentialError> {
    let value = headers
        .get(header::AUTHORIZATION)
        .ok_or(CredentialError::Missing)?
        .to_str()
        .map_err(|_| CredentialError::Malformed)?;
    if value.len() > CREDENTIAL_LONGEST {
        return Err(CredentialError::Malformed);
    }
    let (scheme, credential) = value.split_once(' ').ok_or(CredentialError::Malformed)?;
    let person = if scheme.eq_ignore_ascii_case("bearer") {
        let token = service
            .personal_token(credential.trim())
            .map_err(CredentialError::Token)?;
        Person {
            user: token.player,
            game: Some(token.game),
        }
    } else if scheme.eq_ignore_ascii_case("tma") {
        let bot_token = telegram_bot_token.ok_or(CredentialError::NoTelegram)?;
        let init = TelegramInit::verify(credential.trim(), bot_token, now)?;
        Person {
            user: UserId::new(Platform::Telegram, init.user_id.to_string()),
            game: init
                .start_param
                .as_deref()
                .map(|p| p.parse().map_err(|_| CredentialError::OtherGame))
                .transpose()?,
        }
    } else {
        return Err(CredentialError::Malformed);
    };
    match &person.game {
        Some(bound) if bound != game => Err(CredentialError::OtherGame),
        _ => Ok(person),
    }
}

/// What a valid Mini App `initData` says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct TelegramInit {
    /// The Telegram user's id.
    pub user_id: i64,
    /// `start_param`: the game id of a direct link `t.me/<bot>/<app>?startapp=<game>`.
    pub start_param: Option<String>,
    /// When Telegram signed it (Unix seconds).
    pub auth_date: u64,
}

impl TelegramInit {
    /// Checks `init_data` (the query string `Telegram.WebApp.initData` holds) as signed for
    /// the bot with `bot_token`, at `now` (Unix seconds).
    pub(crate) fn verify(
        init_data: &str,
        bot_token: &str,
        now: u64,
    ) -> Result<TelegramInit, CredentialError> {
        let mut hash = None;
        let mut fields: Vec<(String, String)> = Vec::new();
        for (key, value) in url::form_urlencoded::parse(init_data.as_bytes()) {
            if key == "hash" {
                hash = Some(value.into_owned());
            } else {
                fields.push((key.into_owned(), value.into_owned()));
            }
        }
        let hash = hash.ok_or(CredentialError::NoHash)?;
        let hash = hex::decode(hash).map_err(|_| CredentialError::BadHash)?;
        fields.sort();
        let mac = signer(&fields, bot_token);
        // `verify_slice` compares in constant time.
        mac.verify_slice(&hash)
            .map_err(|_| CredentialError::BadHash)?;
        let field = |name: &str| {
            fields
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.as_str())
        };
        let auth_date: u64 = field("auth_date")
            .and_then(|d| d.parse().ok())
            .ok_or(CredentialError::Expired)?;
        if auth_date > now.saturating_add(CLOCK_SKEW)
            || now.saturating_sub(auth_date) > INIT_DATA_LIFETIME.as_secs()
        {
            return Err(CredentialError::Expired);
        }
        let user: serde_json::Value = field("user")
            .and_then(|u| serde_json::from_str(u).ok())
            .ok_or(CredentialError::NoUser)?;
        let user_id = user
            .get("id")
            .and_then(serde_json::Value::as_i64)
            .ok_or(CredentialError::NoUser)?;
        Ok(TelegramInit {
            user_id,
            start_param: field("start_param").map(str::to_owned),
            auth_date,
        })
    }
}

fn hmac(key: &[u8]) -> Hmac<Sha256> {
    match Hmac::<Sha256>::new_from_slice(key) {
        Ok(mac) => mac,
        Err(_) => unreachable!("HMAC accepts every key length"),
    }
}

/// The MAC of `sorted` fields' data-check string (`key=value` lines, joined by line feeds)
/// under the secret key of `bot_token`, ready to finish or verify.
fn signer<K: AsRef<str>, V: AsRef<str>>(sorted: &[(K, V)], bot_token: &str) -> Hmac<Sha256> {
    let check = sorted
        .iter()
        .map(|(k, v)| format!("{}={}", k.as_ref(), v.as_ref()))
        .collect::<Vec<_>>()
        .join("\n");
    let mut mac = hmac(&secret_key(bot_token));
    mac.update(check.as_bytes());
    mac
}

/// HMAC-SHA256 of the bot's token under the key "WebAppData".
fn secret_key(bot_token: &str) -> Vec<u8> {
    let mut mac = hmac(b"WebAppData");
    mac.update(bot_token.as_bytes());
    mac.finalize().into_bytes().to_vec()
}

/// `init_data`'s fields signed for `bot_token` as Telegram signs them: the query string a
/// Mini App receives. For tests (here and in `tests/`).
#[doc(hidden)]
pub fn sign_init_data(fields: &[(&str, &str)], bot_token: &str) -> String {
    let mut sorted: Vec<(&str, &str)> = fields.to_vec();
    sorted.sort();
    let hash = hex::encode(signer(&sorted, bot_token).finalize().into_bytes());
    let mut query = url::form_urlencoded::Serializer::new(String::new());
    for (k, v) in fields {
        query.append_pair(k, v);
    }
    query.append_pair("hash", &hash);
    query.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    const BOT: &str = "7342037295:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw";
    const NOW: u64 = 1_800_000_000;
    const USER: &str = r#"{"id":279058397,"first_name":"Vladislav","last_name":"Kibenko","username":"vdkfrost","language_code":"ru","is_premium":true,"allows_write_to_pm":true}"#;

    fn fields(auth_date: &str) -> Vec<(&'static str, String)> {
        vec![
            ("query_id", "AAHdF6IQAAAAAN0XohDhrOrc".to_owned()),
            ("user", USER.to_owned()),
            ("auth_date", auth_date.to_owned()),
            ("start_param", "g7k2".to_owned()),
        ]
    }

    fn signed(fields: &[(&'static str, String)], bot: &str) -> String {
        let pairs: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
        sign_init_data(&pairs, bot)
    }

    /// The hash computed by hand, step by step as the documentation defines it, for the
    /// first vector: the function under test must agree with it.
    #[test]
    fn a_vector_computed_from_the_documentation_is_valid() {
        let check = format!(
            "auth_date={NOW}\nquery_id=AAHdF6IQAAAAAN0XohDhrOrc\nstart_param=g7k2\nuser={USER}"
        );
        let mut key = Hmac::<Sha256>::new_from_slice(b"WebAppData").expect("a key");
        key.update(BOT.as_bytes());
        let secret = key.finalize().into_bytes();
        let mut mac = Hmac::<Sha256>::new_from_slice(&secret).expect("a key");
        mac.update(check.as_bytes());
        let hash = hex::encode(mac.finalize().into_bytes());
        let mut query = url::form_urlencoded::Serializer::new(String::new());
        query.append_pair("query_id", "AAHdF6IQAAAAAN0XohDhrOrc");
        query.append_pair("user", USER);
        query.append_pair("auth_date", &NOW.to_string());
        query.append_pair("start_param", "g7k2");
        query.append_pair("hash", &hash);
        let init = TelegramInit::verify(&query.finish(), BOT, NOW).expect("valid");
        assert_eq!(
            init,
            TelegramInit {
                user_id: 279_058_397,
                start_param: Some("g7k2".to_owned()),
                auth_date: NOW,
            }
        );
    }

    #[test]
    fn a_tampered_field_is_refused() {
        let good = signed(&fields(&NOW.to_string()), BOT);
        let tampered = good.replace("279058397", "279058398");
        assert_ne!(good, tampered);
        assert_eq!(
            TelegramInit::verify(&tampered, BOT, NOW),
            Err(CredentialError::BadHash)
        );
        let other_game = good.replace("g7k2", "g7k3");
        assert_eq!(
            TelegramInit::verify(&other_game, BOT, NOW),
            Err(CredentialError::BadHash)
        );
    }

    #[test]
    fn data_signed_for_another_bot_is_refused() {
        let other = signed(&fields(&NOW.to_string()), "1111111111:AAAnother-bot-token");
        assert_eq!(
            TelegramInit::verify(&other, BOT, NOW),
            Err(CredentialError::BadHash)
        );
    }

    #[test]
    fn data_older_than_a_day_is_refused() {
        let day = INIT_DATA_LIFETIME.as_secs();
        let old = signed(&fields(&(NOW - day - 1).to_string()), BOT);
        assert_eq!(
            TelegramInit::verify(&old, BOT, NOW),
            Err(CredentialError::Expired)
        );
        let just = signed(&fields(&(NOW - day).to_string()), BOT);
        assert!(TelegramInit::verify(&just, BOT, NOW).is_ok());
        let future = signed(&fields(&(NOW + 3600).to_string()), BOT);
        assert_eq!(
            TelegramInit::verify(&future, BOT, NOW),
            Err(CredentialError::Expired)
        );
    }

    #[test]
    fn data_without_a_hash_is_refused() {
        let good = signed(&fields(&NOW.to_string()), BOT);
        let (without, _) = good.rsplit_once("&hash=").expect("a hash at the end");
        assert_eq!(
            TelegramInit::verify(without, BOT, NOW),
            Err(CredentialError::NoHash)
        );
        assert_eq!(
            TelegramInit::verify(&format!("{without}&hash=zz"), BOT, NOW),
            Err(CredentialError::BadHash)
        );
    }

    #[test]
    fn garbage_is_refused_without_a_panic() {
        for text in [
            "",
            "&&&",
            "hash",
            "hash=",
            "user=%FF%FE&hash=00",
            &"a=b&".repeat(500),
        ] {
            assert!(TelegramInit::verify(text, BOT, NOW).is_err(), "{text}");
        }
    }
}
