//! What an operator of the service watches, in Prometheus' own types (the `prometheus-client`
//! crate): requests and how long they take, games and moves, posts per platform and how they
//! ended, how long a message waits from its commit to the platform's answer, rate limits and
//! deferred lanes, the store's calls, and how long the engine thinks per level.
//!
//! Everything lives in one [`MetricsRegistry`], which the bot serves on `/metrics`. Other
//! parts of the program add their own metrics to the same registry (the web page's
//! connections, for example): take the handle from [`crate::Service::metrics_registry`] and
//! [`MetricsRegistry::register`] a `prometheus_client` metric under a `jieqi_` name; keep the
//! metric's own handle to update it.
//!
//! ```
//! use prometheus_client::metrics::gauge::Gauge;
//!
//! let registry = jieqi_service::metrics::MetricsRegistry::default();
//! let connections = Gauge::<i64>::default();
//! registry.register("jieqi_web_connections", "Open connections of the web page", connections.clone());
//! connections.inc();
//! assert!(registry.encode().contains("jieqi_web_connections 1\n"));
//! ```

use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use prometheus_client::encoding::text::encode;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::{Metric, Registry, Unit};

use crate::ids::Platform;
use crate::message::Destination;

/// The `Content-Type` of [`MetricsRegistry::encode`]'s page (OpenMetrics text, which
/// Prometheus reads).
pub const CONTENT_TYPE: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

/// Upper bounds (seconds) of the request duration buckets: 0.5 ms to 5 s.
const REQUEST_BUCKETS: [f64; 12] = [
    0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 5.0,
];
/// Upper bounds (seconds) of the delivery lag buckets: a second to half an hour (a message
/// behind a rate limit or a dead process's claim waits minutes).
const LAG_BUCKETS: [f64; 12] = [
    0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 30.0, 60.0, 120.0, 300.0, 600.0, 1800.0,
];
/// Upper bounds (seconds) of the store call buckets: 0.1 ms to 5 s.
const STORE_BUCKETS: [f64; 12] = [
    0.0001, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.5, 1.0, 5.0,
];
/// Upper bounds (seconds) of the engine's thinking time: 1 ms to 30 s.
const ENGINE_BUCKETS: [f64; 10] = [0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 5.0, 30.0];

/// One label, `name="value"`.
type Label = [(&'static str, &'static str); 1];
/// Two labels.
type Labels = [(&'static str, &'static str); 2];
type Histograms<L> = Family<L, Histogram, fn() -> Histogram>;

/// The registry behind `/metrics`, shared by every clone (cheap to clone).
#[derive(Clone, Debug, Default)]
pub struct MetricsRegistry {
    registry: Arc<Mutex<Registry>>,
}

impl MetricsRegistry {
    /// Adds `metric` under `name` (a counter's name gets `_total` appended on the page);
    /// `help` is a sentence without its closing period, which the page adds.
    pub fn register(&self, name: &str, help: &str, metric: impl Metric) {
        self.lock().register(name, help, metric);
    }

    /// Adds `metric` under `name` with a unit (the page names it `<name>_<unit>`).
    pub fn register_with_unit(&self, name: &str, help: &str, unit: Unit, metric: impl Metric) {
        self.lock().register_with_unit(name, help, unit, metric);
    }

