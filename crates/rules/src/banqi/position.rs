//! A Banqi position as everyone sees it: the 4x8 board with face-down squares, the captured
//! pieces, whose turn it is and the no-progress clock. It holds no secret; flipping needs a
//! [`BanqiDeal`] from outside.

use thiserror::Error;

use super::action::{Action, ActionRecord};
use super::deal::BanqiDeal;
use super::square::BanqiSquare;
use crate::types::{BySide, Cell, Piece, Role, Side};

/// The public state of a Banqi game: what a FEN without a deal field says.
///
/// Made by [`BanqiPosition::start`], [`BanqiPosition::new`] (which checks the material) or
/// [`BanqiPosition::from_fen`]. Face-down squares are [`Cell::Covered`]`(None)`: nobody
/// knows their colour.
///
/// ```
/// use jieqi_rules::banqi::{BanqiDeal, BanqiPosition};
///
/// let mut position = BanqiPosition::start();
/// assert_eq!(position.legal_actions().len(), 32); // flip any square
/// let (record, _undo) = position.play("a4".parse()?, &BanqiDeal::fixed())?;
/// assert_eq!(record.to_string(), "a4=K"); // Red came up: the first player is Red
/// assert_eq!(position.to_fen(), "K???????/????????/????????/???????? b 0 1");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BanqiPosition {
    cells: [Cell; 32],
    captured: BySide<[u8; 7]>,
    side_to_move: Option<Side>,
    plies_since_progress: u32,
    fullmove_number: u32,
}

/// A Banqi position that cannot occur (rules.md, "Material sanity").
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum BanqiPositionError {
    /// A face-down piece with a colour (Jieqi's `X`).
    #[error(
        "{0} holds a face-down piece with a colour: in Banqi nobody knows the colour of a \
         face-down piece, write `?`"
    )]
    ColouredFaceDown(BanqiSquare),
    /// More pieces of a kind than a side owns.
    #[error(
        "there are {count} {side} {role}s face up or captured but each side has only {start}",
        side = piece.side,
        role = piece.role,
        start = piece.role.start_count()
    )]
    TooMany {
        /// The piece there are too many of.
        piece: Piece,
        /// How many the position shows.
        count: u8,
    },
    /// Pieces missing: all 32 are always on the board or captured.
    #[error(
        "the position accounts for {accounted} of the 32 pieces: every piece is face up, face \
         down or in the captured group, so list each captured piece in `[...]`"
    )]
    Incomplete {
        /// Face-up, face-down and captured pieces together.
        accounted: u8,
    },
    /// A side to move with no flip yet, or none after one.
    #[error(
        "colours are assigned by the first flip: the side to move is `-` exactly while every \
         piece is still face down"
    )]
    ColoursBeforeFirstFlip,
    /// A move number of 0.
    #[error("the move number starts at 1")]
    ZeroMoveNumber,
}

/// What [`BanqiPosition::undo`] needs to take an action back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BanqiUndo {
    action: Action,
    captured: Option<Piece>,
    side_to_move: Option<Side>,
    plies_since_progress: u32,
    fullmove_number: u32,
}

/// The board, face-down set and side to move: what threefold repetition compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct RepetitionKey {
    cells: [u8; 32],
    side: u8,
}

impl BanqiPosition {
    /// The start: all 32 pieces face down, no colour assigned, move 1.
    pub fn start() -> BanqiPosition {
        BanqiPosition {
            cells: [Cell::Covered(None); 32],
            captured: BySide::default(),
            side_to_move: None,
            plies_since_progress: 0,
            fullmove_number: 1,
        }
    }

