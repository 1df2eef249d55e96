//! Any text given to the TRF-16 reader is either refused with an error naming a line, or
//! read into an event that writes back to a file reading as the same event.

#![no_main]

use jieqi_tournament::trf::{read, write};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    match read(text) {
        Ok(event) => {
            let again = write(&event, "fuzz");
            let reread = read(&again).expect("what we write reads back");
            assert_eq!(write(&reread, "fuzz"), again);
        }
        Err(e) => assert!(e.line >= 1, "{e}"),
    }
});
