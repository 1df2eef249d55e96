//! The pairings of a fixed set of seeded Swiss events, compared with the ones recorded in
//! `tests/golden/pairings.txt`: a change made for speed (the matching, the weights) must
//! not change a single pairing. The file was written by the code the reference test
//! (`tests/reference.rs`) checked against caissify-pairings.
//!
//! `TOURNAMENT_GOLDEN_WRITE=1` writes the file anew from the code as it is (only when a
//! change of the rules is meant to change pairings).

use jieqi_tournament::model::{ByeKind, Colour, Entry};
use jieqi_tournament::swiss::{BoardResult, Swiss, SwissError};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::fmt::Write;

/// One seeded event (draws, forfeits, withdrawals, half-point byes, late entries): a line a
/// round, the games as `white-black` by entry index and the pairing-allocated bye.
fn event(seed: u64, players: u16, rounds: u8) -> String {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let first = if rng.gen_bool(0.5) {
        Colour::White
    } else {
        Colour::Black
    };
    let mut swiss = Swiss::new(rounds, first).unwrap();
    for k in 0..players {
        swiss
            .join(&format!("P{k}"), 2800 - k * 3 - rng.gen_range(0..3), false)
            .unwrap();
    }
    let mut out = String::new();
    for round in 1..=rounds {
        if (2..=3).contains(&round) && rng.gen_bool(0.4) {
            let half = rng.gen_bool(0.5);
            swiss.join("Late", rng.gen_range(1000..2800), half).unwrap();
        }
        if round >= 2 {
            for p in 0..swiss.entrants().len() {
                if swiss.entrants()[p].withdrawn {
                    continue;
                }
                let roll: f64 = rng.gen_range(0.0..1.0);
                if roll < 0.012 {
                    swiss.withdraw(p).unwrap();
                } else if roll < 0.03 {
                    swiss.request_bye(p, ByeKind::Half).unwrap();
                }
            }
        }
        write!(out, "s{seed} r{round}:").unwrap();
        match swiss.pair_next_round() {
            Ok(boards) => {
                for b in &boards {
                    write!(out, " {}-{}", b.white, b.black).unwrap();
                }
                let bye = (0..swiss.entrants().len()).find(|&i| {
                    swiss.entrants()[i].entries.last()
                        == Some(&Entry::Bye(ByeKind::PairingAllocated))
                });
                if let Some(bye) = bye {
                    write!(out, " bye {bye}").unwrap();
                }
                out.push('\n');
                for b in boards {
                    let result = match rng.gen_range(0.0..1.0) {
                        x if x < 0.40 => BoardResult::WhiteWins,
                        x if x < 0.62 => BoardResult::Draw,
                        x if x < 0.97 => BoardResult::BlackWins,
                        x if x < 0.985 => BoardResult::WhiteWinsByForfeit,
                        _ => BoardResult::BlackWinsByForfeit,
                    };
                    swiss.record(round, b.white, result).unwrap();
                }
            }
            Err(SwissError::NoLegalPairing { .. }) => {
                out.push_str(" refused\n");
                break;
            }
            Err(e) => {
                writeln!(out, " {e}").unwrap();
                break;
            }
        }
    }
    out
}

/// The events: many small and middle-sized ones, a few large.
fn events() -> String {
    let mut out = String::new();
    for seed in 0..60u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed * 31 + 5);
        let players = rng.gen_range(7..=90);
        let rounds = rng.gen_range(5..=11);
        out.push_str(&event(seed, players, rounds));
    }
    for (seed, players, rounds) in [(100, 150, 7), (101, 201, 6), (102, 240, 5)] {
        out.push_str(&event(seed, players, rounds));
    }
    out
}

#[test]
fn the_pairings_of_the_seeded_events_are_the_recorded_ones() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/pairings.txt");
    let now = events();
    if std::env::var_os("TOURNAMENT_GOLDEN_WRITE").is_some() {
        std::fs::write(&path, &now).unwrap();
        return;
    }
    let recorded = std::fs::read_to_string(&path).unwrap();
    let (now_lines, recorded_lines): (Vec<&str>, Vec<&str>) =
        (now.lines().collect(), recorded.lines().collect());
    for (k, (a, b)) in now_lines.iter().zip(&recorded_lines).enumerate() {
        assert_eq!(a, b, "line {} differs from the recorded pairing", k + 1);
    }
    assert_eq!(
        now_lines.len(),
        recorded_lines.len(),
        "as many rounds as recorded"
    );
}
