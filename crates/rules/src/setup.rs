//! A [`Setup`] is a plain, possibly illegal Xiangqi or Jieqi position: what a FEN says and no
//! more. Only validation ([`crate::Position::from_setup`]) turns it into a playable position.

use crate::types::{BySide, Cell, Piece, Role, Side, Square};

/// A plain 9x10 position as written in FEN: board, captured group, side to move, clocks.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// The board, indexed by [`Square::index`].
    pub board: [Cell; Square::COUNT],
    /// Captured pieces whose true type is written in the FEN's `[...]` group, counted by
    /// [`Role::index`]: `captured.red` are Red pieces that Black has taken.
    pub captured: BySide<[u8; 7]>,
    /// Whose turn it is.
    pub side_to_move: Side,
    /// Halfmoves since the last capture or soldier move (notation only).
    pub halfmove_clock: u32,
    /// Move number, starting at 1 and increased after Black moves.
    pub fullmove_number: u32,
}

/// The role whose start point `square` is for `side`, if it is one of that side's 16 start
/// points. A Jieqi covered piece moves as this role (its *fake type*).
pub const fn start_role(side: Side, square: Square) -> Option<Role> {
    // Red's start points; Black's mirror them rank for rank (9 - rank).
    let rank = square.rank().index();
    let file = square.file().index();
    let rank = match side {
        Side::Red => rank,
        Side::Black => 9 - rank,
    };
    match (rank, file) {
        (0, 0) | (0, 8) => Some(Role::Chariot),
        (0, 1) | (0, 7) => Some(Role::Horse),
        (0, 2) | (0, 6) => Some(Role::Elephant),
        (0, 3) | (0, 5) => Some(Role::Advisor),
        (0, 4) => Some(Role::General),
        (2, 1) | (2, 7) => Some(Role::Cannon),
        (3, 0) | (3, 2) | (3, 4) | (3, 6) | (3, 8) => Some(Role::Soldier),
        _ => None,
    }
}

impl Setup {
    /// An empty board, Red to move, move 1.
    pub fn empty() -> Setup {
        Setup {
            board: [Cell::Empty; Square::COUNT],
            captured: BySide::default(),
            side_to_move: Side::Red,
            halfmove_clock: 0,
            fullmove_number: 1,
        }
    }

    /// The Xiangqi start position.
    pub fn xiangqi_start() -> Setup {
        let mut setup = Setup::empty();
        for square in Square::all() {
            for side in Side::ALL {
                if let Some(role) = start_role(side, square) {
                    setup.board[square.index()] = Cell::Piece(Piece::new(side, role));
                }
            }
        }
        setup
    }

    /// The Jieqi start position: generals face up, the other 30 pieces covered.
    pub fn jieqi_start() -> Setup {
        let mut setup = Setup::empty();
        for square in Square::all() {
            for side in Side::ALL {
                setup.board[square.index()] = match start_role(side, square) {
                    Some(Role::General) => Cell::Piece(Piece::new(side, Role::General)),
                    Some(_) => Cell::Covered(Some(side)),
                    None => continue,
                };
            }
        }
        setup
    }

    /// The cell at `square`.
    #[inline]
    pub fn cell(&self, square: Square) -> Cell {
        self.board[square.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_side_has_sixteen_start_points() {
        for side in Side::ALL {
            let n = Square::all()
                .filter(|&s| start_role(side, s).is_some())
                .count();
            assert_eq!(n, 16);
        }
    }

    #[test]
    fn jieqi_start_covers_thirty_pieces() {
        let setup = Setup::jieqi_start();
        let covered = setup
            .board
            .iter()
            .filter(|c| matches!(c, Cell::Covered(_)))
            .count();
        assert_eq!(covered, 30);
    }
}
