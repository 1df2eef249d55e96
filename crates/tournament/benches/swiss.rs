//! Pairing one round of a Swiss by the Dutch system, and its standings with tie-breaks (the
//! goal: a 500-player round under a second, issue 53).
//!
//! `cargo bench -p jieqi-tournament --bench swiss`. Each later round of 500 players is
//! also timed once and printed before the groups, so that a figure shows even when a
//! change makes it too slow for criterion's ten samples, with the CPU time it took beside
//! the wall time (the machine is shared: under load the wall time runs several times it).

use criterion::{Criterion, criterion_group, criterion_main};
use jieqi_tournament::model::Colour;
use jieqi_tournament::swiss::{BoardResult, Swiss};
use jieqi_tournament::tiebreak;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A `players`-player event after `played` rounds of seeded random results.
fn event(players: u16, played: u8) -> Swiss {
    let mut rng = ChaCha8Rng::seed_from_u64(500);
    let mut swiss = Swiss::new(9, Colour::White).expect("9 rounds");
    for k in 0..players {
        swiss
            .join(&format!("P{k}"), 2700 - k * 3, false)
            .expect("open");
    }
    for round in 1..=played {
        for b in swiss.pair_next_round().expect("pairable") {
            let result = match rng.gen_range(0..10) {
                0..=3 => BoardResult::WhiteWins,
                4..=5 => BoardResult::Draw,
                _ => BoardResult::BlackWins,
            };
            swiss.record(round, b.white, result).expect("a game");
        }
    }
    swiss
}

fn pairing(c: &mut Criterion) {
    let mut group = c.benchmark_group("swiss");
    group.sample_size(10);
    for played in [1u8, 4, 8] {
        let later = event(500, played);
        let (start, cpu) = (std::time::Instant::now(), cpu_time());
        later.clone().pair_next_round().expect("pairable");
        let wall = start.elapsed();
        let cpu = cpu_time().zip(cpu).map(|(after, before)| after - before);
        eprintln!(
            "500 players, round {}, once: {wall:?} wall, {} CPU",
            played + 1,
            cpu.map_or("unknown".to_string(), |c| format!("{c:?}")),
        );
    }
    for (players, played) in [
        (500u16, 0u8),
        (100, 4),
        (200, 4),
        (500, 1),
        (500, 4),
        (500, 8),
    ] {
        let swiss = event(players, played);
        group.bench_function(format!("{players} players, round {}", played + 1), |b| {
            b.iter(|| swiss.clone().pair_next_round().expect("pairable"))
        });
    }
    // The standings the chat draws after the last round: points and the five tie-breaks
    // (Buchholz cut-1 and Buchholz read every opponent's score) over 500 players' 9 rounds.
    let finished = event(500, 9);
    let entries: Vec<_> = finished
        .entrants()
        .iter()
        .map(|e| e.entries.clone())
        .collect();
    group.bench_function("500 players, standings after round 9", |b| {
        b.iter(|| tiebreak::standings(&entries, &tiebreak::SWISS))
    });
    group.finish();
}

/// The process's CPU time (user and system) from `/proc/self/stat`, in clock ticks of
/// 10 ms; `None` where there is no such file.
fn cpu_time() -> Option<std::time::Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command's closing parenthesis; utime and stime are 14 and 15.
    let after = stat.rsplit_once(')')?.1;
    let mut fields = after.split_whitespace().skip(11);
    let utime: u64 = fields.next()?.parse().ok()?;
    let stime: u64 = fields.next()?.parse().ok()?;
    Some(std::time::Duration::from_millis((utime + stime) * 10))
}

criterion_group!(benches, pairing);
criterion_main!(benches);
