//! Unit tests of positions: movement rules and options, reveals and captures, material
//! sanity. One behaviour per test; positions are written as FEN.

mod chase;
mod movement;
mod reveal;
mod sanity;

use crate::deal::Deal;
use crate::moves::Move;
use crate::notation::fen::read_setup;
use crate::setup::Setup;
use crate::types::{Cell, Piece, Role, Side, Square, Variant};

use super::{IllegalMove, MoveOptions, Position, PositionError};

pub(super) fn sq(s: &str) -> Square {
    s.parse().expect("test square")
}

pub(super) fn mv(s: &str) -> Move {
    Move::new(sq(&s[..2]), sq(&s[2..]))
}

pub(super) fn setup(fen: &str) -> Setup {
    read_setup(fen).expect("test FEN")
}

pub(super) fn position(fen: &str, variant: Variant) -> Position {
    Position::from_setup(setup(fen), variant, MoveOptions::default()).expect("valid test position")
}

pub(super) fn error(fen: &str, variant: Variant) -> PositionError {
    Position::from_setup(setup(fen), variant, MoveOptions::default())
        .expect_err("invalid test position")
}

/// The legal targets of the piece on `from`, sorted.
pub(super) fn targets(pos: &Position, from: &str) -> Vec<String> {
    let from = sq(from);
    pos.legal_move_vec()
        .into_iter()
        .filter(|m| m.from == from)
        .map(|m| m.to.to_string())
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect()
}

pub(super) const LEAVE_PALACE: MoveOptions = MoveOptions {
    covered_advisor_may_leave_palace: true,
};
