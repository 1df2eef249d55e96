//! Spectators of live pages: thousands of Server-Sent Event streams open on one server
//! process, every move reaching every spectator.
//!
//! `cargo bench -p jieqi-web --bench spectators` starts this binary a second time as the
//! server (`JIEQI_BENCH_SERVER` set): a service on a fresh sled store and its web page on
//! 127.0.0.1, with a two-thread runtime, which plays the games itself on a timer once told to.
//! This process holds the spectators, on one thread: light raw-TCP readers that parse each
//! event as it arrives. Prints:
//!
//! - the latency from a move's commit (the moment `Service::handle` returned for it, in the
//!   server) to its arrival (the event parsed by a spectator; a spectator that was handed a
//!   newer page first counts the move as arrived with it), p50/p90/p99/max over every move and
//!   every spectator of its game;
//! - memory per open connection: the server process's resident memory after the streams
//!   opened (and again after the moves), less before, divided by the streams;
//! - CPU per delivered event: the server's CPU time (`/proc/<pid>/stat`) while the moves were
//!   played and delivered, divided by the events the spectators received, with and without
//!   the moves' own cost (measured first in the same process on a game nobody watches).
//!
//! Set by environment variables: `JIEQI_BENCH_SPECTATORS` (10000), `JIEQI_BENCH_GAMES` (1;
//! spectator `i` watches game `i % games`), `JIEQI_BENCH_MOVES` per game (30),
//! `JIEQI_BENCH_INTERVAL_MS` between two moves of one game (1000; the games' moves are spread
//! evenly over it). Both processes share this machine's cores. Only 127.0.0.1 (and other
//! 127.0.0.x source addresses) is used; every phase has a time limit.

use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use jieqi_rules::{Game, GameDeal, Preset, Rules, Variant};
use jieqi_service::{
    ChatId, DealSource, GameId, GameStore, IdempotencyKey, Input, Platform, Request, Service,
    ServiceConfig, SledStore, User, UserId,
};
use jieqi_web::{Web, WebConfig};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::{Semaphore, mpsc};
use tokio_util::sync::CancellationToken;

/// Set in the server process: `<games> <moves per game> <interval in ms>`.
const SERVER: &str = "JIEQI_BENCH_SERVER";
/// Moves played on a game nobody watches, to learn what a move costs the server alone.
const BASELINE_MOVES: usize = 60;
/// Streams being opened at once (each until its first page arrives).
const OPENING_AT_ONCE: usize = 256;
/// Source addresses the spectators' connections are spread over (127.0.0.1 to .8), so the
/// ephemeral ports of one address never run short.
const SOURCE_ADDRESSES: u8 = 8;
/// The longest any phase may take before the benchmark gives up.
const PHASE_LIMIT: Duration = Duration::from_secs(180);

fn main() {
    // `cargo bench` passes `--bench`; a filter argument names nothing here.
    if let Ok(spec) = std::env::var(SERVER) {
        server(&spec);
        return;
    }
    let scale = Scale::from_env();
    println!(
        "spectators: {} streams over {} game(s), {} moves per game, a move in each game every {} ms",
        scale.spectators, scale.games, scale.moves, scale.interval_ms
    );
    // One thread for the spectators: two would wake each other for every few events that
    // arrive, on the cores the server needs.
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime")
        .block_on(spectate(scale));
}

#[derive(Clone, Copy, Debug)]
struct Scale {
    spectators: usize,
    games: usize,
    moves: usize,
    interval_ms: u64,
}

