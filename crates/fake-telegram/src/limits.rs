//! Telegram's limits on what a bot sends, enforced by the fake when a test asks for them
//! ([`FakeBotApi::enforce_limits`]): off by default, since most tests post far faster than
//! Telegram allows.
//!
//! What Telegram says: "avoid sending more than one message per second in a particular chat;
//! we may allow short bursts that go over this limit, but eventually you'll begin receiving
//! 429 errors", and "your bot will not be able to send more than 20 messages per minute to the
//! same group". So a chat has a bucket (a short burst, then one a second), and a group at most
//! twenty in any sixty seconds, however they are placed. Every post counts, edits too
//! (`sendMessage`, `sendPhoto`, `sendAnimation`, `sendDocument`, `editMessage*`); a post
//! refused (a 429, a 403) does not. A post over a limit is answered 429 with
//! `parameters.retry_after`: the whole seconds until it would be accepted.

use std::collections::{HashMap, VecDeque};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::{Call, FakeBotApi};

/// The methods that post (and count against the limits).
const POSTING: [&str; 8] = [
    "sendMessage",
    "sendPhoto",
    "sendAnimation",
    "sendDocument",
    "editMessageText",
    "editMessageCaption",
    "editMessageReplyMarkup",
    "editMessageMedia",
];

/// True if `method` posts to a chat (and counts against its limits).
pub fn counts(method: &str) -> bool {
    POSTING.contains(&method)
}

/// Posts to one chat: a bucket of `burst`, refilled one every `every`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bucket {
    pub burst: u32,
    pub every: Duration,
}

/// Posts to one group: at most `count` in any `window`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    pub count: usize,
    pub window: Duration,
}

/// The limits the fake enforces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Every chat, private ones and groups alike.
    pub per_chat: Option<Bucket>,
    /// Groups (the chats added with [`FakeBotApi::add_group`]).
    pub per_group: Option<Window>,
}

impl Limits {
    /// Telegram's: about one a second to a chat (bursts of three), twenty a minute to a group.
    pub fn telegram() -> Limits {
        Limits {
            per_chat: Some(Bucket {
                burst: 3,
                every: Duration::from_secs(1),
            }),
            per_group: Some(Window {
                count: 20,
                window: Duration::from_secs(60),
            }),
        }
    }
}

/// A post the fake refused for a limit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Throttled {
    pub chat: i64,
    pub method: String,
    pub at: Instant,
    /// The `retry_after` it answered, in seconds.
    pub retry_after: u64,
}

/// What the fake counts of each chat.
#[derive(Default)]
pub(crate) struct Allowances {
    pub(crate) limits: Option<Limits>,
    /// When the limits were first enforced (posts before are not held against them).
    since: Option<Instant>,
    /// When the chat's bucket is full again (GCRA's theoretical arrival time).
    full_at: HashMap<i64, Instant>,
    /// The accepted posts to each group within its window.
    recent: HashMap<i64, VecDeque<Instant>>,
    pub(crate) throttled: Vec<Throttled>,
}

impl Allowances {
    /// How long a post to `chat` at `now` must wait, if it must (checked before answering).
    pub(crate) fn wait(&mut self, chat: i64, group: bool, now: Instant) -> Option<Duration> {
        let limits = self.limits?;
        let mut wait = Duration::ZERO;
        if let Some(bucket) = limits.per_chat
            && let Some(full_at) = self.full_at.get(&chat)
        {
            let slack = bucket.every * bucket.burst.saturating_sub(1);
            let allowed_at = full_at.checked_sub(slack).unwrap_or(now);
            wait = wait.max(allowed_at.saturating_duration_since(now));
        }
        if let Some(window) = limits.per_group.filter(|_| group) {
            let recent = self.recent.entry(chat).or_default();
            while recent
                .front()
                .is_some_and(|at| now.saturating_duration_since(*at) >= window.window)
            {
                recent.pop_front();
            }
            if recent.len() >= window.count
                && let Some(oldest) = recent.front()
            {
                wait = wait.max((*oldest + window.window).saturating_duration_since(now));
            }
        }
        (!wait.is_zero()).then_some(wait)
    }

    /// Counts an accepted post to `chat` at `now`.
    pub(crate) fn accepted(&mut self, chat: i64, group: bool, now: Instant) {
        let Some(limits) = self.limits else {
            return;
        };
        if let Some(bucket) = limits.per_chat {
            let full_at = self.full_at.entry(chat).or_insert(now);
            *full_at = (*full_at).max(now) + bucket.every;
        }
        if limits.per_group.is_some() && group {
            self.recent.entry(chat).or_default().push_back(now);
        }
    }
}

