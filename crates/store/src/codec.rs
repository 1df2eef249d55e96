//! The stored byte form of records: one schema-version byte, then postcard (compact serde).
//! Games go through their compact form (`compact.rs`): moves as two-byte numbers, the
//! deal as half-bytes.
//!
//! Older records are read through their old shapes ([`Record::upgrade`]) and written back in
//! the current one (sled: when the store opens; PostgreSQL: once the fleet is finalized, see
//! the `fleet` module, which also has the previous release's shape written meanwhile,
//! [`Record::older_shape`]); a record written by a newer schema is refused with a clear error
//! instead of being misread.

use serde::Serialize;
use serde::de::DeserializeOwned;

pub(crate) mod older;

use super::StoreError;
use super::records::{
    AnswerRecord, BoardMoves, ChallengeRecord, ChatPuzzles, ChatRecord, GameRecord, LaunchRecord,
    OutboxRecord, PlayerRecord, PuzzleStats, ReviewRecord, ReviewRequest, SentRecord, StoredReply,
};
use super::speed_ratings::LiveRatings;

/// The schema of the records in `records.rs`. Bump it (and read the older form in
/// [`Record::upgrade`]) when a stored record changes shape.
/// - 2 added `GameRecord::engine` as the record's last field.
/// - 3 stores games compactly, answers with picture recipes instead of pictures, and
///   outbox entries with the time their lane may be tried again.
/// - 4 added `PlayerRecord::course` (the rules course) and `PlayerRecord::puzzle`, and
///   `ChatRecord::puzzles`, as their records' last fields.
/// - 5 added `GameRecord::rules_revision`, `secret_captures` and `verdict`, and
///   `ChallengeRecord::secret_captures`, last. A finished game of an older schema gets its
///   verdict once, when the store upgrades it (`replay::verdict_of_old_game`).
/// - 6 added `OutboxRecord::covers` (the moves a board names, for coalescing boards), last.
///   Nothing else changed shape: the other records of schema 5 read as they are.
/// - 7 added `GameRecord::clock` (a live game's clock: control, both sides' time, whose time
///   runs since when) and `ChallengeRecord::control`, last. Older games and challenges read
///   with none: they keep their deadlines per move. A stored clock no game could reach is
///   refused (`game_clock`).
/// - 8 added `PlayerRecord::live` (ratings in the live speeds, `speed_ratings`), last. Older
///   players read with none: their ratings are the correspondence ones. A game's verdict
///   may be a time-out drawn against a side that cannot mate (`DrawBy`'s last variant),
///   which no older schema wrote. A message may carry the Rematch button
///   (`ButtonAction::Rematch`, the enum's last variant), which older schemas' messages leave
///   off. Nothing else changed shape: the other records of schema 7 read as they are.
/// - 9 added `ChatSettings::tournaments` (who may create a tournament) and
///   `ChatSettings::zone` (the chat's time zone), last in the settings, which sit inside the
///   chat record: older chats read through their old shape (`older::ChatV8`) as admins and
///   UTC. Nothing else changed shape.
pub const SCHEMA_VERSION: u8 = 9;

/// A record the store keeps: its current shape, and how to read its older ones.
pub trait Record: Serialize + DeserializeOwned {
    /// Reads `rest` written by this schema.
    fn read(rest: &[u8]) -> Result<Self, StoreError> {
        postcard_read(rest)
    }

    /// Reads `rest` written by schema `version` (older than [`SCHEMA_VERSION`]).
    fn upgrade(version: u8, rest: &[u8]) -> Result<Self, StoreError> {
        let _ = version;
        postcard_read(rest)
    }

    /// The postcard bytes of this record in the shape of schema `version` (from
    /// the fleet module's `OLDEST_WRITABLE`, older than [`SCHEMA_VERSION`]), for a fleet that
    /// still runs an older release (the fleet module's `encode_for`). The default is for records
    /// whose shape has not changed since: the current shape.
    fn older_shape(&self, version: u8) -> Result<Vec<u8>, StoreError> {
        let _ = version;
        older::body(self)
    }
}

fn postcard_read<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, StoreError> {
    postcard::from_bytes(bytes)
        .map_err(|e| StoreError::Corrupt(format!("cannot decode a record: {e}")))
}

/// The record in its stored bytes.
pub fn encode<T: Record>(value: &T) -> Result<Vec<u8>, StoreError> {
    postcard::to_extend(value, vec![SCHEMA_VERSION])
        .map_err(|e| StoreError::Corrupt(format!("cannot encode a record: {e}")))
}

