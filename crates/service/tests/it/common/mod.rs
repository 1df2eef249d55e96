//! A chat simulator for the scenario tests: users, chats, requests with fresh idempotency
//! keys and a fake clock, and a delivery that collects every outbox message.

#![allow(dead_code)]

pub mod deals;
pub mod puzzles;

use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use jieqi_service::{
    Answer, ButtonAction, ChatId, DealSource, Destination, GameStore, IdempotencyKey, Input,
    Message, MessageKind, OutboxEntry, Platform, Request, Service, ServiceConfig, SledStore, User,
    UserId,
};
use jieqi_store_pg::testing::{TestStore, test_store};

/// Set to `postgres` to run the sled binaries' scenarios on PostgreSQL (`TEST_DATABASE_URL`)
/// instead; the `…_on_postgres` binaries always do.
pub const STORE_VARIABLE: &str = "JIEQI_TEST_STORE";

/// True when the scenarios run on PostgreSQL: in a test binary named `…_on_postgres`
/// (`tests/scenarios_on_postgres.rs`, `tests/stored_verdicts_on_postgres.rs`: the same scenario
/// files compiled a second time, so that one test run takes both stores side by side), or when
/// `JIEQI_TEST_STORE=postgres`.
pub fn on_postgres() -> bool {
    env!("CARGO_CRATE_NAME").ends_with("_on_postgres")
        || std::env::var(STORE_VARIABLE).is_ok_and(|v| v == "postgres")
}

/// The start of the fake clock.
pub const T0: u64 = 1_700_000_000;

pub struct Harness {
    pub service: Service,
    pub store: Arc<dyn GameStore>,
    pub dir: Option<tempfile::TempDir>,
    /// The PostgreSQL schema the scenario runs in, when it runs on PostgreSQL.
    pub pg: Option<TestStore>,
    pub config: ServiceConfig,
    next_key: u64,
    pub now: SystemTime,
    /// The services' wall clock (`ServiceConfig::wall_clock`): `now`, kept in step with it,
    /// so that live games' timers read the scenario's clock.
    pub wall: Arc<std::sync::Mutex<ScenarioClock>>,
    /// Every message delivered so far, in order.
    pub delivered: Vec<OutboxEntry>,
    /// Every edit greying out an old board's buttons delivered so far (left out of
    /// `delivered` and of what [`Harness::deliver`] returns: the scenarios are about what
    /// the chats are told).
    pub greyed: Vec<OutboxEntry>,
    /// People who are not admins of the group chats (everyone else is).
    pub non_admins: Vec<UserId>,
}

/// The scenario's clock: the instant the scenario set, and once it runs in real time
/// ([`Harness::run_in_real_time`]) the real time passed since then.
#[derive(Clone, Copy, Debug)]
pub struct ScenarioClock {
    pub at: SystemTime,
    pub running_since: Option<std::time::Instant>,
}

impl ScenarioClock {
    pub fn now(&self) -> SystemTime {
        self.at
            + self
                .running_since
                .map_or(Duration::ZERO, |since| since.elapsed())
    }
}

pub fn user(name: &str) -> User {
    User::new(UserId::new(Platform::Telegram, name), name)
}

pub fn group(id: &str) -> ChatId {
    ChatId::new(Platform::Telegram, id)
}

pub fn config(source: DealSource) -> ServiceConfig {
    ServiceConfig {
        deal_source: source,
        board_width: 200,
        bot_username: Some("jieqi_bot".to_owned()),
        ..ServiceConfig::default()
    }
}

impl Harness {
    /// A service on a fresh store: sled in a temporary folder, or PostgreSQL in a fresh schema
    /// when `JIEQI_TEST_STORE=postgres`.
    pub async fn new(source: DealSource) -> Harness {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut config = config(source);
        config.data_dir = dir.path().to_path_buf();
        let now = UNIX_EPOCH + Duration::from_secs(T0);
        let wall = Arc::new(std::sync::Mutex::new(ScenarioClock {
            at: now,
            running_since: None,
        }));
        let read = Arc::clone(&wall);
        config.wall_clock = jieqi_service::WallClock::new(move || {
            read.lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .now()
        });
        let (store, pg): (Arc<dyn GameStore>, _) = if on_postgres() {
            let Some(pg) = test_store().await else {
                // No server, outside CI (`test_store` has said so; in CI it panics): every
                // test of this binary needs one, so it skips by ending its process as passed.
                // cargo-nextest runs each test in a process of its own; `cargo test` ends
                // the binary here.
                std::process::exit(0);
            };
            (Arc::new(pg.another().await), Some(pg))
        } else {
            (Arc::new(SledStore::open(dir.path()).expect("store")), None)
        };
        let service = Service::open_with_store(store.clone(), config.clone()).expect("service");
        Harness {
            service,
            store,
            dir: Some(dir),
            pg,
            config,
            next_key: 0,
            now,
            wall,
            delivered: Vec::new(),
            greyed: Vec::new(),
            non_admins: Vec::new(),
        }
    }

