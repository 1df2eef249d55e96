//! Send budgets: how many posts a platform takes to one chat, or from the whole bot, within a
//! sliding window ("at most 20 to one group in any minute"). A budget is the chat's (or the
//! bot's), not a process's: it is kept in the store, so every process posting to a chat
//! spends from the same one, and a chat's delivery lane moving to another process carries
//! nothing with it and resets nothing.
//!
//! A budget is a log of the posts within its window. A post spends from every budget it
//! counts against at once, or from none: [`GameStore::spend`](super::GameStore::spend)
//! answers either that it was spent or how long until every budget has room. Because the
//! window slides over what was actually sent, a post goes out the moment its chat has room:
//! a quiet group's boards are never spaced out, and only a chat at its limit waits.
//!
//! [`WindowLog`] is the log in one process's memory: the sled store's (one process owns a
//! sled folder), and the reference the PostgreSQL store's SQL follows.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::time::Duration;

use super::UnixMillis;

/// One budget a post counts against: at most `most` posts in any `within`, or (with
/// `every`) a burst of `most`, then one post every `every`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Allowance {
    /// Whose budget (`tg:chat:-100123`, `tg:bot`, `dc:post:42`): the same key in every
    /// process.
    pub key: String,
    /// Posts allowed in any window (with `every`: the burst).
    pub most: u32,
    /// The window.
    pub within: Duration,
    /// A steady rate instead of a window: after a burst of `most`, one post every `every`
    /// (the generic cell rate algorithm, as Telegram paces a chat: "short bursts, then about
    /// one a second"). `within` is unused then.
    pub every: Option<Duration>,
    /// Room that must stay free after this post, for a post that may wait (greying out an
    /// old board's buttons): such a post is spent only while the budget has more than it
    /// needs. 0 for a post that goes as soon as there is room.
    pub keep_free: u32,
}

impl Allowance {
    /// At most `most` posts to `key` in any `within`.
    pub fn new(key: impl Into<String>, most: u32, within: Duration) -> Allowance {
        Allowance {
            key: key.into(),
            most,
            within,
            every: None,
            keep_free: 0,
        }
    }

    /// A burst of `burst` posts to `key`, then one every `every`.
    pub fn rate(key: impl Into<String>, burst: u32, every: Duration) -> Allowance {
        Allowance {
            every: Some(every),
            ..Allowance::new(key, burst, Duration::ZERO)
        }
    }

    /// The same budget, spent only while `keep_free` more posts would still fit after.
    pub fn keeping_free(mut self, keep_free: u32) -> Allowance {
        self.keep_free = keep_free;
        self
    }

    fn within_millis(&self) -> u64 {
        u64::try_from(self.within.as_millis()).unwrap_or(u64::MAX)
    }

    fn every_millis(&self) -> Option<u64> {
        self.every
            .map(|every| u64::try_from(every.as_millis()).unwrap_or(u64::MAX).max(1))
    }
}

/// The answer to a spend.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spend {
    /// Spent from every budget: post now.
    Spent,
    /// Nothing spent: one budget is full until this much later (for a post that keeps room
    /// free, until it would have that room).
    Wait(Duration),
}

