//! FEN through the public API: the examples of the design and the seed, the captured group,
//! the deal field, and an error naming its field for every way a FEN can be wrong.

use jieqi_rules::notation::fen::{
    FenError, JIEQI_START, XIANGQI_START, read_full, read_setup, write_full, write_setup,
};
use jieqi_rules::{Cell, Piece, Role, Setup, Side, Square};

const SEED_MIDGAME: &str =
    "x3k3x/c3e4/4R4/E4r2x/4p4/4A1R1P/3A5/6E2/9/3XKX2X[C2H1P2a2r1c1h2p1] b - - 0 1";

fn sq(text: &str) -> Square {
    text.parse()
        .unwrap_or_else(|e| panic!("test square {text}: {e}"))
}

fn setup(fen: &str) -> Setup {
    read_setup(fen).unwrap_or_else(|e| panic!("test FEN {fen}: {e}"))
}

#[test]
fn design_examples_round_trip_byte_identical() {
    for fen in [JIEQI_START, SEED_MIDGAME, XIANGQI_START] {
        assert_eq!(write_setup(&setup(fen)), fen);
    }
}

#[test]
fn start_fens_are_the_start_setups() {
    assert_eq!(setup(XIANGQI_START), Setup::xiangqi_start());
    assert_eq!(setup(JIEQI_START), Setup::jieqi_start());
}

#[test]
fn seed_midgame_reads_covered_pieces_and_captures_by_true_type() {
    let s = setup(SEED_MIDGAME);
    assert_eq!(s.side_to_move, Side::Black);
    assert_eq!(s.cell(sq("a9")), Cell::Covered(Some(Side::Black)));
    assert_eq!(s.cell(sq("d0")), Cell::Covered(Some(Side::Red)));
    assert_eq!(
        s.cell(sq("e7")),
        Cell::Piece(Piece::new(Side::Red, Role::Chariot))
    );
    assert_eq!(s.captured.red, [0, 0, 0, 0, 2, 1, 2]);
    assert_eq!(s.captured.black, [0, 2, 0, 1, 1, 2, 1]);
}

#[test]
fn captured_group_in_any_order_with_commas_is_written_canonically() {
    let fen = "x3k3x/c3e4/4R4/E4r2x/4p4/4A1R1P/3A5/6E2/9/3XKX2X[p1,h2,c1,r1,a2,P2,H1,C2] b - - 0 1";
    assert_eq!(write_setup(&setup(fen)), SEED_MIDGAME);
}

#[test]
fn empty_captured_group_is_left_out() {
    let fen = "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR[] w - - 0 1";
    assert_eq!(write_setup(&setup(fen)), XIANGQI_START);
}

#[test]
fn other_engines_horse_and_elephant_letters_are_written_as_h_and_e() {
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    assert_eq!(write_setup(&setup(fen)), XIANGQI_START);
}

#[test]
fn clocks_and_side_are_kept() {
    let fen = "4k4/9/9/9/9/9/9/9/9/4K4 b - - 17 42";
    let s = setup(fen);
    assert_eq!(
        (s.side_to_move, s.halfmove_clock, s.fullmove_number),
        (Side::Black, 17, 42)
    );
    assert_eq!(write_setup(&s), fen);
}

#[test]
fn full_fen_reads_the_deal_in_reading_order() {
    // Reading order: a9 (Black), then d0 and i0 (Red).
    let fen = "x3k4/9/9/9/9/9/9/9/9/3XK3X w - - 0 1 aPC";
    let (s, deal) = read_full(fen).expect("full FEN");
    assert_eq!(
        deal,
        Some(vec![
            Piece::new(Side::Black, Role::Advisor),
            Piece::new(Side::Red, Role::Soldier),
            Piece::new(Side::Red, Role::Cannon),
        ])
    );
    assert_eq!(write_full(&s, "aPC"), fen);
}

#[test]
fn full_fen_without_a_deal_field_has_no_deal() {
    let (s, deal) = read_full(SEED_MIDGAME).expect("six fields");
    assert_eq!(deal, None);
    assert_eq!(write_setup(&s), SEED_MIDGAME);
}

#[test]
fn full_fen_writes_a_dash_for_an_empty_deal_and_reads_it_back() {
    let fen = write_full(&Setup::xiangqi_start(), "");
    assert_eq!(
        read_full(&fen),
        Ok((Setup::xiangqi_start(), Some(Vec::new())))
    );
}

#[test]
fn full_jieqi_start_deal_has_thirty_letters() {
    let letters = "rheaaehrcpppppPPPPPCCRHEAAEHR";
    // 29 letters for 30 covered pieces.
    assert_eq!(
        read_full(&format!("{JIEQI_START} {letters}")),
        Err(FenError::DealLength {
            letters: 29,
            covered: 30
        })
    );
    let letters = "rheaaehrccpppppPPPPPCCRHEAAEHR";
    let (_, deal) = read_full(&format!("{JIEQI_START} {letters}")).expect("30 letters");
    assert_eq!(deal.map(|d| d.len()), Some(30));
}

