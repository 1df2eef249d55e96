//! Material values and piece-square tables for Xiangqi and Jieqi, fitted by
//! `examples/texel.rs` to positions of the engine's own games (Xiangqi and Jieqi positions
//! together). A Jieqi position is labelled by its game's result. A Xiangqi position is
//! labelled by what Fairy-Stockfish makes of it (`scripts/label-with-fairy-stockfish.py`: a
//! 3,000-node search of each position, its value turned into an expected result on the scale
//! at which it best predicts those games' results): the games of a few thousand nodes a move
//! are mostly won by whoever blunders last, a noisy label, where a stronger engine's
//! judgement of the position itself is not. Against the tables fitted to results only, at
//! 30,000 nodes a move in self-play: +38 Elo (+13, +63) in Xiangqi over 600 games (+45 and
//! +30 on two seeds) and +38 (+11, +66) in Jieqi over 600 (+48 and +29), at the same speed.
//! Refitting the activity weights with them (the tuner fits them too) did not gain: +0 (-36,
//! +36) in Xiangqi over 300. Nor, in Jieqi, did a second round (these tables refitted on
//! twice the Xiangqi positions, half of them from games of these tables): +42 (+18, +67) in
//! Xiangqi over 600 but -5 (-27, +17) in Jieqi over 900, so it was not kept.
//!
//! Xiangqi now has tables of its own ([`XIANGQI`]), which keep such a gain without touching
//! Jieqi: the shared tables above refitted by `texel tune --xiangqi` to Xiangqi positions
//! alone, labelled by Fairy-Stockfish, with the material values and the activity term held
//! (they are shared with Jieqi, whose evaluation is therefore unchanged). Jieqi and Banqi
//! keep the shared tables ([`JIEQI`]).
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

use jieqi_rules::{Piece, Side, Square, Variant};

/// Material value of each role by [`Role::index`]. The general's is 0: losing it is mate,
/// which the search scores on its own.
pub const VALUES: [i32; 7] = [0, 216, 144, 949, 439, 372, 41];

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

/// What having the move is worth, as fitted: about a twentieth of a chariot. (Fitted to game results
/// alone it came out at nothing: in a quiet position the move is worth little over a whole
/// game; a search's value of the position, the label of Xiangqi positions now, counts it.)
pub const TEMPO: i32 = 41;

#[rustfmt::skip]
const GENERAL: [[i32; 90]; 2] = [[
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,-130, -84,-130,   0,   0,   0,
      0,   0,   0, -56,   6, -56,   0,   0,   0,
      0,   0,   0,  84, 120,  84,   0,   0,   0,
], [
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0, -25,  -6, -25,   0,   0,   0,
      0,   0,   0,   6,  23,   6,   0,   0,   0,
      0,   0,   0, -23, -34, -23,   0,   0,   0,
]];

#[rustfmt::skip]
const ADVISOR: [[i32; 90]; 2] = [[
     93, -44,  78, -25,  19, -25,  78, -44,  93,
    -18, 168, -32,  13,  20,  13, -32, 168, -18,
    -17,   4,  69,  52,  13,  52,  69,   4, -17,
    -23,  75, -21,   6,  18,   6, -21,  75, -23,
     -9, -37,  18,   1,  -1,   1,  18, -37,  -9,
     49,  31,  57,  15,  -1,  15,  57,  31,  49,
    -32,  47,   4,  65,  25,  65,   4,  47, -32,
     53,  45, 122, -53,  40, -53, 122,  45,  53,
    -14,  74,  44, 125, 133, 125,  44,  74, -14,
    -13, -48,   2,  70,  27,  70,   2, -48, -13,
], [
     96, -31,  72, -12,  30, -12,  72, -31,  96,
    -23,  88, -14,  20,  30,  20, -14,  88, -23,
    -12,  20,  85,  87,   6,  87,  85,  20, -12,
    -38,  59,   6,  13,  19,  13,   6,  59, -38,
      4, -11,  18,  23,   1,  23,  18, -11,   4,
     55,  26, -15,  13,  56,  13, -15,  26,  55,
    -31,  49, -16, 105,  52, 105, -16,  49, -31,
     41,  65,  11, -56,  97, -56,  11,  65,  41,
      8,  80,  75,  51, -35,  51,  75,  80,   8,
    -19, -40,  13, -61,  23, -61,  13, -40, -19,
]];

