//! Review time of a 60-ply game at the review's engine budget, for each variant.
//!
//! `cargo run --release -p jieqi-review --example review_time [PLIES]`
//!
//! Plays a game of casual engine moves (each side from its own view, seeded deals), then
//! times `Reviewer::new().review` on it and prints the figures.

use std::time::Instant;

use jieqi_engine::{Engine, Level};
use jieqi_review::{Colour, Reviewer};
use jieqi_rules::{Game, GameDeal, Preset, Rules, Variant, Viewer};

fn main() {
    let plies: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(60);
    for variant in [Variant::Jieqi, Variant::Xiangqi, Variant::Banqi] {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut pick = |n: u32| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % u64::from(n)) as u32
        };
        let rules = Rules::new(variant, Preset::Standard);
        let deal = GameDeal::shuffled(variant, &mut pick);
        let mut game = Game::new(rules.clone(), deal.clone()).expect("a new game");
        let mut engines = [Engine::new(Level::Casual, 1), Engine::new(Level::Casual, 2)];
        while game.ply() < plies && game.outcome().is_none() {
            let viewer = game.side_to_move().map_or(Viewer::Public, Viewer::Player);
            let engine = &mut engines[game.ply() % 2];
            let mv = engine
                .choose(&game.view(viewer), &game.legal_moves())
                .expect("a move");
            game.play(mv).expect("a legal move");
        }
        let moves = game.move_record_texts();
        let started = Instant::now();
        let review = Reviewer::new()
            .review(rules, deal, &moves)
            .expect("a review");
        let took = started.elapsed();
        println!(
            "{variant}: {} plies reviewed in {:.2} s ({:.0} ms a ply, {} nodes a search); accuracy red {:.1}, black {:.1}",
            moves.len(),
            took.as_secs_f64(),
            took.as_secs_f64() * 1000.0 / moves.len().max(1) as f64,
            review.nodes_per_search,
            review.accuracy(Colour::Red).unwrap_or(f64::NAN),
            review.accuracy(Colour::Black).unwrap_or(f64::NAN),
        );
    }
}