/// Each case: a FEN, the error expected, and the field its message must start with.
fn fen_error_cases() -> Vec<(String, FenError, &'static str)> {
    let board = "4k4/9/9/9/9/9/9/9/9/4K4";
    let f = |placement: &str, rest: &str| format!("{placement} {rest}");
    vec![
        (String::new(), FenError::Empty, "the FEN is empty"),
        (
            f(board, "w - - 0"),
            FenError::FieldCount {
                found: 5,
                expected: "6",
            },
            "the FEN has 5 fields",
        ),
        (f(board, "w - - 0 1 -"), FenError::UnexpectedDeal, "deal:"),
        (
            f("4k4/9/9/9/9/9/9/9/4K4", "w - - 0 1"),
            FenError::RankCount { found: 9 },
            "placement:",
        ),
        (
            f("4k4/9/7P2/9/9/9/9/9/9/4K4", "w - - 0 1"),
            FenError::RankWidth {
                rank: 7,
                points: 10,
            },
            "placement: rank 7 has 10 points, a rank has 9",
        ),
        (
            f("4k4/9/9/9/9/9/9/9/9/4K3Z", "w - - 0 1"),
            FenError::PlacementChar {
                rank: 0,
                found: 'Z',
            },
            "placement:",
        ),
        (
            f("4k4/9/9/9/9/9/9/9/9/4K22", "w - - 0 1"),
            FenError::AdjacentDigits { rank: 0 },
            "placement:",
        ),
        (
            f("4k4/9/9/9/9/9/9/9/9/4K4[P1", "w - - 0 1"),
            FenError::UnclosedGroup,
            "captured group:",
        ),
        (
            f("4k4/9/9/9/9/9/9/9/9/4K4[P1]x", "w - - 0 1"),
            FenError::AfterGroup {
                found: "x".to_owned(),
            },
            "captured group:",
        ),
        (
            f("4k4/9/9/9/9/9/9/9/9/4K4[Q1]", "w - - 0 1"),
            FenError::CapturedLetter { found: 'Q' },
            "captured group:",
        ),
        (
            f("4k4/9/9/9/9/9/9/9/9/4K4[x1]", "w - - 0 1"),
            FenError::CapturedCovered { found: 'x' },
            "captured group:",
        ),
        (
            f("4k4/9/9/9/9/9/9/9/9/4K4[k1]", "w - - 0 1"),
            FenError::CapturedGeneral { found: 'k' },
            "captured group:",
        ),
        (
            f("4k4/9/9/9/9/9/9/9/9/4K4[PH1]", "w - - 0 1"),
            FenError::MissingCount { letter: 'P' },
            "captured group:",
        ),
        (
            f("4k4/9/9/9/9/9/9/9/9/4K4[P0]", "w - - 0 1"),
            FenError::ZeroCount { letter: 'P' },
            "captured group:",
        ),
        (
            f("4k4/9/9/9/9/9/9/9/9/4K4[r3]", "w - - 0 1"),
            FenError::TooManyCaptured {
                piece: Piece::new(Side::Black, Role::Chariot),
                count: 3,
            },
            "captured group: 3 Black chariots lost, but a side has only 2",
        ),
        (
            f("4k4/9/9/9/9/9/9/9/9/4K4[P1,P2]", "w - - 0 1"),
            FenError::RepeatedEntry { letter: 'P' },
            "captured group:",
        ),
        (
            f(board, "r - - 0 1"),
            FenError::ActiveColour {
                found: "r".to_owned(),
            },
            "active colour:",
        ),
        (
            f(board, "w KQ - 0 1"),
            FenError::Castling {
                found: "KQ".to_owned(),
            },
            "castling:",
        ),
        (
            f(board, "w - e3 0 1"),
            FenError::EnPassant {
                found: "e3".to_owned(),
            },
            "en passant:",
        ),
        (
            f(board, "w - - +3 1"),
            FenError::HalfmoveClock {
                found: "+3".to_owned(),
            },
            "halfmove clock:",
        ),
        (
            f(board, "w - - 0 0"),
            FenError::FullmoveNumber {
                found: "0".to_owned(),
            },
            "fullmove number:",
        ),
    ]
}

#[test]
fn every_fen_error_names_its_field() {
    for (fen, expected, start) in fen_error_cases() {
        let err = read_setup(&fen).expect_err(&fen);
        assert_eq!(err, expected, "{fen}");
        assert!(err.to_string().starts_with(start), "{fen}: {err}");
    }
}

#[test]
fn deal_errors_name_the_deal_field() {
    let board = "x3k4/9/9/9/9/9/9/9/9/3XK4 w - - 0 1";
    let cases = [
        (
            format!("{board} aK"),
            FenError::DealLetter {
                index: 2,
                found: 'K',
            },
        ),
        (
            format!("{board} a?"),
            FenError::DealLetter {
                index: 2,
                found: '?',
            },
        ),
        (
            format!("{board} a"),
            FenError::DealLength {
                letters: 1,
                covered: 2,
            },
        ),
        (
            format!("{board} -"),
            FenError::DealLength {
                letters: 0,
                covered: 2,
            },
        ),
        (
            format!("{board} Ap"),
            FenError::DealSide {
                index: 1,
                found: 'A',
                letter_side: Side::Red,
                square: sq("a9"),
            },
        ),
        (
            format!("{board} ap x"),
            FenError::FieldCount {
                found: 8,
                expected: "6 or 7",
            },
        ),
    ];
    for (fen, expected) in cases {
        let err = read_full(&fen).expect_err(&fen);
        assert_eq!(err, expected, "{fen}");
        if !matches!(err, FenError::FieldCount { .. }) {
            assert!(err.to_string().starts_with("deal:"), "{err}");
        }
    }
    assert!(read_full(&format!("{board} aN")).is_ok());
}
