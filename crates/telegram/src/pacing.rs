//! Pacing: every post waits for its chat's turn within Telegram's limits (about one message a
//! second to one chat with short bursts, twenty a minute to one group, thirty a second for
//! the whole bot).
//!
//! The budgets are the chat's and the bot's, not this process's: they are kept in the store
//! ([`SendBudgets`], given by [`Pacer::share`]), so that several processes posting to one
//! group together keep within its twenty a minute, and a group's delivery lane moving to
//! another process (a kill, a lapsed claim) resets nothing. Each is a sliding window over
//! what was sent: a post goes out the moment its chat has room (a quiet group's boards are
//! never spaced out), and only a chat at its limit waits, alone: nothing here holds another
//! chat back. A 429 goes back to the caller as that message's own `SendError::Retry`.
//!
//! The delivery loop takes its chat's turn before it chooses what to send
//! ([`Pacer::reserve`], through `Sender::ready`): the boards queued while it waited go out as
//! one. The send that follows uses that turn instead of waiting for another. An edit that
//! may wait (greying out an old board's buttons) goes only with room to spare
//! ([`Pacer::spare`]): half of the group's minute left free for boards.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use jieqi_service::SendBudgets;
use jieqi_service::store::{Allowance, Spend};
use teloxide::types::ChatId;

use crate::config::SendLimits;

/// How long a turn taken by [`Pacer::reserve`] waits for its send (the delivery loop's
/// choice and a picture drawn on a busy machine); a send later than this waits for a turn of
/// its own, so a turn is never spent long after it was given.
const RESERVED_FOR: Duration = Duration::from_secs(3);
/// A chat's burst before its steady pace (Telegram: "short bursts, then about one a
/// second").
const CHAT_BURST: u32 = 3;
/// Added to a chat's interval and a group's window: a post is counted when its turn is
/// taken and arrives a moment later (an upload), so two posts counted that far apart here
/// must not arrive closer.
const ARRIVAL_MARGIN: Duration = Duration::from_millis(100);

/// The budgets every post spends from.
pub(crate) struct Pacer {
    limits: SendLimits,
    /// The store's budgets, once the service is known; until then, budgets of this process.
    shared: OnceLock<SendBudgets>,
    local: SendBudgets,
    /// Turns taken ahead of their send ([`Pacer::reserve`]), by chat, with when.
    reserved: Mutex<HashMap<i64, Instant>>,
}

impl fmt::Debug for Pacer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Pacer")
            .field("limits", &self.limits)
            .field("shared", &self.shared.get().is_some())
            .finish_non_exhaustive()
    }
}

/// Supergroup and channel ids are `-100` followed by the chat's number.
fn is_supergroup(chat: ChatId) -> bool {
    chat.0 <= -1_000_000_000_000
}

impl Pacer {
    pub(crate) fn new(limits: SendLimits) -> Pacer {
        Pacer {
            limits,
            shared: OnceLock::new(),
            local: SendBudgets::local(),
            reserved: Mutex::new(HashMap::new()),
        }
    }

    /// Spends from `budgets` (the store's, shared by every process) from now on. Only the
    /// first call counts.
    pub(crate) fn share(&self, budgets: SendBudgets) {
        let _ = self.shared.set(budgets);
    }

    fn budgets(&self) -> &SendBudgets {
        self.shared.get().unwrap_or(&self.local)
    }

    /// The budgets a post to `chat` counts against: the chat's, its group's minute, the
    /// bot's second.
    fn allowances(&self, chat: ChatId) -> Vec<Allowance> {
        let limits = &self.limits;
        let mut allowances = vec![
            Allowance::rate(
                format!("tg:chat:{}", chat.0),
                CHAT_BURST,
                (Duration::from_secs(1) + ARRIVAL_MARGIN) / limits.per_chat_per_second.max(1),
            ),
            Allowance::new(
                "tg:bot",
                limits.overall_per_second.max(1),
                Duration::from_secs(1),
            ),
        ];
        let per_minute = if is_supergroup(chat) {
            Some(limits.per_group_per_minute)
        } else {
            chat.is_group().then_some(limits.per_chat_per_minute)
        };
        if let Some(per_minute) = per_minute {
            // One short of the limit: a post counted here may arrive a moment later.
            allowances.push(Allowance::new(
                format!("tg:group:{}", chat.0),
                per_minute.saturating_sub(1).max(1),
                Duration::from_secs(60) + ARRIVAL_MARGIN * 3,
            ));
        }
        allowances
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
        self.budgets().take(&self.allowances(chat)).await;
    }

    /// Waits for `chat`'s turn now, for a message about to be chosen and sent: the next
    /// [`Pacer::wait`] for `chat`, if it comes within [`RESERVED_FOR`], goes at once.
    pub(crate) async fn reserve(&self, chat: ChatId) {
        self.budgets().take(&self.allowances(chat)).await;
        let mut reserved = self
            .reserved
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        reserved.retain(|_, at| at.elapsed() < RESERVED_FOR);
        reserved.insert(chat.0, Instant::now());
    }

