//! What one party knows of a game: the only thing pictures, messages and the engine may read.
//!
//! A [`View`] is built by the game from the knowledge of its [`Viewer`]; it never carries a
//! fact the viewer is not entitled to. The render crate draws views, the service captions them
//! and the engine searches from them, so nothing downstream can leak the deal by accident.

use crate::types::{BySide, Cell, Piece, Role, Side, Variant};

/// Who a view is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Viewer {
    /// Spectators: only what every move showed publicly.
    Public,
    /// One player: the public view plus what that player alone learned (for example the true
    /// type of covered pieces they captured).
    Player(Side),
    /// The server's own state, deal included. Never leaves the server while a game runs.
    Full,
}

/// A point of a view's board, counted from Red's bottom-left corner: `file` across
/// (`a` = 0), `rank` up (Xiangqi `0` = 0, Banqi `1` = 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point {
    /// 0-based column from the left of Red's side.
    pub file: u8,
    /// 0-based row from Red's side.
    pub rank: u8,
}

/// The last action of the game, as the viewer saw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LastAction {
    /// A piece went from one point to another (a move or a capture).
    Move {
        /// Where it came from.
        from: Point,
        /// Where it went.
        to: Point,
    },
    /// A Banqi piece was turned face up where it stood.
    Flip(Point),
}

/// The pieces one side has lost, as far as the viewer knows.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct CapturedTray {
    /// Captured pieces whose type the viewer knows, in [`Role::ALL`] order.
    pub known: Vec<Role>,
    /// Captured covered pieces whose type the viewer does not know.
    pub unknown: u8,
}

/// One party's knowledge of a position: board, trays, last action, check.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct View {
    /// Which game.
    pub variant: Variant,
    /// Whose knowledge this is.
    pub viewer: Viewer,
    /// Board width: 9 for Xiangqi and Jieqi, 8 for Banqi.
    pub files: u8,
    /// Board height: 10 for Xiangqi and Jieqi, 4 for Banqi.
    pub ranks: u8,
    /// Cells in rank-major order from Red's bottom-left: index `rank * files + file`.
    /// Covered pieces appear as [`Cell::Covered`] even in a full view; their true types are
    /// in [`View::deal`].
    pub cells: Vec<Cell>,
    /// The side to move, or `None` in Banqi before the first flip has assigned colours.
    pub side_to_move: Option<Side>,
    /// What each side has lost (`captured.red` are Red's pieces taken by Black).
    pub captured: BySide<CapturedTray>,
    /// The last action, if any.
    pub last_action: Option<LastAction>,
    /// The point of a general in check (Xiangqi and Jieqi), if any.
    pub check: Option<Point>,
    /// Plies played so far.
    pub ply: u32,
    /// True types of the covered pieces, only in a [`Viewer::Full`] view: the piece under
    /// each covered cell, in the same order as `cells`.
    pub deal: Option<Vec<(Point, Piece)>>,
    /// The FEN of exactly this knowledge (public FENs leave unknown captures out).
    pub fen: String,
}

impl View {
    /// The cell at `point`, or `None` off the board.
    pub fn cell(&self, point: Point) -> Option<Cell> {
        if point.file >= self.files || point.rank >= self.ranks {
            return None;
        }
        self.cells
            .get(usize::from(point.rank) * usize::from(self.files) + usize::from(point.file))
            .copied()
    }
}
