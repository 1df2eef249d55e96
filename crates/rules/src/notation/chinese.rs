//! Chinese notation: `炮二平五`. The piece, the file it stands on (counted from the mover's
//! right: Red's in Chinese numerals, Black's in digits), 进 (advance), 退 (retreat) or 平
//! (traverse), and a number: the target file when traversing or for the diagonal movers
//! (仕 相 马), otherwise the count of points.
//!
//! Like pieces on one file are told apart by 前/后 (front/rear) for two, 前/中/后 for three
//! and by their place from the front (一兵 二兵 ... for Red, 1卒 2卒 ... for Black) for four or
//! more; when two files hold several like pieces the file follows the piece (`前兵三平四`).
//! A covered piece is named by its fake type, and a reveal appends `=` and the revealed
//! piece's character: `车9进1=炮`.
//!
//! Output keeps to one script, as printed game records do: simplified by default (车马炮 for
//! both sides, 帅仕相兵 / 将士象卒, 进 and 后), traditional on request (俥傌炮 / 車馬砲,
//! 進 and 後) through [`Script`]. The characters live in this module's constants, the one
//! place to change them. Input accepts traditional and simplified characters and both
//! sides' names (進/进, 車/车/俥, 馬/马/傌, 帥/帅/將/将, 仕/士, 相/象, 炮/砲/包, 兵/卒, 後/后),
//! Chinese numerals, ASCII or full-width digits for either side, `炮前` as well as `前炮`,
//! and spaces anywhere.

use crate::moves::Move;
use crate::setup::Setup;
use crate::types::{Piece, Role, Side};

use super::relative::{self, Op, Pick, Place, Relative};
use super::{MoveInputError, MoveNotation, ParsedMove, Syntax, malformed, shorten, uci};

/// The characters a Chinese move is written in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Script {
    /// Simplified characters (车马炮 for both sides, 进, 后), as mainland records print them.
    #[default]
    Simplified,
    /// Traditional characters (俥傌炮 for Red, 車馬砲 for Black, 進, 後), as the boards show
    /// the pieces.
    Traditional,
}

/// The words of one script: pieces in [`Role::ALL`] order (K A E R C H P) for each side, the
/// operators and the tandem marks.
struct Words {
    red: [char; 7],
    black: [char; 7],
    advance: char,
    rear: char,
}

const SIMPLIFIED: Words = Words {
    red: ['帅', '仕', '相', '车', '炮', '马', '兵'],
    black: ['将', '士', '象', '车', '炮', '马', '卒'],
    advance: '进',
    rear: '后',
};

const TRADITIONAL: Words = Words {
    red: ['帥', '仕', '相', '俥', '炮', '傌', '兵'],
    black: ['將', '士', '象', '車', '砲', '馬', '卒'],
    advance: '進',
    rear: '後',
};

impl Script {
    const fn words(self) -> &'static Words {
        match self {
            Script::Simplified => &SIMPLIFIED,
            Script::Traditional => &TRADITIONAL,
        }
    }

    /// The character this script writes for `piece`: 帅仕相车马炮兵 / 将士象车马炮卒
    /// simplified, 帥仕相俥傌炮兵 / 將士象車馬砲卒 traditional.
    ///
    /// ```
    /// use jieqi_rules::{Piece, Role, Side};
    /// use jieqi_rules::notation::chinese::Script;
    ///
    /// let red_chariot = Piece::new(Side::Red, Role::Chariot);
    /// let black_cannon = Piece::new(Side::Black, Role::Cannon);
    /// assert_eq!(Script::Simplified.piece_char(red_chariot), '车');
    /// assert_eq!(Script::Simplified.piece_char(black_cannon), '炮');
    /// assert_eq!(Script::Traditional.piece_char(red_chariot), '俥');
    /// assert_eq!(Script::Traditional.piece_char(black_cannon), '砲');
    /// ```
    pub const fn piece_char(self, piece: Piece) -> char {
        let words = self.words();
        match piece.side {
            Side::Red => words.red[piece.role.index()],
            Side::Black => words.black[piece.role.index()],
        }
    }
}