/// The answer to a post over a limit: 429 with the whole seconds to wait.
pub(crate) fn too_many(wait: Duration) -> (u16, Value, u64) {
    let retry_after = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
    let retry_after = retry_after.max(1);
    (
        429,
        json!({"ok": false, "error_code": 429,
               "description": format!("Too Many Requests: retry after {retry_after}"),
               "parameters": {"retry_after": retry_after}}),
        retry_after,
    )
}

impl FakeBotApi {
    /// Enforces `limits` from now on, as Telegram does (see the module's notes).
    pub fn enforce_limits(&self, limits: Limits) {
        let mut w = self.world();
        w.allowances.limits = Some(limits);
        w.allowances.since.get_or_insert_with(Instant::now);
    }

    /// The posts refused for a limit so far, oldest first.
    pub fn throttled(&self) -> Vec<Throttled> {
        self.world().allowances.throttled.clone()
    }

    /// What went against the limits (empty if nothing did): a post accepted over a group's
    /// window (the fake's own check, from the calls it answered), and a post to a chat that
    /// came before the `retry_after` of a 429 it had been answered.
    pub fn limits_broken(&self) -> Vec<String> {
        let w = self.world();
        let (Some(limits), Some(since)) = (w.allowances.limits, w.allowances.since) else {
            return Vec::new();
        };
        let mut broken = Vec::new();
        let posts: Vec<&Call> = w
            .calls
            .iter()
            .filter(|c| counts(&c.method) && c.status == 200 && c.at >= since)
            .collect();
        if let Some(window) = limits.per_group {
            for group in w.groups.keys() {
                let times: Vec<Instant> = posts
                    .iter()
                    .filter(|c| c.chat() == Some(*group))
                    .map(|c| c.at)
                    .collect();
                for (i, start) in times.iter().enumerate() {
                    let within = times[i..]
                        .iter()
                        .take_while(|at| at.saturating_duration_since(*start) < window.window)
                        .count();
                    if within > window.count {
                        broken.push(format!(
                            "{within} posts to group {group} within {:?}",
                            window.window
                        ));
                        break;
                    }
                }
            }
        }
        for refusal in &w.allowances.throttled {
            let until = refusal.at + Duration::from_secs(refusal.retry_after);
            if let Some(early) = w.calls.iter().find(|c| {
                counts(&c.method)
                    && c.chat() == Some(refusal.chat)
                    && c.at > refusal.at
                    && c.at < until
            }) {
                broken.push(format!(
                    "{} to {} {:?} after a 429 that said to retry after {} s",
                    early.method,
                    refusal.chat,
                    early.at.saturating_duration_since(refusal.at),
                    refusal.retry_after
                ));
            }
        }
        broken
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_group_takes_twenty_in_any_minute_and_is_told_when_to_come_back() {
        let mut allowances = Allowances {
            limits: Some(Limits::telegram()),
            ..Allowances::default()
        };
        let start = Instant::now();
        let group = -5;
        for i in 0..20u32 {
            // Three seconds apart: the chat's bucket never runs dry.
            let at = start + Duration::from_secs(3) * i;
            assert_eq!(allowances.wait(group, true, at), None, "post {i}");
            allowances.accepted(group, true, at);
        }
        // The 21st within the minute waits until the first is a minute old.
        let at = start + Duration::from_secs(58);
        assert_eq!(
            allowances.wait(group, true, at),
            Some(Duration::from_secs(2))
        );
        let at = start + Duration::from_secs(60);
        assert_eq!(allowances.wait(group, true, at), None);
        assert_eq!(too_many(Duration::from_millis(1500)).2, 2);
    }

    #[test]
    fn a_chat_takes_a_short_burst_then_one_a_second() {
        let mut allowances = Allowances {
            limits: Some(Limits::telegram()),
            ..Allowances::default()
        };
        let now = Instant::now();
        for i in 0..3 {
            assert_eq!(allowances.wait(7, false, now), None, "post {i}");
            allowances.accepted(7, false, now);
        }
        assert_eq!(allowances.wait(7, false, now), Some(Duration::from_secs(1)));
        let later = now + Duration::from_secs(1);
        assert_eq!(allowances.wait(7, false, later), None);
    }
}
