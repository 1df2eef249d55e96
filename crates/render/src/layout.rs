//! Where everything goes in a picture: the board, each point's square, the two captured
//! trays and the coordinate labels, in whole pixels.
//!
//! The geometry depends only on the board's shape, the picture width and which side is at the
//! bottom, never on the position, so the background and the sprites made for one layout fit
//! every view of that shape. Tests use the same numbers to find the pixels of a square or a
//! tray.

use jieqi_rules::{Point, Side, View};

use crate::RenderError;

/// Narrowest picture we draw: below this the pieces stop being readable.
pub const MIN_WIDTH: u32 = 160;
/// Widest picture we draw: wider gains nothing in a chat and costs memory.
pub const MAX_WIDTH: u32 = 2048;

/// The two kinds of board a [`View`] can have.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoardShape {
    /// Xiangqi and Jieqi: 9 x 10 points on lines, with the river and two palaces.
    Points9x10,
    /// Banqi: 8 x 4 squares with the pieces inside them.
    Squares8x4,
}

impl BoardShape {
    /// The shape of a board `files` wide and `ranks` high, if we draw such boards.
    pub fn of(files: u8, ranks: u8) -> Result<BoardShape, RenderError> {
        match (files, ranks) {
            (9, 10) => Ok(BoardShape::Points9x10),
            (8, 4) => Ok(BoardShape::Squares8x4),
            _ => Err(RenderError::BoardShape { files, ranks }),
        }
    }

    /// Points across.
    pub const fn files(self) -> u8 {
        match self {
            BoardShape::Points9x10 => 9,
            BoardShape::Squares8x4 => 8,
        }
    }

    /// Points up.
    pub const fn ranks(self) -> u8 {
        match self {
            BoardShape::Points9x10 => 10,
            BoardShape::Squares8x4 => 4,
        }
    }
}

/// A rectangle of pixels: `x..x + width` by `y..y + height`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rect {
    /// Left edge (inclusive).
    pub x: u32,
    /// Top edge (inclusive).
    pub y: u32,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
}

impl Rect {
    /// Whether the pixel at `(x, y)` lies inside.
    pub fn contains(&self, x: u32, y: u32) -> bool {
        x >= self.x && y >= self.y && x < self.x + self.width && y < self.y + self.height
    }
}

/// The geometry of one kind of picture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Layout {
    /// The board's shape.
    pub shape: BoardShape,
    /// Which side sits at the bottom of the picture.
    pub orientation: Side,
    /// Picture width in pixels.
    pub width: u32,
    /// Picture height in pixels.
    pub height: u32,
    /// Distance between neighbouring points (9 x 10) or the side of a square (8 x 4).
    pub cell: u32,
    /// The wooden board with its margins, between the two trays.
    pub board: Rect,
    /// Pixel of the top-left line crossing (9 x 10) or top-left square corner (8 x 4).
    pub grid_x: u32,
    /// See [`Layout::grid_x`].
    pub grid_y: u32,
    /// Width of the board lines.
    pub line_width: u32,
    /// Diameter of a piece on the board.
    pub piece_diameter: u32,
    /// Diameter of a piece in a tray.
    pub tray_piece_diameter: u32,
    /// The strip above the board.
    pub top_tray: Rect,
    /// The strip below the board.
    pub bottom_tray: Rect,
}

impl Layout {
    /// The layout of a picture `width` pixels wide of a `shape` board with `orientation` at
    /// the bottom.
    pub fn new(shape: BoardShape, width: u32, orientation: Side) -> Result<Layout, RenderError> {
        if !(MIN_WIDTH..=MAX_WIDTH).contains(&width) {
            return Err(RenderError::Width { width });
        }
        // Margins are in hundredths of a cell: the 9 x 10 board needs room outside the outer
        // lines for half a piece plus a label; the squares of Banqi hold their pieces inside.
        let (margin_pct, piece_pct, tray_piece_pct) = match shape {
            BoardShape::Points9x10 => (95, 90, 62),
            BoardShape::Squares8x4 => (50, 84, 55),
        };
        let spans = match shape {
            BoardShape::Points9x10 => (8, 9),
            BoardShape::Squares8x4 => (8, 4),
        };
        let cell = width * 100 / (spans.0 * 100 + 2 * margin_pct);
        let margin_x = (width - spans.0 * cell) / 2;
        let margin_y = cell * margin_pct / 100;
        let board_height = spans.1 * cell + 2 * margin_y;
        let tray_height = cell * 3 / 4;
        let board = Rect {
            x: 0,
            y: tray_height,
            width,
            height: board_height,
        };
        Ok(Layout {
            shape,
            orientation,
            width,
            height: board_height + 2 * tray_height,
            cell,
            board,
            grid_x: margin_x,
            grid_y: board.y + margin_y,
            line_width: (cell / 36).max(1),
            piece_diameter: even(cell * piece_pct / 100),
            tray_piece_diameter: even(cell * tray_piece_pct / 100),
            top_tray: Rect {
                x: 0,
                y: 0,
                width,
                height: tray_height,
            },
            bottom_tray: Rect {
                x: 0,
                y: board.y + board_height,
                width,
                height: tray_height,
            },
        })
    }

