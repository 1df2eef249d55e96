//! The bot under test: a fake Discord, a service with a scripted deal, the adapter and its
//! delivery loop, and helpers to play through interactions and read what the fake received.

#![allow(dead_code, unused_imports)]

mod held;

use std::num::NonZeroU64;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime};

use jieqi_discord::{Discord, DiscordConfig, DiscordError};
use jieqi_service::{
    ChatId, DealSource, Destination, Message, MessageKind, OutboxEntry, OutboxId, Platform,
    RetryPolicy, Service, ServiceConfig, SledStore, WallClock, run_delivery_with,
};
use serde_json::{Value, json};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

pub use jieqi_fake_discord::{
    ALICE, BOB, CAROL, buttons, callback_type, channel_posts, is_png, message_id, pictures,
    seen_by, settled,
};
use jieqi_fake_discord::{FakeDiscord, GUILD, Member, Recorded, Seen, user_json};

/// Red's covered piece on h2 is really a chariot, Black's on h9 really a cannon (the deal
/// letters of the service's own Jieqi test).
pub const DEAL: &str = "rheaaecrhcpppppPPPPPCRCHEAAEHR";

/// A running bot against a fake Discord.
pub struct Bot {
    pub fake: FakeDiscord,
    pub service: Service,
    /// The service's store, which a test may hold (each request waits at its first read).
    pub store: Arc<held::HeldStore>,
    /// The bot's clock: the system's until a test moves it ([`Bot::advance`]).
    pub clock: ScriptedClock,
    shutdown: CancellationToken,
    gateway: JoinHandle<Result<(), DiscordError>>,
    delivery: JoinHandle<()>,
}

/// The time in these tests: the system's clock plus however far the test moved it on. It
/// runs as real time passes, and a test skips ahead with [`ScriptedClock::advance`] (an
/// arena's ten minutes in a moment). The service reads it as its wall clock, and the
/// adapter stamps each interaction by the service's clock, so a command's time, a tick's
/// and a timer's agree.
#[derive(Clone, Debug, Default)]
pub struct ScriptedClock {
    ahead_ms: Arc<AtomicU64>,
}

impl ScriptedClock {
    pub fn now(&self) -> SystemTime {
        SystemTime::now() + Duration::from_millis(self.ahead_ms.load(Ordering::SeqCst))
    }

    pub fn advance(&self, by: Duration) {
        let by = u64::try_from(by.as_millis()).expect("a test's step");
        self.ahead_ms.fetch_add(by, Ordering::SeqCst);
    }
}

pub async fn start() -> Bot {
    start_with(|_| {}).await
}

pub async fn start_with(adjust: impl FnOnce(&mut DiscordConfig)) -> Bot {
    start_configured(|_| {}, adjust).await
}

/// A bot whose service settings are adjusted too (the web page, personal links).
pub async fn start_configured(
    adjust_service: impl FnOnce(&mut ServiceConfig),
    adjust: impl FnOnce(&mut DiscordConfig),
) -> Bot {
    let fake = FakeDiscord::start().await;
    let store = Arc::new(held::HeldStore::new(
        SledStore::temporary().expect("a temporary store"),
    ));
    let clock = ScriptedClock::default();
    let bot_reads = clock.clone();
    let mut service_config = ServiceConfig {
        deal_source: DealSource::Scripted {
            seed: 7,
            deals: vec![DEAL.to_owned()],
        },
        board_width: 200,
        wall_clock: WallClock::new(move || bot_reads.now()),
        ..ServiceConfig::default()
    };
    adjust_service(&mut service_config);
    let service = Service::open_with_store(store.clone(), service_config).expect("service");
    let mut config = DiscordConfig::new(jieqi_fake_discord::TOKEN);
    config.api_url = Some(fake.http_url.parse().expect("the fake's URL"));
    config.guild_id = NonZeroU64::new(GUILD);
    adjust(&mut config);
    let shards = config.shards;
    let discord = Discord::new(config);
    discord.share_budgets(service.send_budgets());
    let shutdown = CancellationToken::new();
    let policy = quick_retries();
    let delivery = tokio::spawn(run_delivery_with(
        service.clone(),
        discord.sender(),
        Platform::Discord,
        shutdown.clone(),
        policy,
    ));
    let gateway = tokio::spawn(discord.run(service.clone(), shutdown.clone()));
    fake.wait_for_shards(shards.map_or(1, |r| (r.last() - r.first() + 1) as usize))
        .await;
    // The process running shard 0 registers the commands.
    if shards.is_none_or(|r| r.first() == 0) {
        fake.wait_for("the commands to be registered", |log| {
            log.iter().any(|r| r.method == "PUT" && r.status == 200)
        })
        .await;
    }
    Bot {
        fake,
        service,
        store,
        clock,
        shutdown,
        gateway,
        delivery,
    }
}

