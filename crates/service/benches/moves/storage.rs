//! What games cost in the store, as an operator pays it: the store's size on disk with
//! thousands of finished games, every message delivered and old answers pruned (as a running
//! bot does), measured at several points so that the marginal cost per game (the slope) can
//! be told apart from the store's fixed overhead; what a running game adds; and the time to
//! load and replay a finished game for `/history`.
//!
//! `JIEQI_BENCH_GAMES` sets how many games are finished (1000 by default: enough that fixed overhead does not dominate, and the whole bench stays near ten minutes).

use std::os::unix::fs::MetadataExt;

use super::*;

/// Bytes a store occupies.
#[derive(Clone, Copy, Debug, Default)]
struct Footprint {
    /// What the disk gives up: allocated blocks for sled, relation sizes for PostgreSQL.
    bytes: u64,
    /// Sled: the files' lengths (holes included). PostgreSQL: the same as `bytes`.
    apparent: u64,
}

/// The store under measurement; sled can be closed and opened again.
pub(crate) enum Subject {
    Sled(tempfile::TempDir),
    Postgres(Box<TestStore>),
}

impl Subject {
    pub(crate) fn sled() -> Subject {
        Subject::Sled(tempfile::tempdir().expect("dir"))
    }

    pub(crate) async fn postgres() -> Option<Subject> {
        test_store().await.map(|pg| Subject::Postgres(Box::new(pg)))
    }

    /// A store handle: sled opened on its folder, PostgreSQL a new pool.
    async fn open(&self) -> Arc<dyn GameStore> {
        match self {
            Subject::Sled(dir) => Arc::new(SledStore::open(dir.path()).expect("store")),
            Subject::Postgres(pg) => Arc::new(pg.another().await),
        }
    }

    /// What the store occupies now. PostgreSQL is vacuumed first, as autovacuum would: dead
    /// rows become reusable space, but the files keep their size.
    async fn footprint(&self) -> Footprint {
        match self {
            Subject::Sled(dir) => {
                let (bytes, apparent) = folder_footprint(dir.path());
                Footprint { bytes, apparent }
            }
            Subject::Postgres(pg) => {
                pg.execute("VACUUM").await;
                let bytes = schema_bytes(pg).await;
                Footprint {
                    bytes,
                    apparent: bytes,
                }
            }
        }
    }

    /// What autovacuum does on its round (every minute; migration 3 has it take each
    /// churning table's dead rows back after a fixed number of them). A minute of a bot
    /// with 10,000 games a day is about 400 moves; the bench vacuums every ~1,000, so it
    /// leaves at least as much dead space as a production server would. Sled: nothing.
    async fn autovacuum(&self) {
        if let Subject::Postgres(pg) = self {
            pg.execute("VACUUM").await;
        }
    }

    /// Where the bytes are: sled's files (log, snapshot, configuration), PostgreSQL's
    /// tables with their indexes and TOAST.
    async fn parts(&self) -> String {
        match self {
            Subject::Sled(dir) => {
                let mut parts: Vec<String> = std::fs::read_dir(dir.path())
                    .map(|entries| {
                        entries
                            .flatten()
                            .map(|e| {
                                let (bytes, _) = folder_footprint(&e.path());
                                format!("{} {bytes}", e.file_name().to_string_lossy())
                            })
                            .collect()
                    })
                    .unwrap_or_default();
                parts.sort();
                parts.join(", ")
            }
            Subject::Postgres(pg) => {
                let mut parts = Vec::new();
                for table in [
                    "games",
                    "players",
                    "chats",
                    "challenges",
                    "answers",
                    "outbox",
                    "sent",
                ] {
                    let bytes = pg
                        .query_u64(&format!("SELECT pg_total_relation_size('{table}')::bigint"))
                        .await;
                    parts.push(format!("{table} {bytes}"));
                }
                parts.join(", ")
            }
        }
    }
}

async fn schema_bytes(pg: &TestStore) -> u64 {
    pg.query_u64(
        "SELECT COALESCE(SUM(pg_total_relation_size(c.oid)), 0)::bigint \
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace \
         WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'm')",
    )
    .await
}

/// Allocated and apparent bytes of a file, or of a folder and everything in it.
fn folder_footprint(path: &Path) -> (u64, u64) {
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return (0, 0);
    };
    if !meta.is_dir() {
        return (meta.blocks() * 512, meta.len());
    }
    std::fs::read_dir(path)
        .map(|entries| {
            entries.flatten().fold((0, 0), |(a, b), e| {
                let (x, y) = folder_footprint(&e.path());
                (a + x, b + y)
            })
        })
        .unwrap_or((0, 0))
}

/// Delivers everything, forgets every answer and sent reference (as the bot does once they
/// are three days old), and writes everything to disk.
async fn settle(fleet: &Fleet) {
    fleet.deliver_all().await;
    fleet.store.prune(u64::MAX).await.expect("prune");
    fleet.store.reclaim().await.expect("reclaim");
    fleet.store.flush().await.expect("flush");
}

fn kib(bytes: f64) -> String {
    format!("{:.0} B ({:.2} KiB)", bytes, bytes / 1024.0)
}

