//! Calls to Discord's HTTP API whose whole answer we need: the status, Discord's error code,
//! and how long a rate limit lasts.
//!
//! serenity's own calls keep only the status and code of a failure; a 429's `retry_after`
//! (in its body) and the `Retry-After` and `X-RateLimit-*` headers are dropped, and behind a
//! proxy (`DISCORD_API_URL`) serenity's rate limiter is off. So the outbox's posts and edits
//! and the first answers to interactions are sent from here: serenity builds the request
//! (route, JSON or multipart body, token, proxy) and we read the answer ourselves. A route
//! whose limit is used up (`X-RateLimit-Remaining: 0`, or a 429) is not called again until it
//! resets; the caller is told how long instead ([`CallError::Limited`]). Routes are per
//! channel, so one chat's limit never holds another's messages.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::de::DeserializeOwned;
use serenity::all::CreateAttachment;
use serenity::http::Http;
use serenity::http::{Multipart, MultipartUpload, Request};

use crate::error::CallError;
use crate::pace::{Counted, Pace};

/// How long one call may take before it counts as failed (and is tried again; posts carry a
/// nonce, so a message that did go out is not doubled).
const CALL_TIMEOUT: Duration = Duration::from_secs(20);

/// The key of a global rate limit, which holds every route.
const GLOBAL: &str = "global";

/// Sends requests built by serenity and reads Discord's whole answer.
pub(crate) struct Rest {
    http: Arc<Http>,
    client: reqwest::Client,
    /// Routes whose rate limit is used up, until when.
    exhausted: Mutex<HashMap<String, Instant>>,
    /// The budgets shared with the bot's other processes (`pace.rs`).
    pace: Pace,
}

impl std::fmt::Debug for Rest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rest").finish_non_exhaustive()
    }
}

/// A request body: JSON, with files as a multipart form.
pub(crate) fn with_body<'a>(
    request: Request<'a>,
    body: &impl serde::Serialize,
    files: Vec<CreateAttachment>,
) -> Result<Request<'a>, CallError> {
    let json = serde_json::to_string(body).map_err(|e| CallError::Request(e.to_string()))?;
    Ok(if files.is_empty() {
        request.body(Some(json.into_bytes()))
    } else {
        request.multipart(Some(Multipart {
            upload: MultipartUpload::Attachments(files),
            fields: Vec::new(),
            payload_json: Some(json),
        }))
    })
}

impl Rest {
    pub(crate) fn new(http: Arc<Http>) -> Rest {
        let client = reqwest::Client::builder()
            .timeout(CALL_TIMEOUT)
            .build()
            .unwrap_or_default();
        Rest {
            http,
            client,
            exhausted: Mutex::new(HashMap::new()),
            pace: Pace::default(),
        }
    }

    /// The budgets every request spends from.
    pub(crate) fn pace(&self) -> &Pace {
        &self.pace
    }

    /// The serenity client whose token and proxy requests use.
    pub(crate) fn http(&self) -> &Http {
        &self.http
    }

    /// Sends `request` and decodes a successful answer.
    pub(crate) async fn call<T: DeserializeOwned>(
        &self,
        request: Request<'_>,
    ) -> Result<T, CallError> {
        let body = self.send(request).await?;
        serde_json::from_slice(&body)
            .map_err(|e| CallError::Transport(format!("cannot read Discord's answer: {e}")))
    }

    /// Sends `request`; a successful answer's body is not read (204, or not needed).
    pub(crate) async fn call_unit(&self, request: Request<'_>) -> Result<(), CallError> {
        self.send(request).await.map(|_| ())
    }

    async fn send(&self, request: Request<'_>) -> Result<Vec<u8>, CallError> {
        let route = route_key(&request);
        if let Some(wait) = self.limited(&route) {
            return Err(CallError::Limited(wait));
        }
        self.pace.take(Counted::of(&request)).await;
        let built = request
            .build(&self.client, self.http.token(), self.http.proxy.as_deref())
            .map_err(|e| CallError::Request(e.to_string()))?
            .build()
            .map_err(|e| CallError::Request(e.to_string()))?;
        self.execute(route, built).await
    }

