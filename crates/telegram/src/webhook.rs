//! Webhook mode: Telegram posts each update to `TELEGRAM_WEBHOOK_URL`; a proxy that terminates
//! TLS forwards it to the adapter's HTTP server. The server answers only after the update is
//! handled, so an update whose handling was cut short by a crash is posted again. Telegram
//! signs each post with the configured secret token (the same in every process behind a load
//! balancer); a post without it is refused (401) and a body that is not an update is refused
//! (400), both before anything is handled.
//!
//! Registering the webhook at start (`setWebhook`) is retried with backoff while Telegram
//! answers 429 or a server error, or cannot be reached, as `getMe` is: only Telegram's refusal
//! of the URL itself stops the start.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use backon::{ExponentialBuilder, Retryable};
use teloxide::RequestError;
use teloxide::payloads::SetWebhookSetters;
use teloxide::prelude::*;
use teloxide::types::Update;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use url::Url;

use crate::TelegramError;
use crate::config::WebhookSecret;
use crate::handler::Handler;
use crate::polling::ALLOWED;

/// The header in which Telegram repeats the secret token.
pub const SECRET_HEADER: &str = "x-telegram-bot-api-secret-token";

/// Parallel posts Telegram may make (the service orders changes to one game itself).
const MAX_CONNECTIONS: u8 = 8;

struct Hook {
    handler: Handler,
    secret: WebhookSecret,
}

/// Registers the webhook and serves it until `shutdown`.
pub(crate) async fn serve(
    handler: Handler,
    url: Url,
    listen: SocketAddr,
    secret: WebhookSecret,
    shutdown: CancellationToken,
) -> Result<(), TelegramError> {
    let listener =
        TcpListener::bind(listen)
            .await
            .map_err(|error| TelegramError::WebhookListen {
                addr: listen,
                error,
            })?;
    tokio::select! {
        () = shutdown.cancelled() => return Ok(()),
        registered = register(&handler.poster.client.bot, &url, &secret) => registered?,
    }
    let path = if url.path().is_empty() {
        "/"
    } else {
        url.path()
    };
    let app = Router::new()
        .route(path, post(receive))
        .with_state(Arc::new(Hook { handler, secret }));
    tracing::info!(%listen, %url, "receiving Telegram updates by webhook");
    axum::serve(listener, app)
        .with_graceful_shutdown(shutdown.cancelled_owned())
        .await
        .map_err(|error| TelegramError::WebhookListen {
            addr: listen,
            error,
        })
}

/// `setWebhook`, retried while Telegram is busy (429, waiting its `retry_after`), failing
/// (5xx) or out of reach; a refusal (Telegram's 4xx about the URL or the token) fails at once.
async fn register(bot: &Bot, url: &Url, secret: &WebhookSecret) -> Result<(), TelegramError> {
    let backoff = ExponentialBuilder::default()
        .with_max_delay(Duration::from_secs(30))
        .without_max_times()
        .with_jitter();
    (|| async {
        bot.set_webhook(url.clone())
            .secret_token(secret.expose())
            .allowed_updates(ALLOWED)
            .max_connections(MAX_CONNECTIONS)
            .await
    })
    .retry(backoff)
    .when(|error| crate::outbound::passing(error).is_some())
    .adjust(|error, delay| {
        // Telegram's own "retry after" beats our guess.
        delay.map(|d| {
            crate::outbound::passing(error)
                .flatten()
                .map_or(d, |after| after.max(d))
        })
    })
    .notify(|error, delay| tracing::warn!(%error, ?delay, "cannot register the webhook yet"))
    .await
    .map_err(|error| match error {
        RequestError::Api(teloxide::ApiError::InvalidToken) => TelegramError::InvalidToken,
        error => TelegramError::Webhook {
            url: url.to_string(),
            reason: error.to_string(),
        },
    })
    .map(drop)
}

async fn receive(State(hook): State<Arc<Hook>>, headers: HeaderMap, body: Bytes) -> StatusCode {
    let signed = headers
        .get(SECRET_HEADER)
        .is_some_and(|value| same(value.as_bytes(), hook.secret.expose().as_bytes()));
    if !signed {
        tracing::debug!("a webhook post without the secret token; refused");
        return StatusCode::UNAUTHORIZED;
    }
    match serde_json::from_slice::<Update>(&body) {
        Ok(update) => {
            hook.handler.handle(&update).await;
            StatusCode::OK
        }
        Err(error) => {
            tracing::warn!(%error, "a webhook post that is not an update; refused");
            StatusCode::BAD_REQUEST
        }
    }
}

/// Equality that takes as long whatever the first difference (the secret is not guessable
/// byte by byte from answer times).
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}
