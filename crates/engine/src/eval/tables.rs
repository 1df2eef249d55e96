//! Material values and piece-square tables for Xiangqi and Jieqi, fitted to the results of
//! the engine's own games by `examples/texel.rs` (Xiangqi and Jieqi positions together).
//!
//! The unit stays close to the old one, about a hundredth of a soldier: each fit holds the
//! logistic scale at which the tables it starts from predict results best. A soldier's own
//! value is small; its tables add most of what it is worth once it has moved up.
//!
//! Each role has an opening and an endgame table (the phase blends them); each is written as
//! a player reads the board from Red's side: the first row is rank 9 (the enemy's back rank),
//! the last row rank 0. Black uses the same tables turned around, and the tables are mirror
//! images across the middle file. Jieqi's revealed advisors and elephants roam freely, so
//! their tables cover the whole board.

use jieqi_rules::{Piece, Side, Square};

/// Material value of each role by [`Role::index`]. The general's is 0: losing it is mate,
/// which the search scores on its own.
pub const VALUES: [i32; 7] = [0, 170, 138, 1016, 406, 392, 75];

/// How much each role counts towards the game's phase, by [`Role::index`]: the pieces that
/// attack. The phase blends each table's opening and endgame values.
pub const PHASE_WEIGHTS: [i32; 7] = [0, 0, 0, 4, 2, 2, 0];
/// The phase with all attackers of both sides on the board: pure opening tables.
pub const OPENING_PHASE: i32 = 32;

/// The game's phase, at most [`OPENING_PHASE`]: `face_up`, the [`PHASE_WEIGHTS`] of the
/// face-up pieces, plus each side's `covered` pieces counted at their share of the attackers
/// among that side's `unseen` pieces (by [`Role::index`]). The evaluation and the tuner both
/// reckon it here.
pub fn phase(face_up: i32, covered: [i32; 2], unseen: [&[u8; 7]; 2]) -> i32 {
    let mut phase = face_up;
    for (covered, unseen) in covered.into_iter().zip(unseen) {
        let total: i32 = unseen.iter().map(|&n| i32::from(n)).sum();
        if covered > 0 && total > 0 {
            let attackers: i32 = unseen
                .iter()
                .zip(PHASE_WEIGHTS)
                .map(|(&n, weight)| i32::from(n) * weight)
                .sum();
            phase += covered * attackers / total;
        }
    }
    phase.min(OPENING_PHASE)
}

/// What having the move is worth, as fitted: next to nothing in a quiet position (the
/// positions the fit uses).
pub const TEMPO: i32 = 0;

#[rustfmt::skip]
const GENERAL: [[i32; 90]; 2] = [[
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0, -98, -73, -98,   0,   0,   0,
      0,   0,   0, -89,   6, -89,   0,   0,   0,
      0,   0,   0,  55, 139,  55,   0,   0,   0,
], [
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0, -43, -16, -43,   0,   0,   0,
      0,   0,   0,  18,  44,  18,   0,   0,   0,
      0,   0,   0, -14, -48, -14,   0,   0,   0,
]];

#[rustfmt::skip]
const ADVISOR: [[i32; 90]; 2] = [[
     53, -39,  57, -29,  18, -29,  57, -39,  53,
    -15, 134, -35,  21,  19,  21, -35, 134, -15,
    -12,  -2,  56,  18,   9,  18,  56,  -2, -12,
     -5,  24, -28,   5,  24,   5, -28,  24,  -5,
     10, -39,   9,  -6,  -2,  -6,   9, -39,  10,
     22,  37,  36,  10,  14,  10,  36,  37,  22,
     -9,  49,   3,  87,  26,  87,   3,  49,  -9,
      4,  33,  60, -71, 148, -71,  60,  33,   4,
     65,  73,  35,  91, 117,  91,  35,  73,  65,
    -16, -42,  24,  -3,  18,  -3,  24, -42, -16,
], [
     63, -22,  55, -24,  29, -24,  55, -22,  63,
    -20,  93, -30,  28,  31,  28, -30,  93, -20,
    -12,  19,  69,  49,   8,  49,  69,  19, -12,
    -36,  31,  11,   7,  26,   7,  11,  31, -36,
     13, -14,  12,  22,  -4,  22,  12, -14,  13,
     53,  59,  -7,   6,  69,   6,  -7,  59,  53,
     -8,  39,  -4,  82,  41,  82,  -4,  39,  -8,
      1,  35,  25,-121, 134,-121,  25,  35,   1,
     45,  61,  46,  53,-116,  53,  46,  61,  45,
    -22, -41,  22,-101,  21,-101,  22, -41, -22,
]];