    /// The page of every metric registered, in the OpenMetrics text format ([`CONTENT_TYPE`]).
    pub fn encode(&self) -> String {
        let mut page = String::new();
        // Writing into a String cannot fail.
        let _ = encode(&mut page, &self.lock());
        page
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Registry> {
        self.registry.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// How a delivery round of one message ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PostOutcome {
    /// The platform took it.
    Delivered,
    /// It failed a round; its lane waits before it is tried again.
    Deferred,
    /// It can never be delivered, or failed too many rounds: dropped.
    Undeliverable,
}

impl PostOutcome {
    fn name(self) -> &'static str {
        match self {
            PostOutcome::Delivered => "delivered",
            PostOutcome::Deferred => "deferred",
            PostOutcome::Undeliverable => "undeliverable",
        }
    }
}

/// The service's metrics (shared by every clone of a service).
#[derive(Debug)]
pub(crate) struct Metrics {
    registry: MetricsRegistry,
    games_started: Counter,
    games_finished: Counter,
    moves: Counter,
    requests: Counter,
    refusals: Counter,
    store_errors: Counter,
    request_duration: Histogram,
    posts: Family<Labels, Counter>,
    delivery_lag: Histograms<Label>,
    deferrals: Family<Label, Counter>,
    rate_limited: Family<Label, Counter>,
    claims_taken_over: Family<Label, Counter>,
    coalesced: Family<Label, Counter>,
    coalesced_all: Counter,
    store_calls: Histograms<Label>,
    engine_time: Histograms<Label>,
    // Counted where the service records a delivery (for tests and `MetricsSnapshot`); the
    // page shows `jieqi_posts_total` by platform instead.
    delivered: Counter,
    delivery_failures: Counter,
    undeliverable: Counter,
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

fn lag_histogram() -> Histogram {
    Histogram::new(LAG_BUCKETS)
}
fn store_histogram() -> Histogram {
    Histogram::new(STORE_BUCKETS)
}
fn engine_histogram() -> Histogram {
    Histogram::new(ENGINE_BUCKETS)
}

impl Default for Metrics {
    fn default() -> Metrics {
        Metrics::new(MetricsRegistry::default())
    }
}

impl Metrics {
    /// The service's metrics, registered in `registry`.
    pub(crate) fn new(registry: MetricsRegistry) -> Metrics {
        let metrics = Metrics {
            registry,
            games_started: Counter::default(),
            games_finished: Counter::default(),
            moves: Counter::default(),
            requests: Counter::default(),
            refusals: Counter::default(),
            store_errors: Counter::default(),
            request_duration: Histogram::new(REQUEST_BUCKETS),
            posts: Family::default(),
            delivery_lag: Family::new_with_constructor(lag_histogram),
            deferrals: Family::default(),
            rate_limited: Family::default(),
            claims_taken_over: Family::default(),
            coalesced: Family::default(),
            coalesced_all: Counter::default(),
            store_calls: Family::new_with_constructor(store_histogram),
            engine_time: Family::new_with_constructor(engine_histogram),
            delivered: Counter::default(),
            delivery_failures: Counter::default(),
            undeliverable: Counter::default(),
        };
        let r = &metrics.registry;
        r.register(
            "jieqi_requests",
            "Requests handled (repeats included)",
            metrics.requests.clone(),
        );
        r.register(
            "jieqi_refusals",
            "Requests refused with a reason (not your turn, illegal move, ...)",
            metrics.refusals.clone(),
        );
        r.register_with_unit(
            "jieqi_request_duration",
            "Time to handle one request, the durable commit included",
            Unit::Seconds,
            metrics.request_duration.clone(),
        );
        r.register(
            "jieqi_games_started",
            "Games started",
            metrics.games_started.clone(),
        );
        r.register(
            "jieqi_games_finished",
            "Games finished (aborted ones included)",
            metrics.games_finished.clone(),
        );
        r.register("jieqi_moves", "Moves played", metrics.moves.clone());
        r.register(
            "jieqi_store_errors",
            "Failures of the game store",
            metrics.store_errors.clone(),
        );
        r.register(
            "jieqi_posts",
            "Delivery rounds of outbox messages by platform and outcome: delivered, deferred \
             (the round failed and the lane waits) or undeliverable (dropped)",
            metrics.posts.clone(),
        );
        r.register_with_unit(
            "jieqi_delivery_lag",
            "Time from the commit that queued a message to the platform's answer to it, by \
             platform (the commit's time is kept in whole seconds)",
            Unit::Seconds,
            metrics.delivery_lag.clone(),
        );
        r.register(
            "jieqi_lane_deferrals",
            "Delivery rounds that failed, so that their lane waits, by platform",
            metrics.deferrals.clone(),
        );
        r.register(
            "jieqi_rate_limited",
            "Answers of a platform asking to retry after a while (HTTP 429), by platform",
            metrics.rate_limited.clone(),
        );
        r.register(
            "jieqi_claims_taken_over",
            "Delivery claims taken over from another holder whose lease had lapsed (it died, or \
             lost the store for a whole lease), by platform",
            metrics.claims_taken_over.clone(),
        );
        r.register(
            "jieqi_boards_coalesced",
            "Boards not sent because a newer board of the same game, waiting right behind them \
             in their chat's lane, was sent instead naming their moves, by platform",
            metrics.coalesced.clone(),
        );
        r.register_with_unit(
            "jieqi_store_call_duration",
            "Calls to the game store by operation and how long they took (on PostgreSQL each \
             call is one round trip; a commit is one pipelined flight)",
            Unit::Seconds,
            metrics.store_calls.clone(),
        );
        r.register_with_unit(
            "jieqi_engine_think",
            "Time the built-in engine thought about one move, by level",
            Unit::Seconds,
            metrics.engine_time.clone(),
        );
        metrics
    }

