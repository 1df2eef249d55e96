//! Material sanity: which setups are positions, and what the errors say.

use super::*;

#[test]
fn start_positions_are_valid_setups() {
    for (setup, variant) in [
        (Setup::xiangqi_start(), Variant::Xiangqi),
        (Setup::jieqi_start(), Variant::Jieqi),
    ] {
        let pos =
            Position::from_setup(setup.clone(), variant, MoveOptions::default()).expect("valid");
        assert_eq!(pos.to_setup(), setup);
    }
    let validated =
        |setup: Setup, variant| Position::from_setup(setup, variant, MoveOptions::default());
    assert_eq!(
        validated(Setup::xiangqi_start(), Variant::Xiangqi),
        Ok(Position::xiangqi_start())
    );
    assert_eq!(
        validated(Setup::jieqi_start(), Variant::Jieqi),
        Ok(Position::jieqi_start())
    );
}

#[test]
fn public_view_with_an_unknown_capture_is_valid() {
    let fen = "x3k3x/c3e4/4R4/E4r2x/4p4/4A1R1P/3A5/6E2/9/3XKX2X[C2H1P2a2r1c1h2p1] b - - 0 1";
    let pos = position(fen, Variant::Jieqi);
    assert_eq!(pos.side_to_move(), Side::Black);
    assert_eq!(pos.to_setup(), setup(fen));
}

#[test]
fn fewer_pieces_than_an_army_are_fine() {
    let pos = position("3k5/9/9/9/9/9/9/9/9/4K4 b - - 0 1", Variant::Xiangqi);
    assert_eq!(
        pos.legal_move_vec().len(),
        1,
        "d9d8; d9e9 would face the general"
    );
    assert_eq!(pos.general(Side::Red), Some(sq("e0")));
    assert_eq!(pos.general(Side::Black), Some(sq("d9")));
}

#[test]
fn material_sanity_names_what_is_wrong() {
    use PositionError as E;
    let x = Variant::Xiangqi;
    let j = Variant::Jieqi;
    type Expected = fn(&PositionError) -> bool;
    let cases: Vec<(&str, Variant, Expected)> = vec![
        ("9/9/9/9/9/9/9/9/9/4K4 w - - 0 1", x, |e| {
            matches!(e, E::MissingGeneral { side: Side::Black })
        }),
        ("3kk4/9/9/9/9/9/9/9/9/3K5 w - - 0 1", x, |e| {
            matches!(
                e,
                E::TooManyGenerals {
                    side: Side::Black,
                    ..
                }
            )
        }),
        ("4k4/9/9/9/9/9/9/9/9/K8 w - - 0 1", x, |e| {
            matches!(
                e,
                E::GeneralOutsidePalace {
                    side: Side::Red,
                    ..
                }
            )
        }),
        ("4k4/9/9/9/9/9/9/9/R1R1R4/3K5 w - - 0 1", x, |e| {
            matches!(
                e,
                E::TooManyPieces {
                    side: Side::Red,
                    role: Role::Chariot,
                    count: 3,
                    max: 2
                }
            )
        }),
        ("4k4/9/9/9/9/9/9/9/R1R6/3K5[R1] w - - 0 1", x, |e| {
            matches!(
                e,
                E::TooManyPieces {
                    side: Side::Red,
                    role: Role::Chariot,
                    count: 3,
                    ..
                }
            )
        }),
        ("4k4/9/9/9/9/9/9/9/4X4/3K5 w - - 0 1", j, |e| {
            matches!(
                e,
                E::CoveredOffStartPoint {
                    side: Side::Red,
                    ..
                }
            )
        }),
        ("3k5/9/9/9/9/9/9/9/9/3KX4 w - - 0 1", j, |e| {
            matches!(
                e,
                E::CoveredOnGeneralPoint {
                    side: Side::Red,
                    ..
                }
            )
        }),
        ("4k4/9/9/9/9/9/9/9/9/X2K5 w - - 0 1", x, |e| {
            matches!(e, E::CoveredInXiangqi { .. })
        }),
        ("4k4/9/9/9/9/9/9/9/4P4/3K5 w - - 0 1", x, |e| {
            matches!(
                e,
                E::UnreachablePoint {
                    role: Role::Soldier,
                    ..
                }
            )
        }),
        ("4k4/9/9/9/9/9/1P7/9/9/3K5 w - - 0 1", x, |e| {
            matches!(
                e,
                E::UnreachablePoint {
                    role: Role::Soldier,
                    ..
                }
            )
        }),
        ("4k4/9/9/9/9/4E4/9/9/9/3K5 w - - 0 1", x, |e| {
            matches!(
                e,
                E::UnreachablePoint {
                    role: Role::Elephant,
                    ..
                }
            )
        }),
        ("4k4/9/9/9/9/9/9/9/9/3KA4 w - - 0 1", x, |e| {
            matches!(
                e,
                E::UnreachablePoint {
                    role: Role::Advisor,
                    ..
                }
            )
        }),
        ("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1", x, |e| {
            matches!(e, E::GeneralsFacing { .. })
        }),
        ("4k4/9/9/9/9/9/9/9/4R4/3K5 w - - 0 1", x, |e| {
            matches!(e, E::OpponentInCheck { side: Side::Black })
        }),
        (
            "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX[A1] w - - 0 1",
            j,
            |e| {
                matches!(
                    e,
                    E::TooManyCovered {
                        side: Side::Red,
                        covered: 15,
                        remaining: 14
                    }
                )
            },
        ),
    ];
    for (fen, variant, expected) in cases {
        let err = error(fen, variant);
        assert!(expected(&err), "{fen}: {err:?}");
        assert!(err.to_string().len() > 20, "{err}");
    }
    // Faults a FEN cannot express.
    let mut captured_general = Setup::xiangqi_start();
    captured_general.captured.red[Role::General.index()] = 1;
    assert!(matches!(
        Position::from_setup(captured_general, x, MoveOptions::default()),
        Err(E::GeneralCaptured { side: Side::Red })
    ));
    let mut colourless = Setup::jieqi_start();
    colourless.board[sq("a0").index()] = Cell::Covered(None);
    assert!(matches!(
        Position::from_setup(colourless, j, MoveOptions::default()),
        Err(E::ColourlessCoveredPiece { .. })
    ));
    assert!(matches!(
        Position::from_setup(
            Setup::xiangqi_start(),
            Variant::Banqi,
            MoveOptions::default()
        ),
        Err(E::UnsupportedVariant(Variant::Banqi))
    ));
}
