//! # jieqi-fake-discord
//!
//! A fake Discord on 127.0.0.1 speaking the real wire formats, for the tests of the Discord
//! adapter and of the bot binary (several bot processes against one fake): the REST routes
//! the adapter uses (gateway lookup, command registration, interaction callbacks as JSON and
//! multipart, with the interaction callback response when asked `with_response=true` (a
//! `LAUNCH_ACTIVITY` opens an Activity instance in the channel, or joins the one running there,
//! and names it in `resource.activity_instance.id`), webhook follow-ups and edits, DM
//! channels, channel messages) and the WebSocket
//! gateway (HELLO, IDENTIFY with its shard, READY, heartbeats and acks, INTERACTION_CREATE).
//!
//! What it records: every REST request with its JSON body (or `payload_json`), its files
//! (form field, file name, bytes: pictures and other attachments such as a PGN record),
//! when it came and who could see it (the channel, one user's DMs, one user's ephemeral
//! answers); every message it created, with its nonce and when; every IDENTIFY's shard.
//!
//! Discord's semantics it keeps: a message created with `enforce_nonce` and a nonce the bot
//! used in that channel within the last minutes is not created again, the earlier one is
//! returned; an interaction is answered once (40060 after that); the first follow-up sent
//! while a deferral still shows "thinking…" becomes the deferral's answer and keeps its
//! ephemeral flag, whatever flags it asks for (discord-api-docs issue 2742); every uploaded
//! file is a part `files[n]` listed in the payload's `attachments` with id `n` and its file
//! name, and an embed's `attachment://` image names one of them; several gateway
//! connections each get the interactions of their shard, `(guild_id >> 22) % shard_count`.
//!
//! Faults on demand, per channel or for interaction callbacks: 429 with `retry_after`, 5xx,
//! "created, then 502" (a proxy timing out after Discord did the work), "done, then answered
//! late" (the client gives up before the answer), a delay, or a success that exhausts the
//! route's rate limit. Start at [`FakeDiscord::start`].
//!
//! Discord's per-channel rate limits when a test asks ([`FakeDiscord::enforce_limits`] with
//! [`Limits::discord`]; off by default, since most tests post far faster): creating messages
//! and editing them each have a bucket per channel, five requests in a fixed window of five
//! seconds from the first; every answer on those routes carries the `X-RateLimit-*` headers,
//! and a request over the limit is answered 429 with `retry_after` and is not counted. A
//! bucket can be made tighter than its headers say, so that the bot meets 429s.
//! [`FakeDiscord::throttled`] lists the refusals, and [`FakeDiscord::limits_broken`] says
//! whether a window took more than its limit or a request came before a 429's `retry_after`
//! had passed (`limits.rs`).
//!
//! A test-only crate (a dev-dependency). How the tests are organised: `docs/testing.md` in the
//! repository.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use axum::Router;
use axum::routing::get;
use serde_json::{Value, json};
use tokio::net::TcpListener;
use tokio::sync::{mpsc, watch};

mod gateway;
mod limits;
mod oauth;
mod records;
mod rest;

pub use limits::{Bucket, Limits, Route, Throttled};
pub use oauth::{CLIENT_SECRET, OAuthCall, OTHER_APP, OTHER_SECRET};
pub use records::*;

/// The bot token the fake accepts.
pub const TOKEN: &str = "fake-token";
/// The application's id.
pub const APP: u64 = 900_001;
/// The bot user's id.
pub const BOT: u64 = 900_002;
/// The guild games are played in.
pub const GUILD: u64 = 800_001;
/// The guild channel games are played in.
pub const CHANNEL: u64 = 700_001;
const HEARTBEAT_MS: u64 = 500;
/// How long Discord remembers a nonce for `enforce_nonce` ("the past few minutes").
pub const NONCE_WINDOW: Duration = Duration::from_secs(5 * 60);

/// A member of the fake guild.
#[derive(Clone, Copy, Debug)]
pub struct Member {
    /// Their user id.
    pub id: u64,
    /// Their user name.
    pub name: &'static str,
}