    /// A position from its parts, checked: `cells` by [`BanqiSquare::index`] (face-down
    /// pieces as `Cell::Covered(None)`), `captured` counts by [`Role::index`] of the pieces
    /// each side has lost, the side to move (`None` only while every piece is face down),
    /// plies since the last flip or capture, and the move number (it grows after each Black
    /// action).
    pub fn new(
        cells: [Cell; 32],
        captured: BySide<[u8; 7]>,
        side_to_move: Option<Side>,
        plies_since_progress: u32,
        fullmove_number: u32,
    ) -> Result<BanqiPosition, BanqiPositionError> {
        let position = BanqiPosition {
            cells,
            captured,
            side_to_move,
            plies_since_progress,
            fullmove_number,
        };
        position.validate()?;
        Ok(position)
    }

    fn validate(&self) -> Result<(), BanqiPositionError> {
        if let Some(sq) =
            BanqiSquare::all().find(|sq| matches!(self.cell(*sq), Cell::Covered(Some(_))))
        {
            return Err(BanqiPositionError::ColouredFaceDown(sq));
        }
        let seen = self.seen();
        let mut accounted: u32 = 0;
        for side in Side::ALL {
            for role in Role::ALL {
                let count = seen[side][role.index()];
                if count > role.start_count() {
                    return Err(BanqiPositionError::TooMany {
                        piece: Piece::new(side, role),
                        count,
                    });
                }
                accounted += u32::from(count);
            }
        }
        accounted += self.face_down_count() as u32;
        if accounted != 32 {
            return Err(BanqiPositionError::Incomplete {
                accounted: accounted.min(255) as u8,
            });
        }
        if self.side_to_move.is_none() != (self.face_down_count() == 32) {
            return Err(BanqiPositionError::ColoursBeforeFirstFlip);
        }
        if self.fullmove_number == 0 {
            return Err(BanqiPositionError::ZeroMoveNumber);
        }
        Ok(())
    }

    /// What stands on `square`.
    #[inline]
    pub fn cell(&self, square: BanqiSquare) -> Cell {
        self.cells[square.index()]
    }

    /// The whole board by [`BanqiSquare::index`] (rank-major from `a1`).
    pub fn cells(&self) -> &[Cell; 32] {
        &self.cells
    }

    /// Pieces each side has lost, counted by [`Role::index`]: `captured().red` are Red
    /// pieces Black has taken. Only face-up pieces can be captured, so this is always known.
    pub fn captured(&self) -> BySide<[u8; 7]> {
        self.captured
    }

    /// Whose turn it is, or `None` before the first flip has assigned colours.
    pub fn side_to_move(&self) -> Option<Side> {
        self.side_to_move
    }

    /// Plies since the last flip or capture (the no-progress counter; 40 draws).
    pub fn plies_since_progress(&self) -> u32 {
        self.plies_since_progress
    }

