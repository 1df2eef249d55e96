//! Live games at scale (issue 50): 10,000 live games on one process, the flags that fall with
//! nobody moving, what an idle live game costs, and what a live clock adds to a move.
//!
//! `cargo bench -p jieqi-service --bench live_games` (with
//! `TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test`, PostgreSQL too) runs, on each
//! store, a service as `jieqi-bot run` keeps one (the 5 s tick, the flag follower,
//! `Service::follow_flags`) and prints:
//!
//! - `idle, nothing in play`: the process's CPU time (utime + stime from `/proc/self/stat`)
//!   over a 20 s window before any game exists;
//! - `started`: 10,000 live games (Jieqi, 30+0, each in its chat: a challenge, its
//!   acceptance and both first moves), how long that took, and the flag timers armed;
//! - `idle, 10,000 live games armed`: the same window with every game waiting for Red's move,
//!   and the CPU per idle live game (the window's CPU less the empty one's, over the games);
//!   then further windows until the idle cost settles to the empty process's (sled's flusher
//!   cleans segments after many commits), at most `JIEQI_BENCH_IDLE_WINDOWS` (9) in all;
//! - `flags`: while moves are made at a human pace across the 10,000 games (50 a second in
//!   all, one game in 200 moving each second, `JIEQI_BENCH_PACE` to change it), 200 games of
//!   1+0 are started, 10 a second, and left without a move after both first moves: for each,
//!   the flag deadline (as the stored clock has it) to the instant its result's commit is
//!   visible (the store's announcement of that revision), p50, p99 and max; the moves' own
//!   latency during the phase;
//! - `moves/s`: 64 games moving at once, correspondence games (a time per move, as before
//!   issue 50) against live ones (30+0), rounds of each taken in turn so that the machine's
//!   other load falls on both alike; then criterion's figures for one round of each.
//!
//! And the load average (`/proc/loadavg`) beside each part: the figures of a busy machine say
//! so. `JIEQI_BENCH_LIVE_GAMES` sets the number of live games (10,000),
//! `JIEQI_BENCH_FLAGGING` the games left to flag (200). The goal of issue 50
//! is a p99 under 100 ms from the flag to its committed result, and idle games costing
//! nothing measurable.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use jieqi_rules::{Game, GameDeal, Preset, Rules, Variant};
use jieqi_service::store::Ending;
use jieqi_service::{
    ChatId, GameChange, GameId, GameStore, IdempotencyKey, Input, Platform, Request, Service,
    ServiceConfig, SledStore, User, UserId,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tokio::runtime::Runtime;

/// The live games kept in play (`JIEQI_BENCH_LIVE_GAMES`).
const LIVE_GAMES: usize = 10_000;
/// Their control: long enough that none flags during the run. It was 10+0 until a run at a
/// load of 9 (2026-12-06) took over 6 minutes to start and deliver the 10,000 games, and the
/// first games' time ran out while the flags fell (a move refused "time is up"); what an
/// armed clock costs does not depend on its length.
const LIVE_CONTROL: &str = "30+0";
/// The games left to flag, and their control.
const FLAGGING_GAMES: usize = 200;
const FLAG_CONTROL: &str = "1+0";
/// How many flagging games start a second (their flags fall as far apart).
const FLAG_STARTS_PER_SECOND: f64 = 10.0;
/// Moves a second across the live games while the flags fall (`JIEQI_BENCH_PACE`).
const HUMAN_PACE: f64 = 50.0;
/// The window over which idle CPU is measured.
const IDLE_WINDOW: Duration = Duration::from_secs(20);
/// The most idle windows measured while waiting for the idle cost to settle.
const IDLE_WINDOWS: usize = 9;
/// Games being set up at once.
const SETUP_AT_ONCE: usize = 16;
/// Plies prepared per live game (a few are played at the human pace).
const LIVE_PLIES: usize = 12;
/// The throughput comparison: games moving at once, plies per game, rounds of each kind.
const GAMES_AT_ONCE: usize = 64;
const THROUGHPUT_PLIES: usize = 60;
const THROUGHPUT_ROUNDS: usize = 40;

static KEYS: AtomicU64 = AtomicU64::new(0);

fn request(user: &User, chat: &ChatId, text: &str, mentioned: Vec<User>) -> Request {
    Request {
        key: IdempotencyKey(format!("k{}", KEYS.fetch_add(1, Ordering::Relaxed))),
        chat: chat.clone(),
        is_private_chat: false,
        is_admin: false,
        user: user.clone(),
        mentioned,
        input: Input::Text(text.to_owned()),
        received_at: SystemTime::now(),
    }
}

fn unix_millis(at: SystemTime) -> u64 {
    at.duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// Up to `plies` random moves (chosen by `seed`) of a game dealt `deal`, none ending it.
fn random_moves(deal: GameDeal, seed: u64, plies: usize) -> Vec<String> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0xFFFF);
    let mut game = Game::new(Rules::new(Variant::Jieqi, Preset::Standard), deal).expect("game");
    let mut moves = Vec::new();
    while moves.len() < plies && game.outcome().is_none() {
        let legal = game.legal_move_texts();
        let mv = legal[rng.gen_range(0..legal.len())].clone();
        game.play_text(&mv).expect("legal");
        moves.push(mv);
    }
    if game.outcome().is_some() {
        moves.pop();
    }
    moves
}

