//! # jieqi-store-pg
//!
//! The PostgreSQL backend of the service's [`GameStore`], for running several bot processes
//! against one database (chosen by `DATABASE_URL`; the embedded sled store stays the default
//! for a single process).
//!
//! - Records are opaque blobs in the service's codec ([`jieqi_store::codec`]), with
//!   the few columns the store looks things up by (revision, deadline, outbox lane).
//! - A [`Change`] is one transaction: records, outbox entries and the request's answer land
//!   together or not at all. Each record is written only over the revision it was computed
//!   from (`UPDATE … WHERE revision = r - 1`), so two processes can never both apply a
//!   change to one game: time-outs, challenge expiry and engine moves run exactly once.
//! - Request keys are unique in `answers`; a repeat gets the earlier answer.
//! - Delivery claims take the oldest message of each free lane with a lease
//!   (`FOR UPDATE SKIP LOCKED`, one claimer per lane at a time); a dead process's claims
//!   lapse and are taken over.
//! - [`GameStore::lead`] is a session advisory lock on a connection of its own.
//! - Versioned migrations (`src/migrations/`) are applied when the store connects; a schema
//!   newer than the binary is refused ([`StoreError::TooNew`]).
//! - Rolling upgrades (`fleet.rs`): beside processes of the previous release, records are
//!   written in the fleet's codec schema and only the migrations it tolerates are applied;
//!   once none of them is alive the fleet is finalized and old game rows are swept.
//! - Connections come from a pool that replaces broken ones, so a database that went away
//!   and came back is used again without a restart; meanwhile calls fail with
//!   [`StoreError::Backend`] ("try again").
//!
//! In the repository: `docs/architecture.md` ("The store", "Several processes") describes the
//! outbox, leases and leadership this backend implements; `docs/testing.md` how its tests find
//! a server (`TEST_DATABASE_URL`).

mod commit;
mod fleet;
mod game_store;
mod lead;
mod migrate;
mod notify;
mod pace;
mod processes;
#[cfg(feature = "testing")]
pub mod testing;

use std::time::Duration;

use async_trait::async_trait;
use deadpool_postgres::{
    Manager, ManagerConfig, Object, Pool, PoolError, RecyclingMethod, Runtime,
};
use jieqi_store::codec::{decode, encode};
use jieqi_store::fleet::encode_for;
use jieqi_store::ids::{
    ActivityInstanceId, ChallengeId, ChatId, GameId, Platform, TournamentId, UserId,
};
use jieqi_store::message::{OutboxEntry, OutboxId};
use jieqi_store::tournament::{TournamentRecord, decode_tournament, encode_tournament};
use jieqi_store::{
    AnswerRecord, ChallengeRecord, Change, ChatRecord, Claim, Coalescing, CommitError, Due,
    GameChange, GameChanges, GameRecord, Lane, LaunchRecord, Leadership, OutboxRecord,
    PendingMessage, PlayerRecord, RequestKey, ReviewClaim, ReviewRecord, ReviewRequest, UnixMillis,
    UnixTime,
};
use jieqi_store::{GameStore, StoreError};
use tokio_postgres::error::SqlState;
use tokio_postgres::types::ToSql;
use tokio_postgres::{Config, NoTls};

use commit::*;
pub use migrate::SCHEMA_VERSION;

/// Connections a process keeps for its calls unless told otherwise
/// ([`PgStore::connect_with`]); besides them, one renews claims and one listens for changes.
pub const DEFAULT_CONNECTIONS: usize = 16;
/// How long opening a connection may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// How long a call waits for a free connection.
const WAIT_TIMEOUT: Duration = Duration::from_secs(10);
/// Outbox ids a process reserves at a time.
const ID_BLOCK: usize = 64;
/// The advisory-lock class of delivery lanes (two-key form; the other key is the lane's hash).
const LANE_LOCK_CLASS: i32 = 0x6a71_0002;

