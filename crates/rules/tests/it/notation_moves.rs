//! Moves through the public API: coordinates, WXF and Chinese written from a setup and read
//! back against a given legal list, for both sides, tandem pieces, crowded soldiers and reveals.

use jieqi_rules::notation::fen::{JIEQI_START, XIANGQI_START, read_setup};
use jieqi_rules::notation::{MoveInputError, MoveNotation, ParsedMove, parse_move, write_move};
use jieqi_rules::{Move, Role, Setup, Square};

fn sq(text: &str) -> Square {
    text.parse()
        .unwrap_or_else(|e| panic!("test square {text}: {e}"))
}

fn mv(text: &str) -> Move {
    let (from, to) = text.split_at(2);
    Move::new(sq(from), sq(to))
}

fn moves(texts: &[&str]) -> Vec<Move> {
    texts.iter().map(|t| mv(t)).collect()
}

fn setup(fen: &str) -> Setup {
    read_setup(fen).unwrap_or_else(|e| panic!("test FEN {fen}: {e}"))
}

/// Checks that `coords` is written `wxf` and `chinese` in `fen`, and that each of those (and
/// every text in `also`) reads back as that move with that reveal.
fn check_move(
    fen: &str,
    legal: &[&str],
    coords: &str,
    reveal: Option<Role>,
    wxf: &str,
    chinese: &str,
    also: &[&str],
) {
    let s = setup(fen);
    let legal = moves(legal);
    let m = mv(&coords[..4]);
    assert!(legal.contains(&m), "test legal list lacks {coords}");
    assert_eq!(write_move(&s, m, reveal, MoveNotation::Coordinates), coords);
    assert_eq!(
        write_move(&s, m, reveal, MoveNotation::Wxf),
        wxf,
        "WXF of {coords}"
    );
    assert_eq!(
        write_move(&s, m, reveal, MoveNotation::Chinese),
        chinese,
        "Chinese of {coords}"
    );
    assert_one_script(chinese, TRADITIONAL_ONLY);
    let traditional = write_move(&s, m, reveal, MoveNotation::ChineseTraditional);
    assert_one_script(&traditional, SIMPLIFIED_ONLY);
    for text in [coords, wxf, chinese, &traditional].iter().chain(also) {
        let parsed = parse_move(&s, &legal, text);
        assert_eq!(parsed, Ok(ParsedMove { mv: m, reveal }), "reading {text}");
    }
}

/// Characters that differ between the scripts, as Chinese move text uses them.
const SIMPLIFIED_ONLY: &str = "车马帅将进后";
const TRADITIONAL_ONLY: &str = "俥車傌馬帥將砲進後";

/// Chinese move text in one script: none of the other script's own characters. (A text may
/// hold none of either: `炮二平五` is the same in both.)
fn assert_one_script(text: &str, other: &str) {
    assert!(
        !text.chars().any(|c| other.contains(c)),
        "{text} mixes scripts"
    );
}

const START_LEGAL: [&str; 12] = [
    "h2e2", "h0g2", "h0i2", "f0e1", "d0e1", "g0e2", "c0a2", "e0e1", "b9c7", "h7e7", "d9e8", "i9i8",
];

#[test]
fn red_opening_moves_in_every_notation() {
    let legal = &START_LEGAL[..8];
    check_move(
        XIANGQI_START,
        legal,
        "h2e2",
        None,
        "C2.5",
        "炮二平五",
        &["c2.5", "C2=5", "炮2平5", "砲二平五", "H2-E2"],
    );
    check_move(
        XIANGQI_START,
        legal,
        "h0g2",
        None,
        "H2+3",
        "马二进三",
        &["N2+3", "馬二進三", "傌二进三"],
    );
    check_move(XIANGQI_START, legal, "h0i2", None, "H2+1", "马二进一", &[]);
    check_move(
        XIANGQI_START,
        legal,
        "e0e1",
        None,
        "K5+1",
        "帅五进一",
        &["帅五进一"],
    );
}

