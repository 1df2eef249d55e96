//! A validated, playable Xiangqi or Jieqi position: legal moves, check, make and undo.
//!
//! A [`Position`] is made from a plain [`Setup`] by [`Position::from_setup`], which checks the
//! material and placement rules of `rules.md` and names what is wrong. After that every
//! method is total: nothing panics, whatever move is asked about.
//!
//! Covered Jieqi pieces move as their *fake type* (the type of the start point they stand
//! on). The position never knows what a covered piece really is: the true type arrives with
//! the move that reveals or captures it ([`Position::play_unchecked`]), usually from a
//! [`Deal`] ([`Position::play_with_deal`]). Legal moves are therefore a function of the
//! public position alone.
//!
//! ```
//! use jieqi_rules::{Move, Role, position::Position};
//!
//! let mut pos = Position::jieqi_start();
//! assert_eq!(pos.legal_move_vec().len(), 44);
//! // The covered piece on h2 moves as a cannon and turns out to be a chariot.
//! let mv = Move::new("h2".parse()?, "e2".parse()?);
//! assert!(pos.is_legal(mv));
//! let undo = pos.play_unchecked(mv, Some(Role::Chariot), None);
//! assert!(!pos.is_check());
//! pos.undo(undo);
//! assert_eq!(pos, Position::jieqi_start());
//! # Ok::<(), jieqi_rules::ParseSquareError>(())
//! ```

mod board;
mod chase;
mod explain;
mod legality;
mod make;
mod movegen;
mod movelist;
mod validation;

pub use explain::IllegalMove;
pub use legality::{Points, Reach};
pub use make::{Pass, Undo};
pub use movelist::{MAX_MOVES, MoveList};
pub use validation::PositionError;

use crate::deal::Deal;
use crate::moves::Move;
use crate::setup::Setup;
use crate::types::{BySide, Cell, Piece, Side, Square, Variant};

use board::{KIND, code_side, kind_role};
use movelist::SQUARES;

/// Options that change how pieces move. Part of a game's rules, fixed when it starts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MoveOptions {
    /// Jieqi: a covered advisor may step diagonally out of the palace (d0 to c1), as one
    /// online reading has it. Default `false`: a covered advisor stays in the palace.
    pub covered_advisor_may_leave_palace: bool,
}

/// A legal Xiangqi or Jieqi position: board (covered pieces by side only), pieces each side
/// has lost, side to move and clocks. Make one with [`Position::from_setup`],
/// [`Position::xiangqi_start`] or [`Position::jieqi_start`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// Piece codes (see the `board` module), by square index.
    board: [u8; Square::COUNT],
    /// Occupied points of each side (bit = square index), by [`Side::index`].
    occupied: [u128; 2],
    /// Points holding a covered piece.
    covered: u128,
    /// Where each general stands, by [`Side::index`].
    generals: [u8; 2],
    side_to_move: Side,
    variant: Variant,
    options: MoveOptions,
    halfmove_clock: u32,
    fullmove_number: u32,
    /// Pieces lost by each side whose true type is known, by [`Role::index`](crate::Role::index).
    captured: [[u8; 7]; 2],
    zobrist: u64,
}

impl Position {
    /// The Xiangqi start position, Red to move.
    ///
    /// ```
    /// use jieqi_rules::{Side, Variant, position::Position};
    ///
    /// let pos = Position::xiangqi_start();
    /// assert_eq!(pos.variant(), Variant::Xiangqi);
    /// assert_eq!(pos.side_to_move(), Side::Red);
    /// assert!(!pos.is_check());
    /// ```
    pub fn xiangqi_start() -> Position {
        Position::from_valid_setup(Setup::xiangqi_start(), Variant::Xiangqi)
    }

    /// The Jieqi start position: generals face up, the other 30 pieces covered. The deal
    /// (what each covered piece is) is not part of the position.
    ///
    /// ```
    /// use jieqi_rules::{Cell, Side, position::Position};
    ///
    /// let pos = Position::jieqi_start();
    /// let a0 = "a0".parse().unwrap();
    /// assert_eq!(pos.cell(a0), Cell::Covered(Some(Side::Red)));
    /// // Covered pieces move as the type of their start point: the same 44 first moves.
    /// assert_eq!(pos.legal_move_vec().len(), 44);
    /// ```
    pub fn jieqi_start() -> Position {
        Position::from_valid_setup(Setup::jieqi_start(), Variant::Jieqi)
    }

