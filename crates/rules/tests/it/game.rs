//! Behaviour of the game facade through the public API: every option and preset of
//! `rules.md`, results, views and the stored record.

use std::collections::HashSet;

use jieqi_rules::banqi::BanqiDeal;
use jieqi_rules::notation::MoveNotation;
use jieqi_rules::{
    CapturedCoveredVisibleTo, Deal, DrawReason, Game, GameDeal, GameError, GameMove, Outcome,
    Piece, PlayedRecord, Preset, Role, Rules, Seat, Setup, Side, Variant, Viewer, WinReason,
};

/// A fixed pseudo-random `pick` (SplitMix64), so tests are repeatable.
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

/// A Jieqi deal in which every covered piece is the piece of its point.
fn identity_deal() -> GameDeal {
    GameDeal::Jieqi(Deal::identity(&Setup::jieqi_start()))
}

fn jieqi(rules: Rules) -> Game {
    Game::new(rules, identity_deal()).expect("the Jieqi start position is valid")
}

fn play(game: &mut Game, moves: &[&str]) {
    for text in moves {
        if let Err(e) = game.play_text(text) {
            panic!("{text} should be playable at ply {}: {e}", game.ply());
        }
    }
}

fn fen_game(variant: Variant, preset: Preset, fen: &str) -> Game {
    Game::from_fen(Rules::new(variant, preset), fen).expect("a valid test position")
}

fn win(winner: Side, reason: WinReason) -> Option<Outcome> {
    Some(Outcome::Win { winner, reason })
}

/// Red's covered cannon on b2 takes Black's covered horse on b9 over the screen on b7.
const CANNON_TAKES_COVERED_HORSE: &str = "b2b9";

#[test]
fn captured_covered_piece_is_known_to_the_capturer_only() {
    let mut game = jieqi(Rules::new(Variant::Jieqi, Preset::Standard));
    play(&mut game, &[CANNON_TAKES_COVERED_HORSE]);
    let black_horse = Piece::new(Side::Black, Role::Horse);
    assert_eq!(game.captured_covered_by(0), Some((Side::Red, black_horse)));

    let public = game.view(Viewer::Public);
    assert_eq!(public.captured.black.known, Vec::<Role>::new());
    assert_eq!(public.captured.black.unknown, 1);
    assert!(!public.fen.contains('['), "{}", public.fen);
    assert_eq!(public.deal, None);

    let red = game.view(Viewer::Player(Side::Red));
    assert_eq!(red.captured.black.known, vec![Role::Horse]);
    assert_eq!(red.captured.black.unknown, 0);
    assert!(red.fen.contains("[h1]"), "{}", red.fen);

    let black = game.view(Viewer::Player(Side::Black));
    assert_eq!(black.captured.black.unknown, 1);
    assert_eq!(black.fen, public.fen);

    let full = game.view(Viewer::Full);
    assert_eq!(full.captured.black.known, vec![Role::Horse]);
    assert_eq!(full.fen.split(' ').count(), 7);
    assert_eq!(full.deal.as_ref().map(Vec::len), Some(28));
}

#[test]
fn captured_covered_piece_is_known_to_nobody_but_the_server() {
    let mut rules = Rules::new(Variant::Jieqi, Preset::Standard);
    rules.captured_covered_visible_to = CapturedCoveredVisibleTo::Nobody;
    let mut game = jieqi(rules);
    play(&mut game, &[CANNON_TAKES_COVERED_HORSE]);
    for viewer in [
        Viewer::Public,
        Viewer::Player(Side::Red),
        Viewer::Player(Side::Black),
    ] {
        let view = game.view(viewer);
        assert_eq!(view.captured.black.unknown, 1, "{viewer:?}");
        assert!(view.captured.black.known.is_empty(), "{viewer:?}");
    }
    assert_eq!(
        game.view(Viewer::Full).captured.black.known,
        vec![Role::Horse]
    );
}

#[test]
fn captured_covered_piece_is_known_to_everyone() {
    let mut rules = Rules::new(Variant::Jieqi, Preset::Standard);
    rules.captured_covered_visible_to = CapturedCoveredVisibleTo::Everyone;
    let mut game = jieqi(rules);
    play(&mut game, &[CANNON_TAKES_COVERED_HORSE]);
    let public = game.view(Viewer::Public);
    assert_eq!(public.captured.black.known, vec![Role::Horse]);
    assert_eq!(public.captured.black.unknown, 0);
    assert!(public.fen.contains("[h1]"), "{}", public.fen);
    assert_eq!(public.deal, None);
}