impl Scale {
    fn from_env() -> Scale {
        fn var<T: std::str::FromStr>(name: &str, default: T) -> T {
            match std::env::var(name) {
                Ok(text) => text
                    .parse()
                    .unwrap_or_else(|_| panic!("{name} must be a number, not {text:?}")),
                Err(_) => default,
            }
        }
        let scale = Scale {
            spectators: var("JIEQI_BENCH_SPECTATORS", 10_000),
            games: var("JIEQI_BENCH_GAMES", 1),
            moves: var("JIEQI_BENCH_MOVES", 30),
            interval_ms: var("JIEQI_BENCH_INTERVAL_MS", 1000),
        };
        assert!(
            scale.games >= 1 && scale.spectators >= scale.games && scale.moves >= 1,
            "at least one game, one spectator per game and one move: {scale:?}"
        );
        assert!(scale.moves <= 100, "JIEQI_BENCH_MOVES is at most 100");
        scale
    }
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime")
}

fn unix_nanos() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

// ---------------------------------------------------------------------------------------
// The server process.

static KEYS: AtomicU64 = AtomicU64::new(0);
/// Bytes the spectators have read, heads and events.
static RECEIVED_BYTES: AtomicU64 = AtomicU64::new(0);

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

fn deal(seed: u64) -> GameDeal {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    GameDeal::shuffled(Variant::Jieqi, &mut |n| rng.gen_range(0..n.max(1)))
}

/// `plies` random moves of a game dealt `deal` that leave it running (the first seed from
/// `seed` on whose game lasts that long).
fn running_moves(deal: &GameDeal, seed: u64, plies: usize) -> Vec<String> {
    for attempt in 0.. {
        let mut rng = ChaCha8Rng::seed_from_u64(seed.wrapping_mul(1000).wrapping_add(attempt));
        let mut game =
            Game::new(Rules::new(Variant::Jieqi, Preset::Standard), deal.clone()).expect("a game");
        let mut moves = Vec::new();
        while moves.len() < plies && game.outcome().is_none() {
            let legal = game.legal_move_texts();
            let mv = legal[rng.gen_range(0..legal.len())].clone();
            game.play_text(&mv).expect("a legal move");
            moves.push(mv);
        }
        if moves.len() == plies && game.outcome().is_none() {
            return moves;
        }
    }
    unreachable!("some random game lasts {plies} plies")
}

/// One game being played: its players, chat and the moves it will get.
struct Table {
    id: GameId,
    chat: ChatId,
    players: [User; 2],
    moves: Vec<String>,
}

/// Starts game `index` (a challenge and its acceptance) with `plies` moves to come.
async fn start(service: &Service, store: &Arc<dyn GameStore>, index: usize, plies: usize) -> Table {
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
    service
        .handle(request(&red, &chat, &text, vec![black.clone()]))
        .await;
    service
        .handle(request(&black, &chat, "/accept", Vec::new()))
        .await;
    let record = store
        .chat(&chat)
        .await
        .expect("the store")
        .expect("the chat");
    let id = record.games.first().cloned().expect("the game started");
    let game = store.game(&id).await.expect("the store").expect("the game");
    let deal = GameDeal::from_letters(game.variant, &game.deal).expect("the game's deal");
    Table {
        moves: running_moves(&deal, index as u64, plies),
        id,
        chat,
        players: [red, black],
    }
}

/// Plays `table`'s move number `ply`: the moment it was committed and the game's revision.
async fn play(
    service: &Service,
    store: &Arc<dyn GameStore>,
    table: &Table,
    ply: usize,
) -> (u64, u64) {
    let mover = &table.players[ply % 2];
    let text = format!("/move {}", table.moves[ply]);
    let answer = service
        .handle(request(mover, &table.chat, &text, Vec::new()))
        .await;
    let committed = unix_nanos();
    assert!(answer.replies.is_empty(), "{text} was refused: {answer:?}");
    let revision = store
        .game(&table.id)
        .await
        .expect("the store")
        .expect("the game")
        .revision;
    (committed, revision)
}

