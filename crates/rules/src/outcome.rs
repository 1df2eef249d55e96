//! How a game ended. Shared by all three games so the service reports results one way.

use std::fmt;

use crate::types::Side;

/// The end of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// One side won.
    Win {
        /// Who won.
        winner: Side,
        /// Why.
        reason: WinReason,
    },
    /// Nobody won.
    Draw(DrawReason),
    /// The game was called off before it really began (abandoned in its first two plies).
    Aborted,
}

/// Why a game was won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WinReason {
    /// The loser was in check with no legal move.
    Checkmate,
    /// The loser had no legal move without being in check (a loss in Xiangqi, Jieqi, Banqi).
    NoLegalMove,
    /// The loser resigned.
    Resignation,
    /// The loser did not move within the time per move.
    Timeout,
    /// The loser gave check with every move of a repeated cycle.
    PerpetualCheck,
    /// The loser chased the same piece (unprotected, or worth more than its attacker) with
    /// every move of a repeated cycle.
    PerpetualChase,
}

/// Why a game was drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrawReason {
    /// Both players agreed.
    Agreement,
    /// The no-progress limit (plies without a capture; Banqi: without a flip or capture).
    NoProgress,
    /// The same position occurred too often with neither side to blame.
    Repetition,
    /// A side ran out of time while its opponent could not mate (no piece that could cross
    /// the river and attack), under rules that score that a draw
    /// (`Rules::timeout_draws_without_mating_material`).
    TimeoutWithoutMatingMaterial,
}

impl Outcome {
    /// The winner, if any.
    pub fn winner(self) -> Option<Side> {
        match self {
            Outcome::Win { winner, .. } => Some(winner),
            _ => None,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win { winner, reason } => {
                let why = match reason {
                    WinReason::Checkmate => "checkmate",
                    WinReason::NoLegalMove => "the opponent has no legal move",
                    WinReason::Resignation => "resignation",
                    WinReason::Timeout => "time-out",
                    WinReason::PerpetualCheck => "perpetual check by the loser",
                    WinReason::PerpetualChase => "perpetual chase by the loser",
                };
                write!(f, "{winner} wins by {why}")
            }
            Outcome::Draw(DrawReason::Agreement) => f.write_str("draw by agreement"),
            Outcome::Draw(DrawReason::NoProgress) => f.write_str("draw: no capture for too long"),
            Outcome::Draw(DrawReason::Repetition) => f.write_str("draw by repetition"),
            Outcome::Draw(DrawReason::TimeoutWithoutMatingMaterial) => {
                f.write_str("draw: time-out against a side that cannot mate")
            }
            Outcome::Aborted => f.write_str("aborted"),
        }
    }
}
