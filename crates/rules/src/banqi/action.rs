//! What a Banqi player does on a turn, and how it is written: `c3` flips, `c3c4` moves or
//! captures, and the record of a flip names what came up (`c3=R`, case = colour).

use std::fmt;
use std::str::FromStr;

use super::error::BanqiError;
use super::square::BanqiSquare;
use crate::types::{Piece, Side};

/// One turn of Banqi. A player chooses it without knowing what a flip will reveal, so the
/// revealed piece lives in the [`ActionRecord`], never here.
///
/// ```
/// use jieqi_rules::banqi::Action;
///
/// let flip: Action = "c3".parse()?;
/// let step: Action = "c3c4".parse()?;
/// assert_eq!(flip.to_string(), "c3");
/// assert_eq!(step.to_string(), "c3c4");
/// assert!("c3=R".parse::<Action>().is_err()); // the player cannot know what is under c3
/// # Ok::<(), jieqi_rules::banqi::BanqiError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    /// Turn the face-down piece on this square face up.
    Flip(BanqiSquare),
    /// Move a face-up piece one square, or capture with it (a cannon captures from afar).
    Move {
        /// Where the piece stands.
        from: BanqiSquare,
        /// Where it goes (an empty square, or the piece it captures).
        to: BanqiSquare,
    },
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Flip(sq) => write!(f, "{sq}"),
            Action::Move { from, to } => write!(f, "{from}{to}"),
        }
    }
}

impl FromStr for Action {
    type Err = BanqiError;

    /// Reads `c3` (flip) or `c3c4` (move or capture). Also accepted: upper-case files and a
    /// separator between the squares (`c3-c4`, `c3 c4`, `c3xc4`). A flip with a revealed
    /// piece (`c3=R`) is refused with [`BanqiError::RevealTyped`]: only the game knows it.
    fn from_str(text: &str) -> Result<Action, BanqiError> {
        if let Some((square, _)) = text.trim().split_once('=') {
            return Err(match square.trim().parse() {
                Ok(sq) => BanqiError::RevealTyped(sq),
                Err(_) => BanqiError::Unreadable(text.to_owned()),
            });
        }
        let mut chars: Vec<char> = text
            .chars()
            .filter(|c| !c.is_whitespace() && !matches!(c, '-' | ':'))
            .collect();
        if chars.len() == 5 && matches!(chars[2], 'x' | 'X') {
            chars.remove(2);
        }
        let square = |cs: &[char]| cs.iter().collect::<String>().parse::<BanqiSquare>();
        match chars.len() {
            2 => Ok(Action::Flip(square(&chars)?)),
            4 => {
                let from = square(&chars[..2])?;
                let to = square(&chars[2..])?;
                Ok(Action::Move { from, to })
            }
            _ => Err(BanqiError::Unreadable(text.to_owned())),
        }
    }
}

impl Action {
    /// Reads an action as stored in a game record: `c3c4`, or a flip with what it revealed,
    /// `c3=R` (case = colour). A bare flip `c3` gives no piece. Replaying a stored game checks
    /// the piece against the deal.
    ///
    /// ```
    /// use jieqi_rules::banqi::Action;
    /// use jieqi_rules::{Piece, Role, Side};
    ///
    /// let (action, flipped) = Action::parse_record("c3=r")?;
    /// assert_eq!(action, "c3".parse()?);
    /// assert_eq!(flipped, Some(Piece::new(Side::Black, Role::Chariot)));
    /// # Ok::<(), jieqi_rules::banqi::BanqiError>(())
    /// ```
    pub fn parse_record(text: &str) -> Result<(Action, Option<Piece>), BanqiError> {
        match text.trim().split_once('=') {
            None => Ok((text.parse()?, None)),
            Some((square, letter)) => {
                let square: BanqiSquare = square.trim().parse()?;
                let mut letters = letter.trim().chars();
                match (letters.next().and_then(Piece::from_char), letters.next()) {
                    (Some(piece), None) => Ok((Action::Flip(square), Some(piece))),
                    _ => Err(BanqiError::Unreadable(text.to_owned())),
                }
            }
        }
    }

    /// The square a flip turns over, or the square a move leaves.
    pub const fn from_square(self) -> BanqiSquare {
        match self {
            Action::Flip(sq) => sq,
            Action::Move { from, .. } => from,
        }
    }
}

/// An action as it was played: what it flipped or captured, and who played it.
/// Its text is the record form: `c3=R` for a flip (case = colour), `c3c4` for a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ActionRecord {
    /// The action.
    pub action: Action,
    /// The piece a flip turned face up (its colour is public, and the first flip's colour
    /// becomes its player's colour).
    pub flipped: Option<Piece>,
    /// The piece a capture took (always face up before, so always known).
    pub captured: Option<Piece>,
    /// The side that played it: for the first flip, the colour that came up.
    pub mover: Side,
}

impl fmt::Display for ActionRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.action, self.flipped) {
            (Action::Flip(sq), Some(piece)) => write!(f, "{sq}={}", piece.char()),
            (action, _) => write!(f, "{action}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Role;

    #[test]
    fn separators_between_squares_are_accepted() {
        for text in ["c3c4", "C3C4", "c3-c4", "c3 c4", "c3xc4", " c3c4 "] {
            assert_eq!(
                text.parse::<Action>().map(|a| a.to_string()),
                Ok("c3c4".into())
            );
        }
    }

    #[test]
    fn nonsense_is_unreadable_not_a_panic() {
        for text in [
            "", "c", "c3c", "c3c4c5", "é3", "c3=", "=R", "c3=RR", "x3x4", "c3xx4",
        ] {
            assert!(text.parse::<Action>().is_err(), "{text}");
        }
        assert!(Action::parse_record("c3=").is_err());
        assert!(Action::parse_record("c3=X").is_err());
    }

    #[test]
    fn flip_record_names_the_piece_by_case() -> Result<(), BanqiError> {
        let record = ActionRecord {
            action: "c3".parse()?,
            flipped: Some(Piece::new(Side::Black, Role::Horse)),
            captured: None,
            mover: Side::Red,
        };
        assert_eq!(record.to_string(), "c3=h");
        assert_eq!(
            Action::parse_record("c3=h")?,
            (record.action, record.flipped)
        );
        Ok(())
    }
}
