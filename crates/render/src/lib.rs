//! Board pictures for jieqi-bot: a [`View`] becomes a PNG, a finished game an animated GIF.
//!
//! # Where to start
//!
//! - [`render`] draws one view; [`RenderOptions`] picks the width, the side at the bottom and
//!   the [`PieceStyle`]. [`render_gif`] animates a game, one frame per view.
//! - Only a [`View`] is ever drawn: it holds what one party may know and nothing more, so a
//!   picture cannot show what its viewer is not entitled to see. A full view (the server's,
//!   with the deal) draws covered pieces face up with a small face-down badge; that is meant
//!   for the reveal at the end of a game only.
//! - The art is SVG, written once in `art.rs` (board, discs, marks) and `symbols.rs` (the
//!   symbol piece set). `sprites.rs` rasterises it with resvg once per kind of picture
//!   (board shape, width, orientation, style), learns a 256-colour palette from it
//!   (`palette.rs`) and caches the result; `compose.rs` then only blits sprites into a
//!   palette picture and deflates it, about a millisecond for a 720-pixel board. The slow
//!   rasterise-everything path ([`render_svg_per_request`], `reference.rs`) is kept as the
//!   benchmark's yardstick and as a check that the sprites draw the same picture.
//! - [`render_graph`] draws a reviewed game's evaluation graph ([`EvaluationGraph`]).
//! - [`render_standings`] draws a tournament's standings table ([`StandingsTable`]); names
//!   in any script are made safe first ([`drawable`]) and drawn in the embedded names font.
//! - [`Layout`] is the geometry (where each point, square and tray is), public so that
//!   tests can look at the right pixels.
//! - Text uses a subset of Noto Serif CJK embedded from `assets/fonts/` (regenerate it with
//!   `scripts/subset-font.py`), and the standings' names a subset of Noto Sans CJK
//!   (`scripts/subset-names-font.py`); no system font is ever loaded.
//!
//! What the pictures show in a chat, and the hidden-information promises they keep, are in
//! `docs/chat-surface.md` in the repository; how the crates fit together in
//! `docs/architecture.md`.
//!
//! ```
//! use jieqi_render::{render, RenderOptions};
//! use jieqi_rules::{BySide, CapturedTray, Setup, Variant, View, Viewer};
//!
//! let setup = Setup::jieqi_start();
//! let view = View {
//!     variant: Variant::Jieqi,
//!     viewer: Viewer::Public,
//!     files: 9,
//!     ranks: 10,
//!     cells: setup.board.to_vec(),
//!     side_to_move: Some(setup.side_to_move),
//!     captured: BySide::<CapturedTray>::default(),
//!     last_action: None,
//!     check: None,
//!     ply: 0,
//!     deal: None,
//!     fen: String::new(),
//! };
//! let png = render(&view, &RenderOptions::default())?;
//! assert_eq!(&png[1..4], b"PNG");
//! # Ok::<(), jieqi_render::RenderError>(())
//! ```

mod animation;
mod art;
mod compose;
mod graph;
mod layout;
mod palette;
mod reference;
mod sprites;
mod standings;
mod symbols;

use jieqi_rules::{Side, View};
use thiserror::Error;

pub use animation::{FRAME_DELAY, LAST_FRAME_DELAY, render_gif};
pub use art::character;
pub use graph::{EvaluationGraph, GRAPH_WIDTHS, GraphMark, graph_svg, render_graph};
pub use layout::{BoardShape, Layout, MAX_WIDTH, MIN_WIDTH, Rect};
pub use reference::{board_svg, render_svg_per_request};
pub use standings::{
    Outcome, RoundCell, StandingsRow, StandingsTable, TOP_ROWS, drawable, render_standings,
    shown_rows, standings_svg,
};

/// How pieces are marked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PieceStyle {
    /// The traditional characters: 帥仕相俥傌炮兵 for Red, 將士象車馬砲卒 for Black.
    #[default]
    Characters,
    /// Simple pictures (crown, shield, elephant, tower, cannon, horse, pawn) for players who
    /// do not read the characters.
    Symbols,
}

/// How to draw a picture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RenderOptions {
    /// Width in pixels, from [`MIN_WIDTH`] to [`MAX_WIDTH`]; the height follows the board.
    pub width: u32,
    /// The side drawn at the bottom: Red for public pictures, the player for their own.
    pub orientation: Side,
    /// Characters or symbols.
    pub style: PieceStyle,
}

impl Default for RenderOptions {
    fn default() -> RenderOptions {
        RenderOptions {
            width: 720,
            orientation: Side::Red,
            style: PieceStyle::Characters,
        }
    }
}

/// Why a picture could not be drawn.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RenderError {
    /// The requested width is out of range.
    #[error(
        "a picture must be {MIN_WIDTH} to {MAX_WIDTH} pixels wide, not {width}: choose a width in that range"
    )]
    Width {
        /// The width asked for.
        width: u32,
    },
    /// The view's board is neither 9 x 10 nor 8 x 4.
    #[error(
        "a board of {files} x {ranks} points cannot be drawn: only 9 x 10 (Xiangqi, Jieqi) and 8 x 4 (Banqi) boards can"
    )]
    BoardShape {
        /// Files of the view.
        files: u8,
        /// Ranks of the view.
        ranks: u8,
    },
    /// The view's cell list does not match its board size.
    #[error(
        "the position has {found} cells where its board has {expected} points: it is damaged and cannot be drawn"
    )]
    Cells {
        /// Points of the board.
        expected: usize,
        /// Cells in the view.
        found: usize,
    },
    /// An animation was asked for with no positions.
    #[error("an animated game needs at least one position: there were none")]
    NoFrames,
    /// The positions of an animation are on different boards.
    #[error("every position of an animated game must be on the same board: these are not")]
    MixedBoards,
    /// The built-in art failed to rasterise (a bug in this crate).
    #[error(
        "the board art could not be drawn ({0}); this is a bug in jieqi-render, please report it"
    )]
    Art(String),
    /// The encoder failed.
    #[error("the picture could not be encoded ({0}); please try again")]
    Encode(String),
}

/// The PNG picture of `view`.
pub fn render(view: &View, options: &RenderOptions) -> Result<Vec<u8>, RenderError> {
    let layout = Layout::for_view(view, options.width, options.orientation)?;
    let sheet = sprites::sheet(layout, options.style)?;
    compose::encode_png(&compose::compose(view, &sheet)?, &sheet.palette)
}

/// The geometry [`render`] uses for `view` with `options`.
pub fn layout(view: &View, options: &RenderOptions) -> Result<Layout, RenderError> {
    Layout::for_view(view, options.width, options.orientation)
}
