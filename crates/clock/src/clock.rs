//! The game clock: both sides' time, charged from the instants the caller passes in.

use std::time::Duration;

use thiserror::Error;

use crate::control::{Form, TimeControl};
use crate::lag::{MAX_LAG_PER_MOVE, initial_quota, max_quota, quota_gain};
use crate::time::Timestamp;

/// The two sides, as in `jieqi-rules` (kept here so the clock depends on nothing of ours).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// Moves first.
    Red,
    /// Moves second.
    Black,
}

impl Side {
    /// The other side.
    pub const fn opponent(self) -> Side {
        match self {
            Side::Red => Side::Black,
            Side::Black => Side::Red,
        }
    }

    const fn index(self) -> usize {
        match self {
            Side::Red => 0,
            Side::Black => 1,
        }
    }
}

/// One side's time between moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SideTime {
    /// Game time left (for a time per move: the limit, always).
    pub main: Duration,
    /// Byo-yomi periods left (zero for the other forms).
    pub periods: u8,
    /// Lag compensation still to be given back this game.
    pub lag_quota: Duration,
}

/// Whose time is running, and since when.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Running {
    /// The side to move.
    pub side: Side,
    /// The commit of the opponent's move (or the start of the clock).
    pub since: Timestamp,
}

/// A clock as plain, possibly impossible data (what a store keeps); [`Clock::from_parts`]
/// checks it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ClockParts {
    /// The agreed control.
    pub control: TimeControl,
    /// Red's time.
    pub red: SideTime,
    /// Black's time.
    pub black: SideTime,
    /// Whose time runs; `None` before the clock starts and after it stops.
    pub running: Option<Running>,
}

/// Both sides' time during a game under a [`TimeControl`].
///
/// A side's time runs from [`Clock::start`] or the opponent's [`Clock::press`] to its own
/// press. A press after [`Clock::flag_deadline`] is always refused, and one at or before it
/// stands if its lag earns the grace the deadline includes, so a flag judged by a timer and
/// a move racing it cannot both stand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Clock {
    control: TimeControl,
    sides: [SideTime; 2],
    running: Option<Running>,
}

/// What a move cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Press {
    /// Time charged to the mover, after lag compensation.
    pub spent: Duration,
    /// Lag given back.
    pub compensated: Duration,
}

/// What the clock refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum ClockError {
    /// The side's time ran out before its move.
    #[error("time is up")]
    TimeUp {
        /// The side that lost on time.
        side: Side,
    },
    /// The clock is not running for this side.
    #[error("it is not this side's time that runs")]
    NotRunning {
        /// The side that pressed.
        side: Side,
    },
    /// Stored figures no game could reach.
    #[error("impossible clock: {0}")]
    Impossible(&'static str),
}

/// The most game time a side may hold after increments: a bound no real game reaches, so a
/// stored figure beyond it is corruption.
const MAX_HELD: Duration = Duration::from_secs(30 * 86_400);

impl Clock {
    /// A stopped clock with both sides' full time.
    pub fn new(control: TimeControl) -> Clock {
        let (main, periods) = match control.form() {
            Form::Increment { initial, .. } => (initial, 0),
            Form::ByoYomi { main, periods, .. } => (main, periods),
            Form::PerMove { limit } => (limit, 0),
        };
        let side = SideTime {
            main,
            periods,
            lag_quota: initial_quota(&control),
        };
        Clock {
            control,
            sides: [side; 2],
            running: None,
        }
    }

    /// A clock from stored parts, if a game under its control could have reached them.
    pub fn from_parts(parts: ClockParts) -> Result<Clock, ClockError> {
        let control = parts.control;
        for side in [parts.red, parts.black] {
            if side.lag_quota > max_quota(&control) {
                return Err(ClockError::Impossible(
                    "more lag quota than the control allows",
                ));
            }
            match control.form() {
                Form::Increment { .. } => {
                    if side.main > MAX_HELD || side.periods != 0 {
                        return Err(ClockError::Impossible("game time or periods out of range"));
                    }
                }
                Form::ByoYomi { main, periods, .. } => {
                    if side.main > main || !(1..=periods).contains(&side.periods) {
                        return Err(ClockError::Impossible(
                            "more game time or periods than the control gives",
                        ));
                    }
                }
                Form::PerMove { limit } => {
                    if side.main != limit || side.periods != 0 {
                        return Err(ClockError::Impossible(
                            "a time per move that is not its limit",
                        ));
                    }
                }
            }
        }
        Ok(Clock {
            control,
            sides: [parts.red, parts.black],
            running: parts.running,
        })
    }

    /// Its parts, to store.
    pub fn parts(&self) -> ClockParts {
        ClockParts {
            control: self.control,
            red: self.sides[0],
            black: self.sides[1],
            running: self.running,
        }
    }

    /// The agreed control.
    pub fn control(&self) -> TimeControl {
        self.control
    }

    /// Whose time runs, since when.
    pub fn running(&self) -> Option<Running> {
        self.running
    }

    /// A side's time as of its last move (the running side's time is not yet charged).
    pub fn side(&self, side: Side) -> SideTime {
        self.sides[side.index()]
    }

    /// A side's game time as of its last move.
    pub fn main_time(&self, side: Side) -> Duration {
        self.side(side).main
    }

    /// Starts `side`'s time at `at` (the first move a clock runs for); replaces whatever ran.
    pub fn start(&mut self, side: Side, at: Timestamp) {
        self.running = Some(Running { side, since: at });
    }

