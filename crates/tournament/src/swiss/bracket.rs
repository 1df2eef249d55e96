//! The brackets of one Dutch round, paired from the top score down by maximum weight
//! matchings over every player not yet paired (the way of bbpPairings, written anew).
//!
//! An edge's weight holds the quality criteria as fields, the most important highest;
//! `p1` is the higher of the two players in A.2's order, `p2` the lower:
//!
//! | field | width | criterion |
//! |---|---|---|
//! | completion | 2 | C.4 and C.2: the bye's taker among those who may have it |
//! | bracket scores | score | C.6: the scores of those paired in the bracket, by score group |
//! | bracket pair | count | C.5: pairs in the bracket |
//! | next bracket scores, pair | score, count | C.7: what the downfloaters leave the next bracket |
//! | bye taker's games | 2 count | C.9: the bye to a player with the most games played |
//! | colour imbalance, absolute, compatible, strong | 4 count | C.10, C.11 and the topscorers' C.8, C.9 |
//! | repeated floats | 4 count | C.12–C.15: down- and upfloats of the last two rounds |
//! | their scores | 4 score | C.16–C.19 |
//! | reserved | 3 count + 1 | the order of Article 4, set while the bracket is settled |
//!
//! The score fields give each score group its own bits, the lowest group lowest, so their
//! sums compare lexicographically from the top score down. Only pairs inside the bracket
//! carry the colour and float fields; a pair with the next score group carries C.7's.
//!
//! Settling a bracket: (1) which moved-down players (MDPs) are paired in it, from the
//! highest; (2) each one's opponent, the highest resident possible; (3) the remainder's
//! exchanges, the fewest and then the ones Article 4 tries first (the lowest of S1 and the
//! highest of S2); (4) each S1 player's opponent, the highest S2 player possible. Each step
//! changes the lowest bits of some edges and matches again; a decided pair keeps only its
//! own edge.

mod settle;

use super::dutch::{Field, NoLegalPairing, bit, bits_for};
use crate::matching::{KeptMatching, max_cardinality_matching};
use crate::model::Colour;
use crate::swiss::colour::Strength;
use crate::swiss::dutch::Float;
use crate::weight::Wide;

/// One round's brackets over the positions of a [`Field`], weights `L` limbs wide.
pub(super) struct Brackets<'f, 'a, const L: usize> {
    f: &'f Field<'a>,
    n: usize,
    /// Current weight of every edge (`n × n`, both halves); zero is no edge.
    weight: Vec<Wide<L>>,
    /// In an odd round, who may take the bye (C.2), narrowed to the scores it can reach.
    bye_candidate: Option<Vec<bool>>,
    /// The score of the bye's taker as a matching of the whole round finds it.
    bye_score: Option<u16>,
    /// Whether the bye's taker is the single downfloater of the bracket (C.9 applies).
    single_bye_floater: bool,
    /// Games played → rank (most games, rank 0) among the bye score's players.
    unplayed_rank: Vec<(u16, u64)>,
    /// The last matching, while it is still a best one for the weights as they are.
    current: Option<Vec<usize>>,
    /// Players whose pair is decided: only their own edge is left.
    fixed: Vec<Option<usize>>,
    /// The matching over all players, kept between decisions: a decision changes a few
    /// edges, and matching again costs a few augmentations (a decided pair is matched to
    /// each other, its only edge).
    kept: KeptMatching<Wide<L>>,
}

impl<'f, 'a, const L: usize> Brackets<'f, 'a, L> {
    pub fn new(f: &'f Field<'a>) -> Self {
        Brackets {
            f,
            n: f.n,
            weight: vec![Wide::ZERO; f.n * f.n],
            bye_candidate: None,
            bye_score: None,
            single_bye_floater: false,
            unplayed_rank: Vec::new(),
            current: None,
            fixed: vec![None; f.n],
            // Above n/2 times any edge's weight: the most pairs first (C.4's completion
            // alone does not outweigh a pair more).
            kept: KeptMatching::new(f.n, bit(f.weight_bits() + bits_for(f.n as u64) + 1)),
        }
    }