/// Red's files, counts and places: Chinese numerals.
const RED_NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
/// Black's files, counts and places: digits.
const BLACK_NUMERALS: [char; 9] = ['1', '2', '3', '4', '5', '6', '7', '8', '9'];
const RETREAT: char = '退';
const TRAVERSE: char = '平';
const FRONT: char = '前';
const MIDDLE: char = '中';

/// The character simplified Chinese output uses for `piece` (see [`Script::piece_char`]).
///
/// ```
/// use jieqi_rules::{Piece, Role, Side};
/// use jieqi_rules::notation::chinese::piece_char;
///
/// assert_eq!(piece_char(Piece::new(Side::Red, Role::Horse)), '马');
/// assert_eq!(piece_char(Piece::new(Side::Black, Role::General)), '将');
/// ```
pub const fn piece_char(piece: Piece) -> char {
    Script::Simplified.piece_char(piece)
}

/// `n` (1–9) as `side` writes it, or `None` out of range.
fn numeral(side: Side, n: usize) -> Option<char> {
    let numerals = match side {
        Side::Red => &RED_NUMERALS,
        Side::Black => &BLACK_NUMERALS,
    };
    n.checked_sub(1).and_then(|i| numerals.get(i)).copied()
}

/// Writes `mv` in simplified Chinese; `setup` is the position before the move, `reveal` the
/// type a covered mover turned out to be. Moves the notation cannot describe are written in
/// coordinates.
///
/// ```
/// use jieqi_rules::{Move, Role, Setup, Side, Square};
/// use jieqi_rules::notation::chinese;
///
/// let sq = |s: &str| s.parse::<Square>().unwrap();
/// let setup = Setup::xiangqi_start();
/// assert_eq!(chinese::write(&setup, Move::new(sq("h2"), sq("e2")), None), "炮二平五");
/// assert_eq!(chinese::write(&setup, Move::new(sq("h0"), sq("g2")), None), "马二进三");
/// let mut jieqi = Setup::jieqi_start();
/// jieqi.side_to_move = Side::Black;
/// assert_eq!(
///     chinese::write(&jieqi, Move::new(sq("i9"), sq("i8")), Some(Role::Cannon)),
///     "车9进1=炮"
/// );
/// ```
pub fn write(setup: &Setup, mv: Move, reveal: Option<Role>) -> String {
    write_in(Script::Simplified, setup, mv, reveal)
}

/// Writes `mv` in Chinese in `script`, every character of it in that one script.
///
/// ```
/// use jieqi_rules::{Move, Role, Setup, Side, Square};
/// use jieqi_rules::notation::chinese::{self, Script};
///
/// let sq = |s: &str| s.parse::<Square>().unwrap();
/// let setup = Setup::xiangqi_start();
/// let horse = Move::new(sq("h0"), sq("g2"));
/// assert_eq!(chinese::write_in(Script::Traditional, &setup, horse, None), "傌二進三");
/// let mut jieqi = Setup::jieqi_start();
/// jieqi.side_to_move = Side::Black;
/// let up = Move::new(sq("i9"), sq("i8"));
/// assert_eq!(chinese::write_in(Script::Traditional, &jieqi, up, Some(Role::Cannon)), "車9進1=砲");
/// ```
pub fn write_in(script: Script, setup: &Setup, mv: Move, reveal: Option<Role>) -> String {
    written(script, setup, mv, reveal).unwrap_or_else(|| uci::write(mv, reveal))
}

fn written(script: Script, setup: &Setup, mv: Move, reveal: Option<Role>) -> Option<String> {
    let parts = relative::parts(setup, mv)?;
    let side = parts.piece.side;
    let column = parts.column;
    let words = script.words();
    let name = script.piece_char(parts.piece);
    let file = numeral(side, usize::from(column.number))?;
    let mut text = String::new();
    if column.count == 1 {
        text.push(name);
        text.push(file);
    } else {
        let place = match (column.count, column.index) {
            (2, 0) | (3, 0) => FRONT,
            (3, 1) => MIDDLE,
            (2, 1) | (3, 2) => words.rear,
            (_, index) => numeral(side, index + 1)?,
        };
        text.push(place);
        text.push(name);
        if column.crowded_files >= 2 {
            text.push(file);
        }
    }
    text.push(match parts.op {
        Op::Advance => words.advance,
        Op::Retreat => RETREAT,
        Op::Traverse => TRAVERSE,
    });
    text.push(numeral(side, usize::from(parts.arg))?);
    if let Some(role) = reveal {
        text.push('=');
        text.push(script.piece_char(Piece::new(side, role)));
    }
    Some(text)
}

