//! Any text given to the FEN readers is either refused with an error or read into a setup
//! that writes back to a FEN reading as the same setup.

#![no_main]

use jieqi_rules::notation::fen::{read_full, read_setup, write_full, write_setup};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    if let Ok(setup) = read_setup(text) {
        let fen = write_setup(&setup);
        assert_eq!(read_setup(&fen).as_ref(), Ok(&setup), "{fen}");
    }
    if let Ok((setup, deal)) = read_full(text) {
        let letters: String = deal.iter().flatten().map(|p| p.char()).collect();
        let fen = match deal {
            Some(_) => write_full(&setup, &letters),
            None => write_setup(&setup),
        };
        assert_eq!(read_full(&fen), Ok((setup, deal)), "{fen}");
    }
});
