//! Watching a search: reports after each iteration, several exact lines, cancellation. None
//! of it may change the move the engine chooses.

use crate::common;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use common::{player_view, small_budget};
use jieqi_engine::{Analysis, Engine, Level, Progress, Score};
use jieqi_rules::notation::fen::{JIEQI_START, XIANGQI_START};
use jieqi_rules::{GameMove, Variant};

const MIDDLEGAME: &str = "r1eakae1r/9/1ch4c1/p1p1p1p1p/9/2P6/P3P1P1P/1C2C1H2/9/RHEAKAE1R b - - 0 3";

#[test]
fn watching_a_search_does_not_change_its_move() {
    for (fen, variant) in [
        (XIANGQI_START, Variant::Xiangqi),
        (MIDDLEGAME, Variant::Xiangqi),
        (JIEQI_START, Variant::Jieqi),
    ] {
        let (view, legal, _) = player_view(fen, variant);
        let budget = small_budget(Level::Master, 20_000);
        let plain = Engine::with_budget(Level::Master, budget, 3).choose(&view, &legal);
        let mut reports = 0;
        let mut watch = |_: &Progress| reports += 1;
        let watched = Engine::with_budget(Level::Master, budget, 3).analyse(
            &view,
            &legal,
            Analysis {
                on_iteration: Some(&mut watch),
                ..Analysis::default()
            },
        );
        assert_eq!(plain, watched, "{fen}");
        assert!(reports > 0, "{fen}");
    }
}

#[test]
fn iterations_deepen_and_lead_with_legal_principal_variations() {
    let (view, legal, pos) = player_view(MIDDLEGAME, Variant::Xiangqi);
    let mut seen: Vec<Progress> = Vec::new();
    let mut watch = |p: &Progress| seen.push(p.clone());
    let mut engine = Engine::with_budget(Level::Master, small_budget(Level::Master, 50_000), 1);
    let chosen = engine
        .analyse(
            &view,
            &legal,
            Analysis {
                lines: 3,
                on_iteration: Some(&mut watch),
                ..Analysis::default()
            },
        )
        .expect("a move");
    assert!(legal.contains(&chosen));
    assert!(seen.windows(2).all(|w| w[0].depth < w[1].depth));
    assert!(seen.windows(2).all(|w| w[0].nodes <= w[1].nodes));
    for progress in &seen {
        assert_eq!(progress.lines.len(), 3, "depth {}", progress.depth);
        let values: Vec<i32> = progress
            .lines
            .iter()
            .map(|l| match l.score {
                Score::Centi(v) => v,
                Score::Mate(p) if p > 0 => 100_000 - p,
                Score::Mate(p) => -100_000 - p,
            })
            .collect();
        assert!(values.windows(2).all(|w| w[0] >= w[1]), "{values:?}");
        for line in &progress.lines {
            assert!(!line.pv.is_empty() && line.pv.len() <= progress.depth as usize);
            // The whole variation can be played out from the position.
            let mut after = pos.clone();
            for mv in &line.pv {
                assert!(after.is_legal(*mv), "{mv} in {:?}", line.pv);
                after.play_unchecked(*mv, None, None);
            }
        }
        let firsts: Vec<_> = progress.lines.iter().map(|l| l.pv[0]).collect();
        assert!(
            firsts
                .iter()
                .all(|m| firsts.iter().filter(|n| *n == m).count() == 1)
        );
    }
}

#[test]
fn a_raised_cancel_flag_still_gives_a_legal_move() {
    let (view, legal, _) = player_view(XIANGQI_START, Variant::Xiangqi);
    let cancel = Arc::new(AtomicBool::new(true));
    let mut engine = Engine::with_budget(
        Level::Master,
        jieqi_engine::Budget {
            nodes: u64::MAX,
            movetime: std::time::Duration::from_secs(3_600),
            ..Level::Master.budget()
        },
        1,
    );
    let mv = engine
        .analyse(
            &view,
            &legal,
            Analysis {
                cancel: Some(cancel),
                ..Analysis::default()
            },
        )
        .expect("a move");
    assert!(legal.contains(&mv));
    assert!(matches!(mv, GameMove::Board(_)));
    let info = engine.last_search().expect("searched");
    assert!(info.nodes < 100_000, "{}", info.nodes);
}

#[test]
fn the_table_kept_from_one_search_takes_the_next_one_deeper_in_the_same_nodes() {
    let (view, legal, _) = player_view(MIDDLEGAME, Variant::Xiangqi);
    let budget = small_budget(Level::Master, 30_000);
    let mut engine = Engine::with_budget(Level::Master, budget, 5);
    engine.choose(&view, &legal).expect("a move");
    let first = engine.last_search().expect("searched");
    engine.choose(&view, &legal).expect("a move");
    let again = engine.last_search().expect("searched");
    assert!(
        again.depth > first.depth,
        "depth {} then {} in {} nodes",
        first.depth,
        again.depth,
        budget.nodes
    );
    let mut fresh = Engine::with_budget(Level::Master, budget, 5);
    fresh.choose(&view, &legal).expect("a move");
    assert_eq!(
        fresh.last_search().map(|s| s.depth),
        Some(first.depth),
        "a new engine starts from an empty table"
    );
}

#[test]
fn helper_threads_search_beside_the_main_one_and_their_nodes_are_counted() {
    for (fen, variant) in [
        (MIDDLEGAME, Variant::Xiangqi),
        (JIEQI_START, Variant::Jieqi),
    ] {
        let (view, legal, _) = player_view(fen, variant);
        let mut engine = Engine::with_budget(Level::Master, small_budget(Level::Master, 40_000), 9);
        let mut main_nodes = 0;
        let mut watch = |progress: &Progress| main_nodes = progress.nodes;
        let mv = engine
            .analyse(
                &view,
                &legal,
                Analysis {
                    threads: 3,
                    on_iteration: Some(&mut watch),
                    ..Analysis::default()
                },
            )
            .expect("a move");
        assert!(legal.contains(&mv), "{fen}");
        let info = engine.last_search().expect("searched");
        // The main thread stops at its 40,000 nodes; the two helpers ran beside it until then.
        assert!(
            main_nodes > 0 && main_nodes <= 40_000,
            "{fen}: {main_nodes}"
        );
        assert!(info.nodes > 40_001, "{fen}: {}", info.nodes);
    }
}

#[test]
fn a_cancelled_search_with_helpers_ends_them_too() {
    let (view, legal, _) = player_view(MIDDLEGAME, Variant::Xiangqi);
    let mut engine = Engine::with_budget(
        Level::Master,
        jieqi_engine::Budget {
            nodes: u64::MAX,
            movetime: std::time::Duration::from_secs(3_600),
            ..Level::Master.budget()
        },
        1,
    );
    let cancel = Arc::new(AtomicBool::new(false));
    let raise = {
        let cancel = cancel.clone();
        std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(100));
            cancel.store(true, std::sync::atomic::Ordering::Relaxed);
        })
    };
    // Without the main search's end reaching its helpers, this would not return for an hour.
    let mv = engine
        .analyse(
            &view,
            &legal,
            Analysis {
                cancel: Some(cancel),
                threads: 2,
                ..Analysis::default()
            },
        )
        .expect("a move");
    raise.join().expect("the raiser ends");
    assert!(legal.contains(&mv));
}
