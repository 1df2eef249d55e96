//! # jieqi-rules
//!
//! The rules of Xiangqi, Jieqi (揭棋, covered shuffled pieces) and Banqi (the half-board flip
//! game): positions, legal moves, reveals, views, notation and results. Pure and synchronous:
//! no I/O, no async, and no randomness of its own (a Jieqi or Banqi deal is an input).
//!
//! Where to start: [`Setup`] is plain data (what a FEN says); [`Position`] is a validated,
//! playable Xiangqi/Jieqi position; a [`Deal`] holds the secret true types of covered pieces;
//! a [`View`] is what one party knows, and is all that pictures and messages may read.
//!
//! The rules as implemented (variants, presets, repetition, Banqi) are described in
//! `docs/rules.md` in the repository, the notation in `docs/notation.md`, and where this crate
//! sits among the others in `docs/architecture.md`.

pub mod setup;
pub mod types;
pub mod view;

pub use setup::Setup;
pub use types::{
    BySide, Cell, File, ParseSquareError, ParseVariantError, Piece, Rank, Role, Side, Square,
    Variant,
};
pub use view::{CapturedTray, LastAction, Point, View, Viewer};

pub mod attacks;
pub mod banqi;
pub mod deal;
pub mod moves;
pub mod notation;
pub mod outcome;
pub mod perft;
pub mod position;

pub use moves::Move;
pub use outcome::{DrawReason, Outcome, WinReason};

pub mod game;
pub use deal::{Deal, DealError};
pub use game::{
    CapturedCoveredVisibleTo, Game, GameDeal, GameError, GameMove, PlayedMove, PlayedRecord,
    Preset, RepetitionRule, Rules, Seat,
};
pub use moves::{CapturedPiece, MoveRecord};
pub use position::{IllegalMove, MoveList, MoveOptions, Position, PositionError, Undo};