#[test]
fn reveals_of_moved_pieces_are_public_in_every_notation() {
    let mut game = jieqi(Rules::new(Variant::Jieqi, Preset::Standard));
    play(&mut game, &[CANNON_TAKES_COVERED_HORSE, "a9a8"]);
    assert_eq!(
        game.move_text(0, MoveNotation::Coordinates, Viewer::Public)
            .as_deref(),
        Some("b2b9c")
    );
    assert_eq!(
        game.move_text(1, MoveNotation::Coordinates, Viewer::Public)
            .as_deref(),
        Some("a9a8r")
    );
    for notation in MoveNotation::ALL {
        for ply in 0..2 {
            let public = game.move_text(ply, notation, Viewer::Public);
            assert!(public.is_some());
            for viewer in [
                Viewer::Player(Side::Red),
                Viewer::Player(Side::Black),
                Viewer::Full,
            ] {
                assert_eq!(
                    game.move_text(ply, notation, viewer),
                    public,
                    "{notation} {viewer:?}"
                );
            }
        }
    }
    assert_eq!(game.move_text(2, MoveNotation::Wxf, Viewer::Public), None);
    assert_eq!(game.move_record_texts(), vec!["b2b9c", "a9a8r"]);
}

#[test]
fn deal_is_revealed_to_everyone_at_the_end() {
    let mut game = jieqi(Rules::new(Variant::Jieqi, Preset::Standard));
    play(&mut game, &[CANNON_TAKES_COVERED_HORSE]);
    game.resign(Side::Black);
    assert_eq!(game.outcome(), win(Side::Red, WinReason::Resignation));
    let public = game.view(Viewer::Public);
    assert_eq!(public.deal, game.view(Viewer::Full).deal);
    assert_eq!(public.deal.as_ref().map(Vec::len), Some(28));
    assert_eq!(public.captured.black.known, vec![Role::Horse]);
    assert_eq!(public.captured.black.unknown, 0);
    assert_eq!(game.fen(Viewer::Public), game.fen(Viewer::Full));
    assert_eq!(game.fen(Viewer::Public).split(' ').count(), 7);
}

#[test]
fn deal_stays_hidden_at_the_end_without_reveal_deal_at_end() {
    let mut rules = Rules::new(Variant::Jieqi, Preset::Standard);
    rules.reveal_deal_at_end = false;
    let mut game = jieqi(rules);
    play(&mut game, &[CANNON_TAKES_COVERED_HORSE]);
    game.resign(Side::Black);
    let public = game.view(Viewer::Public);
    assert_eq!(public.deal, None);
    assert_eq!(public.captured.black.unknown, 1);
    assert_eq!(public.fen.split(' ').count(), 6);
}

#[test]
fn covered_advisor_stays_in_the_palace_by_default() {
    let mut game = jieqi(Rules::new(Variant::Jieqi, Preset::Standard));
    match game.play_text("d0c1") {
        Err(GameError::IllegalMove(reason)) => assert!(reason.contains("d0c1"), "{reason}"),
        other => panic!("d0c1 should be illegal, got {other:?}"),
    }
    assert!(game.play_text("d0e1").is_ok());
}

#[test]
fn covered_advisor_may_leave_the_palace_when_the_rules_say_so() {
    let mut rules = Rules::new(Variant::Jieqi, Preset::Standard);
    rules.covered_advisor_may_leave_palace = true;
    let mut game = jieqi(rules);
    assert!(game.play_text("d0c1").is_ok());
    let mut pychess = jieqi(Rules::new(Variant::Jieqi, Preset::Pychess));
    assert!(pychess.play_text("f0g1").is_ok());
}

