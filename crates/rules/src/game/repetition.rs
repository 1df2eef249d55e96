//! Judging repeated positions and long checks and chases, over a small record of each ply
//! ([`PlyFacts`]) so the judge needs no board.
//!
//! This is the Asian (AXF) rule as Pikafish and Fairy-Stockfish implement it:
//! - **What a chase is** is decided on the board (`position/chase.rs`): a legal capture of an
//!   unprotected piece, or of a chariot by a horse or cannon (and of a chariot, cannon or
//!   horse by an advisor or elephant), protected or not; generals and soldiers chase freely;
//!   a covered Jieqi piece counts as the piece of its point. The board game works it out for
//!   the plies that need it: every ply under the Tencent limit, and otherwise the plies of a
//!   cycle when a position occurs for the third time.
//! - **Only new chases count.** A ply chases the enemy pieces its side chases after it and did
//!   not chase before it (the exact difference, as Pikafish takes it): a direct attack by the
//!   moved piece, a discovered one, or an attack that became a chase because the move took
//!   away the target's protection. An attack that stood before the move is no chase, so a
//!   piece that does not run out of an attack is not being chased.
//! - **The cycle** judged is every ply from the first occurrence of the repeated position to
//!   its third occurrence.
//! - **Perpetual check**: every move of the side in the cycle gave check.
//! - **Perpetual chase**: some enemy piece was newly chased by every move of the side in the
//!   cycle, followed as it runs (the intersection of the chased sets, each mapped back
//!   through the opponent's moves). Chasing two pieces in turn is allowed (AXF rule 32).
//!   A checking move counts as a chase of the pieces it also newly chases, as in
//!   Fairy-Stockfish. A side that alternates checks with chases of other pieces ("one check,
//!   one chase") is not forbidden: AXF rule 18 (diagrams 37 and 38) allows it, while the
//!   other side's perpetual chase of the checking piece still loses. Neither engine blames
//!   the alternating side either (Pikafish goes further and draws every cycle with a check
//!   in it; we follow the rule book).
//! - **Verdict**: if a side checked perpetually, it loses, and if both did it is a draw
//!   (check outranks chase: a perpetual checker facing a perpetual chaser loses, as in both
//!   engines). Otherwise a lone perpetual chaser loses, mutual perpetual chase is a draw, and
//!   everything else is a draw by repetition.
//!
//! Left out, as in both engines: threats of mate and offers to sacrifice are idle moves here,
//! and the rule book's finer cases (a chariot that cannot move because a horse pins it is not
//! chased by that horse, AXF rule 19) are judged by the general definition.

use crate::moves::Move;
use crate::outcome::{DrawReason, Outcome, WinReason};
use crate::types::{Side, Square};

use super::options::RepetitionRule;

/// The Tencent limit: a side may check, or chase the same piece, this many turns in a row,
/// and not once more.
pub(crate) const TENCENT_LIMIT: usize = 6;

/// What the repetition rules need to know about one ply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct PlyFacts {
    /// The position after the ply (placement with covered pieces by side, side to move).
    pub zobrist: u64,
    /// Who played it.
    pub mover: Side,
    /// The move, to follow chased pieces as they run.
    pub mv: Move,
    /// Whether the ply left the opponent in check.
    pub gave_check: bool,
    /// Points (bit = square index) of the enemy pieces the ply newly chases, where they
    /// stand after it. Worked out at make time under the Tencent limit, which needs it at
    /// every ply, and otherwise only for the plies of a cycle being judged (most games never
    /// repeat a position three times, so they never pay for chase detection); `0` elsewhere.
    pub chased: u128,
}

/// The bit of `sq` in a square mask.
fn bit(sq: Square) -> u128 {
    1u128 << sq.index()
}

/// Why the Tencent limit forbids a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LongForcing {
    /// It would be the seventh check in a row.
    Check,
    /// It would chase the piece on this point for the seventh turn in a row.
    Chase(Square),
}

/// How many of `side`'s moves in a row, counted back from the end of `plies`, gave check.
pub(crate) fn check_run(plies: &[PlyFacts], side: Side) -> usize {
    plies
        .iter()
        .rev()
        .filter(|p| p.mover == side)
        .take_while(|p| p.gave_check)
        .count()
}

