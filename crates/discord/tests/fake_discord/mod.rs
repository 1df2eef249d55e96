//! A fake Discord on 127.0.0.1 speaking the real wire formats: the REST routes the adapter
//! uses (gateway lookup, command registration, interaction callbacks as JSON and multipart,
//! webhook follow-ups and edits, DM channels, channel messages) and the WebSocket gateway
//! (HELLO, IDENTIFY, READY, heartbeats and acks, INTERACTION_CREATE dispatches).
//!
//! Every REST request is recorded with its JSON body (or `payload_json`) and its files, and
//! with who could see it (the channel, one user's DMs, one user's ephemeral answers), so that
//! tests can check what each party was shown.

#![allow(dead_code)]

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use axum::Router;
use axum::routing::get;
use serde_json::{Value, json};
use tokio::net::TcpListener;
use tokio::sync::{mpsc, watch};

mod gateway;
mod rest;

/// The bot token the fake accepts.
pub const TOKEN: &str = "fake-token";
pub const APP: u64 = 900_001;
pub const BOT: u64 = 900_002;
pub const GUILD: u64 = 800_001;
/// The guild channel games are played in.
pub const CHANNEL: u64 = 700_001;
const HEARTBEAT_MS: u64 = 500;

/// A member of the fake guild.
#[derive(Clone, Copy, Debug)]
pub struct Member {
    pub id: u64,
    pub name: &'static str,
}

/// Who could see a recorded request's content.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seen {
    /// Everyone in a guild channel.
    Channel(u64),
    /// One user, in their DM channel.
    Direct(u64),
    /// One user, as an ephemeral interaction answer.
    Ephemeral(u64),
    /// Nobody (registration, lookups, deferrals, deletions, autocomplete).
    Nobody,
}

/// One REST request the fake received.
#[derive(Clone, Debug)]
pub struct Recorded {
    pub method: String,
    pub path: String,
    pub status: u16,
    /// The JSON body, or a multipart request's `payload_json`.
    pub json: Value,
    /// Uploaded files: (field name, file name, bytes).
    pub files: Vec<(String, String, Vec<u8>)>,
    pub seen: Seen,
    /// What the fake answered (`null` for 204).
    pub response: Value,
}

impl Recorded {
    pub fn text(&self) -> String {
        self.json.to_string()
    }
}

#[derive(Clone, Copy, Debug)]
struct Pending {
    user: u64,
    channel: u64,
    /// How the interaction was first answered: Some(ephemeral) for a message or deferral.
    ephemeral: Option<bool>,
    answered: bool,
}

pub(super) struct Inner {
    ws_url: String,
    next_id: AtomicU64,
    log: Mutex<Vec<Recorded>>,
    changed: watch::Sender<u64>,
    /// Stored messages by id: (channel, message JSON).
    messages: Mutex<HashMap<u64, (u64, Value)>>,
    dm_channels: Mutex<HashMap<u64, u64>>,
    closed_dms: Mutex<HashSet<u64>>,
    interactions: Mutex<HashMap<String, (u64, Pending)>>,
    throttle_posts: AtomicU32,
    fail_callbacks: AtomicU32,
    gateway: Mutex<Option<mpsc::UnboundedSender<Value>>>,
    seq: AtomicU64,
    pub heartbeats: AtomicU32,
    identifies: AtomicU32,
}

pub(super) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// The fake, running until dropped.
pub struct FakeDiscord {
    inner: Arc<Inner>,
    pub http_url: String,
    server: tokio::task::JoinHandle<()>,
}

impl Drop for FakeDiscord {
    fn drop(&mut self) {
        self.server.abort();
    }
}

impl FakeDiscord {
    pub async fn start() -> FakeDiscord {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("addr");
        let inner = Arc::new(Inner {
            ws_url: format!("ws://{addr}"),
            next_id: AtomicU64::new(1_000_000),
            log: Mutex::new(Vec::new()),
            changed: watch::Sender::new(0),
            messages: Mutex::new(HashMap::new()),
            dm_channels: Mutex::new(HashMap::new()),
            closed_dms: Mutex::new(HashSet::new()),
            interactions: Mutex::new(HashMap::new()),
            throttle_posts: AtomicU32::new(0),
            fail_callbacks: AtomicU32::new(0),
            gateway: Mutex::new(None),
            seq: AtomicU64::new(1),
            heartbeats: AtomicU32::new(0),
            identifies: AtomicU32::new(0),
        });
        let app = Router::new()
            .route("/", get(gateway::upgrade))
            .fallback(rest::api)
            .with_state(Arc::clone(&inner));
        let server = tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        FakeDiscord {
            inner,
            http_url: format!("http://{addr}"),
            server,
        }
    }

