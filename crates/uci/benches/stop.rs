//! How long `stop` takes to be answered: from the moment the session reads `stop` during a
//! `go infinite` to the moment `bestmove` is written. The protocol promise is 50 ms.
//!
//! `cargo bench -p jieqi-uci --bench stop`

use std::io::Write;
use std::sync::mpsc::{self, Receiver, Sender};
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use jieqi_rules::Variant;
use jieqi_uci::{Session, Settings, Sink};

struct Lines(Sender<String>, Vec<u8>);

impl Write for Lines {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.1.extend_from_slice(buf);
        while let Some(end) = self.1.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.1.drain(..=end).collect();
            let _ = self.0.send(String::from_utf8_lossy(&line).into_owned());
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn wait_for(lines: &Receiver<String>, prefix: &str) {
    while let Ok(line) = lines.recv_timeout(Duration::from_secs(30)) {
        if line.starts_with(prefix) {
            return;
        }
    }
    panic!("no `{prefix}`");
}

fn stop_latency(c: &mut Criterion) {
    let mut group = c.benchmark_group("uci");
    group.sample_size(20);
    for variant in [Variant::Xiangqi, Variant::Jieqi] {
        group.bench_function(format!("stop_during_go_infinite_{variant}"), |b| {
            b.iter_custom(|iterations| {
                let (out, lines) = mpsc::channel();
                let mut session = Session::new(
                    Sink::new(Box::new(Lines(out, Vec::new()))),
                    Settings { variant, seed: 1 },
                );
                let mut total = Duration::ZERO;
                for _ in 0..iterations {
                    session.handle("position startpos");
                    session.handle("go infinite");
                    // Deep enough that the search is busy in the middle of an iteration.
                    wait_for(&lines, "info depth 4");
                    std::thread::sleep(Duration::from_millis(20));
                    let asked = Instant::now();
                    session.handle("stop");
                    wait_for(&lines, "bestmove");
                    total += asked.elapsed();
                }
                total
            });
        });
    }
    group.finish();
}

criterion_group!(benches, stop_latency);
criterion_main!(benches);
