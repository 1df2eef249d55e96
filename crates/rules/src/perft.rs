//! Perft: counting the move tree to a depth, the standard check of a move generator.
//!
//! Counts are compared with published Xiangqi figures in the tests. In Jieqi the tree
//! depends on the deal (a revealed piece moves as its true type afterwards), so a deal is
//! always given; for Xiangqi any deal will do (nothing is covered).

use crate::deal::Deal;
use crate::moves::Move;
use crate::position::{MoveList, Position};

/// The number of move sequences of length `depth` from `pos`, revealing covered pieces from
/// `deal`. The last ply is counted without being played. `pos` is restored before returning.
///
/// ```
/// use jieqi_rules::{deal::Deal, perft::perft, position::Position, Setup};
///
/// let mut pos = Position::xiangqi_start();
/// let deal = Deal::identity(&Setup::xiangqi_start());
/// assert_eq!(perft(&mut pos, &deal, 1), 44);
/// assert_eq!(perft(&mut pos, &deal, 2), 1920);
/// ```
pub fn perft(pos: &mut Position, deal: &Deal, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves(),
        _ => {
            let mut moves = MoveList::new();
            pos.legal_moves(&mut moves);
            let mut nodes = 0;
            for &mv in moves.iter() {
                let undo = pos.play_deal_roles(mv, deal);
                nodes += perft(pos, deal, depth - 1);
                pos.undo(undo);
            }
            nodes
        }
    }
}

/// Perft split by first move: each legal move (sorted) with the count below it (`depth - 1`
/// further plies). Empty for depth 0.
///
/// ```
/// use jieqi_rules::{deal::Deal, perft::divide, position::Position, Setup};
///
/// let mut pos = Position::xiangqi_start();
/// let split = divide(&mut pos, &Deal::identity(&Setup::xiangqi_start()), 2);
/// assert_eq!(split.len(), 44);
/// assert_eq!(split.iter().map(|(_, n)| n).sum::<u64>(), 1920);
/// ```
pub fn divide(pos: &mut Position, deal: &Deal, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_move_vec()
        .into_iter()
        .map(|mv| {
            let undo = pos.play_deal_roles(mv, deal);
            let nodes = perft(pos, deal, depth - 1);
            pos.undo(undo);
            (mv, nodes)
        })
        .collect()
}
