//! Pacing: every post waits for its chat's turn within Telegram's limits (about one message a
//! second to one chat, twenty a minute to one group, thirty a second in all).
//!
//! Each chat has its own allowance (`governor`'s keyed limiters), so a busy chat waits alone:
//! nothing here freezes the whole bot. teloxide's `Throttle` adaptor, used before, stopped every
//! chat for as long as Telegram's `retry_after` when any one chat got a 429; here a 429 goes back
//! to the caller as that message's own `SendError::Retry`, and a 5xx (after which teloxide
//! sleeps inside the request itself) delays only the task that made the request.
//!
//! A group's allowance is "at most N in any minute", however the minute is placed: a short
//! burst (a challenge, its answer and the first board go out at once), then an even pace of
//! one post every 60 s / (N − burst − 1), so no 60-second window holds more than N − 1 and
//! the boards of a fast game come at a steady beat instead of twenty at once and then a
//! minute of silence.
//!
//! The delivery loop takes its chat's turn before it chooses what to send
//! ([`Pacer::reserve`], through `Sender::ready`): the boards queued while it waited go out as
//! one. The send that follows uses that turn instead of waiting for another.

use std::collections::HashMap;
use std::fmt;
use std::num::NonZeroU32;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use governor::{DefaultDirectRateLimiter, DefaultKeyedRateLimiter, Quota, RateLimiter};
use teloxide::types::ChatId;

use crate::config::SendLimits;

/// Waits made between two clean-ups of the allowances of quiet chats.
const CLEAN_UP_EVERY: u32 = 4096;
/// How long a turn taken by [`Pacer::reserve`] waits for its send (the delivery loop's
/// choice and a picture drawn on a busy machine); a send later than this waits for a turn of
/// its own, so a turn is never spent long after it was given. A group's pace leaves room for
/// it: a send up to this late still keeps any minute to N posts.
const RESERVED_FOR: Duration = Duration::from_secs(3);

/// The allowances of every chat, and of the bot as a whole.
pub(crate) struct Pacer {
    per_chat: DefaultKeyedRateLimiter<i64>,
    /// Basic groups, per minute.
    per_group: DefaultKeyedRateLimiter<i64>,
    /// Supergroups and channels, per minute.
    per_supergroup: DefaultKeyedRateLimiter<i64>,
    overall: DefaultDirectRateLimiter,
    /// Turns taken ahead of their send ([`Pacer::reserve`]), by chat, with when.
    reserved: Mutex<HashMap<i64, Instant>>,
    waits: AtomicU32,
}

impl fmt::Debug for Pacer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Pacer")
            .field("chats", &self.per_chat.len())
            .finish_non_exhaustive()
    }
}

fn at_least_one(n: u32) -> NonZeroU32 {
    NonZeroU32::new(n).unwrap_or(NonZeroU32::MIN)
}

/// At most `n` posts in any minute: a burst of about a sixth of them (one to five), then an
/// even pace, so that any 60 seconds hold at most `n − 1`.
fn within_any_minute(n: u32) -> Quota {
    let burst = (n / 6).clamp(1, 5);
    let steady = n.saturating_sub(burst + 1).max(1);
    Quota::with_period(Duration::from_secs(60) / steady)
        .unwrap_or_else(|| Quota::per_minute(NonZeroU32::MIN))
        .allow_burst(at_least_one(burst))
}

/// Supergroup and channel ids are `-100` followed by the chat's number.
fn is_supergroup(chat: ChatId) -> bool {
    chat.0 <= -1_000_000_000_000
}

impl Pacer {
    pub(crate) fn new(limits: SendLimits) -> Pacer {
        Pacer {
            per_chat: RateLimiter::keyed(Quota::per_second(at_least_one(
                limits.per_chat_per_second,
            ))),
            per_group: RateLimiter::keyed(within_any_minute(limits.per_chat_per_minute)),
            per_supergroup: RateLimiter::keyed(within_any_minute(limits.per_group_per_minute)),
            overall: RateLimiter::direct(Quota::per_second(at_least_one(
                limits.overall_per_second,
            ))),
            reserved: Mutex::new(HashMap::new()),
            waits: AtomicU32::new(0),
        }
    }

