//! Judging repeated positions and long checks and chases, over a small record of each ply
//! ([`PlyFacts`]) so the judge needs no board.
//!
//! Where this is simpler than the full Asian rules (WXF/AXF "Asian rules" and the Chinese
//! rule book), on purpose, as `rules.md` asks:
//! - Only two kinds of forcing moves are told apart: a check, and a chase. A side that mixes
//!   checks and chases in one cycle (a "one check, one chase" cycle, forbidden by the Asian
//!   rules) is not blamed here; the cycle is a draw.
//! - A chase is a move after which *the moved piece* attacks an unprotected enemy piece; a
//!   discovered attack by another piece does not count.
//! - "Unprotected" means no enemy piece attacks the target's point. The full rules also call
//!   a protected piece chased when the chaser is worth less (a horse chasing a protected
//!   chariot), and check whether the capture would itself be legal (a pinned chaser, a
//!   protector that is pinned or that would stand in the way after the capture); we do not.
//! - The full rules let a general or a soldier chase freely; we blame any chasing piece.
//! - Which cycle is judged: every ply from the first occurrence of the repeated position to
//!   its third occurrence (two cycles); a side is a perpetual checker (chaser) only if every
//!   one of its moves in that span checks (chases the same piece).
//! - Idle moves, offered exchanges and the many special cases of the rule books are not
//!   modelled: anything that is not a perpetual check or a perpetual chase is a draw.

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
    /// Points of the enemy pieces the moved piece attacks after the ply that count as chased:
    /// unprotected, not a general, not a soldier on its own side of the river (a covered piece
    /// counts as the piece of its point).
    pub chased: Vec<Square>,
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
    let mut at = target;
    let mut run = 0;
    for ply in plies.iter().rev() {
        if ply.mover == side {
            if !ply.chased.contains(&at) {
                break;
            }
            run += 1;
        } else if ply.mv.to == at {
            // The chased piece came here with this move: before it, it stood on `from`.
            at = ply.mv.from;
        }
    }
    run
}

/// Whether the Tencent limit forbids a move whose facts are `candidate`, played after
/// `history`.
pub(crate) fn tencent_forbids(history: &[PlyFacts], candidate: &PlyFacts) -> Option<LongForcing> {
    let side = candidate.mover;
    if candidate.gave_check && check_run(history, side) >= TENCENT_LIMIT {
        return Some(LongForcing::Check);
    }
    // The candidate does not move enemy pieces, so a target after it stood there before it.
    candidate
        .chased
        .iter()
        .find(|&&target| chase_run(history, side, target) >= TENCENT_LIMIT)
        .map(|&target| LongForcing::Chase(target))
}

/// The result that repetition gives after the last ply of `history`, if any.
/// `start` is the zobrist key of the position before the first ply.
pub(crate) fn judge(rule: RepetitionRule, start: u64, history: &[PlyFacts]) -> Option<Outcome> {
    let last = history.last()?;
    let key = last.zobrist;
    // Position index i is the position after i plies (0 = the start).
    let occurrences: Vec<usize> = std::iter::once(start)
        .chain(history.iter().map(|p| p.zobrist))
        .enumerate()
        .filter_map(|(i, z)| (z == key).then_some(i))
        .collect();
    match rule {
        RepetitionRule::TencentLimit => None,
        RepetitionRule::SixthOccurrenceDraw => {
            (occurrences.len() >= 6).then_some(Outcome::Draw(DrawReason::Repetition))
        }
        RepetitionRule::ThirdOccurrenceJudged => {
            if occurrences.len() < 3 {
                return None;
            }
            // The plies after the first occurrence lead from it to the third.
            let span = &history[occurrences[0]..];
            Some(judge_cycle(span))
        }
    }
}

/// Blames a perpetual checker, else a perpetual chaser, else calls the cycle a draw.
fn judge_cycle(span: &[PlyFacts]) -> Outcome {
    let checks = |side: Side| {
        let moves = span.iter().filter(|p| p.mover == side).count();
        moves > 0 && check_run(span, side) == moves
    };
    let chases = |side: Side| {
        let moves = span.iter().filter(|p| p.mover == side).count();
        let Some(last_own) = span.iter().rposition(|p| p.mover == side) else {
            return false;
        };
        let upto = &span[..=last_own];
        upto[last_own]
            .chased
            .iter()
            .any(|&target| chase_run(upto, side, target) == moves)
    };
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
            chased: chased.iter().map(|s| sq(s)).collect(),
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
    fn chasing_different_pieces_is_not_a_perpetual_chase() {
        let mut plies = cycle(false, false, &["c5"], &[]);
        plies[2].chased = vec![sq("d5")];
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