#[test]
fn advisors_and_elephants_name_the_target_file() {
    let legal = &START_LEGAL[..8];
    check_move(
        XIANGQI_START,
        legal,
        "f0e1",
        None,
        "A4+5",
        "仕四进五",
        &["士四进五"],
    );
    check_move(XIANGQI_START, legal, "d0e1", None, "A6+5", "仕六进五", &[]);
    check_move(
        XIANGQI_START,
        legal,
        "g0e2",
        None,
        "E3+5",
        "相三进五",
        &["B3+5", "象三进五"],
    );
    check_move(XIANGQI_START, legal, "c0a2", None, "E7+9", "相七进九", &[]);
    let fen = "4k4/9/9/9/9/9/9/4E4/9/4K4 w - - 0 1";
    check_move(
        fen,
        &["e2c0", "e2g0", "e2c4"],
        "e2c0",
        None,
        "E5-7",
        "相五退七",
        &[],
    );
    check_move(
        fen,
        &["e2c0", "e2g0", "e2c4"],
        "e2g0",
        None,
        "E5-3",
        "相五退三",
        &[],
    );
}

#[test]
fn black_counts_files_from_its_own_right_in_digits() {
    let fen = XIANGQI_START.replace(" w ", " b ");
    let legal = &START_LEGAL[8..];
    check_move(
        &fen,
        legal,
        "b9c7",
        None,
        "h2+3",
        "马2进3",
        &["H2+3", "马2进3", "馬２進３", "马二进三"],
    );
    check_move(
        &fen,
        legal,
        "h7e7",
        None,
        "c8.5",
        "炮8平5",
        &["炮8平5", "包8平5"],
    );
    check_move(&fen, legal, "d9e8", None, "a4+5", "士4进5", &[]);
    check_move(
        &fen,
        legal,
        "i9i8",
        None,
        "r9+1",
        "车9进1",
        &["車9进1", "車9進1"],
    );
}

#[test]
fn soldiers_traverse_after_crossing_the_river() {
    let fen = "4k4/9/9/9/4P4/4p4/9/9/9/4K4 w - - 0 1";
    let red = ["e5f5", "e5d5", "e5e6"];
    check_move(fen, &red, "e5f5", None, "P5.4", "兵五平四", &[]);
    check_move(fen, &red, "e5e6", None, "P5+1", "兵五进一", &[]);
    let fen = fen.replace(" w ", " b ");
    let black = ["e4f4", "e4d4", "e4e3"];
    check_move(&fen, &black, "e4f4", None, "p5.6", "卒5平6", &["P5.6"]);
    check_move(&fen, &black, "e4d4", None, "p5.4", "卒5平4", &[]);
}

const TWO_CANNONS: &str = "4k4/9/9/9/9/4C4/9/4C4/9/4K4 w - - 0 1";
const TWO_CANNONS_LEGAL: [&str; 7] = ["e4f4", "e4d4", "e4e6", "e2f2", "e2d2", "e2e3", "e2e1"];

#[test]
fn tandem_pieces_are_named_front_and_rear() {
    let legal = &TWO_CANNONS_LEGAL;
    check_move(
        TWO_CANNONS,
        legal,
        "e4f4",
        None,
        "C+.4",
        "前炮平四",
        &["+C.4", "c+.4", "炮前平四"],
    );
    check_move(
        TWO_CANNONS,
        legal,
        "e2d2",
        None,
        "C-.6",
        "后炮平六",
        &["-C.6", "後炮平六", "炮后平六"],
    );
    check_move(
        TWO_CANNONS,
        legal,
        "e4e6",
        None,
        "C++2",
        "前炮进二",
        &["+C+2"],
    );
    check_move(TWO_CANNONS, legal, "e2e1", None, "C--1", "后炮退一", &[]);
}

#[test]
fn a_file_number_on_a_tandem_is_read_when_only_one_move_fits() {
    let s = setup(TWO_CANNONS);
    let legal = moves(&TWO_CANNONS_LEGAL);
    // Only the rear cannon can retreat.
    assert_eq!(parse_move(&s, &legal, "C5-1").map(|p| p.mv), Ok(mv("e2e1")));
    assert_eq!(
        parse_move(&s, &legal, "炮五退一").map(|p| p.mv),
        Ok(mv("e2e1"))
    );
}

