//! Settling one bracket: which of the best pairings the rules take (Article 4's order of
//! transpositions and exchanges), reached by nudging the reserved lowest bits of the
//! bracket's edges and matching again. A decided pair keeps only its own edge.

// Local indices (a player's place in the bracket's list) are the vocabulary of the steps
// below: they order the players and index the base weights, so ranges over them stay.
#![allow(clippy::needless_range_loop)]

use super::{Bracket, Brackets};
use crate::weight::Wide;

impl<const L: usize> Bracket<L> {
    /// A resident of the bracket (not moved down, not of the next group).
    fn resident(&self, g: usize) -> bool {
        self.local[g].is_some_and(|li| (self.begin..self.next_begin).contains(&li))
    }

    /// A player moved down into the bracket.
    fn mover(&self, g: usize) -> bool {
        self.local[g].is_some_and(|li| li < self.begin)
    }

    /// The weight before nudges of the edge between local indices `larger` > `smaller`.
    fn base(&self, larger: usize, smaller: usize) -> Wide<L> {
        self.base
            .get(larger)
            .and_then(|row| row.get(smaller))
            .copied()
            .unwrap_or(Wide::ZERO)
    }

    fn clear_base(&mut self, larger: usize, smaller: usize) {
        if let Some(w) = self
            .base
            .get_mut(larger)
            .and_then(|row| row.get_mut(smaller))
        {
            *w = Wide::ZERO;
        }
    }
}

impl<const L: usize> Brackets<'_, '_, L> {
    /// The base weight of a remainder edge with Article 4's preferences in the reserved
    /// bits: the higher player `index`-th of the remainder, in S1 when `index < s1`; S1
    /// players paired inside first, then the smallest difference of pairing order.
    fn exchange_weight(
        &self,
        br: &Bracket<L>,
        smaller: usize,
        larger: usize,
        index: usize,
        s1: usize,
    ) -> Wide<L> {
        let w = br.base(larger, smaller);
        if w.is_zero() {
            return w;
        }
        let addend = (Wide::<L>::from_u64(u64::from(index < s1))
            .shifted_left(2 * self.f.count_bits)
            - Wide::from_u64(index as u64))
        .shifted_left(1);
        w + addend
    }

    /// Pairs what it can of the bracket; returns the last matching of the round.
    pub(super) fn settle(&mut self, br: &mut Bracket<L>) -> Vec<usize> {
        let players = br.players.clone();
        let size = players.len();
        let (begin, next_begin) = (br.begin, br.next_begin);
        br.local.iter_mut().for_each(|x| *x = None);
        for (li, &g) in players.iter().enumerate() {
            br.local[g] = Some(li);
        }
        br.base = (0..size)
            .map(|li| {
                if li < begin {
                    return Vec::new();
                }
                (0..li)
                    .map(|lj| {
                        self.edge(players[lj], players[li], li < next_begin, li >= next_begin)
                    })
                    .collect()
            })
            .collect();
        for li in begin..size {
            for lj in 0..li {
                self.set(players[li], players[lj], br.base[li][lj]);
            }
        }
        let mut stable = self.matching();
        self.choose_movers(br, &players, &mut stable);
        self.pair_movers(br, &players, &mut stable);

        // The remainder: residents not paired with a mover; S1 is as many as pair inside.
        let mut remainder = Vec::new();
        let mut s1 = 0;
        for li in begin..next_begin {
            let g = players[li];
            let p = stable[g];
            if p != g && br.mover(p) {
                continue;
            }
            remainder.push(li);
            if p != g && p < g {
                s1 += 1;
            }
        }
        s1 = s1.min(remainder.len() / 2);
        let inside = |br: &Bracket<L>, stable: &[usize], g: usize| {
            let p = stable[g];
            p != g && br.resident(p) && p > g
        };
        if remainder.len() >= 2 {
            self.exchange(br, &players, &remainder, s1, &mut stable, inside);
        }
        // Each S1 player, from the top, takes the highest opponent a best pairing allows.
        for &li in &remainder {
            let g = players[li];
            if !inside(br, &stable, g) {
                continue;
            }
            let mut addend = 0u64;
            let mut nudged = Vec::new();
            for &opp in remainder.iter().rev() {
                let og = players[opp];
                if opp <= li || br.matched[og] {
                    continue;
                }
                let w = br.base(opp, li);
                if !w.is_zero() {
                    nudged.push((og, w + Wide::from_u64(addend)));
                }
                addend += 1;
            }
            self.set_around(g, &nudged);
            stable = self.matching();
            let m = stable[g];
            if m != g {
                br.matched[g] = true;
                br.matched[m] = true;
                self.finalize(g, m);
            }
        }
        stable
    }