    /// Where Discord's API is: `https://discord.com`, or the proxy (`DISCORD_API_URL`).
    pub(crate) fn api_base(&self) -> &str {
        self.http.proxy.as_deref().unwrap_or("https://discord.com")
    }

    /// The client that sends every call (its timeout: [`CALL_TIMEOUT`]).
    pub(crate) fn client(&self) -> &reqwest::Client {
        &self.client
    }

    /// Sends a request built by hand (one serenity has no route for, such as the OAuth2
    /// token exchange) under the rate limit of `route`, and reads Discord's answer as for
    /// every other call.
    pub(crate) async fn execute(
        &self,
        route: String,
        built: reqwest::Request,
    ) -> Result<Vec<u8>, CallError> {
        if let Some(wait) = self.limited(&route) {
            return Err(CallError::Limited(wait));
        }
        let response = self
            .client
            .execute(built)
            .await
            .map_err(|e| CallError::Transport(e.to_string()))?;
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let header = |name: &str| -> Option<f64> {
            headers
                .get(name)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.trim().parse::<f64>().ok())
                .filter(|s| s.is_finite() && *s >= 0.0)
        };
        let body = response
            .bytes()
            .await
            .map_err(|e| CallError::Transport(e.to_string()))?
            .to_vec();
        let reset_after = header("x-ratelimit-reset-after");
        if header("x-ratelimit-remaining") == Some(0.0)
            && let Some(reset) = reset_after
        {
            self.exhaust(&route, Duration::from_secs_f64(reset));
        }
        if (200..300).contains(&status) {
            return Ok(body);
        }
        let error: serde_json::Value = serde_json::from_slice(&body).unwrap_or_default();
        let retry_after = (status == 429)
            .then(|| {
                // The body's `retry_after` is the precise one (seconds, a float); the header
                // rounds up to whole seconds.
                error["retry_after"]
                    .as_f64()
                    .filter(|s| s.is_finite() && *s >= 0.0)
                    .or_else(|| header("retry-after"))
                    .or(reset_after)
            })
            .flatten()
            .map(Duration::from_secs_f64);
        if let Some(wait) = retry_after {
            // A global limit holds every route.
            let global = error["global"] == serde_json::json!(true)
                || headers.contains_key("x-ratelimit-global");
            self.exhaust(if global { GLOBAL } else { &route }, wait);
        }
        Err(CallError::Refused {
            status,
            code: error["code"]
                .as_i64()
                .and_then(|c| isize::try_from(c).ok())
                .unwrap_or(0),
            message: error["message"].as_str().unwrap_or("no message").to_owned(),
            retry_after,
        })
    }

    /// How long a request to `request`'s route would be held back now (its limit, or the
    /// global one, used up), if it would.
    pub(crate) fn held_back(&self, request: &Request<'_>) -> Option<Duration> {
        self.limited(&route_key(request))
    }

    /// How long `route` (or every route) is still used up, if it is.
    fn limited(&self, route: &str) -> Option<Duration> {
        let exhausted = self.exhausted.lock().ok()?;
        let now = Instant::now();
        [route, GLOBAL]
            .iter()
            .filter_map(|key| exhausted.get(*key))
            .map(|until| until.saturating_duration_since(now))
            .filter(|left| !left.is_zero())
            .max()
    }

    fn exhaust(&self, route: &str, wait: Duration) {
        if let Ok(mut exhausted) = self.exhausted.lock() {
            let now = Instant::now();
            exhausted.retain(|_, until| *until > now);
            exhausted.insert(route.to_owned(), now + wait);
        }
    }
}

/// What a rate limit applies to: the method and path, a message id left out (Discord limits
/// a channel's messages together).
fn route_key(request: &Request<'_>) -> String {
    let path = request.route_ref().path();
    let path = match path.find("/messages/") {
        Some(at) if path.contains("/channels/") => &path[..at + "/messages".len()],
        _ => &path,
    };
    format!("{:?} {path}", request.method_ref())
}
