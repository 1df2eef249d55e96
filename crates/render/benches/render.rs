//! How long one board picture takes: composed from cached sprites (what the bot does) against
//! building and rasterising the whole SVG for every request (the comparison).
//!
//! `cargo bench -p jieqi-render` prints both medians; the PNG sizes are printed once first.

#[path = "../tests/common/mod.rs"]
mod common;

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use jieqi_render::{RenderOptions, render, render_svg_per_request};

fn pictures(c: &mut Criterion) {
    let view = common::jieqi_midgame();
    let options = RenderOptions::default();
    match (
        render(&view, &options),
        render_svg_per_request(&view, &options),
    ) {
        (Ok(composed), Ok(reference)) => eprintln!(
            "mid-game Jieqi at {} px: composed PNG {} bytes, SVG-per-request PNG {} bytes",
            options.width,
            composed.len(),
            reference.len()
        ),
        (Err(e), _) | (_, Err(e)) => panic!("the benchmark board could not be drawn: {e}"),
    }

    let mut group = c.benchmark_group("jieqi_midgame_720px");
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(4));
    group.bench_function("composed", |b| {
        b.iter(|| render(black_box(&view), black_box(&options)))
    });
    group.sample_size(10);
    group.bench_function("svg_per_request", |b| {
        b.iter(|| render_svg_per_request(black_box(&view), black_box(&options)))
    });
    group.finish();
}

criterion_group!(benches, pictures);
criterion_main!(benches);