/// Three members of the guild.
pub const ALICE: Member = Member {
    id: 111_111,
    name: "alice",
};
/// See [`ALICE`].
pub const BOB: Member = Member {
    id: 222_222,
    name: "bob",
};
/// See [`ALICE`].
pub const CAROL: Member = Member {
    id: 333_333,
    name: "carol",
};

/// Who could see a recorded request's content.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seen {
    /// Everyone in a guild channel.
    Channel(u64),
    /// One user, in their DM channel.
    Direct(u64),
    /// One user, as an ephemeral interaction answer.
    Ephemeral(u64),
    /// Nobody (registration, lookups, deferrals, deletions, autocomplete, failures).
    Nobody,
}

/// One REST request the fake received.
#[derive(Clone, Debug)]
pub struct Recorded {
    /// `GET`, `POST`...
    pub method: String,
    /// `/api/v10/...`
    pub path: String,
    /// What the fake answered.
    pub status: u16,
    /// The JSON body, or a multipart request's `payload_json`.
    pub json: Value,
    /// Uploaded files: (field name, file name, bytes).
    pub files: Vec<(String, String, Vec<u8>)>,
    /// Who could see it.
    pub seen: Seen,
    /// The query string (`with_response=true`), or empty.
    pub query: String,
    /// What the fake answered (`null` for 204).
    pub response: Value,
    /// When the request arrived.
    pub at: Instant,
}

impl Recorded {
    /// The JSON body as text, for `contains` checks.
    pub fn text(&self) -> String {
        self.json.to_string()
    }
}

/// A message the fake created (posted to a channel or a DM channel).
#[derive(Clone, Debug)]
pub struct Created {
    /// The message's id.
    pub id: u64,
    /// Its channel.
    pub channel: u64,
    /// The nonce it was sent with, as text (`None` without one).
    pub nonce: Option<String>,
    /// Whether the nonce was to be enforced.
    pub enforce_nonce: bool,
    /// When it was created.
    pub at: Instant,
    /// The request body that created it.
    pub json: Value,
}

/// Something to go wrong with the next request to a channel, or the next interaction callback.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Fault {
    /// 429 with this `retry_after` (in the body, and rounded up in `Retry-After`); nothing
    /// is created.
    RateLimited(Duration),
    /// This status (a 5xx); nothing is created.
    Status(u16),
    /// The message is created (or the callback takes effect), then the answer is 502: a
    /// proxy timing out after Discord did the work.
    FailAfterCreate,
    /// Answered as usual, after this delay.
    Delay(Duration),
    /// The work is done at once (the message created, the callback taken), and the answer
    /// held back this long: a Discord slow to answer after the fact, whose client gives up
    /// first and cannot tell whether it happened.
    AnswerLate(Duration),
    /// Answered as usual, with `X-RateLimit-Remaining: 0` and this `X-RateLimit-Reset-After`.
    Exhausted(Duration),
}

/// Where a fault strikes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum FaultAt {
    /// Posts and edits in a channel.
    Channel(u64),
    /// Interaction callbacks.
    Callbacks,
}

#[derive(Clone, Copy, Debug)]
struct Pending {
    user: u64,
    channel: u64,
    /// The interaction's type (2 a command, 3 a button).
    kind: u8,
    /// How the interaction was first answered: Some(ephemeral) for a message or deferral.
    ephemeral: Option<bool>,
    answered: bool,
    /// Deferred, and still showing "thinking…" (not yet edited, removed or followed up).
    thinking: bool,
}

/// A stored message.
#[derive(Clone, Debug)]
struct Stored {
    channel: u64,
    json: Value,
    nonce: Option<String>,
    at: Instant,
}

/// One gateway connection after its IDENTIFY.
#[derive(Debug)]
struct Session {
    shard_count: u64,
    dispatches: mpsc::UnboundedSender<Value>,
}