/// A [`GameStore`] in a PostgreSQL database, shared by any number of processes. Cloning it
/// shares its connection pool.
#[derive(Clone)]
pub struct PgStore {
    pool: Pool,
    /// A connection of its own for renewing delivery claims: a process busy with a backlog
    /// (every lane at the pool at once, just after a restart) must still renew its claims
    /// within their lease, or another process takes them from it.
    renewals: Pool,
    /// For connections outside the pool (leadership).
    config: Config,
    /// The schema the tables are in (scopes leadership locks).
    schema: String,
    /// Outbox ids reserved by this process and not handed out yet.
    reserved_ids: std::sync::Arc<tokio::sync::Mutex<std::collections::VecDeque<u64>>>,
    /// Game revisions committed by this process or heard from others (`notify`).
    changes: GameChanges,
    /// The connection that listens for other processes' announcements, opened the first
    /// time someone follows games.
    listener: std::sync::Arc<std::sync::OnceLock<Option<std::sync::Arc<notify::Listener>>>>,
    /// The fleet version as last read (`fleet.rs`): the codec schema records are written in.
    fleet: fleet::Fleet,
    /// Held by every clone: the task following the fleet ends once all are dropped.
    _alive: std::sync::Arc<()>,
}

impl std::fmt::Debug for PgStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PgStore")
            .field("schema", &self.schema)
            .field("pool", &self.pool.status())
            .finish_non_exhaustive()
    }
}

impl PgStore {
    /// Connects to the database at `url` (`postgres://user:password@host:port/database`, or
    /// `key=value` pairs), applying schema migrations. The tables go in the connection's
    /// current schema (normally `public`).
    pub async fn connect(url: &str) -> Result<PgStore, StoreError> {
        PgStore::connect_with(url, None, DEFAULT_CONNECTIONS).await
    }

    /// Like [`PgStore::connect`], with the tables in `schema` (letters, digits and `_`),
    /// created if missing: several stores in one database, or tests side by side.
    pub async fn connect_in_schema(url: &str, schema: &str) -> Result<PgStore, StoreError> {
        PgStore::connect_with(url, Some(schema), DEFAULT_CONNECTIONS).await
    }

    /// Like [`PgStore::connect_in_schema`] (the connection's current schema if `None`),
    /// keeping at most `connections` connections for its calls (at least one): a server's
    /// connections are shared by every process on it (PostgreSQL allows 100 by default).
    pub async fn connect_with(
        url: &str,
        schema: Option<&str>,
        connections: usize,
    ) -> Result<PgStore, StoreError> {
        PgStore::open(url, schema, connections.max(1)).await
    }