/// The record from its stored bytes, of this schema or an older one.
pub fn decode<T: Record>(bytes: &[u8]) -> Result<T, StoreError> {
    match bytes.split_first() {
        Some((&SCHEMA_VERSION, rest)) => T::read(rest),
        Some((&version, rest)) if (1..SCHEMA_VERSION).contains(&version) => {
            T::upgrade(version, rest)
        }
        Some((version, _)) => Err(StoreError::TooNew {
            found: u32::from(*version),
            supported: u32::from(SCHEMA_VERSION),
        }),
        None => Err(StoreError::Corrupt("empty record".to_owned())),
    }
}

/// The schema version of stored bytes, if they are a record at all.
pub fn version_of(bytes: &[u8]) -> Option<u8> {
    bytes.first().copied()
}

impl Record for ChallengeRecord {
    fn upgrade(version: u8, rest: &[u8]) -> Result<Self, StoreError> {
        if version >= 7 {
            return postcard_read(rest);
        }
        let mut bytes = rest.to_vec();
        if version < 5 {
            // Schemas 1 to 4 lack `secret_captures`: every challenge let the capturer see.
            bytes = completed(&bytes, &false)?;
        }
        // Schemas 1 to 6 lack `control` at the end: a time per move, as before.
        postcard_read(&completed(&bytes, &None::<String>)?)
    }

    fn older_shape(&self, version: u8) -> Result<Vec<u8>, StoreError> {
        older::older_challenge(self, version)
    }
}
/// `rest` followed by the stored form of `value`: an older record whose shape lacks only
/// fields at its end, completed with their defaults.
fn completed<T: Serialize>(rest: &[u8], value: &T) -> Result<Vec<u8>, StoreError> {
    postcard::to_extend(value, rest.to_vec())
        .map_err(|e| StoreError::Corrupt(format!("cannot encode a record: {e}")))
}

impl Record for ChatRecord {
    fn upgrade(version: u8, rest: &[u8]) -> Result<Self, StoreError> {
        if version >= 9 {
            return postcard_read(rest);
        }
        let old: older::ChatV8 = if version >= 4 {
            postcard_read(rest)?
        } else {
            // Schemas 1 to 3 lack `puzzles` at the end: no puzzle open, no daily puzzle.
            postcard_read(&completed(rest, &ChatPuzzles::default())?)?
        };
        // Schemas 1 to 8 lack the tournament settings: admins create, start times are UTC.
        Ok(old.into())
    }

    fn older_shape(&self, version: u8) -> Result<Vec<u8>, StoreError> {
        older::older_chat(self, version)
    }
}
impl Record for PlayerRecord {
    fn upgrade(version: u8, rest: &[u8]) -> Result<Self, StoreError> {
        let mut bytes = rest.to_vec();
        if version < 4 {
            // Schemas 1 and 2 lack `personal` at the end: two zero bytes read as no choices.
            if version < 3 {
                bytes.extend([0, 0]);
            }
            // Schemas 1 to 3 lack `course` after it: five zero bytes (lesson, step, no moves,
            // closed, never started) read as a course not begun; then `puzzle`, a fresh
            // puzzle rating.
            bytes.extend([0; 5]);
            bytes = completed(&bytes, &PuzzleStats::default())?;
        }
        // Schemas 1 to 7 lack `live` at the end: no live speed rated, their ratings are the
        // correspondence ones.
        postcard_read(&completed(&bytes, &LiveRatings::default())?)
    }

    fn older_shape(&self, version: u8) -> Result<Vec<u8>, StoreError> {
        older::older_player(self, version)
    }
}
impl Record for SentRecord {}
// Reviews came with schema 4 and have kept their shape.
impl Record for ReviewRecord {}
// The review queue came after schema 5 and has kept its shape.
impl Record for ReviewRequest {}
// Activity launches came after schema 6 and have kept their shape.
impl Record for LaunchRecord {}

impl Record for GameRecord {
    /// Through the compact form, so that a record refused for what it holds (an impossible
    /// clock, say) is refused with the reason rather than serde's bare "cannot decode".
    fn read(rest: &[u8]) -> Result<Self, StoreError> {
        let stored: crate::compact::StoredGame = postcard_read(rest)?;
        GameRecord::try_from(stored).map_err(StoreError::Corrupt)
    }

