//! Round robin by the Berger tables (FIDE C.05 Annex 1), single or double, for 2 to 12
//! players. With an odd number, the player drawn against the missing last number has the
//! round off. In a double round robin the second cycle repeats the first with colours
//! reversed.

/// The most players a round robin takes (the limit: a club night's size).
pub const MAX_PLAYERS: usize = 12;

/// Why a round robin cannot be set up.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RoundRobinError {
    /// Too few or too many players.
    #[error("a round robin takes 2 to {MAX_PLAYERS} players, not {0}")]
    Players(usize),
    /// Cycles other than 1 or 2.
    #[error("a round robin is single (1 cycle) or double (2), not {0} cycles")]
    Cycles(u8),
    /// No such round.
    #[error("there are {rounds} rounds; round {asked} does not exist")]
    NoSuchRound {
        /// Asked.
        asked: usize,
        /// Rounds.
        rounds: usize,
    },
}

/// One round: games as `(white, black)` by player index (0-based: pairing number − 1),
/// and who has the round off.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundRobinRound {
    /// The games, board 1 first.
    pub games: Vec<(usize, usize)>,
    /// The player without a game, with an odd number of players.
    pub off: Option<usize>,
}

/// A round robin's schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoundRobin {
    players: usize,
    cycles: u8,
}

impl RoundRobin {
    /// A schedule for `players` players over `cycles` cycles (1 or 2).
    pub fn new(players: usize, cycles: u8) -> Result<RoundRobin, RoundRobinError> {
        if !(2..=MAX_PLAYERS).contains(&players) {
            return Err(RoundRobinError::Players(players));
        }
        if !(1..=2).contains(&cycles) {
            return Err(RoundRobinError::Cycles(cycles));
        }
        Ok(RoundRobin { players, cycles })
    }

    /// Players rounded up to even: the table's size.
    fn table_size(&self) -> usize {
        self.players + self.players % 2
    }

    /// Rounds in all cycles.
    pub fn rounds(&self) -> usize {
        (self.table_size() - 1) * usize::from(self.cycles)
    }

    /// Round `round` (1-based).
    pub fn round(&self, round: usize) -> Result<RoundRobinRound, RoundRobinError> {
        let rounds = self.rounds();
        if round == 0 || round > rounds {
            return Err(RoundRobinError::NoSuchRound {
                asked: round,
                rounds,
            });
        }
        let n = self.table_size();
        let m = n - 1;
        let per_cycle = m;
        let second_cycle = round > per_cycle;
        let r = (round - 1) % per_cycle + 1;
        // Berger numbers 1..=n; player n is fixed, the others turn. `p` meets n.
        let p = ((r - 1) * (n / 2)) % m + 1;
        let wrap = |x: isize| -> usize { ((x - 1).rem_euclid(m as isize) + 1) as usize };
        let mut pairs = Vec::with_capacity(n / 2);
        pairs.push(if r % 2 == 1 { (p, n) } else { (n, p) });
        for t in 1..n / 2 {
            let t = t as isize;
            pairs.push((wrap(p as isize + t), wrap(p as isize - t)));
        }
        let mut games = Vec::new();
        let mut off = None;
        for (w, b) in pairs {
            let (w, b) = if second_cycle { (b, w) } else { (w, b) };
            // Berger number n past the real players is the round off.
            if b > self.players {
                off = Some(w - 1);
            } else if w > self.players {
                off = Some(b - 1);
            } else {
                games.push((w - 1, b - 1));
            }
        }
        Ok(RoundRobinRound { games, off })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbers(rr: &RoundRobin, round: usize) -> Vec<(usize, usize)> {
        rr.round(round)
            .unwrap()
            .games
            .iter()
            .map(|&(w, b)| (w + 1, b + 1))
            .collect()
    }

    #[test]
    fn six_players_follow_the_fide_berger_table() {
        let rr = RoundRobin::new(6, 1).unwrap();
        assert_eq!(numbers(&rr, 1), vec![(1, 6), (2, 5), (3, 4)]);
        assert_eq!(numbers(&rr, 2), vec![(6, 4), (5, 3), (1, 2)]);
        assert_eq!(numbers(&rr, 3), vec![(2, 6), (3, 1), (4, 5)]);
        assert_eq!(numbers(&rr, 4), vec![(6, 5), (1, 4), (2, 3)]);
        assert_eq!(numbers(&rr, 5), vec![(3, 6), (4, 2), (5, 1)]);
    }

    #[test]
    fn four_players_follow_the_fide_berger_table() {
        let rr = RoundRobin::new(4, 1).unwrap();
        assert_eq!(numbers(&rr, 1), vec![(1, 4), (2, 3)]);
        assert_eq!(numbers(&rr, 2), vec![(4, 3), (1, 2)]);
        assert_eq!(numbers(&rr, 3), vec![(2, 4), (3, 1)]);
    }

    #[test]
    #[allow(clippy::needless_range_loop)] // a table read both ways
    fn everyone_meets_everyone_once_a_cycle_with_colours_reversed_in_the_second() {
        for players in 2..=MAX_PLAYERS {
            for cycles in 1..=2u8 {
                let rr = RoundRobin::new(players, cycles).unwrap();
                let mut met = vec![vec![0; players]; players];
                let mut whites = vec![0i32; players];
                for round in 1..=rr.rounds() {
                    let r = rr.round(round).unwrap();
                    let mut seen = vec![false; players];
                    for &(w, b) in &r.games {
                        assert!(!seen[w] && !seen[b]);
                        seen[w] = true;
                        seen[b] = true;
                        met[w][b] += 1;
                        whites[w] += 1;
                        whites[b] -= 1;
                    }
                    assert_eq!(r.off.is_some(), players % 2 == 1);
                    if let Some(o) = r.off {
                        assert!(!seen[o]);
                    }
                }
                for a in 0..players {
                    for b in 0..players {
                        if a != b {
                            assert_eq!(
                                met[a][b] + met[b][a],
                                usize::from(cycles),
                                "{players} {a} {b}"
                            );
                            if cycles == 2 {
                                assert_eq!(met[a][b], 1, "each colour once: {players} {a} {b}");
                            }
                        }
                    }
                    assert!(
                        whites[a].abs() <= 1 || cycles == 2 && whites[a] == 0,
                        "{players}: {whites:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn bad_settings_are_refused_with_the_reason() {
        assert_eq!(RoundRobin::new(13, 1), Err(RoundRobinError::Players(13)));
        assert_eq!(RoundRobin::new(1, 1), Err(RoundRobinError::Players(1)));
        assert_eq!(RoundRobin::new(6, 3), Err(RoundRobinError::Cycles(3)));
        let rr = RoundRobin::new(5, 1).unwrap();
        assert_eq!(
            rr.round(6),
            Err(RoundRobinError::NoSuchRound {
                asked: 6,
                rounds: 5
            })
        );
    }
}
