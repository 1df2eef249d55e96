//! The FIDE Dutch system (C.04.3): one round's pairing from each player's history.
//!
//! The way of bbpPairings, written anew: the brackets are paired from the top score
//! down, and each bracket's choice is the heaviest matching of a graph over every player
//! not yet paired. An edge exists only where the absolute criteria allow the game (C.1
//! no second meeting, C.2 the bye only to whom may have it, C.3 no two non-topscorers
//! with the same absolute colour preference); its weight is the quality criteria as
//! fields, the most important in the highest bits:
//!
//! | field | criterion |
//! |---|---|
//! | every edge 1 | C.4: the whole round can still be paired (a perfect matching) |
//! | pair inside the bracket | C.5: as many pairs in the bracket as possible |
//! | score weight of both players | C.6: the downfloaters' scores as low as possible (lexicographically) |
//! | pair inside the next bracket | C.7: the downfloaters let the next bracket pair most |
//! | games played by the bye's taker | the PAB to the lowest player with most games played (2025, 3.5) |
//! | topscorers' colour difference / three in a row | C.8, C.9 (last round only) |
//! | colour preference kept | C.10 |
//! | strong colour preference kept | C.11 |
//! | same float as last round (down, up) | C.12, C.13 |
//! | same float as two rounds before (down, up) | C.14, C.15 |
//! | closeness to the bracket's natural S1–S2 pairing | only steers the search |
//!
//! Among the pairings that score best, the rules take the first in their order of
//! transpositions and exchanges; `Dutch::settle` picks it by fixing one pair at a time,
//! each the first candidate (S2 in order, then exchanged S1 players) with which a best
//! pairing still exists, and keeps to transpositions (every remainder pair across S1 and
//! S2) whenever one of them is best. C.16–C.19 (the score differences of repeated floats) are not
//! weighed: they change a pairing only where repeated floats of different sizes compete.

use crate::matching::{Edge, max_weight_matching};
use crate::model::Colour;
use crate::swiss::colour::{Preference, Side, Strength, breaks_absolute, higher_takes_white};
use crate::weight::Weight;

/// The float a player received in one round (A.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Float {
    /// Paired with a lower score, or scored more than a loss without playing.
    Down,
    /// Paired with a higher score.
    Up,
    /// Neither.
    #[default]
    None,
}

/// What the pairing needs to know of one player to be paired this round.
#[derive(Clone, Debug)]
pub struct Contender {
    /// Pairing number (1 is the highest rated).
    pub pairing_number: u16,
    /// Score in half points.
    pub score: u16,
    /// Colours of the played games, oldest first.
    pub colours: Vec<Colour>,
    /// The floats of the previous round and of the round before it.
    pub floats: [Float; 2],
    /// Indices (into the same slice) of the players already met over the board.
    pub opponents: Vec<usize>,
    /// May take the pairing-allocated bye (none yet, and no win without playing).
    pub bye_eligible: bool,
    /// Games played over the board.
    pub played_games: u16,
}

/// A round's pairing: pairs as `(white, black)` indices, and the bye's taker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pairing {
    /// The games, white first.
    pub games: Vec<(usize, usize)>,
    /// Who receives the pairing-allocated bye, in an odd round.
    pub bye: Option<usize>,
}

/// No pairing obeys the absolute criteria: the round must not be played as paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NoLegalPairing;

/// Pairs one round. `round` counts from 1; `last_round` makes topscorers (A.7) exist.
pub fn pair(
    contenders: &[Contender],
    round: u8,
    last_round: bool,
    first_colour: Colour,
) -> Result<Pairing, NoLegalPairing> {
    Dutch::new(contenders, round, last_round, first_colour).run()
}

/// Where a player stands relative to the bracket being paired.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    Bracket,
    Next,
    Below,
}

struct Dutch<'a> {
    c: &'a [Contender],
    last_round: bool,
    round: u8,
    first_colour: Colour,
    /// Vertex count: players, plus one for the bye in an odd round.
    vertices: usize,
    bye: Option<usize>,
    rank: Vec<usize>,
    met: Vec<Vec<bool>>,
    prefs: Vec<Preference>,
    /// Widths of the weight's fields.
    count_bits: u32,
}

