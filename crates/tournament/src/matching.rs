//! Maximum weight matching in a general graph (Edmonds' blossom algorithm with dual
//! variables, O(n³)), the engine under the Dutch system: every pairing criterion becomes a
//! part of an edge's weight, and the heaviest matching is the best pairing.
//!
//! Written for this crate after Galil's description ("Efficient algorithms for finding
//! maximum matching in graphs", 1986) in the shape of Joris van Rantwijk's well-known
//! formulation: labels S and T, blossoms shrunk and expanded, four kinds of dual change.
//! Weights are integers; they are doubled inside so that every dual stays an integer.

use crate::weight::{MatchWeight, Weight};

mod kept;

pub use kept::KeptMatching;

/// One undirected edge: two vertices and a weight (non-negative; heavier is better).
pub type Edge<W = Weight> = (usize, usize, W);

const NONE: isize = -1;

/// The heaviest matching of the graph of `vertex_count` vertices and `edges`: for each
/// vertex its partner, if any. Among matchings of equal weight any may be returned.
pub fn max_weight_matching<W: MatchWeight>(
    vertex_count: usize,
    edges: &[Edge<W>],
) -> Vec<Option<usize>> {
    matching(vertex_count, edges, false)
}

/// The heaviest among the matchings with the most edges (van Rantwijk's `maxcardinality`).
pub fn max_cardinality_matching<W: MatchWeight>(
    vertex_count: usize,
    edges: &[Edge<W>],
) -> Vec<Option<usize>> {
    matching(vertex_count, edges, true)
}

fn matching<W: MatchWeight>(
    vertex_count: usize,
    edges: &[Edge<W>],
    max_cardinality: bool,
) -> Vec<Option<usize>> {
    if edges.is_empty() || vertex_count == 0 {
        return vec![None; vertex_count];
    }
    let mut state = State::new(vertex_count, edges);
    state.max_cardinality = max_cardinality;
    state.solve();
    (0..vertex_count)
        .map(|v| {
            let p = state.mate[v];
            (p >= 0).then(|| state.endpoint[p as usize])
        })
        .collect()
}

struct State<W> {
    max_cardinality: bool,
    n: usize,
    edges: Vec<(usize, usize, W)>,
    /// Whether each edge exists: all do in a matching from a list; a kept matching has a
    /// slot for every pair and weighs only the present ones.
    present: Vec<bool>,
    /// A kept matching's twice-doubled weights by `v * n + w`, as indices into
    /// `row_weights` (0: no edge), so that a vertex's edges are scanned in one sweep of
    /// memory; empty otherwise. A Swiss round has few distinct weights among its n²
    /// edges: a small index a pair keeps the rows in the cache, which the weights
    /// themselves (tens of megabytes at 500 players) did not.
    rows: Vec<u32>,
    /// The distinct twice-doubled weights the rows name (0 is zero).
    row_weights: Vec<W>,
    /// A kept matching's edges as bits, `row_words` words a vertex (bit `w` of `v`'s
    /// words: the edge `v`–`w` is present), so that a scan skips the absent edges (a
    /// decided pair's players, opponents already met) without reading their weights.
    linked: Vec<u64>,
    row_words: usize,
    /// A kept matching's stage's least slacks (by vertex or blossom: edge, epoch, slack),
    /// kept so that a stage does not allocate them anew, and the last epoch it used.
    slack_cache: Vec<(isize, u64, W)>,
    slack_epoch: u64,
    /// A new blossom's least-slack edge to each S-blossom next to it, kept between
    /// blossoms so that each does not allocate and sweep two slots a vertex.
    best_to: BestTo<W>,
    endpoint: Vec<usize>,
    neighbend: Vec<Vec<usize>>,
    mate: Vec<isize>,
    label: Vec<i8>,
    labelend: Vec<isize>,
    inblossom: Vec<usize>,
    blossomparent: Vec<isize>,
    blossomchilds: Vec<Vec<usize>>,
    blossombase: Vec<isize>,
    blossomendps: Vec<Vec<usize>>,
    bestedge: Vec<isize>,
    blossombestedges: Vec<Option<Vec<usize>>>,
    unusedblossoms: Vec<usize>,
    dualvar: Vec<W>,
    allowedge: Vec<bool>,
    queue: Vec<usize>,
}

