//! WXF notation: piece letter, the file it stands on (1–9 from the mover's right), an operator
//! (`+` advance, `-` retreat, `.` traverse) and a number: the target file when traversing or
//! for the diagonal movers (advisor, elephant, horse), otherwise the count of points.
//!
//! Like pieces on one file are told apart as the World Xiangqi Federation does: `C+.5` and
//! `C-.5` for the front and rear of two; with three, the middle one keeps its file number
//! (`P3.4`); with four or five soldiers, `++` and `--` name the foremost and rearmost and
//! `P+`/`P-` the second from each end; when two files each hold several soldiers the file
//! replaces the letter (`3+.4`, `33.4`, `3-.4`). Jieqi can put several covered and revealed
//! pieces of one named type on two files, which WXF never needed: there the letter is kept
//! before the file (`R9+.1`). Files crowded beyond all of this are written in coordinates.
//!
//! A covered piece is named by its fake type, and a reveal appends `=` and the revealed type:
//! `r9+1=c`. Output uses the mover's case; input takes either case, `C+.5` or `+C.5`, and `=`
//! as the traverse operator (`C2=5`) as many books write it.

use crate::moves::Move;
use crate::setup::Setup;
use crate::types::{Piece, Role};

use super::relative::{self, Column, Op, Pick, Place, Relative};
use super::{MoveInputError, MoveNotation, ParsedMove, Syntax, malformed, shorten, uci};

/// Writes `mv` in WXF; `setup` is the position before the move, `reveal` the type a covered
/// mover turned out to be. Moves WXF cannot describe are written in coordinates.
///
/// ```
/// use jieqi_rules::{Move, Role, Setup, Square};
/// use jieqi_rules::notation::wxf;
///
/// let sq = |s: &str| s.parse::<Square>().unwrap();
/// let mut setup = Setup::jieqi_start();
/// setup.side_to_move = jieqi_rules::Side::Black;
/// // Black's covered piece on the chariot point of file 9 advances one: a cannon.
/// assert_eq!(wxf::write(&setup, Move::new(sq("i9"), sq("i8")), Some(Role::Cannon)), "r9+1=c");
/// assert_eq!(wxf::write(&setup, Move::new(sq("b9"), sq("c7")), None), "h2+3");
/// ```
pub fn write(setup: &Setup, mv: Move, reveal: Option<Role>) -> String {
    let Some(parts) = relative::parts(setup, mv) else {
        return uci::write(mv, reveal);
    };
    let Some(mut text) = designator(parts.piece, parts.column) else {
        return uci::write(mv, reveal);
    };
    text.push(match parts.op {
        Op::Advance => '+',
        Op::Retreat => '-',
        Op::Traverse => '.',
    });
    text.push(digit(parts.arg));
    if let Some(role) = reveal {
        text.push('=');
        text.push(Piece::new(parts.piece.side, role).char());
    }
    text
}

/// Reads WXF and finds the move among `legal`, the legal moves of `setup`.
///
/// ```
/// use jieqi_rules::{Move, Setup, Square};
/// use jieqi_rules::notation::wxf;
///
/// let sq = |s: &str| s.parse::<Square>().unwrap();
/// let setup = Setup::xiangqi_start();
/// let legal = [Move::new(sq("h2"), sq("e2")), Move::new(sq("h0"), sq("g2"))];
/// assert_eq!(wxf::read(&setup, &legal, "C2.5").map(|p| p.mv), Ok(legal[0]));
/// assert_eq!(wxf::read(&setup, &legal, "h2+3").map(|p| p.mv), Ok(legal[1]));
/// assert_eq!(
///     wxf::read(&setup, &legal, "C2.4").unwrap_err().to_string(),
///     "no Red cannon on file 2 can traverse to file 4"
/// );
/// ```
pub fn read(setup: &Setup, legal: &[Move], text: &str) -> Result<ParsedMove, MoveInputError> {
    let text = text.trim();
    match syntax(text) {
        Syntax::Read(read) => relative::resolve(setup, legal, text, &read, MoveNotation::Wxf),
        Syntax::Malformed(problem) => Err(malformed(text, MoveNotation::Wxf, problem)),
        Syntax::NotThis if text.is_empty() => Err(MoveInputError::Empty),
        Syntax::NotThis => Err(MoveInputError::Unreadable {
            text: shorten(text),
        }),
    }
}

