//! Coordinates (UCI/ICCS): the from point and the to point, `h2e2`. When, and only when, the
//! move turned a covered piece face up, the record appends the revealed type as a lowercase
//! letter: `b9c7c`. This is the store format, so it is exact and needs no board to read.
//!
//! Readers accept either case and ICCS's dash (`H2-E2`).

use crate::moves::Move;
use crate::setup::Setup;
use crate::types::{File, Rank, Role, Square};

use super::relative::check_reveal;
use super::{MoveInputError, MoveNotation, ParsedMove, Syntax, malformed, shorten};

/// Writes `mv` with the reveal suffix if `reveal` is given.
///
/// ```
/// use jieqi_rules::{Move, Role, Square};
/// use jieqi_rules::notation::uci;
///
/// let mv = Move::new("b9".parse::<Square>()?, "c7".parse::<Square>()?);
/// assert_eq!(uci::write(mv, None), "b9c7");
/// assert_eq!(uci::write(mv, Some(Role::Cannon)), "b9c7c");
/// # Ok::<(), jieqi_rules::ParseSquareError>(())
/// ```
pub fn write(mv: Move, reveal: Option<Role>) -> String {
    let mut text = mv.to_string();
    if let Some(role) = reveal {
        text.push(role.lower_char());
    }
    text
}

/// Reads coordinates without a board: the move and the reveal suffix, if any.
///
/// ```
/// use jieqi_rules::Role;
/// use jieqi_rules::notation::uci;
///
/// let (mv, reveal) = uci::parse("H2-E2")?;
/// assert_eq!(mv.to_string(), "h2e2");
/// assert_eq!(reveal, None);
/// assert_eq!(uci::parse("b9c7c")?.1, Some(Role::Cannon));
/// assert!(uci::parse("C2.5").is_err());
/// # Ok::<(), jieqi_rules::notation::MoveInputError>(())
/// ```
pub fn parse(text: &str) -> Result<(Move, Option<Role>), MoveInputError> {
    let text = text.trim();
    match syntax(text) {
        Syntax::Read(read) => Ok(read),
        Syntax::Malformed(problem) => Err(malformed(text, MoveNotation::Coordinates, problem)),
        Syntax::NotThis if text.is_empty() => Err(MoveInputError::Empty),
        Syntax::NotThis => Err(MoveInputError::Unreadable {
            text: shorten(text),
        }),
    }
}

/// Reads coordinates and finds the move among `legal`, the legal moves of `setup`.
/// Well-formed coordinates of a move not in `legal` give [`MoveInputError::NotLegal`].
///
/// ```
/// use jieqi_rules::{Move, Setup, Square};
/// use jieqi_rules::notation::{uci, MoveInputError};
///
/// let setup = Setup::xiangqi_start();
/// let legal = [Move::new("h2".parse::<Square>()?, "e2".parse::<Square>()?)];
/// assert_eq!(uci::read(&setup, &legal, "h2e2").map(|p| p.mv), Ok(legal[0]));
/// assert!(matches!(uci::read(&setup, &legal, "h2e3"), Err(MoveInputError::NotLegal(_))));
/// // A face-up cannon reveals nothing.
/// assert!(matches!(
///     uci::read(&setup, &legal, "h2e2r"),
///     Err(MoveInputError::NothingToReveal { .. })
/// ));
/// # Ok::<(), jieqi_rules::ParseSquareError>(())
/// ```
pub fn read(setup: &Setup, legal: &[Move], text: &str) -> Result<ParsedMove, MoveInputError> {
    let read = parse(text)?;
    resolve(setup, legal, read)
}

/// Checks read coordinates against the legal moves and the board.
pub(crate) fn resolve(
    setup: &Setup,
    legal: &[Move],
    (mv, reveal): (Move, Option<Role>),
) -> Result<ParsedMove, MoveInputError> {
    if reveal == Some(Role::General) {
        return Err(MoveInputError::RevealAsGeneral);
    }
    if !legal.contains(&mv) {
        return Err(MoveInputError::NotLegal(mv));
    }
    check_reveal(setup, mv, reveal)?;
    Ok(ParsedMove { mv, reveal })
}

fn square(file: char, rank: char) -> Option<Square> {
    let file = File::from_char(file.to_ascii_lowercase())?;
    let rank = Rank::from_char(rank)?;
    Some(Square::new(file, rank))
}

/// Coordinates are two points, an optional dash between them, and an optional reveal letter.
pub(crate) fn syntax(text: &str) -> Syntax<(Move, Option<Role>)> {
    let mut chars = text.chars();
    let Some(from) = chars
        .next()
        .zip(chars.next())
        .and_then(|(f, r)| square(f, r))
    else {
        return Syntax::NotThis;
    };
    let mut rest = chars.as_str();
    rest = rest.strip_prefix('-').unwrap_or(rest);
    let mut chars = rest.chars();
    let Some(to) = chars
        .next()
        .zip(chars.next())
        .and_then(|(f, r)| square(f, r))
    else {
        return Syntax::NotThis;
    };
    let mv = Move::new(from, to);
    let mut suffix = chars;
    match (suffix.next(), suffix.next()) {
        (None, _) => Syntax::Read((mv, None)),
        (Some(letter), None) => match Role::from_char(letter) {
            Some(role) => Syntax::Read((mv, Some(role))),
            None => Syntax::Malformed(format!(
                "after the two points only the revealed type may follow, one of a e r c h p, like `{mv}c`"
            )),
        },
        (Some(_), Some(_)) => Syntax::Malformed(format!(
            "after the two points only one letter, the revealed type, may follow, like `{mv}c`"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_accept_upper_case_and_a_dash() {
        let (mv, reveal) = parse("H2-E2").expect("ICCS form");
        assert_eq!(mv.to_string(), "h2e2");
        assert_eq!(reveal, None);
    }

    #[test]
    fn coordinates_read_the_reveal_suffix() {
        assert_eq!(parse("i9h9p").map(|r| r.1), Ok(Some(Role::Soldier)));
        assert_eq!(parse("e3e4E").map(|r| r.1), Ok(Some(Role::Elephant)));
    }

    #[test]
    fn a_bad_suffix_is_malformed_coordinates() {
        for text in ["h2e2x", "h2e2cc"] {
            assert!(
                matches!(
                    parse(text),
                    Err(MoveInputError::Malformed {
                        notation: MoveNotation::Coordinates,
                        ..
                    })
                ),
                "{text}"
            );
        }
    }

    #[test]
    fn relative_notation_is_not_coordinates() {
        for text in ["C2.5", "h2+3", "j2e2", "h2", "h2-5"] {
            assert_eq!(syntax(text), Syntax::NotThis, "{text}");
        }
    }
}
