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
//! The delivery loop takes its chat's turn in the group's minute before it chooses what to
//! send ([`Pacer::reserve`], through `Sender::ready`): the boards queued while it waited go
//! out as one. The send that follows uses that turn instead of waiting for another, and
//! spends from the chat's second and the bot's only then, just before its request: those
//! budgets are too short to be spent seconds ahead (the turn is taken before the picture is
//! drawn), where a post counted early but arriving late would let the next ones arrive closer
//! than a second apart. An edit that may wait (greying out an old board's buttons) goes only
//! with room to spare ([`Pacer::spare`]): half of the group's minute left free for boards.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, OnceLock};
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
/// A group's posts that go at once when it has had none for a while: a game's start (the
/// challenge, its answer, the first board) and the boards of two quick moves.
const GROUP_BURST: u32 = 5;
/// Added to a group's window: a post is counted when its turn is taken and arrives a moment
/// later (an upload), so two posts counted that far apart here must not arrive closer.
const ARRIVAL_MARGIN: Duration = Duration::from_millis(100);
/// Added to a chat's one-a-second interval, for the same reason: a second is short, and on a
/// busy machine one request may take a few hundred milliseconds longer to arrive than the
/// next, so four posts counted 1.25 s apart still arrive a second apart.
const CHAT_ARRIVAL_MARGIN: Duration = Duration::from_millis(250);

/// The budgets every post spends from.
pub(crate) struct Pacer {
    limits: SendLimits,
    /// The store's budgets, once the service is known; until then, budgets of this process.
    shared: OnceLock<SendBudgets>,
    local: SendBudgets,
    /// Turns taken ahead of their sends ([`Pacer::reserve`], [`Pacer::spare`]), by chat,
    /// with when and what they spent (a board's lane and the chat's stale-button lane may
    /// each hold one).
    reserved: Mutex<HashMap<i64, Vec<(Instant, Spent)>>>,
    /// Chats Telegram answered 429: nothing goes there before this.
    held: Mutex<HashMap<i64, Instant>>,
    /// One request in flight a chat: a post waits for the answer to the one before, so that a
    /// 429 holds back the next post even when another lane (a game's, the chat's, its old
    /// buttons') makes it.
    in_flight: Mutex<HashMap<i64, Arc<tokio::sync::Mutex<()>>>>,
}

impl fmt::Debug for Pacer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Pacer")
            .field("limits", &self.limits)
            .field("shared", &self.shared.get().is_some())
            .finish_non_exhaustive()
    }
}

