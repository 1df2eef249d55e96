//! Stores for tests: each in a fresh schema of the server at `TEST_DATABASE_URL`, dropped
//! afterwards, so tests run side by side.
//!
//! Without a reachable server a test is skipped (it prints why), except in CI (`CI=true`),
//! where it fails: CI must never pass by skipping.

use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use tokio_postgres::NoTls;

use crate::PgStore;

/// The variable naming the test server, e.g. `postgres://postgres@127.0.0.1:5432/test`.
pub const TEST_DATABASE_URL: &str = "TEST_DATABASE_URL";

/// A store in a schema of its own, dropped with it. Dereferences to the [`PgStore`].
#[derive(Debug)]
pub struct TestStore {
    /// The store.
    pub store: PgStore,
    /// The server's address, with `application_name` set to the schema's name.
    url: String,
    schema: String,
}

impl TestStore {
    /// Another store on the same schema with a pool of its own: a second "process".
    pub async fn another(&self) -> PgStore {
        PgStore::connect_in_schema(&self.url, &self.schema)
            .await
            .expect("a second store on the test schema")
    }

    /// The server's address; its connections carry the schema's name as `application_name`
    /// (so a test can find and end them in `pg_stat_activity`).
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The schema's name.
    pub fn schema(&self) -> &str {
        &self.schema
    }

    /// Runs `sql` on a connection of its own, in the test's schema, outside the store (to
    /// break or inspect it). A single statement such as `VACUUM FULL` runs outside any
    /// transaction.
    pub async fn execute(&self, sql: &str) {
        let (client, driver) = self.side_connection().await;
        client.batch_execute(sql).await.expect("the test's SQL");
        drop(client);
        let _ = driver.await;
    }

    /// The first column of the first row of `sql` (a `bigint`), in the test's schema.
    pub async fn query_u64(&self, sql: &str) -> u64 {
        let (client, driver) = self.side_connection().await;
        let row = client.query_one(sql, &[]).await.expect("the test's query");
        let value: i64 = row.get(0);
        drop(client);
        let _ = driver.await;
        u64::try_from(value).unwrap_or(0)
    }

    /// The first column of every row of `sql` (a `bigint`), in the test's schema.
    pub async fn query_i64s(&self, sql: &str) -> Vec<i64> {
        let (client, driver) = self.side_connection().await;
        let rows = client.query(sql, &[]).await.expect("the test's query");
        drop(client);
        let _ = driver.await;
        rows.iter().map(|row| row.get(0)).collect()
    }

    /// Every row of `sql`, each column read as text (`NULL` as `None`), in the test's schema:
    /// the query casts what is not text already (`id::text`).
    pub async fn query_texts(&self, sql: &str) -> Vec<Vec<Option<String>>> {
        let (client, driver) = self.side_connection().await;
        let rows = client.query(sql, &[]).await.expect("the test's query");
        drop(client);
        let _ = driver.await;
        rows.iter()
            .map(|row| (0..row.len()).map(|i| row.get(i)).collect())
            .collect()
    }

    async fn side_connection(&self) -> (tokio_postgres::Client, tokio::task::JoinHandle<()>) {
        let (client, connection) = self
            .url
            .parse::<tokio_postgres::Config>()
            .expect("the test URL")
            .connect(NoTls)
            .await
            .expect("a connection to the test server");
        let driver = tokio::spawn(async move {
            let _ = connection.await;
        });
        client
            .batch_execute(&format!("SET search_path TO \"{}\"", self.schema))
            .await
            .expect("the test's schema");
        (client, driver)
    }
}

impl std::ops::Deref for TestStore {
    type Target = PgStore;
    fn deref(&self) -> &PgStore {
        &self.store
    }
}