impl Bot {
    /// Stops the bot the way `jieqi-bot run` does, checking that it stops cleanly.
    pub async fn stop(self) {
        self.shutdown.cancel();
        let stopped = tokio::time::timeout(Duration::from_secs(20), self.gateway)
            .await
            .expect("the gateway stops after shutdown");
        assert!(matches!(stopped, Ok(Ok(()))), "{stopped:?}");
        self.delivery.await.expect("delivery stops");
        self.service.shutdown().await.expect("flush");
    }

    /// Moves the bot's clock on by `by` at once (no tick: see [`Bot::tick`]).
    pub fn advance(&self, by: Duration) {
        self.clock.advance(by);
    }

    /// What `jieqi-bot run`'s tick loop does every few seconds: the service's timers due
    /// now (games out of time, start times, arenas' ends), on the scripted clock.
    pub async fn tick(&self) {
        self.service.tick(self.clock.now()).await;
    }

    /// Dispatches an interaction and waits until its first answer is complete (after a
    /// deferral: until it is written or removed, which the adapter does last).
    pub async fn send(&self, interaction: &Value) -> Vec<Recorded> {
        self.fake.dispatch(interaction);
        let token = interaction["token"].as_str().unwrap_or_default().to_owned();
        self.fake
            .wait_for(&format!("an answer to {}", interaction["data"]), |log| {
                settled(log, &token)
            })
            .await;
        self.fake.answers(interaction)
    }