struct Inner {
    ws_url: String,
    next_id: AtomicU64,
    log: Mutex<Vec<Recorded>>,
    changed: watch::Sender<u64>,
    messages: Mutex<HashMap<u64, Stored>>,
    created: Mutex<Vec<Created>>,
    channels: Mutex<HashSet<u64>>,
    dm_channels: Mutex<HashMap<u64, u64>>,
    closed_dms: Mutex<HashSet<u64>>,
    interactions: Mutex<HashMap<String, (u64, Pending)>>,
    faults: Mutex<HashMap<FaultAt, VecDeque<Fault>>>,
    allowances: Mutex<limits::Allowances>,
    recommended_shards: AtomicU32,
    /// Open gateway sessions by shard id.
    sessions: Mutex<HashMap<u64, Session>>,
    /// `[shard id, shard count]` of every IDENTIFY, in order.
    identified: Mutex<Vec<[u64; 2]>>,
    seq: AtomicU64,
    heartbeats: AtomicU32,
    /// The Activity instances (opened by `LAUNCH_ACTIVITY` answers, host pages and tests).
    oauth: Arc<oauth::OAuth>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl Inner {
    fn fresh_id(&self) -> u64 {
        self.next_id.fetch_add(1, Ordering::SeqCst)
    }

    fn take_fault(&self, at: FaultAt) -> Option<Fault> {
        lock(&self.faults).get_mut(&at)?.pop_front()
    }

    fn touched(&self) {
        self.changed.send_modify(|n| *n += 1);
    }
}

/// The fake, running until dropped.
pub struct FakeDiscord {
    inner: Arc<Inner>,
    oauth: Arc<oauth::OAuth>,
    /// Its base URL (`DISCORD_API_URL`).
    pub http_url: String,
    server: tokio::task::JoinHandle<()>,
}

impl std::fmt::Debug for FakeDiscord {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FakeDiscord")
            .field("http_url", &self.http_url)
            .finish_non_exhaustive()
    }
}

impl Drop for FakeDiscord {
    fn drop(&mut self) {
        self.server.abort();
    }
}

impl FakeDiscord {
    /// Starts a fake on a free port of 127.0.0.1.
    pub async fn start() -> FakeDiscord {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("addr");
        let oauth = Arc::new(oauth::OAuth::default());
        let inner = Arc::new(Inner {
            ws_url: format!("ws://{addr}"),
            next_id: AtomicU64::new(1_000_000),
            log: Mutex::new(Vec::new()),
            changed: watch::Sender::new(0),
            messages: Mutex::new(HashMap::new()),
            created: Mutex::new(Vec::new()),
            channels: Mutex::new(HashSet::from([CHANNEL])),
            dm_channels: Mutex::new(HashMap::new()),
            closed_dms: Mutex::new(HashSet::new()),
            interactions: Mutex::new(HashMap::new()),
            faults: Mutex::new(HashMap::new()),
            allowances: Mutex::new(limits::Allowances::default()),
            recommended_shards: AtomicU32::new(1),
            sessions: Mutex::new(HashMap::new()),
            identified: Mutex::new(Vec::new()),
            seq: AtomicU64::new(1),
            heartbeats: AtomicU32::new(0),
            oauth: Arc::clone(&oauth),
        });
        let app = Router::new()
            .route("/", get(gateway::upgrade))
            .fallback(rest::api)
            .with_state(Arc::clone(&inner))
            .merge(oauth::routes(Arc::clone(&oauth)));
        let server = tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        FakeDiscord {
            inner,
            oauth,
            http_url: format!("http://{addr}"),
            server,
        }
    }

    /// A code as Discord's `AUTHORIZE` gives it: for application `app` (use [`OTHER_APP`] for
    /// a code the bot must not be able to use), signing in `user`, exchanged for a token
    /// valid for `token_lifetime` (zero: expired at once).
    pub fn issue_code(&self, app: u64, user: Member, token_lifetime: Duration) -> String {
        self.oauth.issue_code(app, user, token_lifetime)
    }

