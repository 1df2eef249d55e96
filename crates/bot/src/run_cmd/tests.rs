//! `run`'s wiring with an adapter made for the test (the real adapters live in their own
//! crates): requests in, outbox out through the adapter's sender, health and metrics over
//! HTTP on 127.0.0.1, and an orderly stop.

use std::net::SocketAddr;
use std::sync::Mutex;
use std::time::Instant;

use jieqi_service::{ChatId, IdempotencyKey, Input, OutboxEntry, Request, SendError, User, UserId};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use super::*;

/// Records what it is asked to send.
#[derive(Debug, Default)]
struct Recorder {
    sent: Mutex<Vec<OutboxEntry>>,
}

#[async_trait]
impl Sender for Recorder {
    async fn send(&self, entry: &OutboxEntry) -> Result<Option<String>, SendError> {
        if let Ok(mut sent) = self.sent.lock() {
            sent.push(entry.clone());
        }
        Ok(Some(entry.id.0.to_string()))
    }
}

/// Hands the service a fixed list of requests, then waits for the stop (or fails at once).
struct ScriptedAdapter {
    requests: Vec<Request>,
    sender: Arc<Recorder>,
    fail: bool,
    username: Option<String>,
}

#[async_trait]
impl Adapter for ScriptedAdapter {
    fn platform(&self) -> Platform {
        Platform::Local
    }

    fn sender(&self, _budgets: jieqi_service::SendBudgets) -> Arc<dyn Sender> {
        self.sender.clone()
    }

    async fn bot_username(&self) -> anyhow::Result<Option<String>> {
        Ok(self.username.clone())
    }

    async fn receive(
        self: Box<Self>,
        service: Service,
        shutdown: CancellationToken,
    ) -> anyhow::Result<()> {
        if self.fail {
            anyhow::bail!("the platform refused the token");
        }
        for request in self.requests {
            service.handle(request).await;
        }
        shutdown.cancelled().await;
        Ok(())
    }
}

fn request(key: &str, who: &str, text: &str, mentioned: &[&str]) -> Request {
    let user = |name: &str| User::new(UserId::new(Platform::Local, name), name);
    Request {
        key: IdempotencyKey(key.to_owned()),
        chat: ChatId::new(Platform::Local, "room"),
        is_private_chat: false,
        is_admin: true,
        user: user(who),
        mentioned: mentioned.iter().map(|name| user(name)).collect(),
        input: Input::Text(text.to_owned()),
        received_at: SystemTime::now(),
    }
}

fn open(dir: &std::path::Path) -> Service {
    Service::open(ServiceConfig {
        data_dir: dir.to_path_buf(),
        ..ServiceConfig::default()
    })
    .unwrap_or_else(|error| panic!("{error}"))
}

/// Queues a notice for the room and claims it for a holder that then stops (its claim
/// lapses at once). Its id.
async fn left_claimed_by_a_dead_holder(store: &SledStore) -> jieqi_service::OutboxId {
    let ids = store
        .allocate_outbox_ids(1)
        .await
        .unwrap_or_else(|error| panic!("{error}"));
    let record = jieqi_service::store::OutboxRecord {
        message: jieqi_service::Message::text(
            jieqi_service::Destination::Chat(ChatId::new(Platform::Local, "room")),
            jieqi_service::MessageKind::Notice,
            "left behind",
        ),
        attempts: 0,
        created_at: 0,
        fallback_chat: None,
        picture: None,
        not_before: 0,
        covers: None,
    };
    store
        .commit(jieqi_service::store::Change {
            outbox: vec![(ids[0], record)],
            ..jieqi_service::store::Change::default()
        })
        .await
        .unwrap_or_else(|error| panic!("{error}"));
    let now = SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |since| {
            u64::try_from(since.as_millis()).unwrap_or(u64::MAX)
        });
    let claim = jieqi_service::store::Claim {
        holder: "1-a-process-that-died".to_owned(),
        now,
        until: now,
    };
    let claimed = store
        .claim(None, &claim, 1)
        .await
        .unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(claimed.len(), 1);
    ids[0]
}