    /// Closes the store and opens it again (from disk, or a new pool on the same schema),
    /// with a new service: a restart of the process.
    pub async fn restart(&mut self) {
        self.restart_with(false).await;
    }

    /// A restart during which the sled store is compacted (on PostgreSQL, a plain restart).
    pub async fn restart_compacted(&mut self) {
        self.restart_with(true).await;
    }

    async fn restart_with(&mut self, compact: bool) {
        // The old service goes first, before anything awaits: its tasks (an engine about to
        // think) find it gone, as they would after a crash.
        let placeholder: Arc<dyn GameStore> = Arc::new(SledStore::temporary().expect("temp store"));
        self.service =
            Service::open_with_store(placeholder.clone(), self.config.clone()).expect("service");
        self.store = placeholder;
        if let Some(pg) = &self.pg {
            let reopened: Arc<dyn GameStore> = Arc::new(pg.another().await);
            self.service =
                Service::open_with_store(reopened.clone(), self.config.clone()).expect("service");
            self.store = reopened;
            return;
        }
        let path = self.dir.as_ref().expect("dir").path().to_path_buf();
        // Drop every handle to the database (sled then releases the folder), then reopen it.
        let placeholder: Arc<dyn GameStore> = Arc::new(SledStore::temporary().expect("temp store"));
        self.service =
            Service::open_with_store(placeholder.clone(), self.config.clone()).expect("service");
        self.store = placeholder;
        if compact {
            SledStore::open(&path)
                .and_then(|store| store.compact())
                .expect("compaction");
        }
        let reopened: Arc<dyn GameStore> = Arc::new(SledStore::open(&path).expect("reopen store"));
        self.service =
            Service::open_with_store(reopened.clone(), self.config.clone()).expect("service");
        self.store = reopened;
    }

    /// Another process on the same store (PostgreSQL: a new pool on the scenario's schema;
    /// sled: the same open store, as two services of one process would share it), with the
    /// scenario's configuration and `wall_clock`, if given, as its clock.
    pub async fn another_process(&self, wall_clock: Option<jieqi_service::WallClock>) -> Service {
        let store: Arc<dyn GameStore> = match &self.pg {
            Some(pg) => Arc::new(pg.another().await),
            None => self.store.clone(),
        };
        let mut config = self.config.clone();
        if let Some(wall_clock) = wall_clock {
            config.wall_clock = wall_clock;
        }
        Service::open_with_store(store, config).expect("service")
    }

    pub fn advance(&mut self, by: Duration) {
        self.set_now(self.clock_now() + by);
    }

    /// Sets the scenario's clock (the requests' arrival and the services' wall clock); in
    /// real time it runs on from there.
    pub fn set_now(&mut self, now: SystemTime) {
        self.now = now;
        let mut wall = self
            .wall
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        wall.at = now;
        if wall.running_since.is_some() {
            wall.running_since = Some(std::time::Instant::now());
        }
    }

    /// From now on the scenario's clock runs as real time passes (the engine's thinking takes
    /// time on it), besides what [`Harness::advance`] adds.
    pub fn run_in_real_time(&mut self) {
        let mut wall = self
            .wall
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        *wall = ScenarioClock {
            at: wall.now(),
            running_since: Some(std::time::Instant::now()),
        };
    }

    /// Now on the scenario's clock.
    pub fn clock_now(&self) -> SystemTime {
        self.wall
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .now()
    }

    pub fn request(
        &mut self,
        who: &User,
        chat: &ChatId,
        input: Input,
        mentioned: Vec<User>,
    ) -> Request {
        self.next_key += 1;
        Request {
            key: IdempotencyKey(format!("k{}", self.next_key)),
            chat: chat.clone(),
            is_private_chat: chat.id.starts_with("dm-"),
            is_admin: chat.id.starts_with("dm-") || !self.non_admins.contains(&who.id),
            user: who.clone(),
            mentioned,
            input,
            received_at: self.clock_now(),
        }
    }

