//! Delivery: a loop per platform drains the outbox through that platform's [`Sender`],
//! retrying with exponential backoff (the `backon` crate), honouring the platform's
//! "retry after" hints, and reporting each message delivered or undeliverable.
//!
//! The outbox is delivered by lanes (a chat, or one person's private messages): within a lane
//! messages go out in order, one at a time, so a chat never sees move 6 before move 5; lanes
//! go out side by side, each on its own task, so one chat's rate limit, failures or slow
//! answers add nothing to another chat's latency. A message that keeps failing holds back
//! only its own lane, and is dropped after `MAX_DELIVERY_ROUNDS` rounds.
//!
//! Each message is claimed in the store for a short lease before it is sent, so several
//! processes can drain one outbox; the delivered mark is durable as soon as the platform has
//! answered. A heartbeat renews the claims of the messages being delivered every few seconds,
//! so a live process keeps them however long a round takes (retries, a platform's waits),
//! while a dead process's claims lapse within one lease and another process takes its lanes
//! over in seconds.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_trait::async_trait;
use backon::{ExponentialBuilder, Retryable};
use thiserror::Error;
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;

use crate::ids::Platform;
use crate::message::{Answer, Destination, OutboxEntry, OutboxId};
use crate::metrics::PostOutcome;
use crate::service::{IDLE_POLL, Service, lock};
use crate::store::PendingMessage;

/// Delivers outbox entries to one platform (implemented by each adapter).
#[async_trait]
pub trait Sender: Send + Sync {
    /// Sends (or, for `message.replaces`, edits) one message. Returns the platform's
    /// reference to the posted message (its id), used for later edits.
    async fn send(&self, entry: &OutboxEntry) -> Result<Option<String>, SendError>;

    /// Finishes a deferred reply (`entry.message.to` is a
    /// [`Destination::DeferredReply`](crate::Destination::DeferredReply)) with `answer`, the
    /// request's answer (or, if the request never went through, the entry's own message
    /// saying so, as the only reply): resolves what the requester is shown and posts the
    /// public replies where the request was made. Sent again after a passing failure, it must
    /// repeat nothing the requester or the chat saw already. A platform without deferred
    /// answers keeps this default.
    async fn finish(
        &self,
        entry: &OutboxEntry,
        answer: &Answer,
    ) -> Result<Option<String>, SendError> {
        let _ = answer;
        Err(SendError::Undeliverable(format!(
            "{}: this platform gives no answer later",
            entry.id
        )))
    }

    /// Waits until the platform would take one more message to `to` (its rate limits for
    /// that chat), and lets the next [`Sender::send`] there go without waiting again. The
    /// delivery loop waits here before it chooses what to send, so that boards queued during
    /// the wait are sent as one (see [`Service::coalesce_boards`]). The default waits for
    /// nothing.
    async fn ready(&self, to: &Destination) {
        let _ = to;
    }

    /// True if `to` has room to spare now for a message that may wait (a
    /// [`Destination::StaleButtons`] edit greying out an old board's buttons): room that the
    /// chat's next posts will not need. The room is taken for the [`Sender::send`] that
    /// follows at once. The default: room always.
    async fn spare(&self, to: &Destination) -> bool {
        let _ = to;
        true
    }
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
    /// Pause of a lane after a round that failed, before its message is tried again.
    pub round_pause: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            min_delay: Duration::from_millis(500),
            max_delay: Duration::from_secs(8),
            retries: 4,
            round_pause: Duration::from_secs(30),
        }
    }
}

