//! The search's tests: mates found, material won, learnt errors bounded, the position left
//! as found, the cheap check test.

use super::*;
use crate::eval::evaluate;
use crate::level::Level;
use jieqi_rules::position::MoveOptions;
use jieqi_rules::{Piece, Setup, Variant};

fn sq(s: &str) -> Square {
    s.parse().unwrap_or_else(|_| panic!("bad square {s}"))
}

fn put(setup: &mut Setup, s: &str, side: Side, role: Role) {
    setup.board[sq(s).index()] = Cell::Piece(Piece::new(side, role));
}

fn best_move(pos: Position, pool: Pool, depth: u32) -> SearchResult {
    let root = pos.legal_move_vec();
    let noise = vec![0; root.len()];
    let mut control = Control::new(&Level::Master.budget());
    let tt = Tt::new(1 << 16);
    let mut search = BoardSearch::new(pos, pool, &mut control, (&tt, History::new()), 1, &[]);
    search.run(&root, &noise, depth).expect("legal moves exist")
}

#[test]
fn moves_picked_best_first_come_in_the_order_of_a_stable_sort() {
    let scores = [5, 9, 5, 1, 9, 0, 5, i32::MAX, 1];
    let mut moves: Vec<(Move, i32)> = scores
        .iter()
        .enumerate()
        .map(|(i, &score)| {
            let from = Square::from_index(i).expect("on the board");
            let to = Square::from_index(i + 9).expect("on the board");
            (Move::new(from, to), score)
        })
        .collect();
    let mut sorted = moves.clone();
    sorted.sort_by_key(|&(_, score)| std::cmp::Reverse(score));
    let picked: Vec<Move> = (0..moves.len())
        .map(|i| pick_best(&mut moves[i..]))
        .collect();
    let expected: Vec<Move> = sorted.iter().map(|&(mv, _)| mv).collect();
    assert_eq!(picked, expected);
}

#[test]
fn finds_a_smothered_mate_with_the_horse() {
    let mut setup = Setup::empty();
    put(&mut setup, "e0", Side::Red, Role::General);
    put(&mut setup, "h6", Side::Red, Role::Horse);
    put(&mut setup, "e9", Side::Black, Role::General);
    put(&mut setup, "d9", Side::Black, Role::Advisor);
    put(&mut setup, "f9", Side::Black, Role::Advisor);
    put(&mut setup, "e8", Side::Black, Role::Horse);
    // A free soldier, so that Black is not already out of moves (a loss) after any
    // waiting move: only the mate wins at once.
    put(&mut setup, "a6", Side::Black, Role::Soldier);
    let pos = Position::from_setup(setup, Variant::Xiangqi, MoveOptions::default())
        .expect("valid position");
    let result = best_move(pos.clone(), Pool::default(), 4);
    assert!(result.score >= MATE_BOUND);
    // Both h6g8 and h6f7 mate; whichever it plays must leave Black mated.
    let mut after = pos;
    after.play_unchecked(result.mv, None, None);
    assert!(after.is_check(), "{}", result.mv);
    assert!(after.legal_move_vec().is_empty(), "{}", result.mv);
}

#[test]
fn takes_a_free_chariot() {
    let mut setup = Setup::empty();
    put(&mut setup, "e0", Side::Red, Role::General);
    put(&mut setup, "d9", Side::Black, Role::General);
    put(&mut setup, "b2", Side::Red, Role::Horse);
    put(&mut setup, "c4", Side::Black, Role::Chariot);
    put(&mut setup, "i6", Side::Black, Role::Soldier);
    let pos = Position::from_setup(setup, Variant::Xiangqi, MoveOptions::default())
        .expect("valid position");
    assert_eq!(best_move(pos, Pool::default(), 3).mv.to_string(), "b2c4");
}