/// How many of `side`'s moves in a row, counted back from the end of `plies`, chased the
/// enemy piece that stands on `target` at the end of `plies`. The piece is followed back
/// through the opponent's moves, so a piece that runs and is chased again still counts.
pub(crate) fn chase_run(plies: &[PlyFacts], side: Side, target: Square) -> usize {
    let mut at = bit(target);
    let mut run = 0;
    for ply in plies.iter().rev() {
        if ply.mover == side {
            if ply.chased & at == 0 {
                break;
            }
            run += 1;
        } else {
            at = before_move(at, ply.mv);
        }
    }
    run
}

/// Where the pieces on `points` after `mv` (which captured nothing on them) stood before it.
fn before_move(points: u128, mv: Move) -> u128 {
    if points & bit(mv.to) != 0 {
        (points & !bit(mv.to)) | bit(mv.from)
    } else {
        points
    }
}

/// Whether some enemy piece was newly chased by every one of `side`'s moves in `plies`,
/// followed as it ran. False when `side` has no move in `plies`.
pub(crate) fn chases_throughout(plies: &[PlyFacts], side: Side) -> bool {
    // Walking back in time: the points the pieces chased by every later move stood on then.
    let mut at: Option<u128> = None;
    for ply in plies.iter().rev() {
        at = match (ply.mover == side, at) {
            (true, None) => Some(ply.chased),
            (true, Some(points)) => Some(points & ply.chased),
            (false, Some(points)) => Some(before_move(points, ply.mv)),
            (false, None) => None,
        };
        if at == Some(0) {
            return false;
        }
    }
    at.is_some()
}

/// The squares of a mask, in index order.
pub(crate) fn squares(mut mask: u128) -> impl Iterator<Item = Square> {
    std::iter::from_fn(move || {
        while mask != 0 {
            let i = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            if let Some(sq) = Square::from_index(i) {
                return Some(sq);
            }
        }
        None
    })
}

/// Whether the Tencent limit forbids a move whose facts are `candidate`, played after
/// `history`.
pub(crate) fn tencent_forbids(history: &[PlyFacts], candidate: &PlyFacts) -> Option<LongForcing> {
    let side = candidate.mover;
    if candidate.gave_check && check_run(history, side) >= TENCENT_LIMIT {
        return Some(LongForcing::Check);
    }
    // The candidate does not move enemy pieces, so a target after it stood there before it.
    squares(candidate.chased)
        .find(|&target| chase_run(history, side, target) >= TENCENT_LIMIT)
        .map(LongForcing::Chase)
}

/// How often the position after the last ply of `history` has occurred, and the index of
/// its first occurrence (position `i` is the one after `i` plies; `0` is the start, whose
/// key is `start`). `(0, 0)` for an empty history.
fn occurrences(start: u64, history: &[PlyFacts]) -> (usize, usize) {
    let Some(last) = history.last() else {
        return (0, 0);
    };
    let mut first = None;
    let mut count = 0;
    for (i, z) in std::iter::once(start)
        .chain(history.iter().map(|p| p.zobrist))
        .enumerate()
    {
        if z == last.zobrist {
            first.get_or_insert(i);
            count += 1;
        }
    }
    (count, first.unwrap_or(0))
}

/// If the last ply of `history` made its position occur for the third time (or more), the
/// index in `history` of the first ply of the cycle to judge: the one after the first
/// occurrence.
pub(crate) fn cycle_start(start: u64, history: &[PlyFacts]) -> Option<usize> {
    let (count, first) = occurrences(start, history);
    (count >= 3).then_some(first)
}

/// The result that repetition gives after the last ply of `history`, if any.
/// `start` is the zobrist key of the position before the first ply. Under
/// [`RepetitionRule::ThirdOccurrenceJudged`] the chases of the plies from
/// [`cycle_start`] on must be known.
pub(crate) fn judge(rule: RepetitionRule, start: u64, history: &[PlyFacts]) -> Option<Outcome> {
    let (count, first) = occurrences(start, history);
    match rule {
        RepetitionRule::TencentLimit => None,
        RepetitionRule::SixthOccurrenceDraw => {
            (count >= 6).then_some(Outcome::Draw(DrawReason::Repetition))
        }
        // The plies after the first occurrence lead from it to the third.
        RepetitionRule::ThirdOccurrenceJudged => {
            (count >= 3).then(|| judge_cycle(&history[first..]))
        }
    }
}