#[rustfmt::skip]
const ELEPHANT: [[i32; 90]; 2] = [[
      6,  16,   9,  -4,  -1,  -4,   9,  16,   6,
     11, 173,  13,  -5,  36,  -5,  13, 173,  11,
     39, -25,   9, -63,  -6, -63,   9, -25,  39,
    -21,  19, 183,   2, -61,   2, 183,  19, -21,
     -5, -16, -10,  -7,  -1,  -7, -10, -16,  -5,
     14,  53, -34, -27, 176, -27, -34,  53,  14,
    -33,  53,  38,  -8,  -2,  -8,  38,  53, -33,
      3, -15,  76, -40,  94, -40,  76, -15,   3,
     22,  10,  -3,  96,  41,  96,  -3,  10,  22,
    -68, -44,  36,  25,  10,  25,  36, -44, -68,
], [
     12, -11,  10,   8,  -2,   8,  10, -11,  12,
     16,  96,  64,  -8,  46,  -8,  64,  96,  16,
     50, -20,  34, -40,   0, -40,  34, -20,  50,
    -17,  14, 190,  20, -30,  20, 190,  14, -17,
     -7, -27, -28, -10, -20, -10, -28, -27,  -7,
     10,  50,  -8, -17, 199, -17,  -8,  50,  10,
    -41,  52,  23, -18,  -7, -18,  23,  52, -41,
    -18, -28, 149, -71, -24, -71, 149, -28, -18,
     21,  15,   4,  73, -53,  73,   4,  15,  21,
    -99, -69,  -9,  71,   6,  71,  -9, -69, -99,
]];

#[rustfmt::skip]
const CHARIOT: [[i32; 90]; 2] = [[
     43, 129, 102, 105, 119, 105, 102, 129,  43,
     38, 197,  82, 212, 138, 212,  82, 197,  38,
     72, 152,  90, 206, 166, 206,  90, 152,  72,
     87, 246, 203, 134, 126, 134, 203, 246,  87,
    106, 179, 173, 144, 138, 144, 173, 179, 106,
    175, 149, 196, 175, 156, 175, 196, 149, 175,
    115, 207, 152, 170, 112, 170, 152, 207, 115,
     53,  96, 187, 132, 196, 132, 187,  96,  53,
     33,  38,  51, 118,  92, 118,  51,  38,  33,
     39, 131,  62, 110,  -8, 110,  62, 131,  39,
], [
     37, 134,  77, 110, 150, 110,  77, 134,  37,
     67, 115,  53, 121, 148, 121,  53, 115,  67,
     97, 122, 112, 147, 165, 147, 112, 122,  97,
     90, 144, 116, 134, 176, 134, 116, 144,  90,
    116, 156, 134, 144, 157, 144, 134, 156, 116,
    129, 137, 138, 129, 128, 129, 138, 137, 129,
     96, 173, 122, 134, 141, 134, 122, 173,  96,
     44, 104, 100, 117, 107, 117, 100, 104,  44,
    -29,  56,  62, 108,  72, 108,  62,  56, -29,
    -41, 112,  41,  51,  -8,  51,  41, 112, -41,
]];

#[rustfmt::skip]
const CANNON: [[i32; 90]; 2] = [[
     37,  76,  32, -51, -10, -51,  32,  76,  37,
     55,  25,  -6,  12,   1,  12,  -6,  25,  55,
      8,  17, -49,   3,   2,   3, -49,  17,   8,
     34,  35,  25,  38,  80,  38,  25,  35,  34,
     -1, -10, -18,  19, 145,  19, -18, -10,  -1,
     43,  35,  34,  -4, 120,  -4,  34,  35,  43,
     47,   9,  46,  33,  32,  33,  46,   9,  47,
     68,  35,  80,  52, 113,  52,  80,  35,  68,
      9,  29,  26,  68,  93,  68,  26,  29,   9,
    -74,   0, -24,  60, -22,  60, -24,   0, -74,
], [
     11,  25,   0, -39, -21, -39,   0,  25,  11,
      2,  -3,  -8, -11,  -4, -11,  -8,  -3,   2,
     -8,  14,  -2,   1,   0,   1,  -2,  14,  -8,
      3,  31, -38,  30,  26,  30, -38,  31,   3,
    -11,  22,  -4, -22,  34, -22,  -4,  22, -11,
     15,   3,  -3,  -4,  53,  -4,  -3,   3,  15,
     23, -11,   5, -16,   5, -16,   5, -11,  23,
      6, -13,   8,  21,  16,  21,   8, -13,   6,
    -22,   6, -26,  50,  49,  50, -26,   6, -22,
    -63,   9, -40,  27, -10,  27, -40,   9, -63,
]];

