//! The static value the search reads: the evaluation's sums kept by `make`, the activity
//! term from its cache, and the correction history's learnt errors (see the module
//! documentation of `search`).

use super::*;

impl BoardSearch<'_> {
    /// The static evaluation of the current position for the side to move.
    /// The search corrects it by [`BoardSearch::learnt_error`].
    pub(super) fn static_value(&mut self) -> i32 {
        let (value, phase) = self.value_without_activity();
        value + self.activity(phase)
    }

    /// What the correction history says the static value of the current position is off
    /// by: the mean of what it learnt for the position's structure and for its piece counts.
    #[inline]
    pub(super) fn learnt_error(&self) -> i32 {
        if !self.corrects_static_value {
            return 0;
        }
        let [a, b] = History::error_slots(self.pos.side_to_move(), &self.tally);
        (self.history.static_error[a] + self.history.static_error[b]) / (2 * ERROR_GRAIN)
    }

    /// Moves the learnt errors of the current position toward what a search of `depth` found
    /// it to be worth (`found`, where the static value said `raw`), the more the deeper the
    /// search: a sixty-fourth of the way a ply, at most a quarter.
    pub(super) fn learn_error(&mut self, raw: i32, found: i32, depth: i32) {
        if !self.corrects_static_value {
            return;
        }
        let target = (found - raw).clamp(-ERROR_MAX, ERROR_MAX) * ERROR_GRAIN;
        let weight = depth.clamp(1, 16);
        for slot in History::error_slots(self.pos.side_to_move(), &self.tally) {
            let entry = &mut self.history.static_error[slot];
            *entry += (target - *entry) * weight / 64;
        }
    }

    /// The static value but for its activity term, and the phase that term is blended by.
    pub(super) fn value_without_activity(&self) -> (i32, i32) {
        self.tally
            .value_without_activity(self.pos.side_to_move(), &self.pool)
    }

    /// The evaluation's activity term for the side to move at `phase`, from the cache when
    /// this board was read before at that phase (iterative deepening reaches the same
    /// leaves again and again, and the term costs as much as the rest of a node).
    pub(super) fn activity(&mut self, phase: i32) -> i32 {
        if !self.tally.all_face_up() {
            return 0;
        }
        let key = self.pos.zobrist() ^ (phase as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let slot = &mut self.activity_cache[key as usize % ACTIVITY_CACHE];
        if slot.0 == key {
            return slot.1;
        }
        let value = activity(&self.pos, self.pos.side_to_move(), phase);
        *slot = (key, value);
        value
    }
}