/// Lanes one process delivers at the same time.
const LANES_AT_ONCE: usize = 64;
/// How long a claim lasts without a heartbeat: a dead process's lanes wait at most this long
/// before another process takes them over (it wakes as the claims lapse). Short enough that a
/// message whose taker dies too (two leases) still goes out within 15 s.
const LEASE: Duration = Duration::from_secs(6);
/// How often the claims being delivered are renewed: four beats fit in one lease, so a slow
/// round trip or two to the store do not lose a live process its claims.
const HEARTBEAT: Duration = Duration::from_millis(1500);
/// A platform's "retry after" longer than this ends the round: the lane is deferred for that
/// long instead of holding a claim and a task.
const LONGEST_WAIT_IN_ROUND: Duration = Duration::from_secs(10);

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
    let mut lanes = JoinSet::new();
    let held = Held::default();
    let beating = CancellationToken::new();
    let heartbeat = tokio::spawn(renew_while_held(
        service.clone(),
        held.clone(),
        beating.clone(),
    ));
    while !shutdown.is_cancelled() {
        changes.borrow_and_update();
        let free = LANES_AT_ONCE.saturating_sub(lanes.len());
        let claimed = if free == 0 {
            Vec::new()
        } else {
            match service.claim_pending_for(platform, LEASE, free).await {
                Ok(claimed) => claimed,
                Err(error) => {
                    tracing::error!(%error, %platform, "cannot read the outbox");
                    pause(&shutdown, Duration::from_secs(1)).await;
                    continue;
                }
            }
        };
        // With nothing to claim, look again when another holder's claim lapses (a dead
        // process's lanes are taken over then, not a poll later) or a deferral ends.
        let idle = if claimed.is_empty() && free > 0 {
            service
                .next_claimable_in(platform)
                .await
                .map_or(IDLE_POLL, |due| due.min(IDLE_POLL))
        } else {
            IDLE_POLL
        };
        for pending in claimed {
            let service = service.clone();
            let sender = sender.clone();
            let held = held.clone();
            let holding = held.hold(pending.entry.id);
            lanes.spawn(async move {
                if crate::stale_buttons::is_stale_buttons(&pending.entry) {
                    grey_out(
                        &service,
                        sender.as_ref(),
                        platform,
                        &held,
                        &pending.entry,
                        policy,
                    )
                    .await;
                    drop(holding);
                    return;
                }
                // The platform's turn first, then the newest of the boards waiting: what
                // was queued meanwhile goes out with it.
                sender.ready(&pending.entry.message.to).await;
                let (pending, covering) = newest_board(&service, &held, pending).await;
                // Pictures are drawn here, each lane on its own, while the heartbeat keeps
                // the claim.
                // A deferred reply's answer is read (or its request declared lost) here too.
                let prepared = match service.prepare(pending).await {
                    Ok(entry) => match service.deferred_answer(&entry).await {
                        Ok(answer) => Ok((entry, answer)),
                        Err(error) => Err(error),
                    },
                    Err(error) => Err(error),
                };
                match prepared {
                    Ok((entry, answer)) => {
                        let sender = sender.as_ref();
                        let answer = answer.as_ref();
                        deliver(&service, sender, platform, &held, &entry, answer, policy).await;
                    }
                    Err(error) => tracing::error!(
                        %error,
                        id = %holding.id,
                        "cannot prepare a message; it is tried again when its claim lapses"
                    ),
                }
                drop(covering);
                drop(holding);
            });
        }
        // Wait for a lane to finish (its next message may be due), new messages, or a while
        // (another process may have queued or released some).
        tokio::select! {
            _ = shutdown.cancelled() => break,
            Some(_) = lanes.join_next(), if !lanes.is_empty() => {}
            _ = changes.changed() => {}
            _ = tokio::time::sleep(idle) => {}
        }
    }
    // Messages being sent finish (a send cut off midway would be repeated after a restart),
    // their claims renewed meanwhile; the caller bounds how long that may take.
    while lanes.join_next().await.is_some() {}
    beating.cancel();
    let _ = heartbeat.await;
}

/// The messages this delivery loop is delivering: their claims are renewed.
#[derive(Clone, Default)]
struct Held(Arc<Mutex<HashMap<OutboxId, bool>>>);

impl Held {
    /// Holds a message this loop has claimed.
    fn hold(&self, id: OutboxId) -> Holding {
        self.hold_as(id, true)
    }

    /// Holds a message before the store claims it for this loop (a covering board), so that
    /// the heartbeat renews it from the moment the claim exists; until [`Holding::claimed`],
    /// a renewal that finds no claim of ours is not a claim lost.
    fn hold_before_claim(&self, id: OutboxId) -> Holding {
        self.hold_as(id, false)
    }