    /// The registry the metrics are in.
    pub(crate) fn registry(&self) -> &MetricsRegistry {
        &self.registry
    }

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
        counter.inc();
    }

    pub(crate) fn request_took(&self, took: Duration) {
        self.requests.inc();
        self.request_duration.observe(took.as_secs_f64());
    }

    /// A delivery round of a message for `platform` ended so.
    pub(crate) fn post(&self, platform: Platform, outcome: PostOutcome) {
        self.posts
            .get_or_create(&[("platform", platform.name()), ("outcome", outcome.name())])
            .inc();
        if outcome == PostOutcome::Deferred {
            self.deferrals
                .get_or_create(&[("platform", platform.name())])
                .inc();
        }
    }

    /// The platform answered a message for `to` now, queued by a commit at `committed_at`
    /// (Unix seconds, as outbox records keep it).
    pub(crate) fn delivered_since(&self, to: &Destination, committed_at: u64) {
        let platform = match to {
            Destination::Chat(chat) => chat.platform,
            Destination::Private(user) => user.platform,
            Destination::DeferredReply(reply) => reply.chat.platform,
            // Waits for room to spare on purpose: not a lag anyone waits through.
            Destination::StaleButtons(_) | Destination::ReplyToRequester { .. } => return,
        };
        let queued = UNIX_EPOCH + Duration::from_secs(committed_at);
        let lag = SystemTime::now().duration_since(queued).unwrap_or_default();
        self.delivered_after(platform, lag);
    }

    /// The platform answered a message `lag` after the commit that queued it.
    pub(crate) fn delivered_after(&self, platform: Platform, lag: Duration) {
        self.delivery_lag
            .get_or_create(&[("platform", platform.name())])
            .observe(lag.as_secs_f64());
    }

    /// The platform asked to retry later (429).
    pub(crate) fn rate_limited(&self, platform: Platform) {
        self.rate_limited
            .get_or_create(&[("platform", platform.name())])
            .inc();
    }

    /// A delivery claim of `platform` took over another holder's lapsed claim.
    pub(crate) fn claim_taken_over(&self, platform: Platform) {
        self.claims_taken_over
            .get_or_create(&[("platform", platform.name())])
            .inc();
    }

    /// `skipped` boards of `platform` were done with unsent: a newer board names their moves.
    pub(crate) fn boards_coalesced(&self, platform: Platform, skipped: usize) {
        self.coalesced
            .get_or_create(&[("platform", platform.name())])
            .inc_by(u64::try_from(skipped).unwrap_or(u64::MAX));
        self.coalesced_all
            .inc_by(u64::try_from(skipped).unwrap_or(u64::MAX));
    }

    /// A store call `operation` took `took`.
    pub(crate) fn store_call(&self, operation: &'static str, took: Duration) {
        self.store_calls
            .get_or_create(&[("operation", operation)])
            .observe(took.as_secs_f64());
    }

