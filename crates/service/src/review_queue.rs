//! Which queued reviews this process runs next. The queue itself is in the store
//! ([`GameStore::queued_reviews`](crate::store::GameStore::queued_reviews)), so it outlives
//! the process and, on PostgreSQL, is shared by every process; this module only keeps what
//! runs here (a bounded number of workers, one game at a time per chat) and what to leave
//! alone for a while (a review another process is computing). The service's `reviews.rs`
//! runs them.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use crate::ids::{ChatId, GameId};
use crate::store::ReviewRequest;
use crate::sync::lock;

/// Reviews computed at once by default (each on its own idle-priority thread).
pub const DEFAULT_WORKERS: usize = 2;
/// Reviews that may wait in the store's queue; more are refused until it drains.
pub(crate) const QUEUE_LIMIT: usize = 32;
/// Queued reviews read at once: the limit, with room for requests that raced past it.
pub(crate) const QUEUE_READ: usize = QUEUE_LIMIT * 4;

/// One review asked for: a game, and the chat to post it in.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct ReviewJob {
    pub game: GameId,
    pub chat: ChatId,
}

impl From<&ReviewRequest> for ReviewJob {
    fn from(request: &ReviewRequest) -> ReviewJob {
        ReviewJob {
            game: request.game.clone(),
            chat: request.chat.clone(),
        }
    }
}

/// Where a review stands in the store's queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Queued {
    /// Not queued yet: queueing it puts this many reviews before it.
    Ahead(usize),
    /// It is queued already, with this many before it.
    Already(usize),
    /// The queue is full.
    Full,
}

/// Where `job` would stand in `queue` (the store's queue, in order).
pub(crate) fn place_in(queue: &[ReviewRequest], job: &ReviewJob) -> Queued {
    match queue.iter().position(|r| ReviewJob::from(r) == *job) {
        Some(ahead) => Queued::Already(ahead),
        None if queue.len() >= QUEUE_LIMIT => Queued::Full,
        None => Queued::Ahead(queue.len()),
    }
}

#[derive(Debug, Default)]
struct RunState {
    running: Vec<ReviewJob>,
    /// Jobs not to start again before then (another process is computing the review, or
    /// the store failed).
    resting: HashMap<ReviewJob, Instant>,
    /// A pass over the store's queue is under way.
    scanning: bool,
    /// Something changed during the pass: make another.
    rescan: bool,
}

/// The reviews this process runs: the workers' limit, and what runs or rests.
#[derive(Debug)]
pub(crate) struct ReviewRunner {
    state: Mutex<RunState>,
    pub(crate) workers: AtomicUsize,
    pub(crate) settled: tokio::sync::Notify,
}

impl Default for ReviewRunner {
    fn default() -> ReviewRunner {
        ReviewRunner {
            state: Mutex::new(RunState::default()),
            workers: AtomicUsize::new(DEFAULT_WORKERS),
            settled: tokio::sync::Notify::new(),
        }
    }
}

impl ReviewRunner {
    /// Starts a pass over the store's queue; false if one is under way (it makes another
    /// when done, so nothing queued meanwhile is missed).
    pub(crate) fn begin_pass(&self) -> bool {
        let mut state = lock(&self.state);
        if state.scanning {
            state.rescan = true;
            return false;
        }
        state.scanning = true;
        true
    }

    /// Ends a pass; true if another must follow.
    pub(crate) fn end_pass(&self) -> bool {
        let mut state = lock(&self.state);
        if std::mem::take(&mut state.rescan) {
            return true;
        }
        state.scanning = false;
        false
    }

    /// The jobs of `queue` (the store's, in order) to start now, marked running: oldest
    /// first, while workers are free, none whose game or chat has a review running here, none
    /// resting.
    pub(crate) fn start_from(&self, queue: &[ReviewRequest], now: Instant) -> Vec<ReviewJob> {
        let mut state = lock(&self.state);
        state.resting.retain(|_, until| *until > now);
        let workers = self.workers.load(Ordering::Relaxed);
        let mut started = Vec::new();
        for job in queue.iter().map(ReviewJob::from) {
            if state.running.len() >= workers {
                break;
            }
            let taken = state
                .running
                .iter()
                .any(|r| r.chat == job.chat || r.game == job.game);
            if taken || state.resting.contains_key(&job) {
                continue;
            }
            state.running.push(job.clone());
            started.push(job);
        }
        started
    }

    /// `job` ended here; `rest_until`, if given, keeps it from starting again before then.
    pub(crate) fn finished(&self, job: &ReviewJob, rest_until: Option<Instant>) {
        let mut state = lock(&self.state);
        state.running.retain(|r| r != job);
        if let Some(until) = rest_until {
            state.resting.insert(job.clone(), until);
        }
        drop(state);
        self.settled.notify_waiters();
    }

    /// Nothing runs here and no pass is under way.
    pub(crate) fn is_idle(&self) -> bool {
        let state = lock(&self.state);
        state.running.is_empty() && !state.scanning
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::Platform;

    fn request(game: &str, chat: &str) -> ReviewRequest {
        ReviewRequest {
            game: game.parse().expect("a game id"),
            chat: ChatId::new(Platform::Local, chat),
            asked_at: 0,
        }
    }

    #[test]
    fn a_place_counts_the_reviews_queued_before_it() {
        let queue = [request("gaaa", "a"), request("gbbb", "b")];
        assert_eq!(place_in(&queue, &(&queue[1]).into()), Queued::Already(1));
        assert_eq!(
            place_in(&queue, &(&request("gccc", "a")).into()),
            Queued::Ahead(2)
        );
        let full: Vec<_> = (0..QUEUE_LIMIT)
            .map(|i| request("gaaa", &format!("chat{i}")))
            .collect();
        assert_eq!(
            place_in(&full, &(&request("gbbb", "a")).into()),
            Queued::Full
        );
    }

    #[test]
    fn one_game_at_a_time_per_chat_within_the_workers() {
        let runner = ReviewRunner::default();
        let queue = [
            request("gaaa", "a"),
            request("gbbb", "a"),
            request("gccc", "b"),
            request("gaaa", "c"),
            request("gddd", "d"),
        ];
        let started = runner.start_from(&queue, Instant::now());
        // gbbb waits for chat a, gaaa in chat c for game gaaa; two workers.
        assert_eq!(started, vec![(&queue[0]).into(), (&queue[2]).into()]);
        assert!(runner.start_from(&queue, Instant::now()).is_empty());
        // The first is posted and so off the store's queue.
        runner.finished(&started[0], None);
        assert_eq!(
            runner.start_from(&queue[1..], Instant::now()),
            vec![ReviewJob::from(&queue[1])]
        );
    }

    #[test]
    fn a_resting_job_waits_and_no_workers_start_nothing() {
        let runner = ReviewRunner::default();
        let queue = [request("gaaa", "a")];
        let now = Instant::now();
        let started = runner.start_from(&queue, now);
        runner.finished(&started[0], Some(now + std::time::Duration::from_secs(5)));
        assert!(runner.start_from(&queue, now).is_empty());
        assert_eq!(
            runner
                .start_from(&queue, now + std::time::Duration::from_secs(6))
                .len(),
            1
        );
        let idle = ReviewRunner::default();
        idle.workers.store(0, Ordering::Relaxed);
        assert!(idle.start_from(&queue, now).is_empty());
    }
}