    /// Everything recorded so far.
    pub fn log(&self) -> Vec<Recorded> {
        lock(&self.inner.log).clone()
    }

    pub fn heartbeats(&self) -> u32 {
        self.inner.heartbeats.load(Ordering::SeqCst)
    }

    pub fn identifies(&self) -> u32 {
        self.inner.identifies.load(Ordering::SeqCst)
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

    /// Users whose DMs are closed: posting to their DM channel answers 50007.
    pub fn close_dms(&self, user: u64) {
        lock(&self.inner.closed_dms).insert(user);
    }

    /// The next `n` channel posts are answered 429.
    pub fn throttle_posts(&self, n: u32) {
        self.inner.throttle_posts.store(n, Ordering::SeqCst);
    }

    /// The next `n` interaction callbacks are answered 502.
    pub fn fail_callbacks(&self, n: u32) {
        self.inner.fail_callbacks.store(n, Ordering::SeqCst);
    }

    /// The DM channel of a user, once the bot opened it.
    pub fn dm_channel(&self, user: u64) -> Option<u64> {
        lock(&self.inner.dm_channels).get(&user).copied()
    }

    /// A stored message's JSON.
    pub fn message(&self, id: u64) -> Option<Value> {
        lock(&self.inner.messages).get(&id).map(|(_, m)| m.clone())
    }

    fn fresh_id(&self) -> u64 {
        self.inner.next_id.fetch_add(1, Ordering::SeqCst)
    }

    /// A slash command invoked by `who` in the game channel.
    pub fn command(&self, who: Member, name: &str, options: Value, resolved: Value) -> Value {
        self.interaction(
            who,
            2,
            json!({"id": "555", "name": name, "type": 1, "options": options, "resolved": resolved}),
            None,
        )
    }

    /// `/move` autocompletion with `typed` in the focused move option.
    pub fn autocomplete(&self, who: Member, typed: &str) -> Value {
        self.interaction(
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
            .unwrap_or_else(|| message_json(message, CHANNEL, "", json!([])));
        self.interaction(
            who,
            3,
            json!({"custom_id": custom_id, "component_type": 2}),
            Some(message),
        )
    }

    fn interaction(&self, who: Member, kind: u8, data: Value, message: Option<Value>) -> Value {
        let id = self.fresh_id();
        let token = format!("token-{id}");
        lock(&self.inner.interactions).insert(
            token.clone(),
            (
                id,
                Pending {
                    user: who.id,
                    channel: CHANNEL,
                    ephemeral: None,
                    answered: false,
                },
            ),
        );
        let mut interaction = json!({
            "id": id.to_string(),
            "application_id": APP.to_string(),
            "type": kind,
            "data": data,
            "guild_id": GUILD.to_string(),
            "channel_id": CHANNEL.to_string(),
            "channel": {"id": CHANNEL.to_string(), "type": 0, "name": "xiangqi"},
            "member": member_json(who),
            "token": token,
            "version": 1,
            "app_permissions": "2248473465835073",
            "locale": "en-US",
            "guild_locale": "en-US",
            "entitlements": [],
            "authorizing_integration_owners": {"0": GUILD.to_string()},
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

    /// Sends an INTERACTION_CREATE over the gateway.
    pub fn dispatch(&self, interaction: &Value) {
        let gateway = lock(&self.inner.gateway);
        let sender = gateway
            .as_ref()
            .expect("the bot is connected to the gateway");
        sender
            .send(interaction.clone())
            .expect("the gateway session is open");
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

pub fn user_json(who: Member) -> Value {
    json!({"id": who.id.to_string(), "username": who.name, "global_name": null,
           "discriminator": "0", "avatar": null, "public_flags": 0})
}

fn member_json(who: Member) -> Value {
    json!({"user": user_json(who), "nick": null, "avatar": null, "roles": [],
           "joined_at": "2024-01-01T00:00:00.000000+00:00", "premium_since": null,
           "deaf": false, "mute": false, "flags": 0, "pending": false, "permissions": "2248473465835073"})
}

pub(super) fn bot_json() -> Value {
    json!({"id": BOT.to_string(), "username": "jieqi", "global_name": null, "discriminator": "0",
           "avatar": null, "bot": true})
}

pub(super) fn message_json(id: u64, channel: u64, content: &str, components: Value) -> Value {
    json!({
        "id": id.to_string(), "channel_id": channel.to_string(), "author": bot_json(),
        "content": content, "timestamp": "2024-01-01T00:00:00.000000+00:00",
        "edited_timestamp": null, "tts": false, "mention_everyone": false, "mentions": [],
        "mention_roles": [], "attachments": [], "embeds": [], "pinned": false, "type": 0,
        "components": components, "flags": 0
    })
}
