//! Reviews of finished games (`/review`), computed off the request path.
//!
//! A request only queues a review (`ReviewQueue`) and answers with the number of reviews
//! ahead of it (`review_queue.rs`). A small pool of tasks (at most `DEFAULT_WORKERS` at once, one game at a
//! time per chat) takes the queue in order; each review's engine work runs on a thread of its
//! own that the operating system schedules only when nothing else wants the CPU
//! (`SCHED_IDLE`), so moves and posts of running games never wait on a review: a review
//! holds no game lock, and the request path and delivery never share a thread with it.
//!
//! A review is stored once ([`crate::store::ReviewRecord`], written in the transaction that
//! posts it) and served again from the store. With several processes, the first to
//! [claim](crate::store::GameStore::claim_review) a game computes its review; another that
//! was asked too waits for the stored review and posts that. The queue itself is in memory:
//! a process that stops forgets the reviews it had not started, and asking again queues them
//! anew.

use std::sync::atomic::Ordering;
use std::sync::{Arc, Weak};
use std::time::{Duration, Instant, SystemTime};

use jieqi_review::{GameReview, Reviewer};
use jieqi_rules::{GameDeal, Rules};

use crate::context::{Ctx, Step, unix, unix_millis};
use crate::review_post::post_review;
use crate::review_queue::ReviewJob;
use crate::service::{Inner, Service};
use crate::store::{Claim, ReviewClaim, ReviewRecord};

/// How long a process's claim on computing a review lasts (a 200-ply game at the review
/// budget takes well under this on one core).
const CLAIM_LEASE: Duration = Duration::from_secs(10 * 60);
/// How often a process waiting for another's review looks for it.
const BUSY_POLL: Duration = Duration::from_secs(2);

impl Service {
    /// Sets how many reviews this process computes at once (at least one; the default is
    /// [`crate::DEFAULT_REVIEW_WORKERS`]).
    pub fn set_review_workers(&self, workers: usize) {
        self.inner
            .reviews
            .workers
            .store(workers.max(1), Ordering::Relaxed);
        self.start_reviews();
    }

    /// Waits until every queued review has been posted (or given up): for tests, benchmarks
    /// and a tidy shutdown.
    pub async fn reviews_settled(&self) {
        loop {
            let settled = self.inner.reviews.settled.notified();
            if self.inner.reviews.is_settled() {
                return;
            }
            settled.await;
        }
    }

    /// Starts queued reviews while workers are free.
    pub(crate) fn start_reviews(&self) {
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        while let Some(job) = self.inner.reviews.start_next() {
            let weak = Arc::downgrade(&self.inner);
            runtime.spawn(async move {
                run(&weak, &job).await;
                if let Some(inner) = weak.upgrade() {
                    inner.reviews.finished(&job);
                    Service { inner }.start_reviews();
                }
            });
        }
    }
}

/// Gets `job`'s review (stored, another process's, or computed here) and posts it.
async fn run(weak: &Weak<Inner>, job: &ReviewJob) {
    let Some(review) = obtain(weak, job).await else {
        return;
    };
    let Some(inner) = weak.upgrade() else {
        return;
    };
    let service = Service { inner };
    let now = unix(SystemTime::now());
    let posted = service
        .commit_unattended(now, |ctx| {
            let review = review.clone();
            let job = job.clone();
            Box::pin(async move { post_fresh_or_stored(ctx, &job, review).await })
        })
        .await;
    if let Err(error) = posted {
        tracing::error!(%error, game = %job.game, "a review could not be posted");
    }
}

/// What a review job found: a stored review, or one computed here and not yet stored.
#[derive(Clone, Debug)]
enum Obtained {
    Stored(ReviewRecord),
    Computed(ReviewRecord),
}