    /// The layout for drawing `view` with `width` and `orientation`.
    pub fn for_view(view: &View, width: u32, orientation: Side) -> Result<Layout, RenderError> {
        Layout::new(BoardShape::of(view.files, view.ranks)?, width, orientation)
    }

    /// Column (from the left) and row (from the top) of `point` on the picture, or `None`
    /// off the board.
    pub fn screen_cell(&self, point: Point) -> Option<(u32, u32)> {
        let (files, ranks) = (self.shape.files(), self.shape.ranks());
        if point.file >= files || point.rank >= ranks {
            return None;
        }
        Some(match self.orientation {
            Side::Red => (u32::from(point.file), u32::from(ranks - 1 - point.rank)),
            Side::Black => (u32::from(files - 1 - point.file), u32::from(point.rank)),
        })
    }

    /// The pixel at the centre of `point`: a line crossing (9 x 10) or a square's middle.
    pub fn point_center(&self, point: Point) -> Option<(u32, u32)> {
        let (column, row) = self.screen_cell(point)?;
        let half = match self.shape {
            BoardShape::Points9x10 => 0,
            BoardShape::Squares8x4 => self.cell / 2,
        };
        Some((
            self.grid_x + column * self.cell + half,
            self.grid_y + row * self.cell + half,
        ))
    }

    /// The square of pixels that belongs to `point` (one cell, centred on it), where the
    /// last-move mark is drawn.
    pub fn point_rect(&self, point: Point) -> Option<Rect> {
        let (cx, cy) = self.point_center(point)?;
        let half = self.cell / 2;
        Some(Rect {
            x: cx - half,
            y: cy - half,
            width: self.cell,
            height: self.cell,
        })
    }

    /// The tray that shows the pieces `side` has lost. They sit beside the player who took
    /// them, as over a real board: the bottom player's losses are in the top tray.
    pub fn tray_rect(&self, side: Side) -> Rect {
        if side == self.orientation {
            self.top_tray
        } else {
            self.bottom_tray
        }
    }

    /// Centre of the `index`-th of `count` pieces in `side`'s tray. Pieces overlap when
    /// there are too many for one row.
    pub fn tray_slot_center(&self, side: Side, index: usize, count: usize) -> (u32, u32) {
        let tray = self.tray_rect(side);
        let diameter = self.tray_piece_diameter;
        let pad = self.grid_x.saturating_sub(self.cell / 2).max(diameter / 4);
        let room = tray.width.saturating_sub(2 * pad + diameter);
        let natural = diameter + diameter / 8;
        let step = match u32::try_from(count.saturating_sub(1)) {
            Ok(0) | Err(_) => natural,
            Ok(gaps) => natural.min(room / gaps),
        };
        let index = u32::try_from(index).unwrap_or(u32::MAX);
        (
            tray.x + pad + diameter / 2 + index.saturating_mul(step),
            tray.y + tray.height / 2,
        )
    }
}

/// Sprites are centred on whole pixels only if their size is even.
fn even(n: u32) -> u32 {
    n & !1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_width_gives_a_whole_board_with_both_trays() {
        let layout = Layout::new(BoardShape::Points9x10, 720, Side::Red).expect("layout");
        assert_eq!(layout.width, 720);
        assert_eq!(layout.board.y, layout.top_tray.height);
        assert_eq!(
            layout.bottom_tray.y + layout.bottom_tray.height,
            layout.height
        );
        let right = layout.grid_x + 8 * layout.cell;
        assert!(right + layout.piece_diameter / 2 < layout.width);
    }

    #[test]
    fn red_bottom_puts_a0_bottom_left_and_black_bottom_puts_it_top_right() {
        let a0 = Point { file: 0, rank: 0 };
        let red = Layout::new(BoardShape::Points9x10, 720, Side::Red).expect("layout");
        let black = Layout::new(BoardShape::Points9x10, 720, Side::Black).expect("layout");
        assert_eq!(red.screen_cell(a0), Some((0, 9)));
        assert_eq!(black.screen_cell(a0), Some((8, 0)));
        assert_eq!(red.screen_cell(Point { file: 9, rank: 0 }), None);
    }

    #[test]
    fn widths_out_of_range_are_refused() {
        assert!(Layout::new(BoardShape::Squares8x4, MIN_WIDTH - 1, Side::Red).is_err());
        assert!(Layout::new(BoardShape::Squares8x4, MAX_WIDTH + 1, Side::Red).is_err());
        assert!(Layout::new(BoardShape::Squares8x4, MIN_WIDTH, Side::Red).is_ok());
    }

    #[test]
    fn sixteen_tray_pieces_stay_inside_the_tray() {
        for shape in [BoardShape::Points9x10, BoardShape::Squares8x4] {
            let layout = Layout::new(shape, 720, Side::Red).expect("layout");
            let (x, _) = layout.tray_slot_center(Side::Red, 15, 16);
            assert!(
                x + layout.tray_piece_diameter / 2 <= layout.width,
                "{shape:?}"
            );
        }
    }
}
