//! A small transposition table: the best move and a score bound of positions already
//! searched, so iterative deepening tries the best move first and skips repeated work.
//!
//! The key is the position's Zobrist hash, which covers the board (covered pieces by side
//! only) and the side to move, not the unseen pool. Two paths to one board have almost always
//! seen the same reveals, so the rare mix-up costs a little accuracy, never legality: a move
//! from the table is only played if the move generator lists it.

use jieqi_rules::Move;

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
    key: u64,
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

#[derive(Clone)]
pub(crate) struct Tt {
    entries: Vec<Option<Entry>>,
    mask: usize,
}

impl std::fmt::Debug for Tt {
    // Its size, not its millions of entries.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tt")
            .field("entries", &self.entries.len())
            .finish()
    }
}

/// Entries of a table that fits in `mib` mebibytes (at least one).
pub(crate) fn entries_in(mib: usize) -> usize {
    (mib.max(1) << 20) / std::mem::size_of::<Option<Entry>>()
}

impl Tt {
    /// A table of about `size` entries (rounded up to a power of two, at least 1024).
    pub fn new(size: usize) -> Tt {
        let size = Tt::rounded(size);
        Tt {
            entries: vec![None; size],
            mask: size - 1,
        }
    }

    /// The entry count of a table asked for `size` entries.
    pub fn rounded(size: usize) -> usize {
        size.clamp(1 << 10, 1 << 22).next_power_of_two()
    }

    /// Its entry count (a power of two).
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    #[inline]
    fn slot(&self, key: u64) -> usize {
        (key as usize) & self.mask
    }

    /// The entry for `key`, with a mate score turned back into distance from `ply`.
    pub fn probe(&self, key: u64, ply: usize) -> Option<Entry> {
        let entry = self.entries.get(self.slot(key)).copied().flatten()?;
        (entry.key == key).then(|| Entry {
            score: from_tt(entry.score, ply),
            ..entry
        })
    }

    /// Stores a result, replacing what was there unless that was deeper and for this key.
    pub fn store(
        &mut self,
        key: u64,
        ply: usize,
        mv: Option<Move>,
        score: i32,
        depth: i32,
        bound: Bound,
    ) {
        let slot = self.slot(key);
        if let Some(cell) = self.entries.get_mut(slot) {
            if let Some(old) = cell
                && old.key == key
                && old.depth > depth
                && bound != Bound::Exact
            {
                return;
            }
            *cell = Some(Entry {
                key,
                mv: mv.or_else(|| cell.filter(|old| old.key == key).and_then(|old| old.mv)),
                score: to_tt(score, ply),
                depth,
                bound,
            });
        }
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
        let mut tt = Tt::new(1000);
        tt.store(42, 0, None, 17, 3, Bound::Exact);
        let e = tt.probe(42, 0).expect("stored");
        assert_eq!((e.score, e.depth, e.bound), (17, 3, Bound::Exact));
        assert!(tt.probe(42 + 1024 * 1024, 0).is_none());
    }

    #[test]
    fn mate_scores_keep_their_distance_from_the_node() {
        let mut tt = Tt::new(1000);
        // Mate found 5 plies below a node at ply 2: the root sees MATE - 7.
        tt.store(7, 2, None, MATE - 7, 4, Bound::Exact);
        // Reached again at ply 4: the same mate is now 9 plies from the root.
        assert_eq!(tt.probe(7, 4).map(|e| e.score), Some(MATE - 9));
    }
}
