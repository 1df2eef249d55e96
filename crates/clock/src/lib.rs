//! # jieqi-clock
//!
//! Time controls and the game clock, with no I/O and nothing of ours beneath it: every
//! function takes the instants it judges ([`Timestamp`]s the caller read from the one clock
//! all processes agree on), so the whole crate runs against a fake clock in tests.
//!
//! Where to start:
//! - [`TimeControl`]: what the players agreed, read from `3+2` (minutes + increment),
//!   `10m|30s` (game time, then 30 s a move: byo-yomi, 读秒), `1d` (a time per move, for a
//!   game across a day) or a preset name (`bullet`, `blitz`, `rapid`, `classical`); its
//!   [`Speed`] is the category ratings are kept by.
//! - [`Clock`]: both sides' time during a game. A side's time runs from the commit of the
//!   opponent's move to the commit of its own ([`Clock::press`]); [`Clock::flag_deadline`]
//!   is the instant the side to move loses on time, and a move pressed after it is always
//!   refused, so the timer that judges a flag and the move that races it agree.
//! - Lag compensation ([`Clock::press`]'s `lag`): the network delay of a move, measured by
//!   the caller, is given back up to a quota per game that grows with every move, as
//!   lichess does, and never more than [`MAX_LAG_PER_MOVE`] a move, whatever a client says.
//!
//! ```
//! use std::time::Duration;
//! use jieqi_clock::{Clock, Side, Speed, TimeControl, Timestamp};
//!
//! let control: TimeControl = "blitz".parse()?;
//! assert_eq!(control.to_string(), "3+2");
//! assert_eq!(control.speed(), Speed::Blitz);
//!
//! let start = Timestamp::from_millis(1_000_000);
//! let mut clock = Clock::new(control);
//! clock.start(Side::Red, start);
//! clock.press(Side::Red, start.plus(Duration::from_secs(10)), Duration::ZERO)?;
//! // 3 min - 10 s + 2 s increment.
//! assert_eq!(clock.main_time(Side::Red), Duration::from_secs(172));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod clock;
mod control;
mod lag;
mod time;

pub use clock::{Clock, ClockError, ClockParts, Face, Press, Running, Side, SideTime};
pub use control::{Form, ParseTimeControlError, Preset, Speed, TimeControl, TimeControlError};
pub use lag::MAX_LAG_PER_MOVE;
pub use time::Timestamp;
