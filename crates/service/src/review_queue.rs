//! The reviews of one process (`/review`): those waiting, in order, and those running. The
//! queue only decides what runs next (a free worker, one game at a time per chat); the
//! service's `reviews.rs` runs them.

use std::collections::VecDeque;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::ids::{ChatId, GameId};
use crate::state::lock;

/// Reviews computed at once by default (each on its own idle-priority thread).
pub const DEFAULT_WORKERS: usize = 2;
/// Reviews that may wait in one process's queue; more are refused until it drains.
pub(crate) const QUEUE_LIMIT: usize = 32;

/// One review asked for: a game, and the chat to post it in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ReviewJob {
    pub game: GameId,
    pub chat: ChatId,
}

/// Where a queued review stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Queued {
    /// Newly queued, with this many reviews before it (running or waiting).
    Ahead(usize),
    /// It was queued already, with this many before it.
    Already(usize),
    /// The queue is full.
    Full,
}

#[derive(Debug, Default)]
struct QueueState {
    waiting: VecDeque<ReviewJob>,
    running: Vec<ReviewJob>,
}

/// The reviews of one process: waiting in order, and running.
#[derive(Debug)]
pub(crate) struct ReviewQueue {
    state: Mutex<QueueState>,
    pub(crate) workers: AtomicUsize,
    pub(crate) settled: tokio::sync::Notify,
}

impl Default for ReviewQueue {
    fn default() -> ReviewQueue {
        ReviewQueue {
            state: Mutex::new(QueueState::default()),
            workers: AtomicUsize::new(DEFAULT_WORKERS),
            settled: tokio::sync::Notify::new(),
        }
    }
}

impl ReviewQueue {
    /// Queues `job` unless it is queued already or the queue is full.
    pub(crate) fn enqueue(&self, job: ReviewJob) -> Queued {
        let mut state = lock(&self.state);
        if let Some(i) = state.running.iter().position(|j| *j == job) {
            return Queued::Already(i);
        }
        if let Some(i) = state.waiting.iter().position(|j| *j == job) {
            return Queued::Already(state.running.len() + i);
        }
        if state.waiting.len() >= QUEUE_LIMIT {
            return Queued::Full;
        }
        let ahead = state.running.len() + state.waiting.len();
        state.waiting.push_back(job);
        Queued::Ahead(ahead)
    }

    /// The next job to start, if a worker is free: the oldest whose chat has no review
    /// running (one game at a time per chat).
    pub(crate) fn start_next(&self) -> Option<ReviewJob> {
        let mut state = lock(&self.state);
        if state.running.len() >= self.workers.load(Ordering::Relaxed).max(1) {
            return None;
        }
        let i = state
            .waiting
            .iter()
            .position(|job| !state.running.iter().any(|r| r.chat == job.chat))?;
        let job = state.waiting.remove(i)?;
        state.running.push(job.clone());
        Some(job)
    }

    pub(crate) fn finished(&self, job: &ReviewJob) {
        let mut state = lock(&self.state);
        if let Some(i) = state.running.iter().position(|j| j == job) {
            state.running.remove(i);
        }
        if state.running.is_empty() && state.waiting.is_empty() {
            self.settled.notify_waiters();
        }
    }

    pub(crate) fn is_settled(&self) -> bool {
        let state = lock(&self.state);
        state.running.is_empty() && state.waiting.is_empty()
    }
}
