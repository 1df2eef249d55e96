//! A matching kept between questions while edge weights change, the way bbpPairings keeps
//! its matching between the decisions of a bracket: only what a change touches is undone,
//! and the duals of the last optimum are the start of the next.
//!
//! The heaviest matching with the most edges is the heaviest matching once every present
//! edge carries `big`, more than any matching's total weight. So the optimum is certified
//! the plain way: every edge's slack non-negative, matched edges and blossom cycles tight,
//! blossom duals non-negative, vertex duals non-negative and zero at every single vertex.
//! A change keeps all of that but the last point, and at most a few vertices break it:
//!
//! - a changed edge inside a top-level blossom may be one of its cycle's edges: one end is
//!   *released* (below);
//! - a matched edge that loses weight is no longer tight: its two ends become single;
//! - an edge that gains weight beyond its slack: one end is released.
//!
//! Releasing a vertex makes it a single, unmatched vertex outside every blossom, whose dual
//! is then raised until each of its edges has a non-negative slack. A blossom around it has
//! its base's matched edge undone, is turned so that the vertex is its base, and is taken
//! apart with its dual given to its vertices (each inside edge keeps its slack, each
//! edge leaving it gains).
//!
//! Then each single vertex with a positive dual grows an alternating tree alone (Edmonds'
//! stage with one root) until an augmenting path is tight, or until a vertex of the tree
//! reaches a zero dual, which is then made the single one along its even path.

use std::collections::HashMap;
use std::hash::Hash;

use super::{NONE, State};
use crate::weight::MatchWeight;

/// The heaviest among the matchings with the most edges of a graph on `n` vertices whose
/// edges are set one at a time; asked again after a few changes, it costs a few
/// augmentations instead of a matching from scratch.
pub struct KeptMatching<W> {
    state: State<W>,
    /// Added to every present edge: more than any matching's total weight.
    big: W,
    /// Vertices whose duals are raised over their edges before the next answer.
    released: Vec<usize>,
    is_released: Vec<bool>,
    /// Which of the state's row weights are in use.
    weights: Interned<W>,
}

/// The distinct weights of a kept matching's edges, each by a small index: a weight in
/// use is found by its value, one no edge has any more gives its place to the next new
/// one, so the table stays as small as the weights in use.
struct Interned<W> {
    index: HashMap<W, u32>,
    /// How many edges have each index.
    uses: Vec<u32>,
    free: Vec<u32>,
}

impl<W: MatchWeight + Hash> Interned<W> {
    fn new() -> Interned<W> {
        Interned {
            index: HashMap::new(),
            uses: vec![0],
            free: Vec::new(),
        }
    }

    /// The index of `w` (not zero) in `table`, added if new; one more edge uses it.
    fn intern(&mut self, table: &mut Vec<W>, w: W) -> u32 {
        let at = match self.index.get(&w) {
            Some(&at) => at,
            None => {
                let at = match self.free.pop() {
                    Some(at) => {
                        table[at as usize] = w;
                        at
                    }
                    None => {
                        table.push(w);
                        self.uses.push(0);
                        (table.len() - 1) as u32
                    }
                };
                self.index.insert(w, at);
                at
            }
        };
        self.uses[at as usize] += 1;
        at
    }

    /// One edge less uses the index `at` (0, no edge, is never freed).
    fn release(&mut self, table: &[W], at: u32) {
        if at == 0 {
            return;
        }
        let uses = &mut self.uses[at as usize];
        *uses -= 1;
        if *uses == 0 {
            self.index.remove(&table[at as usize]);
            self.free.push(at);
        }
    }
}

impl<W> std::fmt::Debug for KeptMatching<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KeptMatching")
            .field("vertices", &self.state.n)
            .field("released", &self.released.len())
            .finish_non_exhaustive()
    }
}

impl<W: MatchWeight + Hash> KeptMatching<W> {
    /// `n` vertices without edges. `big` must exceed `n / 2` times the heaviest weight ever
    /// set, and the weight type must hold eight times `big` without overflow.
    pub fn new(n: usize, big: W) -> KeptMatching<W> {
        let mut edges = Vec::with_capacity(n * n.saturating_sub(1) / 2);
        for i in 0..n {
            for j in i + 1..n {
                edges.push((i, j, W::ZERO));
            }
        }
        let present = vec![false; edges.len()];
        let mut state = State::build(n, edges, present, W::ZERO);
        state.rows = vec![0; n * n];
        state.row_weights = vec![W::ZERO];
        state.row_words = n.div_ceil(64);
        state.linked = vec![0; n * state.row_words];
        KeptMatching {
            state,
            big,
            released: Vec::new(),
            is_released: vec![false; n],
            weights: Interned::new(),
        }
    }

