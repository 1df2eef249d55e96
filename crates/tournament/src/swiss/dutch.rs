//! The FIDE Dutch system (C.04.3): one round's pairing from each player's history.
//!
//! The way of bbpPairings (the FIDE-endorsed Dutch engine), written anew: players are
//! ordered by score, then pairing number (A.2), and every decision of a bracket is a
//! maximum weight matching over all the players not yet paired, in which an edge exists
//! only where the absolute criteria allow the game and its weight holds the quality
//! criteria as bit fields, the most important highest (`bracket.rs` has the layout). The
//! brackets are paired from the top score down; inside one, the rules' order of
//! transpositions and exchanges (Article 4) is reached by nudging the lowest bits of a few
//! edges and matching again, then fixing the pairs one at a time, each S1 player taking
//! the first S2 player with which a best pairing remains.
//!
//! Absolute criteria (an edge exists only if all hold): C.1 two players meet once
//! (forfeited games do not count); C.3 no player would get a colour difference beyond ±2
//! or the same colour three times running, except topscorers in the last round (A.7). C.2,
//! the pairing-allocated bye only to whom has not scored a win without playing, is checked
//! on the player the matching leaves out; a round no legal pairing exists for is refused.

use super::bracket::Brackets;
use crate::model::Colour;
use crate::swiss::colour::{Preference, Side, difference, higher_takes_white};
use crate::weight::Wide;

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
    let field = Field::new(contenders, round, last_round);
    if field.n < 2 {
        return Err(NoLegalPairing);
    }
    let pairs = if round == 1 {
        field.first_round()
    } else {
        // The narrowest integer that holds every field of the weight: every limb less is
        // less memory swept by each scan of a vertex's edges and less arithmetic.
        match field.layout_bits() {
            0..=256 => Brackets::<4>::new(&field).pair()?,
            257..=320 => Brackets::<5>::new(&field).pair()?,
            321..=384 => Brackets::<6>::new(&field).pair()?,
            385..=448 => Brackets::<7>::new(&field).pair()?,
            449..=512 => Brackets::<8>::new(&field).pair()?,
            513..=640 => Brackets::<10>::new(&field).pair()?,
            641..=768 => Brackets::<12>::new(&field).pair()?,
            769..=1024 => Brackets::<16>::new(&field).pair()?,
            1025..=2048 => Brackets::<32>::new(&field).pair()?,
            2049..=4096 => Brackets::<64>::new(&field).pair()?,
            _ => Brackets::<128>::new(&field).pair()?,
        }
    };
    field.finish(&pairs, first_colour)
}

/// The players of a round in A.2's order, and what every decision reads of them.
/// Players are named by their position in that order (0 the highest).
pub(super) struct Field<'a> {
    pub c: &'a [Contender],
    /// Contender index by position.
    pub who: Vec<usize>,
    pub n: usize,
    pub round: u8,
    pub last_round: bool,
    /// Score groups as position ranges, highest first.
    pub groups: Vec<(usize, usize)>,
    /// Score group by position.
    pub group_of: Vec<usize>,
    /// Lowest bit of each score group inside a score field (the lowest group lowest).
    pub shift: Vec<u32>,
    /// Width of a score field: every group's bits together.
    pub score_bits: u32,
    /// Width of a count field.
    pub count_bits: u32,
    pub prefs: Vec<Preference>,
    met: Vec<bool>,
}

