//! Small `Copy` values of the domain shared by all three games: sides, roles, pieces, and the
//! squares of the 9x10 Xiangqi board. Banqi has its own 8x4 squares in [`crate::banqi`].

use std::fmt;
use std::ops::{Index, IndexMut, Not};
use std::str::FromStr;

use thiserror::Error;

/// One of the two armies. Red is White in FEN (`w`, uppercase letters) and moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// Red (White in FEN): uppercase letters, moves first.
    Red,
    /// Black: lowercase letters.
    Black,
}

impl Side {
    /// Both sides, Red first.
    pub const ALL: [Side; 2] = [Side::Red, Side::Black];

    /// `0` for Red, `1` for Black: an index into [`BySide`].
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The FEN letter of the side to move: `w` for Red, `b` for Black.
    pub const fn fen_char(self) -> char {
        match self {
            Side::Red => 'w',
            Side::Black => 'b',
        }
    }

    /// The side of a FEN active-colour letter (`w`/`r` Red, `b` Black).
    pub const fn from_fen_char(c: char) -> Option<Side> {
        match c {
            'w' | 'r' => Some(Side::Red),
            'b' => Some(Side::Black),
            _ => None,
        }
    }

    /// The English name, for messages and errors.
    pub const fn name(self) -> &'static str {
        match self {
            Side::Red => "Red",
            Side::Black => "Black",
        }
    }
}