    fn hold_as(&self, id: OutboxId, claimed: bool) -> Holding {
        lock(&self.0).insert(id, claimed);
        Holding {
            held: self.clone(),
            id,
        }
    }

    /// Every held message, and those of them the store has claimed for this loop by now.
    fn ids(&self) -> (Vec<OutboxId>, Vec<OutboxId>) {
        let held = lock(&self.0);
        let claimed = held.iter().filter(|(_, c)| **c).map(|(id, _)| *id);
        (held.keys().copied().collect(), claimed.collect())
    }

    /// This loop gives up its claim of `id` itself (delivered, given up or deferred): a
    /// renewal that finds the claim gone from now on is not a claim lost to another process.
    fn letting_go(&self, id: OutboxId) {
        if let Some(claimed) = lock(&self.0).get_mut(&id) {
            *claimed = false;
        }
    }

    /// True while `id` is held and was claimed by this loop.
    fn holds_claimed(&self, id: OutboxId) -> bool {
        lock(&self.0).get(&id).copied().unwrap_or(false)
    }
}

/// One held message; dropping it (the lane's task ended, even by a panic) lets its claim go.
struct Holding {
    held: Held,
    id: OutboxId,
}

impl Holding {
    /// The store has claimed the held message for this loop.
    fn claimed(&self) {
        if let Some(claimed) = lock(&self.held.0).get_mut(&self.id) {
            *claimed = true;
        }
    }
}

impl Drop for Holding {
    fn drop(&mut self) {
        lock(&self.held.0).remove(&self.id);
    }
}

/// The heartbeat: renews the claims of every held message each [`HEARTBEAT`] until `stop`.
async fn renew_while_held(service: Service, held: Held, stop: CancellationToken) {
    let mut beat = tokio::time::interval(HEARTBEAT);
    beat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            () = stop.cancelled() => return,
            _ = beat.tick() => {}
        }
        let (ids, claimed) = held.ids();
        if ids.is_empty() {
            continue;
        }
        match service.renew_claims(&ids, LEASE).await {
            Ok(renewed) => {
                // One not renewed was delivered meanwhile (gone from the store), or lost its
                // claim to another process. Only a message claimed before the renewal was sent
                // counts: a covering board's claim may commit while the renewal is on its way,
                // and the renewal then rightly found no claim of ours.
                for id in ids.iter().filter(|id| !renewed.contains(id)) {
                    if claimed.contains(id)
                        && held.holds_claimed(*id)
                        && matches!(service.is_undelivered(*id).await, Ok(true))
                    {
                        tracing::warn!(%id, "a delivery claim lapsed and another process took it");
                    }
                }
            }
            Err(error) => tracing::warn!(%error, "cannot renew the delivery claims"),
        }
    }
}

/// The claim a covering board takes over from the lane's head: the same lease as any claim.
const COALESCED_LEASE: Duration = LEASE;

/// The message to deliver in place of the claimed `pending`: the newest of the boards of
/// its game waiting in a row behind it, held (its claim renewed) from before it is claimed
/// on, or `pending` itself.
async fn newest_board(
    service: &Service,
    held: &Held,
    pending: PendingMessage,
) -> (PendingMessage, Option<Holding>) {
    let coalesced = async {
        let Some(coalescing) = service.boards_to_coalesce(&pending).await? else {
            return Ok(None);
        };
        // Held before the store claims it: the durable step may take a while, and the claim
        // must not lapse meanwhile.
        let holding = held.hold_before_claim(coalescing.covering);
        let covering = service.coalesce(&coalescing, COALESCED_LEASE).await?;
        if covering.is_some() {
            holding.claimed();
        }
        Ok::<_, crate::ServiceError>(covering.map(|covering| (covering, holding)))
    };
    match coalesced.await {
        Ok(Some((covering, holding))) => (covering, Some(holding)),
        Ok(None) => (pending, None),
        Err(error) => {
            tracing::warn!(%error, id = %pending.entry.id, "cannot coalesce boards; sending the oldest");
            (pending, None)
        }
    }
}

