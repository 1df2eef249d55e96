//! Property tests over seeded random Banqi games: FEN round trips, views that do not depend on
//! the hidden deal, make/unmake, legality explanations, record replay, and parsers that never
//! panic. Case counts are bounded so the file runs in a few seconds in debug.

use std::collections::HashSet;

use jieqi_rules::banqi::{Action, BanqiDeal, BanqiGame, BanqiPosition, BanqiSquare, perft};
use jieqi_rules::{Cell, Outcome, Side, Viewer, WinReason};
use proptest::prelude::*;

/// SplitMix64: a tiny deterministic generator, so every failure replays from its seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    fn pick(&mut self, n: u32) -> u32 {
        (((self.next() >> 32) * u64::from(n)) >> 32) as u32
    }
}

/// Plays a random game from a random deal for at most `max_plies`, calling `each` after the
/// start and after every ply. Half the time it prefers moves over flips when it has some, so
/// games reach captures and endings instead of flipping everything first.
fn random_game(seed: u64, max_plies: usize, mut each: impl FnMut(&BanqiGame)) -> BanqiGame {
    let mut rng = Rng(seed);
    let deal = BanqiDeal::shuffled(&mut |n| rng.pick(n));
    let mut game = BanqiGame::new(deal);
    each(&game);
    for _ in 0..max_plies {
        let actions = game.legal_actions();
        if actions.is_empty() {
            break;
        }
        let moves: Vec<Action> = actions
            .iter()
            .copied()
            .filter(|a| matches!(a, Action::Move { .. }))
            .collect();
        let pool = if !moves.is_empty() && rng.pick(2) == 0 {
            &moves
        } else {
            &actions
        };
        let action = pool[rng.pick(pool.len() as u32) as usize];
        game.play(action).expect("a listed action is legal");
        each(&game);
    }
    game
}

fn all_candidate_actions() -> Vec<Action> {
    let mut actions: Vec<Action> = BanqiSquare::all().map(Action::Flip).collect();
    for from in BanqiSquare::all() {
        for to in BanqiSquare::all() {
            actions.push(Action::Move { from, to });
        }
    }
    actions
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    #[test]
    fn fen_round_trips_at_every_ply(seed in any::<u64>()) {
        random_game(seed, 160, |game| {
            let public = game.fen(Viewer::Public);
            let read = BanqiPosition::from_fen(&public).expect("a written FEN reads back");
            assert_eq!(&read, game.position());
            assert_eq!(read.to_fen(), public);

            let full = game.fen(Viewer::Full);
            let (read, deal) = BanqiPosition::from_full_fen(&full).expect("full FEN reads back");
            let deal = deal.expect("a full FEN has a deal");
            assert_eq!(&read, game.position());
            assert_eq!(read.to_full_fen(&deal), full);
            let copy = BanqiGame::from_fen(&full).expect("a game reads back from its full FEN");
            assert_eq!(copy.position().legal_actions(), game.position().legal_actions());
            assert_eq!(game.view(Viewer::Full).fen, full);
            assert_eq!(game.view(Viewer::Public).fen, public);
        });
    }

    #[test]
    fn results_follow_the_board(seed in any::<u64>()) {
        let game = random_game(seed, 400, |game| {
            let position = game.position();
            match game.outcome() {
                None => assert_eq!(perft(game, 1), game.legal_actions().len() as u64),
                Some(Outcome::Win { winner, reason: WinReason::NoLegalMove }) => {
                    assert!(!position.has_legal_action());
                    assert_eq!(position.face_down_count(), 0);
                    assert_eq!(Some(!winner), position.side_to_move());
                }
                Some(_) => assert!(
                    game.repetition_count() >= 3 || position.plies_since_progress() >= 40
                ),
            }
            let faces: usize = position
                .cells()
                .iter()
                .filter(|c| **c != Cell::Empty)
                .count();
            let captured: u32 = position
                .captured()
                .red
                .iter()
                .chain(position.captured().black.iter())
                .map(|n| u32::from(*n))
                .sum();
            assert_eq!(faces as u32 + captured, 32);
        });
        prop_assert!(game.ply() > 0);
    }

    #[test]
    fn public_view_does_not_depend_on_the_pieces_still_face_down(seed in any::<u64>()) {
        let mut views = Vec::new();
        let game = random_game(seed, 120, |game| {
            views.push((
                game.view(Viewer::Public),
                game.view(Viewer::Player(Side::Red)),
                game.legal_actions(),
            ));
        });
        // Re-deal the pieces still face down at the end among their squares.
        let mut rng = Rng(seed ^ 0x0005_DEEC_E66D);
        let mut letters: Vec<char> = game.deal().letters().chars().collect();
        let hidden: Vec<usize> = BanqiSquare::reading_order()
            .enumerate()
            .filter(|(_, sq)| game.position().cell(*sq) == Cell::Covered(None))
            .map(|(i, _)| i)
            .collect();
        for k in (1..hidden.len()).rev() {
            let j = rng.pick(k as u32 + 1) as usize;
            letters.swap(hidden[k], hidden[j]);
        }
        let other_deal = BanqiDeal::from_letters(&letters.iter().collect::<String>())
            .expect("a permutation of a deal is a deal");
        let mut other = BanqiGame::new(other_deal);
        let (public, player, actions) = &views[0];
        prop_assert_eq!(&other.view(Viewer::Public), public);
        prop_assert_eq!(&other.view(Viewer::Player(Side::Red)), player);
        prop_assert_eq!(&other.legal_actions(), actions);
        for (record, (public, player, actions)) in game.history().iter().zip(&views[1..]) {
            other.play(record.action).expect("the same actions are legal");
            prop_assert_eq!(&other.view(Viewer::Public), public);
            prop_assert_eq!(&other.view(Viewer::Player(Side::Red)), player);
            prop_assert_eq!(&other.legal_actions(), actions);
        }
        // A deal sampled for the final position alone fits it and shows the same board.
        let sampled = BanqiDeal::shuffled_for(game.position(), &mut |n| rng.pick(n));
        prop_assert!(sampled.fits(game.position()));
        let resumed = BanqiGame::from_position(game.position().clone(), sampled)
            .expect("a sampled deal fits");
        prop_assert_eq!(resumed.fen(Viewer::Public), game.fen(Viewer::Public));
    }

    #[test]
    fn undo_restores_every_earlier_state(seed in any::<u64>()) {
        let mut fens = Vec::new();
        let mut game = random_game(seed, 120, |game| {
            fens.push(game.fen(Viewer::Full));
            // Make and unmake every legal action on the bare position.
            let mut position = game.position().clone();
            for action in position.legal_actions() {
                let (_, undo) = position.play_unchecked(action, game.deal());
                position.undo(undo);
                assert_eq!(&position, game.position(), "after {action}");
            }
        });
        fens.pop();
        while let Some(expected) = fens.pop() {
            prop_assert!(game.undo().is_some());
            prop_assert_eq!(game.fen(Viewer::Full), expected);
        }
        prop_assert_eq!(game.undo(), None);
        prop_assert_eq!(game.side_to_move(), None);
        prop_assert_eq!(game.first_player_side(), None);
    }

    #[test]
    fn stored_records_replay_the_same_game(seed in any::<u64>()) {
        let game = random_game(seed, 200, |_| {});
        let mut replay = BanqiGame::new(game.deal().clone());
        for record in game.history() {
            replay.play_record(&record.to_string()).expect("a record replays");
        }
        prop_assert_eq!(replay, game);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 10, ..ProptestConfig::default() })]

    #[test]
    fn why_illegal_is_none_exactly_for_listed_actions(seed in any::<u64>()) {
        let candidates = all_candidate_actions();
        let mut ply = 0;
        random_game(seed, 150, |game| {
            ply += 1;
            if ply % 3 != 1 {
                return;
            }
            let position = game.position();
            let legal: HashSet<Action> = position.legal_actions().into_iter().collect();
            for action in &candidates {
                let why = position.why_illegal(*action);
                assert_eq!(why.is_none(), legal.contains(action), "{action}: {why:?}");
                if let Some(reason) = why {
                    assert!(!reason.to_string().is_empty());
                }
            }
        });
    }
}

