//! Search control shared by both searches: node and time limits, the seeded noise given to
//! root moves, and the score scale.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::level::Budget;

/// A score above every evaluation: a won position at the root.
pub(crate) const MATE: i32 = 30_000;
/// Scores beyond this are mates (found in at most `MATE - MATE_BOUND` plies).
pub(crate) const MATE_BOUND: i32 = MATE - 1_000;
/// Wider than any score.
pub(crate) const INFINITY: i32 = MATE + 1;
/// The deepest ply the search ever reaches (quiescence included).
pub(crate) const MAX_PLY: usize = 96;

/// How often (in nodes) the clock is read.
const CLOCK_INTERVAL: u64 = 512;

/// Limits of one search and the nodes spent so far.
#[derive(Debug)]
pub(crate) struct Control {
    start: Instant,
    deadline: Duration,
    node_limit: u64,
    /// Nodes visited so far (interior, leaf and quiescence alike).
    pub nodes: u64,
    stopped: bool,
    /// Raised by another thread (a UCI `stop`) to end the search early; read with the clock.
    cancel: Option<Arc<AtomicBool>>,
}

impl Control {
    #[cfg(test)]
    pub fn new(budget: &Budget) -> Control {
        Control::with_cancel(budget, None)
    }

    /// Limits of `budget`, and a flag that ends the search as soon as it is raised (checked
    /// every few hundred nodes, so well under a millisecond at any speed).
    pub fn with_cancel(budget: &Budget, cancel: Option<Arc<AtomicBool>>) -> Control {
        // Leave a margin for building the position, answering, and a busy machine pausing
        // us between two clock reads, so the promise on the level (at most 1 s / 3 s a move)
        // holds for the whole call.
        let deadline = budget.movetime.mul_f64(0.85);
        Control {
            start: Instant::now(),
            deadline,
            node_limit: budget.nodes.max(1),
            nodes: 0,
            stopped: false,
            cancel,
        }
    }

    /// Counts a node; true once the search must stop (limits reached).
    #[inline]
    pub fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.stopped {
            return true;
        }
        let out_of_time = self.nodes.is_multiple_of(CLOCK_INTERVAL)
            && (self.start.elapsed() >= self.deadline || self.cancelled());
        if self.nodes >= self.node_limit || out_of_time {
            self.stopped = true;
        }
        self.stopped
    }

    /// True once a limit was reached.
    #[inline]
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Whether another iteration is worth starting: while any time and nodes are left. An
    /// iteration cut short still counts (it searches the previous best move first, and a move
    /// it prefers beat that one on the deeper search), so the whole budget is spent, as the
    /// player was promised, rather than left unused after the last complete iteration.
    pub fn may_deepen(&self) -> bool {
        !self.stopped
            && !self.cancelled()
            && self.start.elapsed() < self.deadline
            && self.nodes < self.node_limit
    }

    /// Whether another thread asked the search to stop.
    fn cancelled(&self) -> bool {
        self.cancel
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
    }

    /// Time since the search started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }
}

/// A seeded bonus in `0..=noise` for each of `n` root moves.
pub(crate) fn root_noise(rng: &mut ChaCha8Rng, n: usize, noise: i32) -> Vec<i32> {
    (0..n)
        .map(|_| {
            if noise > 0 {
                rng.gen_range(0..=noise)
            } else {
                0
            }
        })
        .collect()
}

/// A stable 64-bit hash of text (FNV-1a), to seed per-position randomness: std's hasher may
/// change between Rust releases, and a seed must mean the same games everywhere.
pub(crate) fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Level;
    use rand::SeedableRng;

    #[test]
    fn node_limit_stops_the_search() {
        let budget = Budget {
            nodes: 10,
            ..Level::Novice.budget()
        };
        let mut control = Control::new(&budget);
        let stops = (0..20).filter(|_| control.tick()).count();
        assert_eq!(stops, 11);
        assert!(control.stopped());
    }

    #[test]
    fn a_raised_cancel_flag_stops_the_search_at_the_next_clock_read() {
        let flag = Arc::new(AtomicBool::new(false));
        let mut control = Control::with_cancel(&Level::Master.budget(), Some(flag.clone()));
        assert!(!(0..CLOCK_INTERVAL * 2).any(|_| control.tick()));
        assert!(control.may_deepen());
        flag.store(true, Ordering::Relaxed);
        assert!(!control.may_deepen());
        let ticks = (0..CLOCK_INTERVAL * 2)
            .take_while(|_| !control.tick())
            .count() as u64;
        assert!(ticks < CLOCK_INTERVAL, "{ticks}");
        assert!(control.stopped());
    }

    #[test]
    fn noise_is_seeded_and_bounded() {
        let a = root_noise(&mut ChaCha8Rng::seed_from_u64(7), 50, 30);
        let b = root_noise(&mut ChaCha8Rng::seed_from_u64(7), 50, 30);
        assert_eq!(a, b);
        assert!(a.iter().all(|&x| (0..=30).contains(&x)));
        assert!(
            root_noise(&mut ChaCha8Rng::seed_from_u64(7), 5, 0)
                .iter()
                .all(|&x| x == 0)
        );
    }

    #[test]
    fn fnv_hash_is_stable() {
        assert_eq!(fnv1a(""), 0xcbf2_9ce4_8422_2325);
        assert_ne!(fnv1a("a"), fnv1a("b"));
    }
}
