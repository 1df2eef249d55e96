//! The Dutch system's promises through the public API: round 1 by halves, no second
//! meeting, the bye to the lowest player who may have it, a round without a legal pairing
//! refused.

use jieqi_tournament::model::{ByeKind, Colour, Entry};
use jieqi_tournament::swiss::{BoardResult, Swiss, SwissError};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashSet;

fn event(players: u16, rounds: u8) -> Swiss {
    let mut swiss = Swiss::new(rounds, Colour::White).unwrap();
    for k in 0..players {
        swiss.join(&format!("P{k}"), 2000 - k, false).unwrap();
    }
    swiss
}

fn play(swiss: &mut Swiss, round: u8, rng: &mut ChaCha8Rng) -> Result<(), SwissError> {
    for b in swiss.pair_next_round()? {
        let result = match rng.gen_range(0..3) {
            0 => BoardResult::WhiteWins,
            1 => BoardResult::Draw,
            _ => BoardResult::BlackWins,
        };
        swiss.record(round, b.white, result).unwrap();
    }
    Ok(())
}

#[test]
fn round_one_pairs_the_top_half_against_the_bottom_half_in_order() {
    let mut swiss = event(8, 3);
    let boards = swiss.pair_next_round().unwrap();
    let pairs: HashSet<(usize, usize)> = boards
        .iter()
        .map(|b| (b.white.min(b.black), b.white.max(b.black)))
        .collect();
    assert_eq!(pairs, HashSet::from([(0, 4), (1, 5), (2, 6), (3, 7)]));
    // E.5: the top board's higher player takes the first colour, then alternating.
    assert_eq!((boards[0].white, boards[1].black), (0, 1));
}

#[test]
fn an_odd_round_one_gives_the_bye_to_the_lowest_player() {
    let mut swiss = event(7, 3);
    swiss.pair_next_round().unwrap();
    assert_eq!(
        swiss.entrants()[6].entries[0],
        Entry::Bye(ByeKind::PairingAllocated)
    );
}

#[test]
fn nobody_meets_twice_or_takes_the_bye_twice_over_a_whole_event() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for players in [9u16, 12, 15] {
        let mut swiss = event(players, 7);
        for round in 1..=7 {
            play(&mut swiss, round, &mut rng).unwrap();
        }
        for (i, e) in swiss.entrants().iter().enumerate() {
            let mut met = HashSet::new();
            let mut byes = 0;
            for entry in &e.entries {
                match entry {
                    Entry::Game { opponent, .. } => {
                        assert!(met.insert(*opponent), "{i} met {opponent} twice")
                    }
                    Entry::Bye(ByeKind::PairingAllocated) => byes += 1,
                    Entry::Bye(_) => {}
                }
            }
            assert!(byes <= 1, "{i} had {byes} pairing-allocated byes");
        }
    }
}

#[test]
fn a_round_in_which_everyone_has_met_is_refused() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut swiss = event(4, 5);
    for round in 1..=3 {
        play(&mut swiss, round, &mut rng).unwrap();
    }
    assert_eq!(
        swiss.pair_next_round(),
        Err(SwissError::NoLegalPairing { round: 4 })
    );
}

#[test]
fn the_leaders_meet_in_the_second_round() {
    // After round 1 the four winners form the top bracket and are paired among themselves.
    let mut swiss = event(8, 3);
    for b in swiss.pair_next_round().unwrap() {
        swiss.record(1, b.white, BoardResult::WhiteWins).unwrap();
    }
    let winners: HashSet<usize> = (0..8)
        .filter(|&i| swiss.entrants()[i].points().0 == 2)
        .collect();
    for b in swiss.pair_next_round().unwrap() {
        assert_eq!(winners.contains(&b.white), winners.contains(&b.black));
    }
}
