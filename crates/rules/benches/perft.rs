//! Perft speed: the Xiangqi start position to depth 5 (133 312 995 leaves, the last ply
//! bulk-counted), and a Jieqi start with a fixed shuffled deal to depth 4.
//!
//! Run with `cargo bench -p jieqi-rules --bench perft`; nodes per second are printed as
//! criterion's throughput (elements/s = leaf nodes/s).

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use jieqi_rules::deal::Deal;
use jieqi_rules::perft::perft;
use jieqi_rules::{Position, Setup};

fn perft_startpos(c: &mut Criterion) {
    let deal = Deal::identity(&Setup::xiangqi_start());
    let mut group = c.benchmark_group("perft_startpos");
    // Depth 5 takes about a second a run: ten flat samples are plenty.
    group
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(10));
    for (depth, nodes) in [(4u32, 3_290_240u64), (5, 133_312_995)] {
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("xiangqi_depth_{depth}"), |b| {
            let mut pos = Position::xiangqi_start();
            b.iter(|| {
                let n = perft(&mut pos, &deal, black_box(depth));
                assert_eq!(n, nodes);
                n
            });
        });
    }
    group.finish();
}

fn perft_jieqi(c: &mut Criterion) {
    // A fixed deal from a tiny linear congruential generator: the same tree every run.
    let mut state = 0x2545_F491u32;
    let mut pick = |n: u32| {
        state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        (state >> 8) % n
    };
    let deal = Deal::shuffled(&Setup::jieqi_start(), &mut pick);
    let mut pos = Position::jieqi_start();
    let nodes = perft(&mut pos, &deal, 4);
    let mut group = c.benchmark_group("perft_jieqi");
    group
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4));
    group.throughput(Throughput::Elements(nodes));
    group.bench_function("jieqi_depth_4", |b| {
        b.iter(|| perft(&mut pos, &deal, black_box(4)))
    });
    group.finish();
}

criterion_group!(benches, perft_startpos, perft_jieqi);
criterion_main!(benches);