impl Not for Side {
    type Output = Side;
    #[inline]
    fn not(self) -> Side {
        match self {
            Side::Red => Side::Black,
            Side::Black => Side::Red,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A value for each side, indexed by [`Side`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct BySide<T> {
    /// Red's value.
    pub red: T,
    /// Black's value.
    pub black: T,
}

impl<T> BySide<T> {
    /// Builds a pair by calling `f` for Red, then Black.
    pub fn new_with(mut f: impl FnMut(Side) -> T) -> BySide<T> {
        BySide {
            red: f(Side::Red),
            black: f(Side::Black),
        }
    }

    /// The value of `side`.
    #[inline]
    pub fn get(&self, side: Side) -> &T {
        match side {
            Side::Red => &self.red,
            Side::Black => &self.black,
        }
    }

    /// The value of `side`, mutably.
    #[inline]
    pub fn get_mut(&mut self, side: Side) -> &mut T {
        match side {
            Side::Red => &mut self.red,
            Side::Black => &mut self.black,
        }
    }
}

impl<T> Index<Side> for BySide<T> {
    type Output = T;
    #[inline]
    fn index(&self, side: Side) -> &T {
        self.get(side)
    }
}

impl<T> IndexMut<Side> for BySide<T> {
    #[inline]
    fn index_mut(&mut self, side: Side) -> &mut T {
        self.get_mut(side)
    }
}

/// The type of a piece. Letters are WXF's: K A E R C H P.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// 帥/將, `K`.
    General,
    /// 仕/士, `A`.
    Advisor,
    /// 相/象, `E` (readers also take `B`).
    Elephant,
    /// 俥/車, `R`.
    Chariot,
    /// 炮/砲, `C`.
    Cannon,
    /// 傌/馬, `H` (readers also take `N`).
    Horse,
    /// 兵/卒, `P`.
    Soldier,
}

impl Role {
    /// Every role, in WXF order (K A E R C H P), the canonical order of captured groups.
    pub const ALL: [Role; 7] = [
        Role::General,
        Role::Advisor,
        Role::Elephant,
        Role::Chariot,
        Role::Cannon,
        Role::Horse,
        Role::Soldier,
    ];

    /// `0..7` in [`Role::ALL`] order.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The uppercase WXF letter.
    pub const fn upper_char(self) -> char {
        match self {
            Role::General => 'K',
            Role::Advisor => 'A',
            Role::Elephant => 'E',
            Role::Chariot => 'R',
            Role::Cannon => 'C',
            Role::Horse => 'H',
            Role::Soldier => 'P',
        }
    }

    /// The lowercase WXF letter (as used in move suffixes such as `h2h7r`).
    pub const fn lower_char(self) -> char {
        self.upper_char().to_ascii_lowercase()
    }

    /// The role of a letter of either case; `N` (horse) and `B` (elephant) are accepted as
    /// other engines write them.
    pub const fn from_char(c: char) -> Option<Role> {
        match c.to_ascii_uppercase() {
            'K' => Some(Role::General),
            'A' => Some(Role::Advisor),
            'E' | 'B' => Some(Role::Elephant),
            'R' => Some(Role::Chariot),
            'C' => Some(Role::Cannon),
            'H' | 'N' => Some(Role::Horse),
            'P' => Some(Role::Soldier),
            _ => None,
        }
    }

    /// How many pieces of this role each side starts with.
    pub const fn start_count(self) -> u8 {
        match self {
            Role::General => 1,
            Role::Soldier => 5,
            _ => 2,
        }
    }

    /// The English name, for messages and errors.
    pub const fn name(self) -> &'static str {
        match self {
            Role::General => "general",
            Role::Advisor => "advisor",
            Role::Elephant => "elephant",
            Role::Chariot => "chariot",
            Role::Cannon => "cannon",
            Role::Horse => "horse",
            Role::Soldier => "soldier",
        }
    }
}

impl Role {
    /// "a" or "an", as English puts it before this role's name ("an advisor", "a horse").
    pub fn article(self) -> &'static str {
        match self.name().as_bytes().first() {
            Some(b'a' | b'e' | b'i' | b'o' | b'u') => "an",
            _ => "a",
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A piece whose type is known: a side and a role.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Piece {
    /// Whose piece it is.
    pub side: Side,
    /// What it is.
    pub role: Role,
}

impl Piece {
    /// A piece of `side` and `role`.
    pub const fn new(side: Side, role: Role) -> Piece {
        Piece { side, role }
    }

    /// The FEN letter: uppercase for Red, lowercase for Black.
    pub const fn char(self) -> char {
        match self.side {
            Side::Red => self.role.upper_char(),
            Side::Black => self.role.lower_char(),
        }
    }

    /// The piece of a FEN letter (case gives the side). `X`/`x` is not a piece: see
    /// [`Cell::from_char`].
    pub const fn from_char(c: char) -> Option<Piece> {
        let side = if c.is_ascii_uppercase() {
            Side::Red
        } else {
            Side::Black
        };
        match Role::from_char(c) {
            Some(role) => Some(Piece { side, role }),
            None => None,
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

/// What stands on a point of a board, as far as the board itself shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Cell {
    /// Nothing.
    #[default]
    Empty,
    /// A face-up piece.
    Piece(Piece),
    /// A face-down (covered) piece. Jieqi covered pieces always have a known side; Banqi
    /// face-down pieces are colourless to everyone who has not seen the deal (`None`).
    Covered(Option<Side>),
}

impl Cell {
    /// The FEN letter of a non-empty cell (`X`/`x` covered, `?` colourless face-down).
    pub const fn char(self) -> Option<char> {
        match self {
            Cell::Empty => None,
            Cell::Piece(p) => Some(p.char()),
            Cell::Covered(Some(Side::Red)) => Some('X'),
            Cell::Covered(Some(Side::Black)) => Some('x'),
            Cell::Covered(None) => Some('?'),
        }
    }

    /// The cell of a FEN letter: a piece letter, `X`/`x`, or `?`.
    pub const fn from_char(c: char) -> Option<Cell> {
        match c {
            'X' => Some(Cell::Covered(Some(Side::Red))),
            'x' => Some(Cell::Covered(Some(Side::Black))),
            '?' => Some(Cell::Covered(None)),
            _ => match Piece::from_char(c) {
                Some(p) => Some(Cell::Piece(p)),
                None => None,
            },
        }
    }
}

/// A file of the 9x10 board, `a` (0) to `i` (8), left to right from Red's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct File(u8);

/// A rank of the 9x10 board, `0` (Red's back rank) to `9` (Black's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rank(u8);

impl File {
    /// Number of files.
    pub const COUNT: u8 = 9;

    /// The file of index `0..9`, if in range.
    pub const fn new(index: u8) -> Option<File> {
        if index < Self::COUNT {
            Some(File(index))
        } else {
            None
        }
    }

    /// `0..9`.
    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// `a`..`i`.
    pub const fn char(self) -> char {
        (b'a' + self.0) as char
    }

    /// The file of a letter `a`..`i`.
    pub const fn from_char(c: char) -> Option<File> {
        if c >= 'a' && c <= 'i' {
            Some(File(c as u8 - b'a'))
        } else {
            None
        }
    }
}

impl Rank {
    /// Number of ranks.
    pub const COUNT: u8 = 10;

    /// The rank of index `0..10`, if in range.
    pub const fn new(index: u8) -> Option<Rank> {
        if index < Self::COUNT {
            Some(Rank(index))
        } else {
            None
        }
    }

    /// `0..10`.
    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// `0`..`9`.
    pub const fn char(self) -> char {
        (b'0' + self.0) as char
    }

    /// The rank of a digit `0`..`9`.
    pub const fn from_char(c: char) -> Option<Rank> {
        if c.is_ascii_digit() {
            Some(Rank(c as u8 - b'0'))
        } else {
            None
        }
    }
}

/// A point of the 9x10 Xiangqi board, `a0` to `i9`. Its index is `rank * 9 + file`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// Number of points on the board.
    pub const COUNT: usize = 90;

    /// The point at `file`, `rank`.
    #[inline]
    pub const fn new(file: File, rank: Rank) -> Square {
        Square(rank.0 * 9 + file.0)
    }

    /// The point of index `0..90`, if in range.
    #[inline]
    pub const fn from_index(index: usize) -> Option<Square> {
        if index < Self::COUNT {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// The point at file index `file` (0..9) and rank index `rank` (0..10), if on the board.
    #[inline]
    pub const fn from_coords(file: i32, rank: i32) -> Option<Square> {
        if file >= 0 && file < 9 && rank >= 0 && rank < 10 {
            Some(Square((rank * 9 + file) as u8))
        } else {
            None
        }
    }

    /// `0..90`.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file.
    #[inline]
    pub const fn file(self) -> File {
        File(self.0 % 9)
    }

    /// The rank.
    #[inline]
    pub const fn rank(self) -> Rank {
        Rank(self.0 / 9)
    }

    /// Every point, `a0`, `b0`, ... `i9`.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..Self::COUNT as u8).map(Square)
    }

    /// The same point seen from the other side (rotated 180 degrees).
    pub const fn flip(self) -> Square {
        Square(89 - self.0)
    }

    /// Whether this point is on `side`'s half of the river (ranks 0–4 for Red, 5–9 for Black).
    #[inline]
    pub const fn on_home_half(self, side: Side) -> bool {
        match side {
            Side::Red => self.0 / 9 <= 4,
            Side::Black => self.0 / 9 >= 5,
        }
    }

    /// Whether this point is inside `side`'s palace (files d–f, ranks 0–2 or 7–9).
    #[inline]
    pub const fn in_palace(self, side: Side) -> bool {
        let file = self.0 % 9;
        let rank = self.0 / 9;
        file >= 3
            && file <= 5
            && match side {
                Side::Red => rank <= 2,
                Side::Black => rank >= 7,
            }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().char(), self.rank().char())
    }
}

/// A square that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("`{0}` is not a point of the board: write a file a–i then a rank 0–9, like `e0` or `h2`")]
pub struct ParseSquareError(pub String);

impl FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let mut chars = s.chars();
        let file = chars
            .next()
            .and_then(|c| File::from_char(c.to_ascii_lowercase()));
        let rank = chars.next().and_then(Rank::from_char);
        match (file, rank, chars.next()) {
            (Some(file), Some(rank), None) => Ok(Square::new(file, rank)),
            _ => Err(ParseSquareError(s.to_owned())),
        }
    }
}

/// Which game is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Variant {
    /// Plain Xiangqi.
    Xiangqi,
    /// Jieqi: Xiangqi with covered, shuffled pieces.
    Jieqi,
    /// Banqi: the half-board flip game.
    Banqi,
}

impl Variant {
    /// Every variant.
    pub const ALL: [Variant; 3] = [Variant::Xiangqi, Variant::Jieqi, Variant::Banqi];

    /// The lowercase name used in commands: `xiangqi`, `jieqi`, `banqi`.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Xiangqi => "xiangqi",
            Variant::Jieqi => "jieqi",
            Variant::Banqi => "banqi",
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A variant name that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("`{0}` is not a game we play: choose xiangqi, jieqi or banqi")]
pub struct ParseVariantError(pub String);

impl FromStr for Variant {
    type Err = ParseVariantError;

    fn from_str(s: &str) -> Result<Variant, ParseVariantError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "xiangqi" | "xq" => Ok(Variant::Xiangqi),
            "jieqi" | "jq" => Ok(Variant::Jieqi),
            "banqi" | "bq" => Ok(Variant::Banqi),
            _ => Err(ParseVariantError(s.to_owned())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_parses_and_prints_round_trip() {
        for sq in Square::all() {
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
        }
    }

    #[test]
    fn square_rejects_points_off_the_board() {
        for bad in ["", "j0", "a", "a10", "e", "00", "é0"] {
            assert!(bad.parse::<Square>().is_err(), "{bad}");
        }
    }

    #[test]
    fn palaces_are_three_by_three() {
        assert_eq!(Square::all().filter(|s| s.in_palace(Side::Red)).count(), 9);
        assert_eq!(
            Square::all().filter(|s| s.in_palace(Side::Black)).count(),
            9
        );
        assert!("e1".parse::<Square>().is_ok_and(|s| s.in_palace(Side::Red)));
        assert!(
            "e8".parse::<Square>()
                .is_ok_and(|s| s.in_palace(Side::Black))
        );
    }

    #[test]
    fn horse_and_elephant_accept_other_engines_letters() {
        assert_eq!(Role::from_char('N'), Some(Role::Horse));
        assert_eq!(Role::from_char('b'), Some(Role::Elephant));
        assert_eq!(Piece::from_char('x'), None);
        assert_eq!(Cell::from_char('x'), Some(Cell::Covered(Some(Side::Black))));
    }
}
