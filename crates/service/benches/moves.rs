//! Moves through the service: parse, validate, apply, durable commit and the public board
//! picture, with 64 games played at once, on each store: sled (one process), PostgreSQL (one
//! process) and PostgreSQL shared by two processes (this benchmark binary started twice more
//! as workers, each with its own service, runtime and connection pool; the run is timed from
//! the parent, which starts both at once). Then what games cost in each store
//! (`moves/storage.rs`).
//!
//! `TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test cargo bench -p jieqi-service
//! --bench moves` prints, besides criterion's figures, the moves per second and latency
//! percentiles of every timed move; the store's size per finished game (in total and at the
//! margin) and per running game, with the outbox delivered and answers pruned as in a running
//! bot; and the time to load and replay a finished game for `/history`. Without
//! `TEST_DATABASE_URL` only sled is measured. `JIEQI_BENCH=throughput` or
//! `JIEQI_BENCH=storage` runs only that part.

use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use jieqi_rules::{Game, GameDeal, Preset, Rules, Variant};
use jieqi_service::{
    ChatId, DealSource, GameStore, IdempotencyKey, Input, Platform, Request, Service,
    ServiceConfig, SledStore, User, UserId,
};
use jieqi_store_pg::testing::{TestStore, test_store};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tokio::runtime::Runtime;

#[path = "moves/storage.rs"]
mod storage;

const GAMES: usize = 64;
const PLIES: usize = 60;

static KEYS: AtomicU64 = AtomicU64::new(0);

struct Table {
    chat: ChatId,
    players: [User; 2],
    moves: Vec<String>,
    next: usize,
}

fn request(user: &User, chat: &ChatId, text: &str, mentioned: Vec<User>) -> Request {
    Request {
        // Unique across the worker processes of the two-process run too.
        key: IdempotencyKey(format!(
            "{}:{}",
            std::process::id(),
            KEYS.fetch_add(1, Ordering::Relaxed)
        )),
        chat: chat.clone(),
        is_private_chat: false,
        is_admin: false,
        user: user.clone(),
        mentioned,
        input: Input::Text(text.to_owned()),
        received_at: SystemTime::now(),
    }
}

/// The deal of game `seed`.
fn deal(seed: u64) -> GameDeal {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    GameDeal::shuffled(Variant::Jieqi, &mut |n| rng.gen_range(0..n.max(1)))
}

/// Up to `PLIES` random moves of game `seed`, none of them ending it.
fn random_game(seed: u64) -> Vec<String> {
    random_moves(deal(seed), seed)
}

/// Up to `PLIES` random moves (chosen by `seed`) of a game dealt `deal`, none ending it.
fn random_moves(deal: GameDeal, seed: u64) -> Vec<String> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0xFFFF);
    let mut game = Game::new(Rules::new(Variant::Jieqi, Preset::Standard), deal).expect("game");
    let mut moves = Vec::new();
    while moves.len() < PLIES && game.outcome().is_none() {
        let legal = game.legal_move_texts();
        let mv = legal[rng.gen_range(0..legal.len())].clone();
        game.play_text(&mv).expect("legal");
        moves.push(mv);
    }
    // The last move may end the game; keep only moves that leave it running.
    if game.outcome().is_some() {
        moves.pop();
    }
    moves
}

struct Fleet {
    service: Service,
    store: Arc<dyn GameStore>,
    tables: Vec<Table>,
    next_seed: u64,
    /// Seeds (and so player and chat names) of this fleet are `prefix * 1_000_000 + n`.
    prefix: u64,
    finished: usize,
    finished_ids: Vec<jieqi_service::GameId>,
}

impl Fleet {
    /// A service whose games, in the order they start, get the deals of seeds 0, 1, 2...
    fn open(store: Arc<dyn GameStore>, prefix: u64) -> Fleet {
        let config = ServiceConfig {
            deal_source: DealSource::Scripted {
                seed: 1 + prefix,
                deals: (0..4096).map(|seed| deal(seed).letters()).collect(),
            },
            ..ServiceConfig::default()
        };
        let service = Service::open_with_store(store.clone(), config).expect("service");
        Fleet {
            service,
            store,
            tables: Vec::new(),
            next_seed: 0,
            prefix,
            finished: 0,
            finished_ids: Vec::new(),
        }
    }

