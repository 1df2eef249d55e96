//! The engine sees only its view: two deals that agree on everything the engine's player has
//! seen give the same choice, move for move.

use crate::common;

use common::{is_covered, picker, small_budget};
use jieqi_engine::{Engine, Level, RandomMover};
use jieqi_rules::{
    Cell, Deal, Game, GameDeal, GameMove, Piece, Preset, Rules, Setup, Side, Square, Variant,
    Viewer,
};

/// Plays `plies` random moves from `deal`; returns the moves and, for each start point, who
/// learned its piece: `Some(None)` everyone (it was revealed), `Some(Some(side))` only that
/// capturer, `None` nobody yet.
fn play_random(deal: &Deal, seed: u64, plies: usize) -> (Vec<GameMove>, Vec<Option<Option<Side>>>) {
    let rules = Rules::new(Variant::Jieqi, Preset::Standard);
    let mut game = Game::new(rules, GameDeal::Jieqi(deal.clone())).expect("new game");
    let mut random = RandomMover::new(seed);
    let mut learned = vec![None; Square::COUNT];
    let mut moves = Vec::new();
    for _ in 0..plies {
        if game.outcome().is_some() {
            break;
        }
        let mv = random.choose(&game.legal_moves()).expect("moves");
        let GameMove::Board(board_move) = mv else {
            panic!("jieqi moves are board moves");
        };
        let view = game.view(Viewer::Public);
        let mover = game.side_to_move();
        if is_covered(view.cells.get(board_move.from.index())) {
            learned[board_move.from.index()] = Some(None);
        }
        if is_covered(view.cells.get(board_move.to.index())) {
            learned[board_move.to.index()] = Some(mover);
        }
        game.play(mv).expect("legal");
        moves.push(mv);
    }
    (moves, learned)
}

/// A deal that agrees with `deal` wherever `player` has seen the piece, and shuffles the
/// rest within each side (rotating by `shift`).
fn consistent_deal(
    deal: &Deal,
    learned: &[Option<Option<Side>>],
    player: Side,
    shift: usize,
) -> Deal {
    let start = Setup::jieqi_start();
    let mut pieces: Vec<(Square, Piece)> = deal.pieces();
    for side in Side::ALL {
        let free: Vec<usize> = pieces
            .iter()
            .enumerate()
            .filter(|(_, (sq, piece))| {
                piece.side == side
                    && match learned[sq.index()] {
                        None => true,
                        Some(None) => false,
                        Some(Some(capturer)) => capturer != player,
                    }
            })
            .map(|(i, _)| i)
            .collect();
        let roles: Vec<Piece> = free.iter().map(|&i| pieces[i].1).collect();
        for (k, &i) in free.iter().enumerate() {
            pieces[i].1 = roles[(k + shift) % roles.len()];
        }
    }
    let letters: Vec<Piece> = pieces.iter().map(|(_, p)| *p).collect();
    Deal::from_pieces(&start, &letters).expect("a rearranged deal keeps the material")
}

fn replay(deal: &Deal, moves: &[GameMove]) -> Game {
    let rules = Rules::new(Variant::Jieqi, Preset::Standard);
    let mut game = Game::new(rules, GameDeal::Jieqi(deal.clone())).expect("new game");
    for &mv in moves {
        game.play(mv).expect("legality does not depend on the deal");
    }
    game
}

#[test]
fn choice_depends_on_the_view_not_the_deal() {
    let mut compared = 0;
    for seed in 0..8u64 {
        let deal = Deal::shuffled(&Setup::jieqi_start(), &mut picker(seed));
        let (moves, learned) = play_random(&deal, seed, 8 + (seed as usize * 5) % 30);
        let game = replay(&deal, &moves);
        let Some(player) = game.side_to_move().filter(|_| game.outcome().is_none()) else {
            continue;
        };
        let view = game.view(Viewer::Player(player));
        let other = (1..15)
            .map(|shift| consistent_deal(&deal, &learned, player, shift))
            .find(|d| *d != deal)
            .expect("some covered piece is still unknown to the player");
        let other_game = replay(&other, &moves);
        assert_eq!(
            other_game.view(Viewer::Player(player)),
            view,
            "the views must agree"
        );
        assert_ne!(other_game.view(Viewer::Full), game.view(Viewer::Full));
        for level in Level::ALL {
            let budget = small_budget(level, 2_000);
            let a = Engine::with_budget(level, budget, seed).choose(&view, &game.legal_moves());
            let b = Engine::with_budget(level, budget, seed).choose(
                &other_game.view(Viewer::Player(player)),
                &other_game.legal_moves(),
            );
            assert_eq!(a, b, "{level} at {}", view.fen);
        }
        compared += 1;
    }
    assert!(compared >= 6, "only {compared} positions compared");
}

#[test]
fn a_covered_cell_of_the_view_hides_its_piece() {
    let deal = Deal::shuffled(&Setup::jieqi_start(), &mut picker(3));
    let game = replay(&deal, &[]);
    let view = game.view(Viewer::Player(Side::Red));
    assert!(view.deal.is_none());
    assert_eq!(
        view.cells
            .iter()
            .filter(|c| matches!(c, Cell::Covered(_)))
            .count(),
        30
    );
}