/// One candidate decision for a player while settling the bracket's pairing.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Choice {
    With(usize),
    Float,
}

fn bits_for(max: u64) -> u32 {
    64 - max.leading_zeros()
}

impl<'a> Dutch<'a> {
    fn new(c: &'a [Contender], round: u8, last_round: bool, first_colour: Colour) -> Self {
        let n = c.len();
        let bye = (n % 2 == 1).then_some(n);
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&i| (std::cmp::Reverse(c[i].score), c[i].pairing_number));
        let mut rank = vec![0; n];
        for (r, &i) in order.iter().enumerate() {
            rank[i] = r;
        }
        let mut met = vec![vec![false; n]; n];
        for (i, p) in c.iter().enumerate() {
            for &o in &p.opponents {
                if o < n {
                    met[i][o] = true;
                    met[o][i] = true;
                }
            }
        }
        Dutch {
            c,
            last_round,
            round,
            first_colour,
            vertices: n + usize::from(bye.is_some()),
            bye,
            rank,
            met,
            prefs: c.iter().map(|p| Preference::of(&p.colours)).collect(),
            count_bits: bits_for(n as u64 + 2) + 1,
        }
    }

    fn topscorer(&self, i: usize) -> bool {
        // A.7: more than half the maximum possible score, when pairing the last round.
        self.last_round && u32::from(self.c[i].score) > u32::from(self.round.saturating_sub(1))
    }

    /// The absolute criteria C.1–C.3.
    fn compatible(&self, i: usize, j: usize) -> bool {
        if Some(j) == self.bye {
            return self.c[i].bye_eligible;
        }
        if Some(i) == self.bye {
            return self.c[j].bye_eligible;
        }
        if self.met[i][j] {
            return false;
        }
        let (pi, pj) = (self.prefs[i], self.prefs[j]);
        let clash = pi.strength == Strength::Absolute
            && pj.strength == Strength::Absolute
            && pi.colour == pj.colour;
        !clash || self.topscorer(i) || self.topscorer(j)
    }

    /// `(higher, lower)` by A.2's order.
    fn ordered(&self, i: usize, j: usize) -> (usize, usize) {
        if self.rank[i] < self.rank[j] {
            (i, j)
        } else {
            (j, i)
        }
    }

    /// `(white, black)` for a pair.
    fn colours(&self, i: usize, j: usize) -> (usize, usize) {
        let (h, l) = self.ordered(i, j);
        let side = |k: usize| Side {
            colours: &self.c[k].colours,
            pairing_number: self.c[k].pairing_number,
        };
        if higher_takes_white(side(h), side(l), self.first_colour) {
            (h, l)
        } else {
            (l, h)
        }
    }

    fn run(self) -> Result<Pairing, NoLegalPairing> {
        let n = self.c.len();
        if n < 2 {
            return Err(NoLegalPairing);
        }
        let mut partner: Vec<Option<usize>> = vec![None; self.vertices];
        // Score groups, highest first.
        let mut scores: Vec<u16> = self.c.iter().map(|p| p.score).collect();
        scores.sort_unstable_by(|a, b| b.cmp(a));
        scores.dedup();
        let mut movers: Vec<usize> = Vec::new();
        for (g, &score) in scores.iter().enumerate() {
            let mut bracket: Vec<usize> = movers.clone();
            bracket.extend((0..n).filter(|&i| self.c[i].score == score));
            bracket.sort_by_key(|&i| self.rank[i]);
            let next_score = scores.get(g + 1).copied();
            let mut place = vec![Place::Below; self.vertices];
            for &i in &bracket {
                place[i] = Place::Bracket;
            }
            if let Some(next) = next_score {
                for i in (0..n).filter(|&i| self.c[i].score == next) {
                    place[i] = Place::Next;
                }
            }
            let free: Vec<usize> = (0..self.vertices)
                .filter(|&v| partner[v].is_none())
                .collect();
            let weights = BracketWeights::new(&self, &bracket, &place, next_score.is_none());
            let edges = weights.edges(&self, &free);
            let mate = max_weight_matching(self.vertices, &edges);
            if free.iter().any(|&v| mate[v].is_none()) {
                return Err(NoLegalPairing);
            }
            let settled = self.settle(&weights, &bracket, &free, &edges, mate);
            movers.clear();
            for &i in &bracket {
                match settled[i] {
                    Some(j) if place[j] == Place::Bracket => partner[i] = Some(j),
                    Some(j) if Some(j) == self.bye && next_score.is_none() => {
                        partner[i] = Some(j);
                        partner[j] = Some(i);
                    }
                    _ => movers.push(i),
                }
            }
        }
        if !movers.is_empty() {
            return Err(NoLegalPairing);
        }
        let mut games = Vec::new();
        let mut bye = None;
        for (i, &mate) in partner.iter().enumerate().take(n) {
            match mate {
                Some(j) if Some(j) == self.bye => bye = Some(i),
                Some(j) if i < j => games.push(self.colours(i, j)),
                Some(_) => {}
                None => return Err(NoLegalPairing),
            }
        }
        Ok(Pairing { games, bye })
    }

    /// Among the best pairings of the bracket, the first in the rules' order.
    fn settle(
        &self,
        weights: &BracketWeights,
        bracket: &[usize],
        free: &[usize],
        edges: &[Edge],
        mate: Vec<Option<usize>>,
    ) -> Vec<Option<usize>> {
        let quality = |m: &[Option<usize>]| weights.quality(self, m);
        let best = quality(&mate);
        let mut mate = mate;
        let in_bracket = |v: usize| bracket.contains(&v);
        let mut decided = vec![false; self.vertices];
        // Constraints so far: pairs fixed, players fixed to float out of the bracket.
        let mut fixed: Vec<(usize, usize)> = Vec::new();
        let mut floating: Vec<usize> = Vec::new();
        let movers: Vec<usize> = bracket
            .iter()
            .copied()
            .filter(|&i| weights.is_mover(self, i))
            .collect();
        // The rules try every transposition of the remainder before any exchange: once the
        // movers are settled, if some best pairing keeps every remainder pair across S1
        // and S2, only such pairings are tried.
        let mut across_only: Option<(Vec<bool>, Vec<bool>)> = None;
        let no_limit = |_: usize, _: usize| false;
        for &x in bracket {
            if decided[x] {
                continue;
            }
            if across_only.is_none() && !weights.is_mover(self, x) {
                let remainder: Vec<usize> = bracket
                    .iter()
                    .copied()
                    .filter(|&y| !weights.is_mover(self, y) && !decided[y])
                    .collect();
                let mut in_remainder = vec![false; self.vertices];
                for &y in &remainder {
                    in_remainder[y] = true;
                }
                let paired = remainder
                    .iter()
                    .filter(|&&y| mate[y].is_some_and(|m| in_remainder[m]))
                    .count();
                let mut upper = vec![false; self.vertices];
                for &y in remainder.iter().take(paired / 2) {
                    upper[y] = true;
                }
                let same_side =
                    |a: usize, b: usize| in_remainder[a] && in_remainder[b] && upper[a] == upper[b];
                let trial = constrained(
                    self.vertices,
                    free,
                    edges,
                    &fixed,
                    &floating,
                    &in_bracket,
                    &same_side,
                );
                match trial {
                    Some(t) if quality(&t) == best => {
                        mate = t;
                        across_only = Some((in_remainder, upper));
                    }
                    _ => across_only = Some((Vec::new(), Vec::new())),
                }
            }
            let candidates = weights.candidates(self, x, bracket, &decided, &mate, &movers);
            for choice in candidates {
                let holds = match choice {
                    Choice::With(y) => mate[x] == Some(y),
                    Choice::Float => mate[x].is_some_and(|y| !in_bracket(y)),
                };
                if holds {
                    self.decide(choice, x, &mut decided, &mut fixed, &mut floating);
                    break;
                }
                if let Choice::With(y) = choice
                    && !self.compatible(x, y)
                {
                    continue;
                }
                let mut trial_fixed = fixed.clone();
                let mut trial_floating = floating.clone();
                match choice {
                    Choice::With(y) => trial_fixed.push((x, y)),
                    Choice::Float => trial_floating.push(x),
                }
                let same_side = |a: usize, b: usize| match &across_only {
                    Some((in_remainder, upper)) if !in_remainder.is_empty() => {
                        in_remainder[a] && in_remainder[b] && upper[a] == upper[b]
                    }
                    _ => no_limit(a, b),
                };
                let trial = constrained(
                    self.vertices,
                    free,
                    edges,
                    &trial_fixed,
                    &trial_floating,
                    &in_bracket,
                    &same_side,
                );
                if let Some(trial) = trial
                    && quality(&trial) == best
                {
                    mate = trial;
                    self.decide(choice, x, &mut decided, &mut fixed, &mut floating);
                    break;
                }
            }
            if !decided[x] {
                // The matching found is best and no earlier candidate is: keep its choice.
                let choice = match mate[x] {
                    Some(y) if in_bracket(y) => Choice::With(y),
                    _ => Choice::Float,
                };
                self.decide(choice, x, &mut decided, &mut fixed, &mut floating);
            }
        }
        mate
    }

    fn decide(
        &self,
        choice: Choice,
        x: usize,
        decided: &mut [bool],
        fixed: &mut Vec<(usize, usize)>,
        floating: &mut Vec<usize>,
    ) {
        decided[x] = true;
        match choice {
            Choice::With(y) => {
                decided[y] = true;
                fixed.push((x, y));
            }
            Choice::Float => floating.push(x),
        }
    }
}