    /// Starts the next game (untimed): a challenge and its acceptance.
    async fn start(&mut self) -> Table {
        let seed = self.next_seed;
        let index = self.prefix * 1_000_000 + seed;
        self.next_seed += 1;
        let red = User::new(
            UserId::new(Platform::Local, format!("r{index}")),
            format!("red{index}"),
        );
        let black = User::new(
            UserId::new(Platform::Local, format!("b{index}")),
            format!("black{index}"),
        );
        let chat = ChatId::new(Platform::Local, format!("table{index}"));
        let text = format!("/challenge @{} red", black.name);
        self.service
            .handle(request(&red, &chat, &text, vec![black.clone()]))
            .await;
        self.service
            .handle(request(&black, &chat, "/accept", Vec::new()))
            .await;
        // The moves follow the deal the game really got (not the scripted order, which a
        // game that failed to start would shift).
        let moves = match self.store.chat(&chat).await {
            Ok(Some(record)) => match record.games.first() {
                Some(id) => match self.store.game(id).await {
                    Ok(Some(game)) => GameDeal::from_letters(game.variant, &game.deal)
                        .map(|deal| random_moves(deal, seed))
                        .unwrap_or_default(),
                    _ => Vec::new(),
                },
                None => Vec::new(),
            },
            _ => Vec::new(),
        };
        Table {
            chat,
            players: [red, black],
            moves,
            next: 0,
        }
    }

    /// One move in every game at once; returns each move's latency.
    async fn round(&mut self) -> Vec<Duration> {
        let mut tasks = Vec::with_capacity(self.tables.len());
        for table in &mut self.tables {
            let Some(mv) = table.moves.get(table.next).cloned() else {
                continue;
            };
            let mover = table.players[table.next % 2].clone();
            table.next += 1;
            let req = request(&mover, &table.chat, &format!("/move {mv}"), Vec::new());
            let service = self.service.clone();
            tasks.push(tokio::spawn(async move {
                let started = Instant::now();
                let answer = service.handle(req).await;
                assert!(answer.replies.is_empty(), "{mv}: {answer:?}");
                started.elapsed()
            }));
        }
        let mut latencies = Vec::with_capacity(tasks.len());
        for task in tasks {
            latencies.push(task.await.expect("move task"));
        }
        latencies
    }

    /// Ends games that ran out of moves (resign) and starts new ones (untimed).
    async fn refill(&mut self) {
        let mut i = 0;
        while i < self.tables.len() {
            if self.tables[i].next < self.tables[i].moves.len() {
                i += 1;
                continue;
            }
            let table = self.tables.swap_remove(i);
            self.resign(&table).await;
            let fresh = self.start().await;
            self.tables.push(fresh);
        }
    }

    /// Ends every game (resign), starting none.
    async fn finish_all(&mut self) {
        for table in std::mem::take(&mut self.tables) {
            self.resign(&table).await;
        }
    }

    /// The player to move resigns `table`'s game.
    async fn resign(&mut self, table: &Table) {
        let loser = &table.players[table.next % 2];
        // Resigning asks once; the second /resign confirms.
        for _ in 0..2 {
            self.service
                .handle(request(loser, &table.chat, "/resign", Vec::new()))
                .await;
        }
        // Counted only if the game really ended (its chat has no running game left).
        if let Ok(Some(chat)) = self.store.chat(&table.chat).await
            && chat.games.is_empty()
            && let Some(id) = chat.finished.last()
        {
            self.finished += 1;
            self.finished_ids.push(id.clone());
        }
    }

    /// Every game moving at once, round after round (ended ones replaced), until `count`
    /// moves were made: their latencies.
    async fn saturate(&mut self, count: usize) -> Vec<Duration> {
        let mut latencies = Vec::with_capacity(count);
        while latencies.len() < count {
            self.refill().await;
            latencies.extend(self.round().await);
        }
        latencies
    }

    /// Delivers what is queued, ends every game and starts fresh ones: a paced run starts
    /// from the same place in every process.
    async fn fresh_games(&mut self) {
        self.deliver_all().await;
        for table in &mut self.tables {
            table.next = table.moves.len();
        }
        self.refill().await;
    }

    /// Marks every pending message delivered, as a sender would.
    async fn deliver_all(&self) {
        loop {
            let pending = self.service.pending(512).await.expect("pending");
            if pending.is_empty() {
                return;
            }
            for entry in pending {
                self.service
                    .delivered(entry.id, Some(entry.id.0.to_string()))
                    .await
                    .expect("delivered");
            }
        }
    }
}

