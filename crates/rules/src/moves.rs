//! Moves of Xiangqi and Jieqi: a from and a to point. What a move revealed is recorded
//! beside it, never inside it, because a player chooses a move without knowing the reveal.

use std::fmt;

use crate::types::Square;

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
