//! Discord's limits as budgets shared by every process of the bot ([`SendBudgets`], kept in
//! the store): a channel takes about five new messages in five seconds and as many edits, and
//! the bot as a whole fifty requests a second. Each process reads Discord's rate-limit
//! headers too (`rest.rs`), but those tell it only of its own requests; the budgets make
//! several processes posting to one channel keep within its limits together, and a channel's
//! lane moving to another process resets nothing. Each budget is a sliding window over what
//! was sent, a little wider than Discord's own window (a request counted here arrives a
//! moment later), so a channel with room posts at once.
//!
//! Answers to interactions are left out: Discord does not count them against the bot.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use jieqi_service::SendBudgets;
use jieqi_service::store::{Allowance, Spend};
use serenity::http::{LightMethod, Request};

/// Messages (and, apart, edits) to one channel in any window.
const PER_CHANNEL: u32 = 5;
/// Discord's window for a channel's messages, and a margin for the time a request takes to
/// arrive after it was counted.
const CHANNEL_WINDOW: Duration = Duration::from_millis(5_500);
/// Requests of the whole bot in any second: Discord's fifty, less a margin.
const BOT_PER_SECOND: u32 = 45;
/// How long a turn taken ahead of its post (`Sender::ready`) stands for it. The channel's
/// window counts from the turn, so a post sent much later (a board drawn slowly on a busy
/// machine) would arrive closer to the channel's next posts than Discord's window allows;
/// such a post takes a turn of its own instead (the early one is spent for nothing, only
/// when the machine is slow). Well within the window's margin.
const RESERVED_FOR: Duration = Duration::from_millis(300);

/// What a request to Discord counts against.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Counted {
    /// A new message in this channel.
    Post(u64),
    /// An edit of a message in this channel.
    Edit(u64),
    /// Any other request of the bot's.
    Other,
    /// An interaction's answer or follow-up: not counted by Discord.
    Free,
}

impl Counted {
    /// What `request` counts against, from its method and path.
    pub(crate) fn of(request: &Request<'_>) -> Counted {
        let path = request.route_ref().path();
        Counted::of_path(request.method_ref(), &path)
    }

    fn of_path(method: &LightMethod, path: &str) -> Counted {
        let segments: Vec<&str> = path.trim_matches('/').split('/').collect();
        let start = segments
            .iter()
            .position(|s| *s == "channels" || *s == "interactions" || *s == "webhooks");
        let Some(start) = start else {
            return Counted::Other;
        };
        match (method, &segments[start..]) {
            (_, ["interactions", ..] | ["webhooks", ..]) => Counted::Free,
            (LightMethod::Post, ["channels", channel, "messages"]) => {
                channel.parse().map_or(Counted::Other, Counted::Post)
            }
            (LightMethod::Patch, ["channels", channel, "messages", _]) => {
                channel.parse().map_or(Counted::Other, Counted::Edit)
            }
            _ => Counted::Other,
        }
    }

    fn allowances(self) -> Vec<Allowance> {
        let bot = Allowance::new("dc:bot", BOT_PER_SECOND, Duration::from_secs(1));
        match self {
            Counted::Post(channel) => vec![
                Allowance::new(format!("dc:post:{channel}"), PER_CHANNEL, CHANNEL_WINDOW),
                bot,
            ],
            Counted::Edit(channel) => vec![
                Allowance::new(format!("dc:edit:{channel}"), PER_CHANNEL, CHANNEL_WINDOW),
                bot,
            ],
            Counted::Other => vec![bot],
            Counted::Free => Vec::new(),
        }
    }
}

/// The budgets this process's requests spend from.
pub(crate) struct Pace {
    shared: OnceLock<SendBudgets>,
    local: SendBudgets,
    /// Turns taken ahead of their request, with when.
    reserved: Mutex<HashMap<Counted, Instant>>,
}

impl Default for Pace {
    fn default() -> Pace {
        Pace {
            shared: OnceLock::new(),
            local: SendBudgets::local(),
            reserved: Mutex::new(HashMap::new()),
        }
    }
}

impl Pace {
    /// Spends from `budgets` (the store's) from now on; only the first call counts.
    pub(crate) fn share(&self, budgets: SendBudgets) {
        let _ = self.shared.set(budgets);
    }

    fn budgets(&self) -> &SendBudgets {
        self.shared.get().unwrap_or(&self.local)
    }

