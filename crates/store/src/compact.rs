//! The compact stored form of a game: moves as two-byte numbers, the deal as half-bytes, the
//! salt as raw bytes, and no commitment (it is `sha256(deal ‖ salt)`, computed again when the
//! record is read). A finished 60-ply game takes a few hundred bytes instead of kilobytes.
//!
//! Anything that does not fit the compact grammar (a move text of an unexpected shape, a deal
//! letter outside the fourteen piece letters) is kept as text instead, so no record is ever
//! refused for being unusual; the compact form is an optimisation, never a constraint.

use serde::{Deserialize, Serialize};

use super::Verdict;
use super::records::{BoardPost, DrawOffer, Ending, EngineSeat, GameRecord, Prompts, UnixTime};
use crate::ids::{ChatId, GameId, User};

/// Role letters of a reveal suffix (`h2e2r`), in token order after "none".
const REVEAL_LETTERS: &[u8; 7] = b"kaerchp";
/// Piece letters (Red upper case, Black lower case): Banqi flips and deal letters.
const PIECE_LETTERS: &[u8; 14] = b"KAERCHPkaerchp";

/// Board moves take `(from * 90 + to) * 8 + reveal`: the first 64,800 tokens.
const FLIP_SHOWN: u16 = 64_800;
/// Banqi flips that say what they showed: `FLIP_SHOWN + square * 14 + piece`.
const FLIP_BARE: u16 = FLIP_SHOWN + 32 * 14;
/// Banqi flips without a suffix: `FLIP_BARE + square`; the last token is below 65,280.
const TOKENS_END: u16 = FLIP_BARE + 32;

/// A point of the 9×10 board (`a0`..`i9`) as 0..90.
fn board_point(file: u8, rank: u8) -> Option<u16> {
    let file = file.checked_sub(b'a').filter(|f| *f < 9)?;
    let rank = rank.checked_sub(b'0').filter(|r| *r < 10)?;
    Some(u16::from(file) * 10 + u16::from(rank))
}

fn board_point_text(point: u16, out: &mut String) {
    out.push(char::from(b'a' + (point / 10) as u8));
    out.push(char::from(b'0' + (point % 10) as u8));
}

/// A point of the 8×4 Banqi board (`a1`..`h4`) as 0..32.
fn banqi_point(file: u8, rank: u8) -> Option<u16> {
    let file = file.checked_sub(b'a').filter(|f| *f < 8)?;
    let rank = rank.checked_sub(b'1').filter(|r| *r < 4)?;
    Some(u16::from(file) * 4 + u16::from(rank))
}

fn banqi_point_text(point: u16, out: &mut String) {
    out.push(char::from(b'a' + (point / 4) as u8));
    out.push(char::from(b'1' + (point % 4) as u8));
}

fn letter_index(letters: &[u8], c: u8) -> Option<u16> {
    letters.iter().position(|l| *l == c).map(|i| i as u16)
}

/// The token of one stored move text, if it has one of the compact shapes.
fn move_token(text: &str) -> Option<u16> {
    match text.as_bytes() {
        [f, r, b'=', c] => {
            Some(FLIP_SHOWN + banqi_point(*f, *r)? * 14 + letter_index(PIECE_LETTERS, *c)?)
        }
        [f1, r1, f2, r2, rest @ ..] if rest.len() <= 1 => {
            let from = board_point(*f1, *r1)?;
            let to = board_point(*f2, *r2)?;
            let reveal = match rest {
                [] => 0,
                [c] => letter_index(REVEAL_LETTERS, *c)? + 1,
                _ => return None,
            };
            Some((from * 90 + to) * 8 + reveal)
        }
        [f, r] => Some(FLIP_BARE + banqi_point(*f, *r)?),
        _ => None,
    }
}

fn move_text(token: u16) -> Option<String> {
    let mut text = String::with_capacity(5);
    if token < FLIP_SHOWN {
        let (squares, reveal) = (token / 8, token % 8);
        board_point_text(squares / 90, &mut text);
        board_point_text(squares % 90, &mut text);
        if reveal > 0 {
            text.push(char::from(REVEAL_LETTERS[usize::from(reveal - 1)]));
        }
    } else if token < FLIP_BARE {
        let offset = token - FLIP_SHOWN;
        banqi_point_text(offset / 14, &mut text);
        text.push('=');
        text.push(char::from(PIECE_LETTERS[usize::from(offset % 14)]));
    } else if token < TOKENS_END {
        banqi_point_text(token - FLIP_BARE, &mut text);
    } else {
        return None;
    }
    Some(text)
}

/// A move list, packed when every move has a compact shape.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum Moves {
    /// Two bytes per move, big-endian tokens.
    Packed(#[serde(with = "serde_bytes_compat")] Vec<u8>),
    /// The texts as they are.
    Text(Vec<String>),
}

impl Moves {
    pub(crate) fn pack(moves: &[String]) -> Moves {
        let mut bytes = Vec::with_capacity(moves.len() * 2);
        for text in moves {
            match move_token(text) {
                // Only a token that reads back as the same text is trusted.
                Some(token) if move_text(token).as_deref() == Some(text.as_str()) => {
                    bytes.extend_from_slice(&token.to_be_bytes());
                }
                _ => return Moves::Text(moves.to_vec()),
            }
        }
        Moves::Packed(bytes)
    }