/// The server: prints `ready <port> <nanoseconds of CPU per move> <game id>...`, then on
/// `play` from stdin plays every game's moves on the timer and prints `commit <game>
/// <revision> <unix nanos>` for each and `done`; exits when stdin closes.
fn server(spec: &str) {
    let numbers: Vec<u64> = spec
        .split_whitespace()
        .map(|n| n.parse().expect("a number"))
        .collect();
    let [games, moves, interval_ms] = numbers[..] else {
        panic!("{SERVER} is <games> <moves> <interval in ms>");
    };
    let (games, moves) = (games as usize, moves as usize);
    let rt = runtime();
    let dir = tempfile::tempdir().expect("a temporary folder");
    let store: Arc<dyn GameStore> = Arc::new(SledStore::open(dir.path()).expect("a store"));
    let listener = rt
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .expect("a port");
    let addr = listener.local_addr().expect("an address");
    let base = format!("http://{addr}");
    let service = rt.block_on(async {
        Service::open_with_store(
            store.clone(),
            ServiceConfig {
                data_dir: dir.path().to_path_buf(),
                deal_source: DealSource::Scripted {
                    seed: 1,
                    deals: (0..games as u64 + 2)
                        .map(|seed| deal(seed).letters())
                        .collect(),
                },
                public_url: Some(base.clone()),
                ..ServiceConfig::default()
            },
        )
        .expect("a service")
    });
    let web = Web::new(
        service.clone(),
        WebConfig {
            streams_per_address: 100_000,
            max_streams: 20_000,
            ..WebConfig::new(base)
        },
    );
    let stop = CancellationToken::new();
    let serving = rt.spawn(web.serve(listener, stop.clone()));

    // What a move costs with nobody watching: one game, played as fast as it goes.
    let per_move = rt.block_on(async {
        let table = start(&service, &store, games, BASELINE_MOVES).await;
        let cpu = own_cpu_time();
        for ply in 0..BASELINE_MOVES {
            play(&service, &store, &table, ply).await;
        }
        own_cpu_time().saturating_sub(cpu) / BASELINE_MOVES as u32
    });
    let tables: Vec<Table> = rt.block_on(async {
        let mut tables = Vec::with_capacity(games);
        for index in 0..games {
            tables.push(start(&service, &store, index, moves).await);
        }
        tables
    });
    let ids: Vec<&str> = tables.iter().map(|t| t.id.as_str()).collect();
    println!(
        "ready {} {} {}",
        addr.port(),
        per_move.as_nanos(),
        ids.join(" ")
    );

    let mut commands = std::io::stdin().lock().lines();
    if !matches!(commands.next(), Some(Ok(line)) if line == "play") {
        return;
    }
    let commits = rt.block_on(play_all(&service, &store, &tables, interval_ms));
    let mut out = std::io::stdout().lock();
    for (game, revision, nanos) in commits {
        writeln!(out, "commit {game} {revision} {nanos}").expect("stdout");
    }
    writeln!(out, "done").expect("stdout");
    out.flush().expect("stdout");
    drop(out);
    // Streams stay open until the spectators have what they wait for and close stdin.
    for _ in commands {}
    stop.cancel();
    let _ = rt.block_on(serving);
}

/// Every game's moves: move `k` of game `g` is offered at `(k * games + g) * interval /
/// games` from now. Each commit as `(game, revision, unix nanos)`.
async fn play_all(
    service: &Service,
    store: &Arc<dyn GameStore>,
    tables: &[Table],
    interval_ms: u64,
) -> Vec<(usize, u64, u64)> {
    let games = tables.len();
    let moves = tables[0].moves.len();
    let step = Duration::from_millis(interval_ms) / games as u32;
    let started = tokio::time::Instant::now();
    let tables: Arc<Vec<Table>> = Arc::new(tables.iter().map(clone_table).collect());
    let mut tasks = Vec::with_capacity(games * moves);
    // Each game's moves in order, on one task per game; the games at once.
    for g in 0..games {
        let (service, store, tables) = (service.clone(), store.clone(), tables.clone());
        tasks.push(tokio::spawn(async move {
            let mut commits = Vec::with_capacity(moves);
            for k in 0..moves {
                let at = started + step * (k * games + g) as u32;
                tokio::time::sleep_until(at).await;
                let (nanos, revision) = play(&service, &store, &tables[g], k).await;
                commits.push((g, revision, nanos));
            }
            commits
        }));
    }
    let mut commits = Vec::with_capacity(games * moves);
    for task in tasks {
        commits.extend(task.await.expect("a game's moves"));
    }
    commits
}