    /// Waits until one more message may go to `chat`. Only the caller waits. A turn taken
    /// by [`Pacer::reserve`] just before is used instead.
    pub(crate) async fn wait(&self, chat: ChatId) {
        let reserved = self
            .reserved
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .remove(&chat.0);
        if reserved.is_some_and(|at| at.elapsed() < RESERVED_FOR) {
            return;
        }
        self.take_turn(chat).await;
    }

    /// Waits for `chat`'s turn now, for a message about to be chosen and sent: the next
    /// [`Pacer::wait`] for `chat`, if it comes within [`RESERVED_FOR`], goes at once.
    pub(crate) async fn reserve(&self, chat: ChatId) {
        self.take_turn(chat).await;
        self.reserved
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(chat.0, Instant::now());
    }

    async fn take_turn(&self, chat: ChatId) {
        self.per_chat.until_key_ready(&chat.0).await;
        if is_supergroup(chat) {
            self.per_supergroup.until_key_ready(&chat.0).await;
        } else if chat.is_group() {
            self.per_group.until_key_ready(&chat.0).await;
        }
        self.overall.until_ready().await;
        if self
            .waits
            .fetch_add(1, Ordering::Relaxed)
            .is_multiple_of(CLEAN_UP_EVERY)
        {
            for limiter in [&self.per_chat, &self.per_group, &self.per_supergroup] {
                limiter.retain_recent();
                limiter.shrink_to_fit();
            }
            self.reserved
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .retain(|_, at| at.elapsed() < RESERVED_FOR);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use super::*;

    #[tokio::test]
    async fn a_chat_over_its_rate_waits_alone() {
        let pacer = Pacer::new(SendLimits {
            per_chat_per_second: 1,
            per_chat_per_minute: 20,
            per_group_per_minute: 20,
            overall_per_second: 30,
        });
        let busy = ChatId(-1_001_234_567_890);
        pacer.wait(busy).await;
        let started = Instant::now();
        // The busy chat's next message must wait about a second; another chat's need not.
        let other = tokio::time::timeout(Duration::from_millis(300), pacer.wait(ChatId(77))).await;
        assert!(other.is_ok(), "another chat was held back");
        pacer.wait(busy).await;
        assert!(
            started.elapsed() >= Duration::from_millis(500),
            "the busy chat did not wait"
        );
    }

    #[tokio::test]
    async fn a_group_gets_a_short_burst_then_an_even_pace_within_any_minute() {
        // 20 a minute: a burst of 3, then one every 60 s / 16 = 3.75 s.
        let quota = within_any_minute(20);
        assert_eq!(quota.burst_size().get(), 3);
        assert_eq!(quota.replenish_interval(), Duration::from_millis(3750));
        // However the minute is placed, it holds at most 3 + 16 = 19 posts.
        let per_window = quota.burst_size().get() as u128
            + Duration::from_secs(60).as_nanos() / quota.replenish_interval().as_nanos();
        assert!(per_window < 20, "{per_window}");
        assert_eq!(within_any_minute(3000).burst_size().get(), 5);
        assert_eq!(within_any_minute(1).burst_size().get(), 1);
    }

    #[tokio::test]
    async fn a_reserved_turn_is_used_by_the_next_wait_and_only_soon() {
        let pacer = Pacer::new(SendLimits {
            per_chat_per_second: 1,
            per_chat_per_minute: 20,
            per_group_per_minute: 20,
            overall_per_second: 30,
        });
        let chat = ChatId(77);
        pacer.reserve(chat).await;
        // The send that follows goes at once: its turn was taken.
        let at_once = tokio::time::timeout(Duration::from_millis(300), pacer.wait(chat)).await;
        assert!(at_once.is_ok(), "the reserved turn was not used");
        // The next one waits for a turn of its own.
        let started = Instant::now();
        pacer.wait(chat).await;
        assert!(started.elapsed() >= Duration::from_millis(500));
    }
}