fn runtime() -> Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime")
}

async fn fleet_with_games(store: Arc<dyn GameStore>, prefix: u64) -> Fleet {
    let mut fleet = Fleet::open(store, prefix);
    for _ in 0..GAMES {
        let table = fleet.start().await;
        fleet.tables.push(table);
    }
    fleet
}

/// Offers moves at `rate` per second, round-robin over the games (a game whose previous
/// move is still being handled waits for its next turn); returns each move's latency.
async fn paced(fleet: &mut Fleet, rate: f64, count: usize) -> (Vec<Duration>, Duration) {
    let latencies = Arc::new(Mutex::new(Vec::with_capacity(count)));
    let busy: Vec<Arc<std::sync::atomic::AtomicBool>> =
        fleet.tables.iter().map(|_| Arc::default()).collect();
    let mut ticker = tokio::time::interval(Duration::from_secs_f64(1.0 / rate));
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Burst);
    let started = Instant::now();
    let mut issued = 0;
    let mut cursor = 0;
    let mut tasks = Vec::with_capacity(count);
    while issued < count {
        ticker.tick().await;
        // The next game that is free and has moves left.
        let Some(i) = (0..fleet.tables.len())
            .map(|k| (cursor + k) % fleet.tables.len())
            .find(|&i| {
                let table = &fleet.tables[i];
                !busy[i].load(Ordering::Acquire) && table.next < table.moves.len()
            })
        else {
            if fleet.tables.iter().all(|t| t.next >= t.moves.len()) {
                // Every game has played all its moves: the run ends short (its count says so).
                break;
            }
            continue;
        };
        cursor = i + 1;
        let table = &mut fleet.tables[i];
        let mover = table.players[table.next % 2].clone();
        let mv = table.moves[table.next].clone();
        table.next += 1;
        let req = request(&mover, &table.chat, &format!("/move {mv}"), Vec::new());
        let (service, flag, latencies) =
            (fleet.service.clone(), busy[i].clone(), latencies.clone());
        flag.store(true, Ordering::Release);
        tasks.push(tokio::spawn(async move {
            let t = Instant::now();
            let answer = service.handle(req).await;
            assert!(answer.replies.is_empty(), "{mv}: {answer:?}");
            latencies.lock().expect("latencies").push(t.elapsed());
            flag.store(false, Ordering::Release);
        }));
        issued += 1;
    }
    for task in tasks {
        task.await.expect("move task");
    }
    let took = started.elapsed();
    let latencies = std::mem::take(&mut *latencies.lock().expect("latencies"));
    (latencies, took)
}

/// CPU time this process has used (all threads), from /proc (Linux).
fn cpu_time() -> Duration {
    cpu_time_in(&std::fs::read_to_string("/proc/self/stat").unwrap_or_default())
}

/// CPU time the PostgreSQL server's processes on this machine have used so far (those that
/// are still running: the pools keep their connections open through a run).
fn postgres_cpu_time() -> Duration {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Duration::ZERO;
    };
    entries
        .flatten()
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .bytes()
                .all(|b| b.is_ascii_digit())
        })
        .filter_map(|e| std::fs::read_to_string(e.path().join("stat")).ok())
        .filter(|stat| stat.contains("(postgres)"))
        .map(|stat| cpu_time_in(&stat))
        .sum()
}

/// utime + stime of a /proc/<pid>/stat line.
fn cpu_time_in(stat: &str) -> Duration {
    let ticks = stat
        .rsplit_once(')')
        .and_then(|(_, rest)| {
            // Fields after the command name (which is in parentheses): utime is the 12th,
            // stime the 13th.
            let rest = rest.split_whitespace().collect::<Vec<_>>();
            Some(rest.get(11)?.parse::<u64>().ok()? + rest.get(12)?.parse::<u64>().ok()?)
        })
        .unwrap_or(0);
    // USER_HZ is 100 on Linux.
    Duration::from_millis(ticks * 10)
}

fn percentiles(latencies: &mut [Duration]) -> String {
    latencies.sort();
    let at = |q: f64| latencies[((latencies.len() as f64 - 1.0) * q) as usize];
    format!(
        "p50 {:.2?}, p90 {:.2?}, p99 {:.2?}, max {:.2?}",
        at(0.5),
        at(0.9),
        at(0.99),
        at(1.0)
    )
}