/// The heaviest matching of the free vertices with some pairs fixed and some bracket
/// players kept out of the bracket; `None` if it cannot pair everyone.
fn constrained(
    vertices: usize,
    free: &[usize],
    edges: &[Edge],
    fixed: &[(usize, usize)],
    floating: &[usize],
    in_bracket: &dyn Fn(usize) -> bool,
    forbidden: &dyn Fn(usize, usize) -> bool,
) -> Option<Vec<Option<usize>>> {
    let mut taken = vec![false; vertices];
    for &(a, b) in fixed {
        taken[a] = true;
        taken[b] = true;
    }
    let mut out = vec![false; vertices];
    for &f in floating {
        out[f] = true;
    }
    let kept: Vec<Edge> = edges
        .iter()
        .copied()
        .filter(|&(a, b, _)| !taken[a] && !taken[b])
        .filter(|&(a, b, _)| !(out[a] && in_bracket(b) || out[b] && in_bracket(a)))
        .filter(|&(a, b, _)| !forbidden(a, b))
        .collect();
    let mut mate = max_weight_matching(vertices, &kept);
    for &(a, b) in fixed {
        mate[a] = Some(b);
        mate[b] = Some(a);
    }
    free.iter().all(|&v| mate[v].is_some()).then_some(mate)
}