#[test]
fn learnt_errors_pull_the_static_value_toward_the_search_and_stay_bounded() {
    let mut control = Control::new(&Level::Master.budget());
    let tt = Tt::new(1 << 10);
    let pos = Position::xiangqi_start();
    let mut search = BoardSearch::new(
        pos,
        Pool::default(),
        &mut control,
        (&tt, History::new()),
        1,
        &[],
    );
    assert_eq!(search.learnt_error(), 0);
    let raw = search.static_value();
    // Shallow searches nudge it, deep ones pull it most of the way within a few.
    search.learn_error(raw, raw + 100, 1);
    let nudged = search.learnt_error();
    assert!((1..10).contains(&nudged), "{nudged}");
    for _ in 0..20 {
        search.learn_error(raw, raw + 100, 16);
    }
    assert!(
        (95..=100).contains(&search.learnt_error()),
        "{}",
        search.learnt_error()
    );
    // However far off a search finds it, the learnt error stays within its bound.
    for _ in 0..40 {
        search.learn_error(raw, raw - 5_000, 20);
    }
    assert!((-ERROR_MAX..=-ERROR_MAX + 5).contains(&search.learnt_error()));
    // The other side to move has errors of its own.
    let made = search.make(Move::new(sq("h2"), sq("e2")), None);
    let black_side = History::error_slots(Side::Black, &search.tally);
    assert!(
        black_side
            .iter()
            .all(|&slot| search.history.static_error[slot] == 0)
    );
    search.unmake(made);
    // The next move's search keeps them: they are about positions, not moves.
    let kept = search.into_history().aged();
    let mut control = Control::new(&Level::Master.budget());
    let search = BoardSearch::new(
        Position::xiangqi_start(),
        Pool::default(),
        &mut control,
        (&tt, kept),
        1,
        &[],
    );
    assert!(search.learnt_error() <= -ERROR_MAX + 5);
}

#[test]
fn jieqi_searches_learn_no_errors_of_the_static_value() {
    let mut control = Control::new(&Level::Master.budget());
    let tt = Tt::new(1 << 10);
    let mut search = BoardSearch::new(
        Position::jieqi_start(),
        Pool::jieqi_start(),
        &mut control,
        (&tt, History::new()),
        1,
        &[],
    );
    let raw = search.static_value();
    for _ in 0..20 {
        search.learn_error(raw, raw + 100, 16);
    }
    assert_eq!(search.learnt_error(), 0);
    assert!(search.history.static_error.iter().all(|&e| e == 0));
}

#[test]
fn search_leaves_the_position_and_pool_as_it_found_them() {
    let pos = Position::jieqi_start();
    let pool = Pool::jieqi_start();
    let root = pos.legal_move_vec();
    let noise = vec![0; root.len()];
    let budget = crate::level::Budget {
        nodes: 3_000,
        ..Level::Club.budget()
    };
    let mut control = Control::new(&budget);
    let tt = Tt::new(1 << 12);
    let mut search = BoardSearch::new(
        pos.clone(),
        pool,
        &mut control,
        (&tt, History::new()),
        2,
        &[],
    );
    let result = search.run(&root, &noise, 6).expect("moves");
    assert!(root.contains(&result.mv));
    assert_eq!(search.pos, pos);
    assert_eq!(search.pool, pool);
    assert!(search.corrections.iter().all(|&c| c == 0));
    assert_eq!(search.path.len(), 1);
}

