//! The fleet version that follows the processes sharing one database
//! (`jieqi_store::fleet`; who is alive: `processes.rs`).
//!
//! The fleet version lives in the `fleet` table (`migrate.rs` sets it first). While it is
//! older than this release's codec, every process of this release looks every [`POLL`] for
//! older processes; the first to find none *finalizes* (`migrate::finalize`, under the
//! migration lock the previous release also takes at start-up, so none starts meanwhile),
//! and each process takes the new version up at its next look. Then old game rows are
//! rewritten in this release's codec by a sweep ([`sweep`]): in batches of their own
//! transactions, so a process killed halfway leaves every row in one readable codec or the
//! other, and the next process of this release finishes it. Other records are taken up
//! lazily: each is written in the new codec at its next change.
//! `deploy/SCALING.md`, "Upgrading", gives the procedure.

use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Weak};
use std::time::Duration;

use deadpool_postgres::Pool;
use jieqi_store::codec::{SCHEMA_VERSION, decode, encode};
use jieqi_store::{GameRecord, StoreError};
use tokio_postgres::Client;

use crate::processes::older_alive;
use crate::{backend, migrate};

/// How often a process of this release looks for older ones while the fleet is older.
const POLL: Duration = Duration::from_secs(2);
/// Game rows rewritten per transaction of the sweep.
const SWEEP_BATCH: i64 = 100;

/// The fleet version as this process last read it, shared by a store's clones.
#[derive(Clone, Debug)]
pub(crate) struct Fleet(Arc<AtomicU8>);

impl Fleet {
    pub(crate) fn new(version: u8) -> Fleet {
        Fleet(Arc::new(AtomicU8::new(version)))
    }

    pub(crate) fn version(&self) -> u8 {
        self.0.load(Ordering::Acquire)
    }

    fn set(&self, version: u8) {
        self.0.fetch_max(version, Ordering::AcqRel);
    }
}

/// Follows the fleet for a store opened at `fleet`: while it is older, looks for older
/// processes and finalizes once none is left; then sweeps the old game rows. Ends when done
/// or when every clone of the store is dropped (`alive`).
pub(crate) async fn follow(pool: Pool, fleet: Fleet, alive: Weak<()>) {
    while fleet.version() < SCHEMA_VERSION {
        tokio::time::sleep(POLL).await;
        if alive.upgrade().is_none() {
            return;
        }
        match look(&pool).await {
            Ok(version) => fleet.set(version),
            Err(error) => tracing::warn!(%error, "cannot look at the fleet's processes"),
        }
    }
    loop {
        if alive.upgrade().is_none() {
            return;
        }
        match sweep(&pool).await {
            Ok(0) => return,
            Ok(rewritten) => {
                tracing::info!(rewritten, "game records rewritten in this release's codec");
            }
            Err(error) => {
                tracing::warn!(%error, "cannot rewrite old game records; trying again");
                tokio::time::sleep(POLL).await;
            }
        }
    }
}

/// The fleet version now, finalized first if no older process is alive.
async fn look(pool: &Pool) -> Result<u8, StoreError> {
    let mut client = pool.get().await.map_err(crate::pool_error)?;
    let tx = Client::transaction(&mut client).await.map_err(backend)?;
    migrate::lock(&tx).await?;
    let version: i16 = tx
        .query_one("SELECT version FROM fleet", &[])
        .await
        .map_err(backend)?
        .get(0);
    let mut version = u8::try_from(version).unwrap_or(u8::MAX);
    if version < SCHEMA_VERSION && older_alive(&tx).await? == 0 {
        version = migrate::finalize(&tx).await?;
    }
    tx.commit().await.map_err(backend)?;
    Ok(version)
}

/// Rewrites up to a batch of game rows written before codec schema 5 (which stores a
/// finished game's verdict, judged here once) in this release's codec, in one transaction;
/// returns how many (0: none is left). Rows another sweeper holds are skipped; a row's
/// revision is kept (its content is the same game). A row that cannot be read is left as it
/// is, said in the log, and ends the sweep (it would come first in every batch).
pub(crate) async fn sweep(pool: &Pool) -> Result<usize, StoreError> {
    let mut client = pool.get().await.map_err(crate::pool_error)?;
    let tx = Client::transaction(&mut client).await.map_err(backend)?;
    // The predicate is the partial index's (`0004_stored_verdicts.sql`), word for word.
    let rows = tx
        .query(
            "SELECT id, record FROM games WHERE get_byte(record, 0) < 5
             ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED",
            &[&SWEEP_BATCH],
        )
        .await
        .map_err(backend)?;
    let statement = tx
        .prepare("UPDATE games SET record = $2 WHERE id = $1")
        .await
        .map_err(backend)?;
    let mut rewritten = 0;
    for row in &rows {
        let id: &str = row.get(0);
        let game: GameRecord = match decode(row.get::<_, &[u8]>(1)) {
            Ok(game) => game,
            Err(error) => {
                tracing::error!(%error, game = id, "an old game record cannot be read; left as it is");
                break;
            }
        };
        tx.execute(&statement, &[&id, &encode(&game)?])
            .await
            .map_err(backend)?;
        rewritten += 1;
    }
    tx.commit().await.map_err(backend)?;
    Ok(rewritten)
}
