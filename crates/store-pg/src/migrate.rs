//! Versioned schema migrations, applied when a store connects.
//!
//! Each migration is an SQL file in `migrations/`, numbered; `schema_migrations` records the
//! ones applied. Processes starting together take turns (a transaction-scoped advisory lock
//! per schema), so each migration runs once. A schema newer than this binary is refused.

use jieqi_store::codec::{self, decode, encode};
use jieqi_store::{GameRecord, StoreError};
use tokio_postgres::{Client, Transaction};

use crate::backend;

/// The advisory-lock class of migrations (two-key form; the other key is the schema's hash).
const MIGRATION_LOCK_CLASS: i32 = 0x6a71_0001;

/// The migrations, oldest first: (version, SQL).
const MIGRATIONS: &[(u32, &str)] = &[
    (1, include_str!("migrations/0001_initial.sql")),
    (2, include_str!("migrations/0002_pipelined_commit.sql")),
    (3, include_str!("migrations/0003_vacuum_churn.sql")),
    (4, include_str!("migrations/0004_stored_verdicts.sql")),
    (6, include_str!("migrations/0006_reviews.sql")),
    (7, include_str!("migrations/0007_review_queue.sql")),
    (8, include_str!("migrations/0008_send_budgets.sql")),
    (9, include_str!("migrations/0009_activity_launches.sql")),
];

/// The migration after whose SQL the game records are rewritten in the codec's current
/// schema, each finished one with its verdict (see `0004_stored_verdicts.sql`).
const STORED_VERDICTS: u32 = 4;

/// Game rows rewritten per round of [`rewrite_old_games`].
const REWRITE_BATCH: i64 = 500;

/// The newest schema version this binary knows.
pub const SCHEMA_VERSION: u32 = MIGRATIONS[MIGRATIONS.len() - 1].0;

/// Brings the current schema up to [`SCHEMA_VERSION`]; refuses a newer one.
pub(crate) async fn run(client: &mut Client) -> Result<(), StoreError> {
    let tx = client.transaction().await.map_err(backend)?;
    tx.execute(
        "SELECT pg_advisory_xact_lock($1, hashtext(current_schema()))",
        &[&MIGRATION_LOCK_CLASS],
    )
    .await
    .map_err(backend)?;
    tx.batch_execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations (
             version integer PRIMARY KEY,
             applied_at timestamptz NOT NULL DEFAULT now()
         )",
    )
    .await
    .map_err(backend)?;
    let found: i32 = tx
        .query_one(
            "SELECT coalesce(max(version), 0) FROM schema_migrations",
            &[],
        )
        .await
        .map_err(backend)?
        .get(0);
    let found = u32::try_from(found).unwrap_or(0);
    if found > SCHEMA_VERSION {
        let _ = tx.rollback().await;
        return Err(StoreError::TooNew {
            found,
            supported: SCHEMA_VERSION,
        });
    }
    for &(version, sql) in MIGRATIONS.iter().filter(|(v, _)| *v > found) {
        tx.batch_execute(sql).await.map_err(|e| {
            StoreError::Backend(format!(
                "schema migration {version} failed: {}",
                crate::describe(&e)
            ))
        })?;
        if version == STORED_VERDICTS {
            let rewritten = rewrite_old_games(&tx).await?;
            tracing::info!(rewritten, "game records rewritten with their verdicts");
        }
        let version = i32::try_from(version).unwrap_or(i32::MAX);
        tx.execute(
            "INSERT INTO schema_migrations (version) VALUES ($1)",
            &[&version],
        )
        .await
        .map_err(backend)?;
        tracing::info!(version, "applied a schema migration");
    }
    tx.commit().await.map_err(backend)
}

/// Rewrites every game row written by an older record codec in the current one: a finished
/// game gets its verdict, judged once here (`Record::upgrade`), and never again. Returns how
/// many rows were rewritten. Runs inside the migration's transaction, so it happens once.
async fn rewrite_old_games(tx: &Transaction<'_>) -> Result<usize, StoreError> {
    let current = i32::from(codec::SCHEMA_VERSION);
    let mut rewritten = 0;
    loop {
        let rows = tx
            .query(
                "SELECT id, record FROM games WHERE get_byte(record, 0) < $1 ORDER BY id LIMIT $2",
                &[&current, &REWRITE_BATCH],
            )
            .await
            .map_err(backend)?;
        if rows.is_empty() {
            return Ok(rewritten);
        }
        for row in rows {
            let id: &str = row.get(0);
            let game: GameRecord = decode(row.get::<_, &[u8]>(1))?;
            tx.execute(
                "UPDATE games SET record = $2 WHERE id = $1",
                &[&id, &encode(&game)?],
            )
            .await
            .map_err(backend)?;
            rewritten += 1;
        }
    }
}
