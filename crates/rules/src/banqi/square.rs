//! The 32 squares of the Banqi board: 8 files `a`–`h` along the long side, 4 ranks `1`–`4`.
//!
//! Banqi pieces stand inside squares, not on the intersections of a Xiangqi board, so the
//! board has its own square type rather than a corner of [`crate::Square`].

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::view::Point;

/// A square of the Banqi board, `a1` to `h4`. Its index is `rank * 8 + file` (0-based), so
/// `a1` is 0, `h1` is 7 and `h4` is 31: the same order as [`crate::View::cells`].
///
/// ```
/// use jieqi_rules::banqi::BanqiSquare;
///
/// let c3: BanqiSquare = "c3".parse()?;
/// assert_eq!((c3.file(), c3.rank()), (2, 2));
/// assert_eq!(c3.to_string(), "c3");
/// assert!("i1".parse::<BanqiSquare>().is_err());
/// # Ok::<(), jieqi_rules::banqi::ParseBanqiSquareError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BanqiSquare(u8);

/// The four orthogonal steps `(file, rank)`: every Banqi piece moves along these.
pub(crate) const DIRECTIONS: [(i8, i8); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];

impl BanqiSquare {
    /// Number of squares.
    pub const COUNT: usize = 32;
    /// Number of files (`a`–`h`).
    pub const FILES: u8 = 8;
    /// Number of ranks (`1`–`4`).
    pub const RANKS: u8 = 4;

    /// The square at 0-based `file` (0..8) and `rank` (0..4), if on the board.
    pub const fn new(file: u8, rank: u8) -> Option<BanqiSquare> {
        if file < Self::FILES && rank < Self::RANKS {
            Some(BanqiSquare(rank * Self::FILES + file))
        } else {
            None
        }
    }

    /// The square of index `0..32`, if in range.
    pub const fn from_index(index: usize) -> Option<BanqiSquare> {
        if index < Self::COUNT {
            Some(BanqiSquare(index as u8))
        } else {
            None
        }
    }

    /// `0..32`: `rank * 8 + file`.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// 0-based file: `a` is 0, `h` is 7.
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % Self::FILES
    }

    /// 0-based rank: rank `1` is 0, rank `4` is 3.
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / Self::FILES
    }

    /// Every square in index order: `a1`, `b1`, ... `h1`, `a2`, ... `h4`.
    pub fn all() -> impl DoubleEndedIterator<Item = BanqiSquare> + Clone {
        (0..Self::COUNT as u8).map(BanqiSquare)
    }

    /// Every square in FEN reading order: rank 4 down to rank 1, file `a` to `h` in each.
    pub fn reading_order() -> impl Iterator<Item = BanqiSquare> + Clone {
        (0..Self::RANKS).rev().flat_map(|rank| {
            (0..Self::FILES).map(move |file| BanqiSquare(rank * Self::FILES + file))
        })
    }

    /// The square `file_step` files and `rank_step` ranks away, if still on the board.
    #[inline]
    pub const fn offset(self, file_step: i8, rank_step: i8) -> Option<BanqiSquare> {
        let file = self.file() as i8 + file_step;
        let rank = self.rank() as i8 + rank_step;
        if file >= 0 && file < Self::FILES as i8 && rank >= 0 && rank < Self::RANKS as i8 {
            Some(BanqiSquare((rank * Self::FILES as i8 + file) as u8))
        } else {
            None
        }
    }

    /// Whether `other` is one square up, down, left or right of this one.
    pub const fn is_next_to(self, other: BanqiSquare) -> bool {
        let df = self.file().abs_diff(other.file());
        let dr = self.rank().abs_diff(other.rank());
        df + dr == 1
    }

    /// The squares strictly between this one and `other` when both are on one file or one
    /// rank (empty for neighbours), or `None` when they are not in line or are the same.
    pub fn between(self, other: BanqiSquare) -> Option<impl Iterator<Item = BanqiSquare>> {
        let (df, dr) = (
            other.file() as i8 - self.file() as i8,
            other.rank() as i8 - self.rank() as i8,
        );
        if (df == 0) == (dr == 0) {
            return None;
        }
        let (step_f, step_r) = (df.signum(), dr.signum());
        let distance = df.abs().max(dr.abs());
        Some((1..distance).filter_map(move |k| self.offset(step_f * k, step_r * k)))
    }

    /// The point of a [`crate::View`] for this square.
    pub const fn point(self) -> Point {
        Point {
            file: self.file(),
            rank: self.rank(),
        }
    }

    /// The square of a view's point, if on the Banqi board.
    pub const fn from_point(point: Point) -> Option<BanqiSquare> {
        BanqiSquare::new(point.file, point.rank)
    }
}

impl fmt::Display for BanqiSquare {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'a' + self.file()) as char,
            (b'1' + self.rank()) as char
        )
    }
}

/// A Banqi square that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("`{0}` is not a square of the Banqi board: write a file a–h then a rank 1–4, like `c3`")]
pub struct ParseBanqiSquareError(pub String);

impl FromStr for BanqiSquare {
    type Err = ParseBanqiSquareError;

    /// Reads `a1`..`h4`; the file letter may be upper case.
    fn from_str(s: &str) -> Result<BanqiSquare, ParseBanqiSquareError> {
        let bad = || ParseBanqiSquareError(s.to_owned());
        let mut chars = s.chars();
        let (Some(file), Some(rank), None) = (chars.next(), chars.next(), chars.next()) else {
            return Err(bad());
        };
        let file = file.to_ascii_lowercase();
        if !('a'..='h').contains(&file) || !('1'..='4').contains(&rank) {
            return Err(bad());
        }
        BanqiSquare::new(file as u8 - b'a', rank as u8 - b'1').ok_or_else(bad)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_square_prints_and_parses_back() {
        for sq in BanqiSquare::all() {
            assert_eq!(sq.to_string().parse::<BanqiSquare>(), Ok(sq));
            assert_eq!(BanqiSquare::from_point(sq.point()), Some(sq));
        }
    }

    #[test]
    fn squares_off_the_half_board_are_rejected() {
        for bad in ["", "a0", "a5", "i1", "c", "c33", "3c", "é1", "a１"] {
            assert!(bad.parse::<BanqiSquare>().is_err(), "{bad}");
        }
    }

    #[test]
    fn reading_order_starts_at_a4_and_ends_at_h1() {
        let order: Vec<String> = BanqiSquare::reading_order()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(order.len(), 32);
        assert_eq!(order[0], "a4");
        assert_eq!(order[8], "a3");
        assert_eq!(order[31], "h1");
    }

    #[test]
    fn between_lists_the_squares_on_a_line_only() {
        let between = |a: &str, b: &str| -> Option<Vec<String>> {
            let a: BanqiSquare = a.parse().ok()?;
            let b: BanqiSquare = b.parse().ok()?;
            Some(a.between(b)?.map(|s| s.to_string()).collect())
        };
        assert_eq!(between("a1", "a4"), Some(vec!["a2".into(), "a3".into()]));
        assert_eq!(
            between("e1", "a1"),
            Some(vec!["d1".into(), "c1".into(), "b1".into()])
        );
        assert_eq!(between("a1", "a2"), Some(vec![]));
        assert_eq!(between("a1", "b2"), None);
        assert_eq!(between("a1", "a1"), None);
    }
}