    fn index(&self, i: usize, j: usize) -> usize {
        let n = self.state.n;
        i * (2 * n - i - 1) / 2 + (j - i - 1)
    }

    /// Sets the weight of the edge `a`–`b`; zero or less removes it.
    pub fn set_weight(&mut self, a: usize, b: usize, w: W) {
        let n = self.state.n;
        if a == b || a >= n || b >= n {
            return;
        }
        let k = self.index(a.min(b), a.max(b));
        let present = w > W::ZERO;
        let stored = if present {
            (w + self.big) + (w + self.big)
        } else {
            W::ZERO
        };
        let st = &mut self.state;
        if present == st.present[k] && stored == st.edges[k].2 {
            return;
        }
        let old = st.edges[k].2;
        st.edges[k].2 = stored;
        st.present[k] = present;
        let twice = if present {
            self.weights.intern(&mut st.row_weights, stored + stored)
        } else {
            0
        };
        self.weights.release(&st.row_weights, st.rows[a * n + b]);
        st.rows[a * n + b] = twice;
        st.rows[b * n + a] = twice;
        for (v, w) in [(a, b), (b, a)] {
            let word = &mut st.linked[v * st.row_words + w / 64];
            if present {
                *word |= 1 << (w % 64);
            } else {
                *word &= !(1 << (w % 64));
            }
        }
        let matched = st.mate[a] >= 0 && st.mate[a] as usize / 2 == k;
        if st.inblossom[a] == st.inblossom[b] {
            self.release(a);
        } else if matched {
            if present && stored > old {
                self.release(a);
            } else {
                self.unmatch(a);
            }
        } else if present && st.slack(k) < W::ZERO {
            self.release(a);
        }
    }

    fn unmatch(&mut self, a: usize) {
        let st = &mut self.state;
        let p = st.mate[a];
        if p != NONE {
            let x = st.endpoint[p as usize];
            st.mate[x] = NONE;
            st.mate[a] = NONE;
        }
    }

    /// Makes `a` a single vertex outside every blossom, its dual to be raised.
    fn release(&mut self, a: usize) {
        let n = self.state.n;
        loop {
            let st = &mut self.state;
            let b = st.inblossom[a];
            if b < n {
                break;
            }
            let base = st.blossombase[b] as usize;
            let p = st.mate[base];
            if p != NONE {
                let x = st.endpoint[p as usize];
                st.mate[x] = NONE;
                st.mate[base] = NONE;
            }
            st.augment_blossom(b, a);
            st.mate[a] = NONE;
            let z = st.dualvar[b];
            if z != W::ZERO {
                for v in st.leaves(b) {
                    st.dualvar[v] += z;
                }
                st.dualvar[b] = W::ZERO;
            }
            st.expand_blossom(b, true);
        }
        self.unmatch(a);
        if !self.is_released[a] {
            self.is_released[a] = true;
            self.released.push(a);
        }
    }

    /// The heaviest matching with the most edges for the weights as they are now: each
    /// vertex's partner, if any.
    pub fn solve(&mut self) -> Vec<Option<usize>> {
        for a in std::mem::take(&mut self.released) {
            self.is_released[a] = false;
            let st = &mut self.state;
            let mut dual = st.dualvar[a];
            for j in st.neighbours(a) {
                let need = st.row_weight(a, j) - st.dualvar[j];
                if need > dual {
                    dual = need;
                }
            }
            st.dualvar[a] = dual;
        }
        let n = self.state.n;
        let mut from = 0;
        while let Some(root) =
            (from..n).find(|&v| self.state.mate[v] == NONE && self.state.dualvar[v] > W::ZERO)
        {
            self.state.stage_from(root);
            from = root;
        }
        let st = &self.state;
        (0..n)
            .map(|v| {
                let p = st.mate[v];
                (p >= 0).then(|| st.endpoint[p as usize])
            })
            .collect()
    }
}

