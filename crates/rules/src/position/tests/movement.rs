//! How each piece moves, covered or face up, in Xiangqi and Jieqi; checks and pins.

use super::*;

#[test]
fn covered_advisor_stays_in_palace() {
    let pos = Position::jieqi_start();
    assert_eq!(targets(&pos, "d0"), ["e1"]);
    assert_eq!(
        pos.why_illegal(mv("d0c1")),
        Some(IllegalMove::MustStayInPalace {
            role: Role::Advisor
        })
    );
}

#[test]
fn covered_advisor_may_leave_palace_with_option() {
    let pos =
        Position::from_setup(Setup::jieqi_start(), Variant::Jieqi, LEAVE_PALACE).expect("valid");
    assert_eq!(targets(&pos, "d0"), ["c1", "e1"]);
    assert_eq!(targets(&pos, "f0"), ["e1", "g1"]);
}

#[test]
fn revealed_advisor_steps_diagonally_anywhere_in_jieqi() {
    let pos = position("3k5/9/9/9/9/9/9/9/2A6/4K4 w - - 0 1", Variant::Jieqi);
    assert_eq!(targets(&pos, "c1"), ["b0", "b2", "d0", "d2"]);
}

#[test]
fn xiangqi_advisor_stays_in_palace() {
    let pos = position("5k3/9/9/9/9/9/9/9/9/3AK4 w - - 0 1", Variant::Xiangqi);
    assert_eq!(targets(&pos, "d0"), ["e1"]);
    assert_eq!(
        pos.why_illegal(mv("d0c1")),
        Some(IllegalMove::MustStayInPalace {
            role: Role::Advisor
        })
    );
}

#[test]
fn revealed_elephant_crosses_river() {
    let pos = position("4k4/9/9/9/9/2E6/9/9/9/3K5 w - - 0 1", Variant::Jieqi);
    assert_eq!(targets(&pos, "c4"), ["a2", "a6", "e2", "e6"]);
}

#[test]
fn xiangqi_elephant_cannot_cross_river() {
    let pos = position("4k4/9/9/9/9/2E6/9/9/9/3K5 w - - 0 1", Variant::Xiangqi);
    assert_eq!(targets(&pos, "c4"), ["a2", "e2"]);
    assert_eq!(
        pos.why_illegal(mv("c4e6")),
        Some(IllegalMove::ElephantCannotCrossRiver)
    );
}

#[test]
fn elephant_eye_blocks() {
    let pos = position("3k5/9/9/9/9/9/9/9/3H5/2E1K4 w - - 0 1", Variant::Xiangqi);
    assert_eq!(targets(&pos, "c0"), ["a2"]);
    assert_eq!(
        pos.why_illegal(mv("c0e2")),
        Some(IllegalMove::ElephantEyeBlocked { eye: sq("d1") })
    );
}

#[test]
fn revealed_elephant_is_still_blocked_by_its_eye() {
    let pos = position("4k4/9/9/9/9/2E6/3h5/9/9/3K5 w - - 0 1", Variant::Jieqi);
    assert_eq!(targets(&pos, "c4"), ["a2", "a6", "e6"]);
    assert_eq!(
        pos.why_illegal(mv("c4e2")),
        Some(IllegalMove::ElephantEyeBlocked { eye: sq("d3") })
    );
}

#[test]
fn horse_leg_blocks() {
    let pos = Position::xiangqi_start();
    assert_eq!(targets(&pos, "b0"), ["a2", "c2"]);
    assert_eq!(
        pos.why_illegal(mv("b0d1")),
        Some(IllegalMove::HorseLegBlocked { leg: sq("c0") })
    );
}

