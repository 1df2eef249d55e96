//! Tie-breaks and standings for events whose rounds are [`Entry`] lists (Swiss, round
//! robin), in a documented order per format:
//!
//! - Swiss: points, Buchholz cut-1, Buchholz, Sonneborn-Berger, direct encounter, wins.
//! - Round robin: points, direct encounter, Sonneborn-Berger, wins (everyone met the same
//!   opponents, so Buchholz says nothing there).
//!
//! (Arena standings are points, then wins: [`crate::arena::Arena::standings`].)
//!
//! An unplayed round (a bye, a forfeit) counts in Buchholz as an opponent with the
//! player's own score, the simple form of FIDE's virtual opponent, so that a bye neither
//! helps nor hurts; Sonneborn-Berger counts games played over the board only.

use crate::model::{Entry, Score};

/// One tie-break.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tiebreak {
    /// Opponents' points without the lowest contribution.
    BuchholzCut1,
    /// Opponents' points.
    Buchholz,
    /// Points of opponents beaten, and half of those drawn with.
    SonnebornBerger,
    /// Points in the games between the tied players, when they all met.
    DirectEncounter,
    /// Games won (forfeit wins too).
    Wins,
}

/// The order for a Swiss.
pub const SWISS: [Tiebreak; 5] = [
    Tiebreak::BuchholzCut1,
    Tiebreak::Buchholz,
    Tiebreak::SonnebornBerger,
    Tiebreak::DirectEncounter,
    Tiebreak::Wins,
];

/// The order for a round robin.
pub const ROUND_ROBIN: [Tiebreak; 3] = [
    Tiebreak::DirectEncounter,
    Tiebreak::SonnebornBerger,
    Tiebreak::Wins,
];

/// One row of the standings. Values are in quarter points (so a Sonneborn-Berger half of
/// a half point is whole), except wins, which are a count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    /// The player's index.
    pub player: usize,
    /// 1-based rank; players equal on points and every tie-break share it.
    pub rank: usize,
    /// Points in half points.
    pub points: u16,
    /// The tie-breaks' values, in the order asked.
    pub tiebreaks: Vec<u32>,
}

fn points(entries: &[Entry]) -> u32 {
    entries.iter().map(|e| u32::from(e.points().0)).sum()
}

/// Each round's Buchholz contribution, in half points.
fn contributions(all: &[Vec<Entry>], player: usize) -> Vec<u32> {
    let own = points(&all[player]);
    all[player]
        .iter()
        .map(|e| match *e {
            Entry::Game {
                opponent,
                score: Some(s),
                ..
            } if s.was_played() => all.get(opponent).map_or(0, |o| points(o)),
            _ => own,
        })
        .collect()
}

fn value(all: &[Vec<Entry>], player: usize, tiebreak: Tiebreak, tied: &[usize]) -> u32 {
    match tiebreak {
        Tiebreak::Buchholz => contributions(all, player).iter().sum::<u32>() * 2,
        Tiebreak::BuchholzCut1 => {
            let c = contributions(all, player);
            (c.iter().sum::<u32>() - c.iter().min().copied().unwrap_or(0)) * 2
        }
        Tiebreak::SonnebornBerger => all[player]
            .iter()
            .map(|e| match *e {
                Entry::Game {
                    opponent,
                    score: Some(Score::Win),
                    ..
                } => 2 * all.get(opponent).map_or(0, |o| points(o)),
                Entry::Game {
                    opponent,
                    score: Some(Score::Draw),
                    ..
                } => all.get(opponent).map_or(0, |o| points(o)),
                _ => 0,
            })
            .sum(),
        Tiebreak::DirectEncounter => {
            // Only meaningful if every pair of the tied players met over the board.
            let met = |a: usize, b: usize| {
                all[a].iter().any(|e| matches!(e, Entry::Game { opponent, score: Some(s), .. } if *opponent == b && s.was_played()))
            };
            let complete = tied
                .iter()
                .all(|&a| tied.iter().all(|&b| a == b || met(a, b)));
            if !complete || tied.len() < 2 {
                return 0;
            }
            all[player]
                .iter()
                .filter_map(|e| match *e {
                    Entry::Game {
                        opponent,
                        score: Some(s),
                        ..
                    } if tied.contains(&opponent) && s.was_played() => {
                        Some(u32::from(s.points().0) * 2)
                    }
                    _ => None,
                })
                .sum()
        }
        Tiebreak::Wins => all[player]
            .iter()
            .filter(|e| matches!(e.score(), Some(Score::Win | Score::ForfeitWin)))
            .count() as u32,
    }
}

