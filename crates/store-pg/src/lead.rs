//! Leadership: a session advisory lock on a connection of its own.
//!
//! The lock lives as long as the database session that took it, so a leader that dies (or
//! whose connection breaks) frees the role at once. A watcher task drives the connection and
//! pings it; when the connection ends or stops answering, it cancels [`Leadership::lost`] and
//! closes the connection, so the server lets the role go too.

use std::sync::{Arc, Weak};
use std::time::Duration;

use jieqi_store::{Leadership, StoreError};
use tokio_postgres::tls::NoTlsStream;
use tokio_postgres::{Client, Config, NoTls, Socket};
use tokio_util::sync::CancellationToken;

use crate::{backend, cannot_connect};

/// How often the leader's connection is checked.
const PING_EVERY: Duration = Duration::from_secs(2);
/// How long a check may take before the connection counts as broken.
const PING_TIMEOUT: Duration = Duration::from_secs(5);

/// The advisory-lock key of `role` in `schema` (FNV-1a: stable across builds and machines).
pub(crate) fn lock_key(schema: &str, role: &str) -> i64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in schema.bytes().chain([b':']).chain(role.bytes()) {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    i64::from_ne_bytes(hash.to_ne_bytes())
}

/// Tries to take `role`; `None` if another session holds it.
pub(crate) async fn lead(
    config: &Config,
    schema: &str,
    role: &str,
) -> Result<Option<Leadership>, StoreError> {
    let (client, connection) = config.connect(NoTls).await.map_err(cannot_connect)?;
    let client = Arc::new(client);
    let lost = CancellationToken::new();
    let watcher = tokio::spawn(watch(connection, Arc::downgrade(&client), lost.clone()));
    let taken: bool = client
        .query_one(
            "SELECT pg_try_advisory_lock($1)",
            &[&lock_key(schema, role)],
        )
        .await
        .map_err(backend)?
        .get(0);
    if !taken {
        drop(client);
        watcher.abort();
        return Ok(None);
    }
    tracing::info!(role, "took the role");
    Ok(Some(Leadership {
        lost,
        hold: Box::new(client),
    }))
}

/// Drives the leader's connection until it ends, breaks, stops answering, or the role is
/// given up (its client dropped); then cancels `lost`.
async fn watch(
    connection: tokio_postgres::Connection<Socket, NoTlsStream>,
    client: Weak<Client>,
    lost: CancellationToken,
) {
    let mut connection = std::pin::pin!(connection);
    loop {
        tokio::select! {
            ended = &mut connection => {
                if let Err(e) = ended {
                    tracing::warn!("the leader's database connection broke: {e}");
                }
                break;
            }
            alive = ping(&client) => {
                if !alive {
                    break;
                }
            }
        }
    }
    lost.cancel();
}

/// Waits a while, then checks the connection; false if it failed or the role was given up.
async fn ping(client: &Weak<Client>) -> bool {
    tokio::time::sleep(PING_EVERY).await;
    let Some(client) = client.upgrade() else {
        return false;
    };
    match tokio::time::timeout(PING_TIMEOUT, client.simple_query("")).await {
        Ok(Ok(_)) => true,
        Ok(Err(e)) => {
            tracing::warn!("the leader's database connection failed a check: {e}");
            false
        }
        Err(_) => {
            tracing::warn!("the leader's database connection stopped answering");
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::lock_key;

    #[test]
    fn lock_keys_are_stable_and_scoped_by_schema() {
        // Processes of different builds must agree on the key (FNV-1a of "schema:role").
        assert_eq!(
            lock_key("public", "telegram"),
            lock_key("public", "telegram")
        );
        assert_eq!(
            lock_key("", ""),
            i64::from_ne_bytes(0xaf63_b74c_8601_adad_u64.to_ne_bytes())
        );
        assert_ne!(
            lock_key("public", "telegram"),
            lock_key("other", "telegram")
        );
        assert_ne!(
            lock_key("public", "telegram"),
            lock_key("public", "discord")
        );
    }
}