/// Blames a perpetual checker, else a perpetual chaser, else calls the cycle a draw.
fn judge_cycle(span: &[PlyFacts]) -> Outcome {
    let checks = |side: Side| {
        let moves = span.iter().filter(|p| p.mover == side).count();
        moves > 0 && check_run(span, side) == moves
    };
    let chases = |side: Side| chases_throughout(span, side);
    let blame = |red: bool, black: bool, reason: WinReason| match (red, black) {
        (true, false) => Some(Outcome::Win {
            winner: Side::Black,
            reason,
        }),
        (false, true) => Some(Outcome::Win {
            winner: Side::Red,
            reason,
        }),
        _ => None,
    };
    let (red_checks, black_checks) = (checks(Side::Red), checks(Side::Black));
    if red_checks || black_checks {
        // Both checking every move cannot be told apart: a draw.
        return blame(red_checks, black_checks, WinReason::PerpetualCheck)
            .unwrap_or(Outcome::Draw(DrawReason::Repetition));
    }
    blame(
        chases(Side::Red),
        chases(Side::Black),
        WinReason::PerpetualChase,
    )
    .unwrap_or(Outcome::Draw(DrawReason::Repetition))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().unwrap_or_else(|_| panic!("bad square {s}"))
    }

    fn ply(z: u64, mover: Side, mv: &str, check: bool, chased: &[&str]) -> PlyFacts {
        PlyFacts {
            zobrist: z,
            mover,
            mv: Move::new(sq(&mv[..2]), sq(&mv[2..])),
            gave_check: check,
            chased: chased.iter().fold(0, |m, s| m | bit(sq(s))),
        }
    }

    /// Two shuffles of a Red piece between a0/a1 and a Black piece between i9/i8:
    /// positions 0 -> 1 -> 2 -> 3 -> 0 -> 1 -> 2 -> 3 -> 0 (third occurrence of 0).
    fn cycle(
        red_check: bool,
        black_check: bool,
        red_chase: &[&str],
        black_chase: &[&str],
    ) -> Vec<PlyFacts> {
        let mut plies = Vec::new();
        for _ in 0..2 {
            plies.push(ply(1, Side::Red, "a0a1", red_check, red_chase));
            plies.push(ply(2, Side::Black, "i9i8", black_check, black_chase));
            plies.push(ply(3, Side::Red, "a1a0", red_check, red_chase));
            plies.push(ply(0, Side::Black, "i8i9", black_check, black_chase));
        }
        plies
    }

    #[test]
    fn nothing_happens_before_the_third_occurrence() {
        let plies = cycle(true, false, &[], &[]);
        assert_eq!(
            judge(RepetitionRule::ThirdOccurrenceJudged, 0, &plies[..7]),
            None
        );
    }

    #[test]
    fn perpetual_checker_loses_on_the_third_occurrence() {
        let plies = cycle(true, false, &[], &[]);
        assert_eq!(
            judge(RepetitionRule::ThirdOccurrenceJudged, 0, &plies),
            Some(Outcome::Win {
                winner: Side::Black,
                reason: WinReason::PerpetualCheck
            })
        );
    }

    #[test]
    fn check_outranks_chase() {
        let plies = cycle(false, true, &["c5"], &[]);
        assert_eq!(
            judge(RepetitionRule::ThirdOccurrenceJudged, 0, &plies),
            Some(Outcome::Win {
                winner: Side::Red,
                reason: WinReason::PerpetualCheck
            })
        );
    }

    #[test]
    fn perpetual_chaser_loses_when_nobody_checks() {
        let plies = cycle(false, false, &[], &["c5"]);
        assert_eq!(
            judge(RepetitionRule::ThirdOccurrenceJudged, 0, &plies),
            Some(Outcome::Win {
                winner: Side::Red,
                reason: WinReason::PerpetualChase
            })
        );
    }

    #[test]
    fn mutual_perpetual_check_is_a_draw() {
        let plies = cycle(true, true, &[], &[]);
        assert_eq!(
            judge(RepetitionRule::ThirdOccurrenceJudged, 0, &plies),
            Some(Outcome::Draw(DrawReason::Repetition))
        );
    }

    #[test]
    fn mutual_perpetual_chase_is_a_draw() {
        let plies = cycle(false, false, &["c5"], &["d4"]);
        assert_eq!(
            judge(RepetitionRule::ThirdOccurrenceJudged, 0, &plies),
            Some(Outcome::Draw(DrawReason::Repetition))
        );
    }

    #[test]
    fn one_check_one_chase_is_allowed_but_not_the_chase_it_meets() {
        // Red checks and chases in turn (AXF rule 18); Black chases one piece throughout.
        let mut plies = cycle(false, false, &["c5"], &["d4"]);
        for ply in plies.iter_mut().filter(|p| p.mv.to == sq("a1")) {
            ply.gave_check = true;
            ply.chased = 0;
        }
        assert_eq!(
            judge(RepetitionRule::ThirdOccurrenceJudged, 0, &plies),
            Some(Outcome::Win {
                winner: Side::Red,
                reason: WinReason::PerpetualChase
            })
        );
    }

    #[test]
    fn a_check_that_also_chases_the_piece_keeps_the_chase_going() {
        let mut plies = cycle(false, false, &["c5"], &[]);
        for ply in plies.iter_mut().filter(|p| p.mv.to == sq("a1")) {
            ply.gave_check = true;
        }
        assert_eq!(
            judge(RepetitionRule::ThirdOccurrenceJudged, 0, &plies),
            Some(Outcome::Win {
                winner: Side::Black,
                reason: WinReason::PerpetualChase
            })
        );
    }

    #[test]
    fn chasing_different_pieces_is_not_a_perpetual_chase() {
        let mut plies = cycle(false, false, &["c5"], &[]);
        plies[2].chased = bit(sq("d5"));
        assert_eq!(
            judge(RepetitionRule::ThirdOccurrenceJudged, 0, &plies),
            Some(Outcome::Draw(DrawReason::Repetition))
        );
    }

    #[test]
    fn a_chased_piece_is_followed_when_it_runs() {
        // Red chases a Black piece that runs between c7 and c8.
        let mut plies = Vec::new();
        for _ in 0..2 {
            plies.push(ply(1, Side::Red, "a0a1", false, &["c7"]));
            plies.push(ply(2, Side::Black, "c7c8", false, &[]));
            plies.push(ply(3, Side::Red, "a1a0", false, &["c8"]));
            plies.push(ply(0, Side::Black, "c8c7", false, &[]));
        }
        assert_eq!(chase_run(&plies[..7], Side::Red, sq("c8")), 4);
        assert_eq!(
            judge(RepetitionRule::ThirdOccurrenceJudged, 0, &plies),
            Some(Outcome::Win {
                winner: Side::Black,
                reason: WinReason::PerpetualChase
            })
        );
    }

    #[test]
    fn vietnam_draws_on_the_sixth_occurrence_only() {
        let mut plies = cycle(true, false, &[], &[]);
        plies.extend(cycle(true, false, &[], &[]));
        // Position 0 occurs at the start and after plies 4, 8, 12, 16: five times.
        let five = &plies[..16];
        assert_eq!(judge(RepetitionRule::SixthOccurrenceDraw, 0, five), None);
        plies.extend(cycle(true, false, &[], &[]));
        assert_eq!(
            judge(RepetitionRule::SixthOccurrenceDraw, 0, &plies[..20]),
            Some(Outcome::Draw(DrawReason::Repetition))
        );
    }

    #[test]
    fn tencent_forbids_the_seventh_check_in_a_row() {
        let plies = cycle(true, false, &[], &[]);
        // Red has checked 4 times; two more are allowed, the third is not.
        let next = ply(1, Side::Red, "a0a1", true, &[]);
        assert_eq!(tencent_forbids(&plies, &next), None);
        let mut longer = plies.clone();
        longer.extend(cycle(true, false, &[], &[]));
        assert_eq!(tencent_forbids(&longer, &next), Some(LongForcing::Check));
        assert_eq!(tencent_forbids(&longer[..10], &next), None);
        assert_eq!(
            tencent_forbids(&longer[..12], &next),
            Some(LongForcing::Check)
        );
        let quiet = ply(1, Side::Red, "a0a1", false, &[]);
        assert_eq!(tencent_forbids(&longer, &quiet), None);
    }

    #[test]
    fn tencent_forbids_the_seventh_chase_of_one_piece() {
        let mut plies = cycle(false, false, &["c5"], &[]);
        plies.extend(cycle(false, false, &["c5"], &[]));
        let same = ply(1, Side::Red, "a0a1", false, &["c5"]);
        assert_eq!(
            tencent_forbids(&plies, &same),
            Some(LongForcing::Chase(sq("c5")))
        );
        let other = ply(1, Side::Red, "a0a1", false, &["d5"]);
        assert_eq!(tencent_forbids(&plies, &other), None);
        // Five chases so far: a sixth is allowed; after six, a seventh is not.
        assert_eq!(tencent_forbids(&plies[..10], &same), None);
        assert_eq!(
            tencent_forbids(&plies[..12], &same),
            Some(LongForcing::Chase(sq("c5")))
        );
    }
}
