//! A puzzle line (one line of `assets/puzzles/*.txt.gz`) and moves typed at it: a line is
//! read or refused with an error, and every typed move is judged or refused, never a panic.
//! Input: the line, a NUL byte, then the typed moves one per line. The seeds in
//! `seeds/puzzle_line` are shipped puzzles with their solutions and two wrong moves:
//! `cargo fuzz run puzzle_line corpus/puzzle_line seeds/puzzle_line` (both folders must exist).

#![no_main]

use jieqi_puzzles::{Attempt, PuzzleSet};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (line, typed) = match data.iter().position(|&b| b == 0) {
        Some(at) => (&data[..at], &data[at + 1..]),
        None => (data, &[][..]),
    };
    let mut file = b"jieqi-puzzles 1\n".to_vec();
    file.extend_from_slice(line);
    let Ok(set) = PuzzleSet::from_bytes(&file) else {
        return;
    };
    let typed = String::from_utf8_lossy(typed);
    for puzzle in set.puzzles() {
        // A line that reads gives a puzzle whose task and start can be shown.
        let _ = puzzle.task().to_string();
        let Ok(mut attempt) = Attempt::new(puzzle) else {
            continue;
        };
        for text in typed.lines() {
            if attempt.is_over() {
                break;
            }
            let _ = attempt.play(text);
        }
    }
});