#[rustfmt::skip]
const HORSE: [[i32; 90]; 2] = [[
     45, -11,  84,  27, -22,  27,  84, -11,  45,
      7,  73, 212,  95,  14,  95, 212,  73,   7,
     59, 113, 126, 186, 123, 186, 126, 113,  59,
     -4, 185,  90, 231, 110, 231,  90, 185,  -4,
     20,  25,  69, 159, 109, 159,  69,  25,  20,
    100,  68, 160,  89,  36,  89, 160,  68, 100,
     23,  46,  40,  99, 102,  99,  40,  46,  23,
      5,  -5,  47,  72,  53,  72,  47,  -5,   5,
   -107, -66,  34,  25, -10,  25,  34, -66,-107,
    -12, -24,  -6,  -6,  -6,  -6,  -6, -24, -12,
], [
     42, -34,  82,  35, -19,  35,  82, -34,  42,
      4, 102, 120,  70,   8,  70, 120, 102,   4,
     63,  97, 103, 146, 127, 146, 103,  97,  63,
     15, 135, 113,  99, 119,  99, 113, 135,  15,
     18,  58, 105, 117, 117, 117, 105,  58,  18,
     61,  95, 136, 130,  23, 130, 136,  95,  61,
     49,  19,  78,  78,  84,  78,  78,  19,  49,
     49,  -7,  45,  52,  65,  52,  45,  -7,  49,
    -65, -46,  32,  11, -25,  11,  32, -46, -65,
    -10, -11,  20,  11,  -6,  11,  20, -11, -10,
]];

#[rustfmt::skip]
const SOLDIER: [[i32; 90]; 2] = [[
     -7,   1,  41,  35, -43,  35,  41,   1,  -7,
     17,  79, 151, 311, 255, 311, 151,  79,  17,
     80,  75, 188, 288, 267, 288, 188,  75,  80,
    106,  64, 131, 182, 151, 182, 131,  64, 106,
     45,  64, 125, 147, 128, 147, 125,  64,  45,
     81, -80,  72,   6,  72,   6,  72, -80,  81,
     42,  14,  28,  28,  78,  28,  28,  14,  42,
    -79, -25,  63, -70,   1, -70,  63, -25, -79,
     29, -32, -29, -19, -79, -19, -29, -32,  29,
     -4,  18,  57,  17, -14,  17,  57,  18,  -4,
], [
     27, -28,  14,  24, -86,  24,  14, -28,  27,
     31, 131, 191, 236, 289, 236, 191, 131,  31,
     96, 150, 194, 328, 330, 328, 194, 150,  96,
     94, 128, 147, 195, 202, 195, 147, 128,  94,
    159, 102, 146, 210, 206, 210, 146, 102, 159,
    123, -63, 129,  17, 189,  17, 129, -63, 123,
     90,  20, 124,  33, 123,  33, 124,  20,  90,
    -23, -25,  69, -89,  61, -89,  69, -25, -23,
     34,   8, -49,  57, -51,  57, -49,   8,  34,
     -2,  -6,  58,  -8, -15,  -8,  58,  -6,  -2,
]];

