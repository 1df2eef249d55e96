//! A chat's time zone as a fixed offset from UTC (`/settings timezone UTC+8`): what a start
//! time typed there (`/tournament swiss at 20:00`) means and how the moments of its events
//! are written back. Offsets, not zone names: the groups the bot serves (China, Vietnam) keep
//! no daylight saving time, and an offset needs no zone database in the binary.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// An offset from UTC, from UTC−12:00 to UTC+14:00 (the offsets in use), to the minute.
///
/// ```
/// use jieqi_store::utc_offset::UtcOffset;
///
/// let china: UtcOffset = "UTC+8".parse().unwrap();
/// assert_eq!(china.seconds(), 8 * 3600);
/// assert_eq!("+08:00".parse(), Ok(china));
/// assert_eq!(china.to_string(), "UTC+8");
/// assert_eq!("utc-3:30".parse::<UtcOffset>().unwrap().to_string(), "UTC-3:30");
/// assert!("Asia/Shanghai".parse::<UtcOffset>().is_err());
/// assert!("UTC+15".parse::<UtcOffset>().is_err());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "i16", into = "i16")]
pub struct UtcOffset {
    /// East of Greenwich positive.
    minutes: i16,
}

/// Why a text is not an offset from UTC.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BadOffset {
    /// Not written as one (a zone's name, a stray word).
    #[error("not an offset from UTC: write it as UTC+8, +7, UTC+05:30, UTC-3:30 or UTC")]
    Unreadable,
    /// An offset no place uses.
    #[error("beyond the offsets in use: from UTC-12 to UTC+14")]
    OutOfRange,
}

impl UtcOffset {
    /// UTC itself, the default of every chat.
    pub const UTC: UtcOffset = UtcOffset { minutes: 0 };

    /// The westernmost offset in use, in minutes (UTC−12:00, Baker Island).
    pub const WESTMOST: i16 = -12 * 60;

    /// The easternmost offset in use, in minutes (UTC+14:00, Kiribati's Line Islands).
    pub const EASTMOST: i16 = 14 * 60;

    /// `minutes` east of UTC, if some place could be there.
    pub fn from_minutes(minutes: i16) -> Result<UtcOffset, BadOffset> {
        if (Self::WESTMOST..=Self::EASTMOST).contains(&minutes) {
            Ok(UtcOffset { minutes })
        } else {
            Err(BadOffset::OutOfRange)
        }
    }

    /// Minutes east of UTC.
    pub fn minutes(self) -> i16 {
        self.minutes
    }

    /// Seconds east of UTC: what to add to a UTC moment to read it on local clocks.
    pub fn seconds(self) -> i64 {
        i64::from(self.minutes) * 60
    }
}

impl TryFrom<i16> for UtcOffset {
    type Error = BadOffset;

    fn try_from(minutes: i16) -> Result<UtcOffset, BadOffset> {
        UtcOffset::from_minutes(minutes)
    }
}

impl From<UtcOffset> for i16 {
    fn from(offset: UtcOffset) -> i16 {
        offset.minutes
    }
}

impl fmt::Display for UtcOffset {
    /// `UTC`, `UTC+8`, `UTC-3:30`: the hour alone when the minutes are zero.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.minutes < 0 { '-' } else { '+' };
        let (hours, minutes) = (self.minutes.abs() / 60, self.minutes.abs() % 60);
        match (hours, minutes) {
            (0, 0) => f.write_str("UTC"),
            (_, 0) => write!(f, "UTC{sign}{hours}"),
            _ => write!(f, "UTC{sign}{hours}:{minutes:02}"),
        }
    }
}

impl FromStr for UtcOffset {
    type Err = BadOffset;