    pub async fn say(&mut self, who: &User, chat: &ChatId, text: &str) -> Answer {
        self.say_mentioning(who, chat, text, Vec::new()).await
    }

    pub async fn say_mentioning(
        &mut self,
        who: &User,
        chat: &ChatId,
        text: &str,
        mentioned: Vec<User>,
    ) -> Answer {
        let request = self.request(who, chat, Input::Text(text.to_owned()), mentioned);
        self.service.handle(request).await
    }

    /// `challenger` challenges `opponent` in `chat` on `terms` (variant, colour, clock) and
    /// the opponent accepts: the answer to the acceptance.
    pub async fn start_game(
        &mut self,
        challenger: &User,
        opponent: &User,
        chat: &ChatId,
        terms: &str,
    ) -> Answer {
        let challenge = format!("/challenge @{} {terms}", opponent.name);
        self.say_mentioning(challenger, chat, &challenge, vec![opponent.clone()])
            .await;
        self.say(opponent, chat, "/accept").await
    }

    pub async fn press(&mut self, who: &User, chat: &ChatId, action: ButtonAction) -> Answer {
        let request = self.request(who, chat, Input::Button(action), Vec::new());
        self.service.handle(request).await
    }

    /// Delivers everything pending (as a sender would) and returns it, but for the edits
    /// greying out old boards' buttons (kept in `greyed`).
    pub async fn deliver(&mut self) -> Vec<OutboxEntry> {
        let pending = self.service.pending(1000).await.expect("pending");
        for entry in &pending {
            self.service
                .delivered(entry.id, Some(format!("msg{}", entry.id.0)))
                .await
                .expect("delivered");
        }
        let (greyed, pending): (Vec<OutboxEntry>, Vec<OutboxEntry>) = pending
            .into_iter()
            .partition(|e| matches!(e.message.to, Destination::StaleButtons(_)));
        self.greyed.extend(greyed);
        self.delivered.extend(pending.iter().cloned());
        pending
    }

    pub async fn tick(&mut self) {
        self.service.tick(self.clock_now()).await;
    }
}

/// Asserts that nothing in `answer` is a refusal (the request was carried out), showing the
/// whole answer when something is.
#[track_caller]
pub fn not_refused(answer: &Answer) {
    assert!(
        answer
            .replies
            .iter()
            .all(|r| r.kind != MessageKind::Refusal),
        "{answer:#?}"
    );
}

/// The refusal text of an answer (panics if the answer is not one refusal).
pub fn refusal(answer: &Answer) -> &str {
    assert_eq!(answer.replies.len(), 1, "expected one reply: {answer:#?}");
    let reply = &answer.replies[0];
    assert_eq!(
        reply.kind,
        MessageKind::Refusal,
        "expected a refusal: {reply:#?}"
    );
    assert_eq!(reply.to, Destination::ReplyToRequester { ephemeral: true });
    &reply.text
}

pub fn of_kind(entries: &[OutboxEntry], kind: MessageKind) -> Vec<&Message> {
    entries
        .iter()
        .map(|e| &e.message)
        .filter(|m| m.kind == kind)
        .collect()
}

pub fn to_chat<'a>(entries: &'a [OutboxEntry], chat: &ChatId) -> Vec<&'a Message> {
    entries
        .iter()
        .map(|e| &e.message)
        .filter(|m| m.to == Destination::Chat(chat.clone()))
        .collect()
}

pub fn private_to<'a>(entries: &'a [OutboxEntry], user: &User) -> Vec<&'a Message> {
    entries
        .iter()
        .map(|e| &e.message)
        .filter(|m| m.to == Destination::Private(user.id.clone()))
        .collect()
}

/// The identity Jieqi deal: every covered piece is what its point says.
pub const IDENTITY_DEAL: &str = "rheaaehrccpppppPPPPPCCRHEAAEHR";

/// The chat's latest tournament as stored.
pub async fn stored(h: &Harness, chat: &ChatId) -> jieqi_service::store::TournamentRecord {
    h.store
        .chat_tournaments(chat)
        .await
        .expect("read")
        .pop()
        .expect("a tournament")
}

/// The messages delivered to `chat` whose text contains `words`.
pub fn notices_with<'a>(h: &'a Harness, chat: &ChatId, words: &str) -> Vec<&'a Message> {
    to_chat(&h.delivered, chat)
        .into_iter()
        .filter(|m| m.text.contains(words))
        .collect()
}

/// Players by name.
pub fn players(names: &[&str]) -> Vec<User> {
    names.iter().copied().map(user).collect()
}
