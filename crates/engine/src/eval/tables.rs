//! Material values and piece-square tables for Xiangqi and Jieqi, in hundredths of a soldier.
//!
//! Tables are written as a player reads the board from Red's side: the first row is rank 9
//! (the enemy's back rank), the last row rank 0. Black uses the same tables turned around.
//! Jieqi's revealed advisors and elephants roam freely, so their tables reward staying near
//! their own general without forbidding the rest of the board.

use jieqi_rules::{Piece, Side, Square};

/// Material value of each role by [`Role::index`]. The general's is 0: losing it is mate,
/// which the search scores on its own.
pub const VALUES: [i32; 7] = [0, 220, 220, 900, 450, 420, 100];

#[rustfmt::skip]
const GENERAL: [i32; 90] = [
     0,  0,  0,   0,   0,   0,  0,  0,  0,
     0,  0,  0,   0,   0,   0,  0,  0,  0,
     0,  0,  0,   0,   0,   0,  0,  0,  0,
     0,  0,  0,   0,   0,   0,  0,  0,  0,
     0,  0,  0,   0,   0,   0,  0,  0,  0,
     0,  0,  0,   0,   0,   0,  0,  0,  0,
     0,  0,  0,   0,   0,   0,  0,  0,  0,
     0,  0,  0, -30, -25, -30,  0,  0,  0,
     0,  0,  0, -10,  -5, -10,  0,  0,  0,
     0,  0,  0,   0,  10,   0,  0,  0,  0,
];

#[rustfmt::skip]
const ADVISOR: [i32; 90] = [
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  5,  5,  5,  0,  0,  0,
     0,  0,  0,  5,  5,  5,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
    -5,  0,  0,  0,  0,  0,  0,  0, -5,
    -5,  0,  0,  5,  0,  5,  0,  0, -5,
    -5,  0,  5, 10,  5, 10,  5,  0, -5,
     0,  0,  0,  5, 20,  5,  0,  0,  0,
     0,  0,  0, 10,  0, 10,  0,  0,  0,
];

#[rustfmt::skip]
const ELEPHANT: [i32; 90] = [
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  5,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  5,  0,  5,  0,  5,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
    -5,  0,  5,  0, 10,  0,  5,  0, -5,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
    -5,  0,  5,  0, 20,  0,  5,  0, -5,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0, 10,  0,  5,  0, 10,  0,  0,
];

#[rustfmt::skip]
const CHARIOT: [i32; 90] = [
    20, 20, 20, 30, 30, 30, 20, 20, 20,
    20, 25, 25, 35, 40, 35, 25, 25, 20,
    15, 20, 20, 30, 30, 30, 20, 20, 15,
    15, 25, 25, 30, 30, 30, 25, 25, 15,
    15, 20, 20, 25, 25, 25, 20, 20, 15,
    10, 20, 20, 25, 25, 25, 20, 20, 10,
     5, 15, 15, 20, 20, 20, 15, 15,  5,
     0, 10, 10, 15, 15, 15, 10, 10,  0,
     0, 10,  5, 15,  0, 15,  5, 10,  0,
    -5,  5,  0, 10,  0, 10,  0,  5, -5,
];

#[rustfmt::skip]
const CANNON: [i32; 90] = [
    10, 10,  0, -5,-10, -5,  0, 10, 10,
     5,  5,  0, -5,-10, -5,  0,  5,  5,
     5,  5,  0,  0, -5,  0,  0,  5,  5,
     0,  5,  5,  5, 10,  5,  5,  5,  0,
     0,  0,  5,  5, 15,  5,  5,  0,  0,
     0,  5,  5,  5, 15,  5,  5,  5,  0,
     0,  0,  5,  5, 15,  5,  5,  0,  0,
     5, 10, 10, 15, 25, 15, 10, 10,  5,
     0,  5,  5, 10, 10, 10,  5,  5,  0,
     0,  0,  5, 10, 10, 10,  5,  0,  0,
];

