//! Operations, end to end, through the real binary: several `jieqi-bot run` processes on one
//! PostgreSQL database against the fake Telegram and the fake Discord (both on 127.0.0.1),
//! killed with SIGKILL at seeded random points and started again; a crash sweep of one
//! process on each store; and the start-up refusals and the database going away mid-run.
//!
//! Figures are printed (run with `--nocapture` to see them): moves acknowledged, lost (0),
//! applied twice (0), boards posted twice after the platform had acknowledged them (0 on
//! Discord, where every post carries a nonce; Telegram has no idempotency key, so a kill
//! inside a send can double a post: its window is measured and only bounded), and the
//! takeover delay: from a kill to the delivery, by the other process, of each message the
//! killed one had claimed (its claims lapse within one short lease, since nothing renews
//! them any more). A live process never loses a claim (it renews them): no process logs
//! that one of its claims was taken over.
//!
//! The PostgreSQL tests need `TEST_DATABASE_URL` (see `jieqi_store_pg::testing`); without a
//! server they are skipped, except under `CI=true`.

use crate::common::procs;

use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use jieqi_fake_discord::{ALICE, BOB, FakeDiscord, Member, Recorded, Seen, user_json};
use jieqi_fake_telegram::{FakeBotApi, post_to_webhook};
use jieqi_service::{ChatId, GameStore, Platform, SledStore};
use jieqi_store_pg::PgStore;
use jieqi_store_pg::testing::{TestStore, test_store};
use procs::{Proc, free_port, run_command};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};
use url::Url;

/// The webhook secret every process shares (as behind a load balancer).
pub(crate) const SECRET: &str = "multi-process-secret_42";
/// How long anything may take before the test gives up (a hang guard, not a timing check).
pub(crate) const HANG: Duration = Duration::from_secs(300);

/// A legal Xiangqi opening (coordinates, Red first): no capture, no check.
pub(crate) const OPENING: [&str; 16] = [
    "h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "b0c2", "a9b9", "a0b0", "g6g5", "g3g4", "c6c5",
    "c3c4", "b7a7", "b2a2", "h7i7",
];

/// Kill delays of the crash sweep, after a move was acknowledged.
const SWEEP_DELAYS_MS: [u64; 12] = [5, 10, 20, 40, 80, 120, 200, 300, 450, 600, 800, 1000];

pub(crate) fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime")
}

pub(crate) fn env(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}

/// The Telegram part of a process's environment: webhook mode on `webhook_port`.
pub(crate) fn telegram_env(fake: &FakeBotApi, webhook_port: u16) -> Vec<(String, String)> {
    env(&[
        ("TELEGRAM_TOKEN", jieqi_fake_telegram::TOKEN),
        ("TELEGRAM_API_URL", fake.url.as_str()),
        // Registered with the fake only; Telegram would post here through a TLS proxy.
        ("TELEGRAM_WEBHOOK_URL", "https://bot.example.test/hook"),
        (
            "TELEGRAM_WEBHOOK_ADDR",
            &format!("127.0.0.1:{webhook_port}"),
        ),
        ("TELEGRAM_WEBHOOK_SECRET", SECRET),
        ("HTTP_ADDR", &format!("127.0.0.1:{}", free_port())),
        ("RUST_LOG", "warn"),
    ])
}

fn webhook_url(port: u16) -> Url {
    Url::parse(&format!("http://127.0.0.1:{port}/hook")).expect("a URL")
}

/// The store part of a process's environment.
enum Store {
    Sled(tempfile::TempDir),
    Pg(Box<TestStore>),
}

impl Store {
    fn env(&self) -> Vec<(String, String)> {
        match self {
            Store::Sled(dir) => env(&[("DATA_DIR", &dir.path().display().to_string())]),
            Store::Pg(store) => env_of(store),
        }
    }

    fn name(&self) -> &'static str {
        match self {
            Store::Sled(_) => "sled",
            Store::Pg(_) => "PostgreSQL",
        }
    }
}

/// Posts updates to the processes' webhooks in turn; a process that is down (or cut off
/// mid-request) gets the same update retried on the next, as a load balancer would.
pub(crate) struct Webhooks {
    urls: Vec<Url>,
    next: AtomicUsize,
}

impl Webhooks {
    pub(crate) fn new(ports: &[u16]) -> Webhooks {
        Webhooks {
            urls: ports.iter().map(|p| webhook_url(*p)).collect(),
            next: AtomicUsize::new(0),
        }
    }

