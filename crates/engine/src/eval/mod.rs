//! Static evaluation of Xiangqi and Jieqi positions: material plus piece-square tables, with
//! every covered piece valued at the average of its side's unseen pool. Each table has an
//! opening and an endgame half, blended by how many attackers (chariots, horses, cannons) are
//! left: a soldier or a general wants other points once the board has emptied. Xiangqi has
//! tables of its own; Jieqi's are fitted to both variants (`tables`). All of it is fitted to
//! game results and to Fairy-Stockfish's judgement of positions (`examples/texel.rs`). Once
//! no covered piece is left, an activity term adds where the chariots, cannons and horses
//! can go, how much of the enemy palace they bear on, a cannon facing the enemy general down
//! an empty file, and what the side to move stands to lose to threats against its officers
//! (`activity`; its weights are set by hand: the tuner fits them too, but a fit of them with
//! the tables did not gain in self-play, see `activity`).
//!
//! Valuing covered pieces at the pool's average makes a reveal worth nothing in expectation,
//! as it should be: turning a piece up does not change what it is, only what is known. The
//! search adds `corrections` for reveals it did not expand (see `search`'s module doc): such
//! a piece moves as a stand-in type but keeps the pool's value.

mod activity;
pub(crate) mod tables;

use jieqi_rules::position::Position;
use jieqi_rules::{Cell, Role, Side, Square};

use crate::pool::Pool;
pub(crate) use activity::{ACTIVITY_BOUND, activity};
pub(crate) use tables::VALUES;
use tables::{OPENING_PHASE, PHASE_WEIGHTS, Tables, phase};

/// What a covered piece of each side is worth: the average value of its unseen pool.
#[inline]
pub(crate) fn covered_values(pool: &Pool) -> [i32; 2] {
    [
        pool.expected_value(Side::Red, &VALUES),
        pool.expected_value(Side::Black, &VALUES),
    ]
}

/// The evaluation of `pos` for the side to move. `corrections[sq]` is added to the value of
/// the face-up piece on `sq` (zero except for stand-ins of unexpanded reveals). The search
/// keeps a [`Tally`] instead; this reads one afresh.
#[cfg(test)]
pub(crate) fn evaluate(pos: &Position, pool: &Pool, corrections: &[i32; Square::COUNT]) -> i32 {
    Tally::of(pos, corrections).value(pos, pool)
}

/// The sums the evaluation is made of, each side's by [`Side::index`]. They change only
/// where a move changes the board, so the search keeps them up to date move by move
/// ([`Tally::lift`], [`Tally::set`]) instead of reading all ninety points at every leaf; what
/// depends on the unseen pool (the covered pieces' worth, the phase) is reckoned when a value
/// is asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Tally {
    /// The position's variant's tables.
    tables: &'static Tables,
    /// Face-up material, corrections included.
    material: [i32; 2],
    opening: [i32; 2],
    endgame: [i32; 2],
    /// [`PHASE_WEIGHTS`] of the face-up pieces of both sides.
    face_up: i32,
    /// Covered pieces of each side.
    covered: [i32; 2],
    /// A hash of where the soldiers, advisors, elephants, generals and covered pieces
    /// stand: the slow-changing part of a position, whose errors in the static value the
    /// Xiangqi search learns to correct.
    structure: u64,
    /// A hash of how many of each piece (by side and role, covered ones as a kind of their
    /// own) the board holds, the sum of one key a piece.
    material_key: u64,
}