impl Drop for TestStore {
    fn drop(&mut self) {
        // Drop runs inside the test's runtime, which must not be blocked on: clean up on a
        // thread with a runtime of its own. The store's connections are ended first (the
        // blocked runtime cannot close them, and an open transaction would hold the schema).
        // Failing to clean up fails no test.
        let schema = &self.schema;
        clean_up(
            self.url.clone(),
            format!(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
                 WHERE application_name = '{schema}' AND pid <> pg_backend_pid(); \
                 SET lock_timeout = '5s'; DROP SCHEMA IF EXISTS \"{schema}\" CASCADE"
            ),
        );
    }
}

/// A store in a fresh schema of the `TEST_DATABASE_URL` server; `None` (the test should
/// return) if there is none, unless in CI, where that panics.
pub async fn test_store() -> Option<TestStore> {
    static COUNTER: AtomicU32 = AtomicU32::new(0);
    let in_ci = std::env::var("CI").is_ok_and(|v| v == "true");
    let Ok(base) = std::env::var(TEST_DATABASE_URL) else {
        assert!(
            !in_ci,
            "{TEST_DATABASE_URL} is not set: CI must run the PostgreSQL tests (start the \
             server and set it, e.g. postgres://postgres@127.0.0.1:5432/test)"
        );
        eprintln!("skipping: no PostgreSQL at {TEST_DATABASE_URL} (it is not set)");
        return None;
    };
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let schema = format!(
        "test_{}_{}_{nanos}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    );
    let url = with_application_name(&base, &schema);
    match PgStore::connect_in_schema(&url, &schema).await {
        Ok(store) => Some(TestStore { store, url, schema }),
        Err(e) => {
            assert!(
                !in_ci,
                "no PostgreSQL at {TEST_DATABASE_URL} in CI, where the PostgreSQL tests must \
                 run: {e}"
            );
            eprintln!("skipping: no PostgreSQL at {TEST_DATABASE_URL} ({e})");
            None
        }
    }
}

/// Shortens how long a process of an older release may stay idle before it counts as gone
/// (a minute in service), for this test process.
pub fn shorten_fleet_lease(lease: std::time::Duration) {
    crate::processes::LEASE_MS.store(
        u64::try_from(lease.as_millis()).unwrap_or(u64::MAX),
        std::sync::atomic::Ordering::Relaxed,
    );
}

/// Sets up `database` as the previous release (f61d864) leaves it: its three migrations and
/// nothing else, for tests of rolling upgrades.
pub async fn previous_release_schema(database: &TestDatabase) {
    let config: tokio_postgres::Config = database.url().parse().expect("the test URL");
    let (client, connection) = config.connect(NoTls).await.expect("the test database");
    let driver = tokio::spawn(connection);
    client
        .batch_execute(concat!(
            "CREATE TABLE schema_migrations (version integer PRIMARY KEY, \
             applied_at timestamptz NOT NULL DEFAULT now());",
            include_str!("migrations/0001_initial.sql"),
            include_str!("migrations/0002_pipelined_commit.sql"),
            include_str!("migrations/0003_vacuum_churn.sql"),
            "INSERT INTO schema_migrations (version) VALUES (1), (2), (3);"
        ))
        .await
        .expect("the previous release's schema");
    drop(client);
    let _ = driver.await;
}

/// `url` with `application_name` set (URL or `key=value` form).
fn with_application_name(url: &str, name: &str) -> String {
    if url.contains("://") {
        let separator = if url.contains('?') { '&' } else { '?' };
        format!("{url}{separator}application_name={name}")
    } else {
        format!("{url} application_name={name}")
    }
}

/// A database of its own on the `TEST_DATABASE_URL` server, for what the server sees
/// database-wide (the releases of the processes connected, `processes.rs`), so that it touches no
/// other test; dropped with it, connections and all.
#[derive(Debug)]
pub struct TestDatabase {
    url: String,
    base: String,
    name: String,
}

impl TestDatabase {
    /// The database's address, in the form `TEST_DATABASE_URL` was written in, without an
    /// `application_name`: a process connecting with it names itself.
    pub fn url(&self) -> &str {
        &self.url
    }
}

/// `url` (a `postgres://` URL or `key=value` pairs) naming database `name` instead.
fn naming_database(url: &str, name: &str) -> String {
    if !url.contains("://") {
        return format!("{url} dbname={name}");
    }
    let (address, query) = match url.split_once('?') {
        Some((address, query)) => (address, Some(query)),
        None => (url, None),
    };
    let (scheme, rest) = address.split_once("://").unwrap_or(("postgres", address));
    let server = rest.split_once('/').map_or(rest, |(server, _)| server);
    match query {
        Some(query) => format!("{scheme}://{server}/{name}?{query}"),
        None => format!("{scheme}://{server}/{name}"),
    }
}

/// A fresh database of the `TEST_DATABASE_URL` server; `None` (the test should return)
/// without a server, unless in CI, where that panics.
pub async fn test_database() -> Option<TestDatabase> {
    static COUNTER: AtomicU32 = AtomicU32::new(0);
    let in_ci = std::env::var("CI").is_ok_and(|v| v == "true");
    let Ok(base) = std::env::var(TEST_DATABASE_URL) else {
        assert!(
            !in_ci,
            "{TEST_DATABASE_URL} is not set: CI must run the PostgreSQL tests"
        );
        eprintln!("skipping: no PostgreSQL at {TEST_DATABASE_URL} (it is not set)");
        return None;
    };
    let name = format!(
        "test_db_{}_{}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    );
    let created = async {
        let config = base.parse::<tokio_postgres::Config>()?;
        let (client, connection) = config.connect(NoTls).await?;
        let driver = tokio::spawn(connection);
        let created = client
            .batch_execute(&format!("CREATE DATABASE \"{name}\""))
            .await;
        drop(client);
        let _ = driver.await;
        created
    };
    if let Err(e) = created.await {
        assert!(
            !in_ci,
            "cannot create a test database at {TEST_DATABASE_URL}: {e}"
        );
        eprintln!("skipping: cannot create a database at {TEST_DATABASE_URL} ({e})");
        return None;
    }
    Some(TestDatabase {
        url: naming_database(&base, &name),
        base,
        name,
    })
}

impl Drop for TestDatabase {
    fn drop(&mut self) {
        // As for a test's schema: on a thread with a runtime of its own.
        clean_up(
            self.base.clone(),
            format!("DROP DATABASE IF EXISTS \"{}\" WITH (FORCE)", self.name),
        );
    }
}

/// Runs `sql` on the server of `url` from a thread with a runtime of its own, and waits for
/// it: a `Drop` runs inside the test's runtime, which must not be blocked on. Failing to clean
/// up fails no test.
fn clean_up(url: String, sql: String) {
    let cleanup = std::thread::spawn(move || {
        let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
        else {
            return;
        };
        runtime.block_on(async move {
            let Ok(config) = url.parse::<tokio_postgres::Config>() else {
                return;
            };
            let Ok((client, connection)) = config.connect(NoTls).await else {
                return;
            };
            let driver = tokio::spawn(connection);
            let _ = client.batch_execute(&sql).await;
            drop(client);
            let _ = driver.await;
        });
    });
    let _ = cleanup.join();
}

#[cfg(test)]
mod tests {
    use super::naming_database;

    #[test]
    fn a_url_names_another_database_keeping_its_server_and_options() {
        assert_eq!(
            naming_database("postgres://postgres@127.0.0.1:5432/test", "x"),
            "postgres://postgres@127.0.0.1:5432/x"
        );
        assert_eq!(
            naming_database("postgresql://u:p@h/test?sslmode=disable", "x"),
            "postgresql://u:p@h/x?sslmode=disable"
        );
        assert_eq!(naming_database("postgres://h", "x"), "postgres://h/x");
        assert_eq!(
            naming_database("host=h user=u dbname=test", "x"),
            "host=h user=u dbname=test dbname=x"
        );
    }
}
