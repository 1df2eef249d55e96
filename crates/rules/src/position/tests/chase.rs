//! Which pieces a side chases (see `position/chase.rs`), in Jieqi where covered pieces count
//! as the piece of their point.

use super::*;

fn chased(pos: &Position, chaser: Side) -> Vec<String> {
    Square::all()
        .filter(|s| pos.chased_by(chaser, u128::MAX) & (1u128 << s.index()) != 0)
        .map(|s| s.to_string())
        .collect()
}

#[test]
fn covered_pieces_are_chased_as_the_piece_of_their_point() {
    // The covered piece on a9 is a chariot to the horse on c8, so it is chased although
    // the elephant on c7 protects it; the covered piece on c6 is a soldier on its own half,
    // which the chariot on c1 may attack freely.
    let pos = position("x4k3/2H6/2e6/2x6/9/9/9/9/2R6/4K4 w - - 0 1", Variant::Jieqi);
    assert_eq!(chased(&pos, Side::Red), ["a9"]);
}

#[test]
fn covered_pieces_chase_as_the_piece_of_their_point() {
    // The covered piece on h7 is a cannon: over the soldier on h5 it attacks the chariot on
    // h2, protected or not. The covered piece on g6 is a soldier: it chases nothing, and the
    // chariot on d4 is out of everyone's reach.
    let pos = position(
        "5k3/9/7x1/6x2/7P1/3R5/9/7R1/9/4K4 b - - 0 1",
        Variant::Jieqi,
    );
    assert_eq!(chased(&pos, Side::Black), ["h2"]);
}

#[test]
fn a_capture_that_lets_the_generals_face_is_no_chase() {
    // The cannon stands alone between the generals, so it may not leave the e file: its
    // attack on the chariot on a3 over the soldier on c3 cannot be carried out.
    let pinned = position("4k4/9/9/9/9/9/r1p1C4/9/9/4K4 w - - 0 1", Variant::Xiangqi);
    assert!(chased(&pinned, Side::Red).is_empty());
    let free = position("5k3/9/9/9/9/9/r1p1C4/9/9/4K4 w - - 0 1", Variant::Xiangqi);
    assert_eq!(chased(&free, Side::Red), ["a3"]);
}
