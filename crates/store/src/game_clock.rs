//! A live game's clock as the store keeps it: the time control, each side's time as of its
//! last move, and whose time runs since which instant (the commit of the opponent's move, on
//! the clock every process shares). Stored as plain figures and checked when read: a record
//! whose clock no game could reach (a negative figure, more time than the control gives, a
//! clock running for the side that is not to move, or still running in a finished game) is
//! refused by the codec, never trusted.

use jieqi_clock::{Clock, ClockParts, Running, Side, SideTime, TimeControl, Timestamp};
use serde::{Deserialize, Serialize};
use std::time::Duration;

use crate::records::Seat;

/// One side's time as stored: milliseconds, signed so that a corrupt negative figure is
/// seen and refused rather than read as a huge one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct StoredSideTime {
    pub(crate) main_ms: i64,
    pub(crate) periods: u8,
    pub(crate) lag_quota_ms: i64,
}

/// [`Clock`] as stored (schema 7 on).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct StoredClock {
    /// The control in its notation (`3+2`, `10m|30s`): short, and read by the same parser
    /// as the players' text.
    pub(crate) control: String,
    pub(crate) red: StoredSideTime,
    pub(crate) black: StoredSideTime,
    /// The seat whose time runs (Red moves first: the first seat), and since when (ms since
    /// the Unix epoch on the shared clock).
    pub(crate) running: Option<(Seat, i64)>,
}

fn ms(duration: Duration) -> i64 {
    i64::try_from(duration.as_millis()).unwrap_or(i64::MAX)
}

fn duration(ms: i64, what: &str) -> Result<Duration, String> {
    u64::try_from(ms)
        .map(Duration::from_millis)
        .map_err(|_| format!("a game clock has a negative {what} ({ms} ms)"))
}

/// The seat whose clock runs when `side` moves: Red (or Banqi's first to flip) is the first.
pub fn seat_of_side(side: Side) -> Seat {
    match side {
        Side::Red => Seat::First,
        Side::Black => Seat::Second,
    }
}

/// The clock side of `seat`.
pub fn side_of_seat(seat: Seat) -> Side {
    match seat {
        Seat::First => Side::Red,
        Seat::Second => Side::Black,
    }
}

impl From<&Clock> for StoredClock {
    fn from(clock: &Clock) -> StoredClock {
        let parts = clock.parts();
        let side = |time: SideTime| StoredSideTime {
            main_ms: ms(time.main),
            periods: time.periods,
            lag_quota_ms: ms(time.lag_quota),
        };
        StoredClock {
            control: parts.control.to_string(),
            red: side(parts.red),
            black: side(parts.black),
            running: parts.running.map(|r| {
                (
                    seat_of_side(r.side),
                    i64::try_from(r.since.as_millis()).unwrap_or(i64::MAX),
                )
            }),
        }
    }
}

impl TryFrom<StoredClock> for Clock {
    type Error = String;

    fn try_from(stored: StoredClock) -> Result<Clock, String> {
        let control: TimeControl = stored
            .control
            .parse()
            .map_err(|e| format!("a game clock's control cannot be read: {e}"))?;
        let side = |time: StoredSideTime| -> Result<SideTime, String> {
            Ok(SideTime {
                main: duration(time.main_ms, "game time")?,
                periods: time.periods,
                lag_quota: duration(time.lag_quota_ms, "lag quota")?,
            })
        };
        let running = match stored.running {
            None => None,
            Some((seat, since)) => Some(Running {
                side: side_of_seat(seat),
                since: Timestamp::from_millis(u64::try_from(since).map_err(|_| {
                    format!("a game clock runs since a negative instant ({since})")
                })?),
            }),
        };
        Clock::from_parts(ClockParts {
            control,
            red: side(stored.red)?,
            black: side(stored.black)?,
            running,
        })
        .map_err(|e| format!("a game clock is impossible: {e}"))
    }
}