/// What one public picture costs alone (the render crate's cached-sprite path).
fn picture_cost() {
    let mut game = Game::new(Rules::new(Variant::Jieqi, Preset::Standard), deal(0)).expect("game");
    for mv in random_game(0).iter().take(20) {
        game.play_text(mv).expect("legal");
    }
    let view = game.view(jieqi_rules::Viewer::Public);
    for width in [320, 400, 480] {
        let options = jieqi_render::RenderOptions {
            width,
            ..jieqi_render::RenderOptions::default()
        };
        let bytes = jieqi_render::render(&view, &options).expect("picture");
        let started = Instant::now();
        for _ in 0..200 {
            jieqi_render::render(&view, &options).expect("picture");
        }
        println!(
            "one public picture at {width} px: {:.2?} ({} bytes)",
            started.elapsed() / 200,
            bytes.len()
        );
    }
}

/// The stores measured: sled in a temporary folder, and PostgreSQL when there is one.
enum Backend {
    Sled {
        store: Arc<SledStore>,
        /// Removed when dropped, after the store.
        _dir: tempfile::TempDir,
    },
    Postgres(Box<TestStore>),
}

impl Backend {
    fn sled() -> Backend {
        let dir = tempfile::tempdir().expect("dir");
        let store = Arc::new(SledStore::open(dir.path()).expect("store"));
        Backend::Sled { store, _dir: dir }
    }

    async fn postgres() -> Option<Backend> {
        test_store().await.map(|pg| Backend::Postgres(Box::new(pg)))
    }

    /// A store handle: the same one for sled, a new pool (a new "process") for PostgreSQL.
    async fn store(&self) -> Arc<dyn GameStore> {
        match self {
            Backend::Sled { store, .. } => store.clone(),
            Backend::Postgres(pg) => Arc::new(pg.another().await),
        }
    }
}

/// Saturation and paced load on one process (its own runtime and store handle).
fn measure(name: &str, backend: &Backend) {
    let rt = runtime();
    let store = rt.block_on(backend.store());
    let mut fleet = rt.block_on(fleet_with_games(store, 0));
    // What `Service::tick` does besides timers: sled compacts itself when its folder has grown,
    // and the moves measured wait for it as a bot's would.
    let reclaiming = {
        let store = fleet.store.clone();
        rt.spawn(async move {
            loop {
                tokio::time::sleep(Duration::from_secs(1)).await;
                store.reclaim().await.expect("reclaim");
            }
        })
    };
    let cpu_before = (cpu_time(), postgres_cpu_time());
    let started = Instant::now();
    let latencies = rt.block_on(fleet.saturate(SATURATION_MOVES));
    print_saturation(name, GAMES, latencies, started.elapsed(), |moves| {
        (
            cpu_time().saturating_sub(cpu_before.0) / moves,
            postgres_cpu_time().saturating_sub(cpu_before.1) / moves,
        )
    });
    // Latency at a steady offered rate, as a bot would see it.
    for rate in OFFERED_RATES {
        rt.block_on(fleet.fresh_games());
        let (latencies, took) = rt.block_on(paced(&mut fleet, rate, PACED_MOVES));
        print_paced(name, rate, GAMES, latencies, took);
    }
    reclaiming.abort();
}

/// Moves in a saturation run, and in each paced run (over all processes). A paced run plays
/// its games from a fresh start and never starts more, so it must fit in them: 64 games of
/// 60 plies per process are 3,840 moves.
const SATURATION_MOVES: usize = 6000;
const PACED_MOVES: usize = 3600;
const _: () = assert!(PACED_MOVES <= GAMES * PLIES);
/// The paced runs' offered moves per second (over all processes).
const OFFERED_RATES: [f64; 2] = [500.0, 1000.0];

/// Prints a saturation run of `games` games at once, and the CPU per move that `cpu_per`
/// gives for the number of moves (in the bot processes, in the database server).
fn print_saturation(
    name: &str,
    games: usize,
    mut latencies: Vec<Duration>,
    took: Duration,
    cpu_per: impl FnOnce(u32) -> (Duration, Duration),
) {
    println!(
        "{name}: saturation, {games} games moving at once: {} moves in {took:.2?} = {:.0} moves/s; latency {}",
        latencies.len(),
        latencies.len() as f64 / took.as_secs_f64(),
        percentiles(&mut latencies),
    );
    // Where the time goes. With the bot and the database on this 2-core machine, the sum
    // bounds the moves per second.
    let (bot, server) = cpu_per(latencies.len().max(1) as u32);
    println!(
        "{name}: CPU per move at saturation: {} µs in the bot, {} µs in the PostgreSQL server",
        bot.as_micros(),
        server.as_micros(),
    );
}

