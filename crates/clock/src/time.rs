//! Instants and the duration notation (`90s`, `10m`, `1h30m`, `1d`) the time controls are
//! written in.

use std::fmt;
use std::time::Duration;

/// An instant on the clock every process of a deployment agrees on, in milliseconds since
/// the Unix epoch. The crate never reads a clock itself: the caller passes the instants in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Timestamp(u64);

impl Timestamp {
    /// The instant `millis` milliseconds after the Unix epoch.
    pub const fn from_millis(millis: u64) -> Timestamp {
        Timestamp(millis)
    }

    /// Milliseconds since the Unix epoch.
    pub const fn as_millis(self) -> u64 {
        self.0
    }

    /// The instant `duration` later (the end of time if that overflows).
    pub fn plus(self, duration: Duration) -> Timestamp {
        Timestamp(self.0.saturating_add(millis(duration)))
    }

    /// Time from `earlier` to `self`; zero if `earlier` is not earlier.
    pub fn since(self, earlier: Timestamp) -> Duration {
        Duration::from_millis(self.0.saturating_sub(earlier.0))
    }
}

/// A duration in whole milliseconds (the clock's resolution), saturating.
pub(crate) fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

/// The units of the duration notation, largest first, with their length in seconds.
const UNITS: [(&str, u64); 4] = [("d", 86_400), ("h", 3_600), ("m", 60), ("s", 1)];

/// Reads `1h30m`, `90s`, `2d`: one or more numbers, each followed by a unit (`d`, `h`, `m`,
/// `s`; also `min` and `sec`), largest unit first, each unit at most once. `None` for
/// anything else, including sums past 10,000 days.
pub(crate) fn parse_duration(text: &str) -> Option<Duration> {
    let mut rest = text;
    let mut total: u64 = 0;
    let mut last_unit = usize::MAX;
    if rest.is_empty() {
        return None;
    }
    while !rest.is_empty() {
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 || digits > 6 {
            return None;
        }
        let number: u64 = rest.get(..digits)?.parse().ok()?;
        rest = rest.get(digits..)?;
        let (unit, len) = if let Some(after) = rest.strip_prefix("min") {
            (2, after)
        } else if let Some(after) = rest.strip_prefix("sec") {
            (3, after)
        } else {
            let letter = rest.get(..1)?;
            let unit = UNITS.iter().position(|(name, _)| *name == letter)?;
            (unit, rest.get(1..)?)
        };
        // Largest first, each once: `30m1h` and `1m1m` are typing mistakes, not sums.
        if last_unit != usize::MAX && unit <= last_unit {
            return None;
        }
        last_unit = unit;
        rest = len;
        total = total.checked_add(number.checked_mul(UNITS[unit].1)?)?;
    }
    (total <= 10_000 * 86_400).then(|| Duration::from_secs(total))
}

/// Writes whole seconds in the notation [`parse_duration`] reads: largest units first,
/// zero parts left out (`1h30m`, `90s` written `1m30s`, zero written `0s`).
pub(crate) struct DurationText(pub Duration);

impl fmt::Display for DurationText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut left = self.0.as_secs();
        if left == 0 {
            return f.write_str("0s");
        }
        for (name, len) in UNITS {
            if left >= len {
                write!(f, "{}{name}", left / len)?;
                left %= len;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_in_any_unit_largest_first() {
        let secs = |t: &str| parse_duration(t).map(|d| d.as_secs());
        assert_eq!(secs("90s"), Some(90));
        assert_eq!(secs("10m"), Some(600));
        assert_eq!(secs("10min"), Some(600));
        assert_eq!(secs("1h30m"), Some(5_400));
        assert_eq!(secs("2d"), Some(172_800));
        assert_eq!(secs("1d12h"), Some(129_600));
        assert_eq!(secs("30m1h"), None);
        assert_eq!(secs("1m1m"), None);
        assert_eq!(secs("10"), None);
        assert_eq!(secs("m"), None);
        assert_eq!(secs(""), None);
        assert_eq!(secs("10x"), None);
        assert_eq!(secs("99999999d"), None);
    }

    #[test]
    fn written_durations_read_back() {
        for secs in [0, 1, 59, 60, 90, 3_600, 5_400, 86_400, 129_661] {
            let text = DurationText(Duration::from_secs(secs)).to_string();
            assert_eq!(
                parse_duration(&text),
                Some(Duration::from_secs(secs)),
                "{text}"
            );
        }
    }

    #[test]
    fn timestamps_saturate() {
        let t = Timestamp::from_millis(5);
        assert_eq!(t.since(Timestamp::from_millis(9)), Duration::ZERO);
        assert_eq!(
            Timestamp::from_millis(u64::MAX)
                .plus(Duration::from_secs(1))
                .as_millis(),
            u64::MAX
        );
        assert_eq!(Timestamp::from_millis(9).since(t), Duration::from_millis(4));
    }
}
