//! Drawing a 500-player Swiss's standings (the top rows and the asker's own; 9 rounds,
//! five tie-breaks): the goal is under a second.
//!
//! `cargo bench -p jieqi-render --bench standings`

#[path = "../tests/common/mod.rs"]
mod common;

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use jieqi_render::{StandingsTable, render_standings};

fn standings(c: &mut Criterion) {
    let rows = common::swiss_standings(500, 9);
    let table = StandingsTable {
        title: "Club Swiss, after round 9",
        tiebreaks: &["BH-1", "BH", "SB", "DE", "W"],
        rounds: 9,
        rows: &rows,
        asker: Some(377),
    };
    match render_standings(&table) {
        Ok(png) => eprintln!("500-player standings: PNG {} bytes", png.len()),
        Err(e) => panic!("the standings could not be drawn: {e}"),
    }
    let mut group = c.benchmark_group("standings");
    group.sample_size(20);
    group.bench_function("500 players, 9 rounds", |b| {
        b.iter(|| render_standings(black_box(&table)))
    });
    group.finish();
}

criterion_group!(benches, standings);
criterion_main!(benches);
