//! How an external engine numbers the ranks in its moves. Pikafish, JieqiBox and we write
//! ranks 0 to 9 (`h2e2`); Fairy-Stockfish, which plays Xiangqi as one variant among many,
//! writes them 1 to 10 (`h3e3`, `b10c8`). The match runner speaks to each engine in its own
//! numbering and reads its answers the same way.

use std::fmt;
use std::str::FromStr;

use jieqi_rules::notation::uci as coordinates;
use jieqi_rules::{Move, Square};

/// The rank numbering of an engine's moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Ranks {
    /// Ranks 0 to 9, Red's back rank 0 (Pikafish, JieqiBox, jieqi-bot).
    #[default]
    FromZero,
    /// Ranks 1 to 10, Red's back rank 1 (Fairy-Stockfish).
    FromOne,
}

impl Ranks {
    /// `mv` (without reveal letters) in this numbering.
    ///
    /// ```
    /// use jieqi_rules::Move;
    /// use jieqi_uci::ranks::Ranks;
    ///
    /// let mv = Move::new("b9".parse()?, "c7".parse()?);
    /// assert_eq!(Ranks::FromOne.write(mv), "b10c8");
    /// assert_eq!(Ranks::FromZero.write(mv), "b9c7");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn write(self, mv: Move) -> String {
        match self {
            Ranks::FromZero => mv.to_string(),
            Ranks::FromOne => format!("{}{}", point_from_one(mv.from), point_from_one(mv.to)),
        }
    }

    /// Reads a move an engine answered in this numbering; letters after the two points (a
    /// reveal, a promotion in another game) are ignored, since the game knows what is revealed.
    /// `None` if it is not two points of the board.
    ///
    /// ```
    /// use jieqi_uci::ranks::Ranks;
    ///
    /// assert_eq!(Ranks::FromOne.read("b10c8").map(|m| m.to_string()), Some("b9c7".to_owned()));
    /// assert_eq!(Ranks::FromZero.read("h2e2").map(|m| m.to_string()), Some("h2e2".to_owned()));
    /// assert_eq!(Ranks::FromOne.read("h0e1"), None);
    /// assert_eq!(Ranks::FromOne.read("(none)"), None);
    /// ```
    pub fn read(self, text: &str) -> Option<Move> {
        match self {
            Ranks::FromZero => coordinates::parse(text).ok().map(|(mv, _)| mv),
            Ranks::FromOne => {
                let (from, rest) = read_point_from_one(text.trim())?;
                let (to, _) = read_point_from_one(rest)?;
                Some(Move::new(from, to))
            }
        }
    }
}

fn point_from_one(sq: Square) -> String {
    format!("{}{}", sq.file().char(), sq.rank().index() + 1)
}

/// A file letter and a rank 1 to 10 at the start of `text`, and what follows.
fn read_point_from_one(text: &str) -> Option<(Square, &str)> {
    let &file = text.as_bytes().first()?;
    if !file.is_ascii_alphabetic() {
        return None;
    }
    let file = i32::from(file.to_ascii_lowercase()) - i32::from(b'a');
    let digits_end = text[1..]
        .find(|c: char| !c.is_ascii_digit())
        .map_or(text.len(), |i| i + 1);
    let rank: i32 = text.get(1..digits_end)?.parse().ok()?;
    if !(1..=10).contains(&rank) {
        return None;
    }
    Some((Square::from_coords(file, rank - 1)?, &text[digits_end..]))
}

impl fmt::Display for Ranks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Ranks::FromZero => "0-9",
            Ranks::FromOne => "1-10",
        })
    }
}

/// A rank numbering that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a rank numbering: write 0-9 (Pikafish, jieqi-bot) or 1-10 (Fairy-Stockfish)")]
pub struct ParseRanksError(pub String);

impl FromStr for Ranks {
    type Err = ParseRanksError;

    fn from_str(s: &str) -> Result<Ranks, ParseRanksError> {
        match s.trim() {
            "0-9" | "0" => Ok(Ranks::FromZero),
            "1-10" | "1" => Ok(Ranks::FromOne),
            _ => Err(ParseRanksError(s.to_owned())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_move_between_points_survives_both_numberings() {
        for from in Square::all() {
            for to in Square::all().step_by(7) {
                let mv = Move::new(from, to);
                for ranks in [Ranks::FromZero, Ranks::FromOne] {
                    assert_eq!(ranks.read(&ranks.write(mv)), Some(mv), "{ranks} {mv}");
                }
            }
        }
    }

    #[test]
    fn points_off_the_board_are_refused() {
        for text in ["j1a1", "a11a1", "a1", "", "a1b", "é1a1", "a1a0"] {
            assert_eq!(Ranks::FromOne.read(text), None, "{text}");
        }
        assert_eq!("1-10".parse(), Ok(Ranks::FromOne));
        assert!("2-11".parse::<Ranks>().is_err());
    }
}
