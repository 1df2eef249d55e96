//! A table for the web page's tests: a service on a fresh store (sled, or PostgreSQL with
//! `JIEQI_TEST_STORE=postgres`), its web page on 127.0.0.1, and two players who play a game
//! through the service exactly as a chat adapter would have them play.

pub(crate) mod activity;

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use futures_util::StreamExt;
use jieqi_rules::{Game, GameDeal, Preset, Rules, Variant};
use jieqi_service::{
    Answer, ChatId, DealSource, GameId, GameStore, IdempotencyKey, Input, Platform, Request,
    Service, ServiceConfig, SledStore, User, UserId, WallClock,
};
use jieqi_web::{Web, WebConfig};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tokio_util::sync::CancellationToken;

/// The secret the table's personal links are signed with.
pub const WEB_SECRET: &[u8; 32] = b"a test secret, 32 bytes long...!";
/// The Telegram bot token the table's Mini App sign-ins are signed for.
pub const BOT_TOKEN: &str = "7342037295:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw";

/// Everything a test needs.
pub struct Table {
    pub service: Service,
    /// The service's store, read directly where a test needs what no page shows (a live
    /// game's flag deadline).
    pub store: Arc<dyn GameStore>,
    pub web: Web,
    pub addr: SocketAddr,
    pub base: String,
    pub stop: CancellationToken,
    pub server: Option<tokio::task::JoinHandle<std::io::Result<()>>>,
    pub chat: ChatId,
    pub players: [User; 2],
    /// The time requests are received at: the clock's, or this fixed one (deadlines then do
    /// not depend on when the test ran).
    pub fixed_clock: Option<SystemTime>,
    /// The clock the service and the table's requests read, when the test moves it by hand.
    pub hand_clock: Option<HandClock>,
    next_key: u64,
    _dir: tempfile::TempDir,
    _pg: Option<jieqi_store_pg::testing::TestStore>,
}

/// A clock a test moves by hand, in milliseconds since the Unix epoch: the service's wall
/// clock and the instant the table's requests are received at, so that a live game's clock
/// is charged exactly what the test says.
#[derive(Clone)]
pub struct HandClock(Arc<AtomicU64>);

impl HandClock {
    pub fn at(ms: u64) -> HandClock {
        HandClock(Arc::new(AtomicU64::new(ms)))
    }

    pub fn now(&self) -> SystemTime {
        UNIX_EPOCH + Duration::from_millis(self.0.load(Ordering::SeqCst))
    }

    pub fn advance(&self, by: Duration) {
        let ms = u64::try_from(by.as_millis()).expect("a test's step");
        self.0.fetch_add(ms, Ordering::SeqCst);
    }
}

pub fn user(name: &str) -> User {
    User::new(UserId::new(Platform::Telegram, name.to_lowercase()), name)
}

fn on_postgres() -> bool {
    std::env::var("JIEQI_TEST_STORE").is_ok_and(|v| v == "postgres")
}

/// A deal for `variant` drawn from `seed`.
pub fn deal(variant: Variant, seed: u64) -> String {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    GameDeal::shuffled(variant, &mut |n| rng.gen_range(0..n.max(1))).letters()
}

impl Table {
    /// A table whose games are dealt `deals` in order, with the page configured by `tune`.
    pub async fn new(
        deals: Vec<String>,
        names: [&str; 2],
        tune: impl FnOnce(&mut WebConfig),
    ) -> Table {
        Table::with_activity(deals, names, tune, None).await
    }

    /// [`Table::new`] whose page runs the Discord Activity too, signing in through `discord`
    /// (the service's boards on Discord then carry "Play in Discord").
    pub async fn with_activity(
        deals: Vec<String>,
        names: [&str; 2],
        tune: impl FnOnce(&mut WebConfig),
        discord: Option<jieqi_discord::DiscordOAuth>,
    ) -> Table {
        Table::build(deals, names, tune, discord, None).await
    }

    /// [`Table::new`] on a clock the test moves by hand.
    pub async fn on_hand_clock(deals: Vec<String>, names: [&str; 2], clock: HandClock) -> Table {
        Table::build(deals, names, |_| {}, None, Some(clock)).await
    }