    /// Takes a turn for `chat` if it has room to spare (half of a group's minute, one post
    /// of the chat's burst and of the bot's second left free after it), for a message that
    /// may wait; false, taking nothing, if not. The next [`Pacer::wait`] uses the turn.
    pub(crate) async fn spare(&self, chat: ChatId) -> bool {
        let allowances: Vec<Allowance> = self
            .allowances(chat)
            .into_iter()
            .map(|allowance| {
                let keep = if allowance.key.starts_with("tg:group:") {
                    allowance.most / 2
                } else {
                    1
                };
                allowance.keeping_free(keep)
            })
            .collect();
        if self.budgets().spend(&allowances).await != Spend::Spent {
            return false;
        }
        self.reserved
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(chat.0, Instant::now());
        true
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use super::*;

    fn telegram() -> SendLimits {
        SendLimits::default()
    }

    #[tokio::test]
    async fn a_chat_over_its_rate_waits_alone() {
        let pacer = Pacer::new(telegram());
        let busy = ChatId(-1_001_234_567_890);
        for _ in 0..3 {
            pacer.wait(busy).await;
        }
        let started = Instant::now();
        // The busy chat's fourth message must wait; another chat's need not.
        let other = tokio::time::timeout(Duration::from_millis(300), pacer.wait(ChatId(77))).await;
        assert!(other.is_ok(), "another chat was held back");
        let busy_again = tokio::time::timeout(Duration::from_millis(300), pacer.wait(busy)).await;
        assert!(busy_again.is_err(), "the busy chat did not wait");
        assert!(started.elapsed() < Duration::from_secs(1));
    }

    #[tokio::test]
    async fn a_quiet_group_posts_at_once_and_a_full_minute_waits() {
        let pacer = Pacer::new(SendLimits {
            per_chat_per_second: 100,
            ..telegram()
        });
        let group = ChatId(-1_001_234_567_890);
        let started = Instant::now();
        // 19 posts (one short of Telegram's 20) go at once: no spacing in a group with room.
        for _ in 0..19 {
            pacer.wait(group).await;
        }
        assert!(started.elapsed() < Duration::from_millis(500));
        let twentieth = tokio::time::timeout(Duration::from_millis(500), pacer.wait(group)).await;
        assert!(twentieth.is_err(), "a twentieth post in the minute went");
    }

    #[tokio::test]
    async fn a_reserved_turn_is_used_by_the_next_wait_and_only_soon() {
        let pacer = Pacer::new(telegram());
        let chat = ChatId(77);
        for _ in 0..2 {
            pacer.wait(chat).await;
        }
        pacer.reserve(chat).await;
        // The send that follows goes at once: its turn was taken.
        let at_once = tokio::time::timeout(Duration::from_millis(300), pacer.wait(chat)).await;
        assert!(at_once.is_ok(), "the reserved turn was not used");
        // The next one waits for a turn of its own (the chat's burst is spent).
        let next = tokio::time::timeout(Duration::from_millis(300), pacer.wait(chat)).await;
        assert!(next.is_err(), "the next send did not wait");
    }

    #[tokio::test]
    async fn room_to_spare_is_half_a_groups_minute() {
        let pacer = Pacer::new(SendLimits {
            per_chat_per_second: 100,
            ..telegram()
        });
        let group = ChatId(-1_001_234_567_890);
        // A try every 30 ms: the chat's own rate (one every 11 ms here) never stands in the way.
        let mut spared = 0;
        for _ in 0..20 {
            if pacer.spare(group).await {
                spared += 1;
            }
            tokio::time::sleep(Duration::from_millis(30)).await;
        }
        // 19 a minute, 9 kept free for boards: 10 spare posts, then none.
        assert_eq!(spared, 10);
        for _ in 0..9 {
            let board = tokio::time::timeout(Duration::from_millis(300), pacer.wait(group)).await;
            assert!(board.is_ok(), "a board found no room");
        }
    }

    #[tokio::test]
    async fn processes_sharing_budgets_share_a_groups_minute() {
        let shared = SendBudgets::local();
        let (one, two) = (Pacer::new(telegram()), Pacer::new(telegram()));
        one.share(shared.clone());
        two.share(shared);
        let group = ChatId(-42);
        let mut posted = 0;
        for i in 0..40 {
            let pacer = if i % 2 == 0 { &one } else { &two };
            if tokio::time::timeout(Duration::from_millis(20), pacer.wait(group))
                .await
                .is_ok()
            {
                posted += 1;
            }
        }
        // The chat's burst (3) holds both processes together.
        assert_eq!(posted, 3);
    }
}