/// Reads Chinese notation and finds the move among `legal`, the legal moves of `setup`.
///
/// ```
/// use jieqi_rules::{Move, Setup, Square};
/// use jieqi_rules::notation::chinese;
///
/// let sq = |s: &str| s.parse::<Square>().unwrap();
/// let setup = Setup::xiangqi_start();
/// let legal = [Move::new(sq("h2"), sq("e2")), Move::new(sq("h0"), sq("g2"))];
/// for text in ["炮二平五", "砲2平5", "炮２平５"] {
///     assert_eq!(chinese::read(&setup, &legal, text).map(|p| p.mv), Ok(legal[0]));
/// }
/// assert_eq!(chinese::read(&setup, &legal, "馬二進三").map(|p| p.mv), Ok(legal[1]));
/// ```
pub fn read(setup: &Setup, legal: &[Move], text: &str) -> Result<ParsedMove, MoveInputError> {
    let text = text.trim();
    match syntax(text) {
        Syntax::Read(read) => relative::resolve(setup, legal, text, &read, MoveNotation::Chinese),
        Syntax::Malformed(problem) => Err(malformed(text, MoveNotation::Chinese, problem)),
        Syntax::NotThis if text.is_empty() => Err(MoveInputError::Empty),
        Syntax::NotThis => Err(MoveInputError::Unreadable {
            text: shorten(text),
        }),
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Token {
    Piece(Role),
    Number(u8),
    Mark(Pick),
    Op(Op),
    Equals,
}

fn token(c: char) -> Option<Token> {
    let role = match c {
        '帥' | '帅' | '將' | '将' => Some(Role::General),
        '仕' | '士' => Some(Role::Advisor),
        '相' | '象' => Some(Role::Elephant),
        '車' | '车' | '俥' | '伡' => Some(Role::Chariot),
        '馬' | '马' | '傌' | '㐷' => Some(Role::Horse),
        '炮' | '砲' | '包' => Some(Role::Cannon),
        '兵' | '卒' => Some(Role::Soldier),
        _ => None,
    };
    if let Some(role) = role {
        return Some(Token::Piece(role));
    }
    let number = match c {
        '0'..='9' => c.to_digit(10),
        '０'..='９' => Some(u32::from(c) - u32::from('０')),
        _ => RED_NUMERALS
            .iter()
            .position(|&numeral| numeral == c)
            .and_then(|i| u32::try_from(i + 1).ok()),
    };
    if let Some(n) = number.and_then(|n| u8::try_from(n).ok()) {
        return Some(Token::Number(n));
    }
    match c {
        '前' => Some(Token::Mark(Pick::Front)),
        '中' => Some(Token::Mark(Pick::Middle)),
        '后' | '後' => Some(Token::Mark(Pick::Rear)),
        '进' | '進' => Some(Token::Op(Op::Advance)),
        '退' => Some(Token::Op(Op::Retreat)),
        '平' => Some(Token::Op(Op::Traverse)),
        '=' | '＝' => Some(Token::Equals),
        _ => None,
    }
}

/// Whether `c` is a character only Chinese text would hold.
fn is_chinese(c: char) -> bool {
    !c.is_ascii()
        && (token(c).is_some()
            || ('\u{3400}'..='\u{9fff}').contains(&c)
            || ('\u{ff00}'..='\u{ffef}').contains(&c))
}

const FORM: &str = "write the piece, its file, 进/退/平 and a number, like `炮二平五`, \
                    or name one of two pieces on a file with 前/后, like `前炮进一`";

/// Reads the text of a Chinese move, without a board.
pub(crate) fn syntax(text: &str) -> Syntax<Relative> {
    if !text.chars().any(is_chinese) {
        return Syntax::NotThis;
    }
    let mut tokens = Vec::new();
    for c in text.chars().filter(|c| !c.is_whitespace()) {
        match token(c) {
            Some(token) => tokens.push(token),
            None => return Syntax::Malformed(format!("`{c}` has no meaning in a move; {FORM}")),
        }
    }
    let (body, reveal) = match tokens.as_slice() {
        [body @ .., Token::Equals, Token::Piece(role)] => (body, Some(*role)),
        body => (body, None),
    };
    if body.contains(&Token::Equals) {
        return Syntax::Malformed(
            "`=` may only come last, before the revealed piece, like `车9进1=炮`".to_owned(),
        );
    }
    let Some((head, &[Token::Op(op), Token::Number(arg)])) = body.split_last_chunk::<2>() else {
        return Syntax::Malformed(format!(
            "a move ends with 进, 退 or 平 and a number; {FORM}"
        ));
    };
    let Some((role, place)) = piece_and_place(head) else {
        return Syntax::Malformed(FORM.to_owned());
    };
    let zero_file = matches!(
        place,
        Place::File { number: 0, .. } | Place::Column { file: Some(0), .. }
    );
    if arg == 0
        || zero_file
        || place
            == (Place::Column {
                file: None,
                pick: Pick::Nth(0),
            })
    {
        return Syntax::Malformed("files and counts run from 1 to 9".to_owned());
    }
    Syntax::Read(Relative {
        role,
        place,
        op,
        arg,
        reveal,
    })
}

/// The piece part of a Chinese move: everything before 进/退/平.
fn piece_and_place(head: &[Token]) -> Option<(Role, Place)> {
    let column = |file, pick| Place::Column { file, pick };
    match *head {
        [Token::Piece(role), Token::Number(number)] => Some((
            role,
            Place::File {
                number,
                middle_if_odd: false,
            },
        )),
        [Token::Mark(pick), Token::Piece(role)] | [Token::Piece(role), Token::Mark(pick)] => {
            Some((role, column(None, pick)))
        }
        [Token::Number(nth), Token::Piece(role)] => Some((role, column(None, Pick::Nth(nth)))),
        [Token::Mark(pick), Token::Piece(role), Token::Number(file)] => {
            Some((role, column(Some(file), pick)))
        }
        [Token::Number(nth), Token::Piece(role), Token::Number(file)] => {
            Some((role, column(Some(file), Pick::Nth(nth))))
        }
        // `前三进一`: with soldiers crowded on two files the piece is often left out.
        [Token::Mark(pick), Token::Number(file)] => Some((Role::Soldier, column(Some(file), pick))),
        _ => None,
    }
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
    fn traditional_and_simplified_read_the_same() {
        assert_eq!(read("馬八進七"), read("马八进七"));
        assert_eq!(read("俥一平二"), read("车一平二"));
        assert_eq!(read("後炮退一"), read("后炮退一"));
    }

    #[test]
    fn full_width_ascii_and_chinese_numerals_read_the_same() {
        assert_eq!(read("炮２平５"), read("炮2平5"));
        assert_eq!(read("炮二平五"), read("炮2平5"));
    }

    #[test]
    fn tandem_mark_may_follow_the_piece() {
        assert_eq!(read("炮前平五"), read("前炮平五"));
    }

    #[test]
    fn spaces_inside_are_ignored() {
        assert_eq!(read("炮二 平五"), read("炮二平五"));
    }

    #[test]
    fn chinese_rejects_zero_and_stray_characters() {
        for text in [
            "炮零平五",
            "炮0平5",
            "炮二平0",
            "炮二飞五",
            "炮二平",
            "=炮二平五",
        ] {
            assert!(matches!(syntax(text), Syntax::Malformed(_)), "{text}");
        }
    }

    #[test]
    fn ascii_text_is_not_chinese() {
        assert_eq!(syntax("C2.5"), Syntax::NotThis);
    }
}