/// Prints a run at an offered `rate` over `games` games.
fn print_paced(name: &str, rate: f64, games: usize, mut latencies: Vec<Duration>, took: Duration) {
    println!(
        "{name}: offered {rate:.0} moves/s over {games} games: {} moves in {took:.2?} = {:.0} moves/s; latency {}",
        latencies.len(),
        latencies.len() as f64 / took.as_secs_f64(),
        percentiles(&mut latencies),
    );
}

/// Set in a worker process of the two-process run: `<database url>|<schema>|<prefix>`.
const WORKER: &str = "JIEQI_BENCH_WORKER";

/// One bot process of the two-process run: a service with its own fleet of games on the
/// shared schema, doing what the parent says on stdin, one command per line, and answering
/// on stdout: `saturate <moves>` and `paced <rate> <moves>` answer the latencies in
/// microseconds and the CPU time used; `prepare` ends the running games and starts fresh ones.
fn worker(spec: &str) {
    use std::io::BufRead;
    let mut parts = spec.split('|');
    let (Some(url), Some(schema), Some(prefix)) = (parts.next(), parts.next(), parts.next()) else {
        panic!("{WORKER} is <database url>|<schema>|<prefix>");
    };
    let prefix: u64 = prefix.parse().expect("prefix");
    let rt = runtime();
    let store = rt
        .block_on(jieqi_store_pg::PgStore::connect_in_schema(url, schema))
        .expect("the benchmark's schema");
    let mut fleet = rt.block_on(fleet_with_games(Arc::new(store), prefix));
    println!("ready");
    for line in std::io::stdin().lock().lines() {
        let line = line.expect("a command");
        let words: Vec<&str> = line.split_whitespace().collect();
        let cpu = cpu_time();
        let latencies = match words.as_slice() {
            ["prepare"] => {
                rt.block_on(fleet.fresh_games());
                println!("ready");
                continue;
            }
            ["saturate", count] => rt.block_on(fleet.saturate(count.parse().expect("count"))),
            ["paced", rate, count] => {
                let (rate, count) = (rate.parse().expect("rate"), count.parse().expect("count"));
                rt.block_on(paced(&mut fleet, rate, count)).0
            }
            _ => return,
        };
        let micros: Vec<String> = latencies
            .iter()
            .map(|l| l.as_micros().to_string())
            .collect();
        println!("latencies {}", micros.join(","));
        println!("cpu {}", cpu_time().saturating_sub(cpu).as_micros());
    }
}

/// The worker processes of a run, and their answers.
struct Workers {
    children: Vec<std::process::Child>,
    inputs: Vec<std::process::ChildStdin>,
    outputs: Vec<std::io::Lines<std::io::BufReader<std::process::ChildStdout>>>,
}

impl Workers {
    fn start(pg: &TestStore, processes: usize) -> Workers {
        use std::io::BufRead;
        let exe = std::env::current_exe().expect("this benchmark's path");
        let mut workers = Workers {
            children: Vec::new(),
            inputs: Vec::new(),
            outputs: Vec::new(),
        };
        for prefix in 0..processes {
            let mut child = std::process::Command::new(&exe)
                .args(std::env::args_os().skip(1))
                .env(WORKER, format!("{}|{}|{prefix}", pg.url(), pg.schema()))
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::piped())
                .spawn()
                .expect("a worker process");
            workers
                .inputs
                .push(child.stdin.take().expect("the worker's stdin"));
            workers.outputs.push(
                std::io::BufReader::new(child.stdout.take().expect("the worker's stdout")).lines(),
            );
            workers.children.push(child);
        }
        workers.wait_ready();
        workers
    }

    fn line(&mut self, worker: usize) -> String {
        self.outputs[worker]
            .next()
            .expect("the worker answered")
            .expect("a line")
    }

    fn wait_ready(&mut self) {
        for worker in 0..self.outputs.len() {
            while self.line(worker) != "ready" {}
        }
    }

    fn tell(&mut self, command: &str) {
        use std::io::Write;
        for input in &mut self.inputs {
            writeln!(input, "{command}").expect("the worker listens");
        }
    }

    /// Runs `command` in every worker at once: the latencies of all, the wall time until
    /// the last finished, and the CPU time the workers used.
    fn run(&mut self, command: &str) -> (Vec<Duration>, Duration, Duration) {
        let started = Instant::now();
        self.tell(command);
        let mut latencies = Vec::new();
        let mut cpu = Duration::ZERO;
        for worker in 0..self.outputs.len() {
            loop {
                let line = self.line(worker);
                if let Some(list) = line.strip_prefix("latencies ") {
                    latencies.extend(
                        list.split(',')
                            .filter_map(|l| l.parse().ok())
                            .map(Duration::from_micros),
                    );
                } else if let Some(micros) = line.strip_prefix("cpu ") {
                    cpu += Duration::from_micros(micros.parse().unwrap_or(0));
                    break;
                }
            }
        }
        (latencies, started.elapsed(), cpu)
    }
}

