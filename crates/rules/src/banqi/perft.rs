//! Perft for Banqi: the number of action sequences of a given length, a check that move
//! generation and make/unmake agree with other implementations. Flips reveal from a deal, so
//! a count is only comparable between runs that use the same deal.

use super::action::Action;
use super::deal::BanqiDeal;
use super::game::BanqiGame;
use super::position::BanqiPosition;

/// Counts the leaves of the action tree `depth` plies deep from `game`'s position, flips
/// revealing from the game's deal. As usual for perft, draws (repetition, no progress) and
/// results set from outside are ignored; a side with no legal action has no children.
///
/// ```
/// use jieqi_rules::banqi::{perft, BanqiDeal, BanqiGame};
///
/// let game = BanqiGame::new(BanqiDeal::fixed());
/// assert_eq!(perft(&game, 1), 32);
/// assert_eq!(perft(&game, 2), 32 * 31); // the second player can only flip
/// ```
pub fn perft(game: &BanqiGame, depth: u32) -> u64 {
    let mut position = game.position().clone();
    count(&mut position, game.deal(), depth)
}

/// [`perft`] from a bare position, with [`BanqiDeal::fixed_for`] that position as the deal
/// (for a FEN given without a deal; from the start this is [`BanqiDeal::fixed`]).
pub fn perft_position(position: &BanqiPosition, depth: u32) -> u64 {
    let deal = BanqiDeal::fixed_for(position);
    count(&mut position.clone(), &deal, depth)
}

/// The perft count below each legal action of `game`'s position (`depth` counts the action
/// itself), sorted by action: for finding where two implementations part.
pub fn divide(game: &BanqiGame, depth: u32) -> Vec<(Action, u64)> {
    let mut position = game.position().clone();
    position
        .legal_actions()
        .into_iter()
        .map(|action| {
            let (_, undo) = position.play_unchecked(action, game.deal());
            let n = count(&mut position, game.deal(), depth.saturating_sub(1));
            position.undo(undo);
            (action, n)
        })
        .collect()
}

fn count(position: &mut BanqiPosition, deal: &BanqiDeal, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return position.count_legal_actions() as u64;
    }
    let mut actions = Vec::with_capacity(64);
    position.legal_actions_into(&mut actions);
    let mut total = 0;
    for action in actions {
        let (_, undo) = position.play_unchecked(action, deal);
        total += count(position, deal, depth - 1);
        position.undo(undo);
    }
    total
}