    /// Opens Activity instance `instance` of application `app` in `channel` with `users` in it
    /// (or adds them, if it is open), as Discord's `activity-instances` route then reports it.
    pub fn open_activity_instance(&self, instance: &str, app: u64, channel: u64, users: &[Member]) {
        let ids: Vec<u64> = users.iter().map(|m| m.id).collect();
        self.oauth.open_instance(instance, app, channel, &ids);
    }

    /// Every request to the OAuth2 routes (token, `/users/@me`, `/applications/@me`,
    /// `activity-instances`) with
    /// the status answered, in order.
    pub fn oauth_calls(&self) -> Vec<OAuthCall> {
        self.oauth.calls()
    }

    /// The address of a host page playing Discord's client for `user` around the Activity at
    /// `activity`, on Activity instance `instance` in the game channel, on `platform`
    /// (`desktop` or `mobile`).
    pub fn activity_host(
        &self,
        activity: &str,
        user: Member,
        instance: &str,
        platform: &str,
    ) -> String {
        let query: String = [
            ("activity", activity.to_owned()),
            ("user", user.id.to_string()),
            ("instance", instance.to_owned()),
            ("platform", platform.to_owned()),
            ("guild", GUILD.to_string()),
            ("channel", CHANNEL.to_string()),
            ("client_id", APP.to_string()),
        ]
        .iter()
        .map(|(k, v)| format!("{k}={}", percent(v)))
        .collect::<Vec<_>>()
        .join("&");
        format!("{}/activity-host?{query}", self.http_url)
    }

    /// The entry point command (`/launch`, `PRIMARY_ENTRY_POINT`) invoked by `who` in the game
    /// channel.
    pub fn entry_point(&self, who: Member) -> Value {
        self.interaction(
            GUILD,
            who,
            2,
            json!({"id": "556", "name": "launch", "type": 4}),
            None,
        )
    }

    /// Every REST request recorded so far.
    pub fn log(&self) -> Vec<Recorded> {
        lock(&self.inner.log).clone()
    }

    /// Every message created so far, in order.
    pub fn created(&self) -> Vec<Created> {
        lock(&self.inner.created).clone()
    }

    /// The messages created in one channel, in order.
    pub fn created_in(&self, channel: u64) -> Vec<Created> {
        self.created()
            .into_iter()
            .filter(|m| m.channel == channel)
            .collect()
    }

    /// Heartbeats received on all gateway connections.
    pub fn heartbeats(&self) -> u32 {
        self.inner.heartbeats.load(Ordering::SeqCst)
    }

    /// How many IDENTIFYs were received.
    pub fn identifies(&self) -> usize {
        lock(&self.inner.identified).len()
    }

    /// `[shard id, shard count]` of every IDENTIFY, in order.
    pub fn identified_shards(&self) -> Vec<[u64; 2]> {
        lock(&self.inner.identified).clone()
    }

    /// The shard count `GET /gateway/bot` recommends (1 unless set).
    pub fn recommend_shards(&self, count: u32) {
        self.inner.recommended_shards.store(count, Ordering::SeqCst);
    }

    /// Waits until `done` holds for the log (at most 60 s), returning the log then.
    pub async fn wait_for(&self, what: &str, done: impl Fn(&[Recorded]) -> bool) -> Vec<Recorded> {
        let mut changes = self.inner.changed.subscribe();
        let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
        loop {
            changes.borrow_and_update();
            let log = self.log();
            if done(&log) {
                return log;
            }
            let wait = tokio::time::timeout_at(deadline, changes.changed()).await;
            if wait.is_err() {
                let paths: Vec<String> = log
                    .iter()
                    .map(|r| format!("{} {} {} {}", r.method, r.path, r.status, r.text()))
                    .collect();
                panic!(
                    "timed out waiting for {what}; the fake received:\n{}",
                    paths.join("\n")
                );
            }
        }
    }

    /// Waits until `count` gateway connections have identified (at most 60 s).
    pub async fn wait_for_shards(&self, count: usize) -> Vec<[u64; 2]> {
        let mut changes = self.inner.changed.subscribe();
        let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
        loop {
            changes.borrow_and_update();
            let shards = self.identified_shards();
            if shards.len() >= count {
                return shards;
            }
            if tokio::time::timeout_at(deadline, changes.changed())
                .await
                .is_err()
            {
                panic!("timed out waiting for {count} shards; identified: {shards:?}");
            }
        }
    }

