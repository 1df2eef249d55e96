//! Move tables of the 9x10 board, computed at compile time.
//!
//! Move generation, legality and attack tests read these tables instead of doing coordinate
//! arithmetic, so the hot loops of [`crate::position::Position`] are table lookups and board
//! reads only. Everything here is indexed by square index (`rank * 9 + file`, see
//! [`crate::Square::index`]); nothing here knows about pieces on the board.
//!
//! The tables are crate-private: the public face of attacks is
//! [`crate::position::Position::is_attacked`] and
//! [`crate::position::Position::attacked_squares_from`].

/// Up to eight target points of a stepping piece from one point, each with the point that
/// must be empty on the way (`via`: a horse's leg or an elephant's eye; unused otherwise).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Jumps {
    len: u8,
    to: [u8; 8],
    via: [u8; 8],
}

impl Jumps {
    const EMPTY: Jumps = Jumps {
        len: 0,
        to: [0; 8],
        via: [0; 8],
    };

    const fn with(mut self, to: usize, via: usize) -> Jumps {
        self.to[self.len as usize] = to as u8;
        self.via[self.len as usize] = via as u8;
        self.len += 1;
        self
    }

    /// The target points.
    #[inline]
    pub(crate) fn targets(&self) -> &[u8] {
        &self.to[..self.len as usize]
    }

    /// The `(target, via)` pairs.
    #[inline]
    pub(crate) fn pairs(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        let n = self.len as usize;
        self.to[..n]
            .iter()
            .zip(&self.via[..n])
            .map(|(&t, &v)| (t as usize, v as usize))
    }
}

/// The four line directions: towards Black (+rank), towards Red (-rank), +file, -file.
/// Directions 0 and 1 run along a file (where the flying general rule acts).
pub(crate) const DIRECTIONS: usize = 4;

/// The points along each line direction from each point, nearest first.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ray {
    len: u8,
    squares: [u8; 9],
}

impl Ray {
    const EMPTY: Ray = Ray {
        len: 0,
        squares: [0; 9],
    };

    /// The points of the ray, nearest first.
    #[inline]
    pub(crate) fn squares(&self) -> &[u8] {
        &self.squares[..self.len as usize]
    }
}

const fn at(file: i32, rank: i32) -> Option<usize> {
    if file >= 0 && file < 9 && rank >= 0 && rank < 10 {
        Some((rank * 9 + file) as usize)
    } else {
        None
    }
}

const fn file_of(sq: usize) -> i32 {
    (sq % 9) as i32
}

const fn rank_of(sq: usize) -> i32 {
    (sq / 9) as i32
}

const fn in_palace(sq: usize) -> bool {
    let f = file_of(sq);
    let r = rank_of(sq);
    f >= 3 && f <= 5 && (r <= 2 || r >= 7)
}

/// Whether `sq` is on the home half of side `side` (0 Red: ranks 0–4, 1 Black: ranks 5–9).
const fn on_home_half(side: usize, sq: usize) -> bool {
    if side == 0 {
        rank_of(sq) <= 4
    } else {
        rank_of(sq) >= 5
    }
}

const LINE_STEPS: [(i32, i32); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
const DIAGONAL_STEPS: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];
/// Horse jumps `(df, dr)` with the leg offset from the horse.
const HORSE_STEPS: [(i32, i32, i32, i32); 8] = [
    (1, 2, 0, 1),
    (-1, 2, 0, 1),
    (1, -2, 0, -1),
    (-1, -2, 0, -1),
    (2, 1, 1, 0),
    (2, -1, 1, 0),
    (-2, 1, -1, 0),
    (-2, -1, -1, 0),
];

const fn build_rays() -> [[Ray; DIRECTIONS]; 90] {
    let mut table = [[Ray::EMPTY; DIRECTIONS]; 90];
    let mut sq = 0;
    while sq < 90 {
        let mut d = 0;
        while d < DIRECTIONS {
            let (df, dr) = LINE_STEPS[d];
            let mut f = file_of(sq) + df;
            let mut r = rank_of(sq) + dr;
            let mut ray = Ray::EMPTY;
            while let Some(t) = at(f, r) {
                ray.squares[ray.len as usize] = t as u8;
                ray.len += 1;
                f += df;
                r += dr;
            }
            table[sq][d] = ray;
            d += 1;
        }
        sq += 1;
    }
    table
}

const fn build_ray_masks() -> [[u128; DIRECTIONS]; 90] {
    let mut table = [[0u128; DIRECTIONS]; 90];
    let mut sq = 0;
    while sq < 90 {
        let mut d = 0;
        while d < DIRECTIONS {
            let ray = RAYS[sq][d];
            let mut i = 0;
            while i < ray.len as usize {
                table[sq][d] |= 1u128 << ray.squares[i];
                i += 1;
            }
            d += 1;
        }
        sq += 1;
    }
    table
}