#[test]
fn a_file_number_on_a_tandem_that_fits_two_moves_is_ambiguous() {
    let s = setup(TWO_CANNONS);
    let legal = moves(&TWO_CANNONS_LEGAL);
    let err = parse_move(&s, &legal, "C5.4").expect_err("two cannons can traverse to 4");
    assert_eq!(
        err,
        MoveInputError::Ambiguous {
            text: "C5.4".to_owned(),
            moves: moves(&["e4f4", "e2f2"]),
            options: vec!["C+.4".to_owned(), "C-.4".to_owned()],
        }
    );
    assert_eq!(
        err.to_string(),
        "`C5.4` fits more than one move: write C+.4 or C-.4"
    );
}

#[test]
fn black_tandem_front_is_nearer_red() {
    let fen = "3rk4/9/9/9/3r5/9/9/9/9/4K4 b - - 0 1";
    let legal = ["d5e5", "d5d0", "d9d6", "d9c9"];
    check_move(fen, &legal, "d5e5", None, "r+.5", "前车平5", &["前車平5"]);
    check_move(fen, &legal, "d5d0", None, "r++5", "前车进5", &[]);
    check_move(fen, &legal, "d9d6", None, "r-+3", "后车进3", &["後車進３"]);
}

#[test]
fn three_soldiers_on_a_file_are_front_middle_and_rear() {
    let fen = "4k4/9/4P4/4P4/4P4/9/9/9/9/4K4 w - - 0 1";
    let legal = ["e7f7", "e7e8", "e6f6", "e6d6", "e5f5", "e5d5"];
    check_move(fen, &legal, "e7f7", None, "P+.4", "前兵平四", &[]);
    check_move(fen, &legal, "e6f6", None, "P5.4", "中兵平四", &["二兵平四"]);
    check_move(fen, &legal, "e5f5", None, "P-.4", "后兵平四", &["三兵平四"]);
    check_move(fen, &legal, "e7e8", None, "P++1", "前兵进一", &["一兵进一"]);
}

#[test]
fn five_soldiers_on_a_file_use_double_marks_and_places() {
    let fen = "3k5/4P4/4P4/4P4/4P4/4P4/9/9/9/4K4 w - - 0 1";
    let legal = ["e8f8", "e7f7", "e6f6", "e5f5", "e4f4"];
    check_move(fen, &legal, "e8f8", None, "++.4", "一兵平四", &["前兵平四"]);
    check_move(fen, &legal, "e7f7", None, "P+.4", "二兵平四", &[]);
    check_move(fen, &legal, "e6f6", None, "P5.4", "三兵平四", &["中兵平四"]);
    check_move(fen, &legal, "e5f5", None, "P-.4", "四兵平四", &[]);
    check_move(fen, &legal, "e4f4", None, "--.4", "五兵平四", &["后兵平四"]);
}

#[test]
fn four_soldiers_on_a_file_have_no_middle() {
    let fen = "3k5/4P4/4P4/4P4/4P4/9/9/9/9/4K4 w - - 0 1";
    let legal = ["e8f8", "e7f7", "e6f6", "e5f5"];
    check_move(fen, &legal, "e8f8", None, "++.4", "一兵平四", &[]);
    check_move(fen, &legal, "e7f7", None, "P+.4", "二兵平四", &[]);
    check_move(fen, &legal, "e6f6", None, "P-.4", "三兵平四", &[]);
    check_move(fen, &legal, "e5f5", None, "--.4", "四兵平四", &[]);
}

#[test]
fn soldiers_crowded_on_two_files_name_the_file() {
    let fen = "4k4/9/2P6/2P3P2/2P3P2/9/9/9/9/4K4 w - - 0 1";
    let legal = ["c7d7", "c6d6", "c5d5", "g6f6", "g5h5"];
    check_move(
        fen,
        &legal,
        "c7d7",
        None,
        "7+.6",
        "前兵七平六",
        &["P7+.6", "前七平六"],
    );
    check_move(fen, &legal, "c6d6", None, "77.6", "中兵七平六", &[]);
    check_move(fen, &legal, "c5d5", None, "7-.6", "后兵七平六", &[]);
    check_move(fen, &legal, "g6f6", None, "3+.4", "前兵三平四", &[]);
    check_move(fen, &legal, "g5h5", None, "3-.2", "后兵三平二", &[]);
}