    async fn open(
        url: &str,
        schema: Option<&str>,
        connections: usize,
    ) -> Result<PgStore, StoreError> {
        let mut config: Config = url.parse().map_err(|e| {
            StoreError::Backend(format!(
                "DATABASE_URL is not a PostgreSQL connection string ({}); write it as \
                 postgres://user:password@host:port/database",
                describe(&e)
            ))
        })?;
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(CONNECT_TIMEOUT);
        }
        if config.get_application_name().is_none() {
            config.application_name(processes::application_name());
        }
        if let Some(schema) = schema {
            if schema.is_empty()
                || !schema
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'_')
            {
                return Err(StoreError::Backend(format!(
                    "`{schema}` is not a usable schema name: use letters, digits and _"
                )));
            }
            let (client, connection) = config.connect(NoTls).await.map_err(cannot_connect)?;
            let driver = tokio::spawn(connection);
            let created = client
                .batch_execute(&format!("CREATE SCHEMA IF NOT EXISTS \"{schema}\""))
                .await;
            drop(client);
            let _ = driver.await;
            created.map_err(backend)?;
            let options = match config.get_options() {
                Some(options) => format!("{options} -csearch_path={schema}"),
                None => format!("-csearch_path={schema}"),
            };
            config.options(options);
        }
        let pool_of = |size: usize| {
            let manager = Manager::from_config(
                config.clone(),
                NoTls,
                ManagerConfig {
                    recycling_method: RecyclingMethod::Fast,
                },
            );
            Pool::builder(manager)
                .max_size(size)
                .runtime(Runtime::Tokio1)
                .wait_timeout(Some(WAIT_TIMEOUT))
                .create_timeout(Some(CONNECT_TIMEOUT))
                .recycle_timeout(Some(CONNECT_TIMEOUT))
                .build()
                .map_err(|e| StoreError::Backend(format!("cannot set up the connection pool: {e}")))
        };
        let pool = pool_of(connections)?;
        let renewals = pool_of(1)?;
        let mut client = pool.get().await.map_err(|e| match e {
            PoolError::Backend(e) => cannot_connect(e),
            other => StoreError::Backend(format!(
                "cannot connect to the PostgreSQL server of DATABASE_URL: {other}"
            )),
        })?;
        let schema: Option<String> = client
            .query_one("SELECT current_schema()", &[])
            .await
            .map_err(backend)?
            .get(0);
        let Some(schema) = schema else {
            return Err(StoreError::Backend(
                "the database has no schema to keep the tables in: its search_path names no \
                 existing schema"
                    .to_owned(),
            ));
        };
        // Beside processes of an older release, only what they tolerate is migrated, and
        // records are written as they read them until the fleet is finalized.
        let fleet = fleet::Fleet::new(migrate::run(&mut client).await?);
        drop(client);
        let alive = std::sync::Arc::new(());
        tokio::spawn(fleet::follow(
            pool.clone(),
            fleet.clone(),
            std::sync::Arc::downgrade(&alive),
        ));
        // The renewals' connection is opened now, not at the first heartbeat: a process that
        // starts on a busy server would otherwise spend part of its first claims' lease
        // connecting (a backend forked, authenticated) before it could renew them.
        drop(renewals.get().await.map_err(pool_error)?);
        Ok(PgStore {
            pool,
            renewals,
            config,
            schema,
            reserved_ids: std::sync::Arc::default(),
            changes: GameChanges::default(),
            listener: std::sync::Arc::default(),
            fleet,
            _alive: alive,
        })
    }

    /// The schema the tables are in.
    pub fn schema(&self) -> &str {
        &self.schema
    }

    async fn client(&self) -> Result<Object, StoreError> {
        self.pool.get().await.map_err(pool_error)
    }

    /// One record by its key from `sql` (`SELECT record FROM … WHERE id = $1`).
    /// Tournaments by `sql`, whose parameters are `params` and which selects one column, the
    /// record.
    async fn tournaments(
        &self,
        sql: &str,
        params: &[&(dyn ToSql + Sync)],
    ) -> Result<Vec<TournamentRecord>, StoreError> {
        let client = self.client().await?;
        let statement = client.prepare_cached(sql).await.map_err(backend)?;
        client
            .query(&statement, params)
            .await
            .map_err(backend)?
            .iter()
            .map(|row| decode_tournament(row.get::<_, &[u8]>(0)))
            .collect()
    }

    async fn read<T: jieqi_store::codec::Record>(
        &self,
        sql: &str,
        key: &str,
    ) -> Result<Option<T>, StoreError> {
        let client = self.client().await?;
        let statement = client.prepare_cached(sql).await.map_err(backend)?;
        match client
            .query_opt(&statement, &[&key])
            .await
            .map_err(backend)?
        {
            Some(row) => decode(row.get::<_, &[u8]>(0)).map(Some),
            None => Ok(None),
        }
    }
}

/// An error's message with its cause (tokio-postgres shows only the kind).
pub(crate) fn describe(e: &tokio_postgres::Error) -> String {
    if let Some(db) = e.as_db_error() {
        return format!("{}: {}", db.severity(), db.message());
    }
    match std::error::Error::source(e) {
        Some(cause) => format!("{e}: {cause}"),
        None => e.to_string(),
    }
}

/// A failed database call.
pub(crate) fn backend(e: tokio_postgres::Error) -> StoreError {
    StoreError::Backend(format!("database: {}", describe(&e)))
}