    fn reserved(&self) -> std::sync::MutexGuard<'_, HashMap<Counted, Instant>> {
        self.reserved
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Waits for the turn of a request that counts as `counted`; a turn taken ahead for it
    /// ([`Pace::reserve`], [`Pace::spare`]) is used instead.
    pub(crate) async fn take(&self, counted: Counted) {
        if counted == Counted::Free {
            return;
        }
        let reserved = self.reserved().remove(&counted);
        if reserved.is_some_and(|at| at.elapsed() < RESERVED_FOR) {
            return;
        }
        self.budgets().take(&counted.allowances()).await;
    }

    /// Takes the turn of a request that counts as `counted` now, for the one that follows.
    pub(crate) async fn reserve(&self, counted: Counted) {
        self.budgets().take(&counted.allowances()).await;
        let mut reserved = self.reserved();
        reserved.retain(|_, at| at.elapsed() < RESERVED_FOR);
        reserved.insert(counted, Instant::now());
    }

    /// Takes the turn of a request that may wait (greying out old buttons) only if its
    /// budgets keep room free after it (one of a channel's five, a quarter of the bot's);
    /// false, taking nothing, if not.
    pub(crate) async fn spare(&self, counted: Counted) -> bool {
        let allowances: Vec<Allowance> = counted
            .allowances()
            .into_iter()
            .map(|a| {
                let keep = (a.most / 4).max(1);
                a.keeping_free(keep)
            })
            .collect();
        if self.budgets().spend(&allowances).await != Spend::Spent {
            return false;
        }
        self.reserved().insert(counted, Instant::now());
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_are_counted_by_channel_and_kind() {
        let of = |m: LightMethod, p: &str| Counted::of_path(&m, p);
        assert_eq!(
            of(LightMethod::Post, "/channels/42/messages"),
            Counted::Post(42)
        );
        assert_eq!(
            of(LightMethod::Patch, "api/v10/channels/42/messages/7"),
            Counted::Edit(42)
        );
        assert_eq!(of(LightMethod::Post, "/users/@me/channels"), Counted::Other);
        assert_eq!(
            of(LightMethod::Get, "/channels/42/messages/7"),
            Counted::Other
        );
        assert_eq!(
            of(LightMethod::Post, "/interactions/1/tok/callback"),
            Counted::Free
        );
        assert_eq!(
            of(LightMethod::Patch, "/webhooks/1/tok/messages/@original"),
            Counted::Free
        );
        assert_eq!(
            of(LightMethod::Post, "/channels/x/messages"),
            Counted::Other
        );
    }

    #[tokio::test]
    async fn a_channel_takes_five_posts_then_waits_and_its_edits_are_apart() {
        let pace = Pace::default();
        for _ in 0..5 {
            pace.take(Counted::Post(1)).await;
        }
        let sixth = tokio::time::timeout(Duration::from_millis(300), pace.take(Counted::Post(1)));
        assert!(sixth.await.is_err(), "a sixth post in five seconds went");
        let other = tokio::time::timeout(Duration::from_millis(300), pace.take(Counted::Post(2)));
        assert!(other.await.is_ok(), "another channel waited");
        // Edits have their own budget; one that may wait goes while one more stays free.
        assert!(pace.spare(Counted::Edit(1)).await);
        for _ in 0..4 {
            // The first uses the turn the spare edit took.
            pace.take(Counted::Edit(1)).await;
        }
        assert!(
            !pace.spare(Counted::Edit(1)).await,
            "an edit took the last room"
        );
    }

    #[tokio::test]
    async fn a_post_long_after_its_turn_takes_a_turn_of_its_own() {
        let pace = Pace::default();
        for _ in 0..3 {
            pace.take(Counted::Post(1)).await;
        }
        // A turn, used at once: the fifth post of the window goes without waiting.
        pace.reserve(Counted::Post(1)).await;
        let on_time = tokio::time::timeout(Duration::from_millis(100), pace.take(Counted::Post(1)));
        assert!(
            on_time.await.is_ok(),
            "a post on time waited for a second turn"
        );
        // The window is full now; a turn taken and left while a board is drawn slowly does
        // not stand for the post: it waits for room of its own.
        let pace = Pace::default();
        for _ in 0..4 {
            pace.take(Counted::Post(2)).await;
        }
        pace.reserve(Counted::Post(2)).await;
        tokio::time::sleep(RESERVED_FOR + Duration::from_millis(50)).await;
        let late = tokio::time::timeout(Duration::from_millis(300), pace.take(Counted::Post(2)));
        assert!(late.await.is_err(), "a late post used its early turn");
    }
}