/// For each blossom next to a new one, the least-slack edge to it (the first found among
/// equals), and the blossoms offered one, so that only those are read and cleared.
struct BestTo<W> {
    edge: Vec<isize>,
    slack: Vec<W>,
    offered: Vec<usize>,
}

impl<W> Default for BestTo<W> {
    fn default() -> Self {
        BestTo {
            edge: Vec::new(),
            slack: Vec::new(),
            offered: Vec::new(),
        }
    }
}

impl<W: MatchWeight> BestTo<W> {
    /// Nothing offered, room for `size` blossoms.
    fn clear_for(&mut self, size: usize) {
        for &b in &self.offered {
            self.edge[b] = NONE;
        }
        self.offered.clear();
        self.edge.resize(size, NONE);
        self.slack.resize(size, W::ZERO);
    }

    /// The edge `k` of slack `s` to the blossom `b`, kept if less than `b`'s best so far.
    fn offer(&mut self, b: usize, k: usize, s: W) {
        if self.edge[b] == NONE {
            self.offered.push(b);
        } else if s >= self.slack[b] {
            return;
        }
        self.edge[b] = k as isize;
        self.slack[b] = s;
    }

    /// Each offered blossom's best edge and its slack, by blossom number.
    fn in_order(&mut self) -> impl Iterator<Item = (usize, W)> + '_ {
        self.offered.sort_unstable();
        self.offered
            .iter()
            .map(|&b| (self.edge[b] as usize, self.slack[b]))
    }
}

/// The set bits of a row of [`State::linked`], lowest first.
struct Neighbours<'a> {
    words: &'a [u64],
    index: usize,
    bits: u64,
}

impl Iterator for Neighbours<'_> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        while self.bits == 0 {
            self.index += 1;
            self.bits = *self.words.get(self.index)?;
        }
        let bit = self.bits.trailing_zeros() as usize;
        self.bits &= self.bits - 1;
        Some(self.index * 64 + bit)
    }
}

/// Python-style index into a cycle: negative counts from the end.
fn at(len: usize, j: isize) -> usize {
    j.rem_euclid(len as isize) as usize
}

impl<W: MatchWeight> State<W> {
    fn new(n: usize, input: &[Edge<W>]) -> State<W> {
        let edges: Vec<(usize, usize, W)> = input
            .iter()
            .filter(|(i, j, _)| i != j && *i < n && *j < n)
            .map(|&(i, j, w)| (i, j, w + w))
            .collect();
        let maxweight = edges
            .iter()
            .map(|e| e.2)
            .max()
            .unwrap_or(W::ZERO)
            .max(W::ZERO);
        let present = vec![true; edges.len()];
        State::build(n, edges, present, maxweight)
    }

    /// The state before the first stage: `edges` weights already doubled, every vertex
    /// single with the dual `dual`.
    fn build(n: usize, edges: Vec<(usize, usize, W)>, present: Vec<bool>, dual: W) -> State<W> {
        let mut endpoint = Vec::with_capacity(2 * edges.len());
        let mut neighbend = vec![Vec::new(); n];
        for (k, &(i, j, _)) in edges.iter().enumerate() {
            endpoint.push(i);
            endpoint.push(j);
            neighbend[i].push(2 * k + 1);
            neighbend[j].push(2 * k);
        }
        let mut blossombase: Vec<isize> = (0..n as isize).collect();
        blossombase.extend(std::iter::repeat_n(NONE, n));
        let mut dualvar = vec![dual; n];
        dualvar.extend(std::iter::repeat_n(W::ZERO, n));
        let edge_count = edges.len();
        State {
            max_cardinality: false,
            n,
            edges,
            present,
            rows: Vec::new(),
            row_weights: Vec::new(),
            linked: Vec::new(),
            row_words: 0,
            slack_cache: Vec::new(),
            slack_epoch: 0,
            best_to: BestTo::default(),
            endpoint,
            neighbend,
            mate: vec![NONE; n],
            label: vec![0; 2 * n],
            labelend: vec![NONE; 2 * n],
            inblossom: (0..n).collect(),
            blossomparent: vec![NONE; 2 * n],
            blossomchilds: vec![Vec::new(); 2 * n],
            blossombase,
            blossomendps: vec![Vec::new(); 2 * n],
            bestedge: vec![NONE; 2 * n],
            blossombestedges: vec![None; 2 * n],
            unusedblossoms: (n..2 * n).rev().collect(),
            dualvar,
            allowedge: vec![false; edge_count],
            queue: Vec::new(),
        }
    }