    /// The move number: 1 at the start, one more after each action by Black.
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove_number
    }

    /// The face-down squares, in FEN reading order (rank 4 to 1, `a` to `h`).
    pub fn face_down_squares(&self) -> impl Iterator<Item = BanqiSquare> + '_ {
        BanqiSquare::reading_order().filter(|sq| self.cell(*sq) == Cell::Covered(None))
    }

    /// How many pieces are face down.
    pub fn face_down_count(&self) -> usize {
        self.cells
            .iter()
            .filter(|c| **c == Cell::Covered(None))
            .count()
    }

    /// Pieces of each kind that are face up or captured, by side and [`Role::index`].
    pub fn seen(&self) -> BySide<[u8; 7]> {
        let mut seen = self.captured;
        for cell in &self.cells {
            if let Cell::Piece(p) = cell {
                let n = &mut seen[p.side][p.role.index()];
                *n = n.saturating_add(1);
            }
        }
        seen
    }

    /// Pieces of each kind not seen yet (so lying face down), by side and [`Role::index`].
    pub fn unseen(&self) -> BySide<[u8; 7]> {
        let seen = self.seen();
        BySide::new_with(|side| {
            let mut left = [0; 7];
            for role in Role::ALL {
                left[role.index()] = role.start_count().saturating_sub(seen[side][role.index()]);
            }
            left
        })
    }

    /// Plays `action` after checking it, revealing flips from `deal` (which should fit this
    /// position: see [`BanqiDeal::fits`]). Game-level results (no move, draws) are
    /// [`crate::banqi::BanqiGame`]'s business.
    pub fn play(
        &mut self,
        action: Action,
        deal: &BanqiDeal,
    ) -> Result<(ActionRecord, BanqiUndo), super::BanqiError> {
        match self.why_illegal(action) {
            Some(reason) => Err(reason),
            None => Ok(self.play_unchecked(action, deal)),
        }
    }

    /// Plays a legal `action` without checking it, revealing a flip from `deal`. An illegal
    /// action leaves a meaningless position but never panics. Undo with
    /// [`BanqiPosition::undo`].
    pub fn play_unchecked(
        &mut self,
        action: Action,
        deal: &BanqiDeal,
    ) -> (ActionRecord, BanqiUndo) {
        let undo = BanqiUndo {
            action,
            captured: None,
            side_to_move: self.side_to_move,
            plies_since_progress: self.plies_since_progress,
            fullmove_number: self.fullmove_number,
        };
        let (mover, record, undo) = match action {
            Action::Flip(sq) => {
                let piece = deal.piece_at(sq);
                self.cells[sq.index()] = Cell::Piece(piece);
                // The first flip decides colours: the flipper plays what came up.
                let mover = self.side_to_move.unwrap_or(piece.side);
                self.plies_since_progress = 0;
                let record = ActionRecord {
                    action,
                    flipped: Some(piece),
                    captured: None,
                    mover,
                };
                (mover, record, undo)
            }
            Action::Move { from, to } => {
                let moving = self.cells[from.index()];
                let captured = match self.cells[to.index()] {
                    Cell::Piece(p) => Some(p),
                    _ => None,
                };
                self.cells[to.index()] = moving;
                self.cells[from.index()] = Cell::Empty;
                let mover = match (self.side_to_move, moving) {
                    (Some(side), _) => side,
                    (None, Cell::Piece(p)) => p.side,
                    (None, _) => Side::Red,
                };
                if let Some(victim) = captured {
                    let n = &mut self.captured[victim.side][victim.role.index()];
                    *n = n.saturating_add(1);
                    self.plies_since_progress = 0;
                } else {
                    self.plies_since_progress = self.plies_since_progress.saturating_add(1);
                }
                let record = ActionRecord {
                    action,
                    flipped: None,
                    captured,
                    mover,
                };
                (mover, record, BanqiUndo { captured, ..undo })
            }
        };
        self.side_to_move = Some(!mover);
        if mover == Side::Black {
            self.fullmove_number = self.fullmove_number.saturating_add(1);
        }
        (record, undo)
    }

    /// Takes back the action `undo` came from; it must be the last one played.
    pub fn undo(&mut self, undo: BanqiUndo) {
        match undo.action {
            Action::Flip(sq) => self.cells[sq.index()] = Cell::Covered(None),
            Action::Move { from, to } => {
                self.cells[from.index()] = self.cells[to.index()];
                self.cells[to.index()] = match undo.captured {
                    Some(victim) => {
                        let n = &mut self.captured[victim.side][victim.role.index()];
                        *n = n.saturating_sub(1);
                        Cell::Piece(victim)
                    }
                    None => Cell::Empty,
                };
            }
        }
        self.side_to_move = undo.side_to_move;
        self.plies_since_progress = undo.plies_since_progress;
        self.fullmove_number = undo.fullmove_number;
    }

    /// The part of the position that threefold repetition compares.
    pub(crate) fn repetition_key(&self) -> RepetitionKey {
        let mut cells = [0u8; 32];
        for (code, cell) in cells.iter_mut().zip(&self.cells) {
            *code = match cell {
                Cell::Empty => 0,
                Cell::Covered(_) => 1,
                Cell::Piece(p) => 2 + 7 * p.side.index() as u8 + p.role.index() as u8,
            };
        }
        let side = match self.side_to_move {
            None => 0,
            Some(side) => 1 + side.index() as u8,
        };
        RepetitionKey { cells, side }
    }
}