    async fn build(
        deals: Vec<String>,
        names: [&str; 2],
        tune: impl FnOnce(&mut WebConfig),
        discord: Option<jieqi_discord::DiscordOAuth>,
        hand_clock: Option<HandClock>,
    ) -> Table {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let (store, pg): (Arc<dyn GameStore>, _) = if on_postgres() {
            let pg = jieqi_store_pg::testing::test_store()
                .await
                .expect("JIEQI_TEST_STORE=postgres needs a server at TEST_DATABASE_URL");
            (Arc::new(pg.another().await), Some(pg))
        } else {
            (
                Arc::new(SledStore::open(dir.path()).expect("a store")),
                None,
            )
        };
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a port");
        let addr = listener.local_addr().expect("an address");
        let base = format!("http://{addr}");
        let service = Service::open_with_store(
            store.clone(),
            ServiceConfig {
                data_dir: dir.path().to_path_buf(),
                deal_source: DealSource::Scripted { seed: 7, deals },
                board_width: 200,
                public_url: Some(base.clone()),
                web_secret: jieqi_service::personal_link::WebSecret::new(WEB_SECRET.to_vec()),
                telegram_mini_app: Some("board".to_owned()),
                bot_username: Some("jieqi_test_bot".to_owned()),
                discord_activity: discord.is_some(),
                wall_clock: hand_clock.clone().map_or_else(WallClock::system, |clock| {
                    WallClock::new(move || clock.now())
                }),
                ..ServiceConfig::default()
            },
        )
        .expect("a service");
        let mut config = WebConfig::new(base.clone());
        config.telegram_bot_token = Some(jieqi_web::BotToken(BOT_TOKEN.to_owned()));
        tune(&mut config);
        let web = match discord {
            Some(discord) => Web::with_activity(service.clone(), config, discord),
            None => Web::new(service.clone(), config),
        };
        let stop = CancellationToken::new();
        let server = tokio::spawn(web.clone().serve(listener, stop.clone()));
        Table {
            service,
            store,
            web,
            addr,
            base,
            stop,
            server: Some(server),
            chat: ChatId::new(Platform::Telegram, "-100"),
            players: [user(names[0]), user(names[1])],
            fixed_clock: None,
            hand_clock,
            next_key: 0,
            _dir: dir,
            _pg: pg,
        }
    }

    /// Stops the web server (open streams end), keeping the service.
    pub async fn stop_web(&mut self) {
        self.stop.cancel();
        if let Some(server) = self.server.take() {
            let _ = tokio::time::timeout(Duration::from_secs(10), server).await;
        }
    }

    /// Serves the page again on the same address.
    pub async fn restart_web(&mut self) {
        let listener = tokio::net::TcpListener::bind(self.addr)
            .await
            .expect("the same port again");
        self.stop = CancellationToken::new();
        self.server = Some(tokio::spawn(
            self.web.clone().serve(listener, self.stop.clone()),
        ));
    }

    /// `who` says `text` in the table's chat.
    pub async fn say(&mut self, who: usize, text: &str) -> Answer {
        self.next_key += 1;
        let other = self.players[1 - who].clone();
        let request = Request {
            key: IdempotencyKey(format!("k{}", self.next_key)),
            chat: self.chat.clone(),
            is_private_chat: false,
            is_admin: true,
            user: self.players[who].clone(),
            mentioned: vec![other],
            input: Input::Text(text.to_owned()),
            received_at: match (&self.hand_clock, self.fixed_clock) {
                (Some(clock), _) => clock.now(),
                (None, Some(fixed)) => fixed,
                (None, None) => SystemTime::now(),
            },
        };
        self.service.handle(request).await
    }

    /// The first player challenges the second to `terms` and the second accepts; the game.
    pub async fn start(&mut self, terms: &str) -> GameId {
        // As a reply to the opponent's message: the platform names them, whatever their name.
        let challenge = self.say(0, &format!("/challenge {terms} red")).await;
        assert!(
            challenge.replies.iter().all(|r| !r.text.contains("not")),
            "{challenge:?}"
        );
        self.say(1, "/accept").await;
        // The chat's newest running game, from the store: not from the outbox, whose board
        // a delivery loop running beside the table (the Discord harness's) may have
        // delivered and pruned already (a run of the Activity's tests failed so, 1 in 6).
        let chat = self
            .store
            .chat(&self.chat)
            .await
            .expect("the store")
            .expect("the chat's record");
        chat.games.last().cloned().expect("a game was started")
    }