    fn write(&mut self, a: usize, b: usize, w: Wide<L>) {
        // A decided pair given another edge is open again.
        if !w.is_zero() && self.fixed[a] != Some(b) {
            for g in [a, b] {
                if let Some(o) = self.fixed[g].take() {
                    self.fixed[o] = None;
                }
            }
        }
        self.weight[a * self.n + b] = w;
        self.weight[b * self.n + a] = w;
        self.kept.set_weight(a, b, w);
    }

    /// Sets an edge's weight. The last matching stays a best one if the edge is in it
    /// and gains, or is not in it and loses (no other matching can gain more).
    fn set(&mut self, a: usize, b: usize, w: Wide<L>) {
        if a == b {
            return;
        }
        let old = self.weight[a * self.n + b];
        if old == w {
            return;
        }
        if let Some(m) = &self.current {
            let kept = if m[a] == b { w > old } else { w < old };
            if !kept {
                self.current = None;
            }
        }
        self.write(a, b, w);
    }

    /// Sets several edges of `g` at once, keeping a best matching without matching again
    /// where it can: a matching holds one edge of `g`, so if no edge of `g` gains more than
    /// the one the last matching gives it, that matching is still best; and if another
    /// edge gains most, swapping the two pairs it touches is best when the swap weighed
    /// the same before.
    fn set_around(&mut self, g: usize, edges: &[(usize, Wide<L>)]) {
        let n = self.n;
        let mut next = None;
        if let Some(m) = &self.current {
            let old = |a: usize, b: usize| self.weight[a * n + b];
            let appears = edges
                .iter()
                .any(|&(o, w)| old(g, o).is_zero() && !w.is_zero());
            let change = |o: usize| {
                edges
                    .iter()
                    .find(|&&(e, _)| e == o)
                    .map_or(Wide::ZERO, |&(e, w)| w - old(g, e))
            };
            // The edge of `g` that gains most (the first such), and by how much.
            let (best, gain) = edges
                .iter()
                .filter(|&&(o, w)| o != g && w.is_positive())
                .map(|&(o, _)| (o, change(o)))
                .fold(
                    (g, Wide::ZERO),
                    |acc, (o, c)| if c > acc.1 { (o, c) } else { acc },
                );
            let x = m[g];
            if !appears {
                if x != g
                    && change(x) >= gain
                    && edges.iter().all(|&(o, w)| o != x || w.is_positive())
                {
                    next = Some(m.clone());
                } else if x != g && best != g && best != x {
                    let y = m[best];
                    let neutral = if y == best {
                        old(g, best) == old(g, x)
                    } else {
                        old(x, y).is_positive()
                            && old(g, best) + old(x, y) == old(g, x) + old(best, y)
                    };
                    if neutral {
                        let mut swapped = m.clone();
                        swapped[g] = best;
                        swapped[best] = g;
                        swapped[x] = if y == best { x } else { y };
                        if y != best {
                            swapped[y] = x;
                        }
                        next = Some(swapped);
                    }
                }
            }
        }
        self.current = next;
        for &(o, w) in edges {
            if o != g {
                self.write(g, o, w);
            }
        }
    }

    /// The heaviest matching with the most pairs: partner by position, itself if none.
    /// Decided pairs are matched to each other (they have only their own edge).
    fn matching(&mut self) -> Vec<usize> {
        if let Some(m) = &self.current {
            return m.clone();
        }
        let mate = self.kept.solve();
        let mut out: Vec<usize> = (0..self.n).map(|g| mate[g].unwrap_or(g)).collect();
        for (g, fixed) in self.fixed.iter().enumerate() {
            if let Some(o) = *fixed {
                out[g] = o;
            }
        }
        self.current = Some(out.clone());
        out
    }

