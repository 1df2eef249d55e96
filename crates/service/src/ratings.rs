//! Glicko-2 ratings per variant, updated after every rated game (aborted games are not
//! rated). The arithmetic is the `skillratings` crate's; this module keeps the record counts.

use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};

use crate::store::VariantStats;

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

#[cfg(test)]
mod tests {
    use super::*;

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
