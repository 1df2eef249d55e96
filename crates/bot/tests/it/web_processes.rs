//! The web page across processes: two `jieqi-bot run` processes on one PostgreSQL database
//! behind one Telegram webhook URL (the fake Telegram on 127.0.0.1), each serving the games'
//! page, a spectator connected to each. Moves are posted to either process in turn; every
//! spectator must see every move, once, in order, whichever process committed it (the
//! committing process `NOTIFY`s, the other `LISTEN`s).
//!
//! Needs `TEST_DATABASE_URL` (see `jieqi_store_pg::testing`); skipped without a server,
//! except under `CI=true`.

use crate::common::procs;

use std::time::{Duration, Instant};

use futures_util::StreamExt;
use jieqi_fake_telegram::{FakeBotApi, post_to_webhook};
use jieqi_service::{ChatId, GameStore, Platform};
use jieqi_store_pg::PgStore;
use jieqi_store_pg::testing::test_store;
use procs::{Proc, free_port};
use serde_json::Value;
use url::Url;

const SECRET: &str = "web-processes-secret";
const HANG: Duration = Duration::from_secs(60);
/// A legal Xiangqi opening (coordinates, Red first).
const OPENING: [&str; 12] = [
    "h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "b0c2", "a9b9", "a0b0", "g6g5", "g3g4", "c6c5",
];

