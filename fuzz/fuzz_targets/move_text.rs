//! Any text given to the move readers is either refused with an error or read as one of the
//! moves offered; a move read and written again in any notation never reads as another move.

#![no_main]

use jieqi_rules::notation::fen::read_setup;
use jieqi_rules::notation::{MoveNotation, parse_move, write_move};
use jieqi_rules::{Cell, Move, Setup, Square};
use libfuzzer_sys::fuzz_target;

const POSITIONS: [&str; 4] = [
    "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1",
    "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX b - - 0 1",
    "x3k3x/c3e4/4R4/E4r2x/4p4/4A1R1P/3A5/6E2/9/3XKX2X[C2H1P2a2r1c1h2p1] b - - 0 1",
    "3k5/4P4/4P4/2P1P4/2P1P4/9/9/9/9/4K4 w - - 0 1",
];

/// Every from-to pair starting on a piece of the side to move: a superset of any legal list.
fn offered(setup: &Setup) -> Vec<Move> {
    let mover = |sq: Square| match setup.cell(sq) {
        Cell::Piece(p) => p.side == setup.side_to_move,
        Cell::Covered(side) => side == Some(setup.side_to_move),
        Cell::Empty => false,
    };
    Square::all()
        .filter(|&from| mover(from))
        .flat_map(|from| {
            Square::all()
                .filter(move |&to| to != from)
                .map(move |to| Move::new(from, to))
        })
        .collect()
}

fuzz_target!(|input: (u8, &str)| {
    let (which, text) = input;
    let Some(setup) = POSITIONS
        .get(usize::from(which) % POSITIONS.len())
        .and_then(|fen| read_setup(fen).ok())
    else {
        return;
    };
    let legal = offered(&setup);
    let Ok(parsed) = parse_move(&setup, &legal, text) else {
        return;
    };
    assert!(legal.contains(&parsed.mv));
    for notation in MoveNotation::ALL {
        let written = write_move(&setup, parsed.mv, parsed.reveal, notation);
        match parse_move(&setup, &legal, &written) {
            Ok(again) => assert_eq!(again, parsed, "{text} written in {notation} as {written}"),
            // A superset of the legal moves can make relative text ambiguous; never wrong.
            Err(_) => assert_ne!(notation, MoveNotation::Coordinates, "{written}"),
        }
    }
});
