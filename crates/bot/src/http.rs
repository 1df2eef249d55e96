//! The operator's endpoint on `HTTP_ADDR`: `/healthz` for load balancers and orchestrators,
//! `/metrics` for Prometheus. Nothing here touches a game: health reads the store once, and
//! metrics are the service's registry (`jieqi_service::metrics`) as OpenMetrics text.

use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use axum::routing::get;
use jieqi_service::Service;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

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
        [(header::CONTENT_TYPE, jieqi_service::metrics::CONTENT_TYPE)],
        endpoint.service.metrics_registry().encode(),
    )
}

#[cfg(test)]
pub(crate) mod page {
    //! A strict reader of the OpenMetrics text format (what `/metrics` serves), for tests:
    //! every line is a `# HELP`, `# TYPE` or `# UNIT` line, a sample of the family declared
    //! last, or the closing `# EOF`; histogram buckets are cumulative and end with `+Inf`
    //! equal to `_count`. <https://prometheus.io/docs/specs/om/open_metrics_spec/>

    use std::collections::BTreeMap;

    /// One sample: its name with suffix, labels in order, value.
    #[derive(Debug, PartialEq)]
    pub struct Sample {
        pub name: String,
        pub labels: Vec<(String, String)>,
        pub value: f64,
    }

    /// The samples of a page, or what is wrong with it.
    pub fn read(page: &str) -> Result<Vec<Sample>, String> {
        let mut lines: Vec<&str> = page.lines().collect();
        if lines.pop() != Some("# EOF") || !page.ends_with('\n') {
            return Err("the page does not end with `# EOF`".to_owned());
        }
        let mut family: Option<(String, String)> = None;
        let mut samples = Vec::new();
        let mut buckets: BTreeMap<String, (f64, f64)> = BTreeMap::new();
        let mut counts: BTreeMap<String, f64> = BTreeMap::new();
        for line in lines {
            if let Some(rest) = line.strip_prefix("# ") {
                let mut words = rest.splitn(3, ' ');
                let (keyword, name) = (words.next(), words.next());
                let text = words.next().unwrap_or_default();
                let name = name
                    .filter(|n| is_name(n))
                    .ok_or(format!("bad line {line:?}"))?;
                match keyword {
                    Some("TYPE") => {
                        let kinds = ["counter", "gauge", "histogram", "info", "unknown"];
                        if !kinds.contains(&text) {
                            return Err(format!("unknown type in {line:?}"));
                        }
                        family = Some((name.to_owned(), text.to_owned()));
                    }
                    Some("HELP") | Some("UNIT") => {}
                    _ => return Err(format!("bad line {line:?}")),
                }
                continue;
            }
            let (family_name, kind) = family.as_ref().ok_or(format!("{line:?} before a TYPE"))?;
            let sample = sample(line)?;
            let suffix = sample
                .name
                .strip_prefix(family_name.as_str())
                .ok_or(format!("{line:?} is not of family {family_name}"))?;
            let allowed: &[&str] = match kind.as_str() {
                "counter" => &["_total", "_created"],
                "histogram" => &["_bucket", "_sum", "_count", "_created"],
                "info" => &["_info"],
                _ => &[""],
            };
            if !allowed.contains(&suffix) {
                return Err(format!("{line:?}: a {kind} has no `{suffix}` sample"));
            }
            let series: Vec<String> = sample
                .labels
                .iter()
                .filter(|(k, _)| k != "le")
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            let series = format!("{family_name}{{{}}}", series.join(","));
            if suffix == "_bucket" {
                let le = sample.labels.iter().find(|(k, _)| k == "le");
                let le: f64 = le
                    .and_then(|(_, v)| v.replace("+Inf", "inf").parse().ok())
                    .ok_or(format!("{line:?}: a bucket needs a number `le`"))?;
                let (last_le, last_count) =
                    buckets.get(&series).copied().unwrap_or((f64::MIN, 0.0));
                if le <= last_le || sample.value < last_count {
                    return Err(format!("{line:?}: buckets are not cumulative"));
                }
                buckets.insert(series, (le, sample.value));
            } else if suffix == "_count" {
                counts.insert(series, sample.value);
            }
            samples.push(sample);
        }
        for (series, count) in &counts {
            match buckets.get(series) {
                Some((le, last)) if le.is_infinite() && last == count => {}
                _ => {
                    return Err(format!(
                        "{series}: the `+Inf` bucket differs from the count"
                    ));
                }
            }
        }
        Ok(samples)
    }

    /// The value of the sample `name` with exactly these labels (`le` aside), if there is one.
    pub fn value(samples: &[Sample], name: &str, labels: &[(&str, &str)]) -> Option<f64> {
        samples
            .iter()
            .find(|s| {
                s.name == name
                    && s.labels.len() == labels.len()
                    && labels
                        .iter()
                        .all(|(k, v)| s.labels.iter().any(|(k2, v2)| k2 == k && v2 == v))
            })
            .map(|s| s.value)
    }

    fn is_name(name: &str) -> bool {
        let mut chars = name.chars();
        chars
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == ':')
            && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':')
    }

    fn sample(line: &str) -> Result<Sample, String> {
        let bad = || format!("bad sample {line:?}");
        let (series, value) = line.rsplit_once(' ').ok_or_else(bad)?;
        let value: f64 = match value {
            "+Inf" => f64::INFINITY,
            "-Inf" => f64::NEG_INFINITY,
            v => v.parse().map_err(|_| bad())?,
        };
        let (name, labels) = match series.split_once('{') {
            Some((name, rest)) => (name, rest.strip_suffix('}').ok_or_else(bad)?),
            None => (series, ""),
        };
        if !is_name(name) {
            return Err(bad());
        }
        let mut read = Vec::new();
        let mut rest = labels;
        while !rest.is_empty() {
            let (key, after) = rest.split_once("=\"").ok_or_else(bad)?;
            if !is_name(key) {
                return Err(bad());
            }
            // The value runs to the first quote not escaped by a backslash.
            let mut end = None;
            let mut escaped = false;
            for (i, c) in after.char_indices() {
                match c {
                    '\\' if !escaped => escaped = true,
                    '"' if !escaped => {
                        end = Some(i);
                        break;
                    }
                    _ => escaped = false,
                }
            }
            let end = end.ok_or_else(bad)?;
            read.push((key.to_owned(), after[..end].to_owned()));
            rest = &after[end + 1..];
            rest = match rest.strip_prefix(',') {
                Some(more) if !more.is_empty() => more,
                Some(_) => return Err(bad()),
                None if rest.is_empty() => rest,
                None => return Err(bad()),
            };
        }
        Ok(Sample {
            name: name.to_owned(),
            labels: read,
            value,
        })
    }

    #[test]
    fn the_reader_refuses_what_prometheus_would() {
        let good = "# HELP x_total Moves.\n# TYPE x counter\nx_total 3\n# EOF\n";
        assert_eq!(read(good).map(|s| s.len()), Ok(1));
        for bad in [
            "# TYPE x counter\nx_total 3\n",
            "# TYPE x counter\nx 3\n# EOF\n",
            "# TYPE x counter\nx_total{a=\"1} 3\n# EOF\n",
            "# TYPE h histogram\nh_bucket{le=\"1\"} 3\nh_bucket{le=\"+Inf\"} 2\nh_count 2\n# EOF\n",
            "# TYPE h histogram\nh_bucket{le=\"+Inf\"} 2\nh_count 3\n# EOF\n",
            "y 1\n# EOF\n",
        ] {
            assert!(read(bad).is_err(), "{bad}");
        }
    }
}