    /// Keeps `a` with `b`: every other edge of either goes. If the last matching pairs
    /// them, it stays a best one: every matching with the most pairs holds this edge now.
    fn finalize(&mut self, a: usize, b: usize) {
        let kept = self.current.as_ref().is_some_and(|m| m[a] == b);
        for k in 0..self.n {
            if k != b && k != a {
                self.write(a, k, Wide::ZERO);
                self.write(b, k, Wide::ZERO);
            }
        }
        self.write(a, b, Wide::from_u64(1));
        for g in [a, b] {
            if let Some(o) = self.fixed[g].take() {
                self.fixed[o] = None;
            }
        }
        self.fixed[a] = Some(b);
        self.fixed[b] = Some(a);
        if !kept {
            self.current = None;
        }
    }

    fn score_field(&self, g: usize) -> Wide<L> {
        bit(self.f.shift[self.f.group_of[g]])
    }

    /// The weight of the edge `p1`–`p2` (`p1` higher) before any Article 4 nudge.
    fn edge(&self, p1: usize, p2: usize, in_bracket: bool, in_next: bool) -> Wide<L> {
        let f = self.f;
        if !f.compatible(p1, p2) {
            return Wide::ZERO;
        }
        let (b, sb) = (f.count_bits, f.score_bits);
        let played = f.round.saturating_sub(1);
        let completion = match &self.bye_candidate {
            Some(cand) => 1 + u64::from(!cand[p1]) + u64::from(!cand[p2]),
            None => 3,
        };
        let flag = |c: bool| u64::from(c);
        let mut w = Wide::<L>::from_u64(completion);
        let scores = if in_bracket {
            self.score_field(p1)
        } else {
            Wide::ZERO
        };
        w = w.push_wide(sb, scores).push(b, flag(in_bracket));
        let next = if in_next {
            self.score_field(p1)
        } else {
            Wide::ZERO
        };
        w = w.push_wide(sb, next).push(b, flag(in_next));
        let mut c9 = 0;
        if self.single_bye_floater
            && let Some(bye_score) = self.bye_score
        {
            let rank = |g: usize| {
                let games = f.at(g).played_games;
                self.unplayed_rank
                    .iter()
                    .find(|(k, _)| *k == games)
                    .map_or(0, |(_, r)| *r)
            };
            for g in [p1, p2] {
                if f.score(g) == bye_score {
                    c9 += rank(g);
                }
            }
        }
        w = w.push(2 * b, c9);
        let (colours, floats) = if in_bracket {
            (self.colour_fields(p1, p2), self.float_fields(p1, p2))
        } else {
            ([0; 4], FloatFields::default())
        };
        for c in colours {
            w = w.push(b, c);
        }
        if played >= 1 {
            w = w.push(b, floats.c12).push(b, floats.c13);
        }
        if played >= 2 {
            w = w.push(b, floats.c14).push(b, floats.c15);
        }
        if played >= 1 {
            w = w.push_wide(sb, floats.c16).push_wide(sb, floats.c17);
        }
        if played >= 2 {
            w = w.push_wide(sb, floats.c18).push_wide(sb, floats.c19);
        }
        w.push(3 * b + 1, 0)
    }