/// The weight of every edge while one bracket is paired.
struct BracketWeights {
    place: Vec<Place>,
    last_bracket: bool,
    /// Per bracket player: the weight of being paired in the bracket (C.6), by score level.
    level_weight: Vec<u64>,
    level_bits: u32,
    steer_bits: u32,
    /// Position of each bracket player among the bracket's residents, and the size of S1.
    resident_pos: Vec<Option<usize>>,
    s1_len: usize,
    bracket_len: usize,
    score: u16,
}

impl BracketWeights {
    fn new(d: &Dutch<'_>, bracket: &[usize], place: &[Place], last_bracket: bool) -> Self {
        let score = bracket.iter().map(|&i| d.c[i].score).min().unwrap_or(0);
        let mut levels: Vec<u16> = bracket.iter().map(|&i| d.c[i].score).collect();
        levels.sort_unstable();
        levels.dedup();
        let base = bracket.len() as u64 + 1;
        // Lexicographic on scores needs base^levels; past 60 bits fall back to the score.
        let lexicographic = (levels.len() as u32) * bits_for(base) < 60;
        let mut level_weight = vec![0; d.vertices];
        for &i in bracket {
            let level = levels.iter().position(|&s| s == d.c[i].score).unwrap_or(0) as u32;
            level_weight[i] = if lexicographic {
                base.pow(level)
            } else {
                u64::from(d.c[i].score) + 1
            };
        }
        let max_level = bracket.iter().map(|&i| level_weight[i]).max().unwrap_or(1);
        let residents: Vec<usize> = bracket
            .iter()
            .copied()
            .filter(|&i| d.c[i].score == score)
            .collect();
        let mut resident_pos = vec![None; d.vertices];
        for (k, &i) in residents.iter().enumerate() {
            resident_pos[i] = Some(k);
        }
        BracketWeights {
            place: place.to_vec(),
            last_bracket,
            level_weight,
            level_bits: bits_for(max_level * 2 * (d.vertices as u64 / 2 + 1)),
            steer_bits: bits_for((bracket.len() as u64 + 1) * (d.vertices as u64 / 2 + 1)),
            resident_pos,
            s1_len: residents.len() / 2,
            bracket_len: bracket.len(),
            score,
        }
    }

