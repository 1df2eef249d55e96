//! Search speed in nodes a second, from a few Jieqi middle games.
//!
//! Each position is reached by letting the novice level play 24 plies of a seeded deal; each
//! benchmark iteration is one search of a fixed node budget with no time limit, so criterion's
//! throughput line reads directly in nodes a second.

use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use jieqi_engine::{Budget, Engine, Level};
use jieqi_rules::{Game, GameDeal, GameMove, Preset, Rules, Variant, View, Viewer};

const NODES: u64 = 100_000;

fn middle_game(seed: u64) -> (View, Vec<GameMove>) {
    let mut state = seed;
    let mut pick = |n: u32| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((state >> 33) % u64::from(n.max(1))) as u32
    };
    let deal = GameDeal::shuffled(Variant::Jieqi, &mut pick);
    let mut game = Game::new(Rules::new(Variant::Jieqi, Preset::Standard), deal).expect("new game");
    let mut engine = Engine::new(Level::Novice, seed);
    while game.ply() < 24 && game.outcome().is_none() {
        let side = game.side_to_move().expect("jieqi has a side to move");
        let mv = engine
            .choose(&game.view(Viewer::Player(side)), &game.legal_moves())
            .expect("a move");
        game.play(mv).expect("legal");
    }
    let side = game.side_to_move().expect("jieqi has a side to move");
    (game.view(Viewer::Player(side)), game.legal_moves())
}

fn search_speed(c: &mut Criterion) {
    let budget = Budget {
        nodes: NODES,
        movetime: Duration::from_secs(600),
        max_depth: 64,
        noise: 0,
        chance_plies: 1,
    };
    let mut group = c.benchmark_group("jieqi_search");
    group.sample_size(10);
    for seed in [1u64, 2, 3] {
        let (view, legal) = middle_game(seed);
        // The node count of one search (the budget, give or take the last node).
        let mut probe = Engine::with_budget(Level::Master, budget, 0);
        probe.choose(&view, &legal).expect("a move");
        let nodes = probe.last_search().map_or(NODES, |i| i.nodes);
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("middle_game_{seed}"), |b| {
            b.iter(|| {
                let mut engine = Engine::with_budget(Level::Master, budget, 0);
                engine.choose(&view, &legal).expect("a move")
            })
        });
    }
    group.finish();
}

criterion_group!(benches, search_speed);
criterion_main!(benches);
