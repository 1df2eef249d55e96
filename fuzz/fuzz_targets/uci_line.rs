//! A line from a UCI GUI, read as `jieqi-bot uci` reads it, and a `position` line set up in
//! both dialects (Xiangqi as Pikafish speaks it, Jieqi as Pikafish's `jieqi` branch and
//! JieqiBox do): refused with an error or read, never a panic. A position that reads writes
//! a FEN that reads again; a `go` line gives every level a budget. Seeds: `seeds/uci_line`
//! (the lines of the scripted GUI sessions in `crates/uci/tests/session.rs`).

#![no_main]

use jieqi_engine::Level;
use jieqi_rules::Variant;
use jieqi_uci::command::{Command, Start};
use jieqi_uci::dialect::{GuiPosition, write_view_fen};
use jieqi_uci::limits::budget;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|line: &str| {
    let Ok(Some(command)) = Command::parse(line) else {
        return;
    };
    match command {
        Command::Position(position) => {
            for variant in [Variant::Xiangqi, Variant::Jieqi] {
                let start = match &position.start {
                    Start::StartPos => Ok(GuiPosition::start(variant)),
                    Start::Fen(fen) => GuiPosition::from_fen(fen, variant),
                };
                let Ok(mut gui) = start else {
                    continue;
                };
                // Moves stop at the first one that is not legal; what was played stands.
                let _ = gui.play_all(&position.moves);
                let _ = gui.legal_moves();
                let _ = write_view_fen(&gui.view());
                let fen = gui.to_fen();
                assert!(
                    GuiPosition::from_fen(&fen, gui.variant()).is_ok(),
                    "{line:?} wrote {fen:?}, which does not read"
                );
            }
        }
        Command::Go(go) => {
            for level in Level::ALL {
                for side in [jieqi_rules::Side::Red, jieqi_rules::Side::Black] {
                    let _ = budget(&go, level, side, std::time::Duration::from_millis(100));
                }
            }
        }
        _ => {}
    }
});