    /// Plays `text` for whoever is to move (`ply` even: the first player).
    pub async fn play(&mut self, ply: usize, text: &str) {
        let answer = self.say(ply % 2, &format!("/move {text}")).await;
        assert!(answer.replies.is_empty(), "{text} was refused: {answer:?}");
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// `Bearer <token>` of player `who`'s personal link to `game`.
    pub fn bearer(&self, game: &GameId, who: usize) -> String {
        let link = self
            .service
            .personal_link(game, &self.players[who].id)
            .expect("personal links are on");
        let (_, token) = link.split_once("#t=").expect("a token in the fragment");
        format!("Bearer {token}")
    }
}

/// A random game's moves as typed, `plies` long at most, for `deal` (seeded, replayable).
pub fn random_moves(variant: Variant, deal: &str, seed: u64, plies: usize) -> Vec<String> {
    let mut game = Game::new(
        Rules::new(variant, Preset::Standard),
        GameDeal::from_letters(variant, deal).expect("a deal"),
    )
    .expect("a game");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut typed = Vec::new();
    while typed.len() < plies && game.outcome().is_none() {
        let legal = game.legal_move_texts();
        let choice = legal[rng.gen_range(0..legal.len())].clone();
        game.play_text(&choice).expect("a legal move");
        typed.push(choice);
    }
    typed
}

/// One Server-Sent Event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SseEvent {
    pub id: Option<String>,
    pub event: Option<String>,
    pub data: String,
}

/// A live stream read event by event.
pub struct Sse {
    body: std::pin::Pin<
        Box<dyn futures_util::Stream<Item = reqwest::Result<axum::body::Bytes>> + Send>,
    >,
    buffer: String,
    /// Everything received, byte for byte.
    pub raw: String,
}

impl Sse {
    pub async fn open(url: &str, last_event_id: Option<&str>) -> reqwest::Response {
        Sse::open_as(url, last_event_id, None).await
    }

    /// Opens a stream with an `Authorization` header (a player's).
    pub async fn open_as(
        url: &str,
        last_event_id: Option<&str>,
        authorization: Option<&str>,
    ) -> reqwest::Response {
        let client = reqwest::Client::new();
        let mut request = client.get(url);
        if let Some(id) = last_event_id {
            request = request.header("last-event-id", id);
        }
        if let Some(credential) = authorization {
            request = request.header("authorization", credential);
        }
        request.send().await.expect("the stream answers")
    }

    pub fn of(response: reqwest::Response) -> Sse {
        Sse {
            body: Box::pin(response.bytes_stream()),
            buffer: String::new(),
            raw: String::new(),
        }
    }

    /// The next event (comments skipped), or `None` if the stream ended or `within` passed.
    pub async fn next(&mut self, within: Duration) -> Option<SseEvent> {
        let deadline = tokio::time::Instant::now() + within;
        loop {
            if let Some(end) = self.buffer.find("\n\n") {
                let block: String = self.buffer.drain(..end + 2).collect();
                let mut event = SseEvent {
                    id: None,
                    event: None,
                    data: String::new(),
                };
                let mut any = false;
                for line in block.lines() {
                    if let Some(v) = line.strip_prefix("id:") {
                        event.id = Some(v.trim_start().to_owned());
                        any = true;
                    } else if let Some(v) = line.strip_prefix("event:") {
                        event.event = Some(v.trim_start().to_owned());
                        any = true;
                    } else if let Some(v) = line.strip_prefix("data:") {
                        if !event.data.is_empty() {
                            event.data.push('\n');
                        }
                        event.data.push_str(v.strip_prefix(' ').unwrap_or(v));
                        any = true;
                    }
                }
                if any {
                    return Some(event);
                }
                continue;
            }
            let chunk = tokio::time::timeout_at(deadline, self.body.next())
                .await
                .ok()??;
            let chunk = chunk.ok()?;
            let text = String::from_utf8_lossy(&chunk).into_owned();
            self.raw.push_str(&text);
            self.buffer.push_str(&text);
        }
    }
}
