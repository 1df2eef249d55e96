//! Versioned schema migrations, applied when a store connects, and the fleet version they
//! are applied under (`fleet.rs`; who is alive: `processes.rs`).
//!
//! Each migration is an SQL file in `migrations/`, numbered, of one of two kinds:
//! - *additive* ([`Kind::Additive`]): the release before this one works on with it (a new
//!   table, index or function). Applied by the first process of this release at once, even
//!   beside processes of the previous release; recorded in `schema_migrations_ahead` until
//!   the fleet is finalized, because the previous release (f61d864) refuses to start on a
//!   schema whose `schema_migrations` names a version it does not know.
//! - *at finalization* ([`Kind::AtFinalize`]): the previous release would break on it
//!   (a column it uses dropped or changed). Applied only when the fleet is finalized, once no
//!   process of an older release is alive.
//!
//! `schema_migrations` records the migrations every process must know: a release refuses a
//! store whose `schema_migrations` names one it does not know, or whose fleet version is
//! newer than its codec ([`StoreError::TooNew`]). Processes starting together take turns (a
//! transaction-scoped advisory lock per schema, the same one the previous release takes), so
//! each migration runs once and a finalization never runs beside an older process starting.

use jieqi_store::StoreError;
use jieqi_store::codec::SCHEMA_VERSION as CODEC;
use jieqi_store::fleet::OLDEST_WRITABLE;
use tokio_postgres::{Client, Transaction};

use crate::backend;

/// The advisory-lock class of migrations (two-key form; the other key is the schema's hash).
pub(crate) const MIGRATION_LOCK_CLASS: i32 = 0x6a71_0001;

/// Whether the release before this one works on beside a migration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// It does: applied at once.
    Additive,
    /// It does not: applied when the fleet is finalized.
    #[allow(dead_code)] // None of this release's migrations needs to wait; the next may.
    AtFinalize,
}

/// The migrations, oldest first: (version, SQL, kind).
const MIGRATIONS: &[(u32, &str, Kind)] = &[
    (
        1,
        include_str!("migrations/0001_initial.sql"),
        Kind::Additive,
    ),
    (
        2,
        include_str!("migrations/0002_pipelined_commit.sql"),
        Kind::Additive,
    ),
    (
        3,
        include_str!("migrations/0003_vacuum_churn.sql"),
        Kind::Additive,
    ),
    // Only an index: the rewrite of old games it serves is the sweep after finalization.
    (
        4,
        include_str!("migrations/0004_stored_verdicts.sql"),
        Kind::Additive,
    ),
    (
        6,
        include_str!("migrations/0006_reviews.sql"),
        Kind::Additive,
    ),
    (
        7,
        include_str!("migrations/0007_review_queue.sql"),
        Kind::Additive,
    ),
    (
        8,
        include_str!("migrations/0008_send_budgets.sql"),
        Kind::Additive,
    ),
    (
        9,
        include_str!("migrations/0009_activity_launches.sql"),
        Kind::Additive,
    ),
    (
        10,
        include_str!("migrations/0010_tournaments.sql"),
        Kind::Additive,
    ),
    (
        11,
        include_str!("migrations/0011_tournament_starts.sql"),
        Kind::Additive,
    ),
];

/// The newest schema version this binary knows.
pub const SCHEMA_VERSION: u32 = MIGRATIONS[MIGRATIONS.len() - 1].0;

/// The newest migration the previous release (f61d864) knows: a schema recorded up to here
/// was last used by it, so its fleet version is the previous release's codec.
const PREVIOUS_RELEASE_MIGRATIONS: i32 = 3;

/// Takes the migration lock of the current schema for the transaction.
pub(crate) async fn lock(tx: &Transaction<'_>) -> Result<(), StoreError> {
    tx.execute(
        "SELECT pg_advisory_xact_lock($1, hashtext(current_schema()))",
        &[&MIGRATION_LOCK_CLASS],
    )
    .await
    .map_err(backend)?;
    Ok(())
}