    /// Until some process answers 200 (the update is acknowledged).
    pub(crate) async fn post(&self, update: &Value) {
        let body = update.to_string();
        let first = self.next.fetch_add(1, Ordering::SeqCst) % self.urls.len();
        let deadline = Instant::now() + HANG;
        let mut at = first;
        loop {
            let status = post_to_webhook(&self.urls[at], Some(SECRET), &body).await;
            if status == 200 {
                return;
            }
            assert!(
                status == 0 || status >= 500,
                "a webhook answered {status} to {body}"
            );
            assert!(
                Instant::now() < deadline,
                "no process took the update within {HANG:?}: {body}"
            );
            at = (at + 1) % self.urls.len();
            if at == first {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }
}

/// One Telegram game: its group and players.
#[derive(Clone, Copy)]
pub(crate) struct TgGame {
    pub(crate) group: i64,
    pub(crate) red: i64,
    pub(crate) black: i64,
}

impl TgGame {
    pub(crate) fn new(n: i64) -> TgGame {
        TgGame {
            group: -100_000_000 - n,
            red: 10_000 + 2 * n,
            black: 10_001 + 2 * n,
        }
    }

    pub(crate) fn add_to(&self, fake: &FakeBotApi) {
        fake.add_group(self.group, &format!("Club {}", self.group));
        fake.add_user(self.red, "Red", None);
        fake.add_user(self.black, "Black", None);
    }

    /// Both players open the bot's private chat, Red challenges Black (replying to one of
    /// Black's messages) to Xiangqi, Black accepts.
    pub(crate) async fn start(&self, fake: &FakeBotApi, hooks: &Webhooks) {
        hooks
            .post(&fake.message_update(self.red, self.red, "/start"))
            .await;
        hooks
            .post(&fake.message_update(self.black, self.black, "/start"))
            .await;
        let mut challenge = fake.message_update(self.red, self.group, "/challenge xiangqi red");
        challenge["message"]["reply_to_message"] = fake.message_by(self.black, self.group, "play?");
        hooks.post(&challenge).await;
        hooks
            .post(&fake.message_update(self.black, self.group, "/accept"))
            .await;
    }

    /// The update of ply `ply` of [`OPENING`], by the player whose turn it is.
    pub(crate) fn move_update(&self, fake: &FakeBotApi, ply: usize) -> Value {
        let who = if ply.is_multiple_of(2) {
            self.red
        } else {
            self.black
        };
        fake.message_update(who, self.group, &format!("/move {}", OPENING[ply]))
    }

    fn chat(&self) -> ChatId {
        ChatId::new(Platform::Telegram, self.group.to_string())
    }
}

/// One Discord game: its guild (which decides the shard) and channel.
#[derive(Clone, Copy)]
struct DcGame {
    guild: u64,
    channel: u64,
}

impl DcGame {
    /// Game `n`'s guild is on shard `n % count` (for an even count).
    fn new(n: u64) -> DcGame {
        DcGame {
            guild: ((100 + n) << 22) | 17,
            channel: 710_000 + n,
        }
    }

    fn shard(&self, count: u64) -> u64 {
        (self.guild >> 22) % count
    }

    fn command(&self, fake: &FakeDiscord, who: Member, name: &str, options: Value) -> Value {
        let resolved = match name {
            "challenge" => json!({
                "users": {BOB.id.to_string(): user_json(BOB)},
                "members": {BOB.id.to_string():
                    {"nick": null, "roles": [], "joined_at": "2024-01-01T00:00:00Z", "flags": 0}}
            }),
            _ => json!({}),
        };
        let mut interaction = fake.command_in(self.guild, who, name, options, resolved);
        interaction["channel_id"] = json!(self.channel.to_string());
        interaction["channel"]["id"] = json!(self.channel.to_string());
        interaction
    }

    fn challenge(&self, fake: &FakeDiscord) -> Value {
        self.command(
            fake,
            ALICE,
            "challenge",
            json!([
                {"name": "user", "type": 6, "value": BOB.id.to_string()},
                {"name": "variant", "type": 3, "value": "xiangqi"},
                {"name": "colour", "type": 3, "value": "red"}
            ]),
        )
    }

    fn accept(&self, fake: &FakeDiscord) -> Value {
        self.command(fake, BOB, "accept", json!([]))
    }

    fn move_interaction(&self, fake: &FakeDiscord, ply: usize) -> Value {
        let who = if ply.is_multiple_of(2) { ALICE } else { BOB };
        self.command(
            fake,
            who,
            "move",
            json!([{"name": "move", "type": 3, "value": OPENING[ply]}]),
        )
    }

    fn chat(&self) -> ChatId {
        ChatId::new(Platform::Discord, self.channel.to_string())
    }
}

/// How an interaction was answered.
#[derive(Debug)]
enum Answered {
    /// As a request that was carried out is (nothing shown, or shown to the channel).
    Normally,
    /// With a refusal shown to the caller alone.
    Refused(String),
    /// Deferred ("thinking…") by a process that died before writing the answer: the person
    /// never learns what happened and asks again.
    Never,
}

/// Dispatches an interaction to its shard's connection until it is answered: while the
/// process holding that shard is down nothing can be delivered; an interaction whose process
/// died before answering is delivered again with the same id (as a resumed session replays
/// it), so it is never applied twice.
async fn send_interaction(fake: &FakeDiscord, interaction: &Value) -> Answered {
    let deadline = Instant::now() + HANG;
    loop {
        if fake.try_dispatch(interaction) {
            let answer_by = Instant::now() + Duration::from_secs(15);
            while Instant::now() < answer_by && !fake.is_settled(interaction) {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        } else {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let answers = fake.answers(interaction);
        if fake.is_settled(interaction) {
            let refusals: Vec<String> = answers
                .iter()
                .filter(|r| matches!(r.seen, Seen::Ephemeral(_)))
                .map(Recorded::text)
                .collect();
            return if refusals.is_empty() {
                Answered::Normally
            } else {
                Answered::Refused(refusals.join("\n"))
            };
        }
        if answers
            .iter()
            .any(|r| r.path.ends_with("/callback") && r.status < 300)
        {
            return Answered::Never;
        }
        if Instant::now() > deadline {
            let answers: Vec<String> = answers
                .iter()
                .map(|r| format!("{} {} {} {}", r.method, r.path, r.status, r.text()))
                .collect();
            panic!(
                "no answer to {} within {HANG:?}; its requests:\n{}",
                interaction["data"],
                answers.join("\n")
            );
        }
    }
}

/// What happened to the Discord requests of a run.
#[derive(Default)]
struct DiscordCounts {
    /// Deferred and never answered (their process was killed), so asked again anew.
    never_answered: AtomicUsize,
    /// Asked again after that, and refused: the first request had been carried out.
    refused_as_done: AtomicUsize,
}

/// Sends a request as a person would: again (a new interaction) if it was never answered. A
/// refusal is only right for a request asked again, whose first try was carried out.
async fn discord_step(
    fake: &FakeDiscord,
    make: impl Fn() -> Value,
    counts: &DiscordCounts,
) -> Answered {
    let mut asked_again = false;
    loop {
        let interaction = make();
        match send_interaction(fake, &interaction).await {
            Answered::Never => {
                counts.never_answered.fetch_add(1, Ordering::SeqCst);
                asked_again = true;
            }
            Answered::Refused(said) if asked_again => {
                counts.refused_as_done.fetch_add(1, Ordering::SeqCst);
                return Answered::Refused(said);
            }
            Answered::Refused(said) => panic!("{} was refused: {said}", interaction["data"]),
            Answered::Normally => return Answered::Normally,
        }
    }
}

/// Telegram board posts (with a picture) that repeat an earlier post of the same chat,
/// with how long after the first each came.
fn telegram_duplicate_boards(fake: &FakeBotApi) -> Vec<Duration> {
    let mut first: HashMap<(i64, String, Vec<u8>), Instant> = HashMap::new();
    let mut repeats = Vec::new();
    for post in fake.posts() {
        let Some(photo) = post.photo else { continue };
        match first.entry((post.chat, post.text, photo)) {
            std::collections::hash_map::Entry::Occupied(earlier) => {
                repeats.push(post.at.saturating_duration_since(*earlier.get()));
            }
            std::collections::hash_map::Entry::Vacant(slot) => {
                slot.insert(post.at);
            }
        }
    }
    repeats
}

/// The boards told in a Telegram chat: the game's first board, and each move some board
/// names (boards that waited together go out as the newest, naming all their moves), so
/// 1 + the moves once everything is out.
fn telegram_boards(fake: &FakeBotApi, chat: i64) -> usize {
    let captions: Vec<String> = fake
        .posts_in(chat)
        .into_iter()
        .filter(|post| post.photo.is_some())
        .map(|post| post.text)
        .collect();
    let named = |ply: usize| {
        let number = if ply.is_multiple_of(2) {
            format!("{}.", ply / 2 + 1)
        } else {
            format!("{}…", ply / 2 + 1)
        };
        captions.iter().any(|caption| {
            caption.contains(&format!("· {number} ")) || caption.contains(&format!("; {number} "))
        })
    };
    let started = captions
        .iter()
        .any(|caption| caption.contains("has started"));
    usize::from(started) + (0..1000).filter(|ply| named(*ply)).count()
}

/// Discord messages created twice in the game channels: the same body (nonce aside).
fn discord_duplicate_boards(fake: &FakeDiscord, channels: &[u64]) -> usize {
    let mut seen: Vec<(u64, Value)> = Vec::new();
    let mut repeats = 0;
    for created in fake.created() {
        if !channels.contains(&created.channel) {
            continue;
        }
        let mut body = created.json.clone();
        if let Some(object) = body.as_object_mut() {
            object.remove("nonce");
            object.remove("enforce_nonce");
        }
        if seen
            .iter()
            .any(|(c, b)| *c == created.channel && *b == body)
        {
            repeats += 1;
        } else {
            seen.push((created.channel, body));
        }
    }
    repeats
}

/// Waits until nothing is left undelivered.
async fn outbox_drained(store: &dyn GameStore, procs: &Mutex<Vec<Proc>>) {
    let deadline = Instant::now() + HANG;
    loop {
        match store.pending(1).await {
            Ok(pending) if pending.is_empty() => return,
            Ok(pending) => {
                if Instant::now() > deadline {
                    let logs: Vec<String> = procs
                        .lock()
                        .unwrap_or_else(|p| p.into_inner())
                        .iter()
                        .map(|p| format!("{}:\n{}", p.name, p.log_tail()))
                        .collect();
                    panic!(
                        "the outbox did not drain within {HANG:?}: {pending:?}\n{}",
                        logs.join("\n")
                    );
                }
            }
            Err(error) => assert!(Instant::now() < deadline, "the outbox: {error}"),
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

/// Moves lost and moves applied twice: the game's record against the acknowledged moves.
async fn compare_moves(
    store: &dyn GameStore,
    chat: &ChatId,
    acknowledged: usize,
) -> (usize, usize) {
    let record = store
        .chat(chat)
        .await
        .expect("the store reads")
        .unwrap_or_else(|| panic!("{chat} has a record"));
    let [game] = record.games.as_slice() else {
        panic!("one game in {chat}: {:?}", record.games);
    };
    let game = store
        .game(game)
        .await
        .expect("the store reads")
        .expect("the game");
    let expected: Vec<String> = OPENING[..acknowledged]
        .iter()
        .map(|m| (*m).to_owned())
        .collect();
    let lost = expected.len().saturating_sub(game.moves.len());
    let twice = game.moves.len().saturating_sub(expected.len());
    assert_eq!(
        game.moves, expected,
        "{chat}: every acknowledged move once and in order"
    );
    (lost, twice)
}

/// Two processes on one database, Telegram by webhook (updates posted alternately to both)
/// and Discord in two shard ranges, many games at once; one process at a time is killed at
/// random points and started again.
#[test]
fn two_processes_on_one_database_killed_at_random_points_lose_and_double_nothing() {
    runtime().block_on(async {
        let Some(store) = test_store().await else {
            return;
        };
        let store = Arc::new(store);
        const TG_GAMES: i64 = 6;
        const DC_GAMES: u64 = 6;
        const SHARDS: u64 = 2;
        let telegram = FakeBotApi::start().await;
        let discord = FakeDiscord::start().await;
        let tg_games: Vec<TgGame> = (0..TG_GAMES).map(TgGame::new).collect();
        for game in &tg_games {
            game.add_to(&telegram);
        }
        let dc_games: Vec<DcGame> = (0..DC_GAMES).map(DcGame::new).collect();
        for game in &dc_games {
            discord.add_channel(game.channel);
        }
        let shards_used: Vec<u64> = dc_games.iter().map(|g| g.shard(SHARDS)).collect();
        assert!(
            (0..SHARDS).all(|s| shards_used.contains(&s)),
            "games on every shard: {shards_used:?}"
        );

        let dir = tempfile::tempdir().expect("a temporary folder");
        let ports = [free_port(), free_port()];
        let procs: Vec<Proc> = ports
            .iter()
            .enumerate()
            .map(|(i, port)| {
                let mut env = telegram_env(&telegram, *port);
                env.extend(env_of(&store));
                env.extend(procs_env_discord(&discord, i as u64, SHARDS));
                Proc::new(&format!("process-{i}"), dir.path(), env)
            })
            .collect();
        let procs = Arc::new(Mutex::new(procs));
        for proc in procs.lock().expect("procs").iter_mut() {
            proc.start();
        }
        discord.wait_for_shards(SHARDS as usize).await;
        let hooks = Arc::new(Webhooks::new(&ports));
        let telegram = Arc::new(telegram);
        let discord = Arc::new(discord);

        // Kills, while the games are played: one process at a time, at seeded random points.
        let stop = Arc::new(AtomicBool::new(false));
        let takeovers = Arc::new(Mutex::new(Vec::new()));
        let chaos = {
            let (procs, stop) = (procs.clone(), stop.clone());
            let (store, takeovers) = (store.clone(), takeovers.clone());
            tokio::spawn(async move {
                let mut rng = ChaCha8Rng::seed_from_u64(20_240_611);
                let began = Instant::now();
                let mut kills = 0;
                let mut watchers = Vec::new();
                tokio::time::sleep(Duration::from_millis(rng.gen_range(500..2000))).await;
                while !stop.load(Ordering::SeqCst) && kills < 12 {
                    let victim = rng.gen_range(0..2);
                    let pid = procs.lock().expect("procs")[victim].pid();
                    procs.lock().expect("procs")[victim].kill();
                    let killed_at = (Instant::now(), SystemTime::now());
                    kills += 1;
                    if let Some(pid) = pid {
                        watchers.push(tokio::spawn(watch_takeover(
                            store.clone(),
                            kills,
                            pid,
                            killed_at,
                            takeovers.clone(),
                        )));
                    }
                    tokio::time::sleep(Duration::from_millis(rng.gen_range(100..1500))).await;
                    procs.lock().expect("procs")[victim].start();
                    println!(
                        "kill {kills}: process-{victim} at {:.1} s, started again at {:.1} s",
                        killed_at.0.duration_since(began).as_secs_f64(),
                        began.elapsed().as_secs_f64()
                    );
                    tokio::time::sleep(Duration::from_millis(rng.gen_range(800..2500))).await;
                }
                for watcher in watchers {
                    watcher.await.expect("a takeover watcher");
                }
                kills
            })
        };

        let acknowledged = Arc::new(AtomicUsize::new(0));
        let counts = Arc::new(DiscordCounts::default());
        let mut games = tokio::task::JoinSet::new();
        for game in tg_games.clone() {
            let (fake, hooks, acknowledged) =
                (telegram.clone(), hooks.clone(), acknowledged.clone());
            games.spawn(async move {
                game.start(&fake, &hooks).await;
                for ply in 0..OPENING.len() {
                    hooks.post(&game.move_update(&fake, ply)).await;
                    acknowledged.fetch_add(1, Ordering::SeqCst);
                }
            });
        }
        for game in dc_games.clone() {
            let (fake, acknowledged) = (discord.clone(), acknowledged.clone());
            let counts = counts.clone();
            games.spawn(async move {
                discord_step(&fake, || game.challenge(&fake), &counts).await;
                discord_step(&fake, || game.accept(&fake), &counts).await;
                for ply in 0..OPENING.len() {
                    let answered =
                        discord_step(&fake, || game.move_interaction(&fake, ply), &counts).await;
                    if matches!(answered, Answered::Normally) {
                        acknowledged.fetch_add(1, Ordering::SeqCst);
                    }
                }
            });
        }
        while let Some(done) = games.join_next().await {
            done.expect("a game was played to its end");
        }
        stop.store(true, Ordering::SeqCst);
        let kills = chaos.await.expect("the kills");
        // Everything owed is delivered by whichever process claims it (a killed process's
        // claims lapse after their lease).
        outbox_drained(&**store, &procs).await;

        let (mut lost, mut twice) = (0, 0);
        for game in &tg_games {
            let (l, t) = compare_moves(&**store, &game.chat(), OPENING.len()).await;
            lost += l;
            twice += t;
            assert_eq!(
                telegram_boards(&telegram, game.group),
                1 + OPENING.len(),
                "every board of {} posted",
                game.group
            );
        }
        let channels: Vec<u64> = dc_games.iter().map(|g| g.channel).collect();
        for game in &dc_games {
            let (l, t) = compare_moves(&**store, &game.chat(), OPENING.len()).await;
            lost += l;
            twice += t;
        }
        let discord_twice = discord_duplicate_boards(&discord, &channels);
        let telegram_twice = telegram_duplicate_boards(&telegram);
        let window = telegram_twice.iter().max().copied().unwrap_or_default();
        let takeovers = takeovers.lock().expect("takeovers").clone();
        let mut delays: Vec<Duration> = takeovers.iter().map(|t| t.delivered).collect();
        delays.sort();
        println!(
            "multi-process takeover: {} messages claimed by a killed process, delivered by the \
             other {}\n{}",
            delays.len(),
            percentiles(&delays),
            takeover_lines(&takeovers).join("\n")
        );
        // Each with the process's log lines around it: why a live process lost it.
        let lost_claims: Vec<String> = procs
            .lock()
            .expect("procs")
            .iter()
            .flat_map(|p| {
                let log = p.log();
                let lines: Vec<&str> = log.lines().collect();
                lines
                    .iter()
                    .enumerate()
                    .filter(|(_, line)| line.contains("a delivery claim lapsed"))
                    .map(|(at, _)| lines[at.saturating_sub(8)..at + 1].join("\n"))
                    .collect::<Vec<_>>()
            })
            .collect();
        println!(
            "multi-process: acknowledged={}, lost={lost}, applied_twice={twice}, \
             discord_duplicate_boards={discord_twice}, telegram_duplicate_boards={} \
             (latest {:.1} s after the first), kills={kills}, outbox=empty, \
             discord_never_answered={} (asked again; refused as done: {})",
            acknowledged.load(Ordering::SeqCst),
            telegram_twice.len(),
            window.as_secs_f64(),
            counts.never_answered.load(Ordering::SeqCst),
            counts.refused_as_done.load(Ordering::SeqCst),
        );
        assert_eq!(discord_twice, 0, "Discord boards are posted once (nonces)");
        assert!(
            lost_claims.is_empty(),
            "a live process lost a delivery claim:\n{}",
            lost_claims.join("\n---\n")
        );
        // Each kill can cut at most one send per Telegram lane short.
        assert!(
            telegram_twice.len() <= kills * (TG_GAMES as usize + 2),
            "{} Telegram boards posted twice after {kills} kills",
            telegram_twice.len()
        );
        for proc in procs.lock().expect("procs").iter_mut() {
            proc.terminate();
        }
    });
}

/// What became of one message a killed process had claimed.
#[derive(Clone, Debug)]
struct Takeover {
    /// The kill, numbered from 1.
    kill: usize,
    /// From the kill to the lapse of the killed process's claim (its last renewal's lease).
    lapsed: Duration,
    /// From the kill to the first claim of another holder that the watcher saw (none: it was
    /// claimed and delivered between two looks).
    taken: Option<Duration>,
    /// Holders that claimed it after the killed one: two or more when a taker was killed
    /// too before it delivered.
    takers: usize,
    /// From the kill to its delivery (gone from the outbox).
    delivered: Duration,
}

/// After kill `kill` of process `pid` at `killed_at`: the messages it had claimed (live
/// claims named after it), and for each, when its claim lapsed, when another holder claimed
/// it and when it was delivered (gone from the outbox).
async fn watch_takeover(
    store: Arc<TestStore>,
    kill: usize,
    pid: u32,
    killed_at: (Instant, SystemTime),
    takeovers: Arc<Mutex<Vec<Takeover>>>,
) {
    let killed_ms = killed_at
        .1
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis());
    let claimed = store
        .query_texts(&format!(
            "SELECT id::text, claimed_by, claimed_until::text FROM outbox \
             WHERE claimed_by LIKE '{pid}-%' \
             AND claimed_until > (extract(epoch FROM clock_timestamp()) * 1000)::bigint"
        ))
        .await;
    // id -> (the dead holder, its claim's lapse after the kill, first taken, holders seen)
    let mut waiting: HashMap<String, (String, Duration, Option<Duration>, Vec<String>)> = claimed
        .into_iter()
        .filter_map(|row| {
            let [Some(id), Some(holder), Some(until)] = <[_; 3]>::try_from(row).ok()? else {
                return None;
            };
            let until: u128 = until.parse().ok()?;
            let lapsed =
                Duration::from_millis(u64::try_from(until.saturating_sub(killed_ms)).ok()?);
            Some((id, (holder, lapsed, None, Vec::new())))
        })
        .collect();
    let deadline = Instant::now() + HANG;
    while !waiting.is_empty() {
        let ids: Vec<&str> = waiting.keys().map(String::as_str).collect();
        let rows = store
            .query_texts(&format!(
                "SELECT id::text, claimed_by FROM outbox WHERE id IN ({})",
                ids.join(",")
            ))
            .await;
        let now = Instant::now();
        let since = now.saturating_duration_since(killed_at.0);
        let mut left = HashMap::new();
        for row in rows {
            let (Some(Some(id)), holder) = (row.first().cloned(), row.get(1).cloned().flatten())
            else {
                continue;
            };
            if let Some(mut watched) = waiting.remove(&id) {
                if let Some(holder) = holder
                    && holder != watched.0
                    && !watched.3.contains(&holder)
                {
                    watched.2.get_or_insert(since);
                    watched.3.push(holder);
                }
                left.insert(id, watched);
            }
        }
        takeovers
            .lock()
            .expect("takeovers")
            .extend(
                waiting
                    .drain()
                    .map(|(_, (_, lapsed, taken, takers))| Takeover {
                        kill,
                        lapsed,
                        taken,
                        takers: takers.len().max(1),
                        delivered: since,
                    }),
            );
        waiting = left;
        assert!(
            now < deadline,
            "claims of a killed process were never taken over"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// One line per kill whose process had claims: how many, and the spans of their lapse,
/// takeover and delivery after the kill.
fn takeover_lines(takeovers: &[Takeover]) -> Vec<String> {
    let mut kills: Vec<usize> = takeovers.iter().map(|t| t.kill).collect();
    kills.sort_unstable();
    kills.dedup();
    let span = |mut d: Vec<Duration>| {
        d.sort();
        match (d.first(), d.last()) {
            (Some(a), Some(b)) => format!("{:.1}-{:.1} s", a.as_secs_f64(), b.as_secs_f64()),
            _ => "-".to_owned(),
        }
    };
    kills
        .into_iter()
        .map(|kill| {
            let of: Vec<&Takeover> = takeovers.iter().filter(|t| t.kill == kill).collect();
            format!(
                "  kill {kill}: {} claims, lapsed after {}, taken after {}, delivered after {}, \
                 taken over more than once: {}",
                of.len(),
                span(of.iter().map(|t| t.lapsed).collect()),
                span(of.iter().filter_map(|t| t.taken).collect()),
                span(of.iter().map(|t| t.delivered).collect()),
                of.iter().filter(|t| t.takers > 1).count(),
            )
        })
        .collect()
}

/// "p50 1.2 s, p99 3.4 s, max 3.4 s" (nearest rank) of sorted `delays`.
fn percentiles(delays: &[Duration]) -> String {
    if delays.is_empty() {
        return "(none)".to_owned();
    }
    let rank = |p: f64| {
        let i = ((p * delays.len() as f64).ceil() as usize).clamp(1, delays.len()) - 1;
        delays[i].as_secs_f64()
    };
    format!(
        "after p50 {:.1} s, p99 {:.1} s, max {:.1} s",
        rank(0.5),
        rank(0.99),
        rank(1.0)
    )
}

/// The Discord part of process `i`'s environment: shard `i` of `count`.
fn procs_env_discord(fake: &FakeDiscord, i: u64, count: u64) -> Vec<(String, String)> {
    env(&[
        ("DISCORD_TOKEN", jieqi_fake_discord::TOKEN),
        ("DISCORD_API_URL", &fake.http_url),
        ("DISCORD_SHARDS", &format!("{i}-{i}")),
        ("DISCORD_SHARD_COUNT", &count.to_string()),
    ])
}

/// One process, one Telegram game by webhook: killed 5 ms to 1 s after an acknowledged move,
/// started again; prints the kills and the boards posted twice.
async fn crash_sweep(store: Store) {
    let telegram = FakeBotApi::start().await;
    let game = TgGame::new(1);
    game.add_to(&telegram);
    let dir = tempfile::tempdir().expect("a temporary folder");
    let port = free_port();
    let mut env = telegram_env(&telegram, port);
    env.extend(store.env());
    let procs = Mutex::new(vec![Proc::new("sweep", dir.path(), env)]);
    let proc = |f: &mut dyn FnMut(&mut Proc)| f(&mut procs.lock().expect("procs")[0]);
    proc(&mut |p| p.start());
    let hooks = Webhooks::new(&[port]);
    game.start(&telegram, &hooks).await;
    let mut kills = 0;
    for ply in 0..OPENING.len() {
        hooks.post(&game.move_update(&telegram, ply)).await;
        if let Some(delay) = SWEEP_DELAYS_MS.get(ply) {
            tokio::time::sleep(Duration::from_millis(*delay)).await;
            proc(&mut |p| {
                p.kill();
                p.start();
            });
            kills += 1;
        }
    }
    telegram
        .wait_for("every board", HANG, |fake| {
            telegram_boards(fake, game.group) == 1 + OPENING.len()
        })
        .await;
    match &store {
        Store::Pg(pg) => {
            let pg: &PgStore = pg;
            outbox_drained(pg, &procs).await;
            compare_moves(pg, &game.chat(), OPENING.len()).await;
            proc(&mut |p| {
                p.terminate();
            });
        }
        Store::Sled(data) => {
            // sled is one process's: stop it, look, and start it again while something is
            // still owed.
            let deadline = Instant::now() + HANG;
            loop {
                proc(&mut |p| {
                    p.terminate();
                });
                let sled = SledStore::open(data.path()).expect("the sled store opens");
                let pending = sled.pending(1).await.expect("the outbox");
                if pending.is_empty() {
                    compare_moves(&sled, &game.chat(), OPENING.len()).await;
                    break;
                }
                drop(sled);
                assert!(
                    Instant::now() < deadline,
                    "the outbox did not drain: {pending:?}"
                );
                proc(&mut |p| p.start());
                tokio::time::sleep(Duration::from_secs(3)).await;
            }
        }
    }
    let duplicates = telegram_duplicate_boards(&telegram);
    println!(
        "crash sweep ({}): kills={kills}, duplicate_posts={} (delays {:?} ms), lost=0, \
         applied_twice=0",
        store.name(),
        duplicates.len(),
        SWEEP_DELAYS_MS
    );
    // The delivered mark is durable when Telegram answers: only a kill inside a send
    // itself can double a post, at most once per kill.
    assert!(
        duplicates.len() <= kills,
        "{} boards posted twice after {kills} kills",
        duplicates.len()
    );
}

#[test]
fn crash_sweep_on_sled_loses_nothing_and_counts_duplicate_posts() {
    runtime().block_on(async {
        let data = tempfile::tempdir().expect("a temporary folder");
        crash_sweep(Store::Sled(data)).await;
    });
}

#[test]
fn crash_sweep_on_postgres_loses_nothing_and_counts_duplicate_posts() {
    runtime().block_on(async {
        let Some(store) = test_store().await else {
            return;
        };
        crash_sweep(Store::Pg(Box::new(store))).await;
    });
}

fn refused_start(dir: &Path, env: &[(String, String)]) -> (Option<i32>, String) {
    let mut command = run_command(dir, env);
    let mut child = command
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        if child.try_wait().expect("waitable").is_some() {
            break;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("the binary did not refuse to start within two minutes");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let output = child.wait_with_output().expect("its output");
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// A platform that is never reached: the refusals come before anything is contacted.
fn unreachable_telegram() -> Vec<(String, String)> {
    env(&[
        ("TELEGRAM_TOKEN", jieqi_fake_telegram::TOKEN),
        ("TELEGRAM_API_URL", "http://127.0.0.1:9/"),
        ("HTTP_ADDR", &format!("127.0.0.1:{}", free_port())),
        ("RUST_LOG", "warn"),
    ])
}

#[test]
fn a_wrong_database_url_stops_the_start_with_exit_2_naming_it() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    for url in [
        // Nothing listens there.
        "postgres://jieqi@127.0.0.1:9/jieqi",
        // Not a URL.
        "postgres://jieqi@127.0.0.1:notaport/jieqi",
    ] {
        let mut env = unreachable_telegram();
        env.extend(self::env(&[("DATABASE_URL", url)]));
        let (code, said) = refused_start(dir.path(), &env);
        assert_eq!(code, Some(2), "{url}: {said}");
        assert!(said.contains("DATABASE_URL"), "{url}: {said}");
        assert!(said.contains("PostgreSQL"), "{url}: {said}");
    }
}

#[test]
fn a_schema_newer_than_the_binary_is_refused_saying_so() {
    runtime().block_on(async {
        let Some(store) = test_store().await else {
            return;
        };
        store
            .execute("INSERT INTO schema_migrations (version) VALUES (999)")
            .await;
        let dir = tempfile::tempdir().expect("a temporary folder");
        let mut env = unreachable_telegram();
        env.extend(env_of(&store));
        let (code, said) = refused_start(dir.path(), &env);
        assert_eq!(code, Some(2), "{said}");
        assert!(
            said.contains("schema version 999") && said.contains("newer than this bot"),
            "{said}"
        );
    });
}

/// The database going away mid-run (every connection of the process ended from the
/// server's side, several times, also while a move is being handled): each move is answered
/// normally or with the "try again" sentence, nothing acknowledged is lost, and the process
/// reconnects by itself.
#[test]
fn the_database_going_away_mid_run_loses_nothing_acknowledged_and_reconnects() {
    runtime().block_on(async {
        let Some(store) = test_store().await else {
            return;
        };
        let telegram = FakeBotApi::start().await;
        let game = TgGame::new(7);
        game.add_to(&telegram);
        let dir = tempfile::tempdir().expect("a temporary folder");
        let port = free_port();
        let mut env = telegram_env(&telegram, port);
        env.extend(env_of(&store));
        let procs = Mutex::new(vec![Proc::new("db-away", dir.path(), env)]);
        procs.lock().expect("procs")[0].start();
        let hooks = Webhooks::new(&[port]);
        game.start(&telegram, &hooks).await;
        let terminate = format!(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
             WHERE application_name = '{}' AND pid <> pg_backend_pid()",
            store.schema()
        );
        let (mut acknowledged, mut refused, mut applied_despite_refusal) = (0, 0, 0);
        let mut ply = 0;
        // The plies whose first try met an outage: the person's second try is a new message
        // into a database that came back, not another outage (terminating the connections
        // before every try would refuse every try, on a machine quick enough to send the
        // next request before the pool has read the last connection's farewell).
        let mut outage_done = None;
        let deadline = Instant::now() + HANG;
        while ply < OPENING.len() {
            assert!(Instant::now() < deadline, "the moves did not get through");
            let update = game.move_update(&telegram, ply);
            let message_id = update["message"]["message_id"].as_i64();
            let outage = if outage_done == Some(ply) { 0 } else { ply % 4 };
            outage_done = Some(ply);
            match outage {
                1 => {
                    store.execute(&terminate).await;
                    hooks.post(&update).await;
                }
                3 => {
                    tokio::join!(store.execute(&terminate), hooks.post(&update));
                }
                _ => hooks.post(&update).await,
            }
            // A refusal answers the move's message (before the webhook's 200).
            let replies: Vec<String> = telegram
                .posts_in(game.group)
                .into_iter()
                .filter(|p| p.reply_to.is_some() && p.reply_to == message_id)
                .map(|p| p.text)
                .collect();
            if replies.is_empty() {
                acknowledged += 1;
                ply += 1;
                continue;
            }
            let said = replies.join("\n");
            if said.contains("Nothing was changed") {
                // The person tries again (a new message).
                refused += 1;
                continue;
            }
            // Any other refusal is only right if the move was applied after all (its
            // outcome was unknown when the connection broke): it must be in the game then.
            let record = store
                .chat(&game.chat())
                .await
                .expect("reads")
                .expect("chat");
            let moves = store
                .game(&record.games[0])
                .await
                .expect("reads")
                .expect("game")
                .moves;
            assert_eq!(
                moves.len(),
                ply + 1,
                "move {} refused with {said:?}, and not applied",
                OPENING[ply]
            );
            applied_despite_refusal += 1;
            ply += 1;
        }
        outbox_drained(&*store, &procs).await;
        let (lost, twice) = compare_moves(&*store, &game.chat(), OPENING.len()).await;
        assert!(
            procs.lock().expect("procs")[0].is_running(),
            "the process kept running"
        );
        let status = procs.lock().expect("procs")[0].terminate();
        println!(
            "database going away: moves={}, acknowledged={acknowledged}, \
             answered_try_again={refused}, applied_despite_try_again={applied_despite_refusal}, \
             lost={lost}, applied_twice={twice}, stopped={status:?}",
            OPENING.len()
        );
    });
}

/// One `jieqi-bot run` process per port, named `{name}-{i}`, on `store`, taking the fake
/// Telegram's webhooks on its port; all started.
pub(crate) fn start_on_telegram(
    name: &str,
    telegram: &FakeBotApi,
    store: &TestStore,
    data: &std::path::Path,
    ports: &[u16],
) -> Vec<Proc> {
    let mut procs: Vec<Proc> = ports
        .iter()
        .enumerate()
        .map(|(i, port)| {
            let mut env = telegram_env(telegram, *port);
            env.extend(env_of(store));
            Proc::new(&format!("{name}-{i}"), data, env)
        })
        .collect();
    for proc in &mut procs {
        proc.start();
    }
    procs
}

pub(crate) fn env_of(store: &TestStore) -> Vec<(String, String)> {
    env(&[
        ("DATABASE_URL", store.url()),
        ("DATABASE_SCHEMA", store.schema()),
    ])
}
