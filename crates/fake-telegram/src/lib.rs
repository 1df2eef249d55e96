//! A fake Telegram Bot API server on 127.0.0.1 for end-to-end tests through the real teloxide
//! client. It speaks the wire format: `POST /bot<token>/<method>` with JSON or multipart
//! bodies, answers in the `{"ok":true,"result":...}` envelope, and refuses the way Telegram
//! does (`{"ok":false,"error_code":403,"description":"Forbidden: ..."}`, 429 with
//! `parameters.retry_after`). It plays the people too: they send messages and press buttons
//! (updates queued for `getUpdates`), and it remembers every request the bot made, with the
//! name and bytes of every uploaded file (pictures, animations, documents).
//!
//! Shared by the adapter's own tests (`jieqi-telegram`) and the bot's multi-process tests:
//! faults can be injected per chat and method (429 with `retry_after`, 5xx, slow answers),
//! every post is kept with the time it was made, repeated posts can be counted, and updates
//! can be posted to a webhook with Telegram's secret header instead of being queued for
//! `getUpdates`. Telegram's rate limits (a chat, a group) are enforced when a test asks
//! ([`FakeBotApi::enforce_limits`], `limits.rs`).
//!
//! A test-only crate (a dev-dependency). How the tests are organised: `docs/testing.md` in the
//! repository.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use axum::Router;
use axum::routing::post;
use serde_json::{Map, Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::Notify;
use url::Url;

mod limits;
mod wire;

pub use limits::{Bucket, Limits, Throttled, Window, counts as counts_against_limits};

/// The header in which Telegram repeats a webhook's secret token.
pub const SECRET_HEADER: &str = "X-Telegram-Bot-Api-Secret-Token";

pub const TOKEN: &str = "4242:TEST-token";
pub const BOT_ID: i64 = 4242;
pub const BOT_USERNAME: &str = "JieqiTestBot";

/// One request the bot made.
#[derive(Clone, Debug)]
pub struct Call {
    pub method: String,
    /// The parameters, JSON values (multipart text fields parsed as JSON where they are).
    pub params: Map<String, Value>,
    /// Uploaded files, in the order of their parts.
    pub files: Vec<Upload>,
    /// The HTTP status answered.
    pub status: u16,
    /// When it arrived.
    pub at: Instant,
}

impl Call {
    pub fn chat(&self) -> Option<i64> {
        self.params.get("chat_id").and_then(as_i64)
    }

    pub fn str(&self, key: &str) -> Option<&str> {
        self.params.get(key).and_then(Value::as_str)
    }

    /// Everything a person could read in it: text, caption, button labels and data.
    pub fn visible_text(&self) -> String {
        let mut out = String::new();
        for key in ["text", "caption"] {
            if let Some(t) = self.str(key) {
                out.push_str(t);
                out.push('\n');
            }
        }
        if let Some(media) = self.params.get("media")
            && let Some(c) = media.get("caption").and_then(Value::as_str)
        {
            out.push_str(c);
            out.push('\n');
        }
        if let Some(markup) = self.params.get("reply_markup") {
            out.push_str(&markup.to_string());
        }
        out
    }
}

/// A file part of a multipart request: a picture, an animation or a document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Upload {
    /// The form field it came in (`photo`, `document`, or the part an `attach://` names).
    pub field: String,
    /// The file name the part carried.
    pub file_name: String,
    pub bytes: Vec<u8>,
}

/// A message the bot posted (as it stands after edits).
#[derive(Clone, Debug)]
pub struct Post {
    pub chat: i64,
    pub message_id: i64,
    pub thread: Option<i64>,
    pub text: String,
    pub photo: Option<Vec<u8>>,
    pub markup: Value,
    pub reply_to: Option<i64>,
    /// Sent with `sendAnimation` (a GIF that plays), not `sendPhoto`.
    pub animation: bool,
    /// The file sent with `sendDocument` (its name and bytes); `text` is its caption.
    pub document: Option<Upload>,
    /// When it was posted.
    pub at: Instant,
}

impl Post {
    /// The callback data, URL or Mini App URL (`web_app`) of every button.
    pub fn buttons(&self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        if let Some(rows) = self.markup.get("inline_keyboard").and_then(Value::as_array) {
            for row in rows {
                for b in row.as_array().into_iter().flatten() {
                    let label = b
                        .get("text")
                        .and_then(Value::as_str)
                        .unwrap_or_default()
                        .to_owned();
                    let target = b
                        .get("callback_data")
                        .or_else(|| b.get("url"))
                        .or_else(|| b.get("web_app").and_then(|app| app.get("url")))
                        .and_then(Value::as_str)
                        .unwrap_or_default()
                        .to_owned();
                    out.push((label, target));
                }
            }
        }
        out
    }

