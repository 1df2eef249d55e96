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
//! - Connections come from a pool that replaces broken ones, so a database that went away
//!   and came back is used again without a restart; meanwhile calls fail with
//!   [`StoreError::Backend`] ("try again").
//!
//! In the repository: `docs/architecture.md` ("The store", "Several processes") describes the
//! outbox, leases and leadership this backend implements; `docs/testing.md` how its tests find
//! a server (`TEST_DATABASE_URL`).

mod fleet;
mod lead;
mod migrate;
mod notify;
#[cfg(feature = "testing")]
pub mod testing;

use std::time::Duration;

use async_trait::async_trait;
use deadpool_postgres::{
    Manager, ManagerConfig, Object, Pool, PoolError, RecyclingMethod, Runtime,
};
use jieqi_store::codec::{decode, encode};
use jieqi_store::ids::{ChallengeId, ChatId, GameId, Platform, UserId};
use jieqi_store::message::{OutboxEntry, OutboxId};
use jieqi_store::{
    AnswerRecord, ChallengeRecord, Change, ChatRecord, Claim, Coalescing, CommitError, Due,
    GameChange, GameChanges, GameRecord, Lane, Leadership, OutboxRecord, PendingMessage,
    PlayerRecord, RequestKey, ReviewClaim, ReviewRecord, ReviewRequest, UnixMillis, UnixTime,
};
use jieqi_store::{GameStore, StoreError};
use tokio_postgres::error::SqlState;
use tokio_postgres::types::ToSql;
use tokio_postgres::{Config, NoTls};

pub use migrate::SCHEMA_VERSION;

