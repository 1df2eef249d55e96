//! Perft figures of Xiangqi and Jieqi positions against published counts.

use jieqi_rules::deal::Deal;
use jieqi_rules::notation::fen::read_setup;
use jieqi_rules::perft::{divide, perft};
use jieqi_rules::{MoveOptions, Position, Setup, Variant};

fn xiangqi(fen: &str) -> (Position, Deal) {
    let setup = read_setup(fen).expect("FEN");
    let deal = Deal::identity(&setup);
    let pos = Position::from_setup(setup, Variant::Xiangqi, MoveOptions::default()).expect("valid");
    (pos, deal)
}

/// Deepest depth of the big perft tests: 3 in debug builds to keep `cargo test` quick,
/// 4 with `--release`.
const DEEP: u32 = if cfg!(debug_assertions) { 3 } else { 4 };

fn check(fen: &str, expected: &[u64]) {
    let (mut pos, deal) = xiangqi(fen);
    for (depth, &nodes) in (1..=DEEP).zip(expected) {
        assert_eq!(perft(&mut pos, &deal, depth), nodes, "{fen} depth {depth}");
    }
}

#[test]
fn xiangqi_start_perft_matches_published_counts() {
    check(
        "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1",
        &[44, 1920, 79666, 3290240],
    );
}

#[test]
fn middlegame_perft_matches_published_counts() {
    check(
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
        &[38, 1128, 43929, 1339047],
    );
}

#[test]
fn endgame_perft_matches_published_counts() {
    check(
        "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
        &[25, 424, 9850, 202884],
    );
}

/// A small seeded generator for deals: the same trees on every run.
fn seeded_pick(seed: u64) -> impl FnMut(u32) -> u32 {
    let mut state = seed | 1;
    move |n| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        ((state >> 32) % u64::from(n)) as u32
    }
}

#[test]
fn jieqi_start_has_the_xiangqi_first_moves_whatever_the_deal() {
    let setup = Setup::jieqi_start();
    for seed in 1..=8 {
        let deal = Deal::shuffled(&setup, &mut seeded_pick(seed));
        let mut pos = Position::jieqi_start();
        assert_eq!(perft(&mut pos, &deal, 1), 44);
    }
    let mut pos = Position::jieqi_start();
    assert_eq!(perft(&mut pos, &Deal::identity(&setup), 1), 44);
}

#[test]
fn jieqi_with_identity_deal_matches_xiangqi_before_limits_matter() {
    // With every piece revealed as the type of its point, Jieqi differs from Xiangqi only
    // once a face-up advisor or elephant could leave its palace or half, which takes Red at
    // least three moves (five plies).
    let setup = Setup::jieqi_start();
    let deal = Deal::identity(&setup);
    let mut pos = Position::jieqi_start();
    let expected = [44, 1920, 79666, 3290240];
    for (depth, &nodes) in (1..=DEEP).zip(&expected) {
        assert_eq!(perft(&mut pos, &deal, depth), nodes, "depth {depth}");
    }
    assert_eq!(pos, Position::jieqi_start(), "perft restores the position");
}

#[test]
fn jieqi_divide_adds_up_to_perft_with_a_shuffled_deal() {
    let setup = Setup::jieqi_start();
    let deal = Deal::shuffled(&setup, &mut seeded_pick(42));
    let mut pos = Position::jieqi_start();
    let split = divide(&mut pos, &deal, 3);
    assert_eq!(split.len(), 44);
    let total: u64 = split.iter().map(|&(_, n)| n).sum();
    assert_eq!(total, perft(&mut pos, &deal, 3));
    assert_eq!(pos, Position::jieqi_start());
}

#[test]
fn jieqi_tree_depends_on_the_deal() {
    // Revealed pieces move as their true types, so two deals give different trees soon.
    let setup = Setup::jieqi_start();
    let counts: Vec<u64> = (1..=4)
        .map(|seed| {
            let deal = Deal::shuffled(&setup, &mut seeded_pick(seed));
            perft(&mut Position::jieqi_start(), &deal, 3)
        })
        .collect();
    assert!(counts.windows(2).any(|w| w[0] != w[1]), "{counts:?}");
}
