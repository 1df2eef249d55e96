//! Platform-neutral identities: chats, users, games, challenges and request keys.
//!
//! Strings live only at the edge: an adapter builds these once from its platform's ids, and
//! past that point everything is typed. Game and challenge ids are short and human-typable
//! (`g7k2`) because players type them in `/move g7k2 h2e2`.

use std::fmt;
use std::str::FromStr;

use rand::Rng;
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// The chat platform a chat or user belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Platform {
    /// Discord (serenity adapter).
    Discord,
    /// Telegram (teloxide adapter).
    Telegram,
    /// The local terminal (`jieqi-bot local`).
    Local,
}

impl Platform {
    /// Every platform.
    pub const ALL: [Platform; 3] = [Platform::Discord, Platform::Telegram, Platform::Local];

    /// Lowercase name, as in `telegram:-100123`.
    pub const fn name(self) -> &'static str {
        match self {
            Platform::Discord => "discord",
            Platform::Telegram => "telegram",
            Platform::Local => "local",
        }
    }
}

impl fmt::Display for Platform {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A platform or id that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ParseIdError {
    /// Not one of `discord`, `telegram`, `local`.
    #[error("`{0}` is not a platform: use discord, telegram or local")]
    Platform(String),
    /// Missing the `platform:` prefix.
    #[error("`{0}` is not a chat or user id: write it as platform:id, e.g. telegram:-100123")]
    Shape(String),
    /// A game or challenge id with the wrong letters or length.
    #[error("`{0}` is not a game or challenge id: ids look like g7k2 (see /games)")]
    Short(String),
    /// Not a Discord Activity instance id in shape.
    #[error("`{0}` is not an Activity instance id: the Embedded App SDK's instanceId")]
    Instance(String),
}

impl FromStr for Platform {
    type Err = ParseIdError;

    fn from_str(s: &str) -> Result<Platform, ParseIdError> {
        Platform::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| ParseIdError::Platform(s.to_owned()))
    }
}

fn split_scoped(s: &str) -> Result<(Platform, String), ParseIdError> {
    let (platform, id) = s
        .split_once(':')
        .ok_or_else(|| ParseIdError::Shape(s.to_owned()))?;
    if id.is_empty() {
        return Err(ParseIdError::Shape(s.to_owned()));
    }
    Ok((platform.parse()?, id.to_owned()))
}

/// A chat (a Telegram group, a Discord channel, a DM, a terminal session).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ChatId {
    /// Its platform.
    pub platform: Platform,
    /// The platform's own id, as a string.
    pub id: String,
}

impl ChatId {
    /// A chat id.
    pub fn new(platform: Platform, id: impl Into<String>) -> ChatId {
        ChatId {
            platform,
            id: id.into(),
        }
    }
}

impl fmt::Display for ChatId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.platform, self.id)
    }
}

impl FromStr for ChatId {
    type Err = ParseIdError;

    fn from_str(s: &str) -> Result<ChatId, ParseIdError> {
        let (platform, id) = split_scoped(s)?;
        Ok(ChatId { platform, id })
    }
}

/// A person (or bot) on one platform.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct UserId {
    /// Their platform.
    pub platform: Platform,
    /// The platform's own id, as a string.
    pub id: String,
}

impl UserId {
    /// A user id.
    pub fn new(platform: Platform, id: impl Into<String>) -> UserId {
        UserId {
            platform,
            id: id.into(),
        }
    }
}

impl fmt::Display for UserId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.platform, self.id)
    }
}

impl FromStr for UserId {
    type Err = ParseIdError;

    fn from_str(s: &str) -> Result<UserId, ParseIdError> {
        let (platform, id) = split_scoped(s)?;
        Ok(UserId { platform, id })
    }
}

/// A user as a request names them.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct User {
    /// Who.
    pub id: UserId,
    /// Display name (what captions show; adapters turn mentions into pings).
    pub name: String,
    /// The language their client reports (Telegram `language_code`, e.g. `vi`), if any.
    pub language: Option<String>,
}

impl User {
    /// A user with no reported language.
    pub fn new(id: UserId, name: impl Into<String>) -> User {
        User {
            id,
            name: name.into(),
            language: None,
        }
    }

    /// True if `handle` (with or without a leading `@`) names this user: their display name
    /// or their platform id, ignoring case.
    pub fn answers_to(&self, handle: &str) -> bool {
        let handle = handle.trim().trim_start_matches('@');
        !handle.is_empty()
            && (self
                .name
                .trim_start_matches('@')
                .eq_ignore_ascii_case(handle)
                || self.id.id.eq_ignore_ascii_case(handle))
    }
}

/// What makes a request unique on its platform (Telegram `update_id`, Discord interaction id,
/// local line number). A key seen before returns the earlier answer and changes nothing.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct IdempotencyKey(pub String);

impl fmt::Display for IdempotencyKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Letters of short ids: lowercase, no `i`, `l`, `o`, `0`, `1` (easily confused when typed).
const ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";