    /// Another guild channel the bot may post in.
    pub fn add_channel(&self, channel: u64) {
        lock(&self.inner.channels).insert(channel);
    }

    /// Users whose DMs are closed: posting to their DM channel answers 50007.
    pub fn close_dms(&self, user: u64) {
        lock(&self.inner.closed_dms).insert(user);
    }

    /// The next post or edit in `channel` (a guild or DM channel) meets `fault`; faults queue.
    pub fn fault_channel(&self, channel: u64, fault: Fault) {
        self.queue_fault(FaultAt::Channel(channel), fault);
    }

    /// The next interaction callback meets `fault`; faults queue.
    pub fn fault_callbacks(&self, fault: Fault) {
        self.queue_fault(FaultAt::Callbacks, fault);
    }

    fn queue_fault(&self, at: FaultAt, fault: Fault) {
        lock(&self.inner.faults)
            .entry(at)
            .or_default()
            .push_back(fault);
    }

    /// The DM channel of a user, once the bot opened it.
    pub fn dm_channel(&self, user: u64) -> Option<u64> {
        lock(&self.inner.dm_channels).get(&user).copied()
    }

    /// A stored message's JSON (as edited since).
    pub fn message(&self, id: u64) -> Option<Value> {
        lock(&self.inner.messages).get(&id).map(|m| m.json.clone())
    }

    /// A slash command invoked by `who` in the game channel.
    pub fn command(&self, who: Member, name: &str, options: Value, resolved: Value) -> Value {
        self.command_in(GUILD, who, name, options, resolved)
    }

    /// A slash command invoked by `who` in the game channel of another guild (whose
    /// interactions go to the gateway connection of that guild's shard).
    pub fn command_in(
        &self,
        guild: u64,
        who: Member,
        name: &str,
        options: Value,
        resolved: Value,
    ) -> Value {
        self.interaction(
            guild,
            who,
            2,
            json!({"id": "555", "name": name, "type": 1, "options": options, "resolved": resolved}),
            None,
        )
    }

    /// `/move` autocompletion with `typed` in the focused move option.
    pub fn autocomplete(&self, who: Member, typed: &str) -> Value {
        self.interaction(
            GUILD,
            who,
            4,
            json!({"id": "555", "name": "move", "type": 1,
                   "options": [{"name": "move", "type": 3, "value": typed, "focused": true}]}),
            None,
        )
    }

    /// `who` pressing the button `custom_id` under the stored message `message`.
    pub fn button(&self, who: Member, custom_id: &str, message: u64) -> Value {
        let message = self
            .message(message)
            .unwrap_or_else(|| message_json(message, CHANNEL, "", json!([]), None));
        self.interaction(
            GUILD,
            who,
            3,
            json!({"custom_id": custom_id, "component_type": 2}),
            Some(message),
        )
    }

    fn interaction(
        &self,
        guild: u64,
        who: Member,
        kind: u8,
        data: Value,
        message: Option<Value>,
    ) -> Value {
        let id = self.inner.fresh_id();
        let token = format!("token-{id}");
        lock(&self.inner.interactions).insert(
            token.clone(),
            (
                id,
                Pending {
                    user: who.id,
                    channel: CHANNEL,
                    kind,
                    ephemeral: None,
                    answered: false,
                    thinking: false,
                },
            ),
        );
        let mut interaction = json!({
            "id": id.to_string(),
            "application_id": APP.to_string(),
            "type": kind,
            "data": data,
            "guild_id": guild.to_string(),
            "channel_id": CHANNEL.to_string(),
            "channel": {"id": CHANNEL.to_string(), "type": 0, "name": "xiangqi"},
            "member": member_json(who),
            "token": token,
            "version": 1,
            "app_permissions": "2248473465835073",
            "locale": "en-US",
            "guild_locale": "en-US",
            "entitlements": [],
            "authorizing_integration_owners": {"0": guild.to_string()},
            "context": 0,
            "attachment_size_limit": 10_485_760
        });
        if let Some(message) = message {
            interaction["message"] = message;
        }
        // serenity drops events it cannot read without a word: check ours are readable.
        if let Err(e) = serde_json::from_value::<serenity::all::Interaction>(interaction.clone()) {
            panic!("serenity cannot read this interaction: {e}\n{interaction}");
        }
        interaction
    }