/// The standings of the players whose rounds are `all`, by points then `order`.
pub fn standings(all: &[Vec<Entry>], order: &[Tiebreak]) -> Vec<Standing> {
    let mut rows: Vec<Standing> = (0..all.len())
        .map(|p| Standing {
            player: p,
            rank: 0,
            points: points(&all[p]) as u16,
            tiebreaks: Vec::new(),
        })
        .collect();
    // Tie-breaks are filled one at a time, since direct encounter looks at who is still
    // tied after the ones before it.
    for (k, &tiebreak) in order.iter().enumerate() {
        let keys: Vec<(u16, Vec<u32>)> = rows
            .iter()
            .map(|r| (r.points, r.tiebreaks[..k].to_vec()))
            .collect();
        let values: Vec<u32> = (0..rows.len())
            .map(|r| {
                let tied: Vec<usize> = (0..rows.len())
                    .filter(|&o| keys[o] == keys[r])
                    .map(|o| rows[o].player)
                    .collect();
                value(all, rows[r].player, tiebreak, &tied)
            })
            .collect();
        for (row, v) in rows.iter_mut().zip(values) {
            row.tiebreaks.push(v);
        }
    }
    rows.sort_by(|a, b| {
        (b.points, &b.tiebreaks)
            .cmp(&(a.points, &a.tiebreaks))
            .then(a.player.cmp(&b.player))
    });
    for k in 0..rows.len() {
        rows[k].rank = if k > 0
            && rows[k - 1].points == rows[k].points
            && rows[k - 1].tiebreaks == rows[k].tiebreaks
        {
            rows[k - 1].rank
        } else {
            k + 1
        };
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{ByeKind, Colour};

    fn game(opponent: usize, score: Score) -> Entry {
        Entry::Game {
            opponent,
            colour: Colour::White,
            score: Some(score),
        }
    }

    /// Four players, three rounds: 0 beats 1 and 2, draws 3; 1 beats 2 and 3; 2 beats 3.
    fn event() -> Vec<Vec<Entry>> {
        vec![
            vec![
                game(1, Score::Win),
                game(2, Score::Win),
                game(3, Score::Draw),
            ],
            vec![
                game(0, Score::Loss),
                game(3, Score::Win),
                game(2, Score::Win),
            ],
            vec![
                game(3, Score::Win),
                game(0, Score::Loss),
                game(1, Score::Loss),
            ],
            vec![
                game(2, Score::Loss),
                game(1, Score::Loss),
                game(0, Score::Draw),
            ],
        ]
    }

    #[test]
    fn buchholz_and_sonneborn_berger_count_the_opponents_points() {
        let rows = standings(&event(), &SWISS);
        // Points (half points): 0: 5, 1: 4, 2: 2, 3: 1.
        assert_eq!(
            rows.iter()
                .map(|r| (r.player, r.points))
                .collect::<Vec<_>>(),
            vec![(0, 5), (1, 4), (2, 2), (3, 1)]
        );
        let zero = &rows[0];
        // Buchholz of 0: 4 + 2 + 1 = 7 half points = 14 quarters; cut-1 drops 1: 12.
        assert_eq!(zero.tiebreaks[0], 12);
        assert_eq!(zero.tiebreaks[1], 14);
        // SB of 0: beat 1 (4) and 2 (2), drew 3 (1/2 of 1): 2*4 + 2*2 + 1 = 13 quarters.
        assert_eq!(zero.tiebreaks[2], 13);
        assert_eq!(zero.tiebreaks[4], 2);
    }

    #[test]
    fn direct_encounter_separates_players_who_met() {
        // 0 and 1 both 1 point; 1 beat 0.
        let all = vec![
            vec![game(1, Score::Loss), game(2, Score::Win)],
            vec![game(0, Score::Win), game(3, Score::Loss)],
            vec![game(3, Score::Draw), game(0, Score::Loss)],
            vec![game(2, Score::Draw), game(1, Score::Win)],
        ];
        let rows = standings(&all, &ROUND_ROBIN);
        let pos = |p: usize| rows.iter().position(|r| r.player == p).unwrap();
        assert!(pos(1) < pos(0), "{rows:?}");
    }

    #[test]
    fn a_bye_counts_as_an_opponent_with_ones_own_score_and_full_ties_share_a_rank() {
        let all = vec![
            vec![Entry::Bye(ByeKind::PairingAllocated)],
            vec![Entry::Bye(ByeKind::PairingAllocated)],
        ];
        let rows = standings(&all, &SWISS);
        assert_eq!(rows[0].tiebreaks[1], 4); // own 1 point = 2 half points = 4 quarters
        assert_eq!((rows[0].rank, rows[1].rank), (1, 1));
    }
}