#[test]
fn cannon_needs_one_screen() {
    let pos = position(
        "3k5/4r4/9/9/4p4/4P4/9/9/4C4/4K4 w - - 0 1",
        Variant::Xiangqi,
    );
    assert!(pos.is_legal(mv("e1e5")), "one screen");
    assert_eq!(
        pos.why_illegal(mv("e1e8")),
        Some(IllegalMove::CannonNeedsOneScreen { screens: 2 })
    );
    assert_eq!(
        pos.why_illegal(mv("e1e6")),
        Some(IllegalMove::PathBlocked {
            role: Role::Cannon,
            square: sq("e4")
        })
    );
    assert_eq!(
        pos.why_illegal(mv("e1e4")),
        Some(IllegalMove::CaptureOwnPiece { square: sq("e4") })
    );
    let start = Position::xiangqi_start();
    assert!(start.is_legal(mv("b2b9")));
    assert_eq!(
        start.why_illegal(mv("b2b7")),
        Some(IllegalMove::CannonNeedsOneScreen { screens: 0 })
    );
}

#[test]
fn chariot_path_is_blocked_by_any_piece() {
    let pos = Position::xiangqi_start();
    assert_eq!(targets(&pos, "a0"), ["a1", "a2"]);
    assert_eq!(
        pos.why_illegal(mv("a0a4")),
        Some(IllegalMove::PathBlocked {
            role: Role::Chariot,
            square: sq("a3")
        })
    );
}

#[test]
fn flying_general_is_illegal() {
    // The horse is the only piece between the generals: every horse move would leave them
    // facing each other.
    let pos = position("4k4/9/9/9/9/4H4/9/9/9/4K4 w - - 0 1", Variant::Xiangqi);
    let moves: Vec<String> = pos.legal_move_vec().iter().map(|m| m.to_string()).collect();
    assert_eq!(moves, ["e0d0", "e0f0", "e0e1"]);
    assert_eq!(
        pos.why_illegal(mv("e4d6")),
        Some(IllegalMove::GeneralsFacing)
    );
    // A general may not step onto the other general's open file either.
    let pos = position("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1", Variant::Xiangqi);
    assert_eq!(targets(&pos, "e0"), ["e1", "f0"]);
    assert_eq!(
        pos.why_illegal(mv("e0d0")),
        Some(IllegalMove::GeneralsFacing)
    );
}

#[test]
fn general_stays_in_palace() {
    let pos = position("5k3/9/9/9/9/9/9/9/9/3K5 w - - 0 1", Variant::Xiangqi);
    assert_eq!(targets(&pos, "d0"), ["d1", "e0"]);
    assert_eq!(
        pos.why_illegal(mv("d0c0")),
        Some(IllegalMove::MustStayInPalace {
            role: Role::General
        })
    );
}

#[test]
fn moving_into_check_is_illegal() {
    let pos = position("3k5/9/9/9/9/9/9/9/9/4K3r w - - 0 1", Variant::Xiangqi);
    assert!(pos.is_check());
    assert_eq!(targets(&pos, "e0"), ["e1"]);
    assert_eq!(
        pos.why_illegal(mv("e0f0")),
        Some(IllegalMove::GeneralInCheck)
    );
}

#[test]
fn soldier_moves_sideways_after_river() {
    let pos = position("4k4/9/9/9/4P4/9/9/9/9/3K5 w - - 0 1", Variant::Xiangqi);
    assert_eq!(targets(&pos, "e5"), ["d5", "e6", "f5"]);
    assert_eq!(
        pos.why_illegal(mv("e5e4")),
        Some(IllegalMove::SoldierCannotRetreat)
    );
}

#[test]
fn soldier_moves_only_forward_before_river() {
    let pos = Position::xiangqi_start();
    assert_eq!(targets(&pos, "e3"), ["e4"]);
    assert_eq!(
        pos.why_illegal(mv("e3d3")),
        Some(IllegalMove::SoldierNotAcrossRiver)
    );
    assert_eq!(
        pos.why_illegal(mv("e3e2")),
        Some(IllegalMove::SoldierCannotRetreat)
    );
}

#[test]
fn covered_soldier_steps_forward_one() {
    let pos = Position::jieqi_start();
    assert_eq!(targets(&pos, "e3"), ["e4"]);
}

