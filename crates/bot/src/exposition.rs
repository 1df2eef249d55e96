//! The Prometheus text exposition format (version 0.0.4), written by hand: the service
//! hands over a finished snapshot of its numbers on each scrape, so there is no registry of
//! live metric objects to keep, only text to write. The format is specified at
//! <https://prometheus.io/docs/instrumenting/exposition_formats/>.

use std::fmt::Write;

/// The `Content-Type` of [`Exposition::finish`]'s output.
pub const CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

/// A page of metrics being written.
#[derive(Debug, Default)]
pub struct Exposition {
    text: String,
}

impl Exposition {
    pub fn new() -> Exposition {
        Exposition::default()
    }

    /// A value that only goes up (the name should end in `_total`).
    pub fn counter(&mut self, name: &str, help: &str, value: u64) {
        self.header(name, help, "counter");
        let _ = writeln!(self.text, "{name} {value}");
    }

    /// A histogram from per-bucket counts: `buckets` pairs each upper bound (seconds, in
    /// increasing order) with the number of observations in that bucket alone; the `+Inf`
    /// bucket is `count`. Prometheus wants cumulative buckets, so they are summed here.
    pub fn histogram(
        &mut self,
        name: &str,
        help: &str,
        buckets: &[(f64, u64)],
        sum: f64,
        count: u64,
    ) {
        self.header(name, help, "histogram");
        let mut cumulative = 0u64;
        for (upper, in_bucket) in buckets {
            cumulative = cumulative.saturating_add(*in_bucket);
            let _ = writeln!(
                self.text,
                "{name}_bucket{{le=\"{}\"}} {cumulative}",
                float(*upper)
            );
        }
        let _ = writeln!(self.text, "{name}_bucket{{le=\"+Inf\"}} {count}");
        let _ = writeln!(self.text, "{name}_sum {}", float(sum));
        let _ = writeln!(self.text, "{name}_count {count}");
    }

    pub fn finish(self) -> String {
        self.text
    }

    fn header(&mut self, name: &str, help: &str, kind: &str) {
        let _ = writeln!(self.text, "# HELP {name} {}", escape_help(help));
        let _ = writeln!(self.text, "# TYPE {name} {kind}");
    }
}

/// Go-style float text: `+Inf`, `-Inf`, `NaN`, otherwise Rust's shortest round-trip form.
fn float(value: f64) -> String {
    if value.is_nan() {
        "NaN".to_owned()
    } else if value.is_infinite() {
        if value > 0.0 { "+Inf" } else { "-Inf" }.to_owned()
    } else {
        value.to_string()
    }
}

fn escape_help(text: &str) -> String {
    text.replace('\\', "\\\\").replace('\n', "\\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histogram_buckets_are_cumulative_and_end_with_inf() {
        let mut page = Exposition::new();
        page.histogram(
            "latency_seconds",
            "Time to answer.",
            &[(0.01, 2), (0.1, 3), (1.0, 0)],
            0.5,
            6,
        );
        let text = page.finish();
        assert!(
            text.contains("# TYPE latency_seconds histogram\n"),
            "{text}"
        );
        assert!(
            text.contains("latency_seconds_bucket{le=\"0.01\"} 2\n"),
            "{text}"
        );
        assert!(
            text.contains("latency_seconds_bucket{le=\"0.1\"} 5\n"),
            "{text}"
        );
        assert!(
            text.contains("latency_seconds_bucket{le=\"1\"} 5\n"),
            "{text}"
        );
        assert!(
            text.contains("latency_seconds_bucket{le=\"+Inf\"} 6\n"),
            "{text}"
        );
        assert!(
            text.contains("latency_seconds_sum 0.5\nlatency_seconds_count 6\n"),
            "{text}"
        );
    }

    #[test]
    fn help_text_is_escaped() {
        let mut page = Exposition::new();
        page.counter("x_total", "a\\b\nc", 1);
        let text = page.finish();
        assert!(text.contains("# HELP x_total a\\\\b\\nc\n"), "{text}");
    }

    #[test]
    fn counters_carry_help_and_type_lines() {
        let mut page = Exposition::new();
        page.counter("moves_total", "Moves played.", 7);
        let text = page.finish();
        assert_eq!(
            text,
            "# HELP moves_total Moves played.\n# TYPE moves_total counter\nmoves_total 7\n"
        );
    }
}
