//! Personal links to the player's board (`/g/<game>#t=<token>`): a token that names one game,
//! one person and an expiry, signed with HMAC-SHA256 under the secret every process shares
//! (`WEB_SECRET`). Discord players get one in an ephemeral answer, the terminal prints one per
//! player; Telegram players need none (the Mini App's `initData` names them).
//!
//! The token travels in the link's fragment, which browsers never send to a server, and from
//! the page in a header: never in a cookie, a query string or a log line. Whoever holds it can
//! play that one game as that person until it expires (`PERSONAL_LINK_LIFETIME`), and see
//! what that person alone knows of it; nothing else.

use std::fmt;
use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, Mac};
use sha2::Sha256;
use thiserror::Error;

use crate::ids::{GameId, UserId};

/// How long a personal link lets its holder play: a day, like Telegram's `initData`. A
/// player whose link has expired gets a fresh one from the board's button or `/board`.
pub const PERSONAL_LINK_LIFETIME: Duration = Duration::from_secs(24 * 60 * 60);

/// The longest token read: a real one is about 100 characters.
const TOKEN_LONGEST: usize = 512;

/// The secret personal links are signed with (`WEB_SECRET`). Never printed.
#[derive(Clone, PartialEq, Eq)]
pub struct WebSecret(Vec<u8>);

impl WebSecret {
    /// The shortest secret accepted, in bytes: a guessable key would let anyone sign links.
    pub const SHORTEST: usize = 32;

    /// A secret from its bytes; `None` when shorter than [`WebSecret::SHORTEST`].
    pub fn new(bytes: impl Into<Vec<u8>>) -> Option<WebSecret> {
        let bytes = bytes.into();
        (bytes.len() >= Self::SHORTEST).then_some(WebSecret(bytes))
    }

    fn mac(&self) -> Hmac<Sha256> {
        // HMAC takes a key of any length.
        match Hmac::<Sha256>::new_from_slice(&self.0) {
            Ok(mac) => mac,
            Err(_) => unreachable!("HMAC accepts every key length"),
        }
    }

    /// `payload` signed: the payload and its HMAC-SHA256, both base64url, joined by a dot. The
    /// one form of every credential the bot signs (personal links, Activity passes); what the
    /// payload starts with tells them apart.
    pub(crate) fn sign(&self, payload: &str) -> String {
        let mut mac = self.mac();
        mac.update(payload.as_bytes());
        format!(
            "{}.{}",
            URL_SAFE_NO_PAD.encode(payload),
            URL_SAFE_NO_PAD.encode(mac.finalize().into_bytes())
        )
    }

    /// The payload of `signed` (at most `longest` long), once its MAC is checked in constant
    /// time. Signed by us, it is still read as carefully as any input.
    pub(crate) fn open(&self, signed: &str, longest: usize) -> Result<String, TokenError> {
        if signed.len() > longest {
            return Err(TokenError::Malformed);
        }
        let (payload, tag) = signed.split_once('.').ok_or(TokenError::Malformed)?;
        let payload = URL_SAFE_NO_PAD
            .decode(payload)
            .map_err(|_| TokenError::Malformed)?;
        let tag = URL_SAFE_NO_PAD
            .decode(tag)
            .map_err(|_| TokenError::Malformed)?;
        let mut mac = self.mac();
        mac.update(&payload);
        mac.verify_slice(&tag).map_err(|_| TokenError::Forged)?;
        String::from_utf8(payload).map_err(|_| TokenError::Malformed)
    }
}

/// The `N` lines of a signed payload (the last one takes the rest, newlines and all), or
/// `None` when it has fewer.
pub(crate) fn fields<const N: usize>(payload: &str) -> Option<[&str; N]> {
    payload.splitn(N, '\n').collect::<Vec<_>>().try_into().ok()
}

impl fmt::Debug for WebSecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("WebSecret(…)")
    }
}

/// What a personal link's token says: who may play which game until when.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PersonalToken {
    /// The one game it acts in.
    pub game: GameId,
    /// The one person it acts as.
    pub player: UserId,
    /// Unix seconds after which it is refused.
    pub expires: u64,
}

/// Why a token was refused. The page says only "sign in again": which check failed is for
/// the logs.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum TokenError {
    /// Not a token of ours in shape.
    #[error("the personal link is damaged: ask for a new one with the board's button or /board")]
    Malformed,
    /// The signature does not match: forged, or signed with another secret.
    #[error(
        "the personal link is not valid here: ask for a new one with the board's button or /board"
    )]
    Forged,
    /// Past its expiry.
    #[error("the personal link has expired: ask for a new one with the board's button or /board")]
    Expired,
}

