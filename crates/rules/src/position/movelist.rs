//! A fixed-capacity list of moves, so that generating moves never allocates.

use std::fmt;
use std::ops::Deref;

use crate::moves::Move;
use crate::types::Square;

/// The most pseudo-legal moves a valid position can have: at most 15 pieces besides the
/// general, each with at most 17 moves (a chariot or cannon on an open board), plus the
/// general's 4 steps. Material sanity (see [`super::Position::from_setup`]) guarantees at
/// most 16 pieces a side.
pub const MAX_MOVES: usize = 15 * 17 + 4;

const A0: Square = match Square::from_index(0) {
    Some(sq) => sq,
    None => panic!("a0 is a point of the board"),
};

/// The 90 points by index, so a table entry becomes a [`Square`] without a fallible
/// conversion in the hot loops.
pub(crate) static SQUARES: [Square; Square::COUNT] = {
    let mut table = [A0; Square::COUNT];
    let mut i = 0;
    while i < Square::COUNT {
        table[i] = match Square::from_index(i) {
            Some(sq) => sq,
            None => A0,
        };
        i += 1;
    }
    table
};

/// A list of moves with fixed capacity ([`MAX_MOVES`]), filled by
/// [`Position::legal_moves`](super::Position::legal_moves) without allocating.
///
/// It dereferences to a slice, so it has `len`, `iter`, indexing and `contains`:
///
/// ```
/// use jieqi_rules::position::{MoveList, Position};
///
/// let mut moves = MoveList::new();
/// Position::xiangqi_start().legal_moves(&mut moves);
/// assert_eq!(moves.len(), 44);
/// assert!(moves.iter().any(|mv| mv.to_string() == "h2e2"));
/// ```
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl MoveList {
    /// An empty list.
    pub const fn new() -> MoveList {
        MoveList {
            moves: [Move::new(A0, A0); MAX_MOVES],
            len: 0,
        }
    }

    /// Empties the list.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Appends a move. Never fails for moves of a valid position (see [`MAX_MOVES`]); a move
    /// beyond the capacity is dropped rather than panicking.
    #[inline]
    pub fn push(&mut self, mv: Move) {
        if let Some(slot) = self.moves.get_mut(self.len) {
            *slot = mv;
            self.len += 1;
        }
    }

    /// Appends the move between two square indexes taken from the move tables.
    #[inline]
    pub(crate) fn push_indexes(&mut self, from: usize, to: usize) {
        self.push(Move::new(SQUARES[from], SQUARES[to]));
    }

    /// Keeps only the moves for which `keep` returns true, in order.
    #[inline]
    pub(crate) fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut kept = 0;
        for i in 0..self.len {
            let mv = self.moves[i];
            if keep(mv) {
                self.moves[kept] = mv;
                kept += 1;
            }
        }
        self.len = kept;
    }
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl Deref for MoveList {
    type Target = [Move];

    #[inline]
    fn deref(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl PartialEq for MoveList {
    fn eq(&self, other: &MoveList) -> bool {
        **self == **other
    }
}

impl Eq for MoveList {}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}
