//! Moves of Xiangqi and Jieqi: a from and a to point. What a move revealed is recorded
//! beside it, never inside it, because a player chooses a move without knowing the reveal.

use std::fmt;

use crate::types::{Piece, Role, Square};

/// A move from one point to another (a capture if the target is occupied).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// The point the piece leaves.
    pub from: Square,
    /// The point it goes to.
    pub to: Square,
}

impl Move {
    /// A move from `from` to `to`.
    pub const fn new(from: Square, to: Square) -> Move {
        Move { from, to }
    }
}

impl fmt::Display for Move {
    /// Coordinates without a reveal suffix, e.g. `h2e2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)
    }
}

/// What a played move did: the move, the piece that made it (its true type if it was just
/// revealed), what it revealed and what it captured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MoveRecord {
    /// The move.
    pub mv: Move,
    /// The piece after the move: its true type if the move revealed it.
    pub mover: Piece,
    /// `Some` iff the move turned a covered piece face up: its true type.
    pub reveal: Option<Role>,
    /// The piece taken, if any.
    pub captured: Option<CapturedPiece>,
}

/// A captured piece, by its true type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CapturedPiece {
    /// The piece, by its true type (for a covered piece, what the deal says it was).
    pub piece: Piece,
    /// Whether it was covered when taken (so its type may be secret to some viewers).
    pub was_covered: bool,
    /// Where it was taken.
    pub square: Square,
}