    pub(crate) fn unpack(self) -> Result<Vec<String>, String> {
        match self {
            Moves::Text(moves) => Ok(moves),
            Moves::Packed(bytes) => {
                if bytes.len() % 2 != 0 {
                    return Err("a packed move list has an odd length".to_owned());
                }
                bytes
                    .chunks_exact(2)
                    .map(|pair| {
                        let token = u16::from_be_bytes([pair[0], pair[1]]);
                        move_text(token).ok_or_else(|| format!("move token {token} is unknown"))
                    })
                    .collect()
            }
        }
    }
}

/// Deal letters, two to a byte when every letter is a piece letter.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum Letters {
    /// The letter count, then half-bytes (index into the piece letters), high half first.
    Packed(u8, #[serde(with = "serde_bytes_compat")] Vec<u8>),
    /// The letters as they are.
    Text(String),
}

impl Letters {
    pub(crate) fn pack(letters: &str) -> Letters {
        let bytes = letters.as_bytes();
        let Ok(count) = u8::try_from(bytes.len()) else {
            return Letters::Text(letters.to_owned());
        };
        let mut packed = vec![0u8; bytes.len().div_ceil(2)];
        for (i, c) in bytes.iter().enumerate() {
            let Some(index) = letter_index(PIECE_LETTERS, *c) else {
                return Letters::Text(letters.to_owned());
            };
            let shift = if i % 2 == 0 { 4 } else { 0 };
            packed[i / 2] |= (index as u8) << shift;
        }
        Letters::Packed(count, packed)
    }

    pub(crate) fn unpack(self) -> Result<String, String> {
        match self {
            Letters::Text(text) => Ok(text),
            Letters::Packed(count, packed) => (0..usize::from(count))
                .map(|i| {
                    let byte = packed
                        .get(i / 2)
                        .ok_or_else(|| "a packed deal is too short".to_owned())?;
                    let index = if i % 2 == 0 { byte >> 4 } else { byte & 0x0f };
                    PIECE_LETTERS
                        .get(usize::from(index))
                        .map(|c| char::from(*c))
                        .ok_or_else(|| format!("deal letter {index} is unknown"))
                })
                .collect(),
        }
    }
}

/// A hex string (the salt) as its bytes, or as text if it is not lowercase hex.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum Hex {
    /// The decoded bytes.
    Bytes(#[serde(with = "serde_bytes_compat")] Vec<u8>),
    /// The text as it is.
    Text(String),
}

impl Hex {
    pub(crate) fn pack(text: &str) -> Hex {
        match hex::decode(text) {
            Ok(bytes) if hex::encode(&bytes) == text => Hex::Bytes(bytes),
            _ => Hex::Text(text.to_owned()),
        }
    }

    pub(crate) fn unpack(self) -> String {
        match self {
            Hex::Bytes(bytes) => hex::encode(bytes),
            Hex::Text(text) => text,
        }
    }
}

/// Postcard writes a `Vec<u8>` as a length and the bytes already; this keeps the field's
/// form explicit (and the same) whatever serde's defaults for sequences become.
mod serde_bytes_compat {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(bytes: &[u8], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(bytes)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        <Vec<u8>>::deserialize(d)
    }
}

/// [`GameRecord`] as stored (schema 3; schema 5 added `rules_revision`, `secret_captures`
/// and `verdict`; schema 7 added `clock`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct StoredGame {
    id: GameId,
    revision: u64,
    chat: ChatId,
    variant: u8,
    preset: u8,
    first: User,
    second: User,
    deal: Letters,
    salt: Hex,
    /// Only when it is not `sha256(deal ‖ salt)` (never, for games this bot started).
    commitment: Option<String>,
    moves: Moves,
    ending: Option<Ending>,
    move_time: u64,
    deadline: Option<UnixTime>,
    draw_offer: Option<DrawOffer>,
    posts: Vec<BoardPost>,
    watchers: Vec<ChatId>,
    started_at: UnixTime,
    finished_at: Option<UnixTime>,
    engine: Option<EngineSeat>,
    prompts: Prompts,
    /// Schema 5 on: the rules revision, "nobody sees", the stored verdict.
    rules_revision: u32,
    secret_captures: bool,
    verdict: Option<Verdict>,
    /// Schema 7 on: a live game's clock.
    pub(crate) clock: Option<crate::game_clock::StoredClock>,
}

fn index_of<T: PartialEq>(all: &[T], value: &T) -> u8 {
    all.iter()
        .position(|v| v == value)
        .and_then(|i| u8::try_from(i).ok())
        .unwrap_or(u8::MAX)
}

