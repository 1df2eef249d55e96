//! Does reviewing slow play? Move latency in running games with no review running, then
//! while 4 reviews run (4 review workers, each review a finished 60-ply Jieqi game at the
//! review's engine budget), on sled.
//!
//! `cargo bench -p jieqi-service --bench review_load` prints, for each phase, the moves
//! timed and their latency percentiles (p50, p90, p99, max), and how long the 4 reviews
//! took. Moves are paced (one every `PACE`), as chat traffic is, so that the figures show
//! waiting on reviews, not a saturated machine.

use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use jieqi_rules::{Game, GameDeal, Preset, Rules, Variant};
use jieqi_service::{
    ChatId, DealSource, GameStore, IdempotencyKey, Input, Platform, Request, Service,
    ServiceConfig, SledStore, User, UserId,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const RUNNING: usize = 16;
const REVIEWS: usize = 4;
const PLIES: usize = 60;
const PACE: Duration = Duration::from_millis(15);
const TIMED_MOVES: usize = 400;

fn deal(seed: u64) -> GameDeal {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    GameDeal::shuffled(Variant::Jieqi, &mut |n| rng.gen_range(0..n.max(1)))
}

/// Up to `PLIES` random moves of game `seed`, none of them ending it.
fn random_moves(seed: u64) -> Vec<String> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0xFFFF);
    let mut game =
        Game::new(Rules::new(Variant::Jieqi, Preset::Standard), deal(seed)).expect("game");
    let mut moves = Vec::new();
    while moves.len() < PLIES && game.outcome().is_none() {
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

struct Table {
    chat: ChatId,
    players: [User; 2],
    moves: Vec<String>,
    next: usize,
}

struct Bench {
    service: Service,
    keys: u64,
}

impl Bench {
    fn request(&mut self, user: &User, chat: &ChatId, text: &str, mentioned: Vec<User>) -> Request {
        self.keys += 1;
        Request {
            key: IdempotencyKey(format!("k{}", self.keys)),
            chat: chat.clone(),
            is_private_chat: false,
            is_admin: false,
            user: user.clone(),
            mentioned,
            input: Input::Text(text.to_owned()),
            received_at: SystemTime::now(),
        }
    }

    async fn start(&mut self, seed: u64) -> Table {
        let red = User::new(
            UserId::new(Platform::Telegram, format!("r{seed}")),
            format!("red{seed}"),
        );
        let black = User::new(
            UserId::new(Platform::Telegram, format!("b{seed}")),
            format!("black{seed}"),
        );
        let chat = ChatId::new(Platform::Telegram, format!("-{seed}"));
        let text = format!("/challenge @{} red", black.name);
        let challenge = self.request(&red, &chat, &text, vec![black.clone()]);
        self.service.handle(challenge).await;
        let accept = self.request(&black, &chat, "/accept", Vec::new());
        self.service.handle(accept).await;
        Table {
            chat,
            players: [red, black],
            moves: random_moves(seed),
            next: 0,
        }
    }

    /// Plays the table's next move; returns how long `handle` took.
    async fn play(&mut self, table: &mut Table) -> Option<Duration> {
        let mv = table.moves.get(table.next)?.clone();
        let mover = table.players[table.next % 2].clone();
        table.next += 1;
        let request = self.request(&mover, &table.chat, &format!("/move {mv}"), Vec::new());
        let started = Instant::now();
        self.service.handle(request).await;
        Some(started.elapsed())
    }

    /// Plays `n` paced moves round the running tables; their latencies.
    async fn timed_moves(&mut self, tables: &mut [Table], n: usize) -> Vec<Duration> {
        let mut took = Vec::with_capacity(n);
        let mut i = 0;
        while took.len() < n {
            let at = Instant::now();
            let index = i % tables.len();
            i += 1;
            if let Some(t) = self.play(&mut tables[index]).await {
                took.push(t);
            }
            if i > n * 4 {
                break;
            }
            tokio::time::sleep(PACE.saturating_sub(at.elapsed())).await;
        }
        took
    }
}

fn percentiles(label: &str, mut took: Vec<Duration>) {
    took.sort();
    let at = |q: f64| took[((took.len() as f64 * q) as usize).min(took.len() - 1)];
    println!(
        "{label}: {} moves, p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        took.len(),
        at(0.5).as_secs_f64() * 1e3,
        at(0.9).as_secs_f64() * 1e3,
        at(0.99).as_secs_f64() * 1e3,
        took.last().map_or(0.0, |d| d.as_secs_f64() * 1e3),
    );
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        let dir = tempfile::tempdir().expect("temp dir");
        let store: Arc<dyn GameStore> = Arc::new(SledStore::open(dir.path()).expect("store"));
        let config = ServiceConfig {
            deal_source: DealSource::Scripted {
                seed: 1,
                deals: (0..64).map(|seed| deal(seed).letters()).collect(),
            },
            ..ServiceConfig::default()
        };
        let service = Service::open_with_store(store, config).expect("service");
        let mut bench = Bench { service, keys: 0 };

        // Finished games to review: played out, then resigned.
        let mut finished = Vec::new();
        for seed in 0..REVIEWS as u64 {
            let mut table = bench.start(seed).await;
            while bench.play(&mut table).await.is_some() {}
            let loser = table.players[table.next % 2].clone();
            for _ in 0..2 {
                let resign = bench.request(&loser, &table.chat, "/resign", Vec::new());
                bench.service.handle(resign).await;
            }
            finished.push(table);
        }
        let mut running = Vec::new();
        for seed in REVIEWS as u64..(REVIEWS + RUNNING) as u64 {
            running.push(bench.start(seed).await);
        }

        let quiet = bench.timed_moves(&mut running, TIMED_MOVES).await;
        percentiles("no review running", quiet);

        bench.service.set_review_workers(REVIEWS);
        let started = Instant::now();
        for table in &finished {
            let ask = bench.request(&table.players[0], &table.chat, "/review", Vec::new());
            bench.service.handle(ask).await;
        }
        let busy = bench.timed_moves(&mut running, TIMED_MOVES).await;
        let moves_took = started.elapsed();
        bench.service.reviews_settled().await;
        let reviews_took = started.elapsed();
        percentiles("4 reviews running", busy);
        println!(
            "the {REVIEWS} reviews ({PLIES}-ply games) took {:.1} s; the timed moves {:.1} s",
            reviews_took.as_secs_f64(),
            moves_took.as_secs_f64()
        );
        assert!(
            moves_took < reviews_took,
            "the reviews ended before the timed moves: lower PACE or raise TIMED_MOVES"
        );
    });
}