const FEN_ALPHABET: &str = "[?1-9a-zA-Z/\\[\\],=x \\-]{0,80}";

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn parsers_never_panic_on_any_text(text in ".{0,60}") {
        exercise_parsers(&text);
    }

    #[test]
    fn parsers_never_panic_on_fen_like_text(text in FEN_ALPHABET) {
        exercise_parsers(&text);
    }

    #[test]
    fn a_mangled_fen_is_rejected_or_reads_consistently(
        seed in any::<u64>(),
        plies in 0usize..80,
        at in any::<prop::sample::Index>(),
        replacement in "[?1-9KAERCHPkaerchp/\\[\\] -]?",
    ) {
        let game = random_game(seed, plies, |_| {});
        let fen = game.fen(Viewer::Full);
        let mut chars: Vec<char> = fen.chars().collect();
        let i = at.index(chars.len());
        match replacement.chars().next() {
            Some(c) => chars[i] = c,
            None => {
                chars.remove(i);
            }
        }
        let mangled: String = chars.into_iter().collect();
        exercise_parsers(&mangled);
        if let Ok(read) = BanqiGame::from_fen(&mangled) {
            let again = read.fen(Viewer::Full);
            let reread = BanqiGame::from_fen(&again).expect("a written FEN reads back");
            prop_assert_eq!(reread.fen(Viewer::Full), again);
        }
    }
}

/// Feeds `text` to every reader of the module; none may panic.
fn exercise_parsers(text: &str) {
    let _ = text.parse::<BanqiSquare>();
    let _ = text.parse::<Action>();
    let _ = Action::parse_record(text);
    let _ = BanqiPosition::from_fen(text);
    let _ = BanqiPosition::from_full_fen(text);
    let _ = BanqiGame::from_fen(text);
    let _ = BanqiDeal::from_letters(text);
    let _ = BanqiDeal::for_position(&BanqiPosition::start(), text);
    let mut game = BanqiGame::new(BanqiDeal::fixed());
    let _ = game.parse_action(text);
    let _ = game.clone().play_text(text);
    let _ = game.play_record(text);
    let _ = game.play_text("a4");
    let _ = game.parse_action(text);
    let _ = game.clone().play_text(text);
    let _ = game.play_record(text);
}
