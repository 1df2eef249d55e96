//! Reviews of finished games (`/review`), computed off the request path.
//!
//! A request only queues a review, in the store ([`crate::store::ReviewRequest`], written in
//! the transaction that answers the request with the number of reviews ahead of it), so a
//! process that stops loses no review it said was queued. Each process runs the store's
//! queue in order (`review_queue.rs`): at most its workers at once, one game at a time per
//! chat. It looks at the queue when a review is queued or one ends, and on every
//! [`Service::tick`], which is how a restarted process, or another one sharing PostgreSQL
//! with a process that died, picks up what was left. Each review's engine work runs on a
//! thread of its own that the operating system schedules only when nothing else wants the CPU
//! (`SCHED_IDLE`), so moves and posts of running games never wait on a review: a review
//! holds no game lock, and the request path and delivery never share a thread with it.
//!
//! Once each: the first process to [claim](crate::store::GameStore::claim_review) a game
//! computes its review (another leaves it alone for a while and looks again); the review is
//! stored ([`crate::store::ReviewRecord`]) in the transaction that queues its posts in the
//! outbox and takes it off the queue, which is refused if another process took it off first.

use std::sync::atomic::Ordering;
use std::sync::{Arc, Weak};
use std::time::{Duration, Instant, SystemTime};

use jieqi_review::{GameReview, Reviewer};
use jieqi_rules::{GameDeal, Rules};

use crate::context::{Ctx, Sentence, Step, unix, unix_millis};
use crate::message::{Destination, Message, MessageKind};
use crate::review_post::post_review;
use crate::review_queue::{QUEUE_READ, ReviewJob};
use crate::service::{Inner, Service};
use crate::store::{Claim, ReviewClaim, ReviewRecord};

/// How long a process's claim on computing a review lasts (a 200-ply game at the review
/// budget takes well under this on one core).
const CLAIM_LEASE: Duration = Duration::from_secs(10 * 60);
/// How long a review another process is computing (or one the store failed on) is left
/// alone before this process looks at it again.
const REST: Duration = Duration::from_secs(5);
/// How often [`Service::reviews_settled`] looks at the store's queue while waiting.
const SETTLED_POLL: Duration = Duration::from_millis(200);

impl Service {
    /// Sets how many reviews this process computes at once (the default is
    /// [`crate::DEFAULT_REVIEW_WORKERS`]; 0: none, a process that leaves reviews to others
    /// sharing its store).
    pub fn set_review_workers(&self, workers: usize) {
        self.inner.reviews.workers.store(workers, Ordering::Relaxed);
        self.start_reviews();
    }

    /// Waits until the store's review queue is empty and no review runs here, starting
    /// queued reviews meanwhile: for tests, benchmarks and a tidy shutdown. With no workers
    /// here it waits for other processes to empty the queue. It looks again when a review
    /// ends here or every [`SETTLED_POLL`], never in a tight loop: that would starve the
    /// idle-priority threads computing the reviews it waits for.
    pub async fn reviews_settled(&self) {
        loop {
            let settled = self.inner.reviews.settled.notified();
            if self.inner.reviews.is_idle() {
                match self.inner.store.queued_reviews(1).await {
                    Ok(queue) if queue.is_empty() && self.inner.reviews.is_idle() => return,
                    Ok(_) => {}
                    Err(error) => tracing::warn!(%error, "cannot read the review queue"),
                }
            }
            // Queued and not started (resting, say): look at the queue again.
            self.start_reviews();
            let _ = tokio::time::timeout(SETTLED_POLL, settled).await;
        }
    }

    /// Looks at the store's review queue and starts what this process may run now.
    pub(crate) fn start_reviews(&self) {
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        if !self.inner.reviews.begin_pass() {
            return;
        }
        let weak = Arc::downgrade(&self.inner);
        runtime.spawn(async move {
            loop {
                let Some(inner) = weak.upgrade() else {
                    return;
                };
                match inner.store.queued_reviews(QUEUE_READ).await {
                    Ok(queue) => {
                        for job in inner.reviews.start_from(&queue, Instant::now()) {
                            Service {
                                inner: inner.clone(),
                            }
                            .spawn_review(job);
                        }
                    }
                    Err(error) => tracing::error!(%error, "cannot read the review queue"),
                }
                if !inner.reviews.end_pass() {
                    return;
                }
            }
        });
    }

    fn spawn_review(&self, job: ReviewJob) {
        let weak = Arc::downgrade(&self.inner);
        tokio::spawn(async move {
            let ended = run(&weak, &job).await;
            if let Some(inner) = weak.upgrade() {
                let rest_until = (ended == Ended::Later).then(|| Instant::now() + REST);
                inner.reviews.finished(&job, rest_until);
                Service { inner }.start_reviews();
            }
        });
    }
}

/// How a review job ended here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ended {
    /// Posted and off the queue (here, or by another process first).
    Done,
    /// Still queued: another process is computing it, or the store failed. Look again later.
    Later,
}

