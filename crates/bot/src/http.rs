//! The operator's endpoint on `HTTP_ADDR`: `/healthz` for load balancers and orchestrators,
//! `/metrics` for Prometheus. Nothing here touches a game: health reads the store once, and
//! metrics are the service's counters since this process started.

use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use axum::routing::get;
use jieqi_service::{MetricsSnapshot, Service};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use crate::exposition::{self, Exposition};

#[derive(Clone, Debug)]
struct Endpoint {
    service: Service,
    shutdown: CancellationToken,
}

/// The routes, for [`serve`] and for tests.
pub fn router(service: Service, shutdown: CancellationToken) -> Router {
    Router::new()
        .route("/healthz", get(healthz))
        .route("/metrics", get(metrics))
        .with_state(Endpoint { service, shutdown })
}

/// Serves the endpoint until `shutdown` is cancelled.
pub async fn serve(
    listener: TcpListener,
    service: Service,
    shutdown: CancellationToken,
) -> std::io::Result<()> {
    let stop = shutdown.clone();
    axum::serve(listener, router(service, shutdown))
        .with_graceful_shutdown(async move { stop.cancelled().await })
        .await
}

/// 200 while the store answers; 503 once shutdown began (so a balancer stops sending) or
/// when the store fails.
async fn healthz(State(endpoint): State<Endpoint>) -> impl IntoResponse {
    if endpoint.shutdown.is_cancelled() {
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            "shutting down\n".to_owned(),
        );
    }
    match endpoint.service.pending(1).await {
        Ok(_) => (StatusCode::OK, "ok\n".to_owned()),
        Err(error) => (StatusCode::SERVICE_UNAVAILABLE, format!("store: {error}\n")),
    }
}

async fn metrics(State(endpoint): State<Endpoint>) -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, exposition::CONTENT_TYPE)],
        metrics_page(&endpoint.service.metrics()),
    )
}

/// The Prometheus page for one snapshot.
pub fn metrics_page(snapshot: &MetricsSnapshot) -> String {
    let mut page = Exposition::new();
    let counters = [
        (
            "jieqi_games_started_total",
            "Games started since the process started.",
            snapshot.games_started,
        ),
        (
            "jieqi_games_finished_total",
            "Games finished (aborted ones included) since the process started.",
            snapshot.games_finished,
        ),
        ("jieqi_moves_total", "Moves played.", snapshot.moves),
        (
            "jieqi_requests_total",
            "Requests handled (repeats included).",
            snapshot.requests,
        ),
        (
            "jieqi_refusals_total",
            "Requests refused (not your turn, illegal move, ...).",
            snapshot.refusals,
        ),
        (
            "jieqi_delivered_total",
            "Messages delivered.",
            snapshot.delivered,
        ),
        (
            "jieqi_delivery_failures_total",
            "Delivery attempts that failed and will be retried.",
            snapshot.delivery_failures,
        ),
        (
            "jieqi_undeliverable_total",
            "Messages that could not be delivered at all.",
            snapshot.undeliverable,
        ),
        (
            "jieqi_store_errors_total",
            "Failures of the game store.",
            snapshot.store_errors,
        ),
    ];
    for (name, help, value) in counters {
        page.counter(name, help, value);
    }
    let latency = &snapshot.request_latency;
    let buckets: Vec<(f64, u64)> = latency
        .bounds_ms
        .iter()
        .map(|ms| ms / 1000.0)
        .zip(latency.counts.iter().copied())
        .collect();
    page.histogram(
        "jieqi_request_duration_seconds",
        "Time to handle one request, store write included.",
        &buckets,
        latency.sum_seconds,
        latency.count(),
    );
    page.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use jieqi_service::LatencyHistogram;

    #[test]
    fn the_metrics_page_has_counters_and_the_latency_histogram() {
        let snapshot = MetricsSnapshot {
            games_started: 3,
            moves: 41,
            delivery_failures: 2,
            request_latency: LatencyHistogram {
                bounds_ms: vec![1.0, 10.0],
                counts: vec![4, 1, 1],
                sum_seconds: 0.25,
            },
            ..MetricsSnapshot::default()
        };
        let page = metrics_page(&snapshot);
        assert!(page.contains("jieqi_games_started_total 3\n"), "{page}");
        assert!(page.contains("jieqi_moves_total 41\n"), "{page}");
        assert!(page.contains("jieqi_delivery_failures_total 2\n"), "{page}");
        assert!(
            page.contains("jieqi_request_duration_seconds_bucket{le=\"0.001\"} 4\n"),
            "{page}"
        );
        assert!(
            page.contains("jieqi_request_duration_seconds_bucket{le=\"0.01\"} 5\n"),
            "{page}"
        );
        assert!(
            page.contains("jieqi_request_duration_seconds_bucket{le=\"+Inf\"} 6\n"),
            "{page}"
        );
        assert!(
            page.contains("jieqi_request_duration_seconds_count 6\n"),
            "{page}"
        );
    }
}
