//! A small transposition table: the best move and a score bound of positions already
//! searched, so iterative deepening tries the best move first and skips repeated work.
//!
//! The key is the position's Zobrist hash, which covers the board (covered pieces by side
//! only) and the side to move, not the unseen pool. Two paths to one board have almost always
//! seen the same reveals, so the rare mix-up costs a little accuracy, never legality: a move
//! from the table is only played if the move generator lists it.

use std::sync::atomic::{AtomicU64, Ordering};

use jieqi_rules::{Move, Square};

use crate::control::MATE_BOUND;

/// What a stored score says about the true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    Exact,
    /// The true score is at least this (a beta cut-off).
    Lower,
    /// The true score is at most this (every move failed low).
    Upper,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    pub mv: Option<Move>,
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
}

impl Entry {
    /// Whether this stored score decides a node searched with the window `alpha`..`beta`
    /// (the entry being deep enough): an exact score always does, a lower bound at or above
    /// beta and an upper bound at or below alpha do.
    pub fn settles(&self, alpha: i32, beta: i32) -> bool {
        match self.bound {
            Bound::Exact => true,
            Bound::Lower => self.score >= beta,
            Bound::Upper => self.score <= alpha,
        }
    }
}

/// A table shared by the threads of one search (UCI `Threads`): each slot is two atomic
/// words, the entry packed into one and the key XOR that word in the other, so a slot that two
/// threads wrote at once (one thread's key word beside the other's entry) fails the key check
/// and reads as empty instead of as a wrong entry (Hyatt's lockless hashing). Lone threads see
/// exactly the table they had before it was shared.
pub(crate) struct Tt {
    slots: Vec<[AtomicU64; 2]>,
    mask: usize,
}

impl Clone for Tt {
    fn clone(&self) -> Tt {
        Tt {
            slots: self
                .slots
                .iter()
                .map(|[key, data]| {
                    [
                        AtomicU64::new(key.load(Ordering::Relaxed)),
                        AtomicU64::new(data.load(Ordering::Relaxed)),
                    ]
                })
                .collect(),
            mask: self.mask,
        }
    }
}

impl std::fmt::Debug for Tt {
    // Its size, not its millions of entries.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tt")
            .field("entries", &self.slots.len())
            .finish()
    }
}

/// Entries of a table that fits in `mib` mebibytes (at least one).
pub(crate) fn entries_in(mib: usize) -> usize {
    (mib.max(1) << 20) / std::mem::size_of::<[AtomicU64; 2]>()
}

/// The bit that marks a word as holding an entry (an empty slot is all zeros).
const OCCUPIED: u64 = 1 << 42;

/// An entry as one word: the move (its squares' indices, plus one so that 0 is no move) in
/// bits 0 to 15, the score in 16 to 31, the depth in 32 to 39, the bound in 40 and 41.
fn pack(mv: Option<Move>, score: i32, depth: i32, bound: Bound) -> u64 {
    let mv = mv.map_or(0, |m| {
        (m.from.index() * Square::COUNT + m.to.index() + 1) as u64
    });
    // Every score is within plus or minus `INFINITY` (30,001) and every stored depth within
    // 0..=255 (iterations stop at 64): the clamps never bite.
    let score = u64::from(score.clamp(-i32::from(i16::MAX), i32::from(i16::MAX)) as i16 as u16);
    let depth = depth.clamp(0, 255) as u64;
    let bound = match bound {
        Bound::Exact => 0,
        Bound::Lower => 1,
        Bound::Upper => 2,
    };
    mv | score << 16 | depth << 32 | bound << 40 | OCCUPIED
}

/// The entry of a word written by [`pack`].
fn unpack(word: u64) -> Entry {
    let mv = (word & 0xFFFF) as usize;
    let mv = mv.checked_sub(1).and_then(|i| {
        Some(Move::new(
            Square::from_index(i / Square::COUNT)?,
            Square::from_index(i % Square::COUNT)?,
        ))
    });
    Entry {
        mv,
        score: i32::from((word >> 16) as u16 as i16),
        depth: ((word >> 32) & 0xFF) as i32,
        bound: match (word >> 40) & 3 {
            0 => Bound::Exact,
            1 => Bound::Lower,
            _ => Bound::Upper,
        },
    }
}

impl Tt {
    /// A table of about `size` entries (rounded up to a power of two, at least 1024).
    pub fn new(size: usize) -> Tt {
        let size = Tt::rounded(size);
        Tt {
            slots: (0..size)
                .map(|_| [AtomicU64::new(0), AtomicU64::new(0)])
                .collect(),
            mask: size - 1,
        }
    }

    /// The entry count of a table asked for `size` entries.
    pub fn rounded(size: usize) -> usize {
        size.clamp(1 << 10, 1 << 22).next_power_of_two()
    }