/// A claimed stale-button edit: sent only with room to spare, after its board was posted;
/// else it waits in its own lane (see `stale_buttons.rs`).
async fn grey_out(
    service: &Service,
    sender: &dyn Sender,
    platform: Platform,
    held: &Held,
    entry: &OutboxEntry,
    policy: RetryPolicy,
) {
    use crate::stale_buttons::Step;
    let step = match service.stale_buttons_step(sender, entry).await {
        Ok(step) => step,
        Err(error) => {
            tracing::warn!(%error, id = %entry.id, "cannot look at a stale board; its edit waits");
            return;
        }
    };
    let recorded = match step {
        Step::Send => {
            deliver(service, sender, platform, held, entry, None, policy).await;
            return;
        }
        Step::Later(pause) => {
            held.letting_go(entry.id);
            service.wait_in_lane(entry.id, entry.attempts, pause).await
        }
        Step::Drop => {
            held.letting_go(entry.id);
            service.done_unsent(entry.id).await
        }
    };
    if let Err(error) = recorded {
        tracing::warn!(%error, id = %entry.id, "cannot record a stale-button edit's wait");
    }
}

/// Sends one claimed entry (a deferred reply: finishes it with `answer`) with retries and
/// records what happened.
async fn deliver(
    service: &Service,
    sender: &dyn Sender,
    platform: Platform,
    held: &Held,
    entry: &OutboxEntry,
    answer: Option<&Answer>,
    policy: RetryPolicy,
) {
    let metrics = &service.inner.metrics;
    let backoff = ExponentialBuilder::default()
        .with_min_delay(policy.min_delay)
        .with_max_delay(policy.max_delay)
        .with_max_times(policy.retries)
        .with_jitter();
    let result = (|| async {
        let sent = match answer {
            Some(answer) => sender.finish(entry, answer).await,
            None => sender.send(entry).await,
        };
        if let Err(SendError::Retry { after: Some(_), .. }) = &sent {
            metrics.rate_limited(platform);
        }
        sent
    })
    .retry(backoff)
    .when(|e| match e {
        SendError::Retry { after, .. } => after.is_none_or(|a| a <= LONGEST_WAIT_IN_ROUND),
        SendError::Undeliverable(_) => false,
    })
    .adjust(|e, delay| {
        // A platform's own "retry after" beats our guess, while retries remain.
        delay.map(|d| match e {
            SendError::Retry {
                after: Some(after), ..
            } => (*after).max(d),
            _ => d,
        })
    })
    .notify(|e, delay| tracing::debug!(error = %e, ?delay, id = %entry.id, "retrying a message"))
    .await;
    // Recording the outcome ends the claim (a deferral keeps the message unclaimed in the
    // store): the heartbeat must not take that for a claim lost.
    held.letting_go(entry.id);
    let outcome = match result {
        Ok(platform_ref) => {
            metrics.post(platform, PostOutcome::Delivered);
            service.delivered(entry.id, platform_ref).await
        }
        Err(SendError::Undeliverable(reason)) => {
            tracing::info!(id = %entry.id, %reason, "a message cannot be delivered");
            metrics.post(platform, PostOutcome::Undeliverable);
            service.undeliverable(entry.id).await
        }
        Err(SendError::Retry { reason, after }) => {
            tracing::warn!(id = %entry.id, %reason, "a message failed a delivery round");
            let pause = after.map_or(policy.round_pause, |a| a.max(policy.min_delay));
            let dropped = service.delivery_failed(entry.id, pause).await;
            let outcome = match dropped {
                Ok(true) => PostOutcome::Undeliverable,
                _ => PostOutcome::Deferred,
            };
            metrics.post(platform, outcome);
            dropped.map(|_| ())
        }
    };
    if let Err(error) = outcome {
        // The claim lapses and the message is tried again (here or by another process).
        tracing::error!(%error, id = %entry.id, "cannot record a delivery");
    }
}

async fn pause(shutdown: &CancellationToken, how_long: Duration) {
    tokio::select! {
        _ = shutdown.cancelled() => {}
        _ = tokio::time::sleep(how_long) => {}
    }
}
