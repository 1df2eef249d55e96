//! Discord's per-channel rate limits, enforced by the fake when a test asks for them
//! ([`FakeDiscord::enforce_limits`]): off by default, since most tests post far faster than
//! Discord allows.
//!
//! What Discord does: every route has a bucket, and a route with a channel in its path has a
//! bucket per channel. Creating messages in a channel (`POST /channels/{id}/messages`) is
//! allowed about five times in five seconds; editing them (`PATCH
//! /channels/{id}/messages/{mid}`) has a bucket of its own, of the same size. A bucket is a
//! fixed window: it opens at the first request, takes `limit` requests, and resets `window`
//! after it opened. Every answer on such a route says where its bucket stands
//! (`X-RateLimit-Limit`, `-Remaining`, `-Reset` in epoch seconds, `-Reset-After` in seconds,
//! `-Bucket`, an opaque id); a request over the limit is answered 429 with `retry_after` (in
//! seconds, a float) in its body, `Retry-After` and `X-RateLimit-Scope: user`, and does not
//! count. Every other request counts, whatever it is answered: Discord counts a 404 too.
//!
//! A bucket can be made tighter than its headers say ([`Limits::advertised`]): the bot then
//! learns of the limit only from the 429s, as it does from Discord's limits that no header
//! announces (a channel's limit shared with others, or one Discord lowered).

use std::collections::HashMap;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::{Value, json};

use super::{FakeDiscord, Recorded, lock};

/// A route with a bucket per channel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Route {
    /// `POST /channels/{id}/messages`.
    CreateMessage,
    /// `PATCH /channels/{id}/messages/{mid}`.
    EditMessage,
}

impl Route {
    /// The route and channel of a request, if it is on a route with a bucket per channel.
    pub fn of(method: &str, path: &str) -> Option<(Route, u64)> {
        let segments: Vec<&str> = path.trim_matches('/').split('/').collect();
        let (route, channel) = match (method, segments.as_slice()) {
            ("POST", ["api", "v10", "channels", channel, "messages"]) => {
                (Route::CreateMessage, channel)
            }
            ("PATCH", ["api", "v10", "channels", channel, "messages", _]) => {
                (Route::EditMessage, channel)
            }
            _ => return None,
        };
        Some((route, channel.parse().ok()?))
    }

    /// The route's `X-RateLimit-Bucket`: opaque, the same for every channel (Discord tells
    /// a channel's bucket from another by the channel in the path).
    fn bucket_id(self) -> &'static str {
        match self {
            Route::CreateMessage => "80c17d2f203122d936070c88c8d10f33",
            Route::EditMessage => "d3a2e1f0c9b8a7968574635241302f1e",
        }
    }
}

/// A fixed window: at most `limit` requests from the first, until `window` has passed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bucket {
    /// Requests a window takes.
    pub limit: u32,
    /// How long after its first request a window resets.
    pub window: Duration,
}

/// The limits the fake enforces, per channel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Messages created in one channel.
    pub create_message: Option<Bucket>,
    /// Messages edited in one channel.
    pub edit_message: Option<Bucket>,
    /// The limit the headers announce, and count `X-RateLimit-Remaining` down from, if not
    /// the bucket's own: a bucket tighter than announced runs out while the headers still
    /// show room.
    pub advertised: Option<u32>,
}

impl Limits {
    /// Discord's: five messages created, and five edited, in five seconds, per channel.
    pub fn discord() -> Limits {
        let bucket = Bucket {
            limit: 5,
            window: Duration::from_secs(5),
        };
        Limits {
            create_message: Some(bucket),
            edit_message: Some(bucket),
            advertised: None,
        }
    }

    fn bucket(&self, route: Route) -> Option<Bucket> {
        match route {
            Route::CreateMessage => self.create_message,
            Route::EditMessage => self.edit_message,
        }
    }
}

/// A request the fake refused for a limit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Throttled {
    /// The channel.
    pub channel: u64,
    /// The route.
    pub route: Route,
    /// When it was refused.
    pub at: Instant,
    /// The `retry_after` it answered (rounded up to the millisecond, as it was written).
    pub retry_after: Duration,
}

/// Where a channel's bucket stands after a request: what the answer's headers say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Standing {
    route: Route,
    /// `X-RateLimit-Limit`.
    limit: u32,
    /// `X-RateLimit-Remaining`.
    remaining: u32,
    /// Until the window resets (rounded up to the millisecond).
    reset_after: Duration,
    /// Refused: the request was over the limit.
    pub(crate) refused: bool,
}