    /// C.10, C.11 and the topscorers' colour criteria, each 1 when kept:
    /// `[imbalance, absolute, compatible, strong]`, the most important first.
    fn colour_fields(&self, p1: usize, p2: usize) -> [u64; 4] {
        let f = self.f;
        let (q1, q2) = (f.prefs[p1], f.prefs[p2]);
        let strength = |s: Strength| match s {
            Strength::None => 0,
            Strength::Mild => 1,
            Strength::Strong => 2,
            Strength::Absolute => 3,
        };
        let (st1, st2) = (strength(q1.strength), strength(q2.strength));
        let same = q1.colour.is_some() && q1.colour == q2.colour;
        let (d1, d2) = (f.difference(p1).abs(), f.difference(p2).abs());
        let imbalance = u64::from(!(d1 >= 2 && d2 >= 2 && same));
        let repeated = |g: usize| {
            let colours = &f.at(g).colours;
            (colours.len() >= 2 && colours[colours.len() - 1] == colours[colours.len() - 2])
                .then(|| colours[colours.len() - 1])
        };
        let mut absolute = 1;
        if st1 == 3 && st2 == 3 && q1.colour == q2.colour {
            let (r1, r2) = (repeated(p1), repeated(p2));
            if d1 == d2 {
                if r2.is_some() && r2 == r1 {
                    absolute = 0;
                }
            } else {
                let lower = if d2 > d1 { r1 } else { r2 };
                let unwanted = match q2.colour {
                    Some(Colour::White) => Colour::Black,
                    _ => Colour::White,
                };
                if lower == Some(unwanted) {
                    absolute = 0;
                }
            }
        }
        let compatible = u64::from(!same);
        let strong = u64::from(!(same && st1 >= 2 && st2 >= 2 && !(st1 == 3 && st2 == 3)));
        [imbalance, absolute, compatible, strong]
    }

    fn float_fields(&self, p1: usize, p2: usize) -> FloatFields<L> {
        let f = self.f;
        let (s1, s2) = (f.score(p1), f.score(p2));
        let float = |g: usize, back: usize| f.at(g).floats[back];
        let mut out = FloatFields::default();
        let mut counts = [0u64; 4];
        let mut scores = [Wide::ZERO; 4];
        for back in 0..2 {
            let down = u64::from(float(p2, back) == Float::Down)
                + u64::from(float(p1, back) == Float::Down && s1 <= s2);
            let up_again = float(p2, back) == Float::Up && s1 > s2;
            counts[2 * back] = down;
            counts[2 * back + 1] = u64::from(!up_again);
            let mut down_scores = Wide::ZERO;
            if float(p2, back) == Float::Down {
                down_scores += self.score_field(p2);
            }
            if float(p1, back) == Float::Down {
                down_scores += self.score_field(p1);
            }
            scores[2 * back] = down_scores;
            scores[2 * back + 1] = if up_again {
                Wide::ZERO
            } else {
                self.score_field(p1)
            };
        }
        [out.c12, out.c13, out.c14, out.c15] = counts;
        [out.c16, out.c17, out.c18, out.c19] = scores;
        out
    }

    /// Who may take the bye, and the score the bye reaches (a first, light matching).
    fn prepare_bye(&mut self) -> Result<(), NoLegalPairing> {
        let f = self.f;
        let n = self.n;
        if n.is_multiple_of(2) {
            return Ok(());
        }
        let eligible: Vec<bool> = (0..n).map(|g| f.at(g).bye_eligible).collect();
        if !eligible.iter().any(|&e| e) {
            return Err(NoLegalPairing);
        }
        let top = f.score(0);
        let group_bits = f
            .groups
            .iter()
            .map(|&(a, b)| bits_for((b - a) as u64))
            .max()
            .unwrap_or(1)
            .max(1);
        let mut edges = Vec::new();
        for a in 0..n {
            for b in a + 1..n {
                if !f.compatible(a, b) {
                    continue;
                }
                let completion = 1 + u64::from(!eligible[a]) + u64::from(!eligible[b]);
                let shifts = u64::from(f.shift[f.group_of[a]] + f.shift[f.group_of[b]]);
                let w = Wide::<L>::from_u64(completion)
                    .push(f.score_bits, shifts)
                    .push(group_bits, u64::from(f.score(b) >= top));
                edges.push((a, b, w));
            }
        }
        let mate = max_cardinality_matching(n, &edges);
        let bye_score = (0..n)
            .find(|&g| mate[g].is_none())
            .map_or(top, |g| f.score(g));
        self.bye_candidate = Some(
            (0..n)
                .map(|g| eligible[g] && f.score(g) <= bye_score)
                .collect(),
        );
        self.bye_score = Some(bye_score);
        self.single_bye_floater = bye_score >= top
            && (0..n)
                .take_while(|&g| f.score(g) >= top)
                .all(|g| mate[g].is_none_or(|m| f.score(m) >= top));
        let mut games: Vec<u16> = (0..n)
            .filter(|&g| f.score(g) == bye_score)
            .map(|g| f.at(g).played_games)
            .collect();
        games.sort_unstable_by(|a, b| b.cmp(a));
        // Equal counts share the last rank given to them.
        for (rank, g) in games.iter().enumerate() {
            match self.unplayed_rank.iter_mut().find(|(k, _)| k == g) {
                Some(entry) => entry.1 = rank as u64,
                None => self.unplayed_rank.push((*g, rank as u64)),
            }
        }
        Ok(())
    }

