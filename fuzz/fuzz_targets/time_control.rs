//! A time control as a player types it (`3+2`, `10m|30s`, `1d`, `blitz`), read as
//! `jieqi-clock` reads it: refused with an error naming the accepted forms, or read into a
//! control that writes a text reading back as the same control, and whose clock starts with
//! a flag deadline. Seeds: `seeds/time_control`.

#![no_main]

use jieqi_clock::{Clock, ParseTimeControlError, Side, TimeControl, Timestamp};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    match text.parse::<TimeControl>() {
        Ok(control) => {
            let written = control.to_string();
            assert_eq!(written.parse::<TimeControl>(), Ok(control), "{text:?} wrote {written:?}");
            let _ = control.speed();
            let mut clock = Clock::new(control);
            clock.start(Side::Red, Timestamp::from_millis(0));
            assert!(clock.flag_deadline().is_some());
        }
        Err(error) => {
            let sentence = error.to_string();
            assert!(sentence.contains("3+2") && sentence.contains("10m|30s"), "{sentence}");
            // Every refusal names what was typed.
            let (ParseTimeControlError::OutOfRange { text: given, .. }
            | ParseTimeControlError::Malformed { text: given }) = error;
            assert_eq!(given, text);
        }
    }
});