    /// The neighbours of `v` in a kept matching, in increasing order.
    fn neighbours(&self, v: usize) -> Neighbours<'_> {
        let words = &self.linked[v * self.row_words..(v + 1) * self.row_words];
        Neighbours {
            words,
            index: 0,
            bits: words.first().copied().unwrap_or(0),
        }
    }

    /// A kept matching's twice-doubled weight of the edge `v`–`w` (zero: no edge).
    #[inline]
    fn row_weight(&self, v: usize, w: usize) -> W {
        self.row_weights[self.rows[v * self.n + w] as usize]
    }

    fn slack(&self, k: usize) -> W {
        let (i, j, w) = self.edges[k];
        self.dualvar[i].add_sub(self.dualvar[j], w + w)
    }

    fn leaves(&self, b: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let mut stack = vec![b];
        while let Some(t) = stack.pop() {
            if t < self.n {
                out.push(t);
            } else {
                stack.extend(self.blossomchilds[t].iter().rev().copied());
            }
        }
        out
    }

    fn assign_label(&mut self, w: usize, t: i8, p: isize) {
        let mut w = w;
        let mut t = t;
        let mut p = p;
        loop {
            let b = self.inblossom[w];
            self.label[w] = t;
            self.label[b] = t;
            self.labelend[w] = p;
            self.labelend[b] = p;
            self.bestedge[w] = NONE;
            self.bestedge[b] = NONE;
            if t == 1 {
                let leaves = self.leaves(b);
                self.queue.extend(leaves);
                return;
            }
            let base = self.blossombase[b] as usize;
            let m = self.mate[base];
            w = self.endpoint[m as usize];
            t = 1;
            p = m ^ 1;
        }
    }

    fn scan_blossom(&mut self, v: usize, w: usize) -> isize {
        let mut path = Vec::new();
        let mut base = NONE;
        let mut v = v as isize;
        let mut w = w as isize;
        while v != NONE || w != NONE {
            let mut b = self.inblossom[v as usize];
            if self.label[b] & 4 != 0 {
                base = self.blossombase[b];
                break;
            }
            path.push(b);
            self.label[b] = 5;
            if self.labelend[b] == NONE {
                v = NONE;
            } else {
                v = self.endpoint[self.labelend[b] as usize] as isize;
                b = self.inblossom[v as usize];
                v = self.endpoint[self.labelend[b] as usize] as isize;
            }
            if w != NONE {
                std::mem::swap(&mut v, &mut w);
            }
        }
        for b in path {
            self.label[b] = 1;
        }
        base
    }

    fn add_blossom(&mut self, base: usize, k: usize) {
        let (mut v, mut w, _) = self.edges[k];
        let bb = self.inblossom[base];
        let mut bv = self.inblossom[v];
        let mut bw = self.inblossom[w];
        let Some(b) = self.unusedblossoms.pop() else {
            return;
        };
        self.blossombase[b] = base as isize;
        self.blossomparent[b] = NONE;
        self.blossomparent[bb] = b as isize;
        let mut path = Vec::new();
        let mut endps = Vec::new();
        while bv != bb {
            self.blossomparent[bv] = b as isize;
            path.push(bv);
            endps.push(self.labelend[bv] as usize);
            v = self.endpoint[self.labelend[bv] as usize];
            bv = self.inblossom[v];
        }
        path.push(bb);
        path.reverse();
        endps.reverse();
        endps.push(2 * k);
        while bw != bb {
            self.blossomparent[bw] = b as isize;
            path.push(bw);
            endps.push((self.labelend[bw] ^ 1) as usize);
            w = self.endpoint[self.labelend[bw] as usize];
            bw = self.inblossom[w];
        }
        self.label[b] = 1;
        self.labelend[b] = self.labelend[bb];
        self.dualvar[b] = W::ZERO;
        for leaf in self.leaves_of_path(&path) {
            if self.label[self.inblossom[leaf]] == 2 {
                self.queue.push(leaf);
            }
            self.inblossom[leaf] = b;
        }
        // For each S-blossom next to the new one, the least-slack edge to it (and that
        // slack, so that it is computed once an edge).
        let n = self.n;
        let mut best_to = std::mem::take(&mut self.best_to);
        best_to.clear_for(2 * n);
        for &sub in &path {
            match self.blossombestedges[sub].take() {
                Some(list) => {
                    for k in list {
                        if !self.present[k] {
                            continue;
                        }
                        let (i, mut j, _) = self.edges[k];
                        if self.inblossom[j] == b {
                            j = i;
                        }
                        let bj = self.inblossom[j];
                        if bj != b && self.label[bj] == 1 {
                            best_to.offer(bj, k, self.slack(k));
                        }
                    }
                }
                // A kept matching's rows: the leaf's edges in its neighbours' order, each
                // weight read only for an edge to another S-blossom.
                None if !self.rows.is_empty() => {
                    for leaf in self.leaves(sub) {
                        let dual = self.dualvar[leaf];
                        for w in self.neighbours(leaf) {
                            let bw = self.inblossom[w];
                            if bw != b && self.label[bw] == 1 {
                                let s = dual.add_sub(self.dualvar[w], self.row_weight(leaf, w));
                                let (i, j) = (leaf.min(w), leaf.max(w));
                                best_to.offer(bw, i * (2 * n - i - 1) / 2 + (j - i - 1), s);
                            }
                        }
                    }
                }
                None => {
                    for leaf in self.leaves(sub) {
                        for &p in &self.neighbend[leaf] {
                            let k = p / 2;
                            let j = self.endpoint[p];
                            let bj = self.inblossom[j];
                            if self.present[k] && bj != b && self.label[bj] == 1 {
                                best_to.offer(bj, k, self.slack(k));
                            }
                        }
                    }
                }
            }
            self.bestedge[sub] = NONE;
        }
        let mut best = Vec::new();
        let mut least = W::ZERO;
        self.bestedge[b] = NONE;
        for (k, s) in best_to.in_order() {
            best.push(k);
            if self.bestedge[b] == NONE || s < least {
                self.bestedge[b] = k as isize;
                least = s;
            }
        }
        self.best_to = best_to;
        self.blossombestedges[b] = Some(best);
        self.blossomchilds[b] = path;
        self.blossomendps[b] = endps;
    }

    fn leaves_of_path(&self, path: &[usize]) -> Vec<usize> {
        path.iter().flat_map(|&s| self.leaves(s)).collect()
    }

    fn expand_blossom(&mut self, b: usize, endstage: bool) {
        let childs = self.blossomchilds[b].clone();
        for &s in &childs {
            self.blossomparent[s] = NONE;
            if s < self.n {
                self.inblossom[s] = s;
            } else if endstage && self.dualvar[s] == W::ZERO {
                self.expand_blossom(s, endstage);
            } else {
                for leaf in self.leaves(s) {
                    self.inblossom[leaf] = s;
                }
            }
        }
        if !endstage && self.label[b] == 2 {
            let len = childs.len();
            let endps = self.blossomendps[b].clone();
            let entrychild = self.inblossom[self.endpoint[(self.labelend[b] ^ 1) as usize]];
            let mut j = childs.iter().position(|&c| c == entrychild).unwrap_or(0) as isize;
            let (jstep, endptrick): (isize, usize) = if j & 1 == 1 {
                j -= len as isize;
                (1, 0)
            } else {
                (-1, 1)
            };
            let mut p = self.labelend[b];
            while j != 0 {
                let pu = p as usize;
                self.label[self.endpoint[pu ^ 1]] = 0;
                let q = endps[at(len, j - endptrick as isize)];
                self.label[self.endpoint[q ^ endptrick ^ 1]] = 0;
                self.assign_label(self.endpoint[pu ^ 1], 2, p);
                self.allowedge[q / 2] = true;
                j += jstep;
                p = (endps[at(len, j - endptrick as isize)] ^ endptrick) as isize;
                self.allowedge[p as usize / 2] = true;
                j += jstep;
            }
            let bv = childs[at(len, j)];
            let pu = p as usize;
            self.label[self.endpoint[pu ^ 1]] = 2;
            self.label[bv] = 2;
            self.labelend[self.endpoint[pu ^ 1]] = p;
            self.labelend[bv] = p;
            self.bestedge[bv] = NONE;
            j += jstep;
            while childs[at(len, j)] != entrychild {
                let bv = childs[at(len, j)];
                if self.label[bv] == 1 {
                    j += jstep;
                    continue;
                }
                if let Some(v) = self.leaves(bv).into_iter().find(|&v| self.label[v] != 0) {
                    self.label[v] = 0;
                    let base = self.blossombase[bv] as usize;
                    let partner = self.endpoint[self.mate[base] as usize];
                    self.label[partner] = 0;
                    self.assign_label(v, 2, self.labelend[v]);
                }
                j += jstep;
            }
        }
        self.label[b] = -1;
        self.labelend[b] = NONE;
        self.blossomchilds[b] = Vec::new();
        self.blossomendps[b] = Vec::new();
        self.blossombase[b] = NONE;
        self.blossombestedges[b] = None;
        self.bestedge[b] = NONE;
        self.unusedblossoms.push(b);
    }

    fn augment_blossom(&mut self, b: usize, v: usize) {
        let mut t = v;
        while self.blossomparent[t] != b as isize {
            t = self.blossomparent[t] as usize;
        }
        if t >= self.n {
            self.augment_blossom(t, v);
        }
        let childs = self.blossomchilds[b].clone();
        let endps = self.blossomendps[b].clone();
        let len = childs.len();
        let i = childs.iter().position(|&c| c == t).unwrap_or(0);
        let mut j = i as isize;
        let (jstep, endptrick): (isize, usize) = if i & 1 == 1 {
            j -= len as isize;
            (1, 0)
        } else {
            (-1, 1)
        };
        while j != 0 {
            j += jstep;
            let t = childs[at(len, j)];
            let p = endps[at(len, j - endptrick as isize)] ^ endptrick;
            if t >= self.n {
                self.augment_blossom(t, self.endpoint[p]);
            }
            j += jstep;
            let t = childs[at(len, j)];
            if t >= self.n {
                self.augment_blossom(t, self.endpoint[p ^ 1]);
            }
            self.mate[self.endpoint[p]] = (p ^ 1) as isize;
            self.mate[self.endpoint[p ^ 1]] = p as isize;
        }
        let mut new_childs = childs[i..].to_vec();
        new_childs.extend_from_slice(&childs[..i]);
        let mut new_endps = endps[i..].to_vec();
        new_endps.extend_from_slice(&endps[..i]);
        self.blossombase[b] = self.blossombase[new_childs[0]];
        self.blossomchilds[b] = new_childs;
        self.blossomendps[b] = new_endps;
    }

    fn augment_matching(&mut self, k: usize) {
        let (v, w, _) = self.edges[k];
        for (mut s, mut p) in [(v, 2 * k + 1), (w, 2 * k)] {
            loop {
                let bs = self.inblossom[s];
                if bs >= self.n {
                    self.augment_blossom(bs, s);
                }
                self.mate[s] = p as isize;
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
                p = (self.labelend[bt] ^ 1) as usize;
            }
        }
    }

    /// Moves every top-level vertex's and blossom's dual by `delta` the way its label says
    /// (Edmonds' dual step): S-vertices down and S-blossoms up, T the other way round.
    fn move_duals(&mut self, delta: W) {
        let n = self.n;
        for v in 0..n {
            match self.label[self.inblossom[v]] {
                1 => self.dualvar[v] -= delta,
                2 => self.dualvar[v] += delta,
                _ => {}
            }
        }
        for b in n..2 * n {
            if self.blossombase[b] >= 0 && self.blossomparent[b] == NONE {
                match self.label[b] {
                    1 => self.dualvar[b] += delta,
                    2 => self.dualvar[b] -= delta,
                    _ => {}
                }
            }
        }
    }

    /// What the dual step of kind `deltatype` (2 to 4) made possible: the edge it made tight
    /// is scanned from its labelled end (2: S to free, 3: S to S), or the T-blossom whose
    /// dual it brought to zero is taken apart (4). Kind 1 (a vertex's dual at zero) is the
    /// caller's, which ends the stage its own way.
    fn after_dual_step(&mut self, deltatype: u8, deltaedge: usize, deltablossom: usize) {
        match deltatype {
            2 => {
                self.allowedge[deltaedge] = true;
                let (mut i, j, _) = self.edges[deltaedge];
                if self.label[self.inblossom[i]] == 0 {
                    i = j;
                }
                self.queue.push(i);
            }
            3 => {
                self.allowedge[deltaedge] = true;
                let (i, _, _) = self.edges[deltaedge];
                self.queue.push(i);
            }
            _ => self.expand_blossom(deltablossom, false),
        }
    }

    fn solve(&mut self) {
        let n = self.n;
        for _ in 0..n {
            self.label.iter_mut().for_each(|l| *l = 0);
            self.bestedge.iter_mut().for_each(|e| *e = NONE);
            for b in n..2 * n {
                self.blossombestedges[b] = None;
            }
            self.allowedge.iter_mut().for_each(|a| *a = false);
            self.queue.clear();
            for v in 0..n {
                if self.mate[v] == NONE && self.label[self.inblossom[v]] == 0 {
                    self.assign_label(v, 1, NONE);
                }
            }
            let mut augmented = false;
            loop {
                while !augmented {
                    let Some(v) = self.queue.pop() else { break };
                    for idx in 0..self.neighbend[v].len() {
                        let p = self.neighbend[v][idx];
                        let k = p / 2;
                        let w = self.endpoint[p];
                        if self.inblossom[v] == self.inblossom[w] {
                            continue;
                        }
                        let mut kslack = W::ZERO;
                        if !self.allowedge[k] {
                            kslack = self.slack(k);
                            if kslack <= W::ZERO {
                                self.allowedge[k] = true;
                            }
                        }
                        if self.allowedge[k] {
                            if self.label[self.inblossom[w]] == 0 {
                                self.assign_label(w, 2, (p ^ 1) as isize);
                            } else if self.label[self.inblossom[w]] == 1 {
                                let base = self.scan_blossom(v, w);
                                if base >= 0 {
                                    self.add_blossom(base as usize, k);
                                } else {
                                    self.augment_matching(k);
                                    augmented = true;
                                    break;
                                }
                            } else if self.label[w] == 0 {
                                self.label[w] = 2;
                                self.labelend[w] = (p ^ 1) as isize;
                            }
                        } else if self.label[self.inblossom[w]] == 1 {
                            let b = self.inblossom[v];
                            if self.bestedge[b] == NONE
                                || kslack < self.slack(self.bestedge[b] as usize)
                            {
                                self.bestedge[b] = k as isize;
                            }
                        } else if self.label[w] == 0
                            && (self.bestedge[w] == NONE
                                || kslack < self.slack(self.bestedge[w] as usize))
                        {
                            self.bestedge[w] = k as isize;
                        }
                    }
                }
                if augmented {
                    break;
                }
                // The dual change: type 1 ends the stage, 2 and 3 make an edge usable,
                // 4 expands a T-blossom whose dual reached zero.
                let least_dual = self.dualvar[..n].iter().copied().min().unwrap_or(W::ZERO);
                // With the most edges asked for, a stage ends only when nothing is left
                // to grow (type 0 below), never because a vertex dual reached zero.
                let mut deltatype = if self.max_cardinality { 0 } else { 1 };
                let mut delta = least_dual;
                let mut deltaedge = 0usize;
                let mut deltablossom = 0usize;
                for v in 0..n {
                    if self.label[self.inblossom[v]] == 0 && self.bestedge[v] != NONE {
                        let d = self.slack(self.bestedge[v] as usize);
                        if deltatype == 0 || d < delta {
                            delta = d;
                            deltatype = 2;
                            deltaedge = self.bestedge[v] as usize;
                        }
                    }
                }
                for b in 0..2 * n {
                    if self.blossomparent[b] == NONE
                        && self.label[b] == 1
                        && self.bestedge[b] != NONE
                    {
                        let d = self.slack(self.bestedge[b] as usize).half();
                        if deltatype == 0 || d < delta {
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
                        && (deltatype == 0 || self.dualvar[b] < delta)
                    {
                        delta = self.dualvar[b];
                        deltatype = 4;
                        deltablossom = b;
                    }
                }
                if deltatype == 0 {
                    // No further improvement: a last update keeps the duals verifiable.
                    deltatype = 1;
                    delta = least_dual.max(W::ZERO);
                }
                self.move_duals(delta);
                if deltatype == 1 {
                    break;
                }
                self.after_dual_step(deltatype, deltaedge, deltablossom);
            }
            if !augmented {
                break;
            }
            self.end_stage();
        }
    }

    /// S-blossoms whose dual is zero are taken apart, as at the end of every stage.
    fn end_stage(&mut self) {
        let n = self.n;
        for b in n..2 * n {
            if self.blossomparent[b] == NONE
                && self.blossombase[b] >= 0
                && self.label[b] == 1
                && self.dualvar[b] == W::ZERO
            {
                self.expand_blossom(b, true);
            }
        }
    }
}

#[cfg(test)]
mod tests;