/// A connection that could not be opened.
pub(crate) fn cannot_connect(e: tokio_postgres::Error) -> StoreError {
    StoreError::Backend(format!(
        "cannot connect to the PostgreSQL server of DATABASE_URL: {}",
        describe(&e)
    ))
}

pub(crate) fn pool_error(e: PoolError) -> StoreError {
    match e {
        PoolError::Backend(e) => backend(e),
        PoolError::Timeout(_) => {
            StoreError::Backend("no database connection became free in time".to_owned())
        }
        other => StoreError::Backend(format!("database connection pool: {other}")),
    }
}

/// A failed call within a commit: concurrent writers' clashes are conflicts (retry).
fn commit_error(e: tokio_postgres::Error) -> CommitError {
    match e.code() {
        Some(code)
            if *code == SqlState::T_R_SERIALIZATION_FAILURE
                || *code == SqlState::T_R_DEADLOCK_DETECTED
                || *code == SqlState::UNIQUE_VIOLATION =>
        {
            CommitError::Conflict
        }
        _ => CommitError::Store(backend(e)),
    }
}

/// A store number as a column value (saturating: times and ids are far below `i64::MAX`).
fn int(value: u64) -> i64 {
    i64::try_from(value).unwrap_or(i64::MAX)
}

/// A column value as a store number.
fn uint(value: i64) -> u64 {
    u64::try_from(value).unwrap_or(0)
}

/// Outbox rows (id, record) as pending messages, with the platform references of the posts
/// they edit.
async fn pending_messages(
    client: &impl tokio_postgres::GenericClient,
    rows: Vec<(i64, OutboxRecord)>,
) -> Result<Vec<PendingMessage>, StoreError> {
    let replaced: Vec<i64> = rows
        .iter()
        .filter_map(|(_, record)| record.message.replaces.map(|id| int(id.0)))
        .collect();
    let mut refs = std::collections::HashMap::new();
    if !replaced.is_empty() {
        for row in client
            .query(
                "SELECT id, platform_ref FROM sent WHERE id = ANY($1)",
                &[&replaced],
            )
            .await
            .map_err(backend)?
        {
            refs.insert(row.get::<_, i64>(0), row.get::<_, String>(1));
        }
    }
    Ok(rows
        .into_iter()
        .map(|(id, record)| {
            let replaces_ref = record
                .message
                .replaces
                .and_then(|earlier| refs.get(&int(earlier.0)).cloned());
            PendingMessage {
                entry: OutboxEntry {
                    id: OutboxId(uint(id)),
                    message: record.message,
                    attempts: record.attempts,
                    replaces_ref,
                },
                picture: record.picture,
                taken_from: None,
            }
        })
        .collect())
}

/// Outbox rows (`id, record, attempts, not_before`) as records: a deferral's columns
/// override the record's fields (migration 2).
fn decode_rows(rows: Vec<tokio_postgres::Row>) -> Result<Vec<(i64, OutboxRecord)>, StoreError> {
    rows.into_iter().map(|row| decode_row(&row)).collect()
}

fn decode_row(row: &tokio_postgres::Row) -> Result<(i64, OutboxRecord), StoreError> {
    let record = outbox_from_columns(row.get::<_, &[u8]>(1), row.get(2), row.get(3))?;
    Ok((row.get(0), record))
}

/// An outbox row as a record: the record's bytes, with the deferral the row's `attempts` and
/// `not_before` columns hold over them (a deferral writes only the columns). Any bytes and
/// column values give a record or an error, never a panic (the `store_records` fuzz target
/// in `fuzz/` tries them).
pub fn outbox_from_columns(
    record: &[u8],
    attempts: i32,
    not_before: i64,
) -> Result<OutboxRecord, StoreError> {
    let mut record: OutboxRecord = decode(record)?;
    record.attempts = record.attempts.max(u32::try_from(attempts).unwrap_or(0));
    record.not_before = uint(not_before);
    Ok(record)
}