#[rustfmt::skip]
const ELEPHANT: [[i32; 90]; 2] = [[
     -3,  30,   9,   3,  -1,   3,   9,  30,  -3,
     11, 111,  28, -23,  31, -23,  28, 111,  11,
     36,  -6,  17, -22,   1, -22,  17,  -6,  36,
     56, -35,  80, -24, -53, -24,  80, -35,  56,
    -14, -16,  16,   0,   5,   0,  16, -16, -14,
     -5,  42, -26,  -9,  91,  -9, -26,  42,  -5,
     31,  43,  25,  -6,   1,  -6,  25,  43,  31,
    -24, -20, 124, -51,  82, -51, 124, -20, -24,
     24,   4,  14, 130,   5, 130,  14,   4,  24,
    -81,  -9,  11,  13,  12,  13,  11,  -9, -81,
], [
      0,  -6,   9,   7,  -2,   7,   9,  -6,   0,
     16,  77,  43, -18,  34, -18,  43,  77,  16,
     42, -14,  28, -27,   2, -27,  28, -14,  42,
     25, -30,  94,  -5, -32,  -5,  94, -30,  25,
    -11, -24,  20,  -4,   1,  -4,  20, -24, -11,
     13,  27, -64, -23, 148, -23, -64,  27,  13,
     29,  54,  24, -10,   2, -10,  24,  54,  29,
    -53, -27, 112, -98,-111, -98, 112, -27, -53,
     34,   4,  16, 143, -35, 143,  16,   4,  34,
   -102, -40, -85,  18,   9,  18, -85, -40,-102,
]];

#[rustfmt::skip]
const CHARIOT: [[i32; 90]; 2] = [[
     28, 116,  85, 115, 113, 115,  85, 116,  28,
     36, 165,  84, 188, 133, 188,  84, 165,  36,
     64, 106,  58, 180, 134, 180,  58, 106,  64,
     47, 164, 158, 101,  77, 101, 158, 164,  47,
     90, 159, 104, 127, 109, 127, 104, 159,  90,
    129, 103, 152, 134, 127, 134, 152, 103, 129,
     81, 184, 111, 153,  86, 153, 111, 184,  81,
      0,  73, 102, 103, 101, 103, 102,  73,   0,
    -19, -18,  36,  79,  49,  79,  36, -18, -19,
    -11, 135,  49,  67,  -8,  67,  49, 135, -11,
], [
     26, 101,  65, 105, 136, 105,  65, 101,  26,
     64,  83,  62, 122, 142, 122,  62,  83,  64,
     86, 104,  85, 140, 125, 140,  85, 104,  86,
     59, 125,  90, 144, 140, 144,  90, 125,  59,
    100, 123,  98, 152, 126, 152,  98, 123, 100,
    113,  90, 103, 119, 113, 119, 103,  90, 113,
     72, 145,  95, 139, 113, 139,  95, 145,  72,
     23,  73,  75, 124, 100, 124,  75,  73,  23,
    -41,  18,  56,  95,  50,  95,  56,  18, -41,
    -45,  93,  38,  42,  -8,  42,  38,  93, -45,
]];

#[rustfmt::skip]
const CANNON: [[i32; 90]; 2] = [[
     20,  77,  19, -42, -14, -42,  19,  77,  20,
     79,  43,  -2, -11,   8, -11,  -2,  43,  79,
     15,  63, -70,   3, -11,   3, -70,  63,  15,
     52,  25,   1,  23,  47,  23,   1,  25,  52,
     -7,  -4, -34,   7, 138,   7, -34,  -4,  -7,
      3,  10, -30,  -2, 136,  -2, -30,  10,   3,
     45,  -7,  85,  25,  41,  25,  85,  -7,  45,
     59,  -2,  59,  22,  97,  22,  59,  -2,  59,
     -7,  42,   7,  56, 100,  56,   7,  42,  -7,
    -82,  47, -36,  29, -12,  29, -36,  47, -82,
], [
      8,  75,   9, -42, -22, -42,   9,  75,   8,
     67,  24,  -6, -14,   2, -14,  -6,  24,  67,
      0,  28, -12,  -5,  -9,  -5, -12,  28,   0,
     25,  20, -53,   7,   3,   7, -53,  20,  25,
    -14,   8, -10, -34,  12, -34, -10,   8, -14,
     -8,   8, -30,  -8,  59,  -8, -30,   8,  -8,
     34,  -7,  43,   6,   4,   6,  43,  -7,  34,
     -2, -16,  25,   9,  41,   9,  25, -16,  -2,
    -20,   8, -23,  14,  29,  14, -23,   8, -20,
    -65,  51, -37,  25,   0,  25, -37,  51, -65,
]];