#[rustfmt::skip]
const HORSE: [i32; 90] = [
     0,  0,  0, 10,  0, 10,  0,  0,  0,
     0, 20, 30, 30, 20, 30, 30, 20,  0,
    10, 30, 40, 50, 40, 50, 40, 30, 10,
    10, 30, 40, 50, 50, 50, 40, 30, 10,
     5, 25, 35, 40, 40, 40, 35, 25,  5,
     0, 20, 30, 30, 30, 30, 30, 20,  0,
     0, 10, 20, 20, 20, 20, 20, 10,  0,
     0,  5, 10, 10,  5, 10, 10,  5,  0,
   -10,  0,  5,  0,-20,  0,  5,  0,-10,
   -20,-10,  0,-10,  0,-10,  0,-10,-20,
];

#[rustfmt::skip]
const SOLDIER: [i32; 90] = [
     5, 10, 15, 25, 30, 25, 15, 10,  5,
    40, 60, 80,110,120,110, 80, 60, 40,
    40, 60, 80,100,110,100, 80, 60, 40,
    40, 50, 60, 80, 90, 80, 60, 50, 40,
    30, 40, 50, 60, 65, 60, 50, 40, 30,
     0,  0, 10,  0, 20,  0, 10,  0,  0,
     0,  0,  0,  0, 10,  0,  0,  0,  0,
   -10,-10,-10,-10,-10,-10,-10,-10,-10,
   -10,-10,-10,-10,-10,-10,-10,-10,-10,
   -10,-10,-10,-10,-10,-10,-10,-10,-10,
];

const TABLES: [&[i32; 90]; 7] = [
    &GENERAL, &ADVISOR, &ELEPHANT, &CHARIOT, &CANNON, &HORSE, &SOLDIER,
];

/// The piece-square bonus of `piece` standing on `square`.
#[inline]
pub fn pst(piece: Piece, square: Square) -> i32 {
    let file = usize::from(square.file().index());
    let rank = usize::from(square.rank().index());
    // Row 0 of a table is the mover's far rank (rank 9 for Red, rank 0 for Black).
    let index = match piece.side {
        Side::Red => (9 - rank) * 9 + file,
        Side::Black => rank * 9 + (8 - file),
    };
    TABLES[piece.role.index()][index]
}

/// Material plus position of a face-up piece.
#[inline]
pub fn piece_value(piece: Piece, square: Square) -> i32 {
    VALUES[piece.role.index()] + pst(piece, square)
}

#[cfg(test)]
mod tests {
    use super::*;
    use jieqi_rules::Role;

    fn sq(s: &str) -> Square {
        s.parse().unwrap_or_else(|_| panic!("bad square {s}"))
    }

    #[test]
    fn tables_are_mirror_images_for_the_two_sides() {
        for role in Role::ALL {
            for square in Square::all() {
                let red = pst(Piece::new(Side::Red, role), square);
                let black = pst(Piece::new(Side::Black, role), square.flip());
                assert_eq!(red, black, "{role} on {square}");
            }
        }
    }

    #[test]
    fn crossed_soldier_is_worth_more_than_one_at_home() {
        let red = Piece::new(Side::Red, Role::Soldier);
        assert!(piece_value(red, sq("e6")) > piece_value(red, sq("e3")) + 50);
        let black = Piece::new(Side::Black, Role::Soldier);
        assert!(piece_value(black, sq("e3")) > piece_value(black, sq("e6")) + 50);
    }

    #[test]
    fn chariot_outweighs_horse_and_cannon_everywhere() {
        let r = Piece::new(Side::Red, Role::Chariot);
        for square in Square::all() {
            for role in [Role::Horse, Role::Cannon] {
                let other = Piece::new(Side::Red, role);
                assert!(piece_value(r, square) > piece_value(other, square) + 300);
            }
        }
    }
}