fn clone_table(table: &Table) -> Table {
    Table {
        id: table.id.clone(),
        chat: table.chat.clone(),
        players: table.players.clone(),
        moves: table.moves.clone(),
    }
}

// ---------------------------------------------------------------------------------------
// What a process uses, from /proc (Linux).

/// utime + stime of a /proc/<pid>/stat line.
fn cpu_time_in(stat: &str) -> Duration {
    let ticks = stat
        .rsplit_once(')')
        .and_then(|(_, rest)| {
            // After the command name (in parentheses): utime is the 12th field, stime the 13th.
            let rest: Vec<&str> = rest.split_whitespace().collect();
            Some(rest.get(11)?.parse::<u64>().ok()? + rest.get(12)?.parse::<u64>().ok()?)
        })
        .unwrap_or(0);
    // USER_HZ is 100 on Linux.
    Duration::from_millis(ticks * 10)
}

fn own_cpu_time() -> Duration {
    cpu_time_in(&std::fs::read_to_string("/proc/self/stat").unwrap_or_default())
}

fn cpu_time_of(pid: u32) -> Duration {
    cpu_time_in(&std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default())
}

/// Resident memory of process `pid`, in bytes.
fn resident_bytes(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_default()
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|rest| {
            rest.trim()
                .trim_end_matches("kB")
                .trim()
                .parse::<u64>()
                .ok()
        })
        .map_or(0, |kib| kib << 10)
}

/// The kernel's memory for TCP buffers, all sockets (both ends of loopback), in bytes.
fn kernel_tcp_bytes() -> u64 {
    std::fs::read_to_string("/proc/net/sockstat")
        .unwrap_or_default()
        .lines()
        .find_map(|line| line.strip_prefix("TCP:"))
        .and_then(|rest| {
            let words: Vec<&str> = rest.split_whitespace().collect();
            let at = words.iter().position(|w| *w == "mem")?;
            words.get(at + 1)?.parse::<u64>().ok()
        })
        .map_or(0, |pages| pages * 4096)
}

// ---------------------------------------------------------------------------------------
// The spectators.

/// What one spectator received: each page's revision and the moment it was parsed.
type Arrivals = Vec<(u64, u64)>;

/// The server process, its answers, and a way to tell it things.
struct ServerProcess {
    child: std::process::Child,
    input: Option<std::process::ChildStdin>,
    lines: mpsc::UnboundedReceiver<String>,
}