/// Finishes `JIEQI_BENCH_GAMES` games on `subject` and prints what they cost.
pub(crate) fn storage(name: &str, subject: &Subject) {
    let games: usize = std::env::var("JIEQI_BENCH_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000);
    let checkpoints = [games / 10, games / 4, games / 2, games];
    let rt = runtime();
    let started = Instant::now();
    let store = rt.block_on(subject.open());
    rt.block_on(store.flush()).expect("flush");
    let empty = rt.block_on(subject.footprint());
    println!(
        "{name}: storage: the empty store: {} B ({} B apparent) [{}]",
        empty.bytes,
        empty.apparent,
        rt.block_on(subject.parts())
    );
    let mut fleet = rt.block_on(fleet_with_games(store, 0));
    let mut points: Vec<(usize, Footprint)> = Vec::new();
    let mut rounds = 0usize;
    // How long each compaction took, start to end (writers go on during most of it; the
    // throughput part shows what moves feel meanwhile).
    let mut pauses: Vec<Duration> = Vec::new();
    for target in checkpoints {
        rt.block_on(async {
            while fleet.finished < target {
                fleet.refill().await;
                fleet.round().await;
                // A bot delivers as it goes and prunes every few seconds.
                fleet.deliver_all().await;
                rounds += 1;
                if rounds.is_multiple_of(16) {
                    // What `Service::tick` does every few seconds.
                    fleet.store.prune(u64::MAX).await.expect("prune");
                    let t = Instant::now();
                    if fleet.store.reclaim().await.expect("reclaim") {
                        pauses.push(t.elapsed());
                    }
                    subject.autovacuum().await;
                }
            }
            settle(&fleet).await;
        });
        let at = rt.block_on(subject.footprint());
        let parts = rt.block_on(subject.parts());
        println!(
            "{name}: storage: {} finished games and {} running: {} B ({} B apparent), {} per finished game [{}] after {:.0?}",
            fleet.finished,
            fleet.tables.len(),
            at.bytes,
            at.apparent,
            kib(at.bytes as f64 / fleet.finished.max(1) as f64),
            parts,
            started.elapsed(),
        );
        points.push((fleet.finished, at));
    }
    if let (Some((f0, b0)), Some((f1, b1))) = (points.first(), points.last())
        && f1 > f0
    {
        println!(
            "{name}: storage: marginal cost per finished game from {f0} to {f1} games: {}; total over games at {f1}: {}",
            kib((b1.bytes as f64 - b0.bytes as f64) / (f1 - f0) as f64),
            kib(b1.bytes as f64 / *f1 as f64),
        );
    }
    if !pauses.is_empty() {
        println!(
            "{name}: storage: {} compactions while playing, each taking {}",
            pauses.len(),
            percentiles(&mut pauses),
        );
    }
    // Running games: what a batch of fresh games, 30 plies into play, adds to the store.
    let running = 4 * GAMES;
    let (before, after) = rt.block_on(async {
        fleet.finish_all().await;
        settle(&fleet).await;
        let before = subject.footprint().await;
        for _ in 0..running {
            let table = fleet.start().await;
            fleet.tables.push(table);
        }
        for _ in 0..30 {
            fleet.round().await;
            fleet.deliver_all().await;
        }
        settle(&fleet).await;
        (before, subject.footprint().await)
    });
    println!(
        "{name}: storage: {running} running games (30 plies each) add {} per game",
        kib((after.bytes as f64 - before.bytes as f64) / running as f64),
    );
    let finished = fleet.finished;
    history(name, subject, &rt, fleet);
    // The least the store can take: sled compacted, PostgreSQL after VACUUM FULL (what a
    // dump and restore would leave).
    let least = match subject {
        Subject::Sled(dir) => {
            SledStore::open(dir.path())
                .and_then(|store| store.compact())
                .expect("compaction");
            folder_footprint(dir.path()).0
        }
        Subject::Postgres(pg) => rt.block_on(async {
            pg.execute("VACUUM FULL").await;
            schema_bytes(pg).await
        }),
    };
    println!(
        "{name}: storage: compacted, {finished} finished games and {running} running take {least} B: {} per game",
        kib(least as f64 / (finished + running) as f64),
    );
    println!("{name}: storage section took {:.0?}", started.elapsed());
}

/// `/history` of finished games after a restart: open the store, then load and replay
/// games it has not read yet.
fn history(name: &str, subject: &Subject, rt: &Runtime, fleet: Fleet) {
    let Fleet {
        service,
        store,
        finished_ids,
        ..
    } = fleet;
    rt.block_on(service.shutdown()).expect("shutdown");
    drop(service);
    drop(store);
    let opening = Instant::now();
    let store = rt.block_on(subject.open());
    let opened = opening.elapsed();
    let step = (finished_ids.len() / 200).max(1);
    let sample: Vec<_> = finished_ids.iter().step_by(step).collect();
    let mut plies = 0;
    let started = Instant::now();
    for id in &sample {
        let record = rt
            .block_on(store.game(id))
            .expect("load")
            .expect("the finished game");
        let deal = GameDeal::from_letters(record.variant, &record.deal).expect("deal");
        Game::replay(
            Rules::new(record.variant, record.preset),
            deal,
            &record.moves,
        )
        .expect("replay");
        plies += record.moves.len();
    }
    println!(
        "{name}: storage: opening the store with {} finished games: {opened:.2?}; load and replay a finished game for /history (first read after opening, {} games, {:.0} plies on average): {:.2?}",
        finished_ids.len(),
        sample.len(),
        plies as f64 / sample.len().max(1) as f64,
        started.elapsed() / sample.len().max(1) as u32,
    );
}
