//! Whatever the position, every level returns one of the legal moves it was given.

use crate::common;

use common::{picker, small_budget};
use jieqi_engine::{Engine, EngineError, Level, RandomMover};
use jieqi_rules::{Game, GameDeal, Preset, Rules, Variant, Viewer};
use proptest::prelude::*;

/// Plays `plies` random moves of a seeded game (fewer if it ends), then asks every level.
fn every_level_moves_legally(variant: Variant, seed: u64, plies: usize) {
    let deal = GameDeal::shuffled(variant, &mut picker(seed));
    let mut game = Game::new(Rules::new(variant, Preset::Standard), deal).expect("new game");
    let mut random = RandomMover::new(seed);
    for _ in 0..plies {
        if game.outcome().is_some() {
            break;
        }
        let mv = random
            .choose(&game.legal_moves())
            .expect("moves while not over");
        game.play(mv).expect("a legal move plays");
    }
    let viewer = game.side_to_move().map_or(Viewer::Public, Viewer::Player);
    let view = game.view(viewer);
    let legal = game.legal_moves();
    for level in Level::ALL {
        let mut engine = Engine::with_budget(level, small_budget(level, 300), seed);
        match engine.choose(&view, &legal) {
            Ok(mv) => assert!(
                legal.contains(&mv),
                "{level} chose {mv}, not legal in {}",
                view.fen
            ),
            Err(EngineError::NoLegalMove) => assert!(legal.is_empty()),
            Err(e) => panic!("{level} failed on {}: {e}", view.fen),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    #[test]
    fn jieqi_moves_are_legal(seed in any::<u64>(), plies in 0usize..90) {
        every_level_moves_legally(Variant::Jieqi, seed, plies);
    }

    #[test]
    fn xiangqi_moves_are_legal(seed in any::<u64>(), plies in 0usize..90) {
        every_level_moves_legally(Variant::Xiangqi, seed, plies);
    }

    #[test]
    fn banqi_moves_are_legal(seed in any::<u64>(), plies in 0usize..90) {
        every_level_moves_legally(Variant::Banqi, seed, plies);
    }
}

#[test]
fn a_whole_jieqi_game_between_two_levels_stays_legal() {
    let deal = GameDeal::shuffled(Variant::Jieqi, &mut picker(5));
    let mut game = Game::new(Rules::new(Variant::Jieqi, Preset::Standard), deal).expect("new game");
    let mut red = Engine::with_budget(Level::Casual, small_budget(Level::Casual, 400), 1);
    let mut black = Engine::with_budget(Level::Club, small_budget(Level::Club, 400), 2);
    while game.outcome().is_none() && game.ply() < 160 {
        let side = game
            .side_to_move()
            .expect("jieqi always has a side to move");
        let engine = if side == jieqi_rules::Side::Red {
            &mut red
        } else {
            &mut black
        };
        let legal = game.legal_moves();
        let mv = engine
            .choose(&game.view(Viewer::Player(side)), &legal)
            .expect("a move while the game runs");
        assert!(legal.contains(&mv));
        game.play(mv).expect("the game accepts the engine's move");
    }
}

#[test]
fn the_full_view_and_the_wrong_side_are_refused() {
    let deal = GameDeal::shuffled(Variant::Jieqi, &mut picker(9));
    let game = Game::new(Rules::new(Variant::Jieqi, Preset::Standard), deal).expect("new game");
    let legal = game.legal_moves();
    let mut engine = Engine::new(Level::Novice, 1);
    assert_eq!(
        engine.choose(&game.view(Viewer::Full), &legal),
        Err(EngineError::FullView)
    );
    let black = jieqi_rules::Side::Black;
    assert_eq!(
        engine.choose(&game.view(Viewer::Player(black)), &legal),
        Err(EngineError::NotToMove(black))
    );
    assert_eq!(
        engine.choose(&game.view(Viewer::Player(jieqi_rules::Side::Red)), &[]),
        Err(EngineError::NoLegalMove)
    );
}