    /// The round's pairs (positions), or the proof that none is legal.
    pub fn pair(mut self) -> Result<Vec<(usize, usize)>, NoLegalPairing> {
        self.prepare_bye()?;
        let n = self.n;
        for a in 0..n {
            for b in a + 1..n {
                let w = self.edge(a, b, false, false);
                self.set(a, b, w);
            }
        }
        let groups = self.f.groups.clone();
        let mut bracket = Bracket {
            players: (groups[0].0..groups[0].1).collect(),
            begin: 0,
            next_begin: 0,
            matched: vec![false; n],
            base: Vec::new(),
            local: vec![None; n],
        };
        let mut next_group = 1;
        let mut pairs: Vec<(usize, usize)> = Vec::new();
        let mut previous: Vec<usize> = Vec::new();
        while bracket.players.len() > 1 || next_group < groups.len() {
            bracket.next_begin = bracket.players.len();
            let loaded = next_group < groups.len();
            let score = if loaded {
                let (a, b) = groups[next_group];
                bracket.players.extend(a..b);
                next_group += 1;
                self.f.score(a)
            } else {
                self.f.score(*bracket.players.last().unwrap_or(&0))
            };
            let stable = self.settle(&mut bracket);
            // C.9 applies to the next bracket if the bye's score reaches this one.
            self.single_bye_floater =
                n % 2 == 1 && loaded && self.bye_score.is_some_and(|s| s >= score);
            let mut carried = Vec::new();
            let mut begin = 0;
            for (li, &g) in bracket.players.iter().enumerate() {
                let resident_or_mover = li < bracket.next_begin;
                if resident_or_mover && bracket.matched[g] && stable[g] != g {
                    let (a, b) = (g.min(stable[g]), g.max(stable[g]));
                    if !pairs.contains(&(a, b)) {
                        pairs.push((a, b));
                    }
                    continue;
                }
                carried.push(g);
                if resident_or_mover {
                    begin += 1;
                }
                if self.single_bye_floater && stable[g] != g && self.f.score(stable[g]) < score {
                    self.single_bye_floater = false;
                }
            }
            bracket.players = carried;
            bracket.begin = begin;
            if next_group >= groups.len() && bracket.players == previous {
                break;
            }
            previous = bracket.players.clone();
        }
        Ok(pairs)
    }
}

#[derive(Default)]
struct FloatFields<const L: usize> {
    c12: u64,
    c13: u64,
    c14: u64,
    c15: u64,
    c16: Wide<L>,
    c17: Wide<L>,
    c18: Wide<L>,
    c19: Wide<L>,
}

/// The bracket being paired: its players by position (moved-down players first, then the
/// residents from `begin`, then the next score group from `next_begin`).
pub(super) struct Bracket<const L: usize> {
    pub players: Vec<usize>,
    pub begin: usize,
    pub next_begin: usize,
    pub matched: Vec<bool>,
    /// Edge weights before nudges, `[larger local index][smaller]`.
    pub base: Vec<Vec<Wide<L>>>,
    /// Local index by position.
    pub local: Vec<Option<usize>>,
}