    fn is_mover(&self, d: &Dutch<'_>, i: usize) -> bool {
        d.c.get(i).is_some_and(|p| p.score > self.score)
    }

    fn inside(&self, v: usize) -> bool {
        self.place[v] == Place::Bracket
    }

    /// The criteria part of an edge's weight (everything above the steering field).
    fn criteria(&self, d: &Dutch<'_>, i: usize, j: usize) -> Weight {
        let cb = d.count_bits;
        let both = self.inside(i) && self.inside(j);
        let real = |v: usize| Some(v) != d.bye;
        let mut w = Weight::from_u64(1);
        w = w.push(cb, u64::from(both));
        w = w.push(
            self.level_bits,
            if both {
                self.level_weight[i] + self.level_weight[j]
            } else {
                0
            },
        );
        let next_pair = !both
            && (self.inside(i) || self.place[i] == Place::Next)
            && (self.inside(j) || self.place[j] == Place::Next)
            && real(i)
            && real(j);
        w = w.push(cb, u64::from(next_pair));
        let bye_taker = match (Some(i) == d.bye, Some(j) == d.bye) {
            (false, true) if self.last_bracket && self.inside(i) => {
                u64::from(d.c[i].played_games) + 1
            }
            (true, false) if self.last_bracket && self.inside(j) => {
                u64::from(d.c[j].played_games) + 1
            }
            _ => 0,
        };
        w = w.push(16, bye_taker);
        // Colour criteria, for pairs of the bracket only.
        let (mut c8, mut c9, mut c10, mut c11) = (2, 2, 1, 1);
        if both {
            let (white, black) = d.colours(i, j);
            if d.topscorer(i) || d.topscorer(j) {
                for (p, colour) in [(white, Colour::White), (black, Colour::Black)] {
                    let (wide, three) = breaks_absolute(&d.c[p].colours, colour);
                    c8 -= u64::from(wide);
                    c9 -= u64::from(three);
                }
            }
            let (pi, pj) = (d.prefs[i], d.prefs[j]);
            if pi.colour.is_some() && pi.colour == pj.colour {
                c10 = 0;
                if pi.strength >= Strength::Strong && pj.strength >= Strength::Strong {
                    c11 = 0;
                }
            }
        }
        w = w
            .push(cb + 1, c8)
            .push(cb + 1, c9)
            .push(cb, c10)
            .push(cb, c11);
        // Floats: who would receive which float by this edge.
        let (mut down, mut up) = (None, None);
        if both && d.c[i].score != d.c[j].score {
            let (h, l) = if d.c[i].score > d.c[j].score {
                (i, j)
            } else {
                (j, i)
            };
            down = Some(h);
            up = Some(l);
        } else if self.inside(i) && !self.inside(j) {
            down = Some(i);
        } else if self.inside(j) && !self.inside(i) {
            down = Some(j);
        }
        for back in 0..2 {
            let repeat_down = down.is_some_and(|p| d.c[p].floats[back] == Float::Down);
            let repeat_up = up.is_some_and(|p| d.c[p].floats[back] == Float::Up);
            w = w
                .push(cb, 1 - u64::from(repeat_down))
                .push(cb, 1 - u64::from(repeat_up));
        }
        w
    }