#[rustfmt::skip]
const HORSE: [[i32; 90]; 2] = [[
     30, -22,  80,  24, -22,  24,  80, -22,  30,
     16,  72, 185,  85,  16,  85, 185,  72,  16,
     45,  77, 117, 165,  92, 165, 117,  77,  45,
    -14, 158, 167, 201, 118, 201, 167, 158, -14,
     11,  10,  44, 180, 107, 180,  44,  10,  11,
     38,  51, 133,  92,  25,  92, 133,  51,  38,
     29,   4,  22,  75, 101,  75,  22,   4,  29,
      9,  -3,  50,  45,  25,  45,  50,  -3,   9,
   -107, -55,  23,  48, -20,  48,  23, -55,-107,
      6, -32,  13,  -6,  -5,  -6,  13, -32,   6,
], [
     33, -36,  76,  24, -21,  24,  76, -36,  33,
      5,  70, 112,  49,   9,  49, 112,  70,   5,
     50,  53,  97, 137, 103, 137,  97,  53,  50,
    -11, 111, 107,  75, 115,  75, 107, 111, -11,
     -3,  29,  67, 103,  70, 103,  67,  29,  -3,
     22,  69, 143, 110,  14, 110, 143,  69,  22,
     37,  -4,  57,  59,  60,  59,  57,  -4,  37,
     36,  -8,  52,  27,  49,  27,  52,  -8,  36,
    -81, -40,  37,   9, -26,   9,  37, -40, -81,
      5, -20,  17,  23,  -4,  23,  17, -20,   5,
]];

#[rustfmt::skip]
const SOLDIER: [[i32; 90]; 2] = [[
      1,  -9,  47,  29, -42,  29,  47,  -9,   1,
     19, 122, 195, 285, 246, 285, 195, 122,  19,
     65,  71, 173, 277, 259, 277, 173,  71,  65,
     99, 111, 101, 160, 164, 160, 101, 111,  99,
     56,  72, 102, 117, 142, 117, 102,  72,  56,
     28, -78,  67,  11,  64,  11,  67, -78,  28,
     16,  11,   5,  56,  73,  56,   5,  11,  16,
    -32, -37,  55, -63,  70, -63,  55, -37, -32,
     -4, -33, -25,   0,-107,   0, -25, -33,  -4,
     -7,  61,  10,  44, -17,  44,  10,  61,  -7,
], [
     13, -26,  33,  14, -85,  14,  33, -26,  13,
     34, 162, 241, 256, 259, 256, 241, 162,  34,
     88, 119, 181, 290, 289, 290, 181, 119,  88,
     79, 130, 122, 151, 176, 151, 122, 130,  79,
    138,  92, 122, 155, 174, 155, 122,  92, 138,
    108, -66,  88,  16, 160,  16,  88, -66, 108,
     93,  18, 103,  43, 139,  43, 103,  18,  93,
    -12, -35,  42, -69,  40, -69,  42, -35, -12,
     11,   3, -35, -19,  -3, -19, -35,   3,  11,
     -6,  30,   8,  36, -19,  36,   8,  30,  -6,
]];

const TABLES: [&[[i32; 90]; 2]; 7] = [
    &GENERAL, &ADVISOR, &ELEPHANT, &CHARIOT, &CANNON, &HORSE, &SOLDIER,
];

/// The piece-square bonus of `piece` standing on `square`, in the opening and in the endgame.
#[inline]
pub fn pst(piece: Piece, square: Square) -> (i32, i32) {
    let file = usize::from(square.file().index());
    let rank = usize::from(square.rank().index());
    // Row 0 of a table is the mover's far rank (rank 9 for Red, rank 0 for Black).
    let index = match piece.side {
        Side::Red => (9 - rank) * 9 + file,
        Side::Black => rank * 9 + (8 - file),
    };
    let [opening, endgame] = TABLES[piece.role.index()];
    (opening[index], endgame[index])
}

#[cfg(test)]
mod tests {
    use super::*;
    use jieqi_rules::Role;

    /// Material plus position of a face-up piece, in the opening and in the endgame.
    fn piece_values(piece: Piece, square: Square) -> [i32; 2] {
        let (opening, endgame) = pst(piece, square);
        let material = VALUES[piece.role.index()];
        [material + opening, material + endgame]
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
    fn crossed_soldiers_are_worth_more_than_soldiers_at_home() {
        // The fitted endgame tables value an unmoved central soldier nearly as high as a
        // crossed one, so the rule is asserted for whole ranks: on average over the files, by
        // a quarter of a soldier at least.
        for side in Side::ALL {
            let soldier = Piece::new(side, Role::Soldier);
            let (crossed, home) = match side {
                Side::Red => (6, 3),
                Side::Black => (3, 6),
            };
            for phase in 0..2 {
                let on_rank = |rank: i32| -> i32 {
                    (0..9)
                        .filter_map(|file| Square::from_coords(file, rank))
                        .map(|square| piece_values(soldier, square)[phase])
                        .sum()
                };
                assert!(
                    on_rank(crossed) > on_rank(home) + 9 * 25,
                    "{side:?}, phase {phase}"
                );
            }
        }
    }

    #[test]
    fn chariot_outweighs_horse_and_cannon_everywhere() {
        let r = Piece::new(Side::Red, Role::Chariot);
        for square in Square::all() {
            for role in [Role::Horse, Role::Cannon] {
                let other = Piece::new(Side::Red, role);
                for phase in 0..2 {
                    assert!(
                        piece_values(r, square)[phase] > piece_values(other, square)[phase] + 300
                    );
                }
            }
        }
    }
}