fn digit(n: u8) -> char {
    char::from(b'0' + n % 10)
}

/// WXF's marks for a column of like pieces, front first.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mark {
    Plus,
    Minus,
    Middle,
    First,
    Last,
}

/// How WXF names the piece that stands at `column`, or `None` where WXF has no name for it.
fn designator(piece: Piece, column: Column) -> Option<String> {
    let letter = piece.char();
    let file = digit(column.number);
    if column.count == 1 {
        return Some(format!("{letter}{file}"));
    }
    let marks: &[Mark] = match column.count {
        2 => &[Mark::Plus, Mark::Minus],
        3 => &[Mark::Plus, Mark::Middle, Mark::Minus],
        4 => &[Mark::First, Mark::Plus, Mark::Minus, Mark::Last],
        5 => &[
            Mark::First,
            Mark::Plus,
            Mark::Middle,
            Mark::Minus,
            Mark::Last,
        ],
        _ => return None,
    };
    let mark = *marks.get(column.index)?;
    let soldier = piece.role == Role::Soldier;
    if column.crowded_files <= 1 {
        match mark {
            Mark::Plus => Some(format!("{letter}+")),
            Mark::Minus => Some(format!("{letter}-")),
            Mark::Middle => Some(format!("{letter}{file}")),
            // `++` and `--` drop the letter, so only soldiers (the only type with four or five
            // on one file in Xiangqi) can be written that way.
            Mark::First if soldier => Some("++".to_owned()),
            Mark::Last if soldier => Some("--".to_owned()),
            Mark::First | Mark::Last => None,
        }
    } else {
        let letter = if soldier {
            String::new()
        } else {
            letter.to_string()
        };
        match mark {
            Mark::Plus => Some(format!("{letter}{file}+")),
            Mark::Minus => Some(format!("{letter}{file}-")),
            Mark::Middle => Some(format!("{letter}{file}{file}")),
            Mark::First | Mark::Last => None,
        }
    }
}

fn file_digit(c: char) -> Option<u8> {
    c.to_digit(10).and_then(|d| u8::try_from(d).ok())
}

fn sign(c: char) -> Option<bool> {
    match c {
        '+' => Some(true),
        '-' => Some(false),
        _ => None,
    }
}

const FORM: &str = "a piece letter, its file 1–9 (or + / - for the front or rear of two), \
                    an operator + - . and a number 1–9, like `C2.5` or `C+.5`";

/// Reads the text of a WXF move, without a board.
pub(crate) fn syntax(text: &str) -> Syntax<Relative> {
    let chars: Vec<char> = text.chars().map(|c| c.to_ascii_uppercase()).collect();
    let looks_like_wxf = chars.len() >= 3
        && chars.len() <= 8
        && chars.iter().all(|c| c.is_ascii_graphic())
        && chars
            .iter()
            .skip(1)
            .any(|c| matches!(c, '+' | '-' | '.' | '='))
        && chars.first().is_some_and(|&c| {
            Role::from_char(c).is_some() || c.is_ascii_digit() || sign(c).is_some()
        });
    if !looks_like_wxf {
        return Syntax::NotThis;
    }
    let (body, reveal) = match chars.as_slice() {
        [body @ .., '=', letter] if letter.is_ascii_alphabetic() => {
            match Role::from_char(*letter) {
                Some(role) => (body, Some(role)),
                None => {
                    return Syntax::Malformed(format!(
                        "after `=` comes the revealed type, one of A E R C H P, not `{letter}`"
                    ));
                }
            }
        }
        body => (body, None),
    };
    let Some((&[op, arg], head)) = body.split_last_chunk::<2>().map(|(h, t)| (t, h)) else {
        return Syntax::Malformed(format!("a move is {FORM}"));
    };
    let op = match op {
        '+' => Op::Advance,
        '-' => Op::Retreat,
        '.' | '=' => Op::Traverse,
        _ => return Syntax::Malformed(format!("the operator must be + - or ., as in {FORM}")),
    };
    let arg = match file_digit(arg) {
        Some(n @ 1..=9) => n,
        _ => return Syntax::Malformed("the last number must be 1 to 9".to_owned()),
    };
    let Some((role, place)) = piece_and_place(head) else {
        return Syntax::Malformed(format!("a move is {FORM}"));
    };
    if matches!(
        place,
        Place::File { number: 0, .. } | Place::Column { file: Some(0), .. }
    ) {
        return Syntax::Malformed("files are numbered 1 to 9 from the mover's right".to_owned());
    }
    Syntax::Read(Relative {
        role,
        place,
        op,
        arg,
        reveal,
    })
}