/// One channel's window on one route.
#[derive(Clone, Copy, Debug)]
struct Window {
    opened: Instant,
    used: u32,
}

/// What the fake counts of each channel.
#[derive(Default)]
pub(crate) struct Allowances {
    limits: Option<Limits>,
    /// When the limits were first enforced (requests before are not held against them).
    since: Option<Instant>,
    windows: HashMap<(u64, Route), Window>,
    /// Every request counted, in the order the fake decided.
    counted: Vec<(u64, Route, Instant)>,
    throttled: Vec<Throttled>,
}

impl Allowances {
    /// Counts a request on `route` in `channel` at `now`, or refuses it; `None` if the route
    /// is not limited.
    pub(crate) fn take(&mut self, route: Route, channel: u64, now: Instant) -> Option<Standing> {
        let limits = self.limits?;
        let bucket = limits.bucket(route)?;
        let window = self
            .windows
            .entry((channel, route))
            .and_modify(|w| {
                if now.saturating_duration_since(w.opened) >= bucket.window {
                    *w = Window {
                        opened: now,
                        used: 0,
                    };
                }
            })
            .or_insert(Window {
                opened: now,
                used: 0,
            });
        let refused = window.used >= bucket.limit;
        if !refused {
            window.used += 1;
            self.counted.push((channel, route, now));
        }
        let reset_after =
            to_millis_up((window.opened + bucket.window).saturating_duration_since(now));
        let advertised = limits.advertised.unwrap_or(bucket.limit);
        let standing = Standing {
            route,
            limit: advertised,
            remaining: if refused {
                0
            } else {
                advertised.saturating_sub(window.used)
            },
            reset_after,
            refused,
        };
        if refused {
            self.throttled.push(Throttled {
                channel,
                route,
                at: now,
                retry_after: reset_after,
            });
        }
        Some(standing)
    }
}

/// Rounds up to the millisecond: what is written with three decimals must not be too early.
fn to_millis_up(d: Duration) -> Duration {
    let millis = d.as_nanos().div_ceil(1_000_000);
    Duration::from_millis(u64::try_from(millis).unwrap_or(u64::MAX))
}

impl Standing {
    /// The `X-RateLimit-*` headers of an answer (and a 429's `Retry-After` and scope).
    pub(crate) fn headers(&self) -> Vec<(&'static str, String)> {
        let reset_after = self.reset_after.as_secs_f64();
        let reset = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default()
            .as_secs_f64()
            + reset_after;
        let mut headers = vec![
            ("x-ratelimit-limit", self.limit.to_string()),
            ("x-ratelimit-remaining", self.remaining.to_string()),
            ("x-ratelimit-reset", format!("{reset:.3}")),
            ("x-ratelimit-reset-after", format!("{reset_after:.3}")),
            ("x-ratelimit-bucket", self.route.bucket_id().to_owned()),
        ];
        if self.refused {
            headers.push(("retry-after", format!("{}", reset_after.ceil())));
            headers.push(("x-ratelimit-scope", "user".to_owned()));
        }
        headers
    }

    /// A 429's body: `retry_after` in seconds, as precise as the headers.
    pub(crate) fn body(&self) -> Value {
        json!({"message": "You are being rate limited.",
               "retry_after": self.reset_after.as_secs_f64(), "global": false})
    }
}

impl FakeDiscord {
    /// Enforces `limits` from now on, as Discord does (see the module's notes).
    pub fn enforce_limits(&self, limits: Limits) {
        let mut allowances = lock(&self.inner.allowances);
        allowances.limits = Some(limits);
        allowances.since.get_or_insert_with(Instant::now);
    }

    /// The requests refused for a limit so far, oldest first.
    pub fn throttled(&self) -> Vec<Throttled> {
        lock(&self.inner.allowances).throttled.clone()
    }

    /// What went against the limits (empty if nothing did): more requests counted in a
    /// channel's window than its bucket takes (the fake's own check, from the requests it
    /// counted), and a request on a channel's route that came before the `retry_after` of a
    /// 429 it had been answered there had passed (the bot's fault).
    pub fn limits_broken(&self) -> Vec<String> {
        let log = self.log();
        lock(&self.inner.allowances).broken(&log)
    }
}