#[test]
fn covered_piece_moves_and_captures_as_its_fake_type() {
    let pos = Position::jieqi_start();
    // The covered piece on h2 is a cannon until it moves: it captures over a screen.
    assert!(pos.is_legal(mv("h2h9")));
    assert!(pos.is_capture(mv("h2h9")));
    // The covered piece on a0 is a chariot: blocked by a3.
    assert_eq!(
        pos.why_illegal(mv("a0a4")),
        Some(IllegalMove::PathBlocked {
            role: Role::Chariot,
            square: sq("a3")
        })
    );
    let explained = pos.why_illegal(mv("a0b1")).map(|e| e.to_string());
    assert_eq!(
        explained.as_deref(),
        Some(
            "a covered piece moves as the chariot of its point, and a chariot cannot move from a0 to b1"
        )
    );
}

#[test]
fn reasons_put_an_before_advisor_and_elephant() {
    let pos = Position::jieqi_start();
    // The covered pieces on c0 and d0 stand on an elephant's and an advisor's points.
    let elephant = pos.why_illegal(mv("c0c1")).map(|e| e.to_string());
    assert!(
        elephant
            .as_deref()
            .is_some_and(|e| e.contains("and an elephant")),
        "{elephant:?}"
    );
    let advisor = pos.why_illegal(mv("d0d1")).map(|e| e.to_string());
    assert!(
        advisor
            .as_deref()
            .is_some_and(|e| e.contains("and an advisor")),
        "{advisor:?}"
    );
    assert_eq!(Role::Horse.article(), "a");
}

#[test]
fn covered_pieces_attack_as_their_fake_type() {
    let pos = Position::jieqi_start();
    // Black's covered cannon on b7 attacks b0 over the screen on b2.
    assert!(pos.is_attacked(sq("b0"), Side::Black));
    // Black's covered chariot on a9 attacks down to a6.
    assert!(pos.is_attacked(sq("a7"), Side::Black));
    assert!(
        pos.is_attacked(sq("a5"), Side::Black),
        "the covered soldier on a6"
    );
    assert!(!pos.is_attacked(sq("a4"), Side::Black));
}

#[test]
fn revealed_advisor_and_elephant_give_check_in_jieqi() {
    let advisor = position("4k4/3A5/9/9/9/9/9/9/9/3K5 b - - 0 1", Variant::Jieqi);
    assert!(advisor.is_check());
    let elephant = position("4k4/9/2E6/9/9/9/9/9/9/3K5 b - - 0 1", Variant::Jieqi);
    assert!(elephant.is_check());
    let blocked = position("4k4/3p5/2E6/9/9/9/9/9/9/3K5 b - - 0 1", Variant::Jieqi);
    assert!(!blocked.is_check());
    // The soldier on the eye is pinned: stepping off would open the elephant's check.
    assert!(targets(&blocked, "d8").is_empty());
    assert_eq!(
        blocked.why_illegal(mv("d8d7")),
        Some(IllegalMove::GeneralInCheck)
    );
}

#[test]
fn attacked_squares_from_a_cannon_start_beyond_its_screen() {
    let pos = Position::xiangqi_start();
    let points: Vec<String> = pos
        .attacked_squares_from(sq("h2"))
        .iter()
        .map(|s| s.to_string())
        .collect();
    // Up the file over the screen on h7: h8 and h9. Left along rank 2 over the screen on
    // b2: a2. Down over h0 and right: nothing beyond.
    assert_eq!(points, ["a2", "h8", "h9"]);
    assert!(pos.attacked_squares_from(sq("e5")).is_empty());
}

#[test]
fn a_general_attacks_its_palace_steps_but_flies_only_at_the_other_general() {
    let pos = position("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1", Variant::Xiangqi);
    assert!(pos.is_attacked(sq("d1"), Side::Red));
    assert!(!pos.is_attacked(sq("d5"), Side::Red));
    assert!(!pos.is_attacked(sq("c0"), Side::Red));
    let generals: Vec<String> = pos
        .attacked_squares_from(sq("d0"))
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(generals, ["e0", "d1"]);
}