    /// A start setup needs no validation: both are valid by construction (the sanity tests
    /// check that `from_setup` accepts them).
    fn from_valid_setup(setup: Setup, variant: Variant) -> Position {
        Position::build_unvalidated(&setup, variant, MoveOptions::default())
    }

    /// Which game: [`Variant::Xiangqi`] or [`Variant::Jieqi`].
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The move options the position was made with.
    pub fn options(&self) -> MoveOptions {
        self.options
    }

    /// The plain setup of this position. `captured` counts, by true type, every capture the
    /// position knows (a covered piece captured without its true type is not counted).
    ///
    /// ```
    /// use jieqi_rules::{Setup, position::Position};
    ///
    /// assert_eq!(Position::jieqi_start().to_setup(), Setup::jieqi_start());
    /// ```
    pub fn to_setup(&self) -> Setup {
        let mut setup = Setup::empty();
        for sq in Square::all() {
            setup.board[sq.index()] = self.cell(sq);
        }
        setup.captured = self.captured_counts();
        setup.side_to_move = self.side_to_move;
        setup.halfmove_clock = self.halfmove_clock;
        setup.fullmove_number = self.fullmove_number;
        setup
    }

    /// What stands on `sq`: empty, a face-up piece, or a covered piece of a known side.
    pub fn cell(&self, sq: Square) -> Cell {
        let i = sq.index();
        let code = self.board[i];
        if code == 0 {
            Cell::Empty
        } else if self.covered & (1u128 << i) != 0 {
            Cell::Covered(Some(code_side(code)))
        } else {
            Cell::Piece(Piece::new(code_side(code), kind_role(code & KIND)))
        }
    }

    /// The occupied points and what stands on each, in square order: [`Position::cell`] of
    /// every point that is not empty, without visiting the empty ones (an evaluation reads
    /// the board at every leaf, and most points are empty).
    pub fn occupied_cells(&self) -> impl Iterator<Item = (Square, Cell)> + '_ {
        let mut left = self.occupied[0] | self.occupied[1];
        std::iter::from_fn(move || {
            if left == 0 {
                return None;
            }
            let i = left.trailing_zeros() as usize;
            left &= left - 1;
            let sq = SQUARES[i];
            Some((sq, self.cell(sq)))
        })
    }

    /// Whose turn it is.
    pub fn side_to_move(&self) -> Side {
        self.side_to_move
    }

    /// Halfmoves since the last capture or soldier move (a move made as a soldier, covered
    /// or revealed). Notation only: draw rules count from the game's history.
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove_clock
    }

    /// The move number: 1 at the start, increased after each Black move.
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove_number
    }

    /// Where `side`'s general stands. Always `Some` in a valid position; the `Option` keeps
    /// callers honest about boards without one.
    pub fn general(&self, side: Side) -> Option<Square> {
        SQUARES
            .get(usize::from(self.generals[side.index()]))
            .copied()
    }

    /// The Zobrist hash of the board (covered pieces by side only, never their true type)
    /// and the side to move. Captured pieces and clocks are not part of it, so positions
    /// that repeat on the board hash alike.
    pub fn zobrist(&self) -> u64 {
        self.zobrist
    }

    /// Whether `mv` lands on a piece (necessarily an enemy one if `mv` is legal).
    pub fn is_capture(&self, mv: Move) -> bool {
        self.board[mv.to.index()] != 0
    }

    /// Pieces lost by each side, by [`Role::index`](crate::Role::index), counting only the
    /// captures whose true type the position knows.
    pub fn captured_counts(&self) -> BySide<[u8; 7]> {
        BySide {
            red: self.captured[Side::Red.index()],
            black: self.captured[Side::Black.index()],
        }
    }

    /// Whether the piece on `sq` is covered.
    #[inline]
    pub(crate) fn is_covered_index(&self, sq: usize) -> bool {
        self.covered & (1u128 << sq) != 0
    }

    /// Plays `mv` (legal) taking the true types of a covered mover or target from `deal`.
    #[inline]
    pub(crate) fn play_deal_roles(&mut self, mv: Move, deal: &Deal) -> Undo {
        let (reveal, captured) = if self.covered == 0 {
            (None, None)
        } else {
            let from = mv.from.index();
            let to = mv.to.index();
            (
                if self.is_covered_index(from) {
                    deal.role_at(mv.from)
                } else {
                    None
                },
                if self.is_covered_index(to) {
                    deal.role_at(mv.to)
                } else {
                    None
                },
            )
        };
        self.play_unchecked(mv, reveal, captured)
    }
}

#[cfg(test)]
mod tests;