impl Allowances {
    /// [`FakeDiscord::limits_broken`], from the requests in `log`.
    fn broken(&self, log: &[Recorded]) -> Vec<String> {
        let Some(limits) = self.limits else {
            return Vec::new();
        };
        let mut broken = Vec::new();
        let mut windows: HashMap<(u64, Route), Window> = HashMap::new();
        for &(channel, route, at) in &self.counted {
            let Some(bucket) = limits.bucket(route) else {
                continue;
            };
            let window = windows.entry((channel, route)).or_insert(Window {
                opened: at,
                used: 0,
            });
            if at.saturating_duration_since(window.opened) >= bucket.window {
                *window = Window {
                    opened: at,
                    used: 0,
                };
            }
            window.used += 1;
            if window.used == bucket.limit + 1 {
                broken.push(format!(
                    "{} {route:?} requests in channel {channel} within {:?} of the window's \
                     first (the limit is {})",
                    window.used, bucket.window, bucket.limit
                ));
            }
        }
        for refusal in &self.throttled {
            let until = refusal.at + refusal.retry_after;
            let early = log.iter().find(|r| {
                Route::of(&r.method, &r.path) == Some((refusal.route, refusal.channel))
                    && r.at > refusal.at
                    && r.at < until
            });
            if let Some(early) = early {
                broken.push(format!(
                    "{} {} came {:?} after a 429 that said to retry after {:?}",
                    early.method,
                    early.path,
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

    fn enforcing(limits: Limits) -> Allowances {
        Allowances {
            limits: Some(limits),
            ..Allowances::default()
        }
    }

    const SECOND: Duration = Duration::from_secs(1);

    #[test]
    fn a_channel_takes_five_messages_in_a_window_that_opens_at_the_first() {
        let mut allowances = enforcing(Limits::discord());
        let start = Instant::now();
        for i in 0..5u32 {
            let standing = allowances
                .take(Route::CreateMessage, 7, start + SECOND * i / 2)
                .expect("limited");
            assert!(!standing.refused, "message {i}");
            assert_eq!(standing.remaining, 4 - i);
            assert_eq!(standing.reset_after, SECOND * 5 - SECOND * i / 2);
        }
        // The sixth waits for the window to reset, five seconds after the first message.
        let at = start + SECOND * 3;
        let refused = allowances
            .take(Route::CreateMessage, 7, at)
            .expect("limited");
        assert!(refused.refused);
        assert_eq!(refused.remaining, 0);
        assert_eq!(refused.reset_after, SECOND * 2);
        assert_eq!(allowances.throttled.len(), 1);
        assert_eq!(allowances.throttled[0].retry_after, SECOND * 2);
        // A fresh window opens at the first request after the reset, and the refusal did not
        // count.
        let at = start + SECOND * 5;
        let standing = allowances
            .take(Route::CreateMessage, 7, at)
            .expect("limited");
        assert!(!standing.refused);
        assert_eq!((standing.remaining, standing.reset_after), (4, SECOND * 5));
        assert_eq!(allowances.counted.len(), 6);
    }

    #[test]
    fn each_channel_and_each_route_has_its_own_bucket() {
        let mut allowances = enforcing(Limits::discord());
        let now = Instant::now();
        for _ in 0..5 {
            allowances.take(Route::CreateMessage, 7, now);
        }
        let take = |allowances: &mut Allowances, route, channel| {
            allowances.take(route, channel, now).map(|s| s.refused)
        };
        assert_eq!(take(&mut allowances, Route::CreateMessage, 7), Some(true));
        assert_eq!(take(&mut allowances, Route::EditMessage, 7), Some(false));
        assert_eq!(take(&mut allowances, Route::CreateMessage, 8), Some(false));
        // Unlimited routes are not counted at all.
        let mut edits_free = enforcing(Limits {
            edit_message: None,
            ..Limits::discord()
        });
        assert_eq!(take(&mut edits_free, Route::EditMessage, 7), None);
        assert_eq!(
            take(&mut Allowances::default(), Route::CreateMessage, 7),
            None
        );
    }

    #[test]
    fn a_bucket_tighter_than_advertised_refuses_while_the_headers_show_room() {
        let mut allowances = enforcing(Limits {
            create_message: Some(Bucket {
                limit: 2,
                window: SECOND * 5,
            }),
            edit_message: None,
            advertised: Some(5),
        });
        let now = Instant::now();
        let remaining: Vec<(u32, bool)> = (0..3)
            .filter_map(|_| allowances.take(Route::CreateMessage, 7, now))
            .map(|s| (s.remaining, s.refused))
            .collect();
        assert_eq!(remaining, [(4, false), (3, false), (0, true)]);
    }

    #[test]
    fn the_headers_say_where_the_bucket_stands_and_a_429_when_to_come_back() {
        let standing = Standing {
            route: Route::CreateMessage,
            limit: 5,
            remaining: 0,
            reset_after: Duration::from_millis(1250),
            refused: true,
        };
        let headers: HashMap<&str, String> = standing.headers().into_iter().collect();
        assert_eq!(headers["x-ratelimit-limit"], "5");
        assert_eq!(headers["x-ratelimit-remaining"], "0");
        assert_eq!(headers["x-ratelimit-reset-after"], "1.250");
        assert_eq!(headers["retry-after"], "2");
        assert_eq!(headers["x-ratelimit-scope"], "user");
        let reset: f64 = headers["x-ratelimit-reset"].parse().expect("epoch seconds");
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .expect("after 1970")
            .as_secs_f64();
        assert!((reset - now - 1.25).abs() < 1.0, "{reset} {now}");
        assert_eq!(
            standing.body(),
            json!({"message": "You are being rate limited.", "retry_after": 1.25, "global": false})
        );
        // A request within the limit says no more than where the bucket stands.
        let accepted = Standing {
            refused: false,
            remaining: 3,
            ..standing
        };
        let names: Vec<&str> = accepted.headers().iter().map(|(name, _)| *name).collect();
        assert!(!names.contains(&"retry-after") && !names.contains(&"x-ratelimit-scope"));
        // Written with three decimals, a wait is never shorter than the window's rest.
        assert_eq!(
            to_millis_up(Duration::from_nanos(1_000_000_001)),
            Duration::from_millis(1001)
        );
    }

    fn request(method: &str, path: &str, at: Instant) -> Recorded {
        Recorded {
            method: method.to_owned(),
            path: path.to_owned(),
            status: 200,
            json: Value::Null,
            files: Vec::new(),
            seen: crate::Seen::Nobody,
            query: String::new(),
            response: Value::Null,
            at,
        }
    }

    #[test]
    fn coming_back_before_a_429s_retry_after_is_against_the_limits() {
        let mut allowances = enforcing(Limits {
            create_message: Some(Bucket {
                limit: 1,
                window: SECOND,
            }),
            edit_message: None,
            advertised: None,
        });
        let start = Instant::now();
        allowances.take(Route::CreateMessage, 7, start);
        let refused = allowances.take(Route::CreateMessage, 7, start + SECOND / 5);
        assert_eq!(refused.map(|s| s.refused), Some(true));
        let posts = "/api/v10/channels/7/messages";
        // After the retry_after, in another channel, or on another route: all fair.
        let fair = [
            request("POST", posts, start + SECOND),
            request("POST", "/api/v10/channels/8/messages", start + SECOND / 2),
            request(
                "PATCH",
                "/api/v10/channels/7/messages/9",
                start + SECOND / 2,
            ),
        ];
        assert_eq!(allowances.broken(&fair), Vec::<String>::new());
        let early = [request("POST", posts, start + SECOND / 2)];
        let broken = allowances.broken(&early);
        assert_eq!(broken.len(), 1, "{broken:?}");
        assert!(broken[0].contains("retry after 800ms"), "{broken:?}");
    }

    #[test]
    fn a_window_that_counted_more_than_its_limit_is_reported() {
        let mut allowances = enforcing(Limits::discord());
        let start = Instant::now();
        for i in 0..6u32 {
            allowances
                .counted
                .push((7, Route::EditMessage, start + SECOND * i / 2));
        }
        let broken = allowances.broken(&[]);
        assert_eq!(broken.len(), 1, "{broken:?}");
        assert!(
            broken[0].starts_with("6 EditMessage requests in channel 7"),
            "{broken:?}"
        );
        // Five, then five more after the window reset: within the limit.
        allowances.counted.truncate(5);
        for i in 0..5u32 {
            allowances
                .counted
                .push((7, Route::EditMessage, start + SECOND * 5 + SECOND * i));
        }
        assert_eq!(allowances.broken(&[]), Vec::<String>::new());
    }

    #[test]
    fn routes_are_read_from_the_method_and_path() {
        assert_eq!(
            Route::of("POST", "/api/v10/channels/70/messages"),
            Some((Route::CreateMessage, 70))
        );
        assert_eq!(
            Route::of("PATCH", "/api/v10/channels/70/messages/99"),
            Some((Route::EditMessage, 70))
        );
        assert_eq!(Route::of("GET", "/api/v10/channels/70/messages/99"), None);
        assert_eq!(Route::of("POST", "/api/v10/webhooks/1/token"), None);
        assert_eq!(Route::of("POST", "/api/v10/channels/x/messages"), None);
    }
}