    /// Waits until the outbox is empty and every message is delivered.
    pub async fn delivered(&self) {
        for _ in 0..600 {
            if self
                .service
                .pending_for(Platform::Discord, 1)
                .await
                .expect("outbox")
                .is_empty()
            {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("the outbox did not drain");
    }

    /// Waits until every post and notice is delivered, the edits greying out old boards'
    /// buttons aside (they wait for room to spare, looking again every few seconds).
    pub async fn posted(&self) {
        for _ in 0..600 {
            let pending = self
                .service
                .pending_for(Platform::Discord, usize::MAX)
                .await
                .expect("outbox");
            if pending
                .iter()
                .all(|e| matches!(e.message.to, Destination::StaleButtons(_)))
            {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("the outbox did not drain");
    }

    pub fn command(&self, who: Member, name: &str, options: Value) -> Value {
        self.fake.command(who, name, options, json!({}))
    }

    /// `/challenge user:whom variant:jieqi colour:red` by `who`.
    pub fn challenge_command(&self, who: Member, whom: Member) -> Value {
        let member =
            json!({"nick": null, "roles": [], "joined_at": "2024-01-01T00:00:00Z", "flags": 0});
        self.fake.command(
            who,
            "challenge",
            json!([
                {"name": "user", "type": 6, "value": whom.id.to_string()},
                {"name": "variant", "type": 3, "value": "jieqi"},
                {"name": "colour", "type": 3, "value": "red"}
            ]),
            json!({"users": {whom.id.to_string(): user_json(whom)},
                   "members": {whom.id.to_string(): member}}),
        )
    }

    /// `who` challenges `whom` to Jieqi, playing Red; returns the challenge post's id.
    pub async fn challenge(&self, who: Member, whom: Member) -> u64 {
        let interaction = self.challenge_command(who, whom);
        self.send(&interaction).await;
        self.delivered().await;
        let log = self.fake.log();
        let post = channel_posts(&log)
            .into_iter()
            .rev()
            .find(|r| {
                buttons(&r.json)
                    .iter()
                    .any(|(id, _)| id.starts_with("acc_"))
            })
            .expect("a challenge post with an Accept button");
        message_id(post)
    }

    /// Alice challenges Bob, Bob presses Accept; returns the first board's id.
    pub async fn start_game(&self) -> u64 {
        let post = self.challenge(ALICE, BOB).await;
        let accept = self
            .fake
            .message(post)
            .map(|m| buttons(&m))
            .unwrap_or_default()
            .into_iter()
            .find(|(id, _)| id.starts_with("acc_"))
            .expect("the Accept button")
            .0;
        let press = self.fake.button(BOB, &accept, post);
        let answers = self.send(&press).await;
        // Acknowledged (or, when slow, deferred and removed): the game's posts say the rest.
        assert!(
            answers.iter().all(|r| r.seen == Seen::Nobody),
            "{answers:?}"
        );
        self.delivered().await;
        self.latest_board()
    }

    /// The newest channel post with game buttons.
    pub fn latest_board(&self) -> u64 {
        let log = self.fake.log();
        let board = channel_posts(&log)
            .into_iter()
            .rev()
            .find(|r| {
                buttons(&r.json)
                    .iter()
                    .any(|(id, _)| id.starts_with("res_"))
            })
            .expect("a board with game buttons");
        message_id(board)
    }

    pub async fn play(&self, who: Member, text: &str) -> Vec<Recorded> {
        let interaction = self.command(
            who,
            "move",
            json!([{"name": "move", "type": 3, "value": text}]),
        );
        let answers = self.send(&interaction).await;
        self.delivered().await;
        answers
    }
}

/// One bot process of several sharing a fake Discord and a store: its adapter and delivery
/// loop run on the runtime it is started from (a test kills a process by shutting that
/// runtime down: every task of it stops at once, as in a killed process).
pub struct Process {
    pub service: Service,
    pub store: Arc<held::HeldStore>,
    shutdown: CancellationToken,
    gateway: JoinHandle<Result<(), DiscordError>>,
    delivery: JoinHandle<()>,
}

/// Starts a process on `store` against the fake at `fake_url` (the caller waits for its
/// shards); `adjust` sets its shards and timings.
pub async fn start_process(
    fake_url: &str,
    store: Arc<dyn jieqi_service::GameStore>,
    adjust: impl FnOnce(&mut DiscordConfig),
) -> Process {
    let store = Arc::new(held::HeldStore::over(store));
    let service_config = ServiceConfig {
        board_width: 200,
        ..ServiceConfig::default()
    };
    let service = Service::open_with_store(store.clone(), service_config).expect("service");
    let mut config = DiscordConfig::new(jieqi_fake_discord::TOKEN);
    config.api_url = Some(fake_url.parse().expect("the fake's URL"));
    config.guild_id = NonZeroU64::new(GUILD);
    adjust(&mut config);
    let discord = Discord::new(config);
    discord.share_budgets(service.send_budgets());
    let shutdown = CancellationToken::new();
    let delivery = tokio::spawn(run_delivery_with(
        service.clone(),
        discord.sender(),
        Platform::Discord,
        shutdown.clone(),
        quick_retries(),
    ));
    let gateway = tokio::spawn(discord.run(service.clone(), shutdown.clone()));
    Process {
        service,
        store,
        shutdown,
        gateway,
        delivery,
    }
}

impl Process {
    /// Stops the process the way `jieqi-bot run` does, checking that it stops cleanly.
    pub async fn stop(self) {
        self.shutdown.cancel();
        let stopped = tokio::time::timeout(Duration::from_secs(20), self.gateway)
            .await
            .expect("the gateway stops after shutdown");
        assert!(matches!(stopped, Ok(Ok(()))), "{stopped:?}");
        self.delivery.await.expect("delivery stops");
        self.service.shutdown().await.expect("flush");
    }
}

/// An outbox entry for the sender alone.
pub fn entry(id: u64, channel: u64, text: &str) -> OutboxEntry {
    OutboxEntry {
        id: OutboxId(id),
        message: Message::text(
            Destination::Chat(ChatId::new(Platform::Discord, channel.to_string())),
            MessageKind::Notice,
            text,
        ),
        attempts: 0,
        replaces_ref: None,
    }
}

/// The adapter's sender alone, talking to `fake`.
pub fn sender_for(fake: &FakeDiscord) -> Arc<jieqi_discord::DiscordSender> {
    let mut config = DiscordConfig::new(jieqi_fake_discord::TOKEN);
    config.api_url = Some(fake.http_url.parse().expect("url"));
    Discord::new(config).sender()
}

/// Delivery retries short enough for tests.
fn quick_retries() -> RetryPolicy {
    RetryPolicy {
        min_delay: Duration::from_millis(10),
        max_delay: Duration::from_millis(100),
        retries: 4,
        round_pause: Duration::from_millis(100),
    }
}

/// The one answer someone was shown (an interaction's response, the deferred response
/// written, or a follow-up), checking that no deferral was public: a public "thinking…" would
/// show everyone that something was asked, even when the answer turns out private.
pub fn only_shown(answers: &[Recorded]) -> &Recorded {
    for record in answers {
        if record.path.ends_with("/callback") && record.json["type"] == json!(5) {
            let flags = record.json["data"]["flags"].as_u64().unwrap_or(0);
            assert!(flags & 64 != 0, "a public deferral: {record:?}");
        }
    }
    let shown: Vec<&Recorded> = answers.iter().filter(|r| r.seen != Seen::Nobody).collect();
    assert_eq!(shown.len(), 1, "{answers:?}");
    shown[0]
}