impl ServerProcess {
    fn start(scale: Scale) -> ServerProcess {
        let exe = std::env::current_exe().expect("this benchmark's path");
        let mut child = std::process::Command::new(exe)
            .env(
                SERVER,
                format!("{} {} {}", scale.games, scale.moves, scale.interval_ms),
            )
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("the server process");
        let input = child.stdin.take();
        let output = child.stdout.take().expect("the server's stdout");
        let (sender, lines) = mpsc::unbounded_channel();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(output).lines() {
                let Ok(line) = line else { return };
                if sender.send(line).is_err() {
                    return;
                }
            }
        });
        ServerProcess {
            child,
            input,
            lines,
        }
    }

    async fn line(&mut self) -> String {
        tokio::time::timeout(PHASE_LIMIT, self.lines.recv())
            .await
            .expect("the server answers in time")
            .expect("the server is running")
    }

    /// Closes the server's stdin: it stops serving (its streams end) and exits.
    fn stop_serving(&mut self) {
        drop(self.input.take());
    }

    fn tell(&mut self, command: &str) {
        let input = self.input.as_mut().expect("the server listens");
        writeln!(input, "{command}").expect("the server listens");
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        // Closing its stdin ends it; a server stuck past that is ended (it is our child).
        drop(self.input.take());
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

async fn spectate(scale: Scale) {
    let mut server = ServerProcess::start(scale);
    let pid = server.child.id();
    let ready = server.line().await;
    let words: Vec<&str> = ready.split_whitespace().collect();
    let ["ready", port, per_move, ids @ ..] = words.as_slice() else {
        panic!("the server said {ready:?}");
    };
    let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, port.parse::<u16>().expect("a port")));
    let move_cost = Duration::from_nanos(per_move.parse().expect("nanoseconds"));
    let paths: Arc<Vec<String>> = Arc::new(ids.iter().map(|id| format!("/g/{id}/live")).collect());

    // Each game's page built once (as for the first spectator of any game) before measuring.
    let received = Arc::new(AtomicU64::new(0));
    let opener = Arc::new(Semaphore::new(OPENING_AT_ONCE));
    let warm: Vec<_> = (0..scale.games)
        .map(|g| {
            let permit = opener.clone().try_acquire_owned().ok();
            let warm_stop = CancellationToken::new();
            let task = tokio::spawn(spectator(
                addr,
                Ipv4Addr::LOCALHOST,
                paths[g].clone(),
                permit,
                Some(warm_stop.clone()),
                Arc::new(AtomicU64::new(0)),
            ));
            (warm_stop, task)
        })
        .collect();
    let until = Instant::now() + PHASE_LIMIT;
    while opener.available_permits() < OPENING_AT_ONCE && Instant::now() < until {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    for (warm_stop, task) in warm {
        warm_stop.cancel();
        task.await.expect("a spectator").expect("a first page");
    }
    tokio::time::sleep(Duration::from_secs(1)).await;
    let rss_before = resident_bytes(pid);
    let kernel_before = kernel_tcp_bytes();

    // Open every stream, a few hundred at a time, each done once its first page arrived.
    let opening = Instant::now();
    let mut spectators = Vec::with_capacity(scale.spectators);
    for i in 0..scale.spectators {
        let permit = tokio::time::timeout(PHASE_LIMIT, opener.clone().acquire_owned())
            .await
            .expect("streams open in time")
            .expect("the semaphore stays open");
        let source = Ipv4Addr::new(127, 0, 0, 1 + (i % SOURCE_ADDRESSES as usize) as u8);
        spectators.push((
            i % scale.games,
            tokio::spawn(spectator(
                addr,
                source,
                paths[i % scale.games].clone(),
                Some(permit),
                // Until the server ends its stream, at the end: nothing else to wait on
                // beside each read.
                None,
                received.clone(),
            )),
        ));
    }
    let _all = tokio::time::timeout(PHASE_LIMIT, opener.acquire_many(OPENING_AT_ONCE as u32))
        .await
        .expect("every stream opened in time")
        .expect("the semaphore stays open");
    let opened_in = opening.elapsed();
    tokio::time::sleep(Duration::from_secs(2)).await;
    let failed = spectators
        .iter()
        .filter(|(_, task)| task.is_finished())
        .count();
    let rss_open = resident_bytes(pid);
    let kernel_open = kernel_tcp_bytes();
    let initial = received.load(Ordering::Acquire);
    let initial_bytes = RECEIVED_BYTES.load(Ordering::Acquire);

    // The moves.
    let cpu_before = cpu_time_of(pid);
    let own_cpu_before = own_cpu_time();
    let playing = Instant::now();
    server.tell("play");
    let mut commits: HashMap<usize, Vec<(u64, u64)>> = HashMap::new();
    loop {
        let line = server.line().await;
        if line == "done" {
            break;
        }
        let words: Vec<u64> = line
            .split_whitespace()
            .skip(1)
            .map(|n| n.parse().expect("a number"))
            .collect();
        let [game, revision, nanos] = words[..] else {
            panic!("the server said {line:?}");
        };
        commits
            .entry(game as usize)
            .or_default()
            .push((revision, nanos));
    }
    // Until the events stop coming (every last page delivered) or the limit.
    let mut seen = received.load(Ordering::Acquire);
    let until = Instant::now() + Duration::from_secs(30);
    while Instant::now() < until {
        tokio::time::sleep(Duration::from_secs(1)).await;
        let now = received.load(Ordering::Acquire);
        if now == seen {
            break;
        }
        seen = now;
    }
    let played_in = playing.elapsed();
    let cpu = cpu_time_of(pid).saturating_sub(cpu_before);
    let own_cpu = own_cpu_time().saturating_sub(own_cpu_before);
    let rss_after = resident_bytes(pid);
    let delivered = received.load(Ordering::Acquire) - initial;
    let delivered_bytes = RECEIVED_BYTES.load(Ordering::Acquire) - initial_bytes;

    // The server stops serving: every stream ends, and each spectator returns what it saw.
    server.stop_serving();
    let mut latencies = Vec::with_capacity(scale.spectators * scale.moves);
    // Each move's own arrivals (by its commit time), to tell a slow move from a slow tail.
    let mut by_move: HashMap<u64, Vec<i64>> = HashMap::new();
    let (mut missed, mut skipped, mut broken) = (0usize, 0usize, 0usize);
    for (game, task) in spectators {
        let arrivals = match tokio::time::timeout(PHASE_LIMIT, task)
            .await
            .expect("the streams end in time")
            .expect("a spectator")
        {
            Ok(arrivals) => arrivals,
            Err(_) => {
                broken += 1;
                continue;
            }
        };
        let moves = commits.get(&game).map_or(&[][..], Vec::as_slice);
        let mut next = 0;
        for &(revision, committed) in moves {
            // The first page at this revision or later carries the move.
            while next < arrivals.len() && arrivals[next].0 < revision {
                next += 1;
            }
            match arrivals.get(next) {
                Some(&(got, arrived)) => {
                    if got > revision {
                        skipped += 1;
                    }
                    latencies.push(arrived as i64 - committed as i64);
                    by_move
                        .entry(committed)
                        .or_default()
                        .push(arrived as i64 - committed as i64);
                }
                None => missed += 1,
            }
        }
    }
    drop(server);

    let connections = scale.spectators as f64;
    println!(
        "opened {} streams in {opened_in:.2?} ({failed} failed to open, {broken} broke)",
        scale.spectators
    );
    println!(
        "server memory: {:.1} MiB before, {:.1} MiB with the streams open, {:.1} MiB after the moves: {:.1} KiB per connection open, {:.1} KiB after the moves",
        rss_before as f64 / 1048576.0,
        rss_open as f64 / 1048576.0,
        rss_after as f64 / 1048576.0,
        rss_open.saturating_sub(rss_before) as f64 / 1024.0 / connections,
        rss_after.saturating_sub(rss_before) as f64 / 1024.0 / connections,
    );
    println!(
        "kernel TCP buffers (both ends, outside the process): {:.1} KiB per connection",
        kernel_open.saturating_sub(kernel_before) as f64 / 1024.0 / connections
    );
    let moves_played: usize = commits.values().map(Vec::len).sum();
    let moves_cpu = move_cost * moves_played as u32;
    println!(
        "moves: {moves_played} played and delivered in {played_in:.2?}; a move alone costs the server {move_cost:.2?} of CPU"
    );
    if delivered > 0 {
        println!(
            "events: {delivered} delivered, {:.1} KiB each on average",
            delivered_bytes as f64 / 1024.0 / delivered as f64
        );
        println!(
            "server CPU: {cpu:.2?} for {delivered} events = {:.1} µs per delivered event ({:.1} µs less the moves' own {moves_cpu:.2?})",
            cpu.as_secs_f64() * 1e6 / delivered as f64,
            cpu.saturating_sub(moves_cpu).as_secs_f64() * 1e6 / delivered as f64,
        );
        println!(
            "spectators' CPU (this process, on the same cores): {own_cpu:.2?} = {:.1} µs per event",
            own_cpu.as_secs_f64() * 1e6 / delivered as f64,
        );
    }
    println!(
        "commit to arrival over {} move arrivals ({missed} never arrived, {skipped} arrived inside a newer page): {}",
        latencies.len(),
        percentiles(&mut latencies)
    );
    let mut move_p99s: Vec<i64> = by_move
        .into_values()
        .map(|mut arrivals| {
            arrivals.sort_unstable();
            arrivals[(arrivals.len() - 1) * 99 / 100]
        })
        .collect();
    if !move_p99s.is_empty() {
        move_p99s.sort_unstable();
        let ms = |nanos: i64| nanos as f64 / 1e6;
        println!(
            "each move's own p99, over the {} moves: best {:.1} ms, median {:.1} ms, worst {:.1} ms",
            move_p99s.len(),
            ms(move_p99s[0]),
            ms(move_p99s[move_p99s.len() / 2]),
            ms(move_p99s[move_p99s.len() - 1]),
        );
    }
}