/// Xiangqi's own tables and tempo: the shared ones refitted to 259,000 quiet positions of
/// 2,600 Xiangqi games the engine played at 4,000 nodes a move (seeds 401 and 402), each
/// labelled by a 3,000-node Fairy-Stockfish search; the fit's error fell from 0.00810 to
/// 0.00709 on the tenth held out. Against the shared tables at 30,000 nodes a move in
/// self-play (`jieqi-bot match --uci-go "nodes 30000"`, seeds 51 to 54): +40 Elo (+18, +62)
/// in Xiangqi over 800 games (+35, +37, +60 and +28 on the four seeds), at the same speed.
/// Jieqi's search is unchanged, `info` line for `info` line.
pub const XIANGQI_TEMPO: i32 = 62;

#[rustfmt::skip]
const XIANGQI_GENERAL: [[i32; 90]; 2] = [[
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,-149, -95,-149,   0,   0,   0,
      0,   0,   0, -71,  21, -71,   0,   0,   0,
      0,   0,   0,  79, 155,  79,   0,   0,   0,
], [
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0, -36,  -4, -36,   0,   0,   0,
      0,   0,   0,  -2,  14,  -2,   0,   0,   0,
      0,   0,   0, -18, -14, -18,   0,   0,   0,
]];

// A Xiangqi advisor stands only on its five points and an elephant on its seven, and a soldier
// never stands behind its start or between its start points: the rest of their tables is
// never read, and left at zero.
#[rustfmt::skip]
const XIANGQI_ADVISOR: [[i32; 90]; 2] = [[
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0, -31,   0, -31,   0,   0,   0,
      0,   0,   0,   0, 141,   0,   0,   0,   0,
      0,   0,   0,  79,   0,  79,   0,   0,   0,
], [
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0, -48,   0, -48,   0,   0,   0,
      0,   0,   0,   0, -52,   0,   0,   0,   0,
      0,   0,   0, -64,   0, -64,   0,   0,   0,
]];

#[rustfmt::skip]
const XIANGQI_ELEPHANT: [[i32; 90]; 2] = [[
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,  -3,   0,   0,   0,  -3,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
     34,   0,   0,   0, 134,   0,   0,   0,  34,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,  61,   0,   0,   0,  61,   0,   0,
], [
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   3,   0,   0,   0,   3,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
    -24,   0,   0,   0, -12,   0,   0,   0, -24,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0, -16,   0,   0,   0, -16,   0,   0,
]];

#[rustfmt::skip]
const XIANGQI_CHARIOT: [[i32; 90]; 2] = [[
     62, 127, 121, 129, 130, 129, 121, 127,  62,
     49, 154, 113, 193, 148, 193, 113, 154,  49,
     84, 141, 113, 204, 169, 204, 113, 141,  84,
    101, 159, 204, 146, 135, 146, 204, 159, 101,
    105, 145, 178, 134, 145, 134, 178, 145, 105,
    154, 125, 165, 151, 157, 151, 165, 125, 154,
    100, 134, 152, 156, 120, 156, 152, 134, 100,
     71,  96, 159, 117, 159, 117, 159,  96,  71,
     64,  63,  60,  97,  87,  97,  60,  63,  64,
     67, 113,  72, 122,  -8, 122,  72, 113,  67,
], [
     53, 107,  87, 110, 165, 110,  87, 107,  53,
     73,  88,  66, 111, 157, 111,  66,  88,  73,
    105, 109, 134, 136, 162, 136, 134, 109, 105,
    104, 103, 111, 124, 170, 124, 111, 103, 104,
    117, 123, 134, 124, 158, 124, 134, 123, 117,
    115, 114, 123, 114, 134, 114, 123, 114, 115,
     95, 124, 127, 118, 153, 118, 127, 124,  95,
     46, 105,  95, 106, 107, 106,  95, 105,  46,
    -25,  65,  64, 107,  70, 107,  64,  65, -25,
    -39,  83,  39,  49,  -8,  49,  39,  83, -39,
]];