    fn upgrade(version: u8, rest: &[u8]) -> Result<Self, StoreError> {
        if version >= 7 {
            return Self::read(rest);
        }
        if version >= 5 {
            // Schemas 5 and 6 games lack only `clock` at the end: a zero byte reads as none,
            // a game on a time per move.
            return Self::read(&completed(rest, &None::<u8>)?);
        }
        let mut bytes = rest.to_vec();
        let mut game: GameRecord = if version >= 3 {
            // Schemas 3 and 4 wrote the compact form without its last four fields: zero
            // bytes read as revision 0, the capturer sees, no verdict (filled in below), no
            // clock.
            bytes.extend([0, 0, 0, 0]);
            postcard_read(&bytes)?
        } else {
            // Schema 1 differs from 2 only in lacking `engine` at the end: a trailing zero
            // byte reads as `None` there.
            if version == 1 {
                bytes.push(0);
            }
            postcard_read::<legacy::Game>(&bytes)?.into()
        };
        crate::replay::settle_old_game(&mut game);
        Ok(game)
    }

    fn older_shape(&self, version: u8) -> Result<Vec<u8>, StoreError> {
        older::older_game(self, version)
    }
}

impl Record for AnswerRecord {
    fn upgrade(version: u8, rest: &[u8]) -> Result<Self, StoreError> {
        if version >= 3 {
            return postcard_read(rest);
        }
        Ok(postcard_read::<legacy::Answer>(rest)?.into())
    }

    fn older_shape(&self, version: u8) -> Result<Vec<u8>, StoreError> {
        older::older_answer(self, version)
    }
}

impl Record for OutboxRecord {
    fn upgrade(version: u8, rest: &[u8]) -> Result<Self, StoreError> {
        if version >= 6 {
            return postcard_read(rest);
        }
        if version >= 3 {
            // Schemas 3 to 5 lack `covers` at the end: no moves named for coalescing.
            return postcard_read(&completed(rest, &None::<BoardMoves>)?);
        }
        Ok(postcard_read::<legacy::Outbox>(rest)?.into())
    }

    fn older_shape(&self, version: u8) -> Result<Vec<u8>, StoreError> {
        older::older_outbox(self, version)
    }
}

/// The shapes of schemas 1 and 2, read once and written back in the current shape.
mod legacy {
    use serde::Deserialize;

    use super::{AnswerRecord, GameRecord, OutboxRecord, StoredReply};
    use crate::ids::{ChatId, GameId, User};
    use crate::message::Message;
    use crate::records::{BoardPost, DrawOffer, Ending, EngineSeat, UnixTime};

    #[derive(Deserialize)]
    pub(super) struct Game {
        id: GameId,
        revision: u64,
        chat: ChatId,
        variant: String,
        preset: String,
        first: User,
        second: User,
        deal: String,
        salt: String,
        commitment: String,
        moves: Vec<String>,
        ending: Option<Ending>,
        move_time: u64,
        deadline: Option<UnixTime>,
        draw_offer: Option<DrawOffer>,
        posts: Vec<BoardPost>,
        watchers: Vec<ChatId>,
        started_at: UnixTime,
        finished_at: Option<UnixTime>,
        engine: Option<EngineSeat>,
    }

    impl From<Game> for GameRecord {
        fn from(old: Game) -> GameRecord {
            GameRecord {
                id: old.id,
                revision: old.revision,
                chat: old.chat,
                // Names that no longer parse cannot occur: schema 2 wrote them from the enums.
                variant: old.variant.parse().unwrap_or(jieqi_rules::Variant::Jieqi),
                preset: old.preset.parse().unwrap_or_default(),
                first: old.first,
                second: old.second,
                deal: old.deal,
                salt: old.salt,
                commitment: old.commitment,
                moves: old.moves,
                ending: old.ending,
                move_time: old.move_time,
                deadline: old.deadline,
                draw_offer: old.draw_offer,
                posts: old.posts,
                watchers: old.watchers,
                started_at: old.started_at,
                finished_at: old.finished_at,
                engine: old.engine,
                prompts: Default::default(),
                rules_revision: 0,
                secret_captures: false,
                verdict: None,
                clock: None,
            }
        }
    }

    #[derive(Deserialize)]
    pub(super) struct Answer {
        at: UnixTime,
        answer: crate::message::Answer,
    }

    impl From<Answer> for AnswerRecord {
        fn from(old: Answer) -> AnswerRecord {
            AnswerRecord {
                at: old.at,
                // Old answers kept picture bytes; a repeat now gets the text without them.
                replies: old
                    .answer
                    .replies
                    .into_iter()
                    .map(|message| StoredReply {
                        message: Message {
                            image: None,
                            ..message
                        },
                        picture: None,
                    })
                    .collect(),
            }
        }
    }