    /// Closeness to the bracket's first candidate in the rules' order: only steers the
    /// matching towards it, below every criterion.
    fn steer(&self, d: &Dutch<'_>, i: usize, j: usize) -> u64 {
        if !(self.inside(i) && self.inside(j)) {
            return 0;
        }
        let (h, l) = d.ordered(i, j);
        let size = self.bracket_len as u64;
        match (self.resident_pos[h], self.resident_pos[l]) {
            (Some(a), Some(b)) if a < self.s1_len && b >= self.s1_len => {
                size - ((b - self.s1_len) as u64).abs_diff(a as u64).min(size)
            }
            (None, Some(b)) => size - (b as u64).min(size),
            _ => 0,
        }
    }

    fn weight(&self, d: &Dutch<'_>, i: usize, j: usize) -> Weight {
        self.criteria(d, i, j)
            .push(self.steer_bits, self.steer(d, i, j))
    }

    fn edges(&self, d: &Dutch<'_>, free: &[usize]) -> Vec<Edge> {
        let mut edges = Vec::new();
        for (a, &i) in free.iter().enumerate() {
            for &j in &free[a + 1..] {
                if d.compatible(i, j) {
                    edges.push((i, j, self.weight(d, i, j)));
                }
            }
        }
        edges
    }

    /// A matching's quality: the sum of its edges' criteria.
    fn quality(&self, d: &Dutch<'_>, mate: &[Option<usize>]) -> Weight {
        (0..mate.len())
            .filter_map(|i| mate[i].filter(|&j| i < j).map(|j| self.criteria(d, i, j)))
            .sum()
    }

    /// The order in which the rules try partners for `x`: S2 in order, then players of
    /// S1 below `x` from the lowest up (exchanges), then floating down.
    fn candidates(
        &self,
        d: &Dutch<'_>,
        x: usize,
        bracket: &[usize],
        decided: &[bool],
        mate: &[Option<usize>],
        movers: &[usize],
    ) -> Vec<Choice> {
        let open = |y: usize| y != x && !decided[y];
        let mut out = Vec::new();
        if self.is_mover(d, x) {
            out.extend(
                bracket
                    .iter()
                    .copied()
                    .filter(|&y| open(y) && !self.is_mover(d, y))
                    .map(Choice::With),
            );
            out.extend(
                movers
                    .iter()
                    .copied()
                    .filter(|&y| open(y) && d.rank[y] > d.rank[x])
                    .map(Choice::With),
            );
        } else {
            // The remainder: residents not taken by movers. S1 holds as many as the
            // matching found pairs among them.
            let remainder: Vec<usize> = bracket
                .iter()
                .copied()
                .filter(|&y| !self.is_mover(d, y))
                .filter(|&y| !mate[y].is_some_and(|m| self.is_mover(d, m)) || y == x)
                .collect();
            let paired = remainder
                .iter()
                .filter(|&&y| mate[y].is_some_and(|m| remainder.contains(&m)))
                .count();
            let s1 = paired / 2;
            let pos = remainder.iter().position(|&y| y == x).unwrap_or(0);
            if pos < s1 {
                out.extend(
                    remainder[s1..]
                        .iter()
                        .copied()
                        .filter(|&y| open(y))
                        .map(Choice::With),
                );
                out.extend(
                    remainder[pos + 1..s1]
                        .iter()
                        .rev()
                        .copied()
                        .filter(|&y| open(y))
                        .map(Choice::With),
                );
            } else {
                out.extend(
                    remainder[pos + 1..]
                        .iter()
                        .copied()
                        .filter(|&y| open(y))
                        .map(Choice::With),
                );
            }
        }
        out.push(Choice::Float);
        out
    }
}
