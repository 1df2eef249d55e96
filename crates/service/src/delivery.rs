//! Delivery: a loop per platform drains the outbox through that platform's [`Sender`],
//! retrying with exponential backoff (the `backon` crate), honouring the platform's
//! "retry after" hints, and reporting each message delivered or undeliverable.
//!
//! Messages go out in outbox order; a message that keeps failing holds the ones behind it
//! back for a while (so a chat never sees move 6 before move 5) and is dropped after
//! [`crate::service::MAX_DELIVERY_ROUNDS`] rounds.

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use backon::{ExponentialBuilder, Retryable};
use thiserror::Error;
use tokio_util::sync::CancellationToken;

use crate::ids::Platform;
use crate::message::OutboxEntry;
use crate::service::{IDLE_POLL, Service};

/// Delivers outbox entries to one platform (implemented by each adapter).
#[async_trait]
pub trait Sender: Send + Sync {
    /// Sends (or, for `message.replaces`, edits) one message. Returns the platform's
    /// reference to the posted message (its id), used for later edits.
    async fn send(&self, entry: &OutboxEntry) -> Result<Option<String>, SendError>;
}

/// Why a send failed.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SendError {
    /// It can never be delivered (the user has not started the bot, DMs are closed, the bot
    /// was removed from the chat).
    #[error("the message cannot be delivered: {0}")]
    Undeliverable(String),
    /// A passing failure (rate limit, network): try again, after `after` if the platform said.
    #[error("the message could not be delivered yet ({reason}); it will be retried")]
    Retry {
        /// The platform's "retry after".
        after: Option<Duration>,
        /// What happened.
        reason: String,
    },
}

/// How a delivery loop retries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RetryPolicy {
    /// First delay.
    pub min_delay: Duration,
    /// Longest delay.
    pub max_delay: Duration,
    /// Retries of one message within a round.
    pub retries: usize,
    /// Pause after a round that failed, before the message is tried again.
    pub round_pause: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            min_delay: Duration::from_millis(500),
            max_delay: Duration::from_secs(30),
            retries: 5,
            round_pause: Duration::from_secs(30),
        }
    }
}

/// Drains `platform`'s outbox through `sender` until `shutdown` is cancelled.
pub async fn run_delivery(
    service: Service,
    sender: Arc<dyn Sender>,
    platform: Platform,
    shutdown: CancellationToken,
) {
    run_delivery_with(service, sender, platform, shutdown, RetryPolicy::default()).await;
}

/// [`run_delivery`] with a chosen retry policy.
pub async fn run_delivery_with(
    service: Service,
    sender: Arc<dyn Sender>,
    platform: Platform,
    shutdown: CancellationToken,
    policy: RetryPolicy,
) {
    let mut changes = service.outbox_changes();
    while !shutdown.is_cancelled() {
        changes.borrow_and_update();
        let batch = match service.pending_for(platform, 32) {
            Ok(batch) => batch,
            Err(error) => {
                tracing::error!(%error, %platform, "cannot read the outbox");
                pause(&shutdown, policy.round_pause).await;
                continue;
            }
        };
        if batch.is_empty() {
            tokio::select! {
                _ = shutdown.cancelled() => break,
                _ = changes.changed() => {}
                _ = tokio::time::sleep(IDLE_POLL) => {}
            }
            continue;
        }
        for entry in batch {
            if shutdown.is_cancelled() {
                return;
            }
            if !deliver(&service, sender.as_ref(), &entry, policy).await {
                // Keep order: wait before trying this message (and those after it) again.
                pause(&shutdown, policy.round_pause).await;
                break;
            }
        }
    }
}

/// Sends one entry with retries; false if it is still pending afterwards.
async fn deliver(
    service: &Service,
    sender: &dyn Sender,
    entry: &OutboxEntry,
    policy: RetryPolicy,
) -> bool {
    let backoff = ExponentialBuilder::default()
        .with_min_delay(policy.min_delay)
        .with_max_delay(policy.max_delay)
        .with_max_times(policy.retries)
        .with_jitter();
    let result = (|| async { sender.send(entry).await })
        .retry(backoff)
        .when(|e| matches!(e, SendError::Retry { .. }))
        .adjust(|e, delay| {
            // A platform's own "retry after" beats our guess, while retries remain.
            delay.map(|d| match e {
                SendError::Retry {
                    after: Some(after), ..
                } => (*after).max(d),
                _ => d,
            })
        })
        .notify(
            |e, delay| tracing::debug!(error = %e, ?delay, id = %entry.id, "retrying a message"),
        )
        .await;
    let outcome = match result {
        Ok(platform_ref) => service
            .delivered(entry.id, platform_ref)
            .await
            .map(|()| true),
        Err(SendError::Undeliverable(reason)) => {
            tracing::info!(id = %entry.id, %reason, "a message cannot be delivered");
            service.undeliverable(entry.id).await.map(|()| true)
        }
        Err(SendError::Retry { reason, .. }) => {
            tracing::warn!(id = %entry.id, %reason, "a message failed a delivery round");
            service.delivery_failed(entry.id).await
        }
    };
    outcome.unwrap_or_else(|error| {
        tracing::error!(%error, id = %entry.id, "cannot record a delivery");
        false
    })
}

async fn pause(shutdown: &CancellationToken, how_long: Duration) {
    tokio::select! {
        _ = shutdown.cancelled() => {}
        _ = tokio::time::sleep(how_long) => {}
    }
}