    /// The engine at `level` thought `took` about a move.
    pub(crate) fn engine_thought(&self, level: &'static str, took: Duration) {
        self.engine_time
            .get_or_create(&[("level", level)])
            .observe(took.as_secs_f64());
    }

    pub(crate) fn snapshot(&self) -> MetricsSnapshot {
        MetricsSnapshot {
            games_started: self.games_started.get(),
            games_finished: self.games_finished.get(),
            moves: self.moves.get(),
            requests: self.requests.get(),
            refusals: self.refusals.get(),
            delivered: self.delivered.get(),
            delivery_failures: self.delivery_failures.get(),
            undeliverable: self.undeliverable.get(),
            store_errors: self.store_errors.get(),
            boards_coalesced: self.coalesced_all.get(),
        }
    }
}

/// Counters since the service started (this process), for tests and tools; the whole set is
/// on [`MetricsRegistry::encode`]'s page.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
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
    /// Delivery rounds that failed and will be retried.
    pub delivery_failures: u64,
    /// Messages that could not be delivered at all.
    pub undeliverable: u64,
    /// Store failures.
    pub store_errors: u64,
    /// Boards not sent because a newer board of the same game was sent in their place.
    pub boards_coalesced: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_durations_land_in_their_buckets() {
        let metrics = Metrics::default();
        metrics.request_took(Duration::from_micros(300));
        metrics.request_took(Duration::from_millis(15));
        metrics.request_took(Duration::from_secs(60));
        let page = metrics.registry().encode();
        assert!(
            page.contains("jieqi_request_duration_seconds_bucket{le=\"0.0005\"} 1\n"),
            "{page}"
        );
        assert!(
            page.contains("jieqi_request_duration_seconds_bucket{le=\"0.02\"} 2\n"),
            "{page}"
        );
        assert!(
            page.contains("jieqi_request_duration_seconds_bucket{le=\"+Inf\"} 3\n"),
            "{page}"
        );
        assert!(
            page.contains("jieqi_request_duration_seconds_count 3\n"),
            "{page}"
        );
        assert_eq!(metrics.snapshot().requests, 3);
    }

    #[test]
    fn posts_are_counted_by_platform_and_outcome_and_deferrals_by_platform() {
        let metrics = Metrics::default();
        metrics.post(Platform::Telegram, PostOutcome::Delivered);
        metrics.post(Platform::Telegram, PostOutcome::Delivered);
        metrics.post(Platform::Discord, PostOutcome::Deferred);
        metrics.rate_limited(Platform::Discord);
        let page = metrics.registry().encode();
        assert!(
            page.contains("jieqi_posts_total{platform=\"telegram\",outcome=\"delivered\"} 2\n"),
            "{page}"
        );
        assert!(
            page.contains("jieqi_posts_total{platform=\"discord\",outcome=\"deferred\"} 1\n"),
            "{page}"
        );
        assert!(
            page.contains("jieqi_lane_deferrals_total{platform=\"discord\"} 1\n"),
            "{page}"
        );
        assert!(
            !page.contains("jieqi_lane_deferrals_total{platform=\"telegram\"}"),
            "{page}"
        );
        assert!(
            page.contains("jieqi_rate_limited_total{platform=\"discord\"} 1\n"),
            "{page}"
        );
    }

    #[test]
    fn another_part_of_the_program_registers_on_the_same_page() {
        let metrics = Metrics::default();
        let connections = prometheus_client::metrics::gauge::Gauge::<i64>::default();
        metrics.registry().clone().register(
            "jieqi_web_connections",
            "Open connections of the web page",
            connections.clone(),
        );
        connections.set(3);
        let page = metrics.registry().encode();
        assert!(
            page.contains("# TYPE jieqi_web_connections gauge\n"),
            "{page}"
        );
        assert!(page.contains("jieqi_web_connections 3\n"), "{page}");
        assert!(page.contains("jieqi_moves_total 0\n"), "{page}");
    }
}