/// The first two fields of the full FEN: placement (with captures) and side to move.
fn placement_key(game: &Game) -> String {
    game.fen(Viewer::Full)
        .split(' ')
        .take(2)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Plays `plies` moves that capture nothing and never reach a position seen before (so no
/// repetition rule can end the game), and that do not end the game before the last one.
fn quiet_walk(game: &mut Game, plies: usize) {
    let mut seen = HashSet::from([placement_key(game)]);
    for ply in 0..plies {
        let last = ply + 1 == plies;
        let chosen = game.legal_moves().into_iter().find_map(|mv| {
            let mut next = game.clone();
            let played = next.play(mv).ok()?;
            let quiet = match played.record {
                PlayedRecord::Board(r) => r.captured.is_none(),
                PlayedRecord::Banqi(r) => r.captured.is_none(),
            };
            let fresh = !seen.contains(&placement_key(&next));
            (quiet && fresh && (last || next.outcome().is_none())).then_some(next)
        });
        *game = chosen.unwrap_or_else(|| panic!("no quiet move to a new position at ply {ply}"));
        seen.insert(placement_key(game));
    }
}

fn assert_no_progress_limit(preset: Preset, limit: usize) {
    let rules = Rules::new(Variant::Jieqi, preset);
    assert_eq!(rules.no_progress_plies as usize, limit);
    let mut pick = seeded_pick(limit as u64);
    let mut game =
        Game::new(rules, GameDeal::shuffled(Variant::Jieqi, &mut pick)).expect("valid start");
    quiet_walk(&mut game, limit - 1);
    assert_eq!(
        game.outcome(),
        None,
        "{preset}: not yet over after {} plies",
        limit - 1
    );
    // Reveals happened along the way and did not reset the count.
    assert!(game.move_record_texts().iter().any(|t| t.len() == 5));
    quiet_walk(&mut game, 1);
    assert_eq!(
        game.outcome(),
        Some(Outcome::Draw(DrawReason::NoProgress)),
        "{preset}"
    );
}

#[test]
fn standard_draws_after_120_plies_without_capture() {
    assert_no_progress_limit(Preset::Standard, 120);
}

#[test]
fn pychess_draws_after_100_plies_without_capture() {
    assert_no_progress_limit(Preset::Pychess, 100);
}

#[test]
fn tencent_draws_after_80_plies_without_capture() {
    assert_no_progress_limit(Preset::Tencent, 80);
}

#[test]
fn vietnam_draws_after_120_plies_without_capture() {
    assert_no_progress_limit(Preset::Vietnam, 120);
}

/// Red: general f0, chariot a1. Black: general e9. The chariot can check from a9 and a8
/// while the black general steps between e9 and e8.
const LADDER_CHECKS: &str = "4k4/9/9/9/9/9/9/9/R8/5K3 w - - 0 1";
const CHECK_CYCLE: [&str; 9] = [
    "a1a9", "e9e8", "a9a8", "e8e9", "a8a9", "e9e8", "a9a8", "e8e9", "a8a9",
];

/// Red: general d0, chariot a1. Black: general e9, cannon b7. The chariot chases the
/// unprotected cannon as it runs between b7 and c7.
const CANNON_CHASE: &str = "4k4/9/1c7/9/9/9/9/9/R8/3K5 w - - 0 1";
const CHASE_CYCLE: [&str; 9] = [
    "a1b1", "b7c7", "b1c1", "c7b7", "c1b1", "b7c7", "b1c1", "c7b7", "c1b1",
];

/// Red: general d0, chariot a1. Black: general e9, chariot i9. Both shuffle harmlessly.
const IDLE_CHARIOTS: &str = "4k3r/9/9/9/9/9/9/9/R8/3K5 w - - 0 1";
const IDLE_CYCLE: [&str; 4] = ["a1a2", "i9i8", "a2a1", "i8i9"];

#[test]
fn perpetual_check_loses_on_the_third_occurrence() {
    let mut game = fen_game(Variant::Xiangqi, Preset::Standard, LADDER_CHECKS);
    play(&mut game, &CHECK_CYCLE[..8]);
    assert_eq!(game.outcome(), None);
    play(&mut game, &CHECK_CYCLE[8..]);
    assert_eq!(game.outcome(), win(Side::Black, WinReason::PerpetualCheck));
    assert!(game.legal_moves().is_empty());
}

#[test]
fn perpetual_chase_loses_on_the_third_occurrence() {
    let mut game = fen_game(Variant::Xiangqi, Preset::Standard, CANNON_CHASE);
    play(&mut game, &CHASE_CYCLE[..8]);
    assert_eq!(game.outcome(), None);
    play(&mut game, &CHASE_CYCLE[8..]);
    assert_eq!(game.outcome(), win(Side::Black, WinReason::PerpetualChase));
}

#[test]
fn perpetual_check_loses_under_pychess_too() {
    let mut game = fen_game(Variant::Xiangqi, Preset::Pychess, LADDER_CHECKS);
    play(&mut game, &CHECK_CYCLE);
    assert_eq!(game.outcome(), win(Side::Black, WinReason::PerpetualCheck));
}

#[test]
fn repetition_without_check_or_chase_is_a_draw() {
    let mut game = fen_game(Variant::Xiangqi, Preset::Standard, IDLE_CHARIOTS);
    play(&mut game, &IDLE_CYCLE);
    play(&mut game, &IDLE_CYCLE[..3]);
    assert_eq!(game.outcome(), None);
    play(&mut game, &IDLE_CYCLE[3..]);
    assert_eq!(game.outcome(), Some(Outcome::Draw(DrawReason::Repetition)));
}

#[test]
fn vietnam_draws_on_the_sixth_occurrence_and_blames_nobody() {
    let mut game = fen_game(Variant::Xiangqi, Preset::Vietnam, IDLE_CHARIOTS);
    for _ in 0..4 {
        play(&mut game, &IDLE_CYCLE);
    }
    play(&mut game, &IDLE_CYCLE[..3]);
    assert_eq!(game.outcome(), None, "five occurrences are not enough");
    play(&mut game, &IDLE_CYCLE[3..]);
    assert_eq!(game.outcome(), Some(Outcome::Draw(DrawReason::Repetition)));

    // Perpetual check is not punished either: the sixth occurrence draws.
    let mut checks = fen_game(Variant::Xiangqi, Preset::Vietnam, LADDER_CHECKS);
    play(&mut checks, &CHECK_CYCLE);
    assert_eq!(checks.outcome(), None);
    // a9 with Black to move occurred after plies 1, 5, 9; then 13 and 17: five times.
    play(&mut checks, &CHECK_CYCLE[1..9]);
    play(&mut checks, &CHECK_CYCLE[1..4]);
    assert_eq!(checks.outcome(), None);
    play(&mut checks, &CHECK_CYCLE[4..5]);
    assert_eq!(
        checks.outcome(),
        Some(Outcome::Draw(DrawReason::Repetition))
    );
}

#[test]
fn tencent_forbids_the_seventh_check_in_a_row() {
    let mut game = fen_game(Variant::Xiangqi, Preset::Tencent, LADDER_CHECKS);
    play(&mut game, &CHECK_CYCLE);
    play(&mut game, &CHECK_CYCLE[1..3]);
    // Six checks so far; repetition itself does not end a Tencent game.
    play(&mut game, &["e8e9"]);
    assert_eq!(game.outcome(), None);
    assert!(!game.legal_move_texts().contains(&"a8a9".to_owned()));
    match game.play_text("a8a9") {
        Err(GameError::IllegalMove(reason)) => assert!(reason.contains("check"), "{reason}"),
        other => panic!("the seventh check should be refused, got {other:?}"),
    }
    assert!(game.legal_move_texts().contains(&"a8a7".to_owned()));
    play(&mut game, &["a8a7"]);
}

#[test]
fn tencent_forbids_the_seventh_chase_of_one_piece() {
    let mut game = fen_game(Variant::Xiangqi, Preset::Tencent, CANNON_CHASE);
    play(&mut game, &CHASE_CYCLE);
    play(&mut game, &CHASE_CYCLE[1..4]);
    assert_eq!(game.outcome(), None);
    let texts = game.legal_move_texts();
    assert!(!texts.contains(&"c1b1".to_owned()));
    match game.play_text("c1b1") {
        Err(GameError::IllegalMove(reason)) => assert!(reason.contains("chase"), "{reason}"),
        other => panic!("the seventh chase should be refused, got {other:?}"),
    }
    assert!(texts.contains(&"c1c2".to_owned()));
}

#[test]
fn tencent_allows_six_checks_in_a_row() {
    let mut game = fen_game(Variant::Xiangqi, Preset::Tencent, LADDER_CHECKS);
    play(&mut game, &CHECK_CYCLE[..8]);
    // The fifth and sixth checks are allowed.
    play(&mut game, &["a8a9", "e9e8", "a9a8"]);
    assert_eq!(game.outcome(), None);
}

#[test]
fn checkmate_loses() {
    let mut game = fen_game(
        Variant::Xiangqi,
        Preset::Standard,
        "4k4/R8/9/9/9/9/9/9/1R7/5K3 w - - 0 1",
    );
    play(&mut game, &["b1b9"]);
    assert_eq!(game.outcome(), win(Side::Red, WinReason::Checkmate));
    assert!(game.legal_moves().is_empty());
    assert!(matches!(
        game.play_text("e9e8"),
        Err(GameError::GameOver(_))
    ));
    let view = game.view(Viewer::Public);
    assert_eq!(view.check.map(|p| (p.file, p.rank)), Some((4, 9)));
}

#[test]
fn stalemate_loses() {
    // Black's general on e9 can go nowhere and is not in check once the chariot reaches d1.
    let mut game = fen_game(
        Variant::Xiangqi,
        Preset::Standard,
        "4k4/9/4P4/9/9/9/9/9/2R6/5K3 w - - 0 1",
    );
    play(&mut game, &["c1d1"]);
    assert_eq!(game.outcome(), win(Side::Red, WinReason::NoLegalMove));
    assert_eq!(game.view(Viewer::Public).check, None);
}

#[test]
fn time_out_before_two_plies_aborts() {
    let mut game = Game::new(
        Rules::new(Variant::Xiangqi, Preset::Standard),
        GameDeal::None,
    )
    .expect("valid start");
    play(&mut game, &["h2e2"]);
    game.time_out(Side::Black);
    assert_eq!(game.outcome(), Some(Outcome::Aborted));
}

#[test]
fn time_out_after_two_plies_loses() {
    let mut game = Game::new(
        Rules::new(Variant::Xiangqi, Preset::Standard),
        GameDeal::None,
    )
    .expect("valid start");
    play(&mut game, &["h2e2", "h7e7"]);
    game.time_out(Side::Red);
    assert_eq!(game.outcome(), win(Side::Black, WinReason::Timeout));
    // A result is final.
    game.agree_draw();
    assert_eq!(game.outcome(), win(Side::Black, WinReason::Timeout));
}

#[test]
fn agreed_draw_and_abort_are_recorded() {
    let rules = Rules::new(Variant::Xiangqi, Preset::Standard);
    let mut game = Game::new(rules.clone(), GameDeal::None).expect("valid start");
    game.agree_draw();
    assert_eq!(game.outcome(), Some(Outcome::Draw(DrawReason::Agreement)));
    let mut game = Game::new(rules, GameDeal::None).expect("valid start");
    game.abort();
    assert_eq!(game.outcome(), Some(Outcome::Aborted));
    assert!(game.legal_moves().is_empty());
}

#[test]
fn illegal_moves_are_explained() {
    let game = Game::new(
        Rules::new(Variant::Xiangqi, Preset::Standard),
        GameDeal::None,
    )
    .expect("valid start");
    match game.parse_move("b0d1") {
        Err(GameError::IllegalMove(reason)) => assert!(reason.contains("leg"), "{reason}"),
        other => panic!("b0d1 has a blocked leg, got {other:?}"),
    }
    assert!(matches!(game.parse_move("zz"), Err(GameError::BadInput(_))));
    assert_eq!(
        game.parse_move("炮二平五").ok(),
        game.parse_move("h2e2").ok()
    );
    assert_eq!(game.parse_move("C2.5").ok(), game.parse_move("h2e2").ok());
}

#[test]
fn typed_reveals_are_refused() {
    let game = jieqi(Rules::new(Variant::Jieqi, Preset::Standard));
    assert!(matches!(
        game.parse_move("a0a1r"),
        Err(GameError::RevealTyped(_))
    ));
    assert!(game.parse_move("a0a1").is_ok());
}

#[test]
fn legal_move_texts_are_sorted_coordinates() {
    let game = jieqi(Rules::new(Variant::Jieqi, Preset::Standard));
    let texts = game.legal_move_texts();
    assert_eq!(texts.len(), game.legal_moves().len());
    assert!(texts.windows(2).all(|w| w[0] < w[1]));
    assert!(texts.contains(&"b2b9".to_owned()));
}

#[test]
fn seats_follow_the_turn_order() {
    let mut game = jieqi(Rules::new(Variant::Jieqi, Preset::Standard));
    assert_eq!(game.seat_to_move(), Seat::First);
    assert_eq!(game.side_of(Seat::First), Some(Side::Red));
    assert_eq!(game.side_of(Seat::Second), Some(Side::Black));
    let played = game.play_text("a0a1").expect("legal");
    assert_eq!((played.index, played.mover), (0, Side::Red));
    assert_eq!(game.seat_to_move(), Seat::Second);
    assert_eq!(game.side_to_move(), Some(Side::Black));
}

#[test]
fn replay_rebuilds_the_game_from_its_record() {
    let rules = Rules::new(Variant::Jieqi, Preset::Standard);
    let deal = GameDeal::shuffled(Variant::Jieqi, &mut seeded_pick(3));
    let mut game = Game::new(rules.clone(), deal.clone()).expect("valid start");
    play(
        &mut game,
        &[CANNON_TAKES_COVERED_HORSE, "a9a8", "h2h9", "i9i8"],
    );
    let record = game.move_record_texts();
    let again = Game::replay(rules.clone(), deal.clone(), &record).expect("replays");
    assert_eq!(again.fen(Viewer::Full), game.fen(Viewer::Full));
    assert_eq!(again.view(Viewer::Public), game.view(Viewer::Public));

    // A reveal suffix that disagrees with the deal is caught, with the move's number.
    let mut forged = record.clone();
    let last = forged[1].pop().expect("a reveal suffix");
    forged[1].push(if last == 'r' { 'p' } else { 'r' });
    match Game::replay(rules.clone(), deal.clone(), &forged) {
        Err(GameError::Replay {
            number: 2, reason, ..
        }) => {
            assert!(matches!(*reason, GameError::RevealMismatch(_)), "{reason}");
        }
        other => panic!("a forged reveal should be refused, got {other:?}"),
    }
    let mut missing = record;
    missing[0].truncate(4);
    assert!(Game::replay(rules, deal, &missing).is_err());
}

#[test]
fn deal_letters_round_trip_and_reject_nonsense() {
    for variant in Variant::ALL {
        let deal = GameDeal::shuffled(variant, &mut seeded_pick(11));
        assert_eq!(deal.variant(), variant);
        let back = GameDeal::from_letters(variant, &deal.letters()).expect("round trip");
        assert_eq!(back, deal);
    }
    assert!(matches!(
        GameDeal::from_letters(Variant::Jieqi, "zz"),
        Err(GameError::BadDeal(_))
    ));
    assert!(matches!(
        GameDeal::from_letters(Variant::Xiangqi, "R"),
        Err(GameError::BadDeal(_))
    ));
    let letters = GameDeal::shuffled(Variant::Jieqi, &mut seeded_pick(1)).letters();
    assert!(GameDeal::from_letters(Variant::Jieqi, &letters[1..]).is_err());
    assert!(format!("{:?}", GameDeal::from_letters(Variant::Jieqi, &letters)).contains("hidden"));
}

#[test]
fn deal_must_match_the_variant() {
    let rules = Rules::new(Variant::Jieqi, Preset::Standard);
    assert!(matches!(
        Game::new(rules, GameDeal::None),
        Err(GameError::DealMismatch {
            rules: Variant::Jieqi,
            deal: Variant::Xiangqi
        })
    ));
}

#[test]
fn wrong_kind_of_move_is_refused() {
    let mut game = Game::new(
        Rules::new(Variant::Xiangqi, Preset::Standard),
        GameDeal::None,
    )
    .expect("valid start");
    let action = "c3".parse().expect("a banqi flip");
    assert!(matches!(
        game.play(GameMove::Banqi(action)),
        Err(GameError::WrongGame { .. })
    ));
}

#[test]
fn full_fen_of_a_game_in_progress_starts_the_same_game() {
    let mut game = jieqi(Rules::new(Variant::Jieqi, Preset::Standard));
    play(&mut game, &[CANNON_TAKES_COVERED_HORSE, "a9a8"]);
    let fen = game.fen(Viewer::Full);
    let copy =
        Game::from_fen(Rules::new(Variant::Jieqi, Preset::Standard), &fen).expect("a full FEN");
    assert_eq!(copy.fen(Viewer::Full), fen);
    assert_eq!(copy.legal_moves(), game.legal_moves());
    // The public FEN lacks the deal, so it cannot start a game.
    assert!(
        Game::from_fen(
            Rules::new(Variant::Jieqi, Preset::Standard),
            &game.fen(Viewer::Public)
        )
        .is_err()
    );
}

#[test]
fn banqi_is_played_through_the_same_facade() {
    let rules = Rules::new(Variant::Banqi, Preset::Standard);
    let mut game = Game::new(rules.clone(), GameDeal::Banqi(BanqiDeal::fixed())).expect("start");
    assert_eq!(game.side_to_move(), None);
    assert_eq!(game.side_of(Seat::First), None);
    assert_eq!(game.legal_move_texts().len(), 32);
    let played = game.play_text("b4").expect("a flip");
    assert_eq!(played.mover, Side::Black);
    assert_eq!(game.side_of(Seat::First), Some(Side::Black));
    assert_eq!(game.seat_to_move(), Seat::Second);
    assert_eq!(game.side_to_move(), Some(Side::Red));
    assert_eq!(
        game.move_text(0, MoveNotation::Wxf, Viewer::Public)
            .as_deref(),
        Some("b4=p")
    );
    assert!(matches!(game.play_text("b4"), Err(GameError::Banqi(_))));
    assert_eq!(game.move_record_texts(), vec!["b4=p"]);
    let again = Game::replay(
        rules,
        GameDeal::Banqi(BanqiDeal::fixed()),
        &game.move_record_texts(),
    )
    .expect("replays");
    assert_eq!(again.fen(Viewer::Full), game.fen(Viewer::Full));

    assert_ne!(game.fen(Viewer::Public), game.fen(Viewer::Full));
    game.resign(Side::Red);
    assert_eq!(game.outcome(), win(Side::Black, WinReason::Resignation));
    assert_eq!(game.fen(Viewer::Public), game.fen(Viewer::Full));
    assert_eq!(game.view(Viewer::Public).deal, game.view(Viewer::Full).deal);
}

#[test]
fn debug_output_never_shows_the_deal() {
    let game = jieqi(Rules::new(Variant::Jieqi, Preset::Standard));
    let text = format!("{game:?}");
    let letters = identity_deal().letters();
    assert!(!text.contains(&letters), "{text}");
    assert!(text.contains("Game"));
}

/// `pychess` draws a time-out against a side that cannot mate (a general and an advisor
/// against a chariot); the other presets score it a loss, and a time-out against a side
/// with a chariot is a loss everywhere.
#[test]
fn a_pychess_time_out_against_a_side_that_cannot_mate_is_a_draw() {
    use jieqi_rules::{DrawReason, Outcome, Preset, Rules, Side, Variant, WinReason};
    let fen = "3ak4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1";
    for preset in Preset::ALL {
        let mut game =
            jieqi_rules::Game::from_fen(Rules::new(Variant::Xiangqi, preset), fen).expect("fen");
        assert!(game.can_mate(Side::Red) && !game.can_mate(Side::Black));
        game.play_text("a0a1").unwrap();
        game.play_text("d9e8").unwrap();
        let mut red_flags = game.clone();
        red_flags.time_out(Side::Red);
        let expected = if preset == Preset::Pychess {
            Outcome::Draw(DrawReason::TimeoutWithoutMatingMaterial)
        } else {
            Outcome::Win {
                winner: Side::Black,
                reason: WinReason::Timeout,
            }
        };
        assert_eq!(red_flags.outcome(), Some(expected), "{preset}");
        game.play_text("a1a2").unwrap();
        game.time_out(Side::Black);
        assert_eq!(
            game.outcome(),
            Some(Outcome::Win {
                winner: Side::Red,
                reason: WinReason::Timeout
            }),
            "{preset}"
        );
    }
    // In Jieqi every covered piece may turn out to be a chariot: both sides can mate.
    let jieqi = jieqi_rules::Game::new(
        Rules::new(Variant::Jieqi, Preset::Pychess),
        jieqi_rules::GameDeal::shuffled(Variant::Jieqi, &mut |n| n / 2),
    )
    .unwrap();
    assert!(jieqi.can_mate(Side::Red) && jieqi.can_mate(Side::Black));
}
