//! `jieqi-bot match --clock 3+2`: the match keeps a game clock for both contestants, as a
//! server keeps one for two players. Each contestant is told its clock before each move (an
//! external engine `go wtime … btime … winc … binc …`, or `byoyomi …` after the game time;
//! one of our levels the same reading through [`ClockReading`]), its thinking is charged from
//! the instant the opponent's move was played to the instant its own answer came back, and a
//! contestant whose time ran out before its answer loses the game on time.
//!
//! The instants come from one monotonic clock of this process, so a match measures what the
//! contestants spend, pipes and process switches included, with no lag given back.

use std::time::{Duration, Instant};

use jieqi_clock::{Clock, ClockError, Form, Side, TimeControl, Timestamp};
use jieqi_engine::ClockReading;
use jieqi_rules::Seat;
use jieqi_uci::limits::DEFAULT_MOVE_OVERHEAD;

/// Reads a `--clock` value: a live time control (a time per move has no clock to manage).
pub(super) fn live_control(text: &str) -> Result<TimeControl, String> {
    let control: TimeControl = text.parse().map_err(|e| format!("{e}"))?;
    if !control.is_live() {
        return Err(format!(
            "`{text}` is a time per move; a match clock is minutes + increment (3+2) or game time then byo-yomi (10m|30s)"
        ));
    }
    Ok(control)
}

/// The clock of one game of a match.
pub(super) struct MatchClock {
    clock: Clock,
    /// The instant the game started: timestamps count from it.
    origin: Instant,
}

/// The clock's side of a seat: the first seat's time is the one UCI calls white's (`wtime`).
fn side_of(seat: Seat) -> Side {
    match seat {
        Seat::First => Side::Red,
        Seat::Second => Side::Black,
    }
}

impl MatchClock {
    /// A full clock, the first seat's time running from now.
    pub(super) fn start(control: TimeControl) -> MatchClock {
        let mut clock = Clock::new(control);
        clock.start(Side::Red, Timestamp::from_millis(0));
        MatchClock {
            clock,
            origin: Instant::now(),
        }
    }

    fn now(&self) -> Timestamp {
        Timestamp::from_millis(u64::try_from(self.origin.elapsed().as_millis()).unwrap_or(u64::MAX))
    }

    /// The game time `seat` has left now (zero once in byo-yomi).
    fn game_time_left(&self, seat: Seat, at: Timestamp) -> Duration {
        let face = self.clock.face(side_of(seat), at);
        if face.byo_yomi {
            Duration::ZERO
        } else {
            face.left
        }
    }

    /// What an external engine is told after `go`.
    pub(super) fn uci_limits(&self) -> String {
        let at = self.now();
        let millis = |d: Duration| d.as_millis();
        let wtime = millis(self.game_time_left(Seat::First, at));
        let btime = millis(self.game_time_left(Seat::Second, at));
        match self.clock.control().form() {
            Form::Increment { increment, .. } => {
                let inc = millis(increment);
                format!("wtime {wtime} btime {btime} winc {inc} binc {inc}")
            }
            Form::ByoYomi { period, .. } => {
                format!("wtime {wtime} btime {btime} byoyomi {}", millis(period))
            }
            // Refused by `live_control`; a time per move is a movetime.
            Form::PerMove { limit } => format!("movetime {}", millis(limit)),
        }
    }

    /// What one of our levels is told of `seat`'s clock.
    pub(super) fn reading(&self, seat: Seat) -> ClockReading {
        let (increment, byoyomi) = match self.clock.control().form() {
            Form::Increment { increment, .. } => (increment, Duration::ZERO),
            Form::ByoYomi { period, .. } => (Duration::ZERO, period),
            Form::PerMove { limit } => (Duration::ZERO, limit),
        };
        ClockReading {
            left: self.game_time_left(seat, self.now()),
            increment,
            byoyomi,
            moves_to_go: None,
            overhead: DEFAULT_MOVE_OVERHEAD,
        }
    }

    /// `seat` has answered: charges its time. `Ok` with the time it has left (game time,
    /// or in byo-yomi the periods' time), `Err` if its time ran out first.
    pub(super) fn press(&mut self, seat: Seat) -> Result<Duration, ClockError> {
        let at = self.now();
        let side = side_of(seat);
        self.clock.press(side, at, Duration::ZERO)?;
        let time = self.clock.side(side);
        let periods = match self.clock.control().form() {
            Form::ByoYomi { period, .. } => period * u32::from(time.periods),
            _ => Duration::ZERO,
        };
        Ok(time.main + periods)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_match_clock_is_a_live_control() {
        assert!(live_control("3+2").is_ok());
        assert!(live_control("10m|30s").is_ok());
        assert!(live_control("1d").unwrap_err().contains("time per move"));
        assert!(live_control("3+").unwrap_err().contains("10m|30s"));
    }

    #[test]
    fn engines_are_told_both_clocks_in_uci_words() {
        let clock = MatchClock::start("3+2".parse().unwrap());
        let limits = clock.uci_limits();
        // The first seat's time runs: a few milliseconds may have passed.
        let words: Vec<&str> = limits.split_whitespace().collect();
        assert_eq!(words[0], "wtime");
        assert!(words[1].parse::<u64>().unwrap() > 179_000, "{limits}");
        assert_eq!(
            &words[2..],
            ["btime", "180000", "winc", "2000", "binc", "2000"]
        );
        let byo = MatchClock::start("0s|10s".parse().unwrap());
        assert_eq!(byo.uci_limits(), "wtime 0 btime 0 byoyomi 10000");
        let reading = byo.reading(Seat::Second);
        assert_eq!(
            (reading.left, reading.byoyomi),
            (Duration::ZERO, Duration::from_secs(10))
        );
    }

    #[test]
    fn a_press_charges_the_seat_to_move_and_refuses_the_other() {
        let mut clock = MatchClock::start("1+0".parse().unwrap());
        let left = clock.press(Seat::First).unwrap();
        assert!(left <= Duration::from_secs(60) && left > Duration::from_secs(59));
        assert!(clock.press(Seat::First).is_err());
        assert!(clock.press(Seat::Second).is_ok());
    }
}
