//! Glicko-2 ratings per variant, updated after every rated game (aborted games are not
//! rated), and puzzle ratings, where a puzzle is rated as the solver's opponent. The
//! arithmetic is the `skillratings` crate's; this module keeps the record counts.

use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};

use crate::store::{PuzzleStats, VariantStats};

/// How the game went for the first player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// They won.
    Win,
    /// They lost.
    Loss,
    /// Nobody won.
    Draw,
}

/// Both players' stats after one game between them.
pub fn update(a: &VariantStats, b: &VariantStats, a_score: Score) -> (VariantStats, VariantStats) {
    let rating = |s: &VariantStats| Glicko2Rating {
        rating: s.rating,
        deviation: s.deviation,
        volatility: s.volatility,
    };
    let outcome = match a_score {
        Score::Win => Outcomes::WIN,
        Score::Loss => Outcomes::LOSS,
        Score::Draw => Outcomes::DRAW,
    };
    let (ra, rb) = glicko2(&rating(a), &rating(b), &outcome, &Glicko2Config::new());
    let mut a = VariantStats {
        rating: ra.rating,
        deviation: ra.deviation,
        volatility: ra.volatility,
        ..*a
    };
    let mut b = VariantStats {
        rating: rb.rating,
        deviation: rb.deviation,
        volatility: rb.volatility,
        ..*b
    };
    match a_score {
        Score::Win => {
            a.wins += 1;
            b.losses += 1;
        }
        Score::Loss => {
            a.losses += 1;
            b.wins += 1;
        }
        Score::Draw => {
            a.draws += 1;
            b.draws += 1;
        }
    }
    (a, b)
}

/// How sure a puzzle's first rating is: its generator's estimate, firmer than a new
/// player's (a puzzle's rating should move, but not by hundreds after one solve).
const PUZZLE_START_DEVIATION: f64 = 150.0;

/// A puzzle's rating before anyone solved it: its estimate from the set.
pub fn puzzle_start(estimate: u16) -> VariantStats {
    VariantStats {
        rating: f64::from(estimate),
        deviation: PUZZLE_START_DEVIATION,
        ..VariantStats::default()
    }
}

/// The solver's puzzle stats and the puzzle's rating after one attempt: a solve is a win
/// against the puzzle, a failure a loss. Streaks count too.
pub fn puzzle_update(
    solver: &PuzzleStats,
    puzzle: &VariantStats,
    solved: bool,
) -> (PuzzleStats, VariantStats) {
    let score = if solved { Score::Win } else { Score::Loss };
    let (rating, puzzle) = update(&solver.rating, puzzle, score);
    let mut solver = PuzzleStats {
        rating,
        ..solver.clone()
    };
    solver.count(solved);
    (solver, puzzle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solving_a_puzzle_raises_the_rating_and_the_streak_and_lowers_the_puzzle() {
        let start = PuzzleStats::default();
        let puzzle = puzzle_start(1500);
        let (solved, easier) = puzzle_update(&start, &puzzle, true);
        assert!(solved.rating.rating > start.rating.rating);
        assert!(easier.rating < puzzle.rating);
        assert_eq!(
            (solved.streak, solved.best_streak, solved.rating.wins),
            (1, 1, 1)
        );
        let (failed, harder) = puzzle_update(&solved, &easier, false);
        assert!(failed.rating.rating < solved.rating.rating);
        assert!(harder.rating > easier.rating);
        assert_eq!(
            (failed.streak, failed.best_streak, failed.rating.losses),
            (0, 1, 1)
        );
    }

    #[test]
    fn the_winner_gains_what_the_loser_drops_and_records_count() {
        let start = VariantStats::default();
        let (winner, loser) = update(&start, &start, Score::Win);
        assert!(winner.rating > start.rating);
        assert!(loser.rating < start.rating);
        assert!((winner.rating - start.rating - (start.rating - loser.rating)).abs() < 1e-6);
        assert_eq!((winner.wins, winner.losses, loser.losses), (1, 0, 1));
        let (a, b) = update(&winner, &loser, Score::Draw);
        assert!(a.rating < winner.rating && b.rating > loser.rating);
        assert_eq!((a.draws, b.draws), (1, 1));
    }
}