#[rustfmt::skip]
const XIANGQI_CANNON: [[i32; 90]; 2] = [[
     90, 102,  36, -38,  -9, -38,  36, 102,  90,
     61,  50,  12,  32,   6,  32,  12,  50,  61,
     19,  49,  -6,  17,  14,  17,  -6,  49,  19,
     56,  72,  83,  55, 116,  55,  83,  72,  56,
     24,  10, -11,  26, 171,  26, -11,  10,  24,
     47,  72,  80,  21, 126,  21,  80,  72,  47,
     47,  42,  58,  53,  42,  53,  58,  42,  47,
     77,  60, 117,  82, 128,  82, 117,  60,  77,
     28,  35,  48,  56,  85,  56,  48,  35,  28,
    -75,  -1, -12,  67, -18,  67, -12,  -1, -75,
], [
     36,  25,   7, -29, -20, -29,   7,  25,  36,
      6,  10,   3,  -7,  -4,  -7,   3,  10,   6,
     -1,  16,  12,   6,   4,   6,  12,  16,  -1,
     13,  35, -17,  17,  38,  17, -17,  35,  13,
      4,  34,   1,   1,  28,   1,   1,  34,   4,
     13,  10,   8,  13,  38,  13,   8,  10,  13,
     21,   1,   8,  -8,  13,  -8,   8,   1,  21,
     20,  11,   9,  37,  36,  37,   9,  11,  20,
    -18,  14, -17,  41,  49,  41, -17,  14, -18,
    -61,   9, -31,  27,   2,  27, -31,   9, -61,
]];

#[rustfmt::skip]
const XIANGQI_HORSE: [[i32; 90]; 2] = [[
     45,  -7,  81,  30, -21,  30,  81,  -7,  45,
     12,  76, 194, 103,  16, 103, 194,  76,  12,
     63, 109, 114, 188, 136, 188, 114, 109,  63,
     -3, 175,  64, 231,  94, 231,  64, 175,  -3,
     19,  30,  79, 156, 108, 156,  79,  30,  19,
     90,  56, 123,  95,  49,  95, 123,  56,  90,
      7,  37,  48,  73,  81,  73,  48,  37,   7,
    -11,   2,  54,  69,  51,  69,  54,   2, -11,
    -98, -66,  13,  23,  -5,  23,  13, -66, -98,
    -15, -28,  -5,  -7,  -6,  -7,  -5, -28, -15,
], [
     47, -21,  81,  41, -17,  41,  81, -21,  47,
     21, 104,  87,  75,   6,  75,  87, 104,  21,
     72,  93,  87, 109, 133, 109,  87,  93,  72,
     23,  92,  94,  83, 103,  83,  94,  92,  23,
     26,  71, 107,  96,  95,  96, 107,  71,  26,
     56,  91, 107, 107,  44, 107, 107,  91,  56,
     45,  22,  82,  63,  86,  63,  82,  22,  45,
     49,   3,  39,  60,  70,  60,  39,   3,  49,
    -61, -44,  24,  18, -22,  18,  24, -44, -61,
    -11,   6,  22,  19,  -6,  19,  22,   6, -11,
]];

#[rustfmt::skip]
const XIANGQI_SOLDIER: [[i32; 90]; 2] = [[
     -3,   3,  50,  41, -42,  41,  50,   3,  -3,
     18,  80, 155, 344, 268, 344, 155,  80,  18,
     81,  76, 190, 287, 274, 287, 190,  76,  81,
    104,  72, 166, 185, 157, 185, 166,  72, 104,
     58,  75, 138, 156, 133, 156, 138,  75,  58,
     35,   0,  73,   0,  57,   0,  73,   0,  35,
     23,   0,  25,   0,  91,   0,  25,   0,  23,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
], [
     46, -12,  50,  52, -80,  52,  50, -12,  46,
     39, 154, 194, 239, 321, 239, 194, 154,  39,
     95, 155, 187, 322, 299, 322, 187, 155,  95,
     92, 137, 154, 178, 197, 178, 154, 137,  92,
    121, 118, 137, 188, 192, 188, 137, 118, 121,
     86,   0,  96,   0, 151,   0,  96,   0,  86,
     57,   0, 103,   0, 103,   0, 103,   0,  57,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,
]];

