//! Playing moves: reveals, captures of covered pieces, clocks, undo and hashing.

use super::*;

#[test]
fn covered_piece_reveals_true_type_after_first_move() {
    let mut pos = Position::jieqi_start();
    pos.play_unchecked(mv("a0a1"), Some(Role::Cannon), None);
    assert_eq!(
        pos.cell(sq("a1")),
        Cell::Piece(Piece::new(Side::Red, Role::Cannon))
    );
    pos.play_unchecked(mv("a9a8"), Some(Role::Soldier), None);
    // Now a cannon: it captures a6 over a3, which a chariot could not.
    assert!(pos.is_legal(mv("a1a6")));
    assert_eq!(
        targets(&pos, "a1")
            .iter()
            .filter(|t| t.ends_with('1'))
            .count(),
        8
    );
}

#[test]
fn revealed_soldier_on_its_own_half_only_moves_forward() {
    let mut pos = Position::jieqi_start();
    pos.play_unchecked(mv("a0a1"), Some(Role::Soldier), None);
    pos.play_unchecked(mv("a9a8"), Some(Role::Soldier), None);
    assert_eq!(targets(&pos, "a1"), ["a2"]);
    // Black's revealed soldier on a8 steps towards Red.
    pos.play_unchecked(mv("a1a2"), None, None);
    assert_eq!(targets(&pos, "a8"), ["a7"]);
}

#[test]
fn capture_of_covered_piece_records_true_type() {
    let mut pos = Position::jieqi_start();
    pos.play_unchecked(mv("h2h9"), Some(Role::Soldier), Some(Role::Chariot));
    assert_eq!(pos.captured_counts().black[Role::Chariot.index()], 1);
    assert_eq!(pos.captured_counts().black[Role::Horse.index()], 0);
    assert_eq!(
        pos.cell(sq("h9")),
        Cell::Piece(Piece::new(Side::Red, Role::Soldier))
    );
    assert_eq!(pos.to_setup().captured.black[Role::Chariot.index()], 1);

    let mut pos = Position::jieqi_start();
    let (record, undo) = pos.play_with_deal(mv("h2h9"), &Deal::identity(&Setup::jieqi_start()));
    assert_eq!(record.mover, Piece::new(Side::Red, Role::Cannon));
    assert_eq!(record.reveal, Some(Role::Cannon));
    let captured = record.captured.expect("a capture");
    assert_eq!(captured.piece, Piece::new(Side::Black, Role::Horse));
    assert!(captured.was_covered);
    assert_eq!(captured.square, sq("h9"));
    pos.undo(undo);
    assert_eq!(pos, Position::jieqi_start());
}

#[test]
fn capture_of_covered_piece_without_its_type_is_not_counted() {
    let mut pos = Position::jieqi_start();
    pos.play_unchecked(mv("h2h9"), Some(Role::Cannon), None);
    assert_eq!(pos.captured_counts().black, [0; 7]);
}

#[test]
fn face_up_moves_record_no_reveal() {
    let mut pos = Position::xiangqi_start();
    let (record, _) = pos.play_with_deal(mv("h2e2"), &Deal::identity(&Setup::xiangqi_start()));
    assert_eq!(record.reveal, None);
    assert_eq!(record.captured, None);
    assert_eq!(record.mover, Piece::new(Side::Red, Role::Cannon));
}

#[test]
fn halfmove_clock_counts_since_capture_or_soldier_move() {
    let mut pos = Position::jieqi_start();
    pos.play_unchecked(mv("b0c2"), Some(Role::Chariot), None);
    assert_eq!(
        pos.halfmove_clock(),
        1,
        "a reveal alone does not reset the clock"
    );
    pos.play_unchecked(mv("e6e5"), Some(Role::Horse), None);
    assert_eq!(
        pos.halfmove_clock(),
        0,
        "a covered soldier moved as a soldier"
    );
    pos.play_unchecked(mv("h2h5"), Some(Role::Soldier), None);
    assert_eq!(
        pos.halfmove_clock(),
        1,
        "a covered cannon revealed as a soldier moved as a cannon"
    );
    assert_eq!(pos.fullmove_number(), 2);
    pos.play_unchecked(mv("e5d3"), None, None);
    assert_eq!(pos.halfmove_clock(), 2, "a revealed horse is no soldier");
    pos.play_unchecked(mv("h5h6"), None, None);
    assert_eq!(pos.halfmove_clock(), 0, "a revealed soldier moved");
    pos.play_unchecked(mv("d3c1"), None, None);
    assert_eq!(pos.halfmove_clock(), 1);
    pos.play_unchecked(mv("c2c1"), None, None);
    assert_eq!(pos.halfmove_clock(), 0, "a capture");
    assert_eq!(pos.captured_counts().black[Role::Horse.index()], 1);
}

#[test]
fn undo_restores_the_position() {
    let mut pos = Position::jieqi_start();
    let before = pos.clone();
    let undo = pos.play_unchecked(mv("h2h9"), Some(Role::Soldier), Some(Role::Chariot));
    assert_ne!(pos.zobrist(), before.zobrist());
    pos.undo(undo);
    assert_eq!(pos, before);
}

#[test]
fn zobrist_ignores_true_types_of_covered_pieces_and_captures() {
    let mut a = Position::jieqi_start();
    let mut b = Position::jieqi_start();
    a.play_unchecked(mv("h2h9"), Some(Role::Cannon), Some(Role::Chariot));
    b.play_unchecked(mv("h2h9"), Some(Role::Cannon), Some(Role::Soldier));
    assert_eq!(a.zobrist(), b.zobrist());
    assert_ne!(a.captured_counts(), b.captured_counts());
}