impl<W: MatchWeight> State<W> {
    /// One stage grown from the single vertex `root` alone: it ends matched, or with a
    /// vertex of zero dual single in its place.
    fn stage_from(&mut self, root: usize) {
        let n = self.n;
        self.label.iter_mut().for_each(|l| *l = 0);
        self.labelend.iter_mut().for_each(|l| *l = NONE);
        self.bestedge.iter_mut().for_each(|e| *e = NONE);
        for b in n..2 * n {
            self.blossombestedges[b] = None;
        }
        self.allowedge.iter_mut().for_each(|a| *a = false);
        self.queue.clear();
        self.assign_label(root, 1, NONE);
        // The slack of each vertex's or blossom's least-slack edge, as long as neither the
        // edge nor the duals (counted by `epoch`) changed: computed once, compared often.
        // Kept from stage to stage (the epoch goes on counting, so that nothing of an
        // earlier stage is taken for current).
        let mut epoch = self.slack_epoch + 1;
        let mut cached = std::mem::take(&mut self.slack_cache);
        cached.resize(2 * n, (NONE, 0, W::ZERO));
        let best_slack = |st: &State<W>, cached: &mut [(isize, u64, W)], x: usize, epoch: u64| {
            let k = st.bestedge[x];
            let c = &mut cached[x];
            if c.0 != k || c.1 != epoch {
                *c = (k, epoch, st.slack(k as usize));
            }
            c.2
        };
        loop {
            while let Some(v) = self.queue.pop() {
                // The edges of `v` in the order of its neighbours, one row of memory; an
                // absent edge's weight is not read, nor one into a T-blossom whose end
                // is labelled already: such an edge changes nothing but its `allowedge`,
                // and its slack cannot grow while `v` is an S-vertex, so whoever reads it
                // later finds it tight all the same.
                let dual = self.dualvar[v];
                for word in 0..self.row_words {
                    let mut bits = self.linked[v * self.row_words + word];
                    while bits != 0 {
                        let w = word * 64 + bits.trailing_zeros() as usize;
                        bits &= bits - 1;
                        let bw = self.inblossom[w];
                        if self.inblossom[v] == bw || (self.label[bw] == 2 && self.label[w] != 0) {
                            continue;
                        }
                        let twice = self.row_weight(v, w);
                        let (i, j) = (v.min(w), v.max(w));
                        let k = i * (2 * n - i - 1) / 2 + (j - i - 1);
                        let p = if v < w { 2 * k + 1 } else { 2 * k };
                        let mut kslack = W::ZERO;
                        if !self.allowedge[k] {
                            kslack = dual.add_sub(self.dualvar[w], twice);
                            if kslack <= W::ZERO {
                                self.allowedge[k] = true;
                            }
                        }
                        if self.allowedge[k] {
                            if self.label[bw] == 0 {
                                if self.mate[self.blossombase[bw] as usize] == NONE {
                                    // A single vertex outside the tree: an augmenting path.
                                    self.augment_matching(k);
                                    self.end_stage();
                                    (self.slack_cache, self.slack_epoch) = (cached, epoch);
                                    return;
                                }
                                self.assign_label(w, 2, (p ^ 1) as isize);
                            } else if self.label[bw] == 1 {
                                let base = self.scan_blossom(v, w);
                                if base >= 0 {
                                    self.add_blossom(base as usize, k);
                                } else {
                                    self.augment_matching(k);
                                    self.end_stage();
                                    (self.slack_cache, self.slack_epoch) = (cached, epoch);
                                    return;
                                }
                            } else if self.label[w] == 0 {
                                self.label[w] = 2;
                                self.labelend[w] = (p ^ 1) as isize;
                            }
                        } else if self.label[bw] == 1 {
                            let b = self.inblossom[v];
                            if self.bestedge[b] == NONE
                                || kslack < best_slack(self, &mut cached, b, epoch)
                            {
                                self.bestedge[b] = k as isize;
                                cached[b] = (k as isize, epoch, kslack);
                            }
                        } else if self.label[w] == 0
                            && (self.bestedge[w] == NONE
                                || kslack < best_slack(self, &mut cached, w, epoch))
                        {
                            self.bestedge[w] = k as isize;
                            cached[w] = (k as isize, epoch, kslack);
                        }
                    }
                }
            }
            // The dual change: type 1 brings a vertex of the tree to a zero dual, 2 and 3
            // make an edge usable, 4 expands a T-blossom whose dual reached zero.
            let mut deltatype = 1;
            let mut delta = W::ZERO;
            let mut deltavertex = root;
            let mut first = true;
            for v in 0..n {
                if self.label[self.inblossom[v]] == 1 && (first || self.dualvar[v] < delta) {
                    delta = self.dualvar[v];
                    deltavertex = v;
                    first = false;
                }
            }
            let mut deltaedge = 0usize;
            let mut deltablossom = 0usize;
            for v in 0..n {
                if self.label[self.inblossom[v]] == 0 && self.bestedge[v] != NONE {
                    let d = best_slack(self, &mut cached, v, epoch);
                    if d < delta {
                        delta = d;
                        deltatype = 2;
                        deltaedge = self.bestedge[v] as usize;
                    }
                }
            }
            for b in 0..2 * n {
                if self.blossomparent[b] == NONE && self.label[b] == 1 && self.bestedge[b] != NONE {
                    let d = best_slack(self, &mut cached, b, epoch).half();
                    if d < delta {
                        delta = d;
                        deltatype = 3;
                        deltaedge = self.bestedge[b] as usize;
                    }
                }
            }
            for b in n..2 * n {
                if self.blossombase[b] >= 0
                    && self.blossomparent[b] == NONE
                    && self.label[b] == 2
                    && self.dualvar[b] < delta
                {
                    delta = self.dualvar[b];
                    deltatype = 4;
                    deltablossom = b;
                }
            }
            self.move_duals(delta);
            epoch += 1;
            if deltatype == 1 {
                self.leave_single(deltavertex);
                self.end_stage();
                (self.slack_cache, self.slack_epoch) = (cached, epoch);
                return;
            }
            self.after_dual_step(deltatype, deltaedge, deltablossom);
        }
    }

