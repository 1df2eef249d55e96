//! `--sprt ELO0,ELO1`: a sequential probability ratio test, so that a match stops as soon as
//! its games settle whether the first contestant is at least `ELO1` stronger (H1) or at most
//! `ELO0` (H0), instead of playing a fixed number of games that is too many for a clear
//! change and too few for a small one.
//!
//! The test counts game pairs, not games: both games of a pair start from the same deal and
//! opening with the colours swapped, so a pair's two results are not independent, and the
//! pair's total (0, 1/2, 1, 3/2 or 2 points, the "pentanomial" count) is the unit of luck.
//! The log-likelihood ratio is the normal approximation of the generalised SPRT (as
//! engine-testing frameworks use it): with `m` the mean score a game over the pairs, `v` the
//! variance of a pair's mean score, `s0` and `s1` the scores that `ELO0` and `ELO1` imply,
//! `LLR = N (s1 - s0) (2m - s0 - s1) / (2v)` over `N` pairs. Both error rates are 5 %: the
//! match stops at `LLR >= ln(0.95 / 0.05)` for H1 and at `LLR <= ln(0.05 / 0.95)` for H0.
//!
//! The pairs are counted with one made-up pair more, half of it scoring 1/2 point and half
//! 3/2. Without it, pairs that all came out alike (a whitewash, or nothing but draws) would
//! show no spread and the test could never stop, or, with the spread taken as nearly zero,
//! would stop after a single pair. The made-up pair pulls the mean towards an even score
//! by one pair's weight, which leans the test towards H0 when the hypotheses are around 0.

use std::fmt;
use std::str::FromStr;

/// The chance of accepting H1 when H0 holds, and of accepting H0 when H1 holds.
const ERROR_RATE: f64 = 0.05;

/// How far apart the hypotheses may be set: beyond this a score is 0 or 1 to within a
/// thousandth and no game could tell them apart.
const ELO_LIMIT: f64 = 1_000.0;

/// The two hypotheses: the first contestant is `elo0` stronger than the second (H0), or
/// `elo1` stronger (H1), with `elo0 < elo1`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    elo0: f64,
    elo1: f64,
}

impl FromStr for Sprt {
    type Err = String;

    fn from_str(text: &str) -> Result<Sprt, String> {
        let Some((elo0, elo1)) = text.split_once(',') else {
            return Err(format!(
                "`{text}` is not ELO0,ELO1: give two Elo differences with a comma, like `0,10`"
            ));
        };
        let read = |word: &str| -> Result<f64, String> {
            let word = word.trim();
            let elo: f64 = word
                .parse()
                .map_err(|_| format!("`{word}` in `{text}` is not a number"))?;
            if elo.is_finite() && elo.abs() <= ELO_LIMIT {
                Ok(elo)
            } else {
                Err(format!(
                    "`{word}` in `{text}` is not an Elo difference between -{ELO_LIMIT} and {ELO_LIMIT}"
                ))
            }
        };
        let (elo0, elo1) = (read(elo0)?, read(elo1)?);
        if elo0 >= elo1 {
            return Err(format!(
                "in `{text}` ELO0 must be below ELO1: the test decides between \"no better than ELO0\" and \"at least ELO1\""
            ));
        }
        Ok(Sprt { elo0, elo1 })
    }
}

impl Sprt {
    /// The Elo difference of H0.
    pub fn elo0(self) -> f64 {
        self.elo0
    }

    /// The Elo difference of H1.
    pub fn elo1(self) -> f64 {
        self.elo1
    }
}

impl fmt::Display for Sprt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:+}/{:+} Elo", self.elo0, self.elo1)
    }
}

/// What the games so far say.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Verdict {
    /// The first contestant is at least `elo1` stronger.
    AcceptH1,
    /// The first contestant is at most `elo0` stronger.
    AcceptH0,
    /// Neither yet: more games are needed.
    Undecided,
}

/// The pairs played so far, counted by the first contestant's points in the pair.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pairs {
    /// `counts[k]`: pairs in which the first contestant scored `k` half-points (0 to 4).
    counts: [u32; 5],
}