    /// Stops the clock at `at` (the game ended otherwise than on time), charging the side to
    /// move what it spent, without increment or lag.
    pub fn stop(&mut self, at: Timestamp) {
        if let Some(running) = self.running.take() {
            let spent = at.since(running.since);
            let index = running.side.index();
            self.sides[index] = self.charged(self.sides[index], spent).unwrap_or(SideTime {
                main: Duration::ZERO,
                periods: self.sides[index].periods.min(1),
                ..self.sides[index]
            });
        }
    }

    /// `side` commits its move at `at`, its network delay measured as `lag`: charges the
    /// time since its clock started less the lag given back (see [`MAX_LAG_PER_MOVE`]),
    /// adds the increment, and starts the opponent's time at `at`.
    ///
    /// Refused with [`ClockError::TimeUp`] if the time was spent before the move (the clock
    /// is left as it was, for the caller to end the game), and with
    /// [`ClockError::NotRunning`] if `side`'s time is not the one running.
    pub fn press(&mut self, side: Side, at: Timestamp, lag: Duration) -> Result<Press, ClockError> {
        let running = match self.running {
            Some(running) if running.side == side => running,
            _ => return Err(ClockError::NotRunning { side }),
        };
        let before = self.side(side);
        let elapsed = at.since(running.since);
        let compensated = lag.min(before.lag_quota).min(MAX_LAG_PER_MOVE).min(elapsed);
        let spent = elapsed - compensated;
        let mut after = self
            .charged(before, spent)
            .ok_or(ClockError::TimeUp { side })?;
        if let Form::Increment { increment, .. } = self.control.form() {
            after.main = (after.main + increment).min(MAX_HELD);
        }
        after.lag_quota = (before.lag_quota - compensated + quota_gain(&self.control))
            .min(max_quota(&self.control));
        self.sides[side.index()] = after;
        self.running = Some(Running {
            side: side.opponent(),
            since: at,
        });
        Ok(Press { spent, compensated })
    }

    /// `time` after spending `spent` in one move, or `None` if that loses on time.
    fn charged(&self, time: SideTime, spent: Duration) -> Option<SideTime> {
        match self.control.form() {
            Form::Increment { .. } => Some(SideTime {
                main: time.main.checked_sub(spent)?,
                ..time
            }),
            Form::PerMove { limit } => (spent <= limit).then_some(time),
            Form::ByoYomi { period, .. } => {
                let Some(over) = spent.checked_sub(time.main).filter(|o| !o.is_zero()) else {
                    return Some(SideTime {
                        main: time.main - spent,
                        ..time
                    });
                };
                // A move within a period keeps it; each whole period overrun is used up.
                let periods_used = over.as_millis().div_ceil(period.as_millis().max(1));
                let lost = u8::try_from(periods_used.saturating_sub(1)).ok()?;
                (lost < time.periods).then(|| SideTime {
                    main: Duration::ZERO,
                    periods: time.periods - lost,
                    ..time
                })
            }
        }
    }

    /// The longest the running side's move may take before lag compensation.
    fn allowance(&self, time: SideTime) -> Duration {
        match self.control.form() {
            Form::Increment { .. } => time.main,
            Form::ByoYomi { period, .. } => time.main + period * u32::from(time.periods),
            Form::PerMove { limit } => limit,
        }
    }

    /// The instant the side to move loses on time if it has not moved: its allowance and the
    /// lag a move could still get back. `None` while the clock is stopped.
    pub fn flag_deadline(&self) -> Option<Timestamp> {
        let running = self.running?;
        let time = self.side(running.side);
        let grace = time.lag_quota.min(MAX_LAG_PER_MOVE);
        Some(running.since.plus(self.allowance(time) + grace))
    }

    /// The side that has lost on time by `at`, if any.
    pub fn flagged(&self, at: Timestamp) -> Option<Side> {
        let deadline = self.flag_deadline()?;
        (at > deadline)
            .then(|| self.running.map(|r| r.side))
            .flatten()
    }

    /// What a side's clock face shows at `at`: the game time left, or once it is spent the
    /// time left in the current byo-yomi period; and the periods left. Never negative: a
    /// side past its allowance shows zero until the flag is judged.
    pub fn face(&self, side: Side, at: Timestamp) -> Face {
        let time = self.side(side);
        let elapsed = match self.running {
            Some(running) if running.side == side => at.since(running.since),
            _ => Duration::ZERO,
        };
        match self.control.form() {
            Form::ByoYomi { period, .. } if elapsed >= time.main => {
                let over = elapsed - time.main;
                let periods_used = over.as_millis() / period.as_millis().max(1);
                let used = u8::try_from(periods_used).unwrap_or(u8::MAX);
                if used >= time.periods {
                    return Face {
                        left: Duration::ZERO,
                        periods: 0,
                        byo_yomi: true,
                    };
                }
                let into_period = over - period * u32::from(used);
                Face {
                    left: period - into_period,
                    periods: time.periods - used,
                    byo_yomi: true,
                }
            }
            Form::ByoYomi { .. } => Face {
                left: time.main - elapsed,
                periods: time.periods,
                byo_yomi: false,
            },
            _ => Face {
                left: time.main.saturating_sub(elapsed),
                periods: 0,
                byo_yomi: false,
            },
        }
    }
}

/// What a clock face shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Face {
    /// Time left: game time, or in byo-yomi the current period's.
    pub left: Duration,
    /// Byo-yomi periods left, the current one included (zero for other forms).
    pub periods: u8,
    /// Whether the game time is spent and byo-yomi counts.
    pub byo_yomi: bool,
}

#[cfg(test)]
mod tests;
