//! What the players agreed on: a [`TimeControl`], its notation, its presets and its
//! [`Speed`].

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use thiserror::Error;

use crate::time::{DurationText, parse_duration};

/// The shape of a time control, as plain data; [`TimeControl::new`] checks it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Form {
    /// Game time and an increment added after each move (`3+2`: three minutes, two seconds
    /// a move), as lichess and PyChess play.
    Increment {
        /// Each side's time at the start, in whole minutes.
        initial: Duration,
        /// Added to a side's time after each of its moves, in whole seconds.
        increment: Duration,
    },
    /// Game time, then byo-yomi (`10m|30s`; 局时 then 读秒): once a side's game time is
    /// spent each move must be made within `period`; a move that takes longer uses up a
    /// period, and the side whose last period runs out loses.
    ByoYomi {
        /// Each side's game time, in whole seconds (may be zero).
        main: Duration,
        /// The time a move may take once the game time is spent, in whole seconds.
        period: Duration,
        /// How many periods a side may overrun before it loses, the last included.
        periods: u8,
    },
    /// A time per move and no game time (`1d`): the game across a day in a group chat.
    PerMove {
        /// The time each move may take, in whole minutes.
        limit: Duration,
    },
}

/// A checked time control: what a game's [`Clock`](crate::Clock) runs by.
///
/// Read from text (`FromStr`) in the forms [`ParseTimeControlError`] names, and written back
/// (`Display`) in a form that reads again as the same control.
///
/// ```
/// use std::time::Duration;
/// use jieqi_clock::{Form, Speed, TimeControl};
///
/// let byo: TimeControl = "10m|30s".parse()?;
/// assert_eq!(
///     byo.form(),
///     Form::ByoYomi { main: Duration::from_secs(600), period: Duration::from_secs(30), periods: 1 }
/// );
/// // 10 minutes and forty moves of 30 s: estimated at 30 minutes a side.
/// assert_eq!(byo.speed(), Speed::Classical);
/// assert_eq!("1d".parse::<TimeControl>()?.speed(), Speed::Correspondence);
/// assert!("3+999".parse::<TimeControl>().is_err());
/// # Ok::<(), jieqi_clock::ParseTimeControlError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TimeControl {
    form: Form,
}

/// Longest initial time of `M+S`, in minutes.
const MAX_INITIAL_MINUTES: u64 = 180;
/// Largest increment, in seconds.
const MAX_INCREMENT_SECS: u64 = 180;
/// Longest game time before byo-yomi.
const MAX_MAIN: Duration = Duration::from_secs(3 * 3_600);
/// Shortest and longest byo-yomi period.
const MIN_PERIOD: Duration = Duration::from_secs(5);
const MAX_PERIOD: Duration = Duration::from_secs(600);
/// Most byo-yomi periods.
const MAX_PERIODS: u8 = 5;
/// Shortest and longest time per move (the chat games' bounds before time controls).
const MIN_PER_MOVE: Duration = Duration::from_secs(60);
const MAX_PER_MOVE: Duration = Duration::from_secs(30 * 86_400);

/// Moves a game is reckoned to last, per side, when its duration is estimated (lichess's
/// figure: the initial time plus forty increments).
const ESTIMATED_MOVES: u32 = 40;

impl TimeControl {
    /// A time control of `form`, if its figures are in range.
    pub fn new(form: Form) -> Result<TimeControl, TimeControlError> {
        let whole = |d: Duration| d.subsec_nanos() == 0;
        match form {
            Form::Increment { initial, increment } => {
                let minutes = initial.as_secs() / 60;
                if !whole(initial)
                    || initial.as_secs() % 60 != 0
                    || !(1..=MAX_INITIAL_MINUTES).contains(&minutes)
                {
                    return Err(TimeControlError::Initial);
                }
                if !whole(increment) || increment.as_secs() > MAX_INCREMENT_SECS {
                    return Err(TimeControlError::Increment);
                }
            }
            Form::ByoYomi {
                main,
                period,
                periods,
            } => {
                if !whole(main) || main > MAX_MAIN {
                    return Err(TimeControlError::Main);
                }
                if !whole(period) || !(MIN_PERIOD..=MAX_PERIOD).contains(&period) {
                    return Err(TimeControlError::Period);
                }
                if !(1..=MAX_PERIODS).contains(&periods) {
                    return Err(TimeControlError::Periods);
                }
            }
            Form::PerMove { limit } => {
                if !whole(limit)
                    || limit.as_secs() % 60 != 0
                    || !(MIN_PER_MOVE..=MAX_PER_MOVE).contains(&limit)
                {
                    return Err(TimeControlError::PerMove);
                }
            }
        }
        Ok(TimeControl { form })
    }