impl Pairs {
    /// Adds a finished pair in which the first contestant scored `half_points` (0 for two
    /// losses, 4 for two wins). More than 4 is a caller's mistake and is counted as 4.
    pub fn add(&mut self, half_points: u8) {
        self.counts[usize::from(half_points.min(4))] += 1;
    }

    /// How many pairs have been added.
    pub fn len(&self) -> u32 {
        self.counts.iter().sum()
    }

    /// The pair counts, from two losses to two wins, for the summary line.
    pub fn counts(&self) -> [u32; 5] {
        self.counts
    }

    /// The log-likelihood ratio of H1 against H0 (0 before any pair).
    pub fn llr(&self, sprt: Sprt) -> f64 {
        if self.len() == 0 {
            return 0.0;
        }
        // The pairs with the made-up one of the module doc: half a pair at 1/2 point and
        // half at 3/2.
        let mut weights = self.counts.map(f64::from);
        weights[1] += 0.5;
        weights[3] += 0.5;
        let n: f64 = weights.iter().sum();
        // A pair's mean score a game: 0, 1/4, 1/2, 3/4 or 1.
        let score = |k: usize| k as f64 / 4.0;
        let mean: f64 = (0..5).map(|k| weights[k] * score(k)).sum::<f64>() / n;
        let variance: f64 = (0..5)
            .map(|k| weights[k] * (score(k) - mean).powi(2))
            .sum::<f64>()
            / n;
        let (s0, s1) = (expected_score(sprt.elo0), expected_score(sprt.elo1));
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)
    }

    /// Whether the pairs so far settle the test.
    pub fn verdict(&self, sprt: Sprt) -> Verdict {
        let llr = self.llr(sprt);
        let (lower, upper) = bounds();
        if llr >= upper {
            Verdict::AcceptH1
        } else if llr <= lower {
            Verdict::AcceptH0
        } else {
            Verdict::Undecided
        }
    }
}

/// The LLR at or below which H0 is accepted, and at or above which H1 is.
pub fn bounds() -> (f64, f64) {
    (
        (ERROR_RATE / (1.0 - ERROR_RATE)).ln(),
        ((1.0 - ERROR_RATE) / ERROR_RATE).ln(),
    )
}

