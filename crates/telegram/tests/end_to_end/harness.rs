//! The Telegram side of `jieqi-bot run`, wired as the binary wires it (service, adapter,
//! delivery loop), against the fake Bot API.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime};

use jieqi_service::{
    DealSource, Destination, Platform, RetryPolicy, Service, ServiceConfig, WallClock,
    run_delivery_with,
};
use jieqi_telegram::{Receiving, SendLimits, Telegram, TelegramConfig, TelegramError};
use tempfile::TempDir;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use crate::fake_bot_api::{BOT_USERNAME, FakeBotApi, Limits, Post, TOKEN};

pub const GROUP: i64 = -100_555;
pub const OTHER_GROUP: i64 = -100_777;
pub const ALICE: i64 = 11;
pub const BOB: i64 = 22;
pub const CAROL: i64 = 33;

/// How long one step may take (a debug build draws pictures slowly, and CI machines are busy).
pub const STEP: Duration = Duration::from_secs(120);

/// The deal of the start position with every piece where its type starts (FEN letters,
/// covered pieces in reading order).
pub const IDENTITY_DEAL: &str = "rheaaehrccpppppPPPPPCCRHEAAEHR";

/// A running adapter.
pub struct Adapter {
    pub shutdown: CancellationToken,
    pub receiver: JoinHandle<Result<(), TelegramError>>,
    pub delivery: JoinHandle<()>,
}

pub struct Harness {
    pub fake: FakeBotApi,
    pub service: Service,
    pub adapter: Option<Adapter>,
    /// The bot's clock and Telegram's: the system's until a test moves it
    /// ([`Harness::advance`]).
    pub clock: ScriptedClock,
    _data: TempDir,
}

/// The time in these tests: the system's clock plus however far the test moved it on. It
/// runs as real time passes (a debug build's pictures and the adapter's waits take real
/// time), and a test skips ahead with [`ScriptedClock::advance`] (an arena's ten minutes in
/// a moment). The service reads it as its wall clock and the fake Telegram dates the
/// people's messages by it, so a command's time, a tick's and a timer's agree.
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

pub fn config(fake: &FakeBotApi) -> TelegramConfig {
    let mut config = TelegramConfig::new(TOKEN);
    config.api_url = Some(fake.url.clone());
    config.poll_timeout = Duration::from_secs(2);
    // Generous limits: the pacing is in the path, but a test game need not wait minutes.
    config.limits = SendLimits {
        per_chat_per_second: 50,
        per_chat_per_minute: 3000,
        per_group_per_minute: 3000,
        overall_per_second: 100,
    };
    config
}

impl Harness {
    /// A fresh service (deals from `deals`, ids and salts from `seed`) and a polling adapter.
    pub async fn start(seed: u64, deals: &[&str]) -> Harness {
        Harness::start_configured(seed, deals, |_| {}).await
    }

    /// Like [`Harness::start`], with the service's settings adjusted (the web page, the Mini
    /// App, personal links).
    pub async fn start_configured(
        seed: u64,
        deals: &[&str],
        adjust: impl FnOnce(&mut ServiceConfig),
    ) -> Harness {
        Harness::start_built(seed, deals, adjust, None).await
    }

    /// Like [`Harness::start`], with Telegram's own limits on both sides: the fake enforces
    /// them (429 with `retry_after` past them) and the adapter paces itself by
    /// `SendLimits::default()`, as in production.
    pub async fn start_paced(seed: u64, deals: &[&str]) -> Harness {
        Harness::start_built(seed, deals, |_| {}, Some(Limits::telegram())).await
    }

    async fn start_built(
        seed: u64,
        deals: &[&str],
        adjust: impl FnOnce(&mut ServiceConfig),
        limits: Option<Limits>,
    ) -> Harness {
        // The adapter's and the delivery loop's log, captured with the test's output: shown
        // when a test fails (a delivery loop that once did not stop said nothing of why).
        let _ = tracing_subscriber::fmt()
            .with_test_writer()
            .with_env_filter("jieqi_service=debug,jieqi_telegram=debug")
            .try_init();
        let fake = FakeBotApi::start().await;
        fake.add_group(GROUP, "Xiangqi club");
        fake.add_group(OTHER_GROUP, "Chess corner");
        fake.add_user(ALICE, "Alice", Some("alice"));
        fake.add_user(BOB, "Bob", Some("bob"));
        fake.add_user(CAROL, "Carol", None);
        let clock = ScriptedClock::default();
        let people_read = clock.clone();
        fake.set_clock(move || people_read.now());
        let bot_reads = clock.clone();
        let data = tempfile::tempdir().expect("temp dir");
        let mut config = ServiceConfig {
            data_dir: data.path().to_path_buf(),
            bot_username: Some(BOT_USERNAME.to_owned()),
            board_width: 240,
            deal_source: DealSource::Scripted {
                seed,
                deals: deals.iter().map(|d| (*d).to_owned()).collect(),
            },
            wall_clock: WallClock::new(move || bot_reads.now()),
            ..ServiceConfig::default()
        };
        adjust(&mut config);
        let service = Service::open(config).expect("service");
        let mut harness = Harness {
            fake,
            service,
            adapter: None,
            clock,
            _data: data,
        };
        let pacing = match limits {
            Some(limits) => {
                harness.fake.enforce_limits(limits);
                SendLimits::default()
            }
            None => self::config(&harness.fake).limits,
        };
        let adapter = harness.start_adapter_with(Receiving::Polling, pacing);
        harness.adapter = Some(adapter);
        harness
    }