fn percentiles(latencies: &mut [i64]) -> String {
    if latencies.is_empty() {
        return "none".to_owned();
    }
    latencies.sort_unstable();
    let at = |q: f64| {
        let nanos = latencies[((latencies.len() as f64 - 1.0) * q) as usize];
        format!("{:.1} ms", nanos as f64 / 1e6)
    };
    format!(
        "p50 {}, p90 {}, p99 {}, max {}",
        at(0.5),
        at(0.9),
        at(0.99),
        at(1.0)
    )
}

/// One spectator: opens `path` from `source`, gives `opened` back once the first page
/// arrived, and records every page until `stop` (or the server ends the stream).
async fn spectator(
    server: SocketAddr,
    source: Ipv4Addr,
    path: String,
    mut opened: Option<tokio::sync::OwnedSemaphorePermit>,
    stop: Option<CancellationToken>,
    received: Arc<AtomicU64>,
) -> Result<Arrivals, String> {
    let socket = tokio::net::TcpSocket::new_v4().map_err(|e| format!("a socket: {e}"))?;
    socket
        .bind(SocketAddr::from((source, 0)))
        .map_err(|e| format!("bind {source}: {e}"))?;
    let mut stream = socket
        .connect(server)
        .await
        .map_err(|e| format!("connect: {e}"))?;
    let _ = stream.set_nodelay(true);
    let request =
        format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n");
    stream
        .write_all(request.as_bytes())
        .await
        .map_err(|e| format!("write: {e}"))?;
    let mut reader = EventReader::default();
    let mut buffer = vec![0u8; 16 << 10];
    let mut arrivals = Vec::new();
    let mut pages = Vec::new();
    loop {
        let read = match &stop {
            Some(stop) => tokio::select! {
                read = stream.read(&mut buffer) => read,
                () = stop.cancelled() => return Ok(arrivals),
            },
            None => stream.read(&mut buffer).await,
        }
        .map_err(|e| format!("read: {e}"))?;
        if read == 0 {
            return if arrivals.is_empty() {
                Err("the stream ended before its first page".to_owned())
            } else {
                Ok(arrivals)
            };
        }
        RECEIVED_BYTES.fetch_add(read as u64, Ordering::Relaxed);
        reader.feed(&buffer[..read], &mut pages)?;
        if pages.is_empty() {
            continue;
        }
        let now = unix_nanos();
        received.fetch_add(pages.len() as u64, Ordering::Relaxed);
        arrivals.extend(pages.drain(..).map(|revision| (revision, now)));
        drop(opened.take());
    }
}

