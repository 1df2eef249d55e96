//! Worked cases of the repetition rules (`rules.md`, "Repetition"): a position, a cycle of
//! moves played until the position occurs for the third time, and the verdict.
//!
//! The cases follow the Asian (AXF) rule book's examples where they can be set up on a small
//! board (the rule numbers are given), and add cases of our own for each part of what a chase
//! is. Every position is built through the public API, so its FEN is checked for legality,
//! and every move must be legal when it is played.

use jieqi_rules::{DrawReason, Game, Outcome, Preset, Rules, Side, Variant, WinReason};

/// Plays `opening` and then `cycle` twice from `fen`, checking that the game goes on until
/// the very last move, and returns the result that move gave.
fn verdict(variant: Variant, fen: &str, opening: &[&str], cycle: &[&str]) -> Option<Outcome> {
    let mut game = Game::from_fen(Rules::new(variant, Preset::Standard), fen)
        .unwrap_or_else(|e| panic!("{fen} should be a legal position: {e}"));
    let moves: Vec<&str> = opening.iter().chain(cycle).chain(cycle).copied().collect();
    for (i, text) in moves.iter().enumerate() {
        assert_eq!(game.outcome(), None, "{fen}: over before move {i} ({text})");
        if let Err(e) = game.play_text(text) {
            panic!("{fen}: {text} should be legal at ply {i}: {e}");
        }
    }
    game.outcome()
}

fn xiangqi(fen: &str, cycle: &[&str]) -> Option<Outcome> {
    verdict(Variant::Xiangqi, fen, &[], cycle)
}

fn jieqi(fen: &str, cycle: &[&str]) -> Option<Outcome> {
    verdict(Variant::Jieqi, fen, &[], cycle)
}

fn loses(loser: Side, reason: WinReason) -> Option<Outcome> {
    Some(Outcome::Win {
        winner: !loser,
        reason,
    })
}

const DRAW: Option<Outcome> = Some(Outcome::Draw(DrawReason::Repetition));

#[test]
fn perpetual_check_loses() {
    // AXF rule 6. The chariot checks from a9 and a8 while the general steps e9-e8.
    let fen = "4k4/9/9/9/9/9/9/9/R8/5K3 w - - 0 1";
    let outcome = verdict(
        Variant::Xiangqi,
        fen,
        &["a1a9"],
        &["e9e8", "a9a8", "e8e9", "a8a9"],
    );
    assert_eq!(outcome, loses(Side::Red, WinReason::PerpetualCheck));
}

#[test]
fn idle_repetition_is_a_draw() {
    // AXF rule 5: both chariots shuffle and attack nothing.
    let fen = "4k3r/9/9/9/9/9/9/9/R8/3K5 w - - 0 1";
    assert_eq!(xiangqi(fen, &["a1a2", "i9i8", "a2a1", "i8i9"]), DRAW);
}

#[test]
fn cannon_chasing_an_unprotected_chariot_loses() {
    // The cannon follows the chariot between b and c over the soldiers on b5 and c5. The
    // chariot attacks a soldier each time, but the soldiers protect each other.
    let fen = "4k4/9/1r7/9/1PP6/9/9/2C6/9/5K3 w - - 0 1";
    let cycle = ["c2b2", "b7c7", "b2c2", "c7b7"];
    assert_eq!(
        xiangqi(fen, &cycle),
        loses(Side::Red, WinReason::PerpetualChase)
    );
}

#[test]
fn horse_chasing_a_protected_chariot_loses() {
    // AXF rule 15: a chariot protected by the other chariot on d9 is still chased by a
    // horse, which is worth less.
    let fen = "3rk4/9/9/3r5/4H4/9/9/9/9/5K3 w - - 0 1";
    let cycle = ["e5c4", "d6d7", "c4e5", "d7d6"];
    assert_eq!(
        xiangqi(fen, &cycle),
        loses(Side::Red, WinReason::PerpetualChase)
    );
}

