//! Banqi rules through the public API: one named test per rule of rules.md ("Banqi").

use jieqi_rules::banqi::{
    Action, BanqiDeal, BanqiError, BanqiFenError, BanqiGame, BanqiPosition, BanqiPositionError,
    BanqiSquare, captures_by_rank, divide, perft, perft_position,
};
use jieqi_rules::{Cell, DrawReason, LastAction, Outcome, Piece, Role, Side, Viewer, WinReason};

/// A game from a placement (ranks 4 to 1), the side to move, the letters under the `?`
/// squares in reading order and the no-progress count. Every other piece is put in the
/// captured group, since a Banqi position always accounts for all 32.
fn game_at(placement: &str, side: &str, hidden: &str, clock: u32) -> BanqiGame {
    let mut group = String::new();
    for letter in "KAERCHPkaerchp".chars() {
        let start: usize = match letter.to_ascii_uppercase() {
            'K' => 1,
            'P' => 5,
            _ => 2,
        };
        let shown = placement
            .chars()
            .chain(hidden.chars())
            .filter(|c| *c == letter)
            .count();
        assert!(shown <= start, "too many {letter} in the test position");
        if start > shown {
            group.push_str(&format!("{letter}{}", start - shown));
        }
    }
    let group = if group.is_empty() {
        String::new()
    } else {
        format!("[{group}]")
    };
    let deal = if hidden.is_empty() { "-" } else { hidden };
    let fen = format!("{placement}{group} {side} {clock} 10 {deal}");
    BanqiGame::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn game(placement: &str, side: &str, hidden: &str) -> BanqiGame {
    game_at(placement, side, hidden, 0)
}

fn action(text: &str) -> Action {
    text.parse()
        .unwrap_or_else(|e| panic!("{text} should parse: {e}"))
}

fn square(text: &str) -> BanqiSquare {
    text.parse()
        .unwrap_or_else(|e| panic!("{text} should parse: {e}"))
}

fn legal(game: &BanqiGame) -> Vec<String> {
    game.legal_action_texts()
}

fn why(game: &BanqiGame, text: &str) -> Option<BanqiError> {
    game.why_illegal(action(text))
}

fn play(game: &mut BanqiGame, texts: &[&str]) {
    for text in texts {
        game.play_text(text)
            .unwrap_or_else(|e| panic!("{text} should be legal: {e}"));
    }
}

// ---------------------------------------------------------------- board, deal, colours

#[test]
fn start_has_all_32_pieces_face_down_and_no_colours() {
    let game = BanqiGame::new(BanqiDeal::fixed());
    let view = game.view(Viewer::Public);
    assert_eq!(view.cells.len(), 32);
    assert!(view.cells.iter().all(|c| *c == Cell::Covered(None)));
    assert_eq!(game.side_to_move(), None);
    assert_eq!(game.first_player_side(), None);
    assert_eq!(
        game.fen(Viewer::Public),
        "????????/????????/????????/???????? - 0 1"
    );
}

#[test]
fn first_action_must_be_a_flip() {
    let game = BanqiGame::new(BanqiDeal::fixed());
    assert!(legal(&game).iter().all(|a| a.len() == 2));
    assert_eq!(why(&game, "c3c4"), Some(BanqiError::FlipFirst));
}

#[test]
fn first_flip_gives_the_flipper_the_colour_that_came_up() {
    // Fixed deal: a4 is the Red general, b4 a Black soldier.
    let mut red_first = BanqiGame::new(BanqiDeal::fixed());
    let record = red_first.play(action("a4")).expect("a flip is legal");
    assert_eq!(record.mover, Side::Red);
    assert_eq!(red_first.first_player_side(), Some(Side::Red));
    assert_eq!(red_first.side_to_move(), Some(Side::Black));

    let mut black_first = BanqiGame::new(BanqiDeal::fixed());
    let record = black_first.play(action("b4")).expect("a flip is legal");
    assert_eq!(record.mover, Side::Black);
    assert_eq!(black_first.first_player_side(), Some(Side::Black));
    assert_eq!(black_first.side_to_move(), Some(Side::Red));
}

#[test]
fn a_player_may_flip_an_opponents_piece() {
    let mut game = BanqiGame::new(BanqiDeal::fixed());
    play(&mut game, &["a4"]); // Red
    // Black flips c4, a Red advisor: it is Red's piece, and the turn passes to Red.
    let record = game
        .play(action("c4"))
        .expect("any face-down piece may be flipped");
    assert_eq!(record.flipped, Some(Piece::new(Side::Red, Role::Advisor)));
    assert_eq!(record.mover, Side::Black);
    assert_eq!(game.side_to_move(), Some(Side::Red));
    assert_eq!(game.first_player_side(), Some(Side::Red));
}

#[test]
fn only_face_down_pieces_can_be_flipped() {
    let mut game = BanqiGame::new(BanqiDeal::fixed());
    play(&mut game, &["a4"]);
    assert_eq!(
        why(&game, "a4"),
        Some(BanqiError::AlreadyFaceUp(square("a4")))
    );
    let boxed = game_at("8/8/Rh6/8", "w", "", 0);
    assert_eq!(why(&boxed, "c2"), Some(BanqiError::FlipEmpty(square("c2"))));
}

#[test]
fn a_deal_holds_each_army_exactly_once() {
    let mut seed = 9u64;
    let mut pick = |n: u32| {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((seed >> 33) % u64::from(n)) as u32
    };
    let deal = BanqiDeal::shuffled(&mut pick);
    let mut letters: Vec<char> = deal.letters().chars().collect();
    letters.sort_unstable();
    let mut expected: Vec<char> = "KAAEERRCCHHPPPPPkaaeerrcchhppppp".chars().collect();
    expected.sort_unstable();
    assert_eq!(letters, expected);
    assert_eq!(BanqiDeal::from_letters(&deal.letters()), Ok(deal));
}

// ---------------------------------------------------------------- movement

#[test]
fn pieces_step_one_square_orthogonally_to_empty_squares() {
    let game = game("8/8/2R5/8", "w", "");
    assert_eq!(legal(&game), ["c2b2", "c2c1", "c2c3", "c2d2"]);
    assert_eq!(
        why(&game, "c2c4"),
        Some(BanqiError::NotAStep {
            role: Role::Chariot,
            from: square("c2"),
            to: square("c4")
        })
    );
    assert!(why(&game, "c2d3").is_some());
}

#[test]
fn a_face_down_piece_must_be_flipped_before_it_moves() {
    let mut game = BanqiGame::new(BanqiDeal::fixed());
    play(&mut game, &["a4"]);
    let error = why(&game, "c3c4").expect("c3 is face down");
    assert_eq!(error, BanqiError::FaceDown(square("c3")));
    assert_eq!(error.to_string(), "c3 is face down: flip it first");
}

#[test]
fn a_player_cannot_move_the_opponents_pieces() {
    let game = game("8/8/Rh6/8", "w", "");
    assert!(matches!(
        why(&game, "b2b3"),
        Some(BanqiError::NotYourPiece { .. })
    ));
    assert_eq!(why(&game, "d2d3"), Some(BanqiError::NoPiece(square("d2"))));
}

#[test]
fn a_piece_cannot_capture_its_own_side() {
    let game = game("8/8/RH6/8", "w", "");
    assert_eq!(
        why(&game, "a2b2"),
        Some(BanqiError::CaptureOwn(square("b2")))
    );
}

// ---------------------------------------------------------------- capture by rank

#[test]
fn capture_ladder_is_general_advisor_elephant_chariot_horse_cannon_soldier() {
    use Role::*;
    // Rows: attacker; columns: target, in K A E R H C P order.
    let targets = [General, Advisor, Elephant, Chariot, Horse, Cannon, Soldier];
    let table = [
        (General, [1, 1, 1, 1, 1, 1, 0]),
        (Advisor, [0, 1, 1, 1, 1, 1, 1]),
        (Elephant, [0, 0, 1, 1, 1, 1, 1]),
        (Chariot, [0, 0, 0, 1, 1, 1, 1]),
        (Horse, [0, 0, 0, 0, 1, 1, 1]),
        (Cannon, [0, 0, 0, 0, 0, 0, 0]), // never by stepping: it jumps
        (Soldier, [1, 0, 0, 0, 0, 0, 1]),
    ];
    for (attacker, row) in table {
        for (target, expected) in targets.into_iter().zip(row) {
            assert_eq!(
                captures_by_rank(attacker, target),
                expected == 1,
                "{attacker} takes {target}"
            );
        }
    }
}

#[test]
fn a_piece_captures_a_lower_ranked_neighbour() {
    let game = game("8/8/Rh6/8", "w", "");
    assert!(legal(&game).contains(&"a2b2".to_owned()));
}

#[test]
fn a_piece_captures_an_equal_ranked_neighbour() {
    let mut game = game("8/8/Hh6/8", "w", "");
    let record = game.play(action("a2b2")).expect("horse takes horse");
    assert_eq!(record.captured, Some(Piece::new(Side::Black, Role::Horse)));
}

#[test]
fn a_piece_cannot_capture_a_higher_ranked_neighbour() {
    let game = game("8/8/Hr6/8", "w", "");
    let error = why(&game, "a2b2").expect("a horse cannot take a chariot");
    assert_eq!(
        error,
        BanqiError::Outranked {
            attacker: Role::Horse,
            target: Role::Chariot
        }
    );
    assert!(
        error
            .to_string()
            .starts_with("your horse cannot capture a chariot")
    );
}

#[test]
fn a_soldier_captures_the_general() {
    let mut game = game("8/8/Pk6/8", "w", "");
    let record = game.play(action("a2b2")).expect("soldier takes general");
    assert_eq!(
        record.captured,
        Some(Piece::new(Side::Black, Role::General))
    );
}

#[test]
fn the_general_cannot_capture_a_soldier() {
    let game = game("8/8/Kp6/8", "w", "");
    let error = why(&game, "a2b2").expect("the general cannot take soldiers");
    assert!(
        error
            .to_string()
            .starts_with("your general cannot capture a soldier")
    );
    assert!(!legal(&game).contains(&"a2b2".to_owned()));
}

#[test]
fn the_general_captures_every_other_piece() {
    for target in ['k', 'a', 'e', 'r', 'h', 'c'] {
        let game = game(&format!("8/8/K{target}6/8"), "w", "");
        assert_eq!(why(&game, "a2b2"), None, "general takes {target}");
    }
}

#[test]
fn a_soldier_cannot_capture_a_cannon() {
    let game = game("8/8/Pc6/8", "w", "");
    let error = why(&game, "a2b2").expect("a soldier cannot take a cannon");
    assert!(
        error
            .to_string()
            .starts_with("your soldier cannot capture a cannon")
    );
}

#[test]
fn a_soldier_captures_a_soldier() {
    let game = game("8/8/Pp6/8", "w", "");
    assert_eq!(why(&game, "a2b2"), None);
}

#[test]
fn a_horse_captures_an_adjacent_cannon() {
    let game = game("8/8/Hc6/8", "w", "");
    assert_eq!(why(&game, "a2b2"), None);
}

#[test]
fn face_down_pieces_cannot_be_captured() {
    let game = game("8/8/R?6/8", "w", "p");
    assert_eq!(
        why(&game, "a2b2"),
        Some(BanqiError::CaptureFaceDown(square("b2")))
    );
    let cannon = game_at("8/8/C??5/8", "w", "pk", 0);
    assert_eq!(
        why(&cannon, "a2c2"),
        Some(BanqiError::CaptureFaceDown(square("c2")))
    );
}

// ---------------------------------------------------------------- the cannon

#[test]
fn a_cannon_steps_one_square_like_every_piece() {
    let game = game("8/8/2C5/8", "w", "");
    assert_eq!(legal(&game), ["c2b2", "c2c1", "c2c3", "c2d2"]);
}

#[test]
fn a_cannon_goes_further_than_one_square_only_to_capture() {
    let game = game("8/8/2C5/8", "w", "");
    assert_eq!(
        why(&game, "c2e2"),
        Some(BanqiError::CannonLongMove(square("e2")))
    );
    for diagonal in ["d3", "e3"] {
        let error = why(&game, &format!("c2{diagonal}")).expect("off the cannon's lines");
        assert_eq!(
            error,
            BanqiError::CannonOffLine {
                from: square("c2"),
                to: square(diagonal)
            }
        );
        assert!(error.to_string().contains("neither c2's rank nor its file"));
    }
}

#[test]
fn a_cannon_cannot_capture_an_adjacent_piece() {
    let game = game("8/8/Cp6/8", "w", "");
    assert_eq!(why(&game, "a2b2"), Some(BanqiError::CannonAdjacent));
    assert!(!legal(&game).contains(&"a2b2".to_owned()));
}

#[test]
fn a_cannon_jumps_a_face_down_screen() {
    let game = game("8/8/C?1h4/8", "w", "p");
    assert!(legal(&game).contains(&"a2d2".to_owned()));
}

#[test]
fn a_cannon_jumps_its_own_piece() {
    let game = game("8/8/CP1h4/8", "w", "");
    assert!(legal(&game).contains(&"a2d2".to_owned()));
}

#[test]
fn a_cannon_jumps_an_enemy_screen() {
    let game = game("8/8/Cp1h4/8", "w", "");
    assert!(legal(&game).contains(&"a2d2".to_owned()));
}

#[test]
fn a_cannon_captures_at_any_distance_along_a_rank() {
    let game = game("8/8/C3?2h/8", "w", "p");
    assert!(legal(&game).contains(&"a2h2".to_owned()));
}

#[test]
fn a_cannon_captures_along_a_file() {
    let game = game("h7/8/?7/C7", "w", "p");
    assert!(legal(&game).contains(&"a1a4".to_owned()));
}

#[test]
fn a_cannon_ignores_rank_and_can_take_the_general() {
    let mut game = game("8/8/C?k5/8", "w", "p");
    let record = game.play(action("a2c2")).expect("cannon takes general");
    assert_eq!(
        record.captured,
        Some(Piece::new(Side::Black, Role::General))
    );
}

#[test]
fn a_face_down_piece_beyond_the_screen_blocks_the_cannon() {
    let game = game("8/8/C??h4/8", "w", "pp");
    assert!(legal(&game).iter().all(|a| a != "a2c2" && a != "a2d2"));
    assert_eq!(
        why(&game, "a2c2"),
        Some(BanqiError::CaptureFaceDown(square("c2")))
    );
    assert_eq!(
        why(&game, "a2d2"),
        Some(BanqiError::CannonScreens {
            from: square("a2"),
            to: square("d2"),
            count: 2
        })
    );
}

#[test]
fn a_friendly_piece_beyond_the_screen_blocks_the_cannon() {
    let game = game("8/8/C?Ph4/8", "w", "p");
    assert!(legal(&game).iter().all(|a| a != "a2c2" && a != "a2d2"));
    assert_eq!(
        why(&game, "a2c2"),
        Some(BanqiError::CaptureOwn(square("c2")))
    );
}

#[test]
fn two_screens_block_the_cannon() {
    // b2 screens c2 (capturable), so e2 lies behind two pieces.
    let game = game("8/8/C?p1h3/8", "w", "p");
    let actions = legal(&game);
    assert!(actions.contains(&"a2c2".to_owned()));
    assert!(!actions.contains(&"a2e2".to_owned()));
    let error = why(&game, "a2e2").expect("two screens");
    assert_eq!(
        error.to_string(),
        "a cannon captures by jumping over exactly one piece, and there are 2 between a2 and e2"
    );
}

#[test]
fn a_cannon_without_a_screen_cannot_capture() {
    let game = game("8/8/C2h4/8", "w", "");
    assert_eq!(
        why(&game, "a2d2"),
        Some(BanqiError::CannonScreens {
            from: square("a2"),
            to: square("d2"),
            count: 0
        })
    );
}

// ---------------------------------------------------------------- results

#[test]
fn a_side_with_no_pieces_left_loses() {
    let mut game = game("8/8/Rp6/8", "w", "");
    play(&mut game, &["a2b2"]);
    assert_eq!(
        game.outcome(),
        Some(Outcome::Win {
            winner: Side::Red,
            reason: WinReason::NoLegalMove
        })
    );
    assert!(game.legal_actions().is_empty());
}

#[test]
fn a_side_boxed_in_with_pieces_left_loses() {
    // Red's soldier on a1 faces a Black advisor (after b2a2) and elephant: it cannot move.
    let mut game = game("8/8/1a6/Pe6", "b", "");
    assert_eq!(game.outcome(), None);
    play(&mut game, &["b2a2"]);
    assert_eq!(
        game.outcome(),
        Some(Outcome::Win {
            winner: Side::Black,
            reason: WinReason::NoLegalMove
        })
    );
    assert_eq!(
        game.position().cell(square("a1")),
        Cell::Piece(Piece::new(Side::Red, Role::Soldier))
    );
}

#[test]
fn a_side_that_can_still_flip_is_not_stuck() {
    let mut game = game("8/8/1a5?/Pe6", "b", "P");
    play(&mut game, &["b2a2"]);
    assert_eq!(game.outcome(), None);
    assert_eq!(legal(&game), ["h2"]);
}

/// Red's chariot circles a1-b1-b2-a2 (4 moves), Black's circles ten squares of ranks 3-4:
/// the pair repeats only every 20 moves, so 40 plies pass with no position seen thrice.
const RED_LOOP: [&str; 4] = ["a1b1", "b1b2", "b2a2", "a2a1"];
const BLACK_LOOP: [&str; 10] = [
    "d3e3", "e3f3", "f3g3", "g3h3", "h3h4", "h4g4", "g4f4", "f4e4", "e4d4", "d4d3",
];

#[test]
fn forty_plies_without_flip_or_capture_draw() {
    let mut game = game("8/3r4/8/R7", "w", "");
    for i in 0..20 {
        play(&mut game, &[RED_LOOP[i % 4]]);
        if i < 19 {
            play(&mut game, &[BLACK_LOOP[i % 10]]);
            assert_eq!(game.outcome(), None, "no draw before ply 40");
        } else {
            assert_eq!(game.outcome(), None, "no draw at ply 39");
            play(&mut game, &[BLACK_LOOP[i % 10]]);
        }
    }
    assert_eq!(game.position().plies_since_progress(), 40);
    assert_eq!(game.repetition_count(), 2);
    assert_eq!(game.outcome(), Some(Outcome::Draw(DrawReason::NoProgress)));
}

#[test]
fn a_flip_resets_the_no_progress_count() {
    let mut game = game_at("8/3r4/7?/R7", "w", "P", 39);
    play(&mut game, &["h2"]);
    assert_eq!(game.position().plies_since_progress(), 0);
    assert_eq!(game.outcome(), None);
    let mut quiet = game_at("8/3r4/7?/R7", "w", "P", 39);
    play(&mut quiet, &["a1b1"]);
    assert_eq!(quiet.outcome(), Some(Outcome::Draw(DrawReason::NoProgress)));
}

#[test]
fn the_no_progress_limit_can_be_changed() {
    let drawn = game_at("8/3r4/8/R7", "w", "", 40);
    assert_eq!(drawn.outcome(), Some(Outcome::Draw(DrawReason::NoProgress)));
    let mut longer = drawn.with_no_progress_plies(42);
    assert_eq!(longer.outcome(), None);
    play(&mut longer, &["a1b1"]);
    assert_eq!(longer.outcome(), None);
    play(&mut longer, &["d3d2"]);
    assert_eq!(
        longer.outcome(),
        Some(Outcome::Draw(DrawReason::NoProgress))
    );
}

#[test]
fn a_capture_resets_the_no_progress_count() {
    let mut game = game_at("8/8/8/Rr6", "w", "", 39);
    play(&mut game, &["a1b1"]);
    assert_eq!(game.position().plies_since_progress(), 0);
    // Black has nothing left: the capture wins, it does not draw.
    assert_eq!(game.outcome().and_then(Outcome::winner), Some(Side::Red));
}

#[test]
fn the_third_occurrence_of_a_position_draws() {
    let mut game = game("7r/8/8/R7", "w", "");
    let cycle = ["a1b1", "h4g4", "b1a1", "g4h4"];
    play(&mut game, &cycle);
    assert_eq!(game.repetition_count(), 2);
    play(&mut game, &cycle[..3]);
    assert_eq!(game.outcome(), None);
    play(&mut game, &cycle[3..]);
    assert_eq!(game.repetition_count(), 3);
    assert_eq!(game.outcome(), Some(Outcome::Draw(DrawReason::Repetition)));
}

#[test]
fn a_flip_resets_the_repetition_count() {
    let mut game = game("7r/8/3?4/R7", "w", "P");
    play(&mut game, &["a1b1", "h4g4", "b1a1", "g4h4"]);
    assert_eq!(game.repetition_count(), 2);
    play(&mut game, &["d2"]);
    assert_eq!(game.repetition_count(), 1);
    // The position after the flip must itself come three times before a draw.
    let cycle = ["h4g4", "a1b1", "g4h4", "b1a1"];
    play(&mut game, &cycle);
    play(&mut game, &cycle[..3]);
    assert_eq!(game.outcome(), None);
    play(&mut game, &cycle[3..]);
    assert_eq!(game.outcome(), Some(Outcome::Draw(DrawReason::Repetition)));
}

#[test]
fn resignation_agreement_and_time_out_end_the_game() {
    let endings = [
        Outcome::Win {
            winner: Side::Black,
            reason: WinReason::Resignation,
        },
        Outcome::Draw(DrawReason::Agreement),
        Outcome::Win {
            winner: Side::Red,
            reason: WinReason::Timeout,
        },
    ];
    for ending in endings {
        let mut game = BanqiGame::new(BanqiDeal::fixed());
        play(&mut game, &["a4", "b4"]);
        game.set_outcome(ending);
        assert_eq!(game.outcome(), Some(ending));
        assert!(game.legal_actions().is_empty());
        assert_eq!(game.play(action("c4")), Err(BanqiError::GameOver(ending)));
        assert_eq!(game.parse_action("c4"), Err(BanqiError::GameOver(ending)));
    }
}

#[test]
fn undo_takes_an_action_back_and_clears_the_result() {
    let mut game = game("8/8/Rp6/8", "w", "");
    let before = game.fen(Viewer::Full);
    play(&mut game, &["a2b2"]);
    assert!(game.outcome().is_some());
    assert!(game.undo().is_some());
    assert_eq!(game.fen(Viewer::Full), before);
    assert_eq!(game.outcome(), None);
    assert_eq!(game.undo(), None);
}

// ---------------------------------------------------------------- views

#[test]
fn public_view_knows_face_down_squares_but_not_their_colour_or_type() {
    let mut game = BanqiGame::new(BanqiDeal::fixed());
    play(&mut game, &["a4"]);
    let view = game.view(Viewer::Public);
    assert_eq!((view.files, view.ranks), (8, 4));
    assert_eq!(
        view.cells
            .iter()
            .filter(|c| **c == Cell::Covered(None))
            .count(),
        31
    );
    assert!(view.deal.is_none());
    assert!(!view.fen.contains("KpAa"));
    assert_eq!(view.check, None);
}

#[test]
fn cells_are_rank_major_from_a1() {
    let game = game("7k/8/8/R7", "w", "");
    let view = game.view(Viewer::Public);
    assert_eq!(
        view.cells[0],
        Cell::Piece(Piece::new(Side::Red, Role::Chariot))
    );
    assert_eq!(
        view.cells[31],
        Cell::Piece(Piece::new(Side::Black, Role::General))
    );
    assert_eq!(
        view.cell(square("h4").point()),
        Some(Cell::Piece(Piece::new(Side::Black, Role::General)))
    );
}

#[test]
fn flips_are_public_in_every_view() {
    let mut game = BanqiGame::new(BanqiDeal::fixed());
    play(&mut game, &["c3"]);
    for viewer in [
        Viewer::Public,
        Viewer::Player(Side::Red),
        Viewer::Player(Side::Black),
        Viewer::Full,
    ] {
        let view = game.view(viewer);
        assert_eq!(
            view.cell(square("c3").point()),
            Some(Cell::Piece(Piece::new(Side::Red, Role::Horse)))
        );
        assert_eq!(
            view.last_action,
            Some(LastAction::Flip(square("c3").point()))
        );
    }
}

#[test]
fn player_views_equal_the_public_view_with_their_viewer() {
    let mut game = BanqiGame::new(BanqiDeal::fixed());
    play(&mut game, &["a4", "a3", "b3", "b3a3"]);
    let public = game.view(Viewer::Public);
    for side in Side::ALL {
        let mut player = game.view(Viewer::Player(side));
        assert_eq!(player.viewer, Viewer::Player(side));
        player.viewer = Viewer::Public;
        assert_eq!(player, public);
    }
}

#[test]
fn full_view_adds_the_deal_and_the_deal_field() {
    let mut game = BanqiGame::new(BanqiDeal::fixed());
    play(&mut game, &["a4"]);
    let full = game.view(Viewer::Full);
    let deal = full.deal.expect("the full view has the deal");
    assert_eq!(deal.len(), 31);
    assert_eq!(
        deal[0],
        (square("a1").point(), Piece::new(Side::Black, Role::Horse))
    );
    assert_eq!(
        full.fen,
        "K???????/????????/????????/???????? b 0 1 pAaErRcChHpPkPeaAeErRcChHpPpPpP"
    );
}

#[test]
fn captured_trays_are_face_up_and_can_hold_a_general() {
    let mut game = game("8/8/Pk6/8", "w", "");
    let before = game.view(Viewer::Public).captured;
    play(&mut game, &["a2b2"]);
    let view = game.view(Viewer::Public);
    let mut expected = before.black.known.clone();
    expected.insert(0, Role::General);
    assert_eq!(view.captured.black.known, expected);
    assert_eq!(view.captured.black.unknown, 0);
    assert_eq!(
        view.last_action,
        Some(LastAction::Move {
            from: square("a2").point(),
            to: square("b2").point(),
        })
    );
}

// ---------------------------------------------------------------- notation

#[test]
fn flip_records_carry_the_revealed_piece_with_its_colour_as_case() {
    let mut game = BanqiGame::new(BanqiDeal::fixed());
    play(&mut game, &["a4", "a3", "b3", "b3a3"]);
    let records: Vec<String> = game.history().iter().map(|r| r.to_string()).collect();
    assert_eq!(records, ["a4=K", "a3=C", "b3=h", "b3a3"]);
}

#[test]
fn stored_records_replay_against_their_deal_only() {
    let mut game = BanqiGame::new(BanqiDeal::fixed());
    play(&mut game, &["a4", "a3", "b3", "b3a3"]);
    let records: Vec<String> = game.history().iter().map(|r| r.to_string()).collect();
    let mut replay = BanqiGame::new(BanqiDeal::fixed());
    for record in &records {
        replay
            .play_record(record)
            .expect("the record fits its own deal");
    }
    assert_eq!(replay, game);
    let mut wrong = BanqiGame::new(BanqiDeal::fixed());
    assert_eq!(
        wrong.play_record("a4=k"),
        Err(BanqiError::RecordDoesNotMatchDeal(square("a4")))
    );
}

#[test]
fn a_player_cannot_type_what_a_flip_will_reveal() {
    let game = BanqiGame::new(BanqiDeal::fixed());
    assert_eq!(
        game.parse_action("a4=K"),
        Err(BanqiError::RevealTyped(square("a4")))
    );
}

#[test]
fn fens_round_trip_public_and_full() {
    let mut game = BanqiGame::new(BanqiDeal::fixed());
    play(&mut game, &["a4", "a3", "b3", "b3a3"]);
    let public = game.fen(Viewer::Public);
    assert_eq!(public, "K???????/h1??????/????????/????????[C1] w 0 3");
    assert_eq!(
        BanqiPosition::from_fen(&public).map(|p| p.to_fen()),
        Ok(public.clone())
    );
    let full = game.fen(Viewer::Full);
    let copy = BanqiGame::from_fen(&full).expect("full FEN reads back");
    assert_eq!(copy.fen(Viewer::Full), full);
    assert_eq!(copy.legal_actions(), game.legal_actions());
}

#[test]
fn full_fen_with_nothing_face_down_writes_a_dash() {
    let game = game("8/8/Rp6/8", "w", "");
    assert!(game.fen(Viewer::Full).ends_with(" -"));
    assert_eq!(
        BanqiGame::from_fen(&game.fen(Viewer::Full)).map(|g| g.fen(Viewer::Full)),
        Ok(game.fen(Viewer::Full))
    );
}

#[test]
fn a_fen_missing_captured_pieces_is_rejected() {
    assert_eq!(
        BanqiPosition::from_fen("8/8/Rp6/8 w 0 10"),
        Err(BanqiFenError::Position(BanqiPositionError::Incomplete {
            accounted: 2
        }))
    );
    assert_eq!(
        BanqiPosition::from_fen("K7/8/8/8[K1A2E2R2C2H2P5a2e2r2c2h2p5k1] w 0 10"),
        Err(BanqiFenError::Position(BanqiPositionError::TooMany {
            piece: Piece::new(Side::Red, Role::General),
            count: 2
        }))
    );
}

#[test]
fn a_side_to_move_before_the_first_flip_is_rejected() {
    assert_eq!(
        BanqiPosition::from_fen("????????/????????/????????/???????? w 0 1"),
        Err(BanqiFenError::Position(
            BanqiPositionError::ColoursBeforeFirstFlip
        ))
    );
}

#[test]
fn a_full_fen_deal_must_fit_the_face_down_squares() {
    let start = "????????/????????/????????/????????";
    assert!(BanqiGame::from_fen(&format!("{start} - 0 1 KpA")).is_err());
    let wrong = BanqiDeal::fixed().letters().replacen('p', "P", 1);
    assert!(BanqiGame::from_fen(&format!("{start} - 0 1 {wrong}")).is_err());
}

// ---------------------------------------------------------------- perft

#[test]
fn perft_from_the_start_is_32_then_992() {
    let game = BanqiGame::new(BanqiDeal::fixed());
    assert_eq!(perft(&game, 0), 1);
    assert_eq!(perft(&game, 1), 32);
    assert_eq!(perft(&game, 2), 992);
    assert_eq!(perft_position(&BanqiPosition::start(), 2), 992);
}

/// Counts by copying positions and playing with checks: no undo involved.
fn copy_perft(position: &BanqiPosition, deal: &BanqiDeal, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    position
        .legal_actions()
        .into_iter()
        .map(|a| {
            let mut next = position.clone();
            next.play(a, deal).expect("a listed action is legal");
            copy_perft(&next, deal, depth - 1)
        })
        .sum()
}

#[test]
fn perft_agrees_with_counting_by_copy_and_with_divide() {
    let game = BanqiGame::new(BanqiDeal::fixed());
    let by_copy = copy_perft(game.position(), game.deal(), 3);
    assert_eq!(perft(&game, 3), by_copy);
    let split: u64 = divide(&game, 3).iter().map(|(_, n)| n).sum();
    assert_eq!(split, by_copy);
    let mut middle = BanqiGame::new(BanqiDeal::fixed());
    play(&mut middle, &["a4", "a3", "b3", "b3a3", "c3"]);
    assert_eq!(
        perft(&middle, 3),
        copy_perft(middle.position(), middle.deal(), 3)
    );
}