async fn obtain(weak: &Weak<Inner>, job: &ReviewJob) -> Option<Obtained> {
    let waited_since = Instant::now();
    loop {
        let inner = weak.upgrade()?;
        let now = unix_millis(SystemTime::now());
        let claim = Claim {
            holder: inner.instance.clone(),
            now,
            until: now.saturating_add(u64::try_from(CLAIM_LEASE.as_millis()).unwrap_or(0)),
        };
        match inner.store.claim_review(&job.game, &claim).await {
            Ok(ReviewClaim::Done(record)) => return Some(Obtained::Stored(*record)),
            Ok(ReviewClaim::Ours) => break,
            Ok(ReviewClaim::Busy) if waited_since.elapsed() < CLAIM_LEASE * 2 => {
                drop(inner);
                tokio::time::sleep(BUSY_POLL).await;
            }
            Ok(ReviewClaim::Busy) => {
                tracing::warn!(game = %job.game, "gave up waiting for another process's review");
                return None;
            }
            Err(error) => {
                tracing::error!(%error, game = %job.game, "cannot claim a review");
                return None;
            }
        }
    }
    let inner = weak.upgrade()?;
    let record = match inner.store.game(&job.game).await {
        Ok(Some(record)) => record,
        Ok(None) => return None,
        Err(error) => {
            tracing::error!(%error, game = %job.game, "cannot read a game to review");
            return None;
        }
    };
    drop(inner);
    let deal = match GameDeal::from_letters(record.variant, &record.deal) {
        Ok(deal) => deal,
        Err(error) => {
            tracing::error!(%error, game = %job.game, "a stored deal cannot be read");
            return None;
        }
    };
    let rules = Rules::new(record.variant, record.preset);
    let moves = record.moves.clone();
    let review = compute_idle(rules, deal, moves).await?;
    Some(Obtained::Computed(ReviewRecord {
        game: job.game.clone(),
        at: unix(SystemTime::now()),
        review,
    }))
}

/// Reviews a game on a thread of its own at the lowest scheduling class.
async fn compute_idle(rules: Rules, deal: GameDeal, moves: Vec<String>) -> Option<GameReview> {
    let (sent, answer) = tokio::sync::oneshot::channel();
    let spawned = std::thread::Builder::new()
        .name("review".to_owned())
        .spawn(move || {
            lower_priority();
            let _ = sent.send(Reviewer::new().review(rules, deal, &moves));
        });
    if let Err(error) = spawned {
        tracing::error!(%error, "cannot start a review thread");
        return None;
    }
    match answer.await {
        Ok(Ok(review)) => Some(review),
        Ok(Err(error)) => {
            tracing::error!(%error, "a game could not be reviewed");
            None
        }
        Err(_) => None,
    }
}

/// Makes the calling thread run only when no other thread wants the CPU (Linux
/// `SCHED_IDLE`), or at least at the lowest priority where that is not available.
fn lower_priority() {
    use thread_priority::{
        NormalThreadSchedulePolicy, ThreadPriority, ThreadSchedulePolicy,
        set_current_thread_priority, set_thread_priority_and_policy, thread_native_id,
    };
    let idle = set_thread_priority_and_policy(
        thread_native_id(),
        ThreadPriority::Min,
        ThreadSchedulePolicy::Normal(NormalThreadSchedulePolicy::Idle),
    );
    if idle.is_err()
        && let Err(error) = set_current_thread_priority(ThreadPriority::Min)
    {
        tracing::warn!(?error, "a review thread runs at normal priority");
    }
}

/// Posts the review in the job's chat, storing it first if it was computed here (unless
/// another process stored one meanwhile: then that one is posted).
async fn post_fresh_or_stored(ctx: &mut Ctx<'_>, job: &ReviewJob, found: Obtained) -> Step {
    let record = match found {
        Obtained::Stored(record) => record,
        Obtained::Computed(record) => match ctx.inner.store.review(&job.game).await? {
            Some(stored) => stored,
            None => {
                ctx.change.reviews.push(record.clone());
                record
            }
        },
    };
    let Some(game) = ctx.game_record(&job.game).await? else {
        return Ok(());
    };
    post_review(ctx, &job.chat, &game, &record.review).await
}