impl Drop for Workers {
    fn drop(&mut self) {
        self.inputs.clear();
        for child in &mut self.children {
            let _ = child.wait();
        }
    }
}

/// Saturation and paced load on `processes` worker processes sharing `pg`.
fn measure_processes(name: &str, pg: &TestStore, processes: usize) {
    let mut workers = Workers::start(pg, processes);
    let server_before = postgres_cpu_time();
    let (latencies, took, cpu) = workers.run(&format!("saturate {}", SATURATION_MOVES / processes));
    print_saturation(name, GAMES * processes, latencies, took, |moves| {
        (
            cpu / moves,
            postgres_cpu_time().saturating_sub(server_before) / moves,
        )
    });
    for rate in OFFERED_RATES {
        workers.tell("prepare");
        workers.wait_ready();
        let per_process = rate / processes as f64;
        let (latencies, took, _) =
            workers.run(&format!("paced {per_process} {}", PACED_MOVES / processes));
        print_paced(name, rate, GAMES * processes, latencies, took);
    }
}

/// Whether to run `part` (`throughput` or `storage`): `JIEQI_BENCH` names one, or both run.
fn wanted(part: &str) -> bool {
    std::env::var("JIEQI_BENCH").map_or(true, |only| only == part)
}

fn report() {
    if wanted("throughput") {
        picture_cost();
        let cpu_before = cpu_time();
        let sled = Backend::sled();
        measure("sled, one process", &sled);
        println!(
            "CPU used by the sled run: {:.2?}",
            cpu_time().saturating_sub(cpu_before)
        );
        let control = runtime();
        match control.block_on(Backend::postgres()) {
            Some(pg) => {
                measure("PostgreSQL, one process", &pg);
                let Some(two) = control.block_on(test_store()) else {
                    panic!("a second schema");
                };
                measure_processes("PostgreSQL, two processes", &two, 2);
            }
            None => println!("PostgreSQL: not measured (set TEST_DATABASE_URL)"),
        }
    }
    if wanted("storage") {
        storage::storage("sled", &storage::Subject::sled());
        match runtime().block_on(storage::Subject::postgres()) {
            Some(pg) => storage::storage("PostgreSQL", &pg),
            None => println!("PostgreSQL: storage not measured (set TEST_DATABASE_URL)"),
        }
    }
}

fn moves(c: &mut Criterion) {
    if let Ok(spec) = std::env::var(WORKER) {
        worker(&spec);
        std::process::exit(0);
    }
    report();
    if !wanted("throughput") {
        return;
    }
    let rt = runtime();
    let sled = Backend::sled();
    let store = rt.block_on(sled.store());
    let fleet = Mutex::new(rt.block_on(fleet_with_games(store, 0)));
    let mut group = c.benchmark_group("service");
    group.throughput(Throughput::Elements(GAMES as u64));
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(10));
    group.bench_function("64 games, one move each", |b| {
        b.iter_custom(|iters| {
            let mut fleet = fleet.lock().expect("fleet");
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                rt.block_on(fleet.refill());
                let started = Instant::now();
                rt.block_on(fleet.round());
                total += started.elapsed();
            }
            total
        })
    });
    group.finish();
}

criterion_group!(benches, moves);
criterion_main!(benches);