    /// Starts an adapter (and its delivery loop) as `jieqi-bot run` does.
    pub fn start_adapter(&self, receiving: Receiving) -> Adapter {
        self.start_adapter_with(receiving, config(&self.fake).limits)
    }

    /// [`Harness::start_adapter`] pacing itself by `limits`.
    pub fn start_adapter_with(&self, receiving: Receiving, limits: SendLimits) -> Adapter {
        let mut config = config(&self.fake);
        config.receiving = receiving;
        config.limits = limits;
        let telegram = Telegram::new(config);
        telegram.share_budgets(self.service.send_budgets());
        let shutdown = CancellationToken::new();
        let policy = RetryPolicy {
            min_delay: Duration::from_millis(100),
            max_delay: Duration::from_secs(2),
            retries: 5,
            round_pause: Duration::from_secs(1),
        };
        let delivery = tokio::spawn(run_delivery_with(
            self.service.clone(),
            telegram.sender(),
            Platform::Telegram,
            shutdown.clone(),
            policy,
        ));
        let receiver = tokio::spawn(telegram.receive(self.service.clone(), shutdown.clone()));
        Adapter {
            shutdown,
            receiver,
            delivery,
        }
    }

    /// Kills the adapter mid-flight, as a crash would: nothing gets to finish.
    pub async fn crash_adapter(&mut self) {
        if let Some(adapter) = self.adapter.take() {
            adapter.receiver.abort();
            adapter.delivery.abort();
            let _ = adapter.receiver.await;
            let _ = adapter.delivery.await;
        }
    }

    /// Stops the adapter the orderly way; its receive loop must end without error.
    pub async fn stop_adapter(&mut self) {
        if let Some(adapter) = self.adapter.take() {
            adapter.shutdown.cancel();
            let received = tokio::time::timeout(STEP, adapter.receiver)
                .await
                .expect("adapter stops");
            assert!(
                matches!(received, Ok(Ok(()))),
                "adapter ended badly: {received:?}"
            );
            tokio::time::timeout(STEP, adapter.delivery)
                .await
                .expect("delivery stops")
                .expect("delivery");
        }
    }

    /// Moves the bot's clock and Telegram's on by `by` at once (no tick: see
    /// [`Harness::tick`]).
    pub fn advance(&self, by: Duration) {
        self.clock.advance(by);
    }

    /// What `jieqi-bot run`'s tick loop does every few seconds: the service's timers due now
    /// (games out of time, start times, arenas' ends), on the scripted clock.
    pub async fn tick(&self) {
        self.service.tick(self.clock.now()).await;
    }

    /// Waits until every post and notice in the outbox for Telegram has been delivered
    /// (edits taking old boards' buttons away aside: they wait for room to spare, looking
    /// again every few seconds).
    pub async fn delivered(&self) {
        let drained = tokio::time::timeout(STEP, async {
            loop {
                let pending = self
                    .service
                    .pending_for(Platform::Telegram, usize::MAX)
                    .await
                    .expect("the outbox");
                if pending
                    .iter()
                    .all(|e| matches!(e.message.to, Destination::StaleButtons(_)))
                {
                    return;
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        })
        .await;
        assert!(drained.is_ok(), "the outbox did not drain");
    }

    /// Posts the bot made in `chat` so far.
    pub fn posts(&self, chat: i64) -> Vec<Post> {
        self.fake.posts_in(chat)
    }

    /// Waits until a post in `chat` contains `needle`; returns it.
    pub async fn post_containing(&self, chat: i64, needle: &str) -> Post {
        self.fake
            .wait_for(&format!("a post in {chat} with {needle:?}"), STEP, |fake| {
                fake.posts_in(chat).iter().any(|p| p.text.contains(needle))
            })
            .await;
        self.posts(chat)
            .into_iter()
            .rev()
            .find(|p| p.text.contains(needle))
            .expect("post")
    }

    /// Alice and Bob (both with the private chat open) start a game in `GROUP`: Alice
    /// challenges by replying to Bob, Bob accepts. Waits for the first board.
    pub async fn start_game(&self) {
        self.fake.say(ALICE, ALICE, "/start");
        self.fake.say(BOB, BOB, "/start");
        let bobs_message = self.fake.message_by(BOB, GROUP, "play?");
        self.fake
            .say_full(ALICE, GROUP, "/challenge red", Some(bobs_message), None);
        self.post_containing(GROUP, "challenges").await;
        self.fake.say(BOB, GROUP, "/accept");
        self.fake
            .wait_for("the first board", STEP, |fake| {
                fake.posts_in(GROUP).iter().any(|p| p.photo.is_some())
            })
            .await;
    }

    /// Every request body sent to `chat`, as readable text (texts, captions, buttons).
    pub fn texts_to(&self, chat: i64) -> Vec<String> {
        self.fake
            .calls()
            .iter()
            .filter(|c| c.chat() == Some(chat))
            .map(|c| c.visible_text())
            .collect()
    }

    /// Every picture uploaded to `chat`, in order.
    pub fn pictures_to(&self, chat: i64) -> Vec<Vec<u8>> {
        self.fake
            .calls()
            .into_iter()
            .filter(|c| c.chat() == Some(chat) && c.status == 200)
            .flat_map(|c| c.files.into_iter().map(|upload| upload.bytes))
            .collect()
    }
}

/// Shared by tests that need the sender without the whole harness.
pub fn sender_for(fake: &FakeBotApi) -> Arc<dyn jieqi_service::Sender> {
    Telegram::new(config(fake)).sender()
}
