//! The processes sharing one database, by the record codec they read.
//!
//! A process of this release names its connections `jieqi-bot codec <n>`, `<n>` the record
//! codec's schema ([`jieqi_store::codec::SCHEMA_VERSION`]); releases before it named them
//! `jieqi-bot`. A process of an older release counts as alive while one of its connections
//! was busy within a lease ([`LEASE_MS`], a minute): a live process's delivery loop and
//! timers query the store every second or so, while a crashed host's connections linger
//! idle until the server's keepalive gives up (hours), and must not hold an upgrade back
//! that long.
//!
//! The names are seen in `pg_stat_activity` for the whole database, not per schema: an
//! older bot in another schema of the same database holds the finalization back too (the
//! safe side).

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use jieqi_store::StoreError;
use jieqi_store::codec::SCHEMA_VERSION;
use tokio_postgres::Transaction;

use crate::backend;

/// The name this process gives its connections (unless `DATABASE_URL` names them).
pub(crate) fn application_name() -> String {
    format!("jieqi-bot codec {SCHEMA_VERSION}")
}

/// How long an older process's connections may all stay idle before it counts as gone
/// (milliseconds; tests shorten it, `testing::shorten_fleet_lease`).
pub(crate) static LEASE_MS: AtomicU64 = AtomicU64::new(60_000);

/// How many connections of processes of an older release, busy within the lease, are open on
/// this database.
pub(crate) async fn older_alive(tx: &Transaction<'_>) -> Result<i64, StoreError> {
    let lease_secs = Duration::from_millis(LEASE_MS.load(Ordering::Relaxed)).as_secs_f64();
    tx.query_one(
        "SELECT count(*) FROM pg_stat_activity
             WHERE datname = current_database() AND pid <> pg_backend_pid()
               AND (application_name = 'jieqi-bot'
                    OR (application_name ~ '^jieqi-bot codec [0-9]{1,3}$'
                        AND substring(application_name FROM '[0-9]+$')::int < $1))
               AND greatest(state_change, backend_start) > now() - make_interval(secs => $2)",
        &[&i32::from(SCHEMA_VERSION), &lease_secs],
    )
    .await
    .map(|row| row.get(0))
    .map_err(backend)
}
