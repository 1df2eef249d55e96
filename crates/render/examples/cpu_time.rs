//! CPU time per picture, measured from the thread's own scheduler statistics so that other
//! work on a busy machine does not count: `cargo run --release -p jieqi-render --example
//! cpu_time`. (Criterion measures wall time, which a loaded machine inflates.)

#[path = "../tests/common/mod.rs"]
mod common;

use jieqi_render::{RenderOptions, render, render_svg_per_request};

/// Nanoseconds this thread has spent on a CPU (Linux only; 0 elsewhere).
fn cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next().and_then(|n| n.parse().ok()))
        .unwrap_or(0)
}

fn per_call(iterations: u32, mut f: impl FnMut()) -> f64 {
    f();
    let start = cpu_ns();
    for _ in 0..iterations {
        f();
    }
    (cpu_ns() - start) as f64 / f64::from(iterations) / 1e6
}

fn main() -> Result<(), jieqi_render::RenderError> {
    let view = common::jieqi_midgame();
    let options = RenderOptions::default();
    let png = render(&view, &options)?;
    let composed = per_call(300, || {
        let _ = render(&view, &options);
    });
    let reference = per_call(10, || {
        let _ = render_svg_per_request(&view, &options);
    });
    println!(
        "composed {composed:.3} ms CPU, SVG per request {reference:.3} ms CPU ({:.0}x), PNG {} bytes",
        reference / composed,
        png.len()
    );
    Ok(())
}
