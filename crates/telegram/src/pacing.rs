//! Pacing: every post waits for its chat's turn within Telegram's limits (about one message a
//! second to one chat, twenty a minute to one group, thirty a second in all).
//!
//! Each chat has its own allowance (`governor`'s keyed limiters), so a busy chat waits alone:
//! nothing here freezes the whole bot. teloxide's `Throttle` adaptor, used before, stopped every
//! chat for as long as Telegram's `retry_after` when any one chat got a 429; here a 429 goes back
//! to the caller as that message's own `SendError::Retry`, and a 5xx (after which teloxide
//! sleeps inside the request itself) delays only the task that made the request.

use std::fmt;
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicU32, Ordering};

use governor::{DefaultDirectRateLimiter, DefaultKeyedRateLimiter, Quota, RateLimiter};
use teloxide::types::ChatId;

use crate::config::SendLimits;

/// Waits made between two clean-ups of the allowances of quiet chats.
const CLEAN_UP_EVERY: u32 = 4096;

/// The allowances of every chat, and of the bot as a whole.
pub(crate) struct Pacer {
    per_chat: DefaultKeyedRateLimiter<i64>,
    /// Basic groups, per minute.
    per_group: DefaultKeyedRateLimiter<i64>,
    /// Supergroups and channels, per minute.
    per_supergroup: DefaultKeyedRateLimiter<i64>,
    overall: DefaultDirectRateLimiter,
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
            per_group: RateLimiter::keyed(Quota::per_minute(at_least_one(
                limits.per_chat_per_minute,
            ))),
            per_supergroup: RateLimiter::keyed(Quota::per_minute(at_least_one(
                limits.per_group_per_minute,
            ))),
            overall: RateLimiter::direct(Quota::per_second(at_least_one(
                limits.overall_per_second,
            ))),
            waits: AtomicU32::new(0),
        }
    }

    /// Waits until one more message may go to `chat`. Only the caller waits.
    pub(crate) async fn wait(&self, chat: ChatId) {
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
}