#[test]
fn a_protected_cannon_is_not_chased_by_a_chariot() {
    let cycle = ["c1b1", "b7c7", "b1c1", "c7b7"];
    // The chariot on a7 protects the cannon on b7, and on c7 once b7 is empty.
    let protected = "4k4/9/rc7/9/9/9/9/9/2R6/3K5 w - - 0 1";
    assert_eq!(xiangqi(protected, &cycle), DRAW);
    // Without it the same cycle is a perpetual chase.
    let unprotected = "4k4/9/1c7/9/9/9/9/9/2R6/3K5 w - - 0 1";
    assert_eq!(
        xiangqi(unprotected, &cycle),
        loses(Side::Red, WinReason::PerpetualChase)
    );
}

#[test]
fn an_attack_that_already_stood_is_no_chase() {
    // AXF's example of a non-perpetual chase: the chariot attacks the cannon with every move,
    // but the cannon never runs out of the attack, so no move makes a new one.
    let fen = "4k4/9/1c7/9/9/9/9/9/1R7/3K5 w - - 0 1";
    assert_eq!(xiangqi(fen, &["b1b2", "b7b8", "b2b1", "b8b7"]), DRAW);
}

#[test]
fn offering_a_chariot_exchange_is_no_chase() {
    // AXF rule 40: the chariot keeps attacking the unprotected chariot, which could take it
    // back each time: an offer to exchange, which may be repeated.
    let fen = "4k4/9/1r7/9/9/9/9/9/2R6/3K5 w - - 0 1";
    assert_eq!(xiangqi(fen, &["c1b1", "b7c7", "b1c1", "c7b7"]), DRAW);
}

#[test]
fn a_soldier_may_chase() {
    // The crossed soldier follows the cannon between c and d: soldiers chase freely.
    let fen = "4k4/9/3c5/2P6/9/9/9/9/9/5K3 w - - 0 1";
    assert_eq!(xiangqi(fen, &["c6d6", "d7c7", "d6c6", "c7d7"]), DRAW);
}

#[test]
fn a_general_may_chase() {
    // The general follows the soldier along Red's back rank: generals chase freely.
    let fen = "5k3/9/9/9/9/9/9/9/3K5/4p4 w - - 0 1";
    assert_eq!(xiangqi(fen, &["d1e1", "e0d0", "e1d1", "d0e0"]), DRAW);
}

#[test]
fn a_pinned_chariot_does_not_chase() {
    let cycle = ["e2e3", "a3a2", "e3e2", "a2a3"];
    // The chariot on e8 pins the red chariot to its general: it may only move along the e
    // file, so its attacks on the cannon along the ranks cannot be carried out.
    let pinned = "5k3/4r4/9/9/9/9/c8/4R4/9/4K4 w - - 0 1";
    assert_eq!(xiangqi(pinned, &cycle), DRAW);
    // With the black chariot on i8 instead, the same moves chase the cannon.
    let free = "5k3/8r/9/9/9/9/c8/4R4/9/4K4 w - - 0 1";
    assert_eq!(
        xiangqi(free, &cycle),
        loses(Side::Red, WinReason::PerpetualChase)
    );
}

#[test]
fn a_capture_that_lets_the_generals_face_is_no_attack() {
    let cycle = ["e2e3", "a3a2", "e3e2", "a2a3"];
    // The cannon is all that stands between the generals: it may not leave the e file, so
    // its attacks on the chariot over the soldiers on c3 and c2 cannot be carried out.
    let pinned = "4k4/9/9/9/9/9/r1p6/2p1C4/9/4K4 w - - 0 1";
    assert_eq!(xiangqi(pinned, &cycle), DRAW);
    // With the black general on f9 the cannon is free, and chasing the chariot loses.
    let free = "5k3/9/9/9/9/9/r1p6/2p1C4/9/4K4 w - - 0 1";
    assert_eq!(
        xiangqi(free, &cycle),
        loses(Side::Red, WinReason::PerpetualChase)
    );
}

#[test]
fn a_pinned_protector_does_not_protect() {
    let cycle = ["c1b1", "b7c7", "b1c1", "c7b7"];
    // The chariot on d7 could take back on c7, but the red chariot on d1 pins it to its
    // general on d9: the cannon is unprotected, and chasing it loses.
    let pinned = "3k5/9/1c1r5/9/9/9/9/9/2RR5/4K4 w - - 0 1";
    assert_eq!(
        xiangqi(pinned, &cycle),
        loses(Side::Red, WinReason::PerpetualChase)
    );
    // Without the pin the chariot on d7 protects the cannon on c7: not a perpetual chase.
    let free = "3k5/9/1c1r5/9/9/9/9/9/2R6/4K4 w - - 0 1";
    assert_eq!(xiangqi(free, &cycle), DRAW);
}

