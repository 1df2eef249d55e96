//! Lag compensation: what a move's network delay gets back, and the bound on it.
//!
//! A player on a slow network loses the delay between the tap and the server's commit on
//! every move. The caller measures it (the page knows when the tap happened, the server when
//! the move arrived) and passes it to [`Clock::press`](crate::Clock::press); the clock gives
//! it back out of a quota, as lichess's `LagTracker` does: the quota starts at three moves'
//! gain, grows by one gain a move, is capped at seven, and a single move gets back at most
//! [`MAX_LAG_PER_MOVE`]. The gain follows the control's pace: 0.2 s a move for the fastest
//! games, 1 s for those estimated at 3 minutes a side or more. So no claim, true or not, is
//! worth more than 1 s on a move, and a whole game's claims are worth at most the quota.

use std::time::Duration;

use crate::control::TimeControl;

/// The most a single move gets back for its lag, whatever was measured or claimed.
pub const MAX_LAG_PER_MOVE: Duration = Duration::from_secs(1);

/// What the quota grows by with every move: lichess's figure, half the estimated seconds
/// plus 10, in hundredths of a second, between 0.2 s and 1 s. A time per move gets none: a
/// day's move has no use for it.
pub(crate) fn quota_gain(control: &TimeControl) -> Duration {
    let Some(estimate) = control.estimated_duration() else {
        return Duration::ZERO;
    };
    let centis = (estimate.as_secs() / 2 + 10).clamp(20, 100);
    Duration::from_millis(centis * 10)
}

/// The quota at the start of a game: three moves' gain.
pub(crate) fn initial_quota(control: &TimeControl) -> Duration {
    quota_gain(control) * 3
}

/// The most the quota ever holds: seven moves' gain.
pub(crate) fn max_quota(control: &TimeControl) -> Duration {
    quota_gain(control) * 7
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gain(text: &str) -> Duration {
        quota_gain(&text.parse().unwrap())
    }

    #[test]
    fn the_gain_follows_the_pace_between_its_bounds() {
        assert_eq!(gain("1+0"), Duration::from_millis(400));
        assert_eq!(gain("3+2"), Duration::from_secs(1));
        assert_eq!(gain("0s|5s"), Duration::from_secs(1));
        assert_eq!(gain("1d"), Duration::ZERO);
        assert_eq!(
            initial_quota(&"1+0".parse().unwrap()),
            Duration::from_millis(1_200)
        );
        assert_eq!(max_quota(&"3+2".parse().unwrap()), Duration::from_secs(7));
    }
}
