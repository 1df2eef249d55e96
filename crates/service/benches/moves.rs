//! Moves through the service: parse, validate, apply, durable commit (sled, group flush) and
//! the public board picture, with 64 games played at once on a multi-thread runtime.
//!
//! `cargo bench -p jieqi-service --bench moves` prints, besides criterion's figures, the
//! moves per second and latency percentiles of every timed move, and the data folder's size
//! per finished game (outbox delivered, as in a running bot).

use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use jieqi_rules::{Game, GameDeal, Preset, Rules, Variant};
use jieqi_service::{
    ChatId, DealSource, IdempotencyKey, Input, Platform, Request, Service, ServiceConfig,
    SledStore, User, UserId,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tokio::runtime::Runtime;

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
        key: IdempotencyKey(KEYS.fetch_add(1, Ordering::Relaxed).to_string()),
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
    let deal = deal(seed);
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
    store: Arc<SledStore>,
    tables: Vec<Table>,
    next_seed: u64,
    finished: usize,
}

impl Fleet {
    /// A service whose games, in the order they start, get the deals of seeds 0, 1, 2...
    fn open(dir: &Path) -> Fleet {
        let config = ServiceConfig {
            data_dir: dir.to_path_buf(),
            deal_source: DealSource::Scripted {
                seed: 1,
                deals: (0..4096).map(|seed| deal(seed).letters()).collect(),
            },
            ..ServiceConfig::default()
        };
        let store = Arc::new(SledStore::open(dir).expect("store"));
        let service = Service::open_with_store(store.clone(), config).expect("service");
        Fleet {
            service,
            store,
            tables: Vec::new(),
            next_seed: 0,
            finished: 0,
        }
    }

    /// Starts the next game (untimed): a challenge and its acceptance.
    async fn start(&mut self) -> Table {
        let index = self.next_seed;
        self.next_seed += 1;
        let moves = random_game(index);
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
            let loser = &table.players[table.next % 2];
            self.service
                .handle(request(loser, &table.chat, "/resign", Vec::new()))
                .await;
            self.finished += 1;
            let fresh = self.start().await;
            self.tables.push(fresh);
        }
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

fn folder_size(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .map(|e| match e.metadata() {
                    Ok(m) if m.is_dir() => folder_size(&e.path()),
                    Ok(m) => m.len(),
                    Err(_) => 0,
                })
                .sum()
        })
        .unwrap_or(0)
}

fn runtime() -> Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime")
}

async fn fleet_with_games(dir: &Path) -> Fleet {
    let mut fleet = Fleet::open(dir);
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
    let ticks = std::fs::read_to_string("/proc/self/stat")
        .ok()
        .and_then(|stat| {
            // Fields after the command name (which is in parentheses): utime is the 12th, stime the 13th.
            let rest = stat
                .rsplit_once(')')?
                .1
                .split_whitespace()
                .collect::<Vec<_>>();
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

fn report(rt: &Runtime) {
    picture_cost();
    let dir = tempfile::tempdir().expect("dir");
    rt.block_on(async {
        let mut fleet = fleet_with_games(dir.path()).await;
        // Saturation: every game moves at once, round after round.
        let mut latencies = Vec::new();
        let mut timed = Duration::ZERO;
        let cpu_before = cpu_time();
        while latencies.len() < 3000 {
            fleet.refill().await;
            let round_started = Instant::now();
            latencies.extend(fleet.round().await);
            timed += round_started.elapsed();
        }
        println!(
            "saturation, {GAMES} games moving at once: {} moves in {:.2?} = {:.0} moves/s; latency {}",
            latencies.len(),
            timed,
            latencies.len() as f64 / timed.as_secs_f64(),
            percentiles(&mut latencies),
        );
        let cpu = cpu_time().saturating_sub(cpu_before);
        let per_move = cpu / latencies.len() as u32;
        println!(
            "CPU per move (game set-up included): {per_move:.2?}, so about {:.0} moves/s on 2 otherwise idle cores",
            2.0 / per_move.as_secs_f64()
        );
        // Latency at a steady offered rate, as a bot would see it.
        for rate in [500.0, 1000.0] {
            fleet.deliver_all().await;
            for table in &mut fleet.tables {
                table.next = table.moves.len();
            }
            fleet.refill().await;
            let (mut latencies, took) = paced(&mut fleet, rate, 2000).await;
            println!(
                "offered {rate:.0} moves/s over {GAMES} games: {} moves in {:.2?} = {:.0} moves/s; latency {}",
                latencies.len(),
                took,
                latencies.len() as f64 / took.as_secs_f64(),
                percentiles(&mut latencies),
            );
        }

        // Storage per finished game, outbox delivered (sent messages keep only their refs).
        fleet.deliver_all().await;
        for table in &mut fleet.tables {
            table.next = table.moves.len();
        }
        fleet.refill().await;
        fleet.deliver_all().await;
        fleet.service.shutdown().await.expect("flush");
        let size = fleet.store.size_on_disk().unwrap_or(0);
        let on_disk = folder_size(dir.path());
        println!(
            "data folder: {} finished games, {} running; {:.1} MiB on disk (sled reports {:.1} MiB): {:.1} KiB per finished game",
            fleet.finished,
            fleet.tables.len(),
            on_disk as f64 / 1048576.0,
            size as f64 / 1048576.0,
            on_disk as f64 / 1024.0 / fleet.finished.max(1) as f64,
        );
    });
}

fn moves(c: &mut Criterion) {
    let rt = runtime();
    report(&rt);
    let dir = tempfile::tempdir().expect("dir");
    let fleet = Mutex::new(rt.block_on(fleet_with_games(dir.path())));
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