#[test]
fn covered_pieces_are_named_by_their_fake_type_and_reveals_follow() {
    let legal = ["h2e2", "a3a4", "d0e1", "a0a1", "b0c2"];
    check_move(
        JIEQI_START,
        &legal,
        "h2e2r",
        Some(Role::Chariot),
        "C2.5=R",
        "炮二平五=车",
        &[],
    );
    check_move(
        JIEQI_START,
        &legal,
        "a3a4p",
        Some(Role::Soldier),
        "P9+1=P",
        "兵九进一=兵",
        &[],
    );
    check_move(
        JIEQI_START,
        &legal,
        "d0e1h",
        Some(Role::Horse),
        "A6+5=H",
        "仕六进五=马",
        &["A6+5=N", "仕六进五=马"],
    );
    // The player typing the move does not know the reveal.
    check_move(JIEQI_START, &legal, "b0c2", None, "H8+7", "马八进七", &[]);
}

#[test]
fn black_reveal_uses_black_letters_and_characters() {
    let fen = JIEQI_START.replace(" w ", " b ");
    let legal = ["i9i8", "b9c7"];
    check_move(
        &fen,
        &legal,
        "i9i8c",
        Some(Role::Cannon),
        "r9+1=c",
        "车9进1=炮",
        &["R9+1=C", "車9進1=砲", "車9进1=砲"],
    );
}

#[test]
fn covered_and_revealed_chariots_on_two_files_keep_the_letter() {
    let fen = "4k4/9/9/9/9/R7R/9/9/9/X3K3X w - - 0 1";
    let legal = ["a4b4", "a0a1", "i4h4", "i0i1"];
    check_move(fen, &legal, "a4b4", None, "R9+.8", "前车九平八", &[]);
    check_move(
        fen,
        &legal,
        "a0a1c",
        Some(Role::Cannon),
        "R9-+1=C",
        "后车九进一=炮",
        &[],
    );
    check_move(fen, &legal, "i0i1", None, "R1-+1", "后车一进一", &[]);
}

/// Positions met in random Jieqi games: a covered piece moves as the piece of its point, so
/// with a face-up piece of that type on its file the two are a tandem, written with WXF's
/// front and rear marks and the reveal after them.
#[test]
fn covered_pieces_form_tandems_as_the_type_of_their_point() {
    // Black: the covered piece on g6 (a soldier point) is in front of the soldier on g7.
    let fen = "1x2kx1xx/7c1/h1H3p1h/x4px1x/8e/C8/1A2X3X/H4P3/1R3C2R/X2K1XX2[a1r1] b - - 0 17";
    let legal = ["g6g5", "g7h7"];
    check_move(
        fen,
        &legal,
        "g6g5p",
        Some(Role::Soldier),
        "p++1=p",
        "前卒进1=卒",
        &["+P+1=P", "前卒進１=卒"],
    );
    // Black: the covered piece on c9 (an elephant point) behind the elephant on c7.
    let fen = "1pxxk2h1/4ep3/2e6/1Rx1x3c/4r3c/4P3C/2XA4E/P1PC3H1/6H2/3XKX2p[h1] b - - 6 25";
    let legal = ["c9a7", "c7e5", "c7a9"];
    check_move(
        fen,
        &legal,
        "c9a7p",
        Some(Role::Soldier),
        "e-+1=p",
        "后象进1=卒",
        &["-E+1=P", "後象進1=卒"],
    );
    check_move(fen, &legal, "c7e5", None, "e++5", "前象进5", &[]);
    check_move(fen, &legal, "c7a9", None, "e+-1", "前象退1", &[]);
    // Red: soldier tandems on files 9 and 7 (a covered piece in front of a soldier on
    // each): WXF names the file instead of the letter, Chinese after the piece.
    let fen = "xxxxkx1x1/8c/8h/x1x1x1x1x/9/4P4/X1X3X1X/PhP6/7H1/X1XXKXXpX w - - 3 5";
    let legal = ["a3a4", "c3c4"];
    check_move(
        fen,
        &legal,
        "a3a4r",
        Some(Role::Chariot),
        "9++1=R",
        "前兵九进一=车",
        &["P9++1=R", "前兵九進一=俥"],
    );
}