/// The score a game that an Elo difference implies (the logistic curve).
fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn sprt(text: &str) -> Sprt {
        text.parse().expect("a valid --sprt")
    }

    fn pairs(counts: [u32; 5]) -> Pairs {
        Pairs { counts }
    }

    #[test]
    fn hypotheses_read_two_elo_differences_in_order() {
        assert_eq!(
            sprt(" 0 , 10 "),
            Sprt {
                elo0: 0.0,
                elo1: 10.0
            }
        );
        assert_eq!(sprt("-5,2.5").to_string(), "-5/+2.5 Elo");
        for (bad, names) in [
            ("10", "is not ELO0,ELO1"),
            ("0,ten", "`ten` in `0,ten` is not a number"),
            ("0,inf", "between -1000 and 1000"),
            ("0,5000", "between -1000 and 1000"),
            ("10,0", "ELO0 must be below ELO1"),
            ("5,5", "ELO0 must be below ELO1"),
        ] {
            let error = bad.parse::<Sprt>().expect_err(bad);
            assert!(error.contains(names), "{bad}: {error}");
        }
    }

    #[test]
    fn no_pairs_decide_nothing_and_one_whitewashed_pair_is_not_enough() {
        let test = sprt("0,10");
        assert_eq!(Pairs::default().llr(test), 0.0);
        assert_eq!(Pairs::default().verdict(test), Verdict::Undecided);
        assert_eq!(pairs([0, 0, 0, 0, 1]).verdict(test), Verdict::Undecided);
        assert_eq!(pairs([1, 0, 0, 0, 0]).verdict(test), Verdict::Undecided);
    }

    #[test]
    fn pairs_all_alike_still_settle_the_test() {
        let test = sprt("0,10");
        // Twenty pairs won twice each cannot come from an even match.
        assert_eq!(pairs([0, 0, 0, 0, 20]).verdict(test), Verdict::AcceptH1);
        assert_eq!(pairs([20, 0, 0, 0, 0]).verdict(test), Verdict::AcceptH0);
        // Nothing but draws says "no gain" once there are enough of them.
        assert_eq!(pairs([0, 0, 60, 0, 0]).verdict(test), Verdict::AcceptH0);
    }

    #[test]
    fn a_clear_gain_accepts_h1_and_a_clear_loss_accepts_h0() {
        let test = sprt("0,10");
        // 60 % over 400 pairs is about +70 Elo.
        let gain = pairs([20, 60, 160, 100, 60]);
        assert!(gain.llr(test) >= bounds().1, "{}", gain.llr(test));
        assert_eq!(gain.verdict(test), Verdict::AcceptH1);
        let loss = pairs([60, 100, 160, 60, 20]);
        assert_eq!(loss.verdict(test), Verdict::AcceptH0);
        // The same few pairs are not enough.
        assert_eq!(pairs([1, 2, 3, 3, 2]).verdict(test), Verdict::Undecided);
    }

    #[test]
    fn the_bounds_are_those_of_five_percent_errors() {
        let (lower, upper) = bounds();
        assert!((upper - 2.944).abs() < 0.001, "{upper}");
        assert!((lower + upper).abs() < 1e-12);
    }

    #[test]
    fn a_score_halfway_between_the_hypotheses_leans_neither_way() {
        // s = (s0 + s1) / 2 makes the LLR zero: mean 1/2 sits halfway between -10 and +10.
        let llr = pairs([10, 20, 40, 20, 10]).llr(sprt("-10,10"));
        assert!(llr.abs() < 1e-9, "{llr}");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// The LLR leans towards H1 exactly when the mean score a game lies above the score
        /// halfway between the hypotheses' scores, whatever the pairs and hypotheses.
        #[test]
        fn the_llr_leans_the_way_the_mean_score_does(
            counts in proptest::array::uniform5(0u32..50),
            elo0 in -50i32..50,
            width in 1i32..30,
        ) {
            let test = Sprt { elo0: f64::from(elo0), elo1: f64::from(elo0 + width) };
            let tally = pairs(counts);
            prop_assume!(tally.len() > 0);
            let llr = tally.llr(test);
            // The mean with the made-up pair (one pair scoring 1/2 on average).
            let mean = ((0..5).map(|k| f64::from(counts[k]) * k as f64 / 4.0).sum::<f64>()
                + 0.5)
                / (f64::from(tally.len()) + 1.0);
            let halfway = (expected_score(test.elo0) + expected_score(test.elo1)) / 2.0;
            // Exactly halfway the LLR is zero up to rounding, and its sign says nothing.
            if (mean - halfway).abs() < 1e-12 {
                prop_assert!(llr.abs() < 1e-9, "llr {} at mean {} halfway", llr, mean);
            } else {
                prop_assert_eq!(llr > 0.0, mean > halfway, "llr {} mean {} halfway {}", llr, mean, halfway);
            }
        }

        /// Whatever is typed after `--sprt`, the answer is hypotheses in order or an error
        /// that quotes what was typed; never a panic.
        #[test]
        fn any_text_reads_as_ordered_hypotheses_or_an_error_quoting_it(
            text in "[-+0-9.,e ]{0,12}|\\PC{0,16}",
        ) {
            match text.parse::<Sprt>() {
                Ok(test) => prop_assert!(test.elo0 < test.elo1 && test.elo1.abs() <= ELO_LIMIT),
                Err(error) => prop_assert!(error.contains('`'), "{}", error),
            }
        }

        #[test]
        fn any_counts_give_a_finite_llr(counts in proptest::array::uniform5(0u32..10_000)) {
            let llr = pairs(counts).llr(sprt("0,5"));
            prop_assert!(llr.is_finite());
        }
    }
}