/// One game in its own chat, and the moves it will be played with.
struct Table {
    game: GameId,
    chat: ChatId,
    players: [User; 2],
    moves: Vec<String>,
    next: usize,
}

impl Table {
    /// Starts game `index` in a chat of its own (`control`: a live game's clock, or none for
    /// a time per move), with `plies` moves prepared; `None` if it did not start.
    async fn start(
        service: &Service,
        store: &Arc<dyn GameStore>,
        index: u64,
        control: Option<&str>,
        plies: usize,
    ) -> Option<Table> {
        let red = User::new(
            UserId::new(Platform::Local, format!("r{index}")),
            format!("red{index}"),
        );
        let black = User::new(
            UserId::new(Platform::Local, format!("b{index}")),
            format!("black{index}"),
        );
        let chat = ChatId::new(Platform::Local, format!("table{index}"));
        let text = format!("/challenge @{} {} red", black.name, control.unwrap_or(""));
        service
            .handle(request(&red, &chat, &text, vec![black.clone()]))
            .await;
        service
            .handle(request(&black, &chat, "/accept", Vec::new()))
            .await;
        let game = store.chat(&chat).await.ok()??.games.first()?.clone();
        let record = store.game(&game).await.ok()??;
        assert_eq!(
            record.clock.is_some(),
            control.is_some(),
            "game {game} is live exactly when a control was given"
        );
        let deal = GameDeal::from_letters(record.variant, &record.deal).ok()?;
        Some(Table {
            game,
            chat,
            players: [red, black],
            moves: random_moves(deal, index, plies),
            next: 0,
        })
    }

    /// The next prepared move of whoever is to move, and how long `handle` took.
    async fn play(&mut self, service: &Service) -> Option<Duration> {
        let mv = self.moves.get(self.next)?.clone();
        let mover = self.players[self.next % 2].clone();
        self.next += 1;
        let started = Instant::now();
        let answer = service
            .handle(request(
                &mover,
                &self.chat,
                &format!("/move {mv}"),
                Vec::new(),
            ))
            .await;
        assert!(answer.replies.is_empty(), "{mv}: {answer:?}");
        Some(started.elapsed())
    }

    /// The player to move resigns (asked, then confirmed).
    async fn resign(&self, service: &Service) {
        let loser = &self.players[self.next % 2];
        for _ in 0..2 {
            service
                .handle(request(loser, &self.chat, "/resign", Vec::new()))
                .await;
        }
    }
}

/// CPU time this process has used (all threads), from /proc (Linux).
fn cpu_time() -> Duration {
    ticks_of(&std::fs::read_to_string("/proc/self/stat").unwrap_or_default())
}