    /// Its shape and figures.
    pub const fn form(&self) -> Form {
        self.form
    }

    /// True for a game played now, against a game clock (minutes + increment, byo-yomi);
    /// false for a time per move.
    pub const fn is_live(&self) -> bool {
        !matches!(self.form, Form::PerMove { .. })
    }

    /// How long a game is reckoned to take, per side: the game time and forty moves'
    /// increment or byo-yomi period. `None` for a time per move, which has no game time.
    pub fn estimated_duration(&self) -> Option<Duration> {
        match self.form {
            Form::Increment { initial, increment } => Some(initial + increment * ESTIMATED_MOVES),
            Form::ByoYomi { main, period, .. } => Some(main + period * ESTIMATED_MOVES),
            Form::PerMove { .. } => None,
        }
    }

    /// The category its games are rated in, from the estimated duration by lichess's
    /// bounds (under 3 minutes bullet, under 8 blitz, under 25 rapid, else classical;
    /// lichess's ultrabullet, under 30 s, is counted as bullet).
    pub fn speed(&self) -> Speed {
        let Some(estimate) = self.estimated_duration() else {
            return Speed::Correspondence;
        };
        match estimate.as_secs() {
            0..180 => Speed::Bullet,
            180..480 => Speed::Blitz,
            480..1_500 => Speed::Rapid,
            _ => Speed::Classical,
        }
    }

    /// The preset this control is, if it is one.
    pub fn preset(&self) -> Option<Preset> {
        Preset::ALL.into_iter().find(|p| p.control() == *self)
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.form {
            Form::Increment { initial, increment } => {
                write!(f, "{}+{}", initial.as_secs() / 60, increment.as_secs())
            }
            Form::ByoYomi {
                main,
                period,
                periods,
            } => {
                write!(f, "{}|", DurationText(main))?;
                if periods > 1 {
                    write!(f, "{periods}x")?;
                }
                write!(f, "{}", DurationText(period))
            }
            Form::PerMove { limit } => write!(f, "{}", DurationText(limit)),
        }
    }
}

/// Figures of a [`Form`] out of range; the sentence says the range.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum TimeControlError {
    /// The initial time of minutes + increment.
    #[error("the game time of minutes + increment is whole minutes from 1 to 180")]
    Initial,
    /// The increment.
    #[error("the increment is whole seconds from 0 to 180")]
    Increment,
    /// The game time before byo-yomi.
    #[error("the game time before byo-yomi is whole seconds up to 3 hours")]
    Main,
    /// The byo-yomi period.
    #[error("the byo-yomi time a move is whole seconds from 5 s to 10 minutes")]
    Period,
    /// The number of byo-yomi periods.
    #[error("byo-yomi has 1 to 5 periods")]
    Periods,
    /// The time per move.
    #[error("the time per move is whole minutes from 1 minute to 30 days")]
    PerMove,
}

/// The accepted forms, as every parse error names them.
const ACCEPTED: &str = "minutes + increment in seconds (3+2), game time then seconds a move \
    (10m|30s, or 10m|3x30s for three periods), a time per move (30m, 1d), or a preset: \
    bullet (1+0), blitz (3+2), rapid (10+5), classical (30+20)";

/// A time control that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ParseTimeControlError {
    /// Not in any accepted form.
    #[error("`{text}` is not a time control: write {ACCEPTED}")]
    Malformed {
        /// What was given.
        text: String,
    },
    /// In a known form, with a figure out of range.
    #[error("`{text}` is out of range: {reason}; write {ACCEPTED}")]
    OutOfRange {
        /// What was given.
        text: String,
        /// Which figure and its range.
        reason: TimeControlError,
    },
}

impl FromStr for TimeControl {
    type Err = ParseTimeControlError;

    fn from_str(text: &str) -> Result<TimeControl, ParseTimeControlError> {
        let lower = text.trim().to_ascii_lowercase();
        let malformed = || ParseTimeControlError::Malformed {
            text: text.to_owned(),
        };
        if let Ok(preset) = lower.parse::<Preset>() {
            return Ok(preset.control());
        }
        let form = if let Some((minutes, seconds)) = lower.split_once('+') {
            Form::Increment {
                initial: Duration::from_secs(small_number(minutes).ok_or_else(malformed)? * 60),
                increment: Duration::from_secs(small_number(seconds).ok_or_else(malformed)?),
            }
        } else if let Some((main, byo)) = lower.split_once('|') {
            let (periods, period) = match byo.split_once('x') {
                Some((count, period)) => (small_number(count).ok_or_else(malformed)?, period),
                None => (1, byo),
            };
            Form::ByoYomi {
                main: parse_duration(main).ok_or_else(malformed)?,
                period: parse_duration(period).ok_or_else(malformed)?,
                periods: u8::try_from(periods).unwrap_or(u8::MAX),
            }
        } else {
            Form::PerMove {
                limit: parse_duration(&lower).ok_or_else(malformed)?,
            }
        };
        TimeControl::new(form).map_err(|reason| ParseTimeControlError::OutOfRange {
            text: text.to_owned(),
            reason,
        })
    }
}