/// Reads an HTTP/1.1 response carrying Server-Sent Events: its head, the chunked body, and
/// the events in it, of which it keeps each one's `id` (the page's revision).
#[derive(Debug, Default)]
struct EventReader {
    head_read: bool,
    chunked: bool,
    /// Bytes received and not yet taken apart.
    raw: Vec<u8>,
    /// Bytes still to come in the current chunk; `None` between chunks.
    in_chunk: Option<usize>,
    /// The event stream itself, not yet split into events.
    body: Vec<u8>,
    /// How much of `body` holds no event's end.
    searched: usize,
}

impl EventReader {
    /// Takes `bytes` in; adds the revisions of the events they completed to `revisions`.
    fn feed(&mut self, bytes: &[u8], revisions: &mut Vec<u64>) -> Result<(), String> {
        if !self.head_read {
            self.raw.extend_from_slice(bytes);
            let Some(end) = memchr::memmem::find(&self.raw, b"\r\n\r\n") else {
                return Ok(());
            };
            let head = String::from_utf8_lossy(&self.raw[..end]).to_ascii_lowercase();
            if !head.starts_with("http/1.1 200") {
                return Err(format!("the server answered {:?}", head.lines().next()));
            }
            self.chunked = head.contains("transfer-encoding: chunked");
            self.raw.drain(..end + 4);
            self.head_read = true;
            if self.chunked {
                self.dechunk()?;
            } else {
                self.body.append(&mut self.raw);
            }
        } else if self.chunked {
            self.raw.extend_from_slice(bytes);
            self.dechunk()?;
        } else {
            self.body.extend_from_slice(bytes);
        }
        // Each byte is searched once for the blank line that ends an event.
        let mut start = 0;
        while let Some(end) = memchr::memmem::find(&self.body[self.searched.max(start)..], b"\n\n")
            .map(|at| at + self.searched.max(start))
        {
            let event = &self.body[start..end];
            // The id line comes before the data: only the lines up to it are read.
            if let Some(id) = event
                .split(|&b| b == b'\n')
                .find_map(|line| line.strip_prefix(b"id:"))
            {
                let id = std::str::from_utf8(id).map_err(|_| "an id that is not text")?;
                revisions.push(id.trim().parse().map_err(|_| format!("the id {id:?}"))?);
            }
            start = end + 2;
        }
        self.body.drain(..start);
        // A last "\n" may be the first half of the next blank line.
        self.searched = self.body.len().saturating_sub(1);
        Ok(())
    }