/// Connections kept per process.
const POOL_SIZE: usize = 16;
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
        PgStore::open(url, None).await
    }

    /// Like [`PgStore::connect`], with the tables in `schema` (letters, digits and `_`),
    /// created if missing: several stores in one database, or tests side by side.
    pub async fn connect_in_schema(url: &str, schema: &str) -> Result<PgStore, StoreError> {
        PgStore::open(url, Some(schema)).await
    }

    async fn open(url: &str, schema: Option<&str>) -> Result<PgStore, StoreError> {
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
            config.application_name(fleet::application_name());
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
        let pool = pool_of(POOL_SIZE)?;
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
        // Nothing is migrated or written while a process of an older release is connected.
        fleet::wait_for_older_processes(&client).await?;
        migrate::run(&mut client).await?;
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

fn pool_error(e: PoolError) -> StoreError {
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

/// The SQLSTATE of `expect_rows` (migration 2): a record changed since it was read.
const CHANGED_MEANWHILE: &str = "JQ409";

/// A statement's parameter, owned so that every statement of a flight can be built first.
type Param = Box<dyn ToSql + Sync + Send>;

/// One statement of a commit.
struct Statement {
    sql: &'static str,
    params: Vec<Param>,
    /// Whether it records the request's answer (a clash there is a repeated request).
    answers_request: bool,
}

impl Statement {
    fn new(sql: &'static str, params: Vec<Param>) -> Statement {
        Statement {
            sql,
            params,
            answers_request: false,
        }
    }
}

/// A record written over the revision before it: revision 1 is inserted (the key must be
/// free), a later one updates the row only where the stored revision is one less. Both
/// statements (from `revised_sql!`) take `$1` key, `$2` revision, then the same further
/// columns, and raise `CHANGED_MEANWHILE` unless they wrote exactly one row.
fn revised(
    revision: u64,
    (insert, update): (&'static str, &'static str),
    params: Vec<Param>,
) -> Result<Statement, CommitError> {
    match revision {
        0 => Err(CommitError::Conflict),
        1 => Ok(Statement::new(insert, params)),
        _ => Ok(Statement::new(update, params)),
    }
}

/// The insert and the update of a revised record's row (`id`, `revision`, one more column
/// the store looks rows up by if named, `record`), each checking that it touched its one
/// row. Written by a macro so the statements stay `&'static str` for the statement cache.
macro_rules! revised_sql {
    ($table:literal) => {
        (
            concat!(
                "WITH w AS (INSERT INTO ",
                $table,
                " (id, revision, record) VALUES ($1, $2, $3) \
                 ON CONFLICT (id) DO NOTHING RETURNING 1) \
                 SELECT expect_rows((SELECT count(*) FROM w), 1)"
            ),
            concat!(
                "WITH w AS (UPDATE ",
                $table,
                " SET revision = $2, record = $3 \
                 WHERE id = $1 AND revision = $2::bigint - 1 RETURNING 1) \
                 SELECT expect_rows((SELECT count(*) FROM w), 1)"
            ),
        )
    };
    ($table:literal, $column:literal) => {
        (
            concat!(
                "WITH w AS (INSERT INTO ",
                $table,
                " (id, revision, ",
                $column,
                ", record) VALUES ($1, $2, $3, $4) \
                 ON CONFLICT (id) DO NOTHING RETURNING 1) \
                 SELECT expect_rows((SELECT count(*) FROM w), 1)"
            ),
            concat!(
                "WITH w AS (UPDATE ",
                $table,
                " SET revision = $2, ",
                $column,
                " = $3, record = $4 \
                 WHERE id = $1 AND revision = $2::bigint - 1 RETURNING 1) \
                 SELECT expect_rows((SELECT count(*) FROM w), 1)"
            ),
        )
    };
}

/// Writes of records looked up by their key alone (chats, players) with the statements of
/// `revised_sql!`: `(key, revision, stored bytes)`, in key order, each over the revision
/// before it (see [`revised`]).
fn keyed(
    sql: (&'static str, &'static str),
    mut records: Vec<(String, u64, Vec<u8>)>,
) -> Result<Vec<Statement>, CommitError> {
    records.sort_by(|a, b| a.0.cmp(&b.0));
    records
        .into_iter()
        .map(|(key, revision, bytes)| {
            revised(
                revision,
                sql,
                vec![Box::new(key), Box::new(int(revision)), Box::new(bytes)],
            )
        })
        .collect()
}

/// The statements that carry out `change`, in the order they must run. A fixed order of rows
/// within each table makes deadlocks between concurrent changes rarer.
fn statements(change: &Change) -> Result<Vec<Statement>, CommitError> {
    let mut out = Vec::new();
    if let Some((key, answer)) = &change.request {
        out.push(Statement {
            sql: "WITH w AS (INSERT INTO answers (key, at, record) VALUES ($1, $2, $3) \
                  ON CONFLICT (key) DO NOTHING RETURNING 1) \
                  SELECT expect_rows((SELECT count(*) FROM w), 1)",
            params: vec![
                Box::new(key.0.clone()),
                Box::new(int(answer.at)),
                Box::new(encode(answer)?),
            ],
            answers_request: true,
        });
    }
    let mut games: Vec<&GameRecord> = change.games.iter().collect();
    games.sort_by(|a, b| a.id.cmp(&b.id));
    for game in games {
        out.push(revised(
            game.revision,
            revised_sql!("games", "deadline"),
            vec![
                Box::new(game.id.as_str().to_owned()),
                Box::new(int(game.revision)),
                Box::new(game.deadline.map(int)),
                Box::new(encode(game)?),
            ],
        )?);
    }
    let mut challenges: Vec<&ChallengeRecord> = change.challenges.iter().collect();
    challenges.sort_by(|a, b| a.id.cmp(&b.id));
    for challenge in challenges {
        out.push(revised(
            challenge.revision,
            revised_sql!("challenges", "expires_at"),
            vec![
                Box::new(challenge.id.as_str().to_owned()),
                Box::new(int(challenge.revision)),
                Box::new(int(challenge.expires_at)),
                Box::new(encode(challenge)?),
            ],
        )?);
    }
    for (id, revision) in &change.removed_challenges {
        out.push(Statement::new(
            "WITH w AS (DELETE FROM challenges WHERE id = $1 AND revision = $2 RETURNING 1) \
             SELECT expect_rows((SELECT count(*) FROM w), 1)",
            vec![Box::new(id.as_str().to_owned()), Box::new(int(*revision))],
        ));
    }
    let chats = change
        .chats
        .iter()
        .map(|c| Ok((c.chat.to_string(), c.revision, encode(c)?)))
        .collect::<Result<_, StoreError>>()?;
    out.extend(keyed(revised_sql!("chats"), chats)?);
    let players = change
        .players
        .iter()
        .map(|p| Ok((p.user.to_string(), p.revision, encode(p)?)))
        .collect::<Result<_, StoreError>>()?;
    out.extend(keyed(revised_sql!("players"), players)?);
    for (id, record) in &change.outbox {
        let to = &record.message.to;
        let platform = to.platform().map(|p| p.name().to_owned());
        // Replies never enter the outbox; should one, it gets a lane of its own.
        let lane = Lane::of(to).map_or_else(|| format!("x:{}", id.0), |lane| lane.0);
        // A taken id is a unique violation, which aborts the transaction: a conflict.
        out.push(Statement::new(
            "INSERT INTO outbox (id, platform, lane, not_before, attempts, record) \
             VALUES ($1, $2, $3, $4, $5, $6)",
            vec![
                Box::new(int(id.0)),
                Box::new(platform),
                Box::new(lane),
                Box::new(int(record.not_before)),
                Box::new(i32::try_from(record.attempts).unwrap_or(i32::MAX)),
                Box::new(encode(record)?),
            ],
        ));
    }
    for review in &change.reviews {
        // Written once: a review stored already (another process finished first) refuses
        // the whole change as a conflict.
        out.push(Statement::new(
            "WITH w AS (INSERT INTO reviews (game_id, record) VALUES ($1, $2) \
             ON CONFLICT (game_id) DO UPDATE \
             SET record = EXCLUDED.record, claimed_by = NULL, claimed_until = NULL \
             WHERE reviews.record IS NULL RETURNING 1) \
             SELECT expect_rows((SELECT count(*) FROM w), 1)",
            vec![
                Box::new(review.game.as_str().to_owned()),
                Box::new(encode(review)?),
            ],
        ));
    }
    let mut queued: Vec<&ReviewRequest> = change.queued_reviews.iter().collect();
    queued.sort_by(|a, b| (&a.game, a.chat.to_string()).cmp(&(&b.game, b.chat.to_string())));
    for request in queued {
        // Queued once per game and chat: a second request refuses the change as a conflict.
        out.push(Statement::new(
            "WITH w AS (INSERT INTO review_requests (game_id, chat, record) VALUES ($1, $2, $3) \
             ON CONFLICT (game_id, chat) DO NOTHING RETURNING 1) \
             SELECT expect_rows((SELECT count(*) FROM w), 1)",
            vec![
                Box::new(request.game.as_str().to_owned()),
                Box::new(request.chat.to_string()),
                Box::new(encode(request)?),
            ],
        ));
    }
    for request in &change.dequeued_reviews {
        // Posted once: a review no longer queued (another process posted it) is a conflict.
        out.push(Statement::new(
            "WITH w AS (DELETE FROM review_requests WHERE game_id = $1 AND chat = $2 RETURNING 1) \
             SELECT expect_rows((SELECT count(*) FROM w), 1)",
            vec![
                Box::new(request.game.as_str().to_owned()),
                Box::new(request.chat.to_string()),
            ],
        ));
    }
    for (id, sent) in &change.sent {
        // Done with: out of the outbox, and its platform reference kept for later edits
        // (only if it was still there: a message given up twice is remembered once).
        out.push(Statement::new(
            "WITH done AS (DELETE FROM outbox WHERE id = $1 RETURNING id) \
             INSERT INTO sent (id, at, platform_ref) \
             SELECT id, $2, $3 FROM done WHERE $3::text IS NOT NULL \
             ON CONFLICT (id) DO UPDATE SET at = EXCLUDED.at, platform_ref = EXCLUDED.platform_ref",
            vec![
                Box::new(int(id.0)),
                Box::new(int(sent.at)),
                Box::new(sent.platform_ref.clone()),
            ],
        ));
    }
    for (id, deferral) in &change.deferred {
        // Delivered or given up meanwhile: the row is gone and nothing is deferred.
        out.push(Statement::new(
            "UPDATE outbox SET attempts = $2, not_before = $3, claimed_by = NULL, \
             claimed_until = NULL WHERE id = $1",
            vec![
                Box::new(int(id.0)),
                Box::new(i32::try_from(deferral.attempts).unwrap_or(i32::MAX)),
                Box::new(int(deferral.not_before)),
            ],
        ));
    }
    for id in &change.hastened {
        // Its claim, if it has one, stays; delivered meanwhile, the row is gone.
        out.push(Statement::new(
            "UPDATE outbox SET not_before = 0 WHERE id = $1",
            vec![Box::new(int(id.0))],
        ));
    }
    Ok(out)
}

/// A pooled connection in the middle of a transaction. Should the commit be abandoned
/// half-way (its future dropped), the connection is closed rather than returned to the pool
/// with the transaction open; the server then rolls it back.
struct InTransaction(Option<Object>);

impl InTransaction {
    fn client(&self) -> &Object {
        self.0.as_ref().expect("present until finished")
    }

    /// The transaction is over (committed or rolled back): the connection may be reused.
    fn finished(mut self) {
        self.0.take();
    }
}

impl Drop for InTransaction {
    fn drop(&mut self) {
        if let Some(object) = self.0.take() {
            drop(Object::take(object));
        }
    }
}

/// Why a flight did not commit.
enum Refusal {
    /// The request's key has an answer already (read it after the rollback).
    Answered,
    /// Anything else.
    Failed(CommitError),
}

impl From<CommitError> for Refusal {
    fn from(e: CommitError) -> Refusal {
        Refusal::Failed(e)
    }
}

impl From<StoreError> for Refusal {
    fn from(e: StoreError) -> Refusal {
        Refusal::Failed(e.into())
    }
}

/// Sends `change` to the server in one flight: BEGIN, every statement, COMMIT. The server
/// runs them in order; the first that fails aborts the transaction, and the COMMIT behind it
/// then rolls back. One round trip instead of one per statement.
async fn commit_in_one_flight(
    client: Object,
    change: &Change,
    schema: &str,
) -> Result<(), Refusal> {
    let mut statements = statements(change)?;
    // Sent on commit only, in commit order: other processes' followers hear each revision.
    for game in &change.games {
        statements.push(Statement::new(
            "SELECT pg_notify($1, $2)",
            vec![
                Box::new(notify::channel(schema)),
                Box::new(notify::payload(&game.id, game.revision)),
            ],
        ));
    }
    let mut prepared = Vec::with_capacity(statements.len());
    for statement in &statements {
        prepared.push(
            client
                .prepare_cached(statement.sql)
                .await
                .map_err(commit_error)?,
        );
    }
    let client = InTransaction(Some(client));
    let begin = if change.durable {
        "BEGIN"
    } else {
        // Delivery bookkeeping: a crash may lose the last moments of it, which resends.
        "BEGIN; SET LOCAL synchronous_commit TO OFF"
    };
    type Flight<'a> = std::pin::Pin<
        Box<dyn std::future::Future<Output = Result<(), tokio_postgres::Error>> + Send + 'a>,
    >;
    let db: &tokio_postgres::Client = client.client();
    let mut flight: Vec<Flight<'_>> = Vec::with_capacity(statements.len() + 2);
    flight.push(Box::pin(db.batch_execute(begin)));
    for (statement, prepared) in statements.iter().zip(&prepared) {
        flight.push(Box::pin(async move {
            let params: Vec<&(dyn ToSql + Sync)> = statement
                .params
                .iter()
                .map(|p| p.as_ref() as &(dyn ToSql + Sync))
                .collect();
            db.execute(prepared, &params).await.map(drop)
        }));
    }
    flight.push(Box::pin(db.batch_execute("COMMIT")));
    // Polled in order, so sent in order (tokio-postgres pipelines concurrent requests).
    let mut results = futures_util::future::join_all(flight).await;
    let committed = results.pop().expect("the COMMIT");
    let begun = results.remove(0);
    begun.map_err(commit_error)?;
    for (statement, result) in statements.iter().zip(results) {
        let Err(e) = result else { continue };
        client.finished();
        let changed = e.code().is_some_and(|c| c.code() == CHANGED_MEANWHILE);
        return Err(match (changed, statement.answers_request) {
            (true, true) => Refusal::Answered,
            (true, false) => CommitError::Conflict.into(),
            _ => commit_error(e).into(),
        });
    }
    committed.map_err(commit_error)?;
    client.finished();
    Ok(())
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

#[async_trait]
impl GameStore for PgStore {
    async fn game(&self, id: &GameId) -> Result<Option<GameRecord>, StoreError> {
        self.read("SELECT record FROM games WHERE id = $1", id.as_str())
            .await
    }

    async fn challenge(&self, id: &ChallengeId) -> Result<Option<ChallengeRecord>, StoreError> {
        self.read("SELECT record FROM challenges WHERE id = $1", id.as_str())
            .await
    }

    async fn chat(&self, chat: &ChatId) -> Result<Option<ChatRecord>, StoreError> {
        self.read("SELECT record FROM chats WHERE id = $1", &chat.to_string())
            .await
    }

    async fn player(&self, user: &UserId) -> Result<Option<PlayerRecord>, StoreError> {
        self.read(
            "SELECT record FROM players WHERE id = $1",
            &user.to_string(),
        )
        .await
    }

    async fn answer(&self, key: &RequestKey) -> Result<Option<AnswerRecord>, StoreError> {
        self.read("SELECT record FROM answers WHERE key = $1", &key.0)
            .await
    }

    async fn answer_and_chat(
        &self,
        key: &RequestKey,
        chat: &ChatId,
    ) -> Result<(Option<AnswerRecord>, Option<ChatRecord>), StoreError> {
        let client = self.client().await?;
        let statement = client
            .prepare_cached(
                "SELECT (SELECT record FROM answers WHERE key = $1), \
                        (SELECT record FROM chats WHERE id = $2)",
            )
            .await
            .map_err(backend)?;
        let row = client
            .query_one(&statement, &[&key.0, &chat.to_string()])
            .await
            .map_err(backend)?;
        let answer = row.get::<_, Option<&[u8]>>(0).map(decode).transpose()?;
        let chat = row.get::<_, Option<&[u8]>>(1).map(decode).transpose()?;
        Ok((answer, chat))
    }

    async fn due(&self, now: UnixTime, limit: usize) -> Result<Vec<Due>, StoreError> {
        let client = self.client().await?;
        let statement = client
            .prepare_cached(
                "(SELECT 'g'::text AS kind, id, deadline AS at FROM games \
                  WHERE deadline <= $1 ORDER BY deadline LIMIT $2) \
                 UNION ALL \
                 (SELECT 'c'::text, id, expires_at FROM challenges \
                  WHERE expires_at <= $1 ORDER BY expires_at LIMIT $2) \
                 ORDER BY at, kind, id LIMIT $2",
            )
            .await
            .map_err(backend)?;
        let rows = client
            .query(&statement, &[&int(now), &int(limit as u64)])
            .await
            .map_err(backend)?;
        Ok(rows
            .iter()
            .filter_map(|row| {
                let id: &str = row.get(1);
                match row.get::<_, &str>(0) {
                    "g" => id.parse().ok().map(Due::Game),
                    _ => id.parse().ok().map(Due::Challenge),
                }
            })
            .collect())
    }

    async fn claim(
        &self,
        platform: Option<Platform>,
        claim: &Claim,
        limit: usize,
    ) -> Result<Vec<PendingMessage>, StoreError> {
        if limit == 0 {
            return Ok(Vec::new());
        }
        let now = int(claim.now);
        let mut client = self.client().await?;
        let tx = client.transaction().await.map_err(backend)?;
        // Each lane's oldest message, if it is neither claimed nor deferred.
        let statement = tx
            .prepare_cached(
                "SELECT id, lane FROM ( \
                     SELECT DISTINCT ON (lane) id, seq, lane, not_before, claimed_until \
                     FROM outbox WHERE $1::text IS NULL OR platform = $1 \
                     ORDER BY lane, seq \
                 ) heads \
                 WHERE not_before <= $2 AND (claimed_until IS NULL OR claimed_until <= $2) \
                 ORDER BY seq LIMIT $3",
            )
            .await
            .map_err(backend)?;
        let heads = tx
            .query(
                &statement,
                &[&platform.map(Platform::name), &now, &int(limit as u64)],
            )
            .await
            .map_err(backend)?;
        if heads.is_empty() {
            return Ok(Vec::new());
        }
        let lanes: Vec<&str> = heads.iter().map(|row| row.get(1)).collect();
        // One claimer per lane at a time: lanes another process is claiming are skipped.
        let statement = tx
            .prepare_cached(
                "SELECT lane FROM unnest($1::text[]) AS lane \
                 WHERE pg_try_advisory_xact_lock($2, hashtext(current_schema() || ':' || lane))",
            )
            .await
            .map_err(backend)?;
        let free: std::collections::HashSet<String> = tx
            .query(&statement, &[&lanes, &LANE_LOCK_CLASS])
            .await
            .map_err(backend)?
            .iter()
            .map(|row| row.get(0))
            .collect();
        let candidates: Vec<i64> = heads
            .iter()
            .filter(|row| free.contains(row.get::<_, &str>(1)))
            .map(|row| row.get(0))
            .collect();
        // Holding the lanes, check again on the latest data: still the oldest of its lane, no
        // other message of the lane claimed, and not being delivered or deferred right now.
        let statement = tx
            .prepare_cached(
                "SELECT o.id, o.record, o.attempts, o.not_before, o.claimed_by FROM outbox o \
                 WHERE o.id = ANY($1) AND o.not_before <= $2 \
                   AND (o.claimed_until IS NULL OR o.claimed_until <= $2) \
                   AND NOT EXISTS (SELECT 1 FROM outbox p WHERE p.lane = o.lane AND p.id <> o.id \
                                   AND (p.seq < o.seq OR p.claimed_until > $2)) \
                 ORDER BY o.seq \
                 FOR UPDATE OF o SKIP LOCKED",
            )
            .await
            .map_err(backend)?;
        let rows = tx
            .query(&statement, &[&candidates, &now])
            .await
            .map_err(backend)?;
        // A row still naming another holder is a lapsed claim taken over.
        let taken_from: std::collections::HashMap<i64, String> = rows
            .iter()
            .filter_map(|row| {
                let holder: Option<String> = row.get(4);
                Some((row.get(0), holder.filter(|h| *h != claim.holder)?))
            })
            .collect();
        let rows = decode_rows(rows)?;
        let claimed: Vec<i64> = rows.iter().map(|(id, _)| *id).collect();
        let statement = tx
            .prepare_cached(
                "UPDATE outbox SET claimed_by = $2, claimed_until = $3 WHERE id = ANY($1)",
            )
            .await
            .map_err(backend)?;
        tx.execute(&statement, &[&claimed, &claim.holder, &int(claim.until)])
            .await
            .map_err(backend)?;
        let mut pending = pending_messages(&*tx, rows).await?;
        tx.commit().await.map_err(backend)?;
        for message in &mut pending {
            message.taken_from = taken_from.get(&int(message.entry.id.0)).cloned();
        }
        Ok(pending)
    }

    async fn next_claimable(
        &self,
        platform: Option<Platform>,
        claim: &Claim,
    ) -> Result<Option<UnixMillis>, StoreError> {
        let client = self.client().await?;
        // The lanes' oldest messages that wait for another holder's claim or a deferral.
        let statement = client
            .prepare_cached(
                "SELECT min(greatest(not_before, coalesce(claimed_until, 0))) FROM ( \
                     SELECT DISTINCT ON (lane) not_before, claimed_by, claimed_until \
                     FROM outbox WHERE $1::text IS NULL OR platform = $1 \
                     ORDER BY lane, seq \
                 ) heads \
                 WHERE claimed_by IS DISTINCT FROM $3 \
                   AND (not_before > $2 OR claimed_until > $2)",
            )
            .await
            .map_err(backend)?;
        let row = client
            .query_one(
                &statement,
                &[
                    &platform.map(Platform::name),
                    &int(claim.now),
                    &claim.holder,
                ],
            )
            .await
            .map_err(backend)?;
        Ok(row.get::<_, Option<i64>>(0).map(uint))
    }

    async fn renew(&self, claim: &Claim, ids: &[OutboxId]) -> Result<Vec<OutboxId>, StoreError> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let client = self.renewals.get().await.map_err(pool_error)?;
        // Only this holder's own claims: one that lapsed and was taken over is not taken back.
        let statement = client
            .prepare_cached(
                "UPDATE outbox SET claimed_until = greatest(claimed_until, $3) \
                 WHERE id = ANY($1) AND claimed_by = $2 RETURNING id",
            )
            .await
            .map_err(backend)?;
        let wanted: Vec<i64> = ids.iter().map(|id| int(id.0)).collect();
        let rows = client
            .query(&statement, &[&wanted, &claim.holder, &int(claim.until)])
            .await
            .map_err(backend)?;
        Ok(rows
            .iter()
            .map(|row| OutboxId(u64::try_from(row.get::<_, i64>(0)).unwrap_or(0)))
            .collect())
    }

    async fn pending(&self, limit: usize) -> Result<Vec<PendingMessage>, StoreError> {
        let client = self.client().await?;
        let statement = client
            .prepare_cached(
                "SELECT id, record, attempts, not_before FROM outbox ORDER BY seq LIMIT $1",
            )
            .await
            .map_err(backend)?;
        let rows = client
            .query(&statement, &[&int(limit as u64)])
            .await
            .map_err(backend)?;
        pending_messages(&**client, decode_rows(rows)?).await
    }

    async fn lane_from(
        &self,
        head: OutboxId,
        limit: usize,
    ) -> Result<Vec<(OutboxId, OutboxRecord)>, StoreError> {
        let client = self.client().await?;
        let statement = client
            .prepare_cached(
                "SELECT o.id, o.record, o.attempts, o.not_before \
                 FROM outbox h JOIN outbox o ON o.lane = h.lane AND o.seq >= h.seq \
                 WHERE h.id = $1 ORDER BY o.seq LIMIT $2",
            )
            .await
            .map_err(backend)?;
        let rows = client
            .query(&statement, &[&int(head.0), &int(limit as u64)])
            .await
            .map_err(backend)?;
        Ok(decode_rows(rows)?
            .into_iter()
            .map(|(id, record)| (OutboxId(uint(id)), record))
            .collect())
    }

    async fn coalesce(
        &self,
        claim: &Claim,
        coalescing: &Coalescing,
    ) -> Result<Option<PendingMessage>, StoreError> {
        let Some(&head) = coalescing.skipped.first() else {
            return Ok(None);
        };
        let now = int(claim.now);
        let mut client = self.client().await?;
        let tx = client.transaction().await.map_err(backend)?;
        // The head is still ours (locked: nobody delivers or defers it meanwhile)...
        let statement = tx
            .prepare_cached(
                "SELECT lane FROM outbox WHERE id = $1 AND claimed_by = $2 AND claimed_until > $3 \
                 FOR UPDATE",
            )
            .await
            .map_err(backend)?;
        let Some(row) = tx
            .query_opt(&statement, &[&int(head.0), &claim.holder, &now])
            .await
            .map_err(backend)?
        else {
            return Ok(None);
        };
        let lane: String = row.get(0);
        // ...and its lane still starts with the skipped boards, then the covering one.
        let statement = tx
            .prepare_cached(
                "SELECT id FROM outbox WHERE lane = $1 \
                 AND seq <= (SELECT seq FROM outbox WHERE id = $2) ORDER BY seq FOR UPDATE",
            )
            .await
            .map_err(backend)?;
        let lane: Vec<u64> = tx
            .query(&statement, &[&lane, &int(coalescing.covering.0)])
            .await
            .map_err(backend)?
            .iter()
            .map(|row| uint(row.get(0)))
            .collect();
        let wanted: Vec<u64> = coalescing
            .skipped
            .iter()
            .chain([&coalescing.covering])
            .map(|id| id.0)
            .collect();
        if lane != wanted {
            return Ok(None);
        }
        let skipped: Vec<i64> = coalescing.skipped.iter().map(|id| int(id.0)).collect();
        let statement = tx
            .prepare_cached("DELETE FROM outbox WHERE id = ANY($1)")
            .await
            .map_err(backend)?;
        tx.execute(&statement, &[&skipped]).await.map_err(backend)?;
        let statement = tx
            .prepare_cached(
                "UPDATE outbox SET record = $2, claimed_by = $3, claimed_until = $4 \
                 WHERE id = $1 RETURNING id, record, attempts, not_before",
            )
            .await
            .map_err(backend)?;
        let rows = tx
            .query(
                &statement,
                &[
                    &int(coalescing.covering.0),
                    &encode(&coalescing.record)?,
                    &claim.holder,
                    &int(claim.until),
                ],
            )
            .await
            .map_err(backend)?;
        let covering = pending_messages(&*tx, decode_rows(rows)?).await?.pop();
        tx.commit().await.map_err(backend)?;
        Ok(covering)
    }

    async fn outbox_record(&self, id: OutboxId) -> Result<Option<OutboxRecord>, StoreError> {
        let client = self.client().await?;
        let statement = client
            .prepare_cached("SELECT id, record, attempts, not_before FROM outbox WHERE id = $1")
            .await
            .map_err(backend)?;
        match client
            .query_opt(&statement, &[&int(id.0)])
            .await
            .map_err(backend)?
        {
            Some(row) => decode_row(&row).map(|(_, record)| Some(record)),
            None => Ok(None),
        }
    }

    async fn allocate_outbox_ids(&self, n: usize) -> Result<Vec<OutboxId>, StoreError> {
        if n == 0 {
            return Ok(Vec::new());
        }
        // From this process's block; one round trip reserves the next block when it runs
        // out. Lanes are delivered in commit order (`seq`), not in id order.
        let mut reserved = self.reserved_ids.lock().await;
        if reserved.len() < n {
            let client = self.client().await?;
            let statement = client
                .prepare_cached("SELECT nextval('outbox_ids') FROM generate_series(1, $1::bigint)")
                .await
                .map_err(backend)?;
            let mut block: Vec<u64> = client
                .query(&statement, &[&int(n.max(ID_BLOCK) as u64)])
                .await
                .map_err(backend)?
                .iter()
                .map(|row| uint(row.get(0)))
                .collect();
            block.sort_unstable();
            reserved.extend(block);
        }
        let mut ids: Vec<OutboxId> = reserved.drain(..n).map(OutboxId).collect();
        ids.sort();
        Ok(ids)
    }

    async fn commit(&self, change: Change) -> Result<(), CommitError> {
        if change.is_empty() {
            return Ok(());
        }
        let client = self.client().await?;
        match commit_in_one_flight(client, &change, &self.schema).await {
            // Not announced here as well: the commit's own NOTIFY comes back to this
            // process's listener too, in commit order among every process's commits. Told
            // here as well, a follower heard each revision twice, and could hear revision 2
            // (told here) before revision 1 (heard back).
            Ok(()) => Ok(()),
            Err(Refusal::Failed(e)) => Err(e),
            Err(Refusal::Answered) => {
                let Some((key, _)) = &change.request else {
                    return Err(CommitError::Conflict);
                };
                match self.answer(key).await? {
                    Some(earlier) => Err(CommitError::Duplicate(earlier)),
                    // Pruned in between: the caller may try again.
                    None => Err(CommitError::Conflict),
                }
            }
        }
    }

    async fn prune(&self, before: UnixTime) -> Result<usize, StoreError> {
        let client = self.client().await?;
        let answers = client
            .execute("DELETE FROM answers WHERE at < $1", &[&int(before)])
            .await
            .map_err(backend)?;
        let sent = client
            .execute("DELETE FROM sent WHERE at < $1", &[&int(before)])
            .await
            .map_err(backend)?;
        Ok(usize::try_from(answers + sent).unwrap_or(usize::MAX))
    }

    async fn review(&self, game: &GameId) -> Result<Option<ReviewRecord>, StoreError> {
        self.read(
            "SELECT record FROM reviews WHERE game_id = $1 AND record IS NOT NULL",
            game.as_str(),
        )
        .await
    }

    async fn queued_reviews(&self, limit: usize) -> Result<Vec<ReviewRequest>, StoreError> {
        let client = self.client().await?;
        let statement = client
            .prepare_cached("SELECT record FROM review_requests ORDER BY queued LIMIT $1")
            .await
            .map_err(backend)?;
        client
            .query(&statement, &[&int(limit as u64)])
            .await
            .map_err(backend)?
            .iter()
            .map(|row| decode(row.get::<_, &[u8]>(0)))
            .collect()
    }

    async fn claim_review(&self, game: &GameId, claim: &Claim) -> Result<ReviewClaim, StoreError> {
        let client = self.client().await?;
        // Taken when nobody holds it, when its holder's claim lapsed, or again by its holder.
        let taken = client
            .query_opt(
                "INSERT INTO reviews (game_id, claimed_by, claimed_until) VALUES ($1, $2, $3) \
                 ON CONFLICT (game_id) DO UPDATE \
                 SET claimed_by = EXCLUDED.claimed_by, claimed_until = EXCLUDED.claimed_until \
                 WHERE reviews.record IS NULL \
                 AND (reviews.claimed_until IS NULL OR reviews.claimed_until <= $4 \
                      OR reviews.claimed_by = $2) \
                 RETURNING 1",
                &[
                    &game.as_str(),
                    &claim.holder,
                    &int(claim.until),
                    &int(claim.now),
                ],
            )
            .await
            .map_err(backend)?;
        if taken.is_some() {
            return Ok(ReviewClaim::Ours);
        }
        Ok(match self.review(game).await? {
            Some(done) => ReviewClaim::Done(Box::new(done)),
            None => ReviewClaim::Busy,
        })
    }

    async fn flush(&self) -> Result<(), StoreError> {
        // Every commit is on disk when it returns (or, for delivery bookkeeping, soon after).
        Ok(())
    }

    async fn lead(&self, role: &str) -> Result<Option<Leadership>, StoreError> {
        lead::lead(&self.config, &self.schema, role).await
    }

    fn game_changes(&self) -> tokio::sync::broadcast::Receiver<GameChange> {
        let followers = self.changes.subscribe();
        self.listener
            .get_or_init(|| notify::start(self.config.clone(), &self.schema, self.changes.clone()));
        followers
    }
}