    /// Its entry count (a power of two).
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// The slot of `key` (the mask keeps every index within the table).
    #[inline]
    fn slot(&self, key: u64) -> &[AtomicU64; 2] {
        &self.slots[(key as usize) & self.mask]
    }

    /// The entry `slot` holds for `key`, whatever ply it was stored from.
    fn read([check, data]: &[AtomicU64; 2], key: u64) -> Option<Entry> {
        let word = data.load(Ordering::Relaxed);
        (word & OCCUPIED != 0 && check.load(Ordering::Relaxed) ^ word == key).then(|| unpack(word))
    }

    /// The entry for `key`, with a mate score turned back into distance from `ply`.
    pub fn probe(&self, key: u64, ply: usize) -> Option<Entry> {
        Tt::read(self.slot(key), key).map(|entry| Entry {
            score: from_tt(entry.score, ply),
            ..entry
        })
    }

    /// Stores a result, replacing what was there unless that was deeper and for this key.
    pub fn store(
        &self,
        key: u64,
        ply: usize,
        mv: Option<Move>,
        score: i32,
        depth: i32,
        bound: Bound,
    ) {
        let slot = self.slot(key);
        let old = Tt::read(slot, key);
        if let Some(old) = old
            && old.depth > depth
            && bound != Bound::Exact
        {
            return;
        }
        let [check, data] = slot;
        let word = pack(
            mv.or_else(|| old.and_then(|old| old.mv)),
            to_tt(score, ply),
            depth,
            bound,
        );
        data.store(word, Ordering::Relaxed);
        check.store(key ^ word, Ordering::Relaxed);
    }
}

/// Mate scores are stored as distance from the node, not from the root.
fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::control::MATE;

    #[test]
    fn stored_entries_come_back_for_their_key_only() {
        let tt = Tt::new(1000);
        tt.store(42, 0, None, 17, 3, Bound::Exact);
        let e = tt.probe(42, 0).expect("stored");
        assert_eq!((e.score, e.depth, e.bound), (17, 3, Bound::Exact));
        assert!(tt.probe(42 + 1024 * 1024, 0).is_none());
    }

    #[test]
    fn mate_scores_keep_their_distance_from_the_node() {
        let tt = Tt::new(1000);
        // Mate found 5 plies below a node at ply 2: the root sees MATE - 7.
        tt.store(7, 2, None, MATE - 7, 4, Bound::Exact);
        // Reached again at ply 4: the same mate is now 9 plies from the root.
        assert_eq!(tt.probe(7, 4).map(|e| e.score), Some(MATE - 9));
    }

    #[test]
    fn an_entry_comes_back_as_it_was_stored() {
        let tt = Tt::new(1 << 10);
        let corner = Move::new(
            Square::from_index(0).unwrap(),
            Square::from_index(89).unwrap(),
        );
        for (key, mv, score, depth, bound) in [
            (1, Some(corner), -30_001, 0, Bound::Upper),
            (2, None, 30_001, 64, Bound::Lower),
            (3, Some(corner), 0, 255, Bound::Exact),
        ] {
            tt.store(key, 0, mv, score, depth, bound);
            let e = tt.probe(key, 0).expect("stored");
            assert_eq!((e.mv, e.score, e.depth, e.bound), (mv, score, depth, bound));
        }
    }

    #[test]
    fn a_slot_torn_by_two_writers_reads_as_empty() {
        let tt = Tt::new(1 << 10);
        tt.store(5, 0, None, 100, 3, Bound::Exact);
        // Another thread's entry for another key of the same slot lands beside this key word.
        let [_, data] = &tt.slots[5];
        data.store(pack(None, -100, 9, Bound::Lower), Ordering::Relaxed);
        assert!(tt.probe(5, 0).is_none());
        assert!(tt.probe(5 + (1 << 10), 0).is_none());
    }

    #[test]
    fn threads_storing_at_once_never_read_a_mixed_entry() {
        let tt = Tt::new(1 << 10);
        // Every key of one slot stores a score equal to its key's high bits: a reader that
        // took one writer's key with another's entry would see them differ. The keys differ
        // only in bits 48 and up, which no entry word uses, as real Zobrist keys are random
        // in every bit: had they shared bits with the score's, one key XOR two entries could
        // spell a third key (371's key word beside 373's entry reads as key 243's when keys
        // are `n << 10`), a coincidence of one in 2^64 with real keys.
        std::thread::scope(|scope| {
            for t in 0..2u64 {
                let tt = &tt;
                scope.spawn(move || {
                    for i in 0..20_000u64 {
                        let n = (i * 2 + t) % 1000;
                        tt.store(n << 48, 0, None, n as i32, 1, Bound::Exact);
                        for m in [n, (n + 1) % 1000] {
                            if let Some(e) = tt.probe(m << 48, 0) {
                                assert_eq!(e.score, m as i32);
                            }
                        }
                    }
                });
            }
        });
    }
}