/// utime + stime of a `/proc/.../stat` line.
fn ticks_of(stat: &str) -> Duration {
    let ticks = stat
        .rsplit_once(')')
        .and_then(|(_, rest)| {
            // After the command name: utime is the 12th field, stime the 13th.
            let rest: Vec<&str> = rest.split_whitespace().collect();
            Some(rest.get(11)?.parse::<u64>().ok()? + rest.get(12)?.parse::<u64>().ok()?)
        })
        .unwrap_or(0);
    // USER_HZ is 100 on Linux.
    Duration::from_millis(ticks * 10)
}

/// CPU time each kind of thread of this process has used (threads named alike summed: the
/// runtime's workers, sled's flusher, the blocking pool).
fn cpu_by_thread() -> HashMap<String, Duration> {
    let mut used = HashMap::new();
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return used;
    };
    for task in tasks.flatten() {
        let Ok(stat) = std::fs::read_to_string(task.path().join("stat")) else {
            continue;
        };
        let name = stat
            .split_once('(')
            .and_then(|(_, rest)| rest.rsplit_once(')'))
            .map_or("?", |(name, _)| name)
            .to_owned();
        *used.entry(name).or_insert(Duration::ZERO) += ticks_of(&stat);
    }
    used
}

/// What each kind of thread used between two readings of [`cpu_by_thread`], most first.
fn thread_share(before: &HashMap<String, Duration>, after: &HashMap<String, Duration>) -> String {
    let mut used: Vec<(&String, Duration)> = after
        .iter()
        .map(|(name, t)| {
            (
                name,
                t.saturating_sub(before.get(name).copied().unwrap_or_default()),
            )
        })
        .filter(|(_, t)| !t.is_zero())
        .collect();
    used.sort_by_key(|(_, t)| std::cmp::Reverse(*t));
    let parts: Vec<String> = used
        .iter()
        .map(|(name, t)| format!("{name} {:.0} ms", t.as_secs_f64() * 1e3))
        .collect();
    if parts.is_empty() {
        "none".to_owned()
    } else {
        parts.join(", ")
    }
}

/// Whether what an idle process uses beyond the empty one's fades or stays: sled's flusher
/// spends up to half of each flush interval cleaning segments while the cleaning makes
/// progress, which after many commits is the store's upkeep, not the games'. Further idle
/// windows (up to `JIEQI_BENCH_IDLE_WINDOWS`, 9) are measured until one uses no more than
/// the empty process did plus the counter's step (10 ms) twice.
async fn settle(name: &str, empty: Duration) {
    let windows = figure("JIEQI_BENCH_IDLE_WINDOWS", IDLE_WINDOWS as f64) as usize;
    for window in 2..=windows {
        let before = cpu_time();
        let threads = cpu_by_thread();
        tokio::time::sleep(IDLE_WINDOW).await;
        let idle = cpu_time().saturating_sub(before);
        println!(
            "{name}: idle window {window} ({:?} after the first began): {:.0} ms of CPU ({}; {})",
            IDLE_WINDOW * (window as u32 - 1),
            idle.as_secs_f64() * 1e3,
            thread_share(&threads, &cpu_by_thread()),
            load()
        );
        if idle <= empty + Duration::from_millis(20) {
            println!("{name}: idle cost settled to the empty process's by window {window}");
            return;
        }
    }
    println!("{name}: idle cost had not settled after {windows} windows");
}

/// The machine's load averages over 1, 5 and 15 minutes.
fn load() -> String {
    let loadavg = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let figures: Vec<&str> = loadavg.split_whitespace().take(3).collect();
    format!("load average {}", figures.join(" "))
}

fn percentile(sorted: &[Duration], q: f64) -> Duration {
    sorted[((sorted.len() as f64 - 1.0) * q).round() as usize]
}

fn spread(mut took: Vec<Duration>) -> String {
    if took.is_empty() {
        return "none".to_owned();
    }
    took.sort();
    format!(
        "p50 {:.1?}, p99 {:.1?}, max {:.1?} ({} of them)",
        percentile(&took, 0.5),
        percentile(&took, 0.99),
        took[took.len() - 1],
        took.len()
    )
}