#[test]
fn a_reveal_on_a_face_up_piece_is_refused() {
    let s = Setup::xiangqi_start();
    let legal = moves(&["h2e2"]);
    for text in ["h2e2r", "C2.5=R", "炮二平五=车", "炮二平五=俥"] {
        assert_eq!(
            parse_move(&s, &legal, text),
            Err(MoveInputError::NothingToReveal { from: sq("h2") }),
            "{text}"
        );
    }
}

#[test]
fn a_reveal_as_general_is_refused() {
    let s = Setup::jieqi_start();
    let legal = moves(&["h2e2"]);
    for text in ["h2e2k", "C2.5=K", "炮二平五=帥"] {
        assert_eq!(
            parse_move(&s, &legal, text),
            Err(MoveInputError::RevealAsGeneral),
            "{text}"
        );
    }
}

#[test]
fn well_formed_coordinates_of_an_illegal_move_are_returned_for_explaining() {
    let s = Setup::xiangqi_start();
    let legal = moves(&START_LEGAL[..8]);
    assert_eq!(
        parse_move(&s, &legal, "h2h9"),
        Err(MoveInputError::NotLegal(mv("h2h9")))
    );
    assert_eq!(
        parse_move(&s, &legal, "e5e6"),
        Err(MoveInputError::NotLegal(mv("e5e6")))
    );
}

#[test]
fn relative_moves_that_fit_nothing_say_what_was_looked_for() {
    let s = Setup::xiangqi_start();
    let legal = moves(&START_LEGAL[..8]);
    let err = |text: &str| parse_move(&s, &legal, text).expect_err(text).to_string();
    assert_eq!(
        err("C2.4"),
        "no Red cannon on file 2 can traverse to file 4"
    );
    assert_eq!(
        err("炮二平四"),
        "no Red cannon on file 2 can traverse to file 4"
    );
    assert_eq!(err("C3.5"), "Red has no cannon on file 3");
    assert_eq!(err("C+.5"), "Red has no front cannon");
    assert_eq!(err("R1+3"), "no Red chariot on file 1 can advance 3 points");
    assert_eq!(err("H2-3"), "no Red horse on file 2 can retreat to file 3");
}

#[test]
fn unreadable_text_shows_an_example_of_each_notation() {
    let s = Setup::xiangqi_start();
    let err = parse_move(&s, &[], "castle kingside").expect_err("not a move");
    let message = err.to_string();
    for example in ["h2e2", "C2.5", "炮二平五"] {
        assert!(message.contains(example), "{message}");
    }
    assert_eq!(parse_move(&s, &[], "   "), Err(MoveInputError::Empty));
}

#[test]
fn malformed_text_names_its_notation() {
    let s = Setup::xiangqi_start();
    let cases = [
        ("h2e2q", MoveNotation::Coordinates),
        ("C0.5", MoveNotation::Wxf),
        ("炮二飞五", MoveNotation::Chinese),
    ];
    for (text, notation) in cases {
        match parse_move(&s, &[], text) {
            Err(MoveInputError::Malformed {
                notation: found, ..
            }) => {
                assert_eq!(found, notation, "{text}");
            }
            other => panic!("{text}: {other:?}"),
        }
    }
}

#[test]
fn moves_no_relative_notation_describes_fall_back_to_coordinates() {
    let s = Setup::xiangqi_start();
    // A chariot cannot move diagonally; nothing stands on e5.
    for text in ["a0b1", "e5e6"] {
        let m = mv(text);
        assert_eq!(write_move(&s, m, None, MoveNotation::Wxf), text);
        assert_eq!(write_move(&s, m, None, MoveNotation::Chinese), text);
    }
}
