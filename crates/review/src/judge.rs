//! The figures of a review, defined once.
//!
//! - **Value** ([`Eval`]): the engine's value of a position or move for the side to move, in
//!   hundredths of a soldier, or a forced mate. For the figures below it is capped at
//!   ±[`DECISIVE`] (a mate counts as the cap).
//! - **Win chance** ([`win_percent`]): `50 + 50 · (2 / (1 + e^(−0.00368208 · v)) − 1)` for a
//!   value `v`, from 0 to 100 (lichess's published curve, with a soldier in place of a
//!   pawn).
//! - **Drop** ([`crate::MoveVerdict::win_drop`]): win chance of the engine's choice minus win
//!   chance of the move played, both from the mover's view at that moment, never below 0.
//! - **Judgement** ([`Judgement::of_drop`]): a drop of 5 points or more is an inaccuracy, 10
//!   a mistake, 15 a blunder (lichess's thresholds on the same scale).
//! - **Move accuracy** ([`move_accuracy`]): `103.1668 · e^(−0.04354 · drop) − 3.1669`,
//!   clamped to 0..100 (lichess's formula): 100 for the engine's move, about 65 for a drop of
//!   10 points.
//! - **Player accuracy** ([`crate::GameReview::accuracy`]): the plain mean of that player's
//!   move accuracies.

use jieqi_engine::Score;
use serde::{Deserialize, Serialize};

/// The cap on values used by the figures and the graph: twenty soldiers is a won game.
pub const DECISIVE: i32 = 2_000;

/// The engine's value for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Eval {
    /// Hundredths of a soldier.
    Centi(i32),
    /// A forced mate in this many plies: positive when the side to move mates, negative (or
    /// zero) when it is mated.
    Mate(i32),
}

impl Eval {
    /// The value of an engine score.
    pub fn of_score(score: Score) -> Eval {
        match score {
            Score::Centi(c) => Eval::Centi(c),
            Score::Mate(n) => Eval::Mate(n),
        }
    }

    /// Hundredths of a soldier, capped at ±[`DECISIVE`]; a mate is the cap.
    pub fn centi(self) -> i32 {
        match self {
            Eval::Centi(c) => c.clamp(-DECISIVE, DECISIVE),
            Eval::Mate(n) if n > 0 => DECISIVE,
            Eval::Mate(_) => -DECISIVE,
        }
    }

    /// The same value for the other side.
    pub fn flipped(self) -> Eval {
        match self {
            Eval::Centi(c) => Eval::Centi(c.saturating_neg()),
            Eval::Mate(n) => Eval::Mate(n.saturating_neg()),
        }
    }
}

/// The chance to win, 0 to 100, of a value for the side to move.
pub fn win_percent(eval: Eval) -> f64 {
    let v = f64::from(eval.centi());
    50.0 + 50.0 * (2.0 / (1.0 + (-0.003_682_08 * v).exp()) - 1.0)
}

/// The accuracy of a move that dropped `drop` points of win chance, 0 to 100.
pub fn move_accuracy(drop: f64) -> f64 {
    (103.166_8 * (-0.043_54 * drop.max(0.0)).exp() - 3.166_9).clamp(0.0, 100.0)
}

/// How bad a move was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Judgement {
    /// Lost less than 5 points of win chance.
    Good,
    /// Lost 5 to 10 points.
    Inaccuracy,
    /// Lost 10 to 15 points.
    Mistake,
    /// Lost 15 points or more.
    Blunder,
}

impl Judgement {
    /// The judgement of a move that lost `drop` points of win chance.
    pub fn of_drop(drop: f64) -> Judgement {
        if drop >= 15.0 {
            Judgement::Blunder
        } else if drop >= 10.0 {
            Judgement::Mistake
        } else if drop >= 5.0 {
            Judgement::Inaccuracy
        } else {
            Judgement::Good
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_even_position_is_an_even_chance_and_mates_are_certain() {
        assert!((win_percent(Eval::Centi(0)) - 50.0).abs() < 1e-9);
        assert!(win_percent(Eval::Mate(3)) > 99.0);
        assert!(win_percent(Eval::Mate(-2)) < 1.0);
        assert!(win_percent(Eval::Centi(300)) > win_percent(Eval::Centi(100)));
    }

    #[test]
    fn the_engines_move_is_fully_accurate_and_a_blunder_is_not() {
        assert!((move_accuracy(0.0) - 100.0).abs() < 0.01);
        assert!(move_accuracy(10.0) > 60.0 && move_accuracy(10.0) < 70.0);
        assert!(move_accuracy(80.0) < 5.0);
    }

    #[test]
    fn thresholds_follow_the_documented_points() {
        assert_eq!(Judgement::of_drop(4.9), Judgement::Good);
        assert_eq!(Judgement::of_drop(5.0), Judgement::Inaccuracy);
        assert_eq!(Judgement::of_drop(12.0), Judgement::Mistake);
        assert_eq!(Judgement::of_drop(40.0), Judgement::Blunder);
    }

    #[test]
    fn values_are_capped_and_flip_sides() {
        assert_eq!(Eval::Centi(9_999).centi(), DECISIVE);
        assert_eq!(Eval::Mate(-1).centi(), -DECISIVE);
        assert_eq!(Eval::Centi(120).flipped(), Eval::Centi(-120));
        assert_eq!(Eval::Mate(3).flipped(), Eval::Mate(-3));
    }
}