fn figure(name: &str, default: f64) -> f64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn runtime() -> Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime")
}

/// The stores measured: sled in a temporary folder, and PostgreSQL when there is one.
enum Backend {
    Sled {
        store: Arc<SledStore>,
        _dir: tempfile::TempDir,
    },
    Postgres(Box<jieqi_store_pg::testing::TestStore>),
}

impl Backend {
    fn sled() -> Backend {
        let dir = tempfile::tempdir().expect("dir");
        let store = Arc::new(SledStore::open(dir.path()).expect("store"));
        Backend::Sled { store, _dir: dir }
    }

    async fn store(&self) -> Arc<dyn GameStore> {
        match self {
            Backend::Sled { store, .. } => store.clone(),
            Backend::Postgres(pg) => Arc::new(pg.another().await),
        }
    }
}

/// A service as `jieqi-bot run` keeps it: its clock offset measured, the tick every 5 s and
/// the flag follower. The tasks stop with the runtime.
async fn running_service(store: Arc<dyn GameStore>) -> Service {
    let service = Service::open_with_store(store, ServiceConfig::default()).expect("service");
    service.measure_clock().await.expect("the store's clock");
    let ticking = service.clone();
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(Duration::from_secs(5));
        loop {
            ticks.tick().await;
            ticking.tick(SystemTime::now()).await;
        }
    });
    let following = service.clone();
    tokio::spawn(async move { following.follow_flags().await });
    service
}

/// Marks every pending message delivered, as a sender would.
async fn deliver_all(service: &Service) {
    loop {
        let pending = service.pending(512).await.expect("pending");
        if pending.is_empty() {
            return;
        }
        for entry in pending {
            service
                .delivered(entry.id, Some(entry.id.0.to_string()))
                .await
                .expect("delivered");
        }
    }
}

/// Starts `count` live games from `first` on, `SETUP_AT_ONCE` at a time, both first moves
/// made in each.
async fn start_live_games(
    service: &Service,
    store: &Arc<dyn GameStore>,
    first: u64,
    count: usize,
) -> Vec<Table> {
    let gate = Arc::new(tokio::sync::Semaphore::new(SETUP_AT_ONCE));
    let mut tasks = Vec::with_capacity(count);
    for index in first..first + count as u64 {
        let (service, store, gate) = (service.clone(), store.clone(), gate.clone());
        tasks.push(tokio::spawn(async move {
            let _permit = gate.acquire_owned().await.expect("the gate");
            let mut table =
                Table::start(&service, &store, index, Some(LIVE_CONTROL), LIVE_PLIES).await?;
            table.play(&service).await?;
            table.play(&service).await?;
            Some(table)
        }));
    }
    let mut tables = Vec::with_capacity(count);
    for task in tasks {
        if let Some(table) = task.await.expect("a game's setup") {
            tables.push(table);
        }
    }
    tables
}

/// What the store announced: each game's revisions and the instant each was heard of.
#[derive(Default)]
struct Announcements {
    heard: Mutex<HashMap<GameId, Vec<(u64, u64)>>>,
    missed: AtomicU64,
}

impl Announcements {
    fn follow(service: &Service) -> Arc<Announcements> {
        let log = Arc::new(Announcements::default());
        let mut news = service.game_changes();
        let writer = log.clone();
        tokio::spawn(async move {
            loop {
                match news.recv().await {
                    Ok(GameChange::Revised(id, revision)) => {
                        let at = unix_millis(SystemTime::now());
                        let mut heard = writer.heard.lock().expect("the log");
                        heard.entry(id).or_default().push((revision, at));
                    }
                    Ok(GameChange::MaybeMissed) => {
                        writer.missed.fetch_add(1, Ordering::Relaxed);
                    }
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(n)) => {
                        writer.missed.fetch_add(n, Ordering::Relaxed);
                    }
                    Err(tokio::sync::broadcast::error::RecvError::Closed) => return,
                }
            }
        });
        log
    }

    fn heard(&self, id: &GameId, revision: u64) -> Option<u64> {
        let heard = self.heard.lock().expect("the log");
        heard
            .get(id)?
            .iter()
            .find(|(r, _)| *r == revision)
            .map(|(_, at)| *at)
    }
}