/// The keys of [`Tally::structure`] and [`Tally::material_key`], built at compile time so
/// that keeping them up to date costs a move a few loads: a piece kind's key is
/// `KEYS[kind]`, a kind on a point's `KEYS[point * 16 + kind]`, with the kind a side and
/// role (or covered) code below 16.
static KEYS: [u64; Square::COUNT * 16] = {
    let mut keys = [0u64; Square::COUNT * 16];
    let mut n = 0;
    while n < keys.len() {
        // SplitMix64's finaliser: distinct inputs give well-mixed keys.
        let mut z = (n as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        keys[n] = z ^ (z >> 31);
        n += 1;
    }
    keys
};

impl Tally {
    /// The sums of `pos` read point by point.
    pub(crate) fn of(pos: &Position, corrections: &[i32; Square::COUNT]) -> Tally {
        let mut tally = Tally {
            tables: Tables::of(pos.variant()),
            material: [0; 2],
            opening: [0; 2],
            endgame: [0; 2],
            face_up: 0,
            covered: [0; 2],
            structure: 0,
            material_key: 0,
        };
        for (sq, cell) in pos.occupied_cells() {
            tally.set(sq, cell, corrections[sq.index()]);
        }
        tally
    }

    /// Counts `cell` standing on `sq`, a face-up piece with `correction` added to its value.
    #[inline]
    pub(crate) fn set(&mut self, sq: Square, cell: Cell, correction: i32) {
        self.add(sq, cell, correction, 1);
    }

    /// Takes back what [`Tally::set`] counted for `cell` on `sq`.
    #[inline]
    pub(crate) fn lift(&mut self, sq: Square, cell: Cell, correction: i32) {
        self.add(sq, cell, correction, -1);
    }

    #[inline]
    fn add(&mut self, sq: Square, cell: Cell, correction: i32, sign: i32) {
        let (kind, structural) = match cell {
            Cell::Empty | Cell::Covered(None) => return,
            Cell::Piece(piece) => {
                let side = piece.side.index();
                let role = piece.role.index();
                let (o, e) = self.tables.pst(piece, sq);
                self.material[side] += sign * (VALUES[role] + correction);
                self.opening[side] += sign * o;
                self.endgame[side] += sign * e;
                self.face_up += sign * PHASE_WEIGHTS[role];
                let officer = matches!(piece.role, Role::Chariot | Role::Horse | Role::Cannon);
                (side * 8 + role, !officer)
            }
            Cell::Covered(Some(side)) => {
                self.covered[side.index()] += sign;
                (side.index() * 8 + 7, true)
            }
        };
        self.material_key = self
            .material_key
            .wrapping_add((sign as u64).wrapping_mul(KEYS[kind]));
        if structural {
            self.structure ^= KEYS[sq.index() * 16 + kind];
        }
    }

    /// Whether no covered piece is left on the board: Xiangqi, or a Jieqi game whose pieces
    /// have all turned up. Only then does the activity term count (see [`activity`]).
    pub(crate) fn all_face_up(&self) -> bool {
        self.covered == [0, 0]
    }

    /// The hash of the position's piece counts (see the field).
    pub(crate) fn material_key(&self) -> u64 {
        self.material_key
    }

    /// The hash of the position's structure (see the field).
    pub(crate) fn structure(&self) -> u64 {
        self.structure
    }

    /// The evaluation of `pos` (whose sums these are) for the side to move, covered pieces
    /// valued by `pool`.
    #[cfg(test)]
    pub(crate) fn value(&self, pos: &Position, pool: &Pool) -> i32 {
        let us = pos.side_to_move();
        let (value, phase) = self.value_without_activity(us, pool);
        if self.all_face_up() {
            value + activity::activity(pos, us, phase)
        } else {
            value
        }
    }

    /// [`Tally::value`] but for the activity term, which reads the board afresh (the costly
    /// part), and the phase that term is blended by. The full value lies within
    /// [`ACTIVITY_BOUND`] of it.
    pub(crate) fn value_without_activity(&self, us: Side, pool: &Pool) -> (i32, i32) {
        let covered_value = covered_values(pool);
        let material = |side: usize| self.material[side] + self.covered[side] * covered_value[side];
        let unseen = pool.counts();
        let phase = phase(
            self.face_up,
            self.covered,
            [&unseen[Side::Red], &unseen[Side::Black]],
        );
        let us = us.index();
        let them = 1 - us;
        let positional = ((self.opening[us] - self.opening[them]) * phase
            + (self.endgame[us] - self.endgame[them]) * (OPENING_PHASE - phase))
            / OPENING_PHASE;
        (
            material(us) - material(them) + positional + self.tables.tempo,
            phase,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jieqi_rules::position::MoveOptions;
    use jieqi_rules::{Move, Piece, Role, Setup, Variant};

    fn mv(text: &str) -> Move {
        let from = text[..2].parse().expect("from square");
        let to = text[2..].parse().expect("to square");
        Move::new(from, to)
    }

    #[test]
    fn start_positions_are_balanced() {
        let none = [0; Square::COUNT];
        let xq = Position::xiangqi_start();
        assert_eq!(
            evaluate(&xq, &Pool::default(), &none),
            tables::XIANGQI.tempo
        );
        let jq = Position::jieqi_start();
        let pool = Pool::jieqi_start();
        assert_eq!(evaluate(&jq, &pool, &none), tables::JIEQI.tempo);
    }

    #[test]
    fn without_attackers_the_endgame_tables_decide() {
        let mut setup = Setup::empty();
        let pieces = [
            ("d0", Piece::new(Side::Red, Role::General)),
            ("e6", Piece::new(Side::Red, Role::Soldier)),
            ("f9", Piece::new(Side::Black, Role::General)),
        ];
        for (square, piece) in pieces {
            let square: Square = square.parse().expect("a square");
            setup.board[square.index()] = Cell::Piece(piece);
        }
        let pos = Position::from_setup(setup, Variant::Xiangqi, MoveOptions::default())
            .expect("valid position");
        let endgame: i32 = pieces
            .iter()
            .map(|(square, piece)| {
                let value = tables::XIANGQI
                    .pst(*piece, square.parse().expect("a square"))
                    .1;
                if piece.side == Side::Red {
                    value
                } else {
                    -value
                }
            })
            .sum();
        let soldier = VALUES[Role::Soldier.index()];
        let none = [0; Square::COUNT];
        assert_eq!(
            evaluate(&pos, &Pool::default(), &none),
            soldier + endgame + tables::XIANGQI.tempo
        );
    }

    #[test]
    fn the_structure_key_follows_soldiers_and_defenders_and_the_material_key_counts_pieces() {
        let none = [0; Square::COUNT];
        let mut pos = Position::xiangqi_start();
        let start = Tally::of(&pos, &none);
        let after = |pos: &mut Position, mv: &str| {
            let undo = pos.play_unchecked(self::mv(mv), None, None);
            let tally = Tally::of(pos, &none);
            pos.undo(undo);
            tally
        };
        // A cannon's move is no change of structure; a soldier's, an advisor's and a
        // general's are.
        let cannon = after(&mut pos, "h2e2");
        assert_eq!(cannon.structure(), start.structure());
        for mv in ["c3c4", "d0e1", "e0e1"] {
            assert_ne!(after(&mut pos, mv).structure(), start.structure(), "{mv}");
        }
        // No move but a capture changes the counts.
        assert_eq!(cannon.material_key(), start.material_key());
        assert_eq!(after(&mut pos, "c3c4").material_key(), start.material_key());
        assert_ne!(after(&mut pos, "b2b9").material_key(), start.material_key());
        // Counts, not places: the same pieces elsewhere have the same key.
        let undo = pos.play_unchecked(mv("h2e2"), None, None);
        let undo2 = pos.play_unchecked(mv("b9c7"), None, None);
        let moved = Tally::of(&pos, &none);
        pos.undo(undo2);
        pos.undo(undo);
        assert_eq!(moved.material_key(), start.material_key());
    }

    #[test]
    fn winning_a_horse_shows_in_the_score() {
        let none = [0; Square::COUNT];
        let mut pos = Position::xiangqi_start();
        // Red's cannon takes Black's horse over the cannon on b7. Both values are Red's, the
        // first with Red to move and the second with Black: the move changed hands too.
        let before = evaluate(&pos, &Pool::default(), &none);
        let undo = pos.play_unchecked(mv("b2b9"), None, None);
        let after = -evaluate(&pos, &Pool::default(), &none);
        pos.undo(undo);
        // Most of a horse's worth (about 370 with its tables) shows.
        assert!(
            after + 2 * tables::XIANGQI.tempo > before + 250,
            "{before} -> {after}"
        );
    }
}
