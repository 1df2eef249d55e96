//! Time management: how long a move may take when the engine plays on a game clock.
//!
//! A level is a node budget and a character; on a clock it also has to share the time left
//! between the moves still to come, and never lose on time. [`ClockReading`] is what the
//! engine is told of its own clock (UCI `wtime`/`btime`, `winc`/`binc`, `byoyomi`,
//! `movestogo`, and the move overhead the GUI or the bot loses around each move);
//! [`Budget::on_clock`] turns a level's budget into one for that clock.
//!
//! The share: what is left after the overhead, spread over the moves to the next control (30
//! if nobody says: a sudden-death clock then runs down geometrically and is never spent),
//! plus three quarters of the increment, and never more than half of what is left, so even a
//! slow machine leaves a reserve. In byo-yomi the period is always there, so most of it is
//! used on top of the share of the game time; a byo-yomi period is never counted on twice
//! (UCI does not say how many are left). The search itself stops at 85 % of its movetime
//! (`control`), the margin for building the position and answering.

use std::time::Duration;

use crate::level::Budget;

/// Moves reckoned to be left when the clock does not say (sudden death).
const DEFAULT_MOVES_TO_GO: u32 = 30;

/// What the engine knows of its own clock before a move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ClockReading {
    /// Game time left on its clock.
    pub left: Duration,
    /// Added after each of its moves.
    pub increment: Duration,
    /// Byo-yomi: the time each move may take once the game time is spent (zero for none).
    pub byoyomi: Duration,
    /// Moves to the next time control, if the clock has one.
    pub moves_to_go: Option<u32>,
    /// Time lost around each move outside the search (the GUI, the network, a commit).
    pub overhead: Duration,
}

impl ClockReading {
    /// How long the next move may take, at least a millisecond.
    ///
    /// ```
    /// use std::time::Duration;
    /// use jieqi_engine::ClockReading;
    ///
    /// let one_minute = ClockReading { left: Duration::from_secs(60), ..ClockReading::default() };
    /// assert_eq!(one_minute.move_time(), Duration::from_secs(2));
    /// let nearly_out = ClockReading { left: Duration::from_millis(90), overhead: Duration::from_millis(100), ..one_minute };
    /// assert_eq!(nearly_out.move_time(), Duration::from_millis(1));
    /// ```
    pub fn move_time(&self) -> Duration {
        let usable = self.left.saturating_sub(self.overhead);
        let moves = self.moves_to_go.unwrap_or(DEFAULT_MOVES_TO_GO).clamp(1, 60);
        let share = if self.byoyomi.is_zero() {
            (usable / moves + self.increment.mul_f64(0.75)).min(usable / 2)
        } else {
            // The period comes back every move: spend most of it, and a share of the game
            // time on top, never the whole game time.
            let period = self.byoyomi.saturating_sub(self.overhead).mul_f64(0.9);
            (usable / moves).min(usable / 2) + period
        };
        share.max(Duration::from_millis(1))
    }
}

impl Budget {
    /// This budget on a clock: the level's nodes, depth and noise, and the time
    /// [`ClockReading::move_time`] allows instead of the level's own time cap.
    pub fn on_clock(self, clock: &ClockReading) -> Budget {
        Budget {
            movetime: clock.move_time(),
            ..self
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Level;
    use proptest::prelude::*;

    fn ms(m: u64) -> Duration {
        Duration::from_millis(m)
    }

    #[test]
    fn sudden_death_spreads_the_time_and_keeps_half_in_reserve() {
        let clock = ClockReading {
            left: ms(60_000),
            overhead: ms(100),
            ..ClockReading::default()
        };
        assert_eq!(clock.move_time(), ms(59_900) / 30);
        let with_moves = ClockReading {
            moves_to_go: Some(1),
            ..clock
        };
        assert_eq!(with_moves.move_time(), ms(59_900) / 2);
    }

    #[test]
    fn an_increment_is_mostly_spent_but_never_past_half_the_clock() {
        let clock = ClockReading {
            left: ms(180_000),
            increment: ms(2_000),
            ..ClockReading::default()
        };
        assert_eq!(clock.move_time(), ms(6_000 + 1_500));
        let low = ClockReading {
            left: ms(1_000),
            ..clock
        };
        assert_eq!(low.move_time(), ms(500));
    }

    #[test]
    fn byo_yomi_spends_most_of_the_period_on_top_of_a_share() {
        let in_byoyomi = ClockReading {
            left: Duration::ZERO,
            byoyomi: ms(10_000),
            overhead: ms(100),
            ..ClockReading::default()
        };
        assert_eq!(in_byoyomi.move_time(), ms(9_900).mul_f64(0.9));
        let before = ClockReading {
            left: ms(300_100),
            ..in_byoyomi
        };
        assert_eq!(before.move_time(), ms(10_000) + ms(9_900).mul_f64(0.9));
    }

    #[test]
    fn a_level_keeps_its_character_on_a_clock() {
        let clock = ClockReading {
            left: ms(60_000),
            ..ClockReading::default()
        };
        let club = Level::Club.budget().on_clock(&clock);
        assert_eq!(club.movetime, ms(2_000));
        assert_eq!(
            (club.nodes, club.max_depth, club.noise),
            (
                Level::Club.budget().nodes,
                Level::Club.budget().max_depth,
                Level::Club.budget().noise
            )
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1_000))]

        /// A move never takes more than the clock can pay after the overhead: the game time
        /// (at most half of it) and, in byo-yomi, the period.
        #[test]
        fn a_move_fits_in_what_the_clock_allows(
            left in 0u64..10_000_000,
            increment in 0u64..200_000,
            byoyomi in prop_oneof![Just(0u64), 1u64..600_000],
            moves_to_go in proptest::option::of(0u32..200),
            overhead in 0u64..5_000,
        ) {
            let clock = ClockReading {
                left: ms(left),
                increment: ms(increment),
                byoyomi: ms(byoyomi),
                moves_to_go,
                overhead: ms(overhead),
            };
            let time = clock.move_time();
            let usable = ms(left).saturating_sub(ms(overhead));
            let allowed = usable / 2 + ms(byoyomi).saturating_sub(ms(overhead));
            prop_assert!(time <= allowed.max(ms(1)), "{time:?} > {allowed:?}");
            prop_assert!(time >= ms(1));
        }
    }
}