    /// (label, URL) of every button that opens a Mini App (`web_app`).
    pub fn web_apps(&self) -> Vec<(String, String)> {
        let rows = self.markup.get("inline_keyboard").and_then(Value::as_array);
        rows.into_iter()
            .flatten()
            .flat_map(|row| row.as_array().cloned().unwrap_or_default())
            .filter_map(|b| {
                let url = b.get("web_app")?.get("url")?.as_str()?.to_owned();
                let label = b.get("text").and_then(Value::as_str).unwrap_or_default();
                Some((label.to_owned(), url))
            })
            .collect()
    }

    pub fn button_starting(&self, prefix: &str) -> Option<String> {
        self.buttons()
            .into_iter()
            .map(|(_, t)| t)
            .find(|t| t.starts_with(prefix))
    }
}

/// How to refuse some requests.
#[derive(Clone, Debug)]
pub struct Fault {
    /// Which method (e.g. "sendPhoto").
    pub method: String,
    /// Only requests to this chat, if set.
    pub chat: Option<i64>,
    /// How many requests to refuse.
    pub times: u32,
    /// HTTP status and body.
    pub status: u16,
    pub body: Value,
    /// How long to wait before answering.
    pub delay: Duration,
}

impl Fault {
    pub fn too_many_requests(
        method: &str,
        chat: Option<i64>,
        times: u32,
        retry_after: u64,
    ) -> Fault {
        Fault {
            method: method.to_owned(),
            chat,
            times,
            status: 429,
            body: json!({"ok": false, "error_code": 429,
                         "description": format!("Too Many Requests: retry after {retry_after}"),
                         "parameters": {"retry_after": retry_after}}),
            delay: Duration::ZERO,
        }
    }

    /// A server error (500, 502...) as Telegram's front end answers it.
    pub fn server_error(method: &str, chat: Option<i64>, times: u32, status: u16) -> Fault {
        Fault {
            method: method.to_owned(),
            chat,
            times,
            status,
            body: json!({"ok": false, "error_code": status,
                         "description": format!("Internal Server Error ({status})")}),
            delay: Duration::ZERO,
        }
    }

    /// Requests answered normally, but only after `delay`.
    pub fn slow(method: &str, chat: Option<i64>, times: u32, delay: Duration) -> Fault {
        Fault {
            method: method.to_owned(),
            chat,
            times,
            status: 200,
            body: Value::Null,
            delay,
        }
    }
}

#[derive(Default)]
struct World {
    users: HashMap<i64, Value>,
    groups: HashMap<i64, Value>,
    /// People who opened the private chat with the bot.
    started: HashSet<i64>,
    blocked: HashSet<i64>,
    next_update: u32,
    /// Updates not yet confirmed.
    updates: VecDeque<(u32, Value)>,
    /// getUpdates calls with an offset above this are answered 429 without confirming
    /// anything: as if the bot crashed before its next call reached Telegram.
    confirm_barrier: Option<u32>,
    next_message: i64,
    posts: Vec<Post>,
    calls: Vec<Call>,
    faults: Vec<Fault>,
    queries: HashMap<String, bool>,
    /// How often each update was handed out by getUpdates.
    handed_out: HashMap<u32, u32>,
    next_query: u64,
    webhook: Option<(String, String)>,
    /// The message of each update made by [`FakeBotApi::say_full`], for later edits.
    said: HashMap<u32, Value>,
    /// (group, user): who administers which group (getChatMember says "creator").
    admins: HashSet<(i64, i64)>,
    /// Telegram's limits, if enforced, and what was counted against them.
    allowances: limits::Allowances,
    /// The clock people's messages are dated by, if not the system's
    /// ([`FakeBotApi::set_clock`]).
    clock: Option<PeoplesClock>,
}

/// The time as the people (and Telegram's servers) read it.
type PeoplesClock = Arc<dyn Fn() -> SystemTime + Send + Sync>;

/// The running fake.
pub struct FakeBotApi {
    pub url: Url,
    world: Arc<Mutex<World>>,
    changed: Arc<Notify>,
    server: tokio::task::JoinHandle<()>,
}

impl std::fmt::Debug for FakeBotApi {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FakeBotApi")
            .field("url", &self.url.as_str())
            .finish_non_exhaustive()
    }
}

