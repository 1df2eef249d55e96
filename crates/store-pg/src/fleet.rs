//! The processes sharing one database, by the record codec they write.
//!
//! A process of this release names its connections `jieqi-bot codec <n>`, `<n>` the record
//! codec's schema ([`jieqi_store::codec::SCHEMA_VERSION`]); releases before this one named
//! them `jieqi-bot`. A process that would migrate or write records some connected process
//! cannot read (an older release: an older codec, or the unnumbered name) waits before it
//! touches the schema, until those processes are gone. So starting a new release beside the
//! old one never has the old one refuse its own games ("the store has schema version 6,
//! newer than this bot's 4"): the new process takes over once the last old one has stopped.
//! `deploy/SCALING.md`, "Upgrading", gives the procedure.
//!
//! The names are seen in `pg_stat_activity` for the whole database, not per schema: an
//! older bot in another schema of the same database holds this one back too (the safe side).
//! A fresh schema (no tables yet) has nothing an older process could read, and does not
//! wait.

use std::time::{Duration, Instant};

use jieqi_store::StoreError;
use jieqi_store::codec::SCHEMA_VERSION;
use tokio_postgres::Client;

use crate::backend;

/// How often a waiting process looks again.
const POLL: Duration = Duration::from_secs(2);
/// How often it says, in the log, that it is still waiting.
const SAY_AGAIN: Duration = Duration::from_secs(30);

/// The name this process gives its connections (unless `DATABASE_URL` names them).
pub(crate) fn application_name() -> String {
    format!("jieqi-bot codec {SCHEMA_VERSION}")
}

/// How many connections of processes of an older release are open on this database.
async fn older_connections(client: &Client) -> Result<i64, StoreError> {
    client
        .query_one(
            "SELECT count(*) FROM pg_stat_activity
             WHERE datname = current_database() AND pid <> pg_backend_pid()
               AND (application_name = 'jieqi-bot'
                    OR (application_name ~ '^jieqi-bot codec [0-9]{1,3}$'
                        AND substring(application_name FROM '[0-9]+$')::int < $1))",
            &[&i32::from(SCHEMA_VERSION)],
        )
        .await
        .map(|row| row.get(0))
        .map_err(backend)
}

/// Waits until no process of an older release is connected, unless the current schema is
/// fresh. Returns how long it waited.
pub(crate) async fn wait_for_older_processes(client: &Client) -> Result<Duration, StoreError> {
    let started = Instant::now();
    let has_tables: bool = client
        .query_one("SELECT to_regclass('schema_migrations') IS NOT NULL", &[])
        .await
        .map_err(backend)?
        .get(0);
    if !has_tables {
        return Ok(Duration::ZERO);
    }
    let mut said: Option<Instant> = None;
    loop {
        let older = older_connections(client).await?;
        if older == 0 {
            if said.is_some() {
                tracing::info!(
                    waited = ?started.elapsed(),
                    "the processes of the older release are gone; taking over"
                );
            }
            return Ok(started.elapsed());
        }
        if said.is_none_or(|at| at.elapsed() >= SAY_AGAIN) {
            tracing::warn!(
                older,
                codec = SCHEMA_VERSION,
                "processes of an older release are connected to this database (as many \
                 connections as said); this one waits for them to stop before it upgrades or \
                 writes anything they could not read (deploy/SCALING.md, Upgrading)"
            );
            said = Some(Instant::now());
        }
        tokio::time::sleep(POLL).await;
    }
}