#[test]
fn a_cannon_that_loses_its_screen_does_not_protect() {
    let cycle = ["c8b8", "b3c3", "b8c8", "c3b3"];
    // The cannons on b9 and c9 "protect" the soldier over the red chariot, which is the
    // screen; once the chariot takes the soldier there is no screen left. The chariot also
    // attacks a cannon each time, but a different one: that alone is allowed (AXF rule 32).
    let screened = "1cc1k4/2R6/9/9/9/9/1p7/9/9/3K5 w - - 0 1";
    assert_eq!(
        xiangqi(screened, &cycle),
        loses(Side::Red, WinReason::PerpetualChase)
    );
    // A chariot on a3 really protects the soldier: then nothing is chased perpetually.
    let protected = "1cc1k4/2R6/9/9/9/9/rp7/9/9/3K5 w - - 0 1";
    assert_eq!(xiangqi(protected, &cycle), DRAW);
}

#[test]
fn a_discovered_attack_chases() {
    // The horse steps off the 7th rank and the 5th in turn, each time opening a chariot's
    // line to the cannon, which runs between g7 and g5. The cannon attacks a chariot over the
    // horse each time, but a different one.
    let fen = "9/5k3/R3H1c2/9/R8/9/9/9/9/4K4 w - - 0 1";
    let cycle = ["e7d5", "g7g5", "d5e7", "g5g7"];
    assert_eq!(
        xiangqi(fen, &cycle),
        loses(Side::Red, WinReason::PerpetualChase)
    );
}

#[test]
fn one_check_one_chase_is_allowed_but_the_chase_it_answers_is_not() {
    // AXF rule 18, diagrams 37 and 38: the cannon checks from e7 (over the advisor) and
    // chases the horse on d9 from d7 (over the horse on d8); the chariot chases the cannon
    // with every move, blocking the check as it does. Only the chariot's side loses.
    let fen = "3H1k3/3h5/3c5/9/9/9/4R4/9/4A4/4K4 w - - 0 1";
    let cycle = ["e3d3", "d7e7", "d3e3", "e7d7"];
    assert_eq!(
        xiangqi(fen, &cycle),
        loses(Side::Red, WinReason::PerpetualChase)
    );
}

#[test]
fn jieqi_covered_piece_protects_as_the_piece_of_its_point() {
    // The covered piece on b9 stands on a horse's point, so it protects c7 as a horse (the
    // deal makes it a soldier, which would protect nothing): the chariot chases the cannon
    // on b7 only, not on c7, and that is no perpetual chase.
    let covered = "1x2k4/9/1c7/9/9/9/9/9/R8/3K5 w - - 0 1 p";
    let cycle = ["b7c7", "b1c1", "c7b7", "c1b1"];
    assert_eq!(verdict(Variant::Jieqi, covered, &["a1b1"], &cycle), DRAW);
    let bare = "4k4/9/1c7/9/9/9/9/9/R8/3K5 w - - 0 1";
    assert_eq!(
        verdict(Variant::Jieqi, bare, &["a1b1"], &cycle),
        loses(Side::Red, WinReason::PerpetualChase)
    );
}

#[test]
fn jieqi_covered_piece_attacks_as_the_piece_of_its_point() {
    // The soldier steps between b5 and c5, a screen in turn for the covered piece on b2 (a
    // cannon's point, so a cannon, whatever the deal says) and the cannon on c2: every step
    // attacks the running chariot. The chariot attacks the covered piece and the cannon in
    // turn.
    let cycle = ["c5b5", "b7c7", "b5c5", "c7b7"];
    let covered = "4k4/9/1r7/9/2P6/9/9/1XC6/9/3K5 w - - 0 1 P";
    assert_eq!(
        jieqi(covered, &cycle),
        loses(Side::Red, WinReason::PerpetualChase)
    );
    // Without the covered piece only every other step attacks: a draw.
    let bare = "4k4/9/1r7/9/2P6/9/9/2C6/9/3K5 w - - 0 1";
    assert_eq!(jieqi(bare, &cycle), DRAW);
}