    /// `UTC`, `UTC+8`, `+8`, `UTC+07:00`, `UTC-3:30`, `+0530` (`GMT` for `UTC` too; any
    /// case). The sign is required after a bare number, so `8` alone is not read as an
    /// offset.
    fn from_str(text: &str) -> Result<UtcOffset, BadOffset> {
        let text = text.trim();
        let upper = text.to_ascii_uppercase();
        let rest = upper
            .strip_prefix("UTC")
            .or_else(|| upper.strip_prefix("GMT"));
        let rest = match rest {
            Some("") => return Ok(UtcOffset::UTC),
            Some(rest) => rest,
            None => upper.as_str(),
        };
        let (west, digits) = if let Some(digits) = rest.strip_prefix('+') {
            (false, digits)
        } else if let Some(digits) = rest
            .strip_prefix('-')
            .or_else(|| rest.strip_prefix('\u{2212}'))
        {
            (true, digits)
        } else {
            return Err(BadOffset::Unreadable);
        };
        if !digits.bytes().all(|b| b.is_ascii_digit() || b == b':') {
            return Err(BadOffset::Unreadable);
        }
        // ASCII from here on: splitting at a byte is splitting at a character.
        let (hours, minutes) = match digits.split_once(':') {
            Some((hours, minutes)) if minutes.len() == 2 => (hours, minutes),
            Some(_) => return Err(BadOffset::Unreadable),
            None if digits.len() == 4 => digits.split_at(2),
            None => (digits, "00"),
        };
        let number = |part: &str| -> Result<i16, BadOffset> {
            if part.is_empty() || part.len() > 2 || !part.bytes().all(|b| b.is_ascii_digit()) {
                return Err(BadOffset::Unreadable);
            }
            part.parse().map_err(|_| BadOffset::Unreadable)
        };
        let (hours, minutes) = (number(hours)?, number(minutes)?);
        if minutes >= 60 {
            return Err(BadOffset::Unreadable);
        }
        let east = hours * 60 + minutes;
        UtcOffset::from_minutes(if west { -east } else { east })
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn the_forms_players_type_read_as_their_offsets() {
        for (text, minutes) in [
            ("UTC", 0),
            ("utc", 0),
            ("GMT", 0),
            ("UTC+0", 0),
            ("UTC+8", 480),
            ("+8", 480),
            ("+08", 480),
            ("UTC+07:00", 420),
            ("utc+7", 420),
            ("UTC-3:30", -210),
            ("-03:30", -210),
            ("+0530", 330),
            ("UTC+5:45", 345),
            ("UTC\u{2212}5", -300),
            ("UTC-12", -720),
            ("UTC+14", 840),
            (" UTC+8 ", 480),
        ] {
            assert_eq!(
                text.parse::<UtcOffset>().map(UtcOffset::minutes),
                Ok(minutes),
                "{text}"
            );
        }
    }

    #[test]
    fn names_bare_numbers_and_odd_forms_are_refused_as_unreadable() {
        for text in [
            "",
            "8",
            "Asia/Shanghai",
            "UTC8",
            "UTC+",
            "UTC+8:",
            "UTC+8:3",
            "UTC+8:60",
            "UTC++8",
            "UTC+123",
            "UTC+8h",
            "+٨",
            "+a٨b",
            "+٨٨",
            "ＵＴＣ+8",
        ] {
            assert_eq!(
                text.parse::<UtcOffset>(),
                Err(BadOffset::Unreadable),
                "{text}"
            );
        }
    }

    #[test]
    fn offsets_beyond_minus_12_and_plus_14_are_refused_as_out_of_range() {
        for text in ["UTC+15", "UTC-13", "UTC+14:15", "UTC-12:30", "+99"] {
            assert_eq!(
                text.parse::<UtcOffset>(),
                Err(BadOffset::OutOfRange),
                "{text}"
            );
        }
    }

    #[test]
    fn a_stored_offset_out_of_range_is_refused_on_reading() {
        let bytes = postcard::to_allocvec(&(15_i16 * 60)).unwrap();
        assert!(postcard::from_bytes::<UtcOffset>(&bytes).is_err());
        let china = UtcOffset::from_minutes(480).unwrap();
        let bytes = postcard::to_allocvec(&china).unwrap();
        assert_eq!(postcard::from_bytes::<UtcOffset>(&bytes), Ok(china));
    }

    proptest! {
        #[test]
        fn every_offset_reads_back_from_how_it_is_written(
            minutes in UtcOffset::WESTMOST..=UtcOffset::EASTMOST,
        ) {
            let offset = UtcOffset::from_minutes(minutes).unwrap();
            prop_assert_eq!(offset.to_string().parse::<UtcOffset>(), Ok(offset));
        }

        #[test]
        fn any_text_reads_as_an_offset_in_range_or_an_error(text in "\\PC{0,12}") {
            if let Ok(offset) = text.parse::<UtcOffset>() {
                prop_assert!((UtcOffset::WESTMOST..=UtcOffset::EASTMOST).contains(&offset.minutes()));
            }
        }
    }
}