/// Checks a game's clock against the rest of its record: it runs exactly while the game
/// does, for the seat to move (`plies` played so far: the first seat moves on even plies).
pub(crate) fn check_against_game(clock: &Clock, active: bool, plies: usize) -> Result<(), String> {
    match (clock.running(), active) {
        (Some(_), false) => Err("a finished game's clock is still running".to_owned()),
        (None, true) => Err("a running game's clock is stopped".to_owned()),
        (Some(running), true) => {
            let to_move = if plies.is_multiple_of(2) {
                Seat::First
            } else {
                Seat::Second
            };
            if seat_of_side(running.side) == to_move {
                Ok(())
            } else {
                Err("a game clock runs for the side that is not to move".to_owned())
            }
        }
        (None, false) => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn blitz_clock() -> Clock {
        let mut clock = Clock::new("3+2".parse().unwrap());
        clock.start(Side::Red, Timestamp::from_millis(1_700_000_000_000));
        clock
    }

    #[test]
    fn a_clock_reads_back_as_written() {
        let clock = blitz_clock();
        let stored = StoredClock::from(&clock);
        assert_eq!(stored.control, "3+2");
        assert_eq!(Clock::try_from(stored), Ok(clock));
    }

    #[test]
    fn negative_figures_are_refused_naming_them() {
        let mut stored = StoredClock::from(&blitz_clock());
        stored.red.main_ms = -1;
        let error = Clock::try_from(stored.clone()).unwrap_err();
        assert!(error.contains("negative game time"), "{error}");
        stored.red.main_ms = 1_000;
        stored.black.lag_quota_ms = -5;
        assert!(
            Clock::try_from(stored.clone())
                .unwrap_err()
                .contains("negative lag quota")
        );
        stored.black.lag_quota_ms = 0;
        stored.running = Some((Seat::First, -3));
        assert!(
            Clock::try_from(stored)
                .unwrap_err()
                .contains("negative instant")
        );
    }

    #[test]
    fn figures_no_game_reaches_are_refused() {
        let mut stored = StoredClock::from(&blitz_clock());
        stored.red.periods = 2;
        assert!(
            Clock::try_from(stored.clone())
                .unwrap_err()
                .contains("impossible")
        );
        stored.red.periods = 0;
        stored.control = "3+999".to_owned();
        assert!(
            Clock::try_from(stored.clone())
                .unwrap_err()
                .contains("control")
        );
        let mut byo = StoredClock::from(&Clock::new("10m|30s".parse().unwrap()));
        byo.black.main_ms = 11 * 60_000;
        assert!(Clock::try_from(byo).unwrap_err().contains("impossible"));
    }

    #[test]
    fn a_clock_must_run_exactly_while_the_game_does_for_the_side_to_move() {
        let clock = blitz_clock();
        assert!(check_against_game(&clock, true, 0).is_ok());
        assert!(check_against_game(&clock, true, 1).is_err());
        assert!(check_against_game(&clock, false, 0).is_err());
        let mut stopped = clock;
        stopped.stop(Timestamp::from_millis(1_700_000_001_000));
        assert!(check_against_game(&stopped, false, 7).is_ok());
        assert!(check_against_game(&stopped, true, 7).is_err());
    }

    fn any_stored_clock() -> impl Strategy<Value = StoredClock> {
        let side = (-10i64..4_000_000_000, 0u8..8, -10i64..20_000).prop_map(
            |(main_ms, periods, lag_quota_ms)| StoredSideTime {
                main_ms,
                periods,
                lag_quota_ms,
            },
        );
        let control = prop_oneof![
            Just("1+0".to_owned()),
            Just("3+2".to_owned()),
            Just("10m|3x30s".to_owned()),
            Just("1d".to_owned()),
            "[0-9+|xms]{0,8}",
        ];
        let running = proptest::option::of((
            prop_oneof![Just(Seat::First), Just(Seat::Second)],
            -10i64..i64::MAX,
        ));
        (control, side.clone(), side, running).prop_map(|(control, red, black, running)| {
            StoredClock {
                control,
                red,
                black,
                running,
            }
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        /// Whatever the stored figures, reading them either refuses them or gives a clock
        /// that is written back to exactly those figures: nothing is silently changed.
        #[test]
        fn any_stored_clock_is_refused_or_read_back_exactly(stored in any_stored_clock()) {
            if let Ok(clock) = Clock::try_from(stored.clone()) {
                let again = StoredClock::from(&clock);
                prop_assert_eq!(Clock::try_from(again.clone()), Ok(clock));
                prop_assert!(again.red.main_ms >= 0 && again.black.lag_quota_ms >= 0);
                if stored.control == again.control {
                    prop_assert_eq!(again, stored);
                }
            }
        }
    }
}