/// Gets `job`'s review (stored, or computed here) and posts it, taking it off the queue.
async fn run(weak: &Weak<Inner>, job: &ReviewJob) -> Ended {
    let found = match obtain(weak, job).await {
        Ok(Some(found)) => found,
        Ok(None) => Obtained::Unreviewable,
        Err(Later) => return Ended::Later,
    };
    let Some(inner) = weak.upgrade() else {
        return Ended::Later;
    };
    let service = Service { inner };
    let now = unix(SystemTime::now());
    let posted = service
        .commit_unattended(now, |ctx| {
            let found = found.clone();
            let job = job.clone();
            Box::pin(async move { post_fresh_or_stored(ctx, &job, found).await })
        })
        .await;
    match posted {
        Ok(true) => Ended::Done,
        // Nothing committed: off the queue already (then it is not read again), or the
        // change kept conflicting. Look again later rather than at once.
        Ok(false) => Ended::Later,
        Err(error) => {
            tracing::error!(%error, game = %job.game, "a review could not be posted");
            Ended::Later
        }
    }
}

/// What a review job found: a stored review, one computed here and not yet stored, or a
/// game that cannot be reviewed (gone, or its record unreadable).
#[derive(Clone, Debug)]
enum Obtained {
    Stored(ReviewRecord),
    Computed(ReviewRecord),
    Unreviewable,
}

/// Not now: the review is another process's, or the store failed.
struct Later;

async fn obtain(weak: &Weak<Inner>, job: &ReviewJob) -> Result<Option<Obtained>, Later> {
    let inner = weak.upgrade().ok_or(Later)?;
    let now = unix_millis(SystemTime::now());
    let claim = Claim {
        holder: inner.instance.clone(),
        now,
        until: now.saturating_add(u64::try_from(CLAIM_LEASE.as_millis()).unwrap_or(0)),
    };
    match inner.store.claim_review(&job.game, &claim).await {
        Ok(ReviewClaim::Done(record)) => return Ok(Some(Obtained::Stored(*record))),
        Ok(ReviewClaim::Ours) => {}
        Ok(ReviewClaim::Busy) => return Err(Later),
        Err(error) => {
            tracing::error!(%error, game = %job.game, "cannot claim a review");
            return Err(Later);
        }
    }
    let record = match inner.store.game(&job.game).await {
        Ok(Some(record)) => record,
        Ok(None) => return Ok(None),
        Err(error) => {
            tracing::error!(%error, game = %job.game, "cannot read a game to review");
            return Err(Later);
        }
    };
    drop(inner);
    let deal = match GameDeal::from_letters(record.variant, &record.deal) {
        Ok(deal) => deal,
        Err(error) => {
            tracing::error!(%error, game = %job.game, "a stored deal cannot be read");
            return Ok(None);
        }
    };
    let rules = Rules::new(record.variant, record.preset);
    let moves = record.moves.clone();
    let Some(review) = compute_idle(rules, deal, moves).await else {
        return Ok(None);
    };
    Ok(Some(Obtained::Computed(ReviewRecord {
        game: job.game.clone(),
        at: unix(SystemTime::now()),
        review,
    })))
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

/// Posts the review in the job's chat and takes it off the queue, storing it first if it was
/// computed here (unless another process stored one meanwhile: then that one is posted). A
/// review no longer queued was posted already (by another process) and is not posted again;
/// one that cannot be made is taken off the queue with a word to the chat.
async fn post_fresh_or_stored(ctx: &mut Ctx<'_>, job: &ReviewJob, found: Obtained) -> Step {
    let queue = ctx.inner.store.queued_reviews(QUEUE_READ).await?;
    let Some(request) = queue.into_iter().find(|r| ReviewJob::from(r) == *job) else {
        return Ok(());
    };
    ctx.change.dequeued_reviews.push(request);
    let record = match found {
        Obtained::Stored(record) => record,
        Obtained::Computed(record) => match ctx.inner.store.review(&job.game).await? {
            Some(stored) => stored,
            None => {
                ctx.change.reviews.push(record.clone());
                record
            }
        },
        Obtained::Unreviewable => return review_failed(ctx, job).await,
    };
    let Some(game) = ctx.game_record(&job.game).await? else {
        return review_failed(ctx, job).await;
    };
    post_review(ctx, &job.chat, &game, &record.review).await
}

/// Tells the chat that the review it asked for could not be made.
async fn review_failed(ctx: &mut Ctx<'_>, job: &ReviewJob) -> Step {
    let lang = ctx.chat_record(&job.chat).await?.settings.language;
    let text = ctx.say_in(
        lang,
        &Sentence::new("review-failed").arg("game", job.game.as_str()),
    );
    let notice = Message::text(
        Destination::Chat(job.chat.clone()),
        MessageKind::Notice,
        text,
    )
    .about(&job.game);
    ctx.post(notice, None).await?;
    Ok(())
}