/// The piece part of a WXF move: everything before the operator.
fn piece_and_place(head: &[char]) -> Option<(Role, Place)> {
    let column = |file, plus: bool| Place::Column {
        file,
        pick: if plus { Pick::WxfPlus } else { Pick::WxfMinus },
    };
    match *head {
        [a, b] => {
            if let Some(role) = Role::from_char(a) {
                if let Some(number) = file_digit(b) {
                    // `P3` on a column of three or five soldiers is the middle one.
                    return Some((
                        role,
                        Place::File {
                            number,
                            middle_if_odd: true,
                        },
                    ));
                }
                return sign(b).map(|plus| (role, column(None, plus)));
            }
            if let (Some(plus), Some(role)) = (sign(a), Role::from_char(b)) {
                return Some((role, column(None, plus)));
            }
            match (a, b) {
                ('+', '+') => Some((Role::Soldier, column_pick(None, Pick::WxfFirst))),
                ('-', '-') => Some((Role::Soldier, column_pick(None, Pick::WxfLast))),
                _ => {
                    let file = file_digit(a)?;
                    if let Some(plus) = sign(b) {
                        Some((Role::Soldier, column(Some(file), plus)))
                    } else if file_digit(b) == Some(file) {
                        Some((Role::Soldier, column_pick(Some(file), Pick::Middle)))
                    } else {
                        None
                    }
                }
            }
        }
        [letter, f, mark] => {
            let role = Role::from_char(letter)?;
            let file = file_digit(f)?;
            if let Some(plus) = sign(mark) {
                Some((role, column(Some(file), plus)))
            } else if file_digit(mark) == Some(file) {
                Some((role, column_pick(Some(file), Pick::Middle)))
            } else {
                None
            }
        }
        _ => None,
    }
}

fn column_pick(file: Option<u8>, pick: Pick) -> Place {
    Place::Column { file, pick }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Relative {
        match syntax(text) {
            Syntax::Read(relative) => relative,
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn wxf_reads_both_tandem_orders() {
        let front = Place::Column {
            file: None,
            pick: Pick::WxfPlus,
        };
        assert_eq!(read("C+.5").place, front);
        assert_eq!(read("+C.5").place, front);
        assert_eq!(
            read("c-.5").place,
            Place::Column {
                file: None,
                pick: Pick::WxfMinus
            }
        );
    }

    #[test]
    fn wxf_reads_crowded_soldier_forms() {
        assert_eq!(read("++.4").role, Role::Soldier);
        assert_eq!(
            read("--+1").place,
            Place::Column {
                file: None,
                pick: Pick::WxfLast
            }
        );
        assert_eq!(
            read("3+.4").place,
            Place::Column {
                file: Some(3),
                pick: Pick::WxfPlus
            }
        );
        assert_eq!(
            read("33.4").place,
            Place::Column {
                file: Some(3),
                pick: Pick::Middle
            }
        );
        assert_eq!(
            read("R9-.1").place,
            Place::Column {
                file: Some(9),
                pick: Pick::WxfMinus
            }
        );
    }

    #[test]
    fn wxf_reads_equals_as_traverse_and_as_reveal() {
        let traverse = read("C2=5");
        assert_eq!(
            (traverse.op, traverse.arg, traverse.reveal),
            (Op::Traverse, 5, None)
        );
        let reveal = read("r9+1=c");
        assert_eq!(
            (reveal.op, reveal.arg, reveal.reveal),
            (Op::Advance, 1, Some(Role::Cannon))
        );
    }

    #[test]
    fn wxf_rejects_file_zero_and_bad_operators() {
        for text in ["C0.5", "C2.0", "C2.55", "C2.5=X", "CC.5"] {
            assert!(matches!(syntax(text), Syntax::Malformed(_)), "{text}");
        }
    }
}