impl Drop for FakeBotApi {
    fn drop(&mut self) {
        self.server.abort();
    }
}

#[derive(Clone)]
struct Shared {
    world: Arc<Mutex<World>>,
    changed: Arc<Notify>,
}

fn now() -> i64 {
    unix_seconds(SystemTime::now())
}

fn unix_seconds(at: SystemTime) -> i64 {
    at.duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

impl World {
    /// Now, as a message by one of the people is dated.
    fn now(&self) -> i64 {
        self.clock
            .as_ref()
            .map_or_else(now, |clock| unix_seconds(clock()))
    }
}

fn as_i64(v: &Value) -> Option<i64> {
    v.as_i64()
        .or_else(|| v.as_str().and_then(|s| s.parse().ok()))
}

impl FakeBotApi {
    pub async fn start() -> FakeBotApi {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let addr = listener.local_addr().expect("addr");
        let shared = Shared {
            world: Arc::new(Mutex::new(World {
                next_update: 100,
                next_message: 1000,
                ..World::default()
            })),
            changed: Arc::new(Notify::new()),
        };
        let app = Router::new()
            .route("/{bot}/{method}", post(wire::api))
            .with_state(shared.clone());
        let server = tokio::spawn(async move {
            axum::serve(listener, app).await.expect("fake server");
        });
        FakeBotApi {
            url: Url::parse(&format!("http://{addr}/")).expect("url"),
            world: shared.world,
            changed: shared.changed,
            server,
        }
    }

    fn world(&self) -> MutexGuard<'_, World> {
        self.world.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub fn add_user(&self, id: i64, first_name: &str, username: Option<&str>) {
        let mut user =
            json!({"id": id, "is_bot": false, "first_name": first_name, "language_code": "en"});
        if let Some(u) = username {
            user["username"] = json!(u);
        }
        self.world().users.insert(id, user);
    }

    pub fn add_group(&self, id: i64, title: &str) {
        self.world()
            .groups
            .insert(id, json!({"id": id, "type": "supergroup", "title": title}));
    }

    /// The language the user's client is set to (`en` unless told).
    pub fn set_language(&self, user: i64, code: &str) {
        if let Some(u) = self.world().users.get_mut(&user) {
            u["language_code"] = json!(code);
        }
    }

    /// Dates the people's messages and button presses by `clock` rather than the system's
    /// clock: a test that moves the bot's clock ahead (an arena's ten minutes in a moment)
    /// moves Telegram's with it, as the bot reads a command's time from its date.
    pub fn set_clock(&self, clock: impl Fn() -> SystemTime + Send + Sync + 'static) {
        self.world().clock = Some(Arc::new(clock));
    }

    /// Makes `user` an administrator of `group`, as getChatMember will tell.
    pub fn make_admin(&self, group: i64, user: i64) {
        self.world().admins.insert((group, user));
    }

    pub fn block(&self, user: i64) {
        self.world().blocked.insert(user);
    }

    /// Refuses or delays requests as `fault` says (its method `"*"`: every method).
    pub fn inject(&self, fault: Fault) {
        self.world().faults.push(fault);
    }

    /// Takes back every fault not yet used up.
    pub fn clear_faults(&self) {
        self.world().faults.clear();
    }

    /// The id the next update will get.
    pub fn next_update_id(&self) -> u32 {
        self.world().next_update + 1
    }

    pub fn set_confirm_barrier(&self, barrier: Option<u32>) {
        self.world().confirm_barrier = barrier;
    }

    /// `user` writes `text` in `chat` (their own id for the private chat), optionally replying
    /// to `reply_to` (a message id in that chat). Returns the update id.
    pub fn say(&self, user: i64, chat: i64, text: &str) -> u32 {
        self.say_full(user, chat, text, None, None)
    }

    pub fn say_full(
        &self,
        user: i64,
        chat: i64,
        text: &str,
        reply_to: Option<Value>,
        thread: Option<i64>,
    ) -> u32 {
        let mut w = self.world();
        let message = new_message(&mut w, user, chat, text, reply_to, thread);
        let id = w.push_update(json!({"message": message.clone()}));
        w.said.insert(id, message);
        drop(w);
        self.changed.notify_waiters();
        id
    }

    /// The update Telegram would send for `user` writing `text` in `chat`, with its own update
    /// id but not queued for `getUpdates`: for [`post_to_webhook`].
    pub fn message_update(&self, user: i64, chat: i64, text: &str) -> Value {
        let mut w = self.world();
        let message = new_message(&mut w, user, chat, text, None, None);
        w.next_update += 1;
        json!({"update_id": w.next_update, "message": message})
    }

    /// The author of the message of update `said` edits it into `text` (an `edited_message`
    /// update with an id of its own). Returns the new update's id.
    pub fn edit(&self, said: u32, text: &str) -> u32 {
        let mut w = self.world();
        let mut message = w.said.get(&said).cloned().expect("a message said before");
        message["text"] = json!(text);
        message["edit_date"] = json!(w.now());
        set_command_entity(&mut message, text);
        let id = w.push_update(json!({"edited_message": message.clone()}));
        w.said.insert(id, message);
        drop(w);
        self.changed.notify_waiters();
        id
    }

    /// A message by `user` in `chat` as it appears in `reply_to_message`.
    pub fn message_by(&self, user: i64, chat: i64, text: &str) -> Value {
        let mut w = self.world();
        w.next_message += 1;
        json!({"message_id": w.next_message, "date": w.now(), "chat": chat_json(&w, chat).expect("chat"),
               "from": w.users.get(&user).cloned().expect("user"), "text": text})
    }

    /// `user` presses the button with `data` under `post`. Returns the callback query id.
    pub fn press(&self, user: i64, post: &Post, data: &str) -> String {
        let mut w = self.world();
        let (query, update) = press_json(&mut w, user, post, data);
        w.push_update(update);
        drop(w);
        self.changed.notify_waiters();
        query
    }

    /// The update of `user` pressing the button with `data` under `post`, to post to a
    /// webhook (as [`FakeBotApi::message_update`] is for a message).
    pub fn press_update(&self, user: i64, post: &Post, data: &str) -> Value {
        let mut w = self.world();
        let (_, mut update) = press_json(&mut w, user, post, data);
        w.next_update += 1;
        update["update_id"] = json!(w.next_update);
        update
    }

    /// Posts whose chat, text and picture repeat an earlier post's (a message sent twice).
    pub fn duplicates(&self) -> Vec<Post> {
        let posts = self.posts();
        posts
            .iter()
            .enumerate()
            .filter(|(i, p)| {
                posts[..*i]
                    .iter()
                    .any(|q| q.chat == p.chat && q.text == p.text && q.photo == p.photo)
            })
            .map(|(_, p)| p.clone())
            .collect()
    }

    pub fn calls(&self) -> Vec<Call> {
        self.world().calls.clone()
    }

    pub fn posts(&self) -> Vec<Post> {
        self.world().posts.clone()
    }

    pub fn posts_in(&self, chat: i64) -> Vec<Post> {
        self.posts()
            .into_iter()
            .filter(|p| p.chat == chat)
            .collect()
    }

    pub fn webhook(&self) -> Option<(String, String)> {
        self.world().webhook.clone()
    }

    /// How often getUpdates handed out update `id`.
    pub fn times_handed_out(&self, id: u32) -> u32 {
        self.world().handed_out.get(&id).copied().unwrap_or(0)
    }

    /// True once every queued update is confirmed.
    pub fn all_confirmed(&self) -> bool {
        self.world().updates.is_empty()
    }

    /// Waits until `check` holds (re-checked on every request the fake answers), or panics
    /// after `timeout` saying what was awaited.
    pub async fn wait_for(
        &self,
        what: &str,
        timeout: Duration,
        mut check: impl FnMut(&FakeBotApi) -> bool,
    ) {
        let deadline = Instant::now() + timeout;
        loop {
            let changed = self.changed.notified();
            if check(self) {
                return;
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                let calls: Vec<String> = self
                    .calls()
                    .iter()
                    .rev()
                    .filter(|c| c.method != "getUpdates")
                    .take(12)
                    .map(|c| format!("{} {} {:.200}", c.status, c.method, c.visible_text()))
                    .collect();
                panic!(
                    "timed out waiting for {what}; last calls (newest first):\n{}",
                    calls.join("\n")
                );
            }
            let _ = tokio::time::timeout(left.min(Duration::from_millis(200)), changed).await;
        }
    }
}

impl World {
    fn push_update(&mut self, mut body: Value) -> u32 {
        self.next_update += 1;
        let id = self.next_update;
        body["update_id"] = json!(id);
        self.updates.push_back((id, body));
        id
    }
}

/// A callback query of `user` pressing `data` under `post` (a new query id) and its id, as
/// an update without its `update_id`.
fn press_json(w: &mut World, user: i64, post: &Post, data: &str) -> (String, Value) {
    let from = w.users.get(&user).cloned().expect("known user");
    w.next_query += 1;
    let query = format!("q{}", w.next_query);
    w.queries.insert(query.clone(), false);
    let mut message = json!({
        "message_id": post.message_id, "date": w.now(), "chat": chat_json(w, post.chat).expect("chat"),
        "from": bot_user(),
    });
    if post.photo.is_some() {
        message["photo"] = photo_sizes(post.photo.as_deref().unwrap_or_default());
        message["caption"] = json!(post.text);
    } else if let Some(document) = &post.document {
        message["document"] = document_json(document);
        message["caption"] = json!(post.text);
    } else {
        message["text"] = json!(post.text);
    }
    let update = json!({"callback_query": {
        "id": query, "from": from, "chat_instance": format!("ci{}", post.chat),
        "data": data, "message": message
    }});
    (query, update)
}

fn new_message(
    w: &mut World,
    user: i64,
    chat: i64,
    text: &str,
    reply_to: Option<Value>,
    thread: Option<i64>,
) -> Value {
    let from = w.users.get(&user).cloned().expect("known user");
    let chat_json = chat_json(w, chat).expect("known chat");
    if chat == user {
        w.started.insert(user);
    }
    w.next_message += 1;
    let mut message = json!({
        "message_id": w.next_message, "date": w.now(), "chat": chat_json, "from": from, "text": text
    });
    set_command_entity(&mut message, text);
    if let Some(reply) = reply_to {
        message["reply_to_message"] = reply;
    }
    if let Some(thread) = thread {
        message["message_thread_id"] = json!(thread);
        message["is_topic_message"] = json!(true);
    }
    message
}

fn set_command_entity(message: &mut Value, text: &str) {
    if let Some(object) = message.as_object_mut() {
        object.remove("entities");
    }
    if text.starts_with('/') {
        let len = text
            .split_whitespace()
            .next()
            .map(|c| c.encode_utf16().count())
            .unwrap_or(0);
        message["entities"] = json!([{"type": "bot_command", "offset": 0, "length": len}]);
    }
}

/// Posts `update` to the webhook at `url` (plain http) as Telegram would, with `secret` in
/// [`SECRET_HEADER`] if given; `body` overrides the JSON (to send something malformed).
/// Returns the HTTP status, 0 if the answer was unreadable.
pub async fn post_to_webhook(url: &Url, secret: Option<&str>, body: &str) -> u16 {
    let host = url.host_str().unwrap_or("127.0.0.1");
    let port = url.port_or_known_default().unwrap_or(80);
    let secret_line = secret
        .map(|s| format!("{SECRET_HEADER}: {s}\r\n"))
        .unwrap_or_default();
    let request = format!(
        "POST {} HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: application/json\r\n\
         {secret_line}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        url.path(),
        body.len()
    );
    let Ok(mut stream) = tokio::net::TcpStream::connect((host, port)).await else {
        return 0;
    };
    if stream.write_all(request.as_bytes()).await.is_err() {
        return 0;
    }
    let mut response = String::new();
    let read = tokio::time::timeout(
        Duration::from_secs(120),
        stream.read_to_string(&mut response),
    )
    .await;
    if !matches!(read, Ok(Ok(_))) {
        return 0;
    }
    response
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or(0)
}

fn bot_user() -> Value {
    json!({"id": BOT_ID, "is_bot": true, "first_name": "Jieqi", "username": BOT_USERNAME})
}

fn chat_json(w: &World, chat: i64) -> Option<Value> {
    if let Some(group) = w.groups.get(&chat) {
        return Some(group.clone());
    }
    let user = w.users.get(&chat)?;
    let mut private = json!({"id": chat, "type": "private", "first_name": user["first_name"]});
    if let Some(u) = user.get("username") {
        private["username"] = u.clone();
    }
    Some(private)
}

fn photo_sizes(bytes: &[u8]) -> Value {
    json!([{"file_id": format!("photo{}", bytes.len()), "file_unique_id": format!("u{}", bytes.len()),
            "width": 480, "height": 540, "file_size": bytes.len()}])
}

/// A document as the `document` field of a message.
fn document_json(document: &Upload) -> Value {
    let size = document.bytes.len();
    json!({"file_id": format!("doc{size}"), "file_unique_id": format!("d{size}"),
           "file_name": document.file_name, "mime_type": "application/octet-stream",
           "file_size": size})
}

fn ok(result: Value) -> (u16, Value) {
    (200, json!({"ok": true, "result": result}))
}

fn refuse(code: u16, description: &str) -> (u16, Value) {
    (
        code,
        json!({"ok": false, "error_code": code, "description": description}),
    )
}