/// What a turn taken ahead of its send has spent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Spent {
    /// The group's minute and beat ([`Pacer::reserve`]): the send spends the rest.
    Ahead,
    /// Every budget ([`Pacer::spare`], whose edit follows at once).
    Whole,
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
            held: Mutex::new(HashMap::new()),
            in_flight: Mutex::new(HashMap::new()),
        }
    }

    /// Telegram said (429) to wait `after` before posting to `chat` again: every post there
    /// waits, whatever lane makes it.
    pub(crate) fn hold(&self, chat: ChatId, after: Duration) {
        let mut held = self
            .held
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let now = Instant::now();
        held.retain(|_, until| *until > now);
        let until = now + after;
        let entry = held.entry(chat.0).or_insert(until);
        *entry = (*entry).max(until);
    }

    /// How long `chat` is still held back by a 429.
    fn held_for(&self, chat: ChatId) -> Option<Duration> {
        let held = self
            .held
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let left = held.get(&chat.0)?.saturating_duration_since(Instant::now());
        (!left.is_zero()).then_some(left)
    }

    async fn after_hold(&self, chat: ChatId) {
        while let Some(left) = self.held_for(chat) {
            tokio::time::sleep(left).await;
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

    /// The budgets a post to `chat` counts against: the chat's, the bot's second, its
    /// group's minute.
    fn allowances(&self, chat: ChatId) -> Vec<Allowance> {
        let mut allowances = self.at_send(chat);
        allowances.extend(self.ahead(chat));
        allowances
    }

    /// The budgets spent just before a request: the chat's second and the bot's, whose
    /// margin for a post arriving after it was counted is an upload's, not a drawing's.
    fn at_send(&self, chat: ChatId) -> Vec<Allowance> {
        let limits = &self.limits;
        vec![
            Allowance::rate(
                format!("tg:chat:{}", chat.0),
                CHAT_BURST,
                (Duration::from_secs(1) + CHAT_ARRIVAL_MARGIN) / limits.per_chat_per_second.max(1),
            ),
            Allowance::new(
                "tg:bot",
                limits.overall_per_second.max(1),
                Duration::from_secs(1),
            ),
        ]
    }

    /// The budgets a turn may spend ahead of its send: a group's minute and beat, widened by
    /// how late a turn may be used. None for a private chat.
    fn ahead(&self, chat: ChatId) -> Vec<Allowance> {
        let limits = &self.limits;
        let mut allowances = Vec::new();
        let per_minute = if is_supergroup(chat) {
            Some(limits.per_group_per_minute)
        } else {
            chat.is_group().then_some(limits.per_chat_per_minute)
        };
        if let Some(per_minute) = per_minute {
            // One short of the limit in any minute, and a minute widened by how late a post
            // may arrive after it was counted: a turn taken by `reserve` may be used up to
            // RESERVED_FOR later (a board drawn on a busy machine), so two posts counted a
            // minute apart may arrive that much closer. A CI run under load had Telegram
            // refuse a board when the minute was widened by the upload's margin alone.
            let most = per_minute.saturating_sub(1).max(1);
            let minute = Duration::from_secs(60) + RESERVED_FOR + ARRIVAL_MARGIN * 3;
            allowances.push(Allowance::new(format!("tg:group:{}", chat.0), most, minute));
            // A group with room posts at once (a burst of a few: a game's start and its first
            // boards); a game faster than the minute allows is paced evenly with the rest, so
            // that its boards come at a steady beat rather than a minute's worth at once and
            // then a silence. The burst and the beat together keep any minute within `most`.
            let burst = GROUP_BURST.min(most);
            let beat = minute / most.saturating_sub(burst).max(1);
            allowances.push(Allowance::rate(format!("tg:beat:{}", chat.0), burst, beat));
        }
        allowances
    }

    /// Waits until one more message may go to `chat`, and until the request before it there
    /// was answered: keep the [`ChatTurn`] until this one's answer is noted. Only the caller
    /// waits. A turn taken by [`Pacer::reserve`] just before is used instead.
    pub(crate) async fn wait(&self, chat: ChatId) -> ChatTurn {
        let lock = {
            let mut in_flight = self
                .in_flight
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            in_flight.retain(|_, lock| Arc::strong_count(lock) > 1);
            in_flight.entry(chat.0).or_default().clone()
        };
        let turn = ChatTurn(lock.lock_owned().await);
        self.paced(chat).await;
        turn
    }

    async fn paced(&self, chat: ChatId) {
        let reserved = {
            let mut reserved = self
                .reserved
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            let turns = reserved.entry(chat.0).or_default();
            turns.retain(|(at, _)| at.elapsed() < RESERVED_FOR);
            let turn = turns.pop();
            if turns.is_empty() {
                reserved.remove(&chat.0);
            }
            turn
        };
        self.after_hold(chat).await;
        let owed = match reserved {
            Some((_, Spent::Whole)) => return,
            Some((_, Spent::Ahead)) => self.at_send(chat),
            None => self.allowances(chat),
        };
        self.budgets().take(&owed).await;
    }

    /// Waits for `chat`'s turn in its group's minute now, for a message about to be chosen
    /// and sent: the next [`Pacer::wait`] for `chat`, if it comes within [`RESERVED_FOR`],
    /// waits only for the chat's second (and the bot's).
    pub(crate) async fn reserve(&self, chat: ChatId) {
        self.after_hold(chat).await;
        self.budgets().take(&self.ahead(chat)).await;
        self.reserved_turn(chat, Spent::Ahead);
    }

    fn reserved_turn(&self, chat: ChatId, spent: Spent) {
        let mut reserved = self
            .reserved
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        reserved.retain(|_, turns| {
            turns.retain(|(at, _)| at.elapsed() < RESERVED_FOR);
            !turns.is_empty()
        });
        reserved
            .entry(chat.0)
            .or_default()
            .push((Instant::now(), spent));
    }

    /// Takes a turn for `chat` if it has room to spare (half of a group's minute, two of its
    /// burst, one post of the chat's burst and of the bot's second left free after it), for
    /// a message that may wait; false, taking nothing, if not: a fast game's boards have
    /// none to spare. The next [`Pacer::wait`] uses the turn.
    pub(crate) async fn spare(&self, chat: ChatId) -> bool {
        if self.held_for(chat).is_some() {
            return false;
        }
        let allowances: Vec<Allowance> = self
            .allowances(chat)
            .into_iter()
            .map(|allowance| {
                let keep = if allowance.key.starts_with("tg:group:") {
                    allowance.most / 2
                } else if allowance.key.starts_with("tg:beat:") {
                    2
                } else {
                    1
                };
                allowance.keeping_free(keep)
            })
            .collect();
        if self.budgets().spend(&allowances).await != Spend::Spent {
            return false;
        }
        self.reserved_turn(chat, Spent::Whole);
        true
    }
}

/// A chat's turn to have one request in flight (see [`Pacer::wait`]).
#[must_use = "the turn lasts until the request's answer is noted"]
pub(crate) struct ChatTurn(#[allow(dead_code)] tokio::sync::OwnedMutexGuard<()>);

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
            drop(pacer.wait(busy).await);
        }
        let started = Instant::now();
        // The busy chat's fourth message must wait; another chat's need not.
        let other = tokio::time::timeout(Duration::from_millis(300), pacer.wait(ChatId(77)))
            .await
            .map(drop);
        assert!(other.is_ok(), "another chat was held back");
        let busy_again = tokio::time::timeout(Duration::from_millis(300), pacer.wait(busy))
            .await
            .map(drop);
        assert!(busy_again.is_err(), "the busy chat did not wait");
        assert!(started.elapsed() < Duration::from_secs(1));
    }

    #[tokio::test]
    async fn a_quiet_group_posts_a_burst_at_once_then_a_fast_game_gets_a_steady_beat() {
        let pacer = Pacer::new(SendLimits {
            per_chat_per_second: 100,
            ..telegram()
        });
        let group = ChatId(-1_001_234_567_890);
        let started = Instant::now();
        // A game's start and two quick boards go at once: no spacing in a group with room.
        for _ in 0..GROUP_BURST {
            drop(pacer.wait(group).await);
        }
        assert!(started.elapsed() < Duration::from_millis(500));
        // Then one every 63.3 s / 14 (4.5 s): 5 + 14 in any minute widened by a reserved
        // turn's 3 s and the upload's margin, one short of 20.
        let next = tokio::time::timeout(Duration::from_millis(500), pacer.wait(group))
            .await
            .map(drop);
        assert!(
            next.is_err(),
            "a sixth post went without waiting for the beat"
        );
        let beat = pacer
            .allowances(group)
            .into_iter()
            .find(|a| a.key.starts_with("tg:beat:"))
            .and_then(|a| a.every)
            .expect("a group's beat");
        assert_eq!(beat, Duration::from_millis(63_300) / 14);
    }

    #[tokio::test]
    async fn a_reserved_turn_is_used_by_the_next_wait_and_only_soon() {
        let pacer = Pacer::new(SendLimits {
            per_chat_per_second: 100,
            ..telegram()
        });
        let group = ChatId(-1_001_234_567_890);
        for _ in 0..GROUP_BURST - 1 {
            drop(pacer.wait(group).await);
        }
        pacer.reserve(group).await;
        // The send that follows goes at once: its turn in the group's minute was taken.
        let at_once = tokio::time::timeout(Duration::from_millis(300), pacer.wait(group))
            .await
            .map(drop);
        assert!(at_once.is_ok(), "the reserved turn was not used");
        // The next one waits for a turn of its own (the group's burst is spent).
        let next = tokio::time::timeout(Duration::from_millis(300), pacer.wait(group))
            .await
            .map(drop);
        assert!(next.is_err(), "the next send did not wait");
    }

    #[tokio::test]
    async fn a_turn_reserved_before_a_slow_drawing_still_spaces_the_chats_posts_by_their_sends() {
        let pacer = Pacer::new(telegram());
        let group = ChatId(-1_001_234_567_890);
        // The delivery loop's turn, then the board drawn slowly: its post goes 600 ms later.
        pacer.reserve(group).await;
        tokio::time::sleep(Duration::from_millis(600)).await;
        let first = Instant::now();
        drop(pacer.wait(group).await);
        // Three more posts to the chat at once (its burst is three): the last of the four
        // goes a second or more after the first went, as Telegram counts them on arrival,
        // not a second after the turn was taken.
        for _ in 0..3 {
            drop(pacer.wait(group).await);
        }
        assert!(
            first.elapsed() >= Duration::from_secs(1),
            "four posts to one chat within {:?}",
            first.elapsed()
        );
    }

    #[tokio::test]
    async fn room_to_spare_leaves_the_groups_next_boards_theirs() {
        let pacer = Pacer::new(SendLimits {
            per_chat_per_second: 100,
            ..telegram()
        });
        let group = ChatId(-1_001_234_567_890);
        // A try every 30 ms: the chat's own rate (one every 11 ms here) never stands in the way.
        let mut spared = 0;
        for _ in 0..10 {
            if pacer.spare(group).await {
                spared += 1;
            }
            tokio::time::sleep(Duration::from_millis(30)).await;
        }
        // Three of the group's burst of five spent on edits that may wait; two kept for boards.
        assert_eq!(spared, 3);
        for _ in 0..2 {
            let board = tokio::time::timeout(Duration::from_millis(300), pacer.wait(group))
                .await
                .map(drop);
            assert!(board.is_ok(), "a board found no room");
        }
        assert!(
            !pacer.spare(group).await,
            "a fast game's boards left room to spare"
        );
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