    /// Moves the chunks' contents from `raw` to `body`.
    fn dechunk(&mut self) -> Result<(), String> {
        let mut at = 0;
        loop {
            match self.in_chunk {
                Some(0) => {
                    // The CRLF after a chunk's data.
                    if self.raw.len() - at < 2 {
                        break;
                    }
                    at += 2;
                    self.in_chunk = None;
                }
                Some(left) => {
                    let take = left.min(self.raw.len() - at);
                    if take == 0 {
                        break;
                    }
                    self.body.extend_from_slice(&self.raw[at..at + take]);
                    at += take;
                    self.in_chunk = Some(left - take);
                }
                None => {
                    let Some(end) = memchr::memmem::find(&self.raw[at..], b"\r\n") else {
                        break;
                    };
                    let line = std::str::from_utf8(&self.raw[at..at + end])
                        .map_err(|_| "a chunk size that is not text")?;
                    let size = line.split(';').next().unwrap_or_default().trim();
                    let size = usize::from_str_radix(size, 16)
                        .map_err(|_| format!("the chunk size {size:?}"))?;
                    at += end + 2;
                    if size == 0 {
                        return Err("the stream ended".to_owned());
                    }
                    self.in_chunk = Some(size);
                }
            }
        }
        self.raw.drain(..at);
        Ok(())
    }
}
