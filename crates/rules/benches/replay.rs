//! Replaying stored games with the repetition judge on: what the service pays each time it
//! rebuilds a game from its record with [`Game::replay`].
//!
//! The games are 200 plies of seeded pseudo-random legal moves (Xiangqi, and Jieqi with a
//! shuffled deal), chosen so that no move ends the game early. Under the standard preset the
//! judge looks for chases only when a position occurs for the third time; under Tencent's
//! limit it looks at every ply, so that preset is measured too. Run with
//! `cargo bench -p jieqi-rules --bench replay`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use jieqi_rules::{Game, GameDeal, Preset, Rules, Variant};

/// A fixed pseudo-random `pick` (SplitMix64), so every run replays the same games.
fn seeded_pick(seed: u64) -> impl FnMut(u32) -> u32 {
    let mut state = seed;
    move |n: u32| {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z % u64::from(n.max(1))) as u32
    }
}

/// A game of `plies` pseudo-random moves that does not end before its last ply, with the
/// rules and deal to replay it.
fn random_game(variant: Variant, preset: Preset, plies: usize) -> (Rules, GameDeal, Vec<String>) {
    let rules = Rules::new(variant, preset);
    for seed in 1.. {
        let mut pick = seeded_pick(seed);
        let deal = GameDeal::shuffled(variant, &mut pick);
        let Ok(mut game) = Game::new(rules.clone(), deal.clone()) else {
            continue;
        };
        while game.ply() < plies {
            let mut moves = game.legal_moves();
            let mut next = None;
            while !moves.is_empty() {
                let mv = moves.swap_remove(pick(moves.len() as u32) as usize);
                let mut candidate = game.clone();
                if candidate.play(mv).is_ok() && candidate.outcome().is_none() {
                    next = Some(candidate);
                    break;
                }
            }
            match next {
                Some(candidate) => game = candidate,
                None => break,
            }
        }
        if game.ply() == plies {
            return (rules, deal, game.move_record_texts());
        }
    }
    unreachable!("some seed gives a long enough game")
}

fn replay_200_plies(c: &mut Criterion) {
    let mut group = c.benchmark_group("replay_200_plies");
    let cases = [
        (Variant::Xiangqi, Preset::Standard),
        (Variant::Jieqi, Preset::Standard),
        (Variant::Xiangqi, Preset::Tencent),
        (Variant::Jieqi, Preset::Tencent),
    ];
    for (variant, preset) in cases {
        let (rules, deal, moves) = random_game(variant, preset, 200);
        let name = format!("{variant:?}_{preset}").to_lowercase();
        group.bench_function(name, |b| {
            b.iter(|| {
                let game = Game::replay(rules.clone(), deal.clone(), black_box(&moves))
                    .expect("the recorded game replays");
                assert_eq!(game.ply(), 200);
                game
            })
        });
    }
    group.finish();
}

criterion_group!(benches, replay_200_plies);
criterion_main!(benches);