    /// Sends an INTERACTION_CREATE over the gateway connection of the interaction's shard:
    /// `(guild_id >> 22) % shard_count`, shard 0 outside guilds.
    pub fn dispatch(&self, interaction: &Value) {
        if !self.try_dispatch(interaction) {
            panic!(
                "no open gateway connection has the shard of guild {}; connected shards: {:?}",
                interaction["guild_id"],
                lock(&self.inner.sessions).keys().collect::<Vec<_>>()
            );
        }
    }

    /// [`FakeDiscord::dispatch`], but false instead of a panic when no open gateway
    /// connection has the interaction's shard (its bot process is down): as Discord, the
    /// interaction is then not delivered.
    pub fn try_dispatch(&self, interaction: &Value) -> bool {
        let guild = interaction["guild_id"]
            .as_str()
            .and_then(|g| g.parse::<u64>().ok());
        let sessions = lock(&self.inner.sessions);
        sessions
            .iter()
            .find(|(shard, session)| {
                let wanted = guild.map_or(0, |g| (g >> 22) % session.shard_count.max(1));
                **shard == wanted
            })
            .is_some_and(|(_, session)| session.dispatches.send(interaction.clone()).is_ok())
    }

    /// Whether an interaction got its whole first answer ([`settled`]), reading only the
    /// requests that answer it.
    pub fn is_settled(&self, interaction: &Value) -> bool {
        let token = interaction["token"].as_str().unwrap_or_default();
        let mine: Vec<Recorded> = lock(&self.inner.log)
            .iter()
            .filter(|r| r.path.contains(token))
            .cloned()
            .collect();
        settled(&mine, token)
    }

    /// The recorded requests answering one interaction (callback, follow-ups, edits).
    pub fn answers(&self, interaction: &Value) -> Vec<Recorded> {
        let token = interaction["token"].as_str().unwrap_or_default().to_owned();
        let id = interaction["id"].as_str().unwrap_or_default().to_owned();
        self.log()
            .into_iter()
            .filter(|r| r.path.contains(&token) || r.path.contains(&format!("/interactions/{id}/")))
            .collect()
    }
}

/// `text` made safe for a query string.
fn percent(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// A user object.
pub fn user_json(who: Member) -> Value {
    json!({"id": who.id.to_string(), "username": who.name, "global_name": null,
           "discriminator": "0", "avatar": null, "public_flags": 0})
}

fn member_json(who: Member) -> Value {
    json!({"user": user_json(who), "nick": null, "avatar": null, "roles": [],
           "joined_at": "2024-01-01T00:00:00.000000+00:00", "premium_since": null,
           "deaf": false, "mute": false, "flags": 0, "pending": false, "permissions": "2248473465835073"})
}

fn bot_json() -> Value {
    json!({"id": BOT.to_string(), "username": "jieqi", "global_name": null, "discriminator": "0",
           "avatar": null, "bot": true})
}

fn message_json(
    id: u64,
    channel: u64,
    content: &str,
    components: Value,
    nonce: Option<&str>,
) -> Value {
    let mut message = json!({
        "id": id.to_string(), "channel_id": channel.to_string(), "author": bot_json(),
        "content": content, "timestamp": "2024-01-01T00:00:00.000000+00:00",
        "edited_timestamp": null, "tts": false, "mention_everyone": false, "mentions": [],
        "mention_roles": [], "attachments": [], "embeds": [], "pinned": false, "type": 0,
        "components": components, "flags": 0
    });
    if let Some(nonce) = nonce {
        message["nonce"] = json!(nonce);
    }
    message
}