/// The live games of one store: idle CPU, flags falling while moves are made, on `backend`.
fn live_games(name: &str, backend: &Backend) {
    let games = figure("JIEQI_BENCH_LIVE_GAMES", LIVE_GAMES as f64) as usize;
    let pace = figure("JIEQI_BENCH_PACE", HUMAN_PACE);
    let flagging_games = figure("JIEQI_BENCH_FLAGGING", FLAGGING_GAMES as f64) as usize;
    let rt = runtime();
    rt.block_on(async {
        let store = backend.store().await;
        let service = running_service(store.clone()).await;

        // The process with nothing in play.
        tokio::time::sleep(Duration::from_secs(6)).await;
        let before = cpu_time();
        tokio::time::sleep(IDLE_WINDOW).await;
        let empty = cpu_time().saturating_sub(before);
        println!(
            "{name}: idle, nothing in play: {:.0} ms of CPU in {IDLE_WINDOW:?} ({})",
            empty.as_secs_f64() * 1e3,
            load()
        );

        let started = Instant::now();
        let cpu = cpu_time();
        let mut tables = start_live_games(&service, &store, 0, games).await;
        let took = started.elapsed();
        println!(
            "{name}: started {} live games ({LIVE_CONTROL}, both first moves made) in {took:.1?}: \
             {:.0} games/s, {:.1} ms of CPU a game; {} flag timers armed ({})",
            tables.len(),
            tables.len() as f64 / took.as_secs_f64(),
            cpu_time().saturating_sub(cpu).as_secs_f64() * 1e3 / tables.len().max(1) as f64,
            service.flag_timers(),
            load()
        );
        assert_eq!(tables.len(), games, "every live game started");
        assert!(
            service.flag_timers() >= games,
            "every live game's flag timer is armed"
        );
        deliver_all(&service).await;
        // What a tick finds to do after so many commits (a compaction) is done before the
        // window: it measures the games waiting.
        service.tick(SystemTime::now()).await;
        tokio::time::sleep(Duration::from_secs(2)).await;

        let before = cpu_time();
        let threads = cpu_by_thread();
        tokio::time::sleep(IDLE_WINDOW).await;
        let idle = cpu_time().saturating_sub(before);
        let by_thread = thread_share(&threads, &cpu_by_thread());
        let per_game = idle.saturating_sub(empty).as_secs_f64() / tables.len() as f64
            / IDLE_WINDOW.as_secs_f64();
        println!(
            "{name}: idle, {} live games armed: {:.0} ms of CPU in {IDLE_WINDOW:?} against {:.0} ms \
             with none: {:.3} µs of CPU a second per idle live game; {} flag timers armed ({})",
            tables.len(),
            idle.as_secs_f64() * 1e3,
            empty.as_secs_f64() * 1e3,
            per_game * 1e6,
            service.flag_timers(),
            load()
        );
        println!("{name}: idle, by thread: {by_thread}");
        settle(name, empty).await;

        // Flags falling while the live games move at a human pace.
        let heard = Announcements::follow(&service);
        let moving = Arc::new(AtomicBool::new(true));
        let move_latencies = Arc::new(Mutex::new(Vec::new()));
        let mover = {
            let (service, moving, latencies) =
                (service.clone(), moving.clone(), move_latencies.clone());
            let mut tables = std::mem::take(&mut tables);
            tokio::spawn(async move {
                let mut ticker = tokio::time::interval(Duration::from_secs_f64(1.0 / pace));
                ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
                let mut rng = ChaCha8Rng::seed_from_u64(50);
                let mut moves = Vec::new();
                while moving.load(Ordering::Relaxed) {
                    ticker.tick().await;
                    if tables.is_empty() {
                        continue;
                    }
                    let mut table = {
                        let i = rng.gen_range(0..tables.len());
                        tables.swap_remove(i)
                    };
                    let (service, latencies) = (service.clone(), latencies.clone());
                    moves.push(tokio::spawn(async move {
                        if let Some(took) = table.play(&service).await {
                            latencies.lock().expect("latencies").push(took);
                        }
                        table
                    }));
                    // Games whose moves came back go into the draw again.
                    let (done, waiting): (Vec<_>, Vec<_>) =
                        moves.drain(..).partition(|t| t.is_finished());
                    moves = waiting;
                    for task in done {
                        tables.push(task.await.expect("a move"));
                    }
                }
                for task in moves {
                    tables.push(task.await.expect("a move"));
                }
                tables
            })
        };
        let mut flagging = Vec::with_capacity(flagging_games);
        let mut starts = tokio::time::interval(Duration::from_secs_f64(1.0 / FLAG_STARTS_PER_SECOND));
        for index in 0..flagging_games as u64 {
            starts.tick().await;
            let Some(mut table) =
                Table::start(&service, &store, 1_000_000 + index, Some(FLAG_CONTROL), 4).await
            else {
                continue;
            };
            table.play(&service).await;
            table.play(&service).await;
            // Nobody moves again: Red's flag falls at the deadline the clock stored says.
            let record = store.game(&table.game).await.expect("store").expect("game");
            let deadline = record
                .clock
                .as_ref()
                .and_then(|clock| clock.flag_deadline())
                .expect("Red's clock runs")
                .as_millis();
            flagging.push((table.game, deadline));
        }
        let last = flagging.iter().map(|(_, d)| *d).max().unwrap_or(0);
        while unix_millis(SystemTime::now()) < last + 3_000 {
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        moving.store(false, Ordering::Relaxed);
        let tables = mover.await.expect("the mover");

        let mut late = Vec::with_capacity(flagging.len());
        let mut unjudged = 0;
        for (game, deadline) in &flagging {
            let record = store.game(game).await.expect("store").expect("game");
            let Some(Ending::TimedOut(_)) = record.ending else {
                unjudged += 1;
                continue;
            };
            match heard.heard(game, record.revision) {
                Some(at) => late.push(Duration::from_millis(at.saturating_sub(*deadline))),
                None => unjudged += 1,
            }
        }
        let moves_made = move_latencies.lock().expect("latencies").len();
        println!(
            "{name}: flags: {} games of {FLAG_CONTROL} left to flag, {FLAG_STARTS_PER_SECOND} a second, \
             while {moves_made} moves were made at {pace} a second across {} live games: \
             flag deadline -> committed result {}; {unjudged} not ended on time or not heard of, \
             {} announcements missed ({})",
            flagging.len(),
            tables.len(),
            spread(late.clone()),
            heard.missed.load(Ordering::Relaxed),
            load()
        );
        println!(
            "{name}: the moves meanwhile: {}",
            spread(std::mem::take(&mut *move_latencies.lock().expect("latencies")))
        );
        assert_eq!(unjudged, 0, "every flagging game ended on time, heard of");
    });
    // The sleeping timers and the tick go with the runtime.
    rt.shutdown_timeout(Duration::from_secs(5));
}

/// `GAMES_AT_ONCE` games of one kind, moving together, ended ones replaced.
struct Fleet {
    tables: Vec<Table>,
    control: Option<&'static str>,
    next_index: u64,
}

impl Fleet {
    async fn open(
        service: &Service,
        store: &Arc<dyn GameStore>,
        control: Option<&'static str>,
        first: u64,
    ) -> Fleet {
        let mut fleet = Fleet {
            tables: Vec::new(),
            control,
            next_index: first,
        };
        fleet.refill(service, store).await;
        fleet
    }

    /// Resigns the games that played all their moves and starts new ones.
    async fn refill(&mut self, service: &Service, store: &Arc<dyn GameStore>) {
        self.tables.retain(|t| t.next < t.moves.len());
        while self.tables.len() < GAMES_AT_ONCE {
            let index = self.next_index;
            self.next_index += 1;
            if let Some(table) =
                Table::start(service, store, index, self.control, THROUGHPUT_PLIES).await
            {
                self.tables.push(table);
            }
        }
    }

    /// One move in every game at once; how long the round took and how many moves it made.
    async fn round(&mut self, service: &Service) -> (Duration, usize) {
        let started = Instant::now();
        let mut tasks = Vec::with_capacity(self.tables.len());
        for mut table in std::mem::take(&mut self.tables) {
            let service = service.clone();
            tasks.push(tokio::spawn(async move {
                let moved = table.play(&service).await.is_some();
                (table, moved)
            }));
        }
        let mut moves = 0;
        for task in tasks {
            let (table, moved) = task.await.expect("a move");
            moves += usize::from(moved);
            self.tables.push(table);
        }
        let took = started.elapsed();
        // Games that played all their moves end outside the time measured.
        for table in &self.tables {
            if table.next >= table.moves.len() {
                table.resign(service).await;
            }
        }
        (took, moves)
    }
}

/// Moves a second with live clocks and without, rounds of each in turn.
fn moves_per_second(
    rt: &Runtime,
    service: &Service,
    fleets: &mut [Fleet; 2],
    store: &Arc<dyn GameStore>,
) {
    let mut took = [Duration::ZERO; 2];
    let mut made = [0usize; 2];
    let cpu = cpu_time();
    rt.block_on(async {
        for _ in 0..THROUGHPUT_ROUNDS {
            for (kind, fleet) in fleets.iter_mut().enumerate() {
                fleet.refill(service, store).await;
                let (t, n) = fleet.round(service).await;
                took[kind] += t;
                made[kind] += n;
            }
        }
    });
    let rate = |kind: usize| made[kind] as f64 / took[kind].as_secs_f64();
    println!(
        "sled: moves/s, {GAMES_AT_ONCE} games moving at once: correspondence {:.0} moves/s ({} moves), \
         live ({LIVE_CONTROL}) {:.0} moves/s ({} moves): live at {:.0} % of correspondence; \
         {:.2} ms of CPU a move over both ({})",
        rate(0),
        made[0],
        rate(1),
        made[1],
        100.0 * rate(1) / rate(0),
        cpu_time().saturating_sub(cpu).as_secs_f64() * 1e3 / (made[0] + made[1]).max(1) as f64,
        load()
    );
}

fn live_clocks(c: &mut Criterion) {
    let sled = Backend::sled();
    live_games("sled", &sled);
    drop(sled);
    if std::env::var("TEST_DATABASE_URL").is_ok() {
        match runtime().block_on(jieqi_store_pg::testing::test_store()) {
            Some(pg) => live_games("PostgreSQL", &Backend::Postgres(Box::new(pg))),
            None => println!("PostgreSQL: not measured (no server at TEST_DATABASE_URL)"),
        }
    } else {
        println!("PostgreSQL: not measured (set TEST_DATABASE_URL)");
    }

    // What a live clock adds to a move.
    let rt = runtime();
    let backend = Backend::sled();
    let store = rt.block_on(backend.store());
    let service = rt.block_on(running_service(store.clone()));
    let mut fleets = rt.block_on(async {
        [
            Fleet::open(&service, &store, None, 2_000_000).await,
            Fleet::open(&service, &store, Some(LIVE_CONTROL), 3_000_000).await,
        ]
    });
    moves_per_second(&rt, &service, &mut fleets, &store);
    let fleets = fleets.map(Mutex::new);
    let mut group = c.benchmark_group("live_games");
    group.throughput(Throughput::Elements(GAMES_AT_ONCE as u64));
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(10));
    for (kind, name) in [
        "64 correspondence games, one move each",
        "64 live games (30+0), one move each",
    ]
    .into_iter()
    .enumerate()
    {
        group.bench_function(name, |b| {
            b.iter_custom(|iters| {
                let mut fleet = fleets[kind].lock().expect("fleet");
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    rt.block_on(fleet.refill(&service, &store));
                    total += rt.block_on(fleet.round(&service)).0;
                }
                total
            })
        });
    }
    group.finish();
}

criterion_group!(benches, live_clocks);
criterion_main!(benches);
