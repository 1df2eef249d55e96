//! Static evaluation of Xiangqi and Jieqi positions: material plus piece-square tables, with
//! every covered piece valued at the average of its side's unseen pool.
//!
//! Valuing covered pieces at the pool's average makes a reveal worth nothing in expectation,
//! as it should be: turning a piece up does not change what it is, only what is known. The
//! search adds `corrections` for reveals it did not expand (see `search`'s module doc): such
//! a piece moves as a stand-in type but keeps the pool's value.

pub(crate) mod tables;

use jieqi_rules::position::Position;
use jieqi_rules::{Cell, Side, Square};

use crate::pool::Pool;
pub(crate) use tables::{VALUES, piece_value};

/// A small bonus for having the move.
const TEMPO: i32 = 10;

/// What a covered piece of each side is worth: the average value of its unseen pool.
#[inline]
pub(crate) fn covered_values(pool: &Pool) -> [i32; 2] {
    [
        pool.expected_value(Side::Red, &VALUES),
        pool.expected_value(Side::Black, &VALUES),
    ]
}

/// The evaluation of `pos` for the side to move. `corrections[sq]` is added to the value of
/// the face-up piece on `sq` (zero except for stand-ins of unexpanded reveals).
pub(crate) fn evaluate(pos: &Position, pool: &Pool, corrections: &[i32; Square::COUNT]) -> i32 {
    let covered = covered_values(pool);
    let mut score = [0i32; 2];
    for sq in Square::all() {
        match pos.cell(sq) {
            Cell::Empty => {}
            Cell::Piece(piece) => {
                score[piece.side.index()] += piece_value(piece, sq) + corrections[sq.index()];
            }
            Cell::Covered(Some(side)) => score[side.index()] += covered[side.index()],
            Cell::Covered(None) => {}
        }
    }
    let us = pos.side_to_move().index();
    score[us] - score[1 - us] + TEMPO
}

#[cfg(test)]
mod tests {
    use super::*;
    use jieqi_rules::Move;

    fn mv(text: &str) -> Move {
        let from = text[..2].parse().expect("from square");
        let to = text[2..].parse().expect("to square");
        Move::new(from, to)
    }

    #[test]
    fn start_positions_are_balanced() {
        let none = [0; Square::COUNT];
        let xq = Position::xiangqi_start();
        assert_eq!(evaluate(&xq, &Pool::default(), &none), TEMPO);
        let jq = Position::jieqi_start();
        let pool = Pool::jieqi_start();
        assert_eq!(evaluate(&jq, &pool, &none), TEMPO);
    }

    #[test]
    fn winning_a_horse_shows_in_the_score() {
        let none = [0; Square::COUNT];
        let mut pos = Position::xiangqi_start();
        // Red's cannon takes Black's horse over the cannon on b7.
        let before = evaluate(&pos, &Pool::default(), &none);
        let undo = pos.play_unchecked(mv("b2b9"), None, None);
        let after = -evaluate(&pos, &Pool::default(), &none);
        pos.undo(undo);
        assert!(after > before + 300, "{before} -> {after}");
    }
}