#[test]
fn a_soldier_stepping_off_its_horses_leg_gives_check_and_passes_the_cheap_test() {
    // Red's horse on d7 would check the general on e9 but for its own soldier on d8, the
    // horse's leg: random play rarely sets this up, so it is shown here.
    let mut setup = Setup::empty();
    put(&mut setup, "d0", Side::Red, Role::General);
    put(&mut setup, "e9", Side::Black, Role::General);
    put(&mut setup, "d7", Side::Red, Role::Horse);
    put(&mut setup, "d8", Side::Red, Role::Soldier);
    let mut pos = Position::from_setup(setup, Variant::Xiangqi, MoveOptions::default())
        .expect("valid position");
    let mv = Move::new(sq("d8"), sq("c8"));
    assert!(pos.is_legal(mv));
    pos.play_unchecked(mv, None, None);
    assert!(pos.is_check());
    assert!(may_give_check(Role::Soldier, mv, sq("e9")));
    // A move that neither ends on the general's lines nor leaves one of its diagonal
    // points cannot check.
    assert!(!may_give_check(
        Role::Chariot,
        Move::new(sq("a0"), sq("a1")),
        sq("e9")
    ));
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

    /// The evaluation's sums kept move by move are those read afresh from the board, on
    /// the way down a line of random moves (expanded reveals, stand-ins with their
    /// corrections, captures) and on the way back up.
    #[test]
    fn the_kept_evaluation_sums_match_the_board_at_every_ply(
        seed in proptest::prelude::any::<u64>(),
        jieqi in proptest::prelude::any::<bool>(),
    ) {
        let (pos, pool) = if jieqi {
            (Position::jieqi_start(), Pool::jieqi_start())
        } else {
            (Position::xiangqi_start(), Pool::default())
        };
        let mut control = Control::new(&Level::Master.budget());
        let tt = Tt::new(1 << 10);
        let mut search = BoardSearch::new(pos, pool, &mut control, (&tt, History::new()), 1, &[]);
        let start = search.tally;
        let mut state = seed;
        let mut pick = |n: usize| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 33) as usize % n.max(1)
        };
        let mut made = Vec::new();
        for _ in 0..80 {
            let moves = search.pos.legal_move_vec();
            if moves.is_empty() {
                break;
            }
            let mv = moves[pick(moves.len())];
            let us = search.pos.side_to_move();
            let outcomes: Vec<Role> = search.pool.outcomes(us).map(|(role, _)| role).collect();
            let reveal = (matches!(search.pos.cell(mv.from), Cell::Covered(_))
                && !outcomes.is_empty()
                && pick(2) == 0)
                .then(|| outcomes[pick(outcomes.len())]);
            made.push(search.make(mv, reveal));
            proptest::prop_assert_eq!(
                search.tally,
                Tally::of(&search.pos, &search.corrections)
            );
            // The value the search reads, its activity term from the cache or not, is
            // the evaluation read afresh.
            proptest::prop_assert_eq!(
                search.static_value(),
                evaluate(&search.pos, &search.pool, &search.corrections)
            );
        }
        while let Some(m) = made.pop() {
            search.unmake(m);
            proptest::prop_assert_eq!(
                search.tally,
                Tally::of(&search.pos, &search.corrections)
            );
            proptest::prop_assert_eq!(
                search.static_value(),
                evaluate(&search.pos, &search.pool, &search.corrections)
            );
        }
        proptest::prop_assert_eq!(search.tally, start);
    }

    /// The cheap test before the quiescence search makes a quiet move to see whether it
    /// checks never turns away a move that does: direct checks, discovered ones, and
    /// cannon checks through a screen the move puts down, in Xiangqi and in Jieqi (with
    /// face-up pieces moving freely).
    #[test]
    fn every_quiet_move_that_gives_check_passes_the_cheap_test(
        seed in proptest::prelude::any::<u64>(),
        jieqi in proptest::prelude::any::<bool>(),
    ) {
        let mut pos = if jieqi { Position::jieqi_start() } else { Position::xiangqi_start() };
        let mut state = seed;
        for _ in 0..100 {
            let moves = pos.legal_move_vec();
            if moves.is_empty() {
                break;
            }
            let them = !pos.side_to_move();
            if let Some(general) = pos.general(them) {
                for &mv in &moves {
                    let Cell::Piece(piece) = pos.cell(mv.from) else { continue };
                    if pos.is_capture(mv) {
                        continue;
                    }
                    let undo = pos.play_unchecked(mv, None, None);
                    let check = pos.is_check();
                    pos.undo(undo);
                    proptest::prop_assert!(
                        !check || may_give_check(piece.role, mv, general),
                        "{} gives check in {:?}", mv, pos.to_setup()
                    );
                }
            }
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let mv = moves[(state >> 33) as usize % moves.len()];
            // A covered piece turns up as its fake type: enough to vary the board.
            pos.play_unchecked(mv, None, None);
        }
    }
}