#[test]
fn illegal_move_reasons_name_the_problem() {
    let pos = Position::xiangqi_start();
    assert_eq!(
        pos.why_illegal(mv("e5e6")),
        Some(IllegalMove::NoPiece { square: sq("e5") })
    );
    assert_eq!(
        pos.why_illegal(mv("e6e5")),
        Some(IllegalMove::NotYourPiece {
            square: sq("e6"),
            owner: Side::Black
        })
    );
    assert_eq!(
        pos.why_illegal(mv("a0a0")),
        Some(IllegalMove::StaysInPlace { square: sq("a0") })
    );
    assert_eq!(
        pos.why_illegal(mv("a0b0")),
        Some(IllegalMove::CaptureOwnPiece { square: sq("b0") })
    );
    assert_eq!(
        IllegalMove::CannonNeedsOneScreen { screens: 2 }.to_string(),
        "a cannon needs exactly one screen to capture, and there are 2"
    );
}

#[test]
fn soldiers_across_the_river_may_stand_on_any_file() {
    let pos = position("4k4/9/9/1P7/9/9/9/9/9/3K5 w - - 0 1", Variant::Xiangqi);
    assert_eq!(targets(&pos, "b6"), ["a6", "b7", "c6"]);
}

#[test]
fn piece_on_a_horse_leg_next_to_its_general_is_pinned() {
    // Black's horse on d2 would take e0 if the chariot left d1, its leg.
    let pos = position("5k3/9/9/9/9/9/9/3h5/3R5/4K4 w - - 0 1", Variant::Xiangqi);
    assert!(!pos.is_check());
    assert_eq!(
        pos.why_illegal(mv("d1a1")),
        Some(IllegalMove::GeneralInCheck)
    );
    assert_eq!(targets(&pos, "d1"), ["d2"]);
}

#[test]
fn piece_between_general_and_chariot_is_pinned_to_the_line() {
    let pos = position("4k4/4r4/9/9/9/9/9/9/4H4/3K5 w - - 0 1", Variant::Xiangqi);
    // d0 general; the horse on e1 is not on its line: free. Put a chariot on the line.
    assert!(pos.is_legal(mv("e1c2")));
    let pos = position("3k5/3r5/9/9/9/9/9/9/3R5/3K5 w - - 0 1", Variant::Xiangqi);
    assert!(pos.is_legal(mv("d1d5")), "along the line");
    assert_eq!(
        pos.why_illegal(mv("d1e1")),
        Some(IllegalMove::GeneralInCheck)
    );
}

#[test]
fn a_piece_put_between_general_and_cannon_becomes_a_screen() {
    // Black's cannon on d7 looks down an open d file at Red's general: any piece put between
    // would screen it.
    let pos = position("4k4/9/3c5/9/9/9/9/9/R8/3K5 w - - 0 1", Variant::Xiangqi);
    assert!(!pos.is_check());
    assert_eq!(
        pos.why_illegal(mv("a1d1")),
        Some(IllegalMove::GeneralInCheck)
    );
    assert!(pos.is_legal(mv("a1b1")));
}

#[test]
fn moving_one_of_two_screens_opens_the_cannon() {
    let pos = position("4k4/9/3c5/9/9/3R5/9/9/3H5/3K5 w - - 0 1", Variant::Xiangqi);
    assert!(!pos.is_check());
    assert_eq!(
        pos.why_illegal(mv("d1b2")),
        Some(IllegalMove::GeneralInCheck)
    );
    assert_eq!(
        pos.why_illegal(mv("d4e4")),
        Some(IllegalMove::GeneralInCheck)
    );
    assert_eq!(
        pos.why_illegal(mv("d4d5")),
        None,
        "the chariot stays on the file"
    );
}

#[test]
fn piece_on_an_elephant_eye_next_to_its_general_is_pinned_in_jieqi() {
    // A face-up Jieqi elephant on c7 reaches e9 through d8.
    let pos = position("4k4/3r5/2E6/9/9/9/9/9/9/5K3 b - - 0 1", Variant::Jieqi);
    assert!(!pos.is_check());
    assert_eq!(
        pos.why_illegal(mv("d8d7")),
        Some(IllegalMove::GeneralInCheck)
    );
    assert!(targets(&pos, "d8").is_empty());
    assert_eq!(
        targets(&pos, "e9"),
        ["d9", "e8"],
        "f9 would face the general on f0"
    );
}
