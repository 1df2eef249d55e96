//! Graceful shutdown as one explicit signal: SIGTERM (systemd, `docker stop`) or ctrl-c
//! cancels a [`CancellationToken`]. Every task watches the token: the adapters stop taking
//! new requests but finish the one at hand, delivery stops between two messages, and the
//! store is flushed last. A second signal stops the process at once; the store is written
//! so that even that loses nothing acknowledged.

use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

/// Exit status after a second signal (128 + SIGINT, as shells report it).
const FORCED_EXIT: i32 = 130;

/// Spawns the task that turns the first signal into `token.cancel()`.
pub fn on_signal(token: CancellationToken) -> JoinHandle<()> {
    tokio::spawn(async move {
        if let Err(error) = signal().await {
            // Without signal handling the process still stops on SIGTERM, only less gently.
            tracing::warn!(%error, "cannot listen for shutdown signals");
            return;
        }
        tracing::info!("shutdown requested: finishing the request at hand");
        token.cancel();
        if signal().await.is_ok() {
            tracing::warn!("second shutdown signal: stopping now");
            std::process::exit(FORCED_EXIT);
        }
    })
}

#[cfg(unix)]
async fn signal() -> std::io::Result<()> {
    use tokio::signal::unix::{SignalKind, signal};
    let mut terminate = signal(SignalKind::terminate())?;
    let mut interrupt = signal(SignalKind::interrupt())?;
    tokio::select! {
        _ = terminate.recv() => Ok(()),
        _ = interrupt.recv() => Ok(()),
    }
}

#[cfg(not(unix))]
async fn signal() -> std::io::Result<()> {
    tokio::signal::ctrl_c().await
}