async fn get(addr: SocketAddr, path: &str) -> String {
    let mut stream = tokio::net::TcpStream::connect(addr)
        .await
        .unwrap_or_else(|error| panic!("{error}"));
    let ask = format!("GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    stream
        .write_all(ask.as_bytes())
        .await
        .unwrap_or_else(|error| panic!("{error}"));
    let mut response = String::new();
    stream
        .read_to_string(&mut response)
        .await
        .unwrap_or_else(|error| panic!("{error}"));
    response
}

fn test_config() -> Config {
    Config {
        discord_token: None,
        telegram_token: None,
        data_dir: PathBuf::from("./data"),
        database_url: None,
        database_schema: "public".to_owned(),
        database_connections: jieqi_store_pg::DEFAULT_CONNECTIONS,
        discord_api_url: None,
        telegram_api_url: None,
        discord_guild_id: None,
        discord_shards: None,
        telegram_webhook_url: None,
        telegram_webhook_addr: ([127, 0, 0, 1], 8443).into(),
        telegram_webhook_secret: None,
        http_addr: SocketAddr::from(([127, 0, 0, 1], 0)),
        public_url: None,
        web_addr: SocketAddr::from(([127, 0, 0, 1], 0)),
        web_streams_per_address: 64,
        web_secret: None,
        telegram_mini_app: None,
        discord_client_secret: None,
        log_filter: None,
        challenge_expiry: Duration::from_secs(3600),
        default_move_time: Duration::from_secs(86_400),
        default_language: jieqi_service::Language::En,
        live_board_interval: Duration::from_secs(20),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn run_delivers_the_outbox_serves_health_and_metrics_and_stops_on_the_signal() {
    let dir = tempfile::tempdir().unwrap_or_else(|error| panic!("{error}"));
    // A message left claimed by a holder that died: its lapsed claim is taken over.
    let store = Arc::new(SledStore::open(dir.path()).unwrap_or_else(|error| panic!("{error}")));
    let left = left_claimed_by_a_dead_holder(&store).await;
    let service = Service::open_with_store(
        store,
        ServiceConfig {
            data_dir: dir.path().to_path_buf(),
            ..ServiceConfig::default()
        },
    )
    .unwrap_or_else(|error| panic!("{error}"));
    let listener = TcpListener::bind("127.0.0.1:0")
        .await
        .unwrap_or_else(|error| panic!("{error}"));
    let addr = listener
        .local_addr()
        .unwrap_or_else(|error| panic!("{error}"));
    let recorder = Arc::new(Recorder::default());
    let adapter = ScriptedAdapter {
        requests: vec![request("1", "alice", "/challenge @bob jieqi", &["bob"])],
        sender: recorder.clone(),
        fail: false,
        username: None,
    };
    let shutdown = CancellationToken::new();
    let running = tokio::spawn(serve(
        service.clone(),
        vec![Box::new(adapter)],
        listener,
        shutdown.clone(),
    ));

    let deadline = Instant::now() + Duration::from_secs(60);
    while recorder
        .sent
        .lock()
        .map(|sent| sent.len() < 2)
        .unwrap_or(true)
    {
        assert!(
            Instant::now() < deadline,
            "the challenge and the message left claimed were never delivered"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Delivery may overtake the end of `handle`, which counts the request last.
    while service.metrics().requests == 0 {
        assert!(Instant::now() < deadline, "the request was never counted");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }

    let health = get(addr, "/healthz").await;
    assert!(health.starts_with("HTTP/1.1 200"), "{health}");
    assert!(health.ends_with("ok\n"), "{health}");
    let metrics = get(addr, "/metrics").await;
    assert!(metrics.starts_with("HTTP/1.1 200"), "{metrics}");
    assert!(
        metrics.contains("application/openmetrics-text; version=1.0.0"),
        "{metrics}"
    );
    let body = metrics
        .split_once("\r\n\r\n")
        .map(|(_, body)| body)
        .unwrap_or_default();
    let samples = crate::http::page::read(body).unwrap_or_else(|error| panic!("{error}\n{body}"));
    let value = |name, labels: &[(&str, &str)]| crate::http::page::value(&samples, name, labels);
    assert_eq!(value("jieqi_requests_total", &[]), Some(1.0), "{body}");
    assert_eq!(
        value("jieqi_request_duration_seconds_count", &[]),
        Some(1.0),
        "{body}"
    );
    assert_eq!(value("jieqi_moves_total", &[]), Some(0.0), "{body}");
    let delivered = [("platform", "local"), ("outcome", "delivered")];
    assert!(
        value("jieqi_posts_total", &delivered) >= Some(1.0),
        "{body}"
    );
    assert!(
        value("jieqi_delivery_lag_seconds_count", &[("platform", "local")]) >= Some(1.0),
        "{body}"
    );
    assert!(
        recorder
            .sent
            .lock()
            .map(|sent| sent.iter().any(|entry| entry.id == left))
            .unwrap_or(false)
    );
    assert_eq!(
        value("jieqi_claims_taken_over_total", &[("platform", "local")]),
        Some(1.0),
        "{body}"
    );
    let commits = [("operation", "commit")];
    assert!(
        value("jieqi_store_call_duration_seconds_count", &commits) >= Some(1.0),
        "{body}"
    );

    shutdown.cancel();
    let clean = running.await.unwrap_or_else(|error| panic!("{error}"));
    assert!(matches!(clean, Ok(true)), "{clean:?}");
    let pending = service
        .pending(8)
        .await
        .unwrap_or_else(|error| panic!("{error}"));
    assert!(
        pending.is_empty(),
        "what was sent is marked delivered: {pending:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_adapter_that_fails_stops_the_bot_and_is_reported() {
    let dir = tempfile::tempdir().unwrap_or_else(|error| panic!("{error}"));
    let listener = TcpListener::bind("127.0.0.1:0")
        .await
        .unwrap_or_else(|error| panic!("{error}"));
    let adapter = ScriptedAdapter {
        requests: Vec::new(),
        sender: Arc::new(Recorder::default()),
        fail: true,
        username: None,
    };
    let shutdown = CancellationToken::new();
    let clean = serve(
        open(dir.path()),
        vec![Box::new(adapter)],
        listener,
        shutdown.clone(),
    )
    .await;
    assert!(matches!(clean, Ok(false)), "{clean:?}");
    assert!(shutdown.is_cancelled(), "everything else was told to stop");
}

#[test]
fn no_token_names_both_variables_and_the_local_mode() {
    let error = adapters(&test_config(), &PLATFORMS)
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(error.contains("TELEGRAM_TOKEN or DISCORD_TOKEN"), "{error}");
    assert!(error.contains("@BotFather"), "{error}");
    assert!(error.contains("jieqi-bot local"), "{error}");
}

#[test]
fn a_platform_with_a_token_and_a_builder_gets_its_adapter() {
    fn build(_: &Config, _: &Token) -> anyhow::Result<Box<dyn Adapter>> {
        Ok(Box::new(ScriptedAdapter {
            requests: Vec::new(),
            sender: Arc::new(Recorder::default()),
            fail: false,
            username: None,
        }))
    }
    let slots = [PlatformSlot {
        name: "Telegram",
        key: "TELEGRAM_TOKEN",
        how_to_get: "ask @BotFather",
        token: |config| config.telegram_token.as_ref(),
        build: Some(build),
    }];
    let mut config = test_config();
    assert!(adapters(&config, &slots).is_err(), "no token, no adapter");
    config.telegram_token = Some(Token::new("123:abc"));
    let built = adapters(&config, &slots).unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(built.len(), 1);
    assert_eq!(built[0].platform(), Platform::Local);
}

#[tokio::test]
async fn the_first_username_an_adapter_reports_is_used_for_deep_links() {
    let adapter = |username: Option<&str>| -> Box<dyn Adapter> {
        Box::new(ScriptedAdapter {
            requests: Vec::new(),
            sender: Arc::new(Recorder::default()),
            fail: false,
            username: username.map(str::to_owned),
        })
    };
    let none = bot_username(&[adapter(None)]).await.ok().flatten();
    assert_eq!(none, None);
    let some = bot_username(&[adapter(None), adapter(Some("jieqi_bot"))])
        .await
        .ok()
        .flatten();
    assert_eq!(some.as_deref(), Some("jieqi_bot"));
}

#[test]
fn a_token_for_a_platform_not_built_in_is_refused_honestly() {
    let slots = [PlatformSlot {
        name: "Telegram",
        key: "TELEGRAM_TOKEN",
        how_to_get: "ask @BotFather",
        token: |config| config.telegram_token.as_ref(),
        build: None,
    }];
    let mut config = test_config();
    config.telegram_token = Some(Token::new("123:very-secret"));
    let error = adapters(&config, &slots)
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(
        error.contains(
            "TELEGRAM_TOKEN is set, but the Telegram adapter is not built into this binary yet"
        ),
        "{error}"
    );
    assert!(
        !error.contains("very-secret"),
        "the token is never shown: {error}"
    );
}

#[test]
fn the_web_page_checks_mini_app_sign_ins_with_the_telegram_token_only_when_telegram_runs() {
    let mut config = test_config();
    assert_eq!(web_config(&config), None, "no PUBLIC_URL, no page");
    config.public_url = url::Url::parse("https://bot.example.org/").ok();
    let web = web_config(&config).unwrap_or_else(|| panic!("a page with PUBLIC_URL"));
    assert_eq!(web.public_url, "https://bot.example.org");
    assert_eq!(web.telegram_bot_token, None, "Discord alone: no Mini App");
    config.telegram_token = Some(Token::new("123:abc"));
    let web = web_config(&config).unwrap_or_else(|| panic!("a page with PUBLIC_URL"));
    assert_eq!(
        web.telegram_bot_token,
        Some(jieqi_web::BotToken("123:abc".to_owned()))
    );
}

#[test]
fn the_service_gets_the_web_secret_and_links_the_mini_app_through_the_bots_username() {
    let secret = jieqi_service::personal_link::WebSecret::new(vec![7; 32]);
    let mut config = test_config();
    config.public_url = url::Url::parse("https://bot.example.org").ok();
    config.web_secret = secret.clone();
    config.telegram_mini_app = Some("board".to_owned());
    let service = service_config(&config, Some("JieqiBot".to_owned()));
    assert_eq!(service.web_secret, secret);
    let game: jieqi_service::GameId = "g7k2".parse().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        service.mini_app_link(&game).as_deref(),
        Some("https://t.me/JieqiBot/board?startapp=g7k2")
    );
    assert_eq!(
        service.game_link(&game).as_deref(),
        Some("https://bot.example.org/g/g7k2")
    );
}

#[test]
fn the_discord_activity_needs_its_secret_the_bot_the_page_and_personal_links() {
    let secret = || Some(crate::config::Token::new("client-secret"));
    let mut config = test_config();
    config.discord_client_secret = secret();
    assert!(!super::activity_on(&config), "no Discord token, no page");
    config.discord_token = Some(crate::config::Token::new("bot-token"));
    config.public_url = Some(url::Url::parse("https://bot.example.org").expect("a url"));
    assert!(
        !super::activity_on(&config),
        "no WEB_SECRET: no personal links"
    );
    config.web_secret = jieqi_service::personal_link::WebSecret::new(vec![1; 32]);
    assert!(super::activity_on(&config));
    config.discord_client_secret = None;
    assert!(!super::activity_on(&config), "without the secret, off");
}