    /// Swaps the even alternating path from the tree's root to the S-vertex `v`: the root
    /// is matched and `v` (of zero dual) is left single.
    fn leave_single(&mut self, v: usize) {
        let mut s = v;
        let mut p = NONE;
        loop {
            let bs = self.inblossom[s];
            if bs >= self.n {
                self.augment_blossom(bs, s);
            }
            self.mate[s] = p;
            if self.labelend[bs] == NONE {
                break;
            }
            let t = self.endpoint[self.labelend[bs] as usize];
            let bt = self.inblossom[t];
            s = self.endpoint[self.labelend[bt] as usize];
            let j = self.endpoint[(self.labelend[bt] ^ 1) as usize];
            if bt >= self.n {
                self.augment_blossom(bt, j);
            }
            self.mate[j] = self.labelend[bt];
            p = self.labelend[bt] ^ 1;
        }
    }
}

#[cfg(test)]
mod tests {
    // Vertex numbers index the weight table, the matching and the edges alike.
    #![allow(clippy::needless_range_loop)]
    use super::*;
    use crate::matching::max_cardinality_matching;
    use crate::weight::Weight;
    use proptest::prelude::*;

    fn weight_of(mate: &[Option<usize>], w: &[Vec<u64>]) -> (usize, u64) {
        let mut size = 0;
        let mut total = 0;
        for (v, m) in mate.iter().enumerate() {
            if let Some(m) = *m
                && v < m
            {
                size += 1;
                total += w[v][m];
            }
        }
        (size, total)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1000))]
        /// After every change of a random sequence, the kept matching is as large and as
        /// heavy as a matching from scratch, and uses only present edges.
        #[test]
        fn a_kept_matching_is_as_good_as_one_from_scratch_after_every_change(
            n in 2usize..15,
            start in proptest::collection::vec(0u64..40, 105),
            changes in proptest::collection::vec(
                proptest::collection::vec((0usize..15, 0usize..15, 0u64..40), 1..6),
                1..12,
            ),
        ) {
            let mut w = vec![vec![0u64; n]; n];
            let mut kept = KeptMatching::new(n, Weight::from_u64(40 * 15 + 1));
            let mut k = 0;
            for i in 0..n {
                for j in i + 1..n {
                    // About a third of the pairs have no edge.
                    let x = if start[k] % 3 == 0 { 0 } else { start[k] };
                    k += 1;
                    w[i][j] = x;
                    w[j][i] = x;
                    kept.set_weight(i, j, Weight::from_u64(x));
                }
            }
            let check = |kept: &mut KeptMatching<Weight>, w: &Vec<Vec<u64>>| {
                let mate = kept.solve();
                let mut edges = Vec::new();
                for i in 0..n {
                    for j in i + 1..n {
                        if w[i][j] > 0 {
                            edges.push((i, j, Weight::from_u64(w[i][j])));
                        }
                    }
                }
                let fresh = max_cardinality_matching(n, &edges);
                for v in 0..n {
                    if let Some(m) = mate[v] {
                        prop_assert_eq!(mate[m], Some(v));
                        prop_assert!(w[v][m] > 0);
                    }
                }
                prop_assert_eq!(weight_of(&mate, w), weight_of(&fresh, w));
                Ok(())
            };
            check(&mut kept, &w)?;
            for batch in changes {
                for (i, j, x) in batch {
                    if i < n && j < n && i != j {
                        w[i][j] = x;
                        w[j][i] = x;
                        kept.set_weight(i, j, Weight::from_u64(x));
                    }
                }
                check(&mut kept, &w)?;
            }
        }
    }
}