const fn build_horse(reverse: bool) -> [Jumps; 90] {
    let mut table = [Jumps::EMPTY; 90];
    let mut sq = 0;
    while sq < 90 {
        let mut i = 0;
        while i < 8 {
            let (df, dr, lf, lr) = HORSE_STEPS[i];
            let (f, r) = (file_of(sq), rank_of(sq));
            if !reverse {
                if let (Some(to), Some(leg)) = (at(f + df, r + dr), at(f + lf, r + lr)) {
                    table[sq] = table[sq].with(to, leg);
                }
            } else if let Some(from) = at(f - df, r - dr) {
                // The horse stands on `from` and jumps onto `sq`; its leg is next to `from`.
                if let Some(leg) = at(f - df + lf, r - dr + lr) {
                    table[sq] = table[sq].with(from, leg);
                }
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

const fn build_advisor(palace_only: bool) -> [Jumps; 90] {
    let mut table = [Jumps::EMPTY; 90];
    let mut sq = 0;
    while sq < 90 {
        let mut i = 0;
        while i < 4 {
            let (df, dr) = DIAGONAL_STEPS[i];
            if let Some(to) = at(file_of(sq) + df, rank_of(sq) + dr)
                && (!palace_only || (in_palace(sq) && in_palace(to)))
            {
                table[sq] = table[sq].with(to, to);
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

/// Elephant steps; `home` is `Some(side index)` to keep them on that side's half.
const fn build_elephant(home: Option<usize>) -> [Jumps; 90] {
    let mut table = [Jumps::EMPTY; 90];
    let mut sq = 0;
    while sq < 90 {
        let mut i = 0;
        while i < 4 {
            let (df, dr) = DIAGONAL_STEPS[i];
            let (f, r) = (file_of(sq), rank_of(sq));
            if let (Some(to), Some(eye)) = (at(f + 2 * df, r + 2 * dr), at(f + df, r + dr)) {
                let allowed = match home {
                    Some(side) => on_home_half(side, sq) && on_home_half(side, to),
                    None => true,
                };
                if allowed {
                    table[sq] = table[sq].with(to, eye);
                }
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

const fn build_general() -> [Jumps; 90] {
    let mut table = [Jumps::EMPTY; 90];
    let mut sq = 0;
    while sq < 90 {
        let mut i = 0;
        while i < 4 {
            let (df, dr) = LINE_STEPS[i];
            if let Some(to) = at(file_of(sq) + df, rank_of(sq) + dr)
                && in_palace(sq)
                && in_palace(to)
            {
                table[sq] = table[sq].with(to, to);
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

/// Soldier steps of side `side` (0 Red, 1 Black): forward, and sideways once across the river.
const fn build_soldier(side: usize) -> [Jumps; 90] {
    let mut table = [Jumps::EMPTY; 90];
    let forward = if side == 0 { 1 } else { -1 };
    let mut sq = 0;
    while sq < 90 {
        let (f, r) = (file_of(sq), rank_of(sq));
        if let Some(to) = at(f, r + forward) {
            table[sq] = table[sq].with(to, to);
        }
        if !on_home_half(side, sq) {
            if let Some(to) = at(f - 1, r) {
                table[sq] = table[sq].with(to, to);
            }
            if let Some(to) = at(f + 1, r) {
                table[sq] = table[sq].with(to, to);
            }
        }
        sq += 1;
    }
    table
}

/// For each point, the points from which a soldier of `side` steps onto it.
const fn build_soldier_attackers(side: usize) -> [Jumps; 90] {
    let steps = build_soldier(side);
    let mut table = [Jumps::EMPTY; 90];
    let mut from = 0;
    while from < 90 {
        let s = steps[from];
        let mut i = 0;
        while i < s.len as usize {
            let to = s.to[i] as usize;
            table[to] = table[to].with(from, from);
            i += 1;
        }
        from += 1;
    }
    table
}

/// Points along each line from each point.
pub(crate) static RAYS: [[Ray; DIRECTIONS]; 90] = build_rays();
/// The same lines as bit masks (bit `i` = square index `i`).
pub(crate) static RAY_MASKS: [[u128; DIRECTIONS]; 90] = build_ray_masks();
/// Horse jumps from a point: `(target, leg)`.
pub(crate) static HORSE_MOVES: [Jumps; 90] = build_horse(false);
/// Horses that could jump onto a point: `(horse point, leg)`.
pub(crate) static HORSE_ATTACKERS: [Jumps; 90] = build_horse(true);
/// Advisor steps inside a palace (empty outside the palaces). Symmetric: also the attackers.
pub(crate) static ADVISOR_PALACE: [Jumps; 90] = build_advisor(true);
/// Advisor steps anywhere (Jieqi, face up). Symmetric.
pub(crate) static ADVISOR_FREE: [Jumps; 90] = build_advisor(false);
/// Elephant steps on each side's own half: `(target, eye)`, by side index. Symmetric.
pub(crate) static ELEPHANT_HOME: [[Jumps; 90]; 2] =
    [build_elephant(Some(0)), build_elephant(Some(1))];
/// Elephant steps anywhere (Jieqi, face up): `(target, eye)`. Symmetric.
pub(crate) static ELEPHANT_FREE: [Jumps; 90] = build_elephant(None);
/// General steps inside a palace. Symmetric.
pub(crate) static GENERAL_MOVES: [Jumps; 90] = build_general();
/// Soldier steps by side index.
pub(crate) static SOLDIER_MOVES: [[Jumps; 90]; 2] = [build_soldier(0), build_soldier(1)];
/// Points from which a soldier of a side steps onto a point, by side index.
pub(crate) static SOLDIER_ATTACKERS: [[Jumps; 90]; 2] =
    [build_soldier_attackers(0), build_soldier_attackers(1)];

const fn splitmix64(state: u64) -> (u64, u64) {
    let next = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = next;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (next, z ^ (z >> 31))
}

/// Number of Zobrist piece slots: per side, 7 face-up roles and one covered piece.
pub(crate) const ZOBRIST_SLOTS: usize = 16;

const fn build_zobrist() -> ([[u64; 90]; ZOBRIST_SLOTS], u64) {
    let mut table = [[0u64; 90]; ZOBRIST_SLOTS];
    // A fixed seed: hashes must be the same in every run (stored games, tests).
    let mut state = 0x6A69_6571_6930_0001u64;
    let mut slot = 0;
    while slot < ZOBRIST_SLOTS {
        let mut sq = 0;
        while sq < 90 {
            let (s, v) = splitmix64(state);
            state = s;
            table[slot][sq] = v;
            sq += 1;
        }
        slot += 1;
    }
    let (_, side) = splitmix64(state);
    (table, side)
}

const ZOBRIST: ([[u64; 90]; ZOBRIST_SLOTS], u64) = build_zobrist();
/// Zobrist keys by slot and square.
pub(crate) static ZOBRIST_PIECES: [[u64; 90]; ZOBRIST_SLOTS] = ZOBRIST.0;
/// Zobrist key of Black to move.
pub(crate) const ZOBRIST_BLACK_TO_MOVE: u64 = ZOBRIST.1;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn horse_has_eight_jumps_in_the_open_and_two_in_the_corner() {
        assert_eq!(HORSE_MOVES[4 * 9 + 4].targets().len(), 8);
        assert_eq!(HORSE_MOVES[0].targets().len(), 2);
    }

    #[test]
    fn horse_attackers_mirror_horse_moves() {
        for (sq, attackers) in HORSE_ATTACKERS.iter().enumerate() {
            for (from, leg) in attackers.pairs() {
                assert!(HORSE_MOVES[from].pairs().any(|(t, l)| t == sq && l == leg));
            }
        }
    }

    #[test]
    fn home_elephant_reaches_seven_points() {
        // Breadth-first from c0 (index 2) over Red's home-half elephant steps.
        let mut seen = vec![2usize];
        let mut i = 0;
        while i < seen.len() {
            for &t in ELEPHANT_HOME[0][seen[i]].targets() {
                if !seen.contains(&(t as usize)) {
                    seen.push(t as usize);
                }
            }
            i += 1;
        }
        seen.sort_unstable();
        assert_eq!(seen, vec![2, 6, 18, 22, 26, 38, 42]);
    }

    #[test]
    fn soldier_steps_sideways_only_across_the_river() {
        // Red soldier on e3 (index 31): forward only; on e5 (49): three steps.
        assert_eq!(SOLDIER_MOVES[0][31].targets(), &[40]);
        assert_eq!(SOLDIER_MOVES[0][49].targets().len(), 3);
        assert_eq!(SOLDIER_MOVES[1][58].targets(), &[49]);
    }

    #[test]
    fn zobrist_keys_are_distinct() {
        let mut keys: Vec<u64> = ZOBRIST_PIECES.iter().flatten().copied().collect();
        keys.push(ZOBRIST_BLACK_TO_MOVE);
        let n = keys.len();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), n);
    }
}