/// Posts `update` to the webhook at `first`, else the other, until one answers 200.
async fn post(hooks: &[Url], first: usize, update: &Value) {
    let body = update.to_string();
    let deadline = Instant::now() + HANG;
    let mut at = first;
    loop {
        if post_to_webhook(&hooks[at], Some(SECRET), &body).await == 200 {
            return;
        }
        assert!(Instant::now() < deadline, "no process took {body}");
        at = (at + 1) % hooks.len();
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// A spectator's stream: the move counts of the pages it received, in order.
struct Spectator {
    body: std::pin::Pin<
        Box<dyn futures_util::Stream<Item = reqwest::Result<axum::body::Bytes>> + Send>,
    >,
    buffer: String,
    /// Each page's moves, as received.
    pages: Vec<Vec<String>>,
}

impl Spectator {
    async fn open(url: &str) -> Spectator {
        let deadline = Instant::now() + HANG;
        loop {
            if let Ok(response) = reqwest::get(url).await
                && response.status() == 200
            {
                return Spectator {
                    body: Box::pin(response.bytes_stream()),
                    buffer: String::new(),
                    pages: Vec::new(),
                };
            }
            assert!(Instant::now() < deadline, "no page at {url}");
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }

    /// Reads pages until one lists `moves` moves; when it arrived.
    async fn until_moves(&mut self, moves: usize) -> Instant {
        let deadline = tokio::time::Instant::now() + HANG;
        loop {
            while let Some(end) = self.buffer.find("\n\n") {
                let block: String = self.buffer.drain(..end + 2).collect();
                let Some(data) = block.lines().find_map(|l| l.strip_prefix("data: ")) else {
                    continue;
                };
                let page: Value = serde_json::from_str(data).expect("a page");
                let listed: Vec<String> = page["moves"]
                    .as_array()
                    .expect("moves")
                    .iter()
                    .map(|m| m["text"].as_str().unwrap_or_default().to_owned())
                    .collect();
                let count = listed.len();
                self.pages.push(listed);
                if count >= moves {
                    return Instant::now();
                }
            }
            let chunk = tokio::time::timeout_at(deadline, self.body.next())
                .await
                .unwrap_or_else(|_| panic!("move {moves} never reached the spectator"))
                .expect("the stream is open")
                .expect("bytes");
            self.buffer.push_str(&String::from_utf8_lossy(&chunk));
        }
    }

    /// Every page extends the one before: no move missing, repeated or reordered.
    fn assert_in_order(&self, all: &[String]) {
        let mut seen: Option<usize> = None;
        for page in &self.pages {
            assert!(
                seen.is_none_or(|seen| page.len() > seen),
                "a page that did not move on: {page:?}"
            );
            assert_eq!(
                page.as_slice(),
                &all[..page.len()],
                "pages agree on the record"
            );
            seen = Some(page.len());
        }
        assert_eq!(seen, Some(all.len()));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_spectator_sees_every_move_once_whichever_process_committed_it() {
    let Some(store) = test_store().await else {
        return;
    };
    let telegram = FakeBotApi::start().await;
    let (group, red, black) = (-100_777_i64, 31_001_i64, 31_002_i64);
    telegram.add_group(group, "Web club");
    telegram.add_user(red, "Red", None);
    telegram.add_user(black, "Black", None);
    let dir = tempfile::tempdir().expect("a folder");
    let mut hooks = Vec::new();
    let mut pages = Vec::new();
    let mut procs = Vec::new();
    for i in 0..2 {
        let (hook, web) = (free_port(), free_port());
        let env: Vec<(String, String)> = [
            ("TELEGRAM_TOKEN", jieqi_fake_telegram::TOKEN.to_owned()),
            ("TELEGRAM_API_URL", telegram.url.to_string()),
            (
                "TELEGRAM_WEBHOOK_URL",
                "https://bot.example.test/hook".to_owned(),
            ),
            ("TELEGRAM_WEBHOOK_ADDR", format!("127.0.0.1:{hook}")),
            ("TELEGRAM_WEBHOOK_SECRET", SECRET.to_owned()),
            ("HTTP_ADDR", format!("127.0.0.1:{}", free_port())),
            ("PUBLIC_URL", format!("http://127.0.0.1:{web}")),
            ("WEB_ADDR", format!("127.0.0.1:{web}")),
            ("DATABASE_URL", store.url().to_owned()),
            ("DATABASE_SCHEMA", store.schema().to_owned()),
            ("RUST_LOG", "warn".to_owned()),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v))
        .collect();
        let mut proc = Proc::new(&format!("web-{i}"), dir.path(), env);
        proc.start();
        procs.push(proc);
        hooks.push(Url::parse(&format!("http://127.0.0.1:{hook}/hook")).expect("a URL"));
        pages.push(format!("http://127.0.0.1:{web}"));
    }
    post(&hooks, 0, &telegram.message_update(red, red, "/start")).await;
    post(&hooks, 1, &telegram.message_update(black, black, "/start")).await;
    let mut challenge = telegram.message_update(red, group, "/challenge xiangqi red");
    challenge["message"]["reply_to_message"] = telegram.message_by(black, group, "play?");
    post(&hooks, 0, &challenge).await;
    post(&hooks, 1, &telegram.message_update(black, group, "/accept")).await;
    let reader = PgStore::connect_in_schema(store.url(), store.schema())
        .await
        .expect("the store");
    let chat = reader
        .chat(&ChatId::new(Platform::Telegram, group.to_string()))
        .await
        .expect("read")
        .expect("the group");
    let game = chat.games.first().expect("a game started").clone();

    let mut spectators = Vec::new();
    for base in &pages {
        let mut spectator = Spectator::open(&format!("{base}/g/{game}/live")).await;
        spectator.until_moves(0).await;
        spectators.push(spectator);
    }
    let mut lags = Vec::new();
    for (ply, text) in OPENING.iter().enumerate() {
        let who = if ply % 2 == 0 { red } else { black };
        let update = telegram.message_update(who, group, &format!("/move {text}"));
        // Alternate the process that takes it (and so commits it).
        post(&hooks, ply % 2, &update).await;
        let committed = Instant::now();
        for spectator in &mut spectators {
            let arrived = spectator.until_moves(ply + 1).await;
            lags.push(arrived.saturating_duration_since(committed));
        }
    }
    let record: Vec<String> = spectators[0].pages.last().expect("pages").clone();
    assert_eq!(record.len(), OPENING.len());
    for spectator in &spectators {
        spectator.assert_in_order(&record);
    }
    lags.sort();
    println!(
        "a move reached both processes' spectators after: median {:?}, slowest {:?} ({} arrivals)",
        lags[lags.len() / 2],
        lags[lags.len() - 1],
        lags.len()
    );
    for proc in &mut procs {
        let status = proc.terminate().expect("it ran");
        assert!(status.success(), "{}: {}", proc.name, proc.log_tail());
    }
}