/// One to six ASCII digits.
fn small_number(text: &str) -> Option<u64> {
    if text.is_empty() || text.len() > 6 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// The named time controls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Preset {
    /// 1+0.
    Bullet,
    /// 3+2.
    Blitz,
    /// 10+5.
    Rapid,
    /// 30+20.
    Classical,
}

impl Preset {
    /// Every preset, fastest first.
    pub const ALL: [Preset; 4] = [
        Preset::Bullet,
        Preset::Blitz,
        Preset::Rapid,
        Preset::Classical,
    ];

    /// Its lowercase name.
    pub const fn name(self) -> &'static str {
        match self {
            Preset::Bullet => "bullet",
            Preset::Blitz => "blitz",
            Preset::Rapid => "rapid",
            Preset::Classical => "classical",
        }
    }

    /// The control it names.
    pub const fn control(self) -> TimeControl {
        let (minutes, increment) = match self {
            Preset::Bullet => (1, 0),
            Preset::Blitz => (3, 2),
            Preset::Rapid => (10, 5),
            Preset::Classical => (30, 20),
        };
        TimeControl {
            form: Form::Increment {
                initial: Duration::from_secs(minutes * 60),
                increment: Duration::from_secs(increment),
            },
        }
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Preset {
    type Err = ParseTimeControlError;

    fn from_str(text: &str) -> Result<Preset, ParseTimeControlError> {
        let lower = text.trim().to_ascii_lowercase();
        Preset::ALL
            .into_iter()
            .find(|p| p.name() == lower)
            .ok_or_else(|| ParseTimeControlError::Malformed {
                text: text.to_owned(),
            })
    }
}

/// The speed categories ratings are kept by, as lichess keeps them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Speed {
    /// Estimated under 3 minutes a side.
    Bullet,
    /// Under 8 minutes.
    Blitz,
    /// Under 25 minutes.
    Rapid,
    /// 25 minutes or more.
    Classical,
    /// A time per move: a game across days.
    Correspondence,
}

impl Speed {
    /// Every speed, fastest first.
    pub const ALL: [Speed; 5] = [
        Speed::Bullet,
        Speed::Blitz,
        Speed::Rapid,
        Speed::Classical,
        Speed::Correspondence,
    ];

    /// Its lowercase name.
    pub const fn name(self) -> &'static str {
        match self {
            Speed::Bullet => "bullet",
            Speed::Blitz => "blitz",
            Speed::Rapid => "rapid",
            Speed::Classical => "classical",
            Speed::Correspondence => "correspondence",
        }
    }
}