/// Now, in the milliseconds budgets count in (this machine's clock: a store shared by
/// several processes counts by its own clock instead).
pub fn now_millis() -> UnixMillis {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// Posts per key within their windows, in one process's memory.
#[derive(Debug, Default)]
pub struct WindowLog {
    posts: Mutex<HashMap<String, VecDeque<UnixMillis>>>,
    spends: Mutex<u64>,
}

/// Spends between two clean-ups of quiet keys.
const CLEAN_UP_EVERY: u64 = 4096;

impl WindowLog {
    /// Spends one post at `now` from every one of `allowances`, or from none.
    pub fn spend(&self, allowances: &[Allowance], now: UnixMillis) -> Spend {
        let mut posts = self
            .posts
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut wait = 0;
        for allowance in allowances {
            let log = posts.entry(allowance.key.clone()).or_default();
            wait = wait.max(match allowance.every_millis() {
                // A rate's log holds one time: when its bucket is full again.
                Some(every) => rate_wait(log.front().copied().unwrap_or(0), now, every, allowance),
                None => {
                    forget_before(log, now, allowance);
                    wait_for_room(log, now, allowance)
                }
            });
        }
        if wait > 0 {
            return Spend::Wait(Duration::from_millis(wait));
        }
        for allowance in allowances {
            let log = posts.entry(allowance.key.clone()).or_default();
            match allowance.every_millis() {
                Some(every) => {
                    let full_at = log
                        .front()
                        .copied()
                        .unwrap_or(0)
                        .max(now)
                        .saturating_add(every);
                    log.clear();
                    log.push_back(full_at);
                }
                None => log.push_back(now),
            }
        }
        let mut spends = self
            .spends
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        *spends += 1;
        if spends.is_multiple_of(CLEAN_UP_EVERY) {
            // A key with no post in the last hour has nothing left in any window we use.
            posts.retain(|_, log| {
                log.back()
                    .is_some_and(|at| now.saturating_sub(*at) < 3_600_000)
            });
        }
        Spend::Spent
    }
}

/// How many milliseconds until a rate whose bucket is full again at `full_at` takes one
/// more post and keeps `allowance.keep_free` more (0: now): a burst of `most` may be spent
/// ahead of the steady pace.
pub fn rate_wait(full_at: UnixMillis, now: UnixMillis, every: u64, allowance: &Allowance) -> u64 {
    let Some(ahead) = allowance
        .most
        .checked_sub(allowance.keep_free)
        .and_then(|room| room.checked_sub(1))
    else {
        return every;
    };
    let allowed_at = full_at.saturating_sub(every.saturating_mul(u64::from(ahead)));
    allowed_at.saturating_sub(now)
}

/// Drops the posts that left the window.
fn forget_before(log: &mut VecDeque<UnixMillis>, now: UnixMillis, allowance: &Allowance) {
    let within = allowance.within_millis();
    while log
        .front()
        .is_some_and(|at| now.saturating_sub(*at) >= within)
    {
        log.pop_front();
    }
}

/// How many milliseconds until `log` (within its window at `now`) has room for one post and
/// `allowance.keep_free` more; 0 if it has now. The `k`-th newest post leaves the window
/// `within` after it was made.
pub fn wait_for_room(log: &VecDeque<UnixMillis>, now: UnixMillis, allowance: &Allowance) -> u64 {
    let room = usize::try_from(allowance.most.saturating_sub(allowance.keep_free)).unwrap_or(0);
    if room == 0 {
        return allowance.within_millis().max(1);
    }
    if log.len() < room {
        return 0;
    }
    // Room for one more once all but `room - 1` of the posts have left the window: the
    // oldest `len - room + 1` must go, the last of them at its time + within.
    let must_leave = log.len() - room;
    log.get(must_leave).map_or(0, |at| {
        at.saturating_add(allowance.within_millis())
            .saturating_sub(now)
            .max(1)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn group() -> Allowance {
        Allowance::new("tg:chat:-100", 20, Duration::from_secs(60))
    }

    #[test]
    fn a_budget_takes_its_posts_at_once_then_waits_for_the_oldest_to_leave_the_window() {
        let log = WindowLog::default();
        for i in 0..20 {
            assert_eq!(
                log.spend(&[group()], 1_000 + i * 10),
                Spend::Spent,
                "post {i}"
            );
        }
        // The 21st waits until the first (at 1 000) is a minute old.
        assert_eq!(
            log.spend(&[group()], 2_000),
            Spend::Wait(Duration::from_millis(60_000 - 1_000))
        );
        assert_eq!(log.spend(&[group()], 61_000), Spend::Spent);
        assert_eq!(
            log.spend(&[group()], 61_000),
            Spend::Wait(Duration::from_millis(10))
        );
    }

    #[test]
    fn a_post_spends_from_every_budget_or_from_none() {
        let log = WindowLog::default();
        let bot = Allowance::new("tg:bot", 2, Duration::from_secs(1));
        let a = Allowance::new("tg:chat:1", 5, Duration::from_secs(60));
        let b = Allowance::new("tg:chat:2", 5, Duration::from_secs(60));
        assert_eq!(log.spend(&[a.clone(), bot.clone()], 0), Spend::Spent);
        assert_eq!(log.spend(&[b.clone(), bot.clone()], 0), Spend::Spent);
        // The bot's budget is full: chat 1's is not spent either.
        assert!(matches!(
            log.spend(&[a.clone(), bot.clone()], 10),
            Spend::Wait(_)
        ));
        let one = Allowance::new("tg:chat:1", 1, Duration::from_secs(60));
        assert_eq!(
            log.spend(&[one], 1_000),
            Spend::Wait(Duration::from_millis(59_000))
        );
        assert_eq!(log.spend(&[a, bot], 1_000), Spend::Spent);
    }

    #[test]
    fn a_post_that_may_wait_is_spent_only_while_room_stays_free() {
        let log = WindowLog::default();
        let spare = group().keeping_free(10);
        for i in 0..10 {
            assert_eq!(log.spend(std::slice::from_ref(&spare), i), Spend::Spent);
        }
        // Ten posts in the window: one more would leave fewer than ten free.
        assert!(matches!(
            log.spend(std::slice::from_ref(&spare), 20),
            Spend::Wait(_)
        ));
        // A post that goes as soon as there is room still goes.
        assert_eq!(log.spend(&[group()], 20), Spend::Spent);
        let never = Allowance::new("k", 1, Duration::from_secs(1)).keeping_free(1);
        assert!(matches!(log.spend(&[never], 0), Spend::Wait(_)));
    }

    #[test]
    fn a_rate_takes_its_burst_then_one_post_every_interval() {
        let log = WindowLog::default();
        let chat = Allowance::rate("tg:chat:1", 3, Duration::from_secs(1));
        for _ in 0..3 {
            assert_eq!(log.spend(std::slice::from_ref(&chat), 10_000), Spend::Spent);
        }
        // The bucket is full again at 13 000; the fourth may go a second after the burst.
        assert_eq!(
            log.spend(std::slice::from_ref(&chat), 10_000),
            Spend::Wait(Duration::from_millis(1_000))
        );
        assert_eq!(log.spend(std::slice::from_ref(&chat), 11_000), Spend::Spent);
        assert!(matches!(
            log.spend(std::slice::from_ref(&chat), 11_500),
            Spend::Wait(_)
        ));
        // After a quiet while the whole burst is back.
        for _ in 0..3 {
            assert_eq!(log.spend(std::slice::from_ref(&chat), 30_000), Spend::Spent);
        }
        let spare = chat.keeping_free(1);
        assert!(matches!(log.spend(&[spare], 31_000), Spend::Wait(_)));
    }

    #[test]
    fn the_wait_is_exact_however_many_posts_the_window_holds() {
        let allowance = Allowance::new("k", 3, Duration::from_millis(100));
        let log: VecDeque<UnixMillis> = [0, 10, 20, 30, 40].into_iter().collect();
        // Three of five must leave: the third (at 20) leaves at 120.
        assert_eq!(wait_for_room(&log, 50, &allowance), 70);
        assert_eq!(wait_for_room(&VecDeque::new(), 50, &allowance), 0);
    }
}