/// Brings the current schema up to date for the fleet and returns the fleet version: every
/// additive migration, and if no process of an older release is alive, the finalization.
/// Refuses a store this release cannot work on.
pub(crate) async fn run(client: &mut Client) -> Result<u8, StoreError> {
    let tx = client.transaction().await.map_err(backend)?;
    lock(&tx).await?;
    tx.batch_execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations (
             version integer PRIMARY KEY,
             applied_at timestamptz NOT NULL DEFAULT now()
         );
         CREATE TABLE IF NOT EXISTS schema_migrations_ahead (
             version integer PRIMARY KEY,
             applied_at timestamptz NOT NULL DEFAULT now()
         );
         CREATE TABLE IF NOT EXISTS fleet (
             only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
             version smallint NOT NULL,
             finalized_at timestamptz
         )",
    )
    .await
    .map_err(backend)?;
    let fleet = fleet_version(&tx).await?;
    if u32::from(fleet) > u32::from(CODEC) {
        let _ = tx.rollback().await;
        return Err(StoreError::TooNew {
            found: u32::from(fleet),
            supported: u32::from(CODEC),
        });
    }
    if fleet < OLDEST_WRITABLE {
        let _ = tx.rollback().await;
        return Err(StoreError::Backend(format!(
            "the store's processes run a release of record version {fleet}, older than this \
             one can run beside ({OLDEST_WRITABLE}): upgrade through the release between, or \
             stop them all first (deploy/SCALING.md, Upgrading)"
        )));
    }
    let known: Vec<i32> = tx
        .query("SELECT version FROM schema_migrations", &[])
        .await
        .map_err(backend)?
        .iter()
        .map(|row| row.get(0))
        .collect();
    if let Some(&unknown) = known
        .iter()
        .filter(|v| {
            !MIGRATIONS
                .iter()
                .any(|(m, _, _)| i64::from(*m) == i64::from(**v))
        })
        .max()
    {
        let _ = tx.rollback().await;
        return Err(StoreError::TooNew {
            found: u32::try_from(unknown).unwrap_or(0),
            supported: SCHEMA_VERSION,
        });
    }
    let finalized = fleet == CODEC;
    apply(&tx, Kind::Additive, finalized).await?;
    let fleet = if finalized {
        apply(&tx, Kind::AtFinalize, true).await?;
        fleet
    } else if crate::processes::older_alive(&tx).await? == 0 {
        finalize(&tx).await?
    } else {
        tracing::info!(
            fleet,
            codec = CODEC,
            "processes of an older release share this store: this one serves beside them, \
             writing records they read, and finalizes the upgrade once they are gone"
        );
        fleet
    };
    tx.commit().await.map_err(backend)?;
    Ok(fleet)
}

/// The fleet version, first set from what the schema holds: a fresh schema is this
/// release's; one the previous release left (migrations up to its last) is at its codec;
/// one a build of this release's line migrated further is this release's.
async fn fleet_version(tx: &Transaction<'_>) -> Result<u8, StoreError> {
    if let Some(row) = tx
        .query_opt("SELECT version FROM fleet", &[])
        .await
        .map_err(backend)?
    {
        return Ok(u8::try_from(row.get::<_, i16>(0)).unwrap_or(u8::MAX));
    }
    let newest: i32 = tx
        .query_one(
            "SELECT coalesce(max(version), 0) FROM schema_migrations",
            &[],
        )
        .await
        .map_err(backend)?
        .get(0);
    let fleet = if (1..=PREVIOUS_RELEASE_MIGRATIONS).contains(&newest) {
        OLDEST_WRITABLE
    } else {
        CODEC
    };
    tx.execute(
        "INSERT INTO fleet (version, finalized_at) VALUES ($1, CASE WHEN $2 THEN now() END)",
        &[&i16::from(fleet), &(fleet == CODEC)],
    )
    .await
    .map_err(backend)?;
    tracing::info!(fleet, "the store's fleet version, first recorded");
    Ok(fleet)
}

/// Applies the migrations of `kind` not applied yet; records them as every process's
/// (`final`) or as ahead of the fleet.
async fn apply(tx: &Transaction<'_>, kind: Kind, r#final: bool) -> Result<(), StoreError> {
    let applied: Vec<i32> = tx
        .query(
            "SELECT version FROM schema_migrations
             UNION SELECT version FROM schema_migrations_ahead",
            &[],
        )
        .await
        .map_err(backend)?
        .iter()
        .map(|row| row.get(0))
        .collect();
    for &(version, sql, _) in MIGRATIONS
        .iter()
        .filter(|(v, _, k)| *k == kind && !applied.contains(&i32::try_from(*v).unwrap_or(0)))
    {
        tx.batch_execute(sql).await.map_err(|e| {
            StoreError::Backend(format!(
                "schema migration {version} failed: {}",
                crate::describe(&e)
            ))
        })?;
        let version = i32::try_from(version).unwrap_or(i32::MAX);
        let record = if r#final {
            "INSERT INTO schema_migrations (version) VALUES ($1)"
        } else {
            "INSERT INTO schema_migrations_ahead (version) VALUES ($1)"
        };
        tx.execute(record, &[&version]).await.map_err(backend)?;
        tracing::info!(version, ahead = !r#final, "applied a schema migration");
    }
    Ok(())
}

/// Finalizes the fleet at this release's version, in the caller's transaction (holding the
/// migration lock, with no older process alive): the migrations held back, the ones applied
/// ahead recorded as every process's, and the fleet version. Old game rows are rewritten
/// afterwards, by the sweep (`fleet::sweep`). Returns the new fleet version.
pub(crate) async fn finalize(tx: &Transaction<'_>) -> Result<u8, StoreError> {
    apply(tx, Kind::AtFinalize, true).await?;
    tx.batch_execute(
        "INSERT INTO schema_migrations (version, applied_at)
             SELECT version, applied_at FROM schema_migrations_ahead
             ON CONFLICT (version) DO NOTHING;
         DELETE FROM schema_migrations_ahead",
    )
    .await
    .map_err(backend)?;
    tx.execute(
        "UPDATE fleet SET version = $1, finalized_at = now()",
        &[&i16::from(CODEC)],
    )
    .await
    .map_err(backend)?;
    tracing::info!(
        fleet = CODEC,
        "no process of an older release is left: the fleet is finalized at this release's \
         record version"
    );
    Ok(CODEC)
}
