//! Helpers shared by the engine's behaviour tests: views of FEN positions, seeded games.

#![allow(dead_code)]

use jieqi_engine::{Budget, Level};
use jieqi_rules::notation::fen::read_setup;
use jieqi_rules::position::{MoveOptions, Position};
use jieqi_rules::{BySide, CapturedTray, Cell, GameMove, Role, Side, Variant, View, Viewer};

/// The side to move's own view of a FEN position (the FEN is taken as that player's
/// knowledge), with the position's legal moves as the game would list them.
pub fn player_view(fen: &str, variant: Variant) -> (View, Vec<GameMove>, Position) {
    let setup = read_setup(fen).unwrap_or_else(|e| panic!("bad test FEN {fen}: {e}"));
    let side = setup.side_to_move;
    let captured = BySide::new_with(|s: Side| CapturedTray {
        known: Role::ALL
            .iter()
            .flat_map(|&r| std::iter::repeat_n(r, usize::from(setup.captured[s][r.index()])))
            .collect(),
        unknown: 0,
    });
    let pos = Position::from_setup(setup.clone(), variant, MoveOptions::default())
        .unwrap_or_else(|e| panic!("bad test position {fen}: {e}"));
    let legal = pos
        .legal_move_vec()
        .into_iter()
        .map(GameMove::Board)
        .collect();
    let view = View {
        variant,
        viewer: Viewer::Player(side),
        files: 9,
        ranks: 10,
        cells: setup.board.to_vec(),
        side_to_move: Some(side),
        captured,
        last_action: None,
        check: None,
        ply: 0,
        deal: None,
        fen: fen.to_owned(),
    };
    (view, legal, pos)
}

/// `level`'s budget cut to at most `nodes` nodes and no time pressure, so searches are
/// reproducible whatever the machine's speed.
pub fn small_budget(level: Level, nodes: u64) -> Budget {
    Budget {
        nodes: level.budget().nodes.min(nodes),
        movetime: std::time::Duration::from_secs(60),
        ..level.budget()
    }
}

/// Whether a cell holds a covered piece.
pub fn is_covered(cell: Option<&Cell>) -> bool {
    matches!(cell, Some(Cell::Covered(_)))
}

/// A deterministic `pick(n)` for deals, from a seed.
pub fn picker(seed: u64) -> impl FnMut(u32) -> u32 {
    let mut state = seed ^ 0x5851_f42d_4c95_7f2d;
    move |n: u32| {
        // SplitMix64: good enough to shuffle test deals.
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        (z % u64::from(n.max(1))) as u32
    }
}
