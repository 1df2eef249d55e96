//! Counters for operators: games, moves, deliveries, and how long requests take. The bot
//! binary exposes a [`MetricsSnapshot`] on its metrics endpoint.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// Upper bounds (milliseconds) of the request latency buckets.
pub const LATENCY_BUCKETS_MS: [f64; 12] = [
    0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 500.0, 1000.0, 5000.0,
];

/// Live counters (shared by every clone of a service).
#[derive(Debug, Default)]
pub(crate) struct Metrics {
    games_started: AtomicU64,
    games_finished: AtomicU64,
    moves: AtomicU64,
    requests: AtomicU64,
    refusals: AtomicU64,
    delivered: AtomicU64,
    delivery_failures: AtomicU64,
    undeliverable: AtomicU64,
    store_errors: AtomicU64,
    buckets: [AtomicU64; LATENCY_BUCKETS_MS.len() + 1],
    latency_sum_us: AtomicU64,
}

/// What happened, to count.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Event {
    GameStarted,
    GameFinished,
    Move,
    Refusal,
    Delivered,
    DeliveryFailure,
    Undeliverable,
    StoreError,
}

impl Metrics {
    pub(crate) fn count(&self, event: Event) {
        let counter = match event {
            Event::GameStarted => &self.games_started,
            Event::GameFinished => &self.games_finished,
            Event::Move => &self.moves,
            Event::Refusal => &self.refusals,
            Event::Delivered => &self.delivered,
            Event::DeliveryFailure => &self.delivery_failures,
            Event::Undeliverable => &self.undeliverable,
            Event::StoreError => &self.store_errors,
        };
        counter.fetch_add(1, Ordering::Relaxed);
    }

    pub(crate) fn request_took(&self, took: Duration) {
        self.requests.fetch_add(1, Ordering::Relaxed);
        let ms = took.as_secs_f64() * 1000.0;
        let bucket = LATENCY_BUCKETS_MS
            .iter()
            .position(|&bound| ms <= bound)
            .unwrap_or(LATENCY_BUCKETS_MS.len());
        if let Some(b) = self.buckets.get(bucket) {
            b.fetch_add(1, Ordering::Relaxed);
        }
        let us = u64::try_from(took.as_micros()).unwrap_or(u64::MAX);
        self.latency_sum_us.fetch_add(us, Ordering::Relaxed);
    }

    pub(crate) fn snapshot(&self) -> MetricsSnapshot {
        let load = |c: &AtomicU64| c.load(Ordering::Relaxed);
        MetricsSnapshot {
            games_started: load(&self.games_started),
            games_finished: load(&self.games_finished),
            moves: load(&self.moves),
            requests: load(&self.requests),
            refusals: load(&self.refusals),
            delivered: load(&self.delivered),
            delivery_failures: load(&self.delivery_failures),
            undeliverable: load(&self.undeliverable),
            store_errors: load(&self.store_errors),
            request_latency: LatencyHistogram {
                bounds_ms: LATENCY_BUCKETS_MS.to_vec(),
                counts: self.buckets.iter().map(load).collect(),
                sum_seconds: load(&self.latency_sum_us) as f64 / 1e6,
            },
        }
    }
}

/// Counters since the service started (this process).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MetricsSnapshot {
    /// Games started.
    pub games_started: u64,
    /// Games finished (aborted ones included).
    pub games_finished: u64,
    /// Moves played.
    pub moves: u64,
    /// Requests handled (repeats included).
    pub requests: u64,
    /// Requests refused (not your turn, illegal move...).
    pub refusals: u64,
    /// Messages delivered.
    pub delivered: u64,
    /// Delivery attempts that failed and will be retried.
    pub delivery_failures: u64,
    /// Messages that could not be delivered at all.
    pub undeliverable: u64,
    /// Store failures.
    pub store_errors: u64,
    /// How long `handle` took.
    pub request_latency: LatencyHistogram,
}

/// A latency histogram in Prometheus form (non-cumulative counts per bucket).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LatencyHistogram {
    /// Upper bound of each bucket in milliseconds; one more bucket (+Inf) follows.
    pub bounds_ms: Vec<f64>,
    /// Requests per bucket (`bounds_ms.len() + 1` entries, the last one is +Inf).
    pub counts: Vec<u64>,
    /// Sum of all latencies in seconds.
    pub sum_seconds: f64,
}

impl LatencyHistogram {
    /// Number of observations.
    pub fn count(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Cumulative counts per bound (`le` buckets), ending with +Inf = [`Self::count`].
    pub fn cumulative(&self) -> Vec<u64> {
        self.counts
            .iter()
            .scan(0, |total, c| {
                *total += c;
                Some(*total)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latencies_land_in_their_buckets() {
        let metrics = Metrics::default();
        metrics.request_took(Duration::from_micros(300));
        metrics.request_took(Duration::from_millis(15));
        metrics.request_took(Duration::from_secs(60));
        let histogram = metrics.snapshot().request_latency;
        assert_eq!(histogram.count(), 3);
        assert_eq!(histogram.counts[0], 1);
        assert_eq!(histogram.counts[5], 1);
        assert_eq!(*histogram.counts.last().unwrap(), 1);
        assert_eq!(*histogram.cumulative().last().unwrap(), 3);
    }
}