    /// Which moved-down players are paired in the bracket: of each score, as many as
    /// the best pairing pairs there, the highest first (C.6, then Article 4).
    fn choose_movers(&mut self, br: &mut Bracket<L>, players: &[usize], stable: &mut Vec<usize>) {
        let (begin, next_begin) = (br.begin, br.next_begin);
        let mut score = None;
        let (mut left, mut left_paired) = (0i64, 0i64);
        for li in 0..begin {
            let g = players[li];
            let s = self.f.score(g);
            if score.is_none_or(|m| s < m) {
                score = Some(s);
                left = 0;
                left_paired = 0;
                for &mg in &players[li..begin] {
                    if self.f.score(mg) < s {
                        break;
                    }
                    left += 1;
                    if stable[mg] != mg && br.resident(stable[mg]) {
                        left_paired += 1;
                    }
                }
            }
            if left_paired == 0 {
                continue;
            }
            if left <= left_paired {
                br.matched[g] = true;
                left -= 1;
                continue;
            }
            left -= 1;
            if !br.resident(stable[g]) {
                for rli in begin..next_begin {
                    let w = br.base(rli, li);
                    if !w.is_zero() {
                        self.set(g, players[rli], w + Wide::from_u64(1));
                    }
                }
                *stable = self.matching();
            }
            if br.resident(stable[g]) {
                br.matched[g] = true;
                left_paired -= 1;
                let lock = (next_begin - begin) as u64 + 1;
                let locked: Vec<_> = (begin..next_begin)
                    .filter(|&rli| !br.base(rli, li).is_zero())
                    .map(|rli| (players[rli], br.base(rli, li) + Wide::from_u64(lock)))
                    .collect();
                self.set_around(g, &locked);
            }
        }
    }

    /// Each chosen mover, from the highest, takes the highest resident a best pairing
    /// allows.
    fn pair_movers(&mut self, br: &mut Bracket<L>, players: &[usize], stable: &mut Vec<usize>) {
        let (begin, next_begin) = (br.begin, br.next_begin);
        let mut done = vec![false; self.n];
        for li in 0..begin {
            let g = players[li];
            if !br.matched[g] || done[g] {
                continue;
            }
            let mut addend = players.len() as u64;
            let mut nudged = Vec::new();
            for rli in (begin..next_begin).rev() {
                let rg = players[rli];
                if br.matched[rg] {
                    continue;
                }
                let w = br.base(rli, li);
                if !w.is_zero() {
                    nudged.push((rg, w + Wide::from_u64(addend)));
                    addend += 1;
                }
            }
            self.set_around(g, &nudged);
            *stable = self.matching();
            let m = stable[g];
            if m != g {
                br.matched[m] = true;
                self.finalize(g, m);
                done[g] = true;
                done[m] = true;
            } else {
                br.matched[g] = false;
            }
        }
    }

    /// The remainder's exchanges: as few as possible, the lowest of S1 and then the
    /// highest of S2 moving first (Article 4's order of exchanges).
    fn exchange(
        &mut self,
        br: &mut Bracket<L>,
        players: &[usize],
        remainder: &[usize],
        s1: usize,
        stable: &mut Vec<usize>,
        inside: impl Fn(&Bracket<L>, &[usize], usize) -> bool,
    ) {
        for &opp in remainder {
            for (index, &li) in remainder.iter().enumerate() {
                if opp <= li {
                    break;
                }
                let w = self.exchange_weight(br, li, opp, index, s1);
                self.set(players[li], players[opp], w);
            }
        }
        *stable = self.matching();
        let exchanges = (0..s1)
            .filter(|&k| !inside(br, stable, players[remainder[k]]))
            .count();
        // S1 players leaving for S2, from the lowest.
        let mut left = exchanges;
        for scan in (0..s1).rev() {
            if left == 0 {
                break;
            }
            let li = remainder[scan];
            let g = players[li];
            if inside(br, stable, g) {
                for &opp in &remainder[scan + 1..] {
                    let w = self.exchange_weight(br, li, opp, scan, s1);
                    if !w.is_zero() {
                        self.set(g, players[opp], w - Wide::from_u64(1));
                    }
                }
                *stable = self.matching();
            }
            let exchanged = !inside(br, stable, g);
            if exchanged {
                left -= 1;
            }
            for &opp in &remainder[scan + 1..] {
                if exchanged {
                    br.clear_base(opp, li);
                }
                let w = self.exchange_weight(br, li, opp, scan, s1);
                self.set(g, players[opp], w);
            }
        }
        // S2 players coming up to S1, from the highest.
        let mut left = exchanges;
        for (scan, &li) in remainder.iter().enumerate().skip(s1) {
            if left <= 1 {
                break;
            }
            let g = players[li];
            let already = inside(br, stable, g);
            if !already {
                for &opp in &remainder[scan + 1..] {
                    let w = self.exchange_weight(br, li, opp, scan, s1);
                    if !w.is_zero() {
                        self.set(g, players[opp], w + Wide::from_u64(1));
                    }
                }
                *stable = self.matching();
            }
            if inside(br, stable, g) {
                left -= 1;
                for &opp in &remainder[..scan] {
                    br.clear_base(li, opp);
                    self.set(g, players[opp], Wide::ZERO);
                }
                for nli in br.next_begin..players.len() {
                    br.clear_base(nli, li);
                    self.set(g, players[nli], Wide::ZERO);
                }
            }
            if !already {
                for &opp in &remainder[scan + 1..] {
                    let w = self.exchange_weight(br, li, opp, scan, s1);
                    self.set(g, players[opp], w);
                }
            }
        }
        // The exchanges are decided: an edge of an exchanged player inside the remainder
        // goes, the others return to their base weight.
        for (k, &li) in remainder.iter().enumerate() {
            let g = players[li];
            for &opp in &remainder[k + 1..] {
                let og = players[opp];
                if !inside(br, stable, g) || inside(br, stable, og) {
                    br.clear_base(opp, li);
                }
                self.set(g, og, br.base(opp, li));
            }
        }
    }
}
