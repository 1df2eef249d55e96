//! The verdict of a finished game as it was announced, kept in its record: history, stats,
//! replays, pictures and ratings read it and never judge the moves again, so a later change
//! to the rules rewrites no finished game (see `docs/rules.md`, "Rules revisions").

use jieqi_rules::{DrawReason, Outcome, Side, WinReason};
use serde::{Deserialize, Serialize};

/// How a finished game ended: the winner's colour and why, a draw and why, or an abort.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Verdict {
    /// One side won.
    Win {
        /// The winner.
        winner: Colour,
        /// Why.
        reason: WinBy,
    },
    /// Nobody won.
    Draw(DrawBy),
    /// Called off before it really began.
    Aborted,
}

/// A side's colour, as stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Colour {
    /// Red (Banqi: the red pieces).
    Red,
    /// Black.
    Black,
}

/// Why a game was won, as stored (the rules crate's [`WinReason`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum WinBy {
    /// Checkmate.
    Checkmate,
    /// The loser had no legal move.
    NoLegalMove,
    /// The loser resigned.
    Resignation,
    /// The loser ran out of time.
    Timeout,
    /// The loser checked perpetually.
    PerpetualCheck,
    /// The loser chased perpetually.
    PerpetualChase,
}

/// Why a game was drawn, as stored (the rules crate's [`DrawReason`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DrawBy {
    /// Both agreed.
    Agreement,
    /// The no-progress limit.
    NoProgress,
    /// Repetition with nobody to blame.
    Repetition,
    /// A time-out against a side that cannot mate, under rules that draw it (`pychess`).
    /// Added by schema 8, last (an older release cannot read it: see `codec::older`).
    TimeoutWithoutMatingMaterial,
}

impl From<Outcome> for Verdict {
    fn from(outcome: Outcome) -> Verdict {
        match outcome {
            Outcome::Win { winner, reason } => Verdict::Win {
                winner: match winner {
                    Side::Red => Colour::Red,
                    Side::Black => Colour::Black,
                },
                reason: match reason {
                    WinReason::Checkmate => WinBy::Checkmate,
                    WinReason::NoLegalMove => WinBy::NoLegalMove,
                    WinReason::Resignation => WinBy::Resignation,
                    WinReason::Timeout => WinBy::Timeout,
                    WinReason::PerpetualCheck => WinBy::PerpetualCheck,
                    WinReason::PerpetualChase => WinBy::PerpetualChase,
                },
            },
            Outcome::Draw(reason) => Verdict::Draw(match reason {
                DrawReason::Agreement => DrawBy::Agreement,
                DrawReason::NoProgress => DrawBy::NoProgress,
                DrawReason::Repetition => DrawBy::Repetition,
                DrawReason::TimeoutWithoutMatingMaterial => DrawBy::TimeoutWithoutMatingMaterial,
            }),
            Outcome::Aborted => Verdict::Aborted,
        }
    }
}

impl From<Verdict> for Outcome {
    fn from(verdict: Verdict) -> Outcome {
        match verdict {
            Verdict::Win { winner, reason } => Outcome::Win {
                winner: match winner {
                    Colour::Red => Side::Red,
                    Colour::Black => Side::Black,
                },
                reason: match reason {
                    WinBy::Checkmate => WinReason::Checkmate,
                    WinBy::NoLegalMove => WinReason::NoLegalMove,
                    WinBy::Resignation => WinReason::Resignation,
                    WinBy::Timeout => WinReason::Timeout,
                    WinBy::PerpetualCheck => WinReason::PerpetualCheck,
                    WinBy::PerpetualChase => WinReason::PerpetualChase,
                },
            },
            Verdict::Draw(reason) => Outcome::Draw(match reason {
                DrawBy::Agreement => DrawReason::Agreement,
                DrawBy::NoProgress => DrawReason::NoProgress,
                DrawBy::Repetition => DrawReason::Repetition,
                DrawBy::TimeoutWithoutMatingMaterial => DrawReason::TimeoutWithoutMatingMaterial,
            }),
            Verdict::Aborted => Outcome::Aborted,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_outcome_is_stored_and_read_back_as_it_was() {
        let mut outcomes = vec![Outcome::Aborted];
        for winner in Side::ALL {
            for reason in [
                WinReason::Checkmate,
                WinReason::NoLegalMove,
                WinReason::Resignation,
                WinReason::Timeout,
                WinReason::PerpetualCheck,
                WinReason::PerpetualChase,
            ] {
                outcomes.push(Outcome::Win { winner, reason });
            }
        }
        for reason in [
            DrawReason::Agreement,
            DrawReason::NoProgress,
            DrawReason::Repetition,
            DrawReason::TimeoutWithoutMatingMaterial,
        ] {
            outcomes.push(Outcome::Draw(reason));
        }
        for outcome in outcomes {
            let verdict = Verdict::from(outcome);
            let bytes = postcard::to_allocvec(&verdict).unwrap();
            let read: Verdict = postcard::from_bytes(&bytes).unwrap();
            assert_eq!(Outcome::from(read), outcome);
        }
    }
}