    #[derive(Deserialize)]
    pub(super) struct Outbox {
        message: Message,
        attempts: u32,
        created_at: UnixTime,
        fallback_chat: Option<ChatId>,
        picture: Option<crate::recipe::PictureSpec>,
    }

    impl From<Outbox> for OutboxRecord {
        fn from(old: Outbox) -> OutboxRecord {
            OutboxRecord {
                message: old.message,
                attempts: old.attempts,
                created_at: old.created_at,
                fallback_chat: old.fallback_chat,
                picture: old.picture,
                not_before: 0,
                covers: None,
            }
        }
    }
}

#[cfg(test)]
mod clock_tests;

#[cfg(test)]
mod player_tests;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip_with_their_schema_version() {
        let value = SentRecord {
            platform_ref: Some("12/34".to_owned()),
            at: 42,
        };
        let bytes = encode(&value).unwrap();
        assert_eq!(bytes[0], SCHEMA_VERSION);
        assert_eq!(decode::<SentRecord>(&bytes).unwrap(), value);
    }

    #[test]
    fn records_of_a_newer_schema_are_refused_saying_so() {
        let mut bytes = encode(&SentRecord {
            platform_ref: None,
            at: 1,
        })
        .unwrap();
        bytes[0] = SCHEMA_VERSION + 1;
        assert_eq!(
            decode::<SentRecord>(&bytes),
            Err(StoreError::TooNew {
                found: u32::from(SCHEMA_VERSION) + 1,
                supported: u32::from(SCHEMA_VERSION)
            })
        );
        assert!(decode::<SentRecord>(&[]).is_err());
    }

    #[test]
    fn players_of_schema_two_read_with_no_personal_choices() {
        let user = crate::ids::User::new(
            crate::ids::UserId::new(crate::ids::Platform::Local, "ann"),
            "ann",
        );
        let player = PlayerRecord::new(&user);
        let mut bytes = encode(&player).unwrap();
        // Schema 8 added `live` at the end: none is one zero byte.
        assert_eq!(bytes.pop(), Some(0));
        // Schema 3 wrote the same fields without `course` (five zero bytes) and `puzzle`;
        // schema 2 also without `personal` (two `None` bytes before them).
        let puzzle = postcard::to_allocvec(&PuzzleStats::default()).unwrap();
        bytes.truncate(bytes.len() - puzzle.len());
        assert!(bytes.ends_with(&[0; 7]));
        bytes.truncate(bytes.len() - 5);
        bytes[0] = 3;
        assert_eq!(decode::<PlayerRecord>(&bytes).unwrap(), player);
        bytes.truncate(bytes.len() - 2);
        bytes[0] = 2;
        assert_eq!(decode::<PlayerRecord>(&bytes).unwrap(), player);
        bytes[0] = 4;
        assert!(
            decode::<PlayerRecord>(&bytes).is_err(),
            "schema 4 has the fields"
        );
    }

    #[test]
    fn players_of_schema_three_keep_their_choices_start_no_course_and_a_fresh_puzzle_rating() {
        let user = crate::ids::User::new(
            crate::ids::UserId::new(crate::ids::Platform::Local, "bea"),
            "bea",
        );
        let mut player = PlayerRecord::new(&user);
        player.personal.style = Some(crate::settings::Style::Symbols);
        let mut bytes = encode(&player).unwrap();
        assert_eq!(bytes.pop(), Some(0), "no live ratings (schema 8)");
        let puzzle = postcard::to_allocvec(&PuzzleStats::default()).unwrap();
        bytes.truncate(bytes.len() - puzzle.len() - 5);
        bytes[0] = 3;
        let read = decode::<PlayerRecord>(&bytes).unwrap();
        assert_eq!(read.personal.style, Some(crate::settings::Style::Symbols));
        assert!(!read.course.started);
        assert_eq!(read, player);
    }

    fn deferred_reply(chat: &str, key: &str, token: &str, text: &str) -> OutboxRecord {
        use crate::message::{DeferredReply, Destination, Message, MessageKind};
        let reply = DeferredReply {
            chat: crate::ids::ChatId::new(crate::ids::Platform::Discord, chat),
            request: crate::ids::IdempotencyKey(key.to_owned()),
            reply_token: token.to_owned(),
        };
        OutboxRecord {
            message: Message::text(
                Destination::DeferredReply(reply),
                MessageKind::Refusal,
                text,
            ),
            attempts: 0,
            created_at: 1_764_600_000,
            fallback_chat: None,
            picture: None,
            not_before: 1_764_600_020_000,
            covers: None,
        }
    }

    /// A deferred reply costs its strings and a few bytes more: the channel, the key, the
    /// token and the note, each with its length, and the message's and record's small fields.
    #[test]
    fn a_deferred_reply_is_stored_compactly() {
        let token = "t".repeat(200);
        let text = "That did not go through, and nothing was changed: please send it again.";
        let record = deferred_reply("700001", "1234567890123456789", &token, text);
        let bytes = encode(&record).unwrap();
        let strings = "700001".len() + 19 + token.len() + text.len();
        assert!(bytes.len() <= strings + 32, "{} bytes", bytes.len());
        assert_eq!(decode::<OutboxRecord>(&bytes).unwrap(), record);
    }

    proptest::proptest! {
        #[test]
        fn any_deferred_reply_reads_back_as_written(
            chat in "[0-9]{1,20}",
            key in "[0-9]{1,20}",
            token in "\\PC{0,300}",
            text in "\\PC{0,200}",
            attempts in 0u32..20,
            not_before in proptest::prelude::any::<u64>(),
        ) {
            let mut record = deferred_reply(&chat, &key, &token, &text);
            record.attempts = attempts;
            record.not_before = not_before;
            let bytes = encode(&record).unwrap();
            proptest::prop_assert_eq!(decode::<OutboxRecord>(&bytes).unwrap(), record);
        }
    }

    #[test]
    fn outbox_records_of_schema_five_read_with_no_moves_named_and_games_as_they_were() {
        let record = OutboxRecord {
            message: crate::message::Message::text(
                crate::message::Destination::Chat(crate::ids::ChatId::new(
                    crate::ids::Platform::Local,
                    "room",
                )),
                crate::message::MessageKind::Board,
                "a board",
            ),
            attempts: 1,
            created_at: 7,
            fallback_chat: None,
            picture: None,
            not_before: 9,
            covers: None,
        };
        let mut bytes = encode(&record).unwrap();
        // Schema 5 wrote the same fields without `covers` (one `None` byte at the end).
        assert_eq!(bytes.pop(), Some(0));
        bytes[0] = 5;
        assert_eq!(decode::<OutboxRecord>(&bytes).unwrap(), record);
        let covering = OutboxRecord {
            covers: Some(BoardMoves {
                moves: vec!["12. h2e2".to_owned()],
                language: crate::language::Language::Vi,
                rest: "\nbob to move.".to_owned(),
            }),
            ..record
        };
        assert_eq!(
            decode::<OutboxRecord>(&encode(&covering).unwrap()).unwrap(),
            covering
        );
    }

    #[test]
    fn chats_of_schema_three_read_with_no_puzzle_as_admins_and_utc() {
        let chat = ChatRecord::new(
            crate::ids::ChatId::new(crate::ids::Platform::Local, "room"),
            crate::settings::ChatSettings::for_language(crate::language::Language::Zh),
        );
        let mut bytes = older::older_chat(&chat, 8).unwrap();
        let puzzles = postcard::to_allocvec(&ChatPuzzles::default()).unwrap();
        bytes.truncate(bytes.len() - puzzles.len());
        bytes.insert(0, 3);
        assert_eq!(decode::<ChatRecord>(&bytes).unwrap(), chat);
    }

    #[test]
    fn chats_of_schema_8_read_as_admins_and_utc_and_schema_9_keeps_what_was_set() {
        let mut chat = ChatRecord::new(
            crate::ids::ChatId::new(crate::ids::Platform::Telegram, "-7"),
            crate::settings::ChatSettings::for_language(crate::language::Language::Vi),
        );
        chat.revision = 12;
        // Schema 8's settings end with the board mode (0: a new message per move), then the
        // chat's game lists follow.
        let mut old = vec![8];
        old.extend(postcard::to_allocvec(&chat.chat).unwrap());
        old.extend([12, 2, 0, 0, 1, 0, 0, 0, 0, 0, 0]);
        old.extend(postcard::to_allocvec(&ChatPuzzles::default()).unwrap());
        assert_eq!(decode::<ChatRecord>(&old).unwrap(), chat);
        chat.settings.tournaments = crate::settings::TournamentCreators::Everyone;
        chat.settings.zone = "UTC+7".parse().unwrap();
        assert_eq!(decode::<ChatRecord>(&encode(&chat).unwrap()).unwrap(), chat);
    }
}