impl From<GameRecord> for StoredGame {
    fn from(game: GameRecord) -> StoredGame {
        let derived = crate::commitment(&game.deal, &game.salt);
        StoredGame {
            variant: index_of(&jieqi_rules::Variant::ALL, &game.variant),
            preset: index_of(&jieqi_rules::game::Preset::ALL, &game.preset),
            deal: Letters::pack(&game.deal),
            salt: Hex::pack(&game.salt),
            commitment: (game.commitment != derived).then_some(game.commitment),
            moves: Moves::pack(&game.moves),
            id: game.id,
            revision: game.revision,
            chat: game.chat,
            first: game.first,
            second: game.second,
            ending: game.ending,
            move_time: game.move_time,
            deadline: game.deadline,
            draw_offer: game.draw_offer,
            posts: game.posts,
            watchers: game.watchers,
            started_at: game.started_at,
            finished_at: game.finished_at,
            engine: game.engine,
            prompts: game.prompts,
            rules_revision: game.rules_revision,
            secret_captures: game.secret_captures,
            verdict: game.verdict,
            clock: game.clock.as_ref().map(Into::into),
        }
    }
}

impl TryFrom<StoredGame> for GameRecord {
    type Error = String;

    fn try_from(stored: StoredGame) -> Result<GameRecord, String> {
        let variant = *jieqi_rules::Variant::ALL
            .get(usize::from(stored.variant))
            .ok_or_else(|| format!("game variant {} is unknown", stored.variant))?;
        let preset = *jieqi_rules::game::Preset::ALL
            .get(usize::from(stored.preset))
            .ok_or_else(|| format!("rule preset {} is unknown", stored.preset))?;
        let clock = stored.clock.map(jieqi_clock::Clock::try_from).transpose()?;
        let moves = stored.moves.unpack()?;
        if let Some(clock) = &clock {
            crate::game_clock::check_against_game(clock, stored.ending.is_none(), moves.len())?;
        }
        let deal = stored.deal.unpack()?;
        let salt = stored.salt.unpack();
        let commitment = stored
            .commitment
            .unwrap_or_else(|| crate::commitment(&deal, &salt));
        Ok(GameRecord {
            id: stored.id,
            revision: stored.revision,
            chat: stored.chat,
            variant,
            preset,
            first: stored.first,
            second: stored.second,
            deal,
            salt,
            commitment,
            moves,
            ending: stored.ending,
            move_time: stored.move_time,
            deadline: stored.deadline,
            draw_offer: stored.draw_offer,
            posts: stored.posts,
            watchers: stored.watchers,
            started_at: stored.started_at,
            finished_at: stored.finished_at,
            engine: stored.engine,
            prompts: stored.prompts,
            rules_revision: stored.rules_revision,
            secret_captures: stored.secret_captures,
            verdict: stored.verdict,
            clock,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn every_shape_of_stored_move_packs_into_two_bytes_and_back() {
        for text in [
            "h2e2", "b9c7c", "a0a9r", "i9a0p", "c3=R", "h4=k", "a1", "c3c4",
        ] {
            let packed = Moves::pack(&[text.to_owned()]);
            assert!(
                matches!(&packed, Moves::Packed(b) if b.len() == 2),
                "{text}"
            );
            assert_eq!(packed.unpack().unwrap(), vec![text.to_owned()]);
        }
    }

    #[test]
    fn an_unusual_move_keeps_the_whole_list_as_text() {
        let moves = vec!["h2e2".to_owned(), "j0j1".to_owned()];
        let packed = Moves::pack(&moves);
        assert!(matches!(packed, Moves::Text(_)));
        assert_eq!(packed.unpack().unwrap(), moves);
    }

    #[test]
    fn a_jieqi_deal_takes_fifteen_bytes() {
        let deal = "rheaaehrccpppppPPPPPCCRHEAAEHR";
        let packed = Letters::pack(deal);
        assert!(matches!(&packed, Letters::Packed(30, b) if b.len() == 15));
        assert_eq!(packed.unpack().unwrap(), deal);
        assert_eq!(Letters::pack("").unpack().unwrap(), "");
    }

    #[test]
    fn a_hex_salt_is_stored_as_bytes_and_anything_else_as_text() {
        assert!(matches!(Hex::pack("00ff10"), Hex::Bytes(b) if b == [0, 255, 16]));
        assert_eq!(Hex::pack("00ff10").unpack(), "00ff10");
        assert_eq!(Hex::pack("00FF").unpack(), "00FF");
        assert_eq!(Hex::pack("xyz").unpack(), "xyz");
    }

    #[test]
    fn corrupt_packed_forms_are_errors_not_panics() {
        assert!(Moves::Packed(vec![0xff, 0xff]).unpack().is_err());
        assert!(Moves::Packed(vec![1]).unpack().is_err());
        assert!(Letters::Packed(4, vec![0x12]).unpack().is_err());
        assert!(Letters::Packed(1, vec![0xf0]).unpack().is_err());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn any_move_list_reads_back_as_written(moves in proptest::collection::vec("[a-j][0-9][a-j][0-9][a-z]?|[a-h][1-5](=[A-Za-z])?", 0..40)) {
            prop_assert_eq!(Moves::pack(&moves).unpack().unwrap(), moves);
        }

        #[test]
        fn any_letters_read_back_as_written(letters in "[A-Za-z]{0,40}") {
            prop_assert_eq!(Letters::pack(&letters).unpack().unwrap(), letters);
        }
    }
}