impl fmt::Display for Speed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn control(text: &str) -> TimeControl {
        text.parse()
            .unwrap_or_else(|e| panic!("{text:?} should read: {e}"))
    }

    #[test]
    fn presets_are_the_issues_controls_in_their_own_speed() {
        let presets: Vec<(String, Speed)> = Preset::ALL
            .iter()
            .map(|p| (p.control().to_string(), p.control().speed()))
            .collect();
        assert_eq!(
            presets,
            [
                ("1+0".to_owned(), Speed::Bullet),
                ("3+2".to_owned(), Speed::Blitz),
                ("10+5".to_owned(), Speed::Rapid),
                ("30+20".to_owned(), Speed::Classical)
            ]
        );
        assert_eq!(control("Blitz"), control("3+2"));
        assert_eq!(control(" RAPID "), control("10+5"));
        assert_eq!(control("10+5").preset(), Some(Preset::Rapid));
        assert_eq!(control("10+6").preset(), None);
    }

    #[test]
    fn every_form_reads_with_its_figures() {
        assert_eq!(
            control("3+2").form(),
            Form::Increment {
                initial: Duration::from_secs(180),
                increment: Duration::from_secs(2)
            }
        );
        assert_eq!(
            control("10m|3x30s").form(),
            Form::ByoYomi {
                main: Duration::from_secs(600),
                period: Duration::from_secs(30),
                periods: 3
            }
        );
        assert_eq!(
            control("0s|20s").form(),
            Form::ByoYomi {
                main: Duration::ZERO,
                period: Duration::from_secs(20),
                periods: 1
            }
        );
        assert_eq!(
            control("1d").form(),
            Form::PerMove {
                limit: Duration::from_secs(86_400)
            }
        );
        assert_eq!(control("30m").to_string(), "30m");
        assert_eq!(control("90min").to_string(), "1h30m");
        assert!(!control("1d").is_live());
        assert!(control("1+0").is_live());
    }

    #[test]
    fn speeds_follow_lichess_bounds_on_the_estimate() {
        let speed = |t: &str| control(t).speed();
        assert_eq!(speed("2+0"), Speed::Bullet);
        assert_eq!(speed("2+1"), Speed::Bullet); // 120 s + 40 × 1 s = 160 s
        assert_eq!(speed("2+2"), Speed::Blitz); // 200 s
        assert_eq!(speed("7+0"), Speed::Blitz);
        assert_eq!(speed("8+0"), Speed::Rapid);
        assert_eq!(speed("15+10"), Speed::Rapid); // 1,300 s
        assert_eq!(speed("20+15"), Speed::Classical); // 1,800 s
        assert_eq!(speed("10m|30s"), Speed::Classical); // 600 s + 40 × 30 s
        assert_eq!(speed("5m|10s"), Speed::Rapid); // 700 s
        assert_eq!(speed("0s|5s"), Speed::Blitz);
        assert_eq!(speed("1h"), Speed::Correspondence);
    }

    #[test]
    fn out_of_range_controls_say_which_figure_and_the_accepted_forms() {
        for (text, reason) in [
            ("0+0", TimeControlError::Initial),
            ("181+0", TimeControlError::Initial),
            ("3+181", TimeControlError::Increment),
            ("4h|30s", TimeControlError::Main),
            ("10m|2s", TimeControlError::Period),
            ("10m|6x30s", TimeControlError::Periods),
            ("10m|0x30s", TimeControlError::Periods),
            ("30s", TimeControlError::PerMove),
            ("31d", TimeControlError::PerMove),
            ("1m30s", TimeControlError::PerMove),
        ] {
            let error = text.parse::<TimeControl>().unwrap_err();
            assert_eq!(
                error,
                ParseTimeControlError::OutOfRange {
                    text: text.to_owned(),
                    reason
                },
                "{text}"
            );
            assert!(error.to_string().contains("10m|30s"), "{error}");
        }
    }

    #[test]
    fn malformed_controls_name_the_accepted_forms() {
        for text in [
            "", "3+", "+2", "3+2+1", "3.5+2", "fast", "10m|", "|30s", "10m|x30s", "3 + 2", "-1+0",
        ] {
            let error = text.parse::<TimeControl>().unwrap_err();
            assert!(
                matches!(error, ParseTimeControlError::Malformed { .. }),
                "{text:?}: {error:?}"
            );
            let sentence = error.to_string();
            for form in ["3+2", "10m|30s", "1d", "bullet"] {
                assert!(sentence.contains(form), "{sentence}");
            }
        }
    }

    fn any_form() -> impl Strategy<Value = Form> {
        let secs = |max: u64| (0..=max).prop_map(Duration::from_secs);
        prop_oneof![
            (secs(200 * 60), secs(200))
                .prop_map(|(initial, increment)| Form::Increment { initial, increment }),
            (secs(4 * 3_600), secs(700), 0u8..8).prop_map(|(main, period, periods)| {
                Form::ByoYomi {
                    main,
                    period,
                    periods,
                }
            }),
            secs(40 * 86_400).prop_map(|limit| Form::PerMove { limit }),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2_000))]

        #[test]
        fn any_text_reads_or_is_refused_without_panic(text in "\\PC{0,24}") {
            let _ = text.parse::<TimeControl>();
        }

        #[test]
        fn notation_like_text_reads_back_as_written(
            text in "[0-9]{1,4}(\\+[0-9]{1,3}|[dhms]|m\\|([1-5]x)?[0-9]{1,3}s)"
        ) {
            if let Ok(control) = text.parse::<TimeControl>() {
                prop_assert_eq!(control.to_string().parse::<TimeControl>(), Ok(control));
            }
        }

        #[test]
        fn every_valid_control_round_trips(form in any_form()) {
            if let Ok(control) = TimeControl::new(form) {
                prop_assert_eq!(control.to_string().parse::<TimeControl>(), Ok(control));
                prop_assert_eq!(control.form(), form);
            }
        }
    }
}