impl PersonalToken {
    /// The token for `player` in `game`, valid from `now` (Unix seconds) for the lifetime.
    pub fn new(game: GameId, player: UserId, now: u64) -> PersonalToken {
        PersonalToken {
            game,
            player,
            expires: now.saturating_add(PERSONAL_LINK_LIFETIME.as_secs()),
        }
    }

    fn payload(&self) -> String {
        format!(
            "1\n{}\n{}\n{}\n{}",
            self.game, self.player.platform, self.player.id, self.expires
        )
    }

    /// The signed token: the payload and its MAC, both base64url.
    pub fn sign(&self, secret: &WebSecret) -> String {
        secret.sign(&self.payload())
    }

    /// Reads and checks a token at `now` (Unix seconds): its signature (compared in constant
    /// time), then its expiry.
    pub fn verify(token: &str, secret: &WebSecret, now: u64) -> Result<PersonalToken, TokenError> {
        let payload = secret.open(token, TOKEN_LONGEST)?;
        let Some(["1", game, platform, id, expires]) = fields::<5>(&payload) else {
            return Err(TokenError::Malformed);
        };
        let token = PersonalToken {
            game: game.parse().map_err(|_| TokenError::Malformed)?,
            player: UserId::new(platform.parse().map_err(|_| TokenError::Malformed)?, id),
            expires: expires.parse().map_err(|_| TokenError::Malformed)?,
        };
        if now > token.expires {
            return Err(TokenError::Expired);
        }
        Ok(token)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::Platform;

    fn secret(byte: u8) -> WebSecret {
        WebSecret::new(vec![byte; 32]).expect("long enough")
    }

    fn token() -> PersonalToken {
        PersonalToken::new(
            "g7k2".parse().expect("an id"),
            UserId::new(Platform::Discord, "80351110224678912"),
            1_800_000_000,
        )
    }

    #[test]
    fn a_signed_token_reads_back_until_it_expires() {
        let signed = token().sign(&secret(1));
        assert_eq!(
            PersonalToken::verify(&signed, &secret(1), 1_800_000_000),
            Ok(token())
        );
        let last = 1_800_000_000 + PERSONAL_LINK_LIFETIME.as_secs();
        assert_eq!(
            PersonalToken::verify(&signed, &secret(1), last),
            Ok(token())
        );
        assert_eq!(
            PersonalToken::verify(&signed, &secret(1), last + 1),
            Err(TokenError::Expired)
        );
    }

    #[test]
    fn a_token_signed_with_another_secret_is_forged() {
        let signed = token().sign(&secret(2));
        assert_eq!(
            PersonalToken::verify(&signed, &secret(1), 1_800_000_000),
            Err(TokenError::Forged)
        );
    }

    #[test]
    fn a_token_whose_game_or_player_was_changed_is_forged() {
        let signed = token().sign(&secret(1));
        let (_, tag) = signed.split_once('.').expect("two parts");
        for payload in [
            "1\ng7k3\ndiscord\n80351110224678912\n1800086400",
            "1\ng7k2\ndiscord\n80351110224678913\n1800086400",
            "1\ng7k2\ndiscord\n80351110224678912\n1900086400",
        ] {
            let tampered = format!("{}.{tag}", URL_SAFE_NO_PAD.encode(payload));
            assert_eq!(
                PersonalToken::verify(&tampered, &secret(1), 1_800_000_000),
                Err(TokenError::Forged),
                "{payload}"
            );
        }
    }

    #[test]
    fn garbage_is_refused_without_a_panic() {
        for text in ["", ".", "a.b", "!!!.???", &"x".repeat(10_000), "bm8.bm8"] {
            assert!(
                PersonalToken::verify(text, &secret(1), 0).is_err(),
                "{text}"
            );
        }
    }

    #[test]
    fn a_payloads_last_field_takes_the_rest_and_too_few_are_none() {
        assert_eq!(fields::<3>("a\nb\nc\nd"), Some(["a", "b", "c\nd"]));
        assert_eq!(fields::<3>("a\nb"), None);
        assert_eq!(fields::<1>(""), Some([""]));
    }

    #[test]
    fn a_short_secret_is_refused() {
        assert!(WebSecret::new(vec![0; 31]).is_none());
    }
}