/// One variant's piece-square tables (by [`Role::index`](jieqi_rules::Role::index)) and what
/// having the move is worth.
#[derive(Debug, PartialEq, Eq)]
pub struct Tables {
    squares: [&'static [[i32; 90]; 2]; 7],
    pub tempo: i32,
}

/// Jieqi's tables, fitted to Jieqi and Xiangqi positions together.
pub static JIEQI: Tables = Tables {
    squares: [
        &GENERAL, &ADVISOR, &ELEPHANT, &CHARIOT, &CANNON, &HORSE, &SOLDIER,
    ],
    tempo: TEMPO,
};

/// Xiangqi's own tables, see [`XIANGQI_GENERAL`].
pub static XIANGQI: Tables = Tables {
    squares: [
        &XIANGQI_GENERAL,
        &XIANGQI_ADVISOR,
        &XIANGQI_ELEPHANT,
        &XIANGQI_CHARIOT,
        &XIANGQI_CANNON,
        &XIANGQI_HORSE,
        &XIANGQI_SOLDIER,
    ],
    tempo: XIANGQI_TEMPO,
};

impl Tables {
    /// The tables `variant`'s positions are evaluated by.
    pub fn of(variant: Variant) -> &'static Tables {
        match variant {
            Variant::Xiangqi => &XIANGQI,
            Variant::Jieqi | Variant::Banqi => &JIEQI,
        }
    }

    /// The piece-square bonus of `piece` standing on `square`, in the opening and in the
    /// endgame.
    #[inline]
    pub fn pst(&self, piece: Piece, square: Square) -> (i32, i32) {
        let file = usize::from(square.file().index());
        let rank = usize::from(square.rank().index());
        // Row 0 of a table is the mover's far rank (rank 9 for Red, rank 0 for Black).
        let index = match piece.side {
            Side::Red => (9 - rank) * 9 + file,
            Side::Black => rank * 9 + (8 - file),
        };
        let [opening, endgame] = self.squares[piece.role.index()];
        (opening[index], endgame[index])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jieqi_rules::Role;

    /// Material plus position of a face-up piece, in the opening and in the endgame.
    fn piece_values(tables: &Tables, piece: Piece, square: Square) -> [i32; 2] {
        let (opening, endgame) = tables.pst(piece, square);
        let material = VALUES[piece.role.index()];
        [material + opening, material + endgame]
    }

    #[test]
    fn tables_are_mirror_images_for_the_two_sides() {
        for tables in [&JIEQI, &XIANGQI] {
            for role in Role::ALL {
                for square in Square::all() {
                    let red = tables.pst(Piece::new(Side::Red, role), square);
                    let black = tables.pst(Piece::new(Side::Black, role), square.flip());
                    assert_eq!(red, black, "{role} on {square}");
                }
            }
        }
    }

    #[test]
    fn xiangqi_has_tables_of_its_own_and_jieqi_and_banqi_share_the_others() {
        assert!(std::ptr::eq(Tables::of(Variant::Xiangqi), &XIANGQI));
        assert!(std::ptr::eq(Tables::of(Variant::Jieqi), &JIEQI));
        assert!(std::ptr::eq(Tables::of(Variant::Banqi), &JIEQI));
        assert_ne!(XIANGQI, JIEQI);
    }

    #[test]
    fn crossed_soldiers_are_worth_more_than_soldiers_at_home() {
        // The fitted endgame tables value an unmoved central soldier nearly as high as a
        // crossed one, so the rule is asserted for whole ranks: on average over the files, by
        // a quarter of a soldier at least.
        let sides = [&JIEQI, &XIANGQI]
            .into_iter()
            .flat_map(|tables| Side::ALL.map(|side| (tables, side)));
        for (tables, side) in sides {
            let soldier = Piece::new(side, Role::Soldier);
            let (crossed, home) = match side {
                Side::Red => (6, 3),
                Side::Black => (3, 6),
            };
            for phase in 0..2 {
                let on_rank = |rank: i32| -> i32 {
                    (0..9)
                        .filter_map(|file| Square::from_coords(file, rank))
                        .map(|square| piece_values(tables, soldier, square)[phase])
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
        for (tables, square) in [&JIEQI, &XIANGQI]
            .into_iter()
            .flat_map(|tables| Square::all().map(move |square| (tables, square)))
        {
            for role in [Role::Horse, Role::Cannon] {
                let other = Piece::new(Side::Red, role);
                for phase in 0..2 {
                    assert!(
                        piece_values(tables, r, square)[phase]
                            > piece_values(tables, other, square)[phase] + 300
                    );
                }
            }
        }
    }
}