fn short_id(rng: &mut impl Rng, len: usize) -> String {
    (0..len)
        .map(|_| char::from(ALPHABET[rng.gen_range(0..ALPHABET.len())]))
        .collect()
}

fn parse_short(s: &str, len: usize) -> Result<String, ParseIdError> {
    let text = s.trim().trim_start_matches('#').to_ascii_lowercase();
    if text.len() == len && text.bytes().all(|b| ALPHABET.contains(&b)) {
        Ok(text)
    } else {
        Err(ParseIdError::Short(s.to_owned()))
    }
}

macro_rules! short_id_type {
    ($(#[$doc:meta])* $name:ident, $len:expr) => {
        $(#[$doc])*
        #[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        pub struct $name(String);

        impl $name {
            /// How many letters the id has.
            pub const LEN: usize = $len;

            /// A fresh random id (uniqueness is checked when it is stored).
            pub fn random(rng: &mut impl Rng) -> $name {
                $name(short_id(rng, $len))
            }

            /// The id as typed.
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl FromStr for $name {
            type Err = ParseIdError;

            /// Accepts any case and a leading `#`.
            fn from_str(s: &str) -> Result<$name, ParseIdError> {
                parse_short(s, $len).map($name)
            }
        }
    };
}

short_id_type!(
    /// A game's id: four letters such as `g7k2`.
    GameId,
    4
);
short_id_type!(
    /// A challenge's id: five letters such as `c4f7k`.
    ChallengeId,
    5
);
short_id_type!(
    /// A tournament's id: six letters such as `t4f7k2` (longer than a game's or a
    /// challenge's, so that one is never read as the other).
    TournamentId,
    6
);

/// A Discord Activity instance, as Discord names it (the Embedded App SDK's `instanceId`, the
/// `activity_instance` of a `LAUNCH_ACTIVITY` answer): letters, digits, `-` and `_`, at most
/// [`ActivityInstanceId::LONGEST`] of them, so that one can go into an address or a key as it is.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ActivityInstanceId(String);

impl ActivityInstanceId {
    /// The longest instance id read: Discord's are like
    /// `i-1234567890123456789-gc-1234567890123456789-1234567890123456789`.
    pub const LONGEST: usize = 128;

    /// The id as Discord wrote it.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for ActivityInstanceId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl FromStr for ActivityInstanceId {
    type Err = ParseIdError;

    fn from_str(s: &str) -> Result<ActivityInstanceId, ParseIdError> {
        let fits = !s.is_empty()
            && s.len() <= Self::LONGEST
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        if fits {
            Ok(ActivityInstanceId(s.to_owned()))
        } else {
            Err(ParseIdError::Instance(
                s.chars().take(Self::LONGEST).collect(),
            ))
        }
    }
}

/// The engine's user id on every platform (no platform id looks like it).
pub const ENGINE_USER_ID: &str = "jieqi-bot";

/// The built-in engine's user id on `platform`. It never gets private messages.
pub fn engine_user_id(platform: Platform) -> UserId {
    UserId::new(platform, ENGINE_USER_ID)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn chat_id_round_trips_through_its_display() {
        let chat = ChatId::new(Platform::Telegram, "-100123");
        assert_eq!(chat.to_string(), "telegram:-100123");
        assert_eq!("telegram:-100123".parse::<ChatId>(), Ok(chat));
        assert!("-100123".parse::<ChatId>().is_err());
        assert!("matrix:1".parse::<ChatId>().is_err());
    }

    #[test]
    fn game_ids_are_short_and_typable() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        for _ in 0..100 {
            let id = GameId::random(&mut rng);
            assert_eq!(id.as_str().len(), 4);
            assert_eq!(id.to_string().parse::<GameId>().as_ref(), Ok(&id));
            assert_eq!(
                format!("#{}", id.as_str().to_uppercase()).parse::<GameId>(),
                Ok(id)
            );
        }
        assert!("g7k".parse::<GameId>().is_err());
        assert!("g7l2".parse::<GameId>().is_err());
        assert!("g7k2".parse::<ChallengeId>().is_err());
    }

    #[test]
    fn an_activity_instance_is_letters_digits_dashes_and_underscores() {
        let id = "i-1336414486185947146-gc-800001-700001";
        assert_eq!(
            id.parse::<ActivityInstanceId>()
                .map(|i| i.to_string())
                .as_deref(),
            Ok(id)
        );
        for bad in ["", "../../users/@me", "i 1", "i/1", &"i".repeat(129)] {
            assert!(bad.parse::<ActivityInstanceId>().is_err(), "{bad}");
        }
    }

    #[test]
    fn a_user_answers_to_name_or_id_with_or_without_at() {
        let bob = User::new(UserId::new(Platform::Discord, "42"), "Bob");
        assert!(bob.answers_to("@bob"));
        assert!(bob.answers_to("BOB"));
        assert!(bob.answers_to("42"));
        assert!(!bob.answers_to("@"));
        assert!(!bob.answers_to("alice"));
    }
}