impl<'a> Field<'a> {
    fn new(c: &'a [Contender], round: u8, last_round: bool) -> Field<'a> {
        let n = c.len();
        let mut who: Vec<usize> = (0..n).collect();
        who.sort_by_key(|&i| (std::cmp::Reverse(c[i].score), c[i].pairing_number));
        let mut position = vec![0; n];
        for (g, &i) in who.iter().enumerate() {
            position[i] = g;
        }
        let mut groups = Vec::new();
        let mut start = 0;
        for g in 1..=n {
            if g == n || c[who[g]].score != c[who[start]].score {
                groups.push((start, g));
                start = g;
            }
        }
        let mut group_of = vec![0; n];
        for (k, &(a, b)) in groups.iter().enumerate() {
            group_of[a..b].iter_mut().for_each(|x| *x = k);
        }
        let mut shift = vec![0; groups.len()];
        let mut score_bits = 0;
        for (k, &(a, b)) in groups.iter().enumerate().rev() {
            shift[k] = score_bits;
            score_bits += bits_for((b - a) as u64).max(1);
        }
        let mut met = vec![false; n * n];
        for (i, p) in c.iter().enumerate() {
            for &o in p.opponents.iter().filter(|&&o| o < n) {
                let (a, b) = (position[i], position[o]);
                met[a * n + b] = true;
                met[b * n + a] = true;
            }
        }
        Field {
            c,
            n,
            round,
            last_round,
            groups,
            group_of,
            shift,
            score_bits,
            count_bits: bits_for(n as u64).max(5) + 3,
            prefs: who.iter().map(|&i| Preference::of(&c[i].colours)).collect(),
            who,
            met,
        }
    }

    /// The contender at position `g`.
    pub fn at(&self, g: usize) -> &Contender {
        &self.c[self.who[g]]
    }

    /// Score in half points at position `g`.
    pub fn score(&self, g: usize) -> u16 {
        self.at(g).score
    }

    /// Colour difference at position `g`.
    pub fn difference(&self, g: usize) -> i32 {
        difference(&self.at(g).colours)
    }

    /// Bits of the widest edge weight (of the bye's first matching or of a bracket's).
    pub fn weight_bits(&self) -> u32 {
        let (b, sb) = (self.count_bits, self.score_bits);
        let floats = match self.round.saturating_sub(1) {
            0 => 0,
            1 => 2 * b + 2 * sb,
            _ => 4 * b + 4 * sb,
        };
        let prelim = 2 + 2 * sb + bits_for(self.n as u64) + 1;
        let bracket = 2 + 2 * sb + 2 * b + 2 * b + 4 * b + floats + 3 * b + 1;
        bracket.max(prelim)
    }

    /// Bits of the matching's arithmetic: the widest edge weight, then room for the kept
    /// matching's bonus of a pair (`n` times any weight) and its duals (eight times that),
    /// and a sign.
    fn layout_bits(&self) -> u32 {
        self.weight_bits() + bits_for(self.n as u64) + 7
    }

    /// A.7: more than half the maximum possible score, when pairing the last round.
    pub fn topscorer(&self, g: usize) -> bool {
        self.last_round && u32::from(self.score(g)) > u32::from(self.round.saturating_sub(1))
    }

    /// The absolute criteria C.1 and C.3 for positions `a` and `b`.
    pub fn compatible(&self, a: usize, b: usize) -> bool {
        if a == b || self.met[a * self.n + b] {
            return false;
        }
        let breaks = |g: usize, colour: Colour| {
            let colours = &self.at(g).colours;
            let three =
                colours.len() >= 2 && colours[colours.len() - 2..].iter().all(|&c| c == colour);
            let diff = difference(colours) + if colour == Colour::White { 1 } else { -1 };
            three || diff.abs() > 2
        };
        let legal = (!breaks(a, Colour::White) && !breaks(b, Colour::Black))
            || (!breaks(a, Colour::Black) && !breaks(b, Colour::White));
        legal || self.topscorer(a) || self.topscorer(b)
    }

    /// Round 1: the top half against the bottom half in order, the bye (if any) to the
    /// lowest player.
    fn first_round(&self) -> Vec<(usize, usize)> {
        let paired = self.n - self.n % 2;
        let half = paired / 2;
        (0..half).map(|g| (g, g + half)).collect()
    }

    /// The pairs (positions) as games with colours, and the bye to whoever is left.
    fn finish(
        &self,
        pairs: &[(usize, usize)],
        first_colour: Colour,
    ) -> Result<Pairing, NoLegalPairing> {
        let mut taken = vec![false; self.n];
        let mut games = Vec::with_capacity(pairs.len());
        for &(a, b) in pairs {
            if taken[a] || taken[b] || !self.compatible(a, b) {
                return Err(NoLegalPairing);
            }
            taken[a] = true;
            taken[b] = true;
            let (h, l) = (a.min(b), a.max(b));
            let side = |g: usize| Side {
                colours: &self.at(g).colours,
                pairing_number: self.at(g).pairing_number,
            };
            if higher_takes_white(side(h), side(l), first_colour) {
                games.push((self.who[h], self.who[l]));
            } else {
                games.push((self.who[l], self.who[h]));
            }
        }
        let left: Vec<usize> = (0..self.n).filter(|&g| !taken[g]).collect();
        let bye = match left.as_slice() {
            [] => None,
            // C.2: the bye never goes to a player who already won without playing.
            [g] if self.at(*g).bye_eligible => Some(self.who[*g]),
            _ => return Err(NoLegalPairing),
        };
        Ok(Pairing { games, bye })
    }
}

/// Bits needed to write `max`.
pub(super) fn bits_for(max: u64) -> u32 {
    64 - max.leading_zeros()
}

/// `2^bit` as a weight.
pub(super) fn bit<const L: usize>(bit: u32) -> Wide<L> {
    Wide::bit(bit)
}
