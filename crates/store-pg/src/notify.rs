//! Game announcements across processes: every commit that writes a game also sends
//! `NOTIFY` on the schema's channel (in the same transaction, so only committed revisions are
//! announced, and in commit order), and one connection per process `LISTEN`s and hands what
//! it hears to the process's [`GameChanges`]. A web page's live stream in one process thereby
//! sees moves committed by any other.
//!
//! The listening connection is opened the first time someone follows games, and opened again
//! with a pause after it breaks; each time it (re)starts, followers are told
//! [`GameChange::MaybeMissed`], since whatever was committed while it was down was not heard.

use std::sync::Arc;
use std::time::Duration;

use futures_util::StreamExt;
use jieqi_store::ids::GameId;
use jieqi_store::{GameChange, GameChanges};
use tokio_postgres::{AsyncMessage, Config, NoTls};

/// The longest pause before the listening connection is tried again.
const MAX_PAUSE: Duration = Duration::from_secs(10);
/// How often the listening connection is checked.
const PING_EVERY: Duration = Duration::from_secs(5);

/// The channel of a schema's game announcements (schemas are letters, digits and `_`).
pub(crate) fn channel(schema: &str) -> String {
    format!("jieqi_games_{schema}")
}

/// What a game's announcement carries: `<game id> <revision>`.
pub(crate) fn payload(game: &GameId, revision: u64) -> String {
    format!("{game} {revision}")
}

/// Reads a payload back; `None` for anything this version did not write.
pub(crate) fn parse_payload(payload: &str) -> Option<GameChange> {
    let (id, revision) = payload.split_once(' ')?;
    Some(GameChange::Revised(
        id.parse().ok()?,
        revision.parse().ok()?,
    ))
}

/// Stops the listener when the last clone of the store is dropped.
#[derive(Debug)]
pub(crate) struct Listener(tokio::task::JoinHandle<()>);

impl Drop for Listener {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Starts listening for `schema`'s announcements, forwarding them to `changes`, on the
/// current tokio runtime; `None` outside one (nobody could follow games there anyway).
pub(crate) fn start(config: Config, schema: &str, changes: GameChanges) -> Option<Arc<Listener>> {
    let runtime = tokio::runtime::Handle::try_current().ok()?;
    let channel = channel(schema);
    Some(Arc::new(Listener(
        runtime.spawn(listen_forever(config, channel, changes)),
    )))
}

async fn listen_forever(config: Config, channel: String, changes: GameChanges) {
    let mut pause = Duration::from_millis(250);
    loop {
        match listen(&config, &channel, &changes).await {
            Ok(()) => pause = Duration::from_millis(250),
            Err(e) => {
                tracing::warn!("the connection that follows games broke: {e}");
            }
        }
        tokio::time::sleep(pause).await;
        pause = (pause * 2).min(MAX_PAUSE);
    }
}

/// One listening connection, until it breaks.
async fn listen(
    config: &Config,
    channel: &str,
    changes: &GameChanges,
) -> Result<(), tokio_postgres::Error> {
    let (client, mut connection) = config.connect(NoTls).await?;
    let (heard, mut hearing) = tokio::sync::mpsc::unbounded_channel();
    let driver = tokio::spawn(async move {
        let mut messages = futures_util::stream::poll_fn(move |cx| connection.poll_message(cx));
        while let Some(message) = messages.next().await {
            match message {
                Ok(AsyncMessage::Notification(n)) => {
                    if heard.send(n.payload().to_owned()).is_err() {
                        break;
                    }
                }
                Ok(_) => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    });
    client
        .batch_execute(&format!("LISTEN \"{channel}\""))
        .await?;
    // Listening from here on: whatever came before was not heard.
    changes.send(GameChange::MaybeMissed);
    let mut ping = tokio::time::interval(PING_EVERY);
    loop {
        tokio::select! {
            payload = hearing.recv() => match payload {
                Some(payload) => {
                    if let Some(news) = parse_payload(&payload) {
                        changes.send(news);
                    }
                }
                None => break,
            },
            _ = ping.tick() => {
                if tokio::time::timeout(PING_EVERY, client.simple_query("")).await.is_err() {
                    tracing::warn!("the connection that follows games stopped answering");
                    break;
                }
            }
        }
    }
    drop(client);
    match driver.await {
        Ok(result) => result,
        Err(_) => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_payload_reads_back_as_the_revision_it_announced() {
        let game: GameId = "g7k2".parse().expect("an id");
        assert_eq!(
            parse_payload(&payload(&game, 42)),
            Some(GameChange::Revised(game, 42))
        );
    }

    #[test]
    fn a_payload_that_is_not_ours_is_ignored() {
        for text in ["", "g7k2", "g7k2 x", "g7k2 -1", "no such id 3", " 3"] {
            assert_eq!(parse_payload(text), None, "{text:?}");
        }
    }
}
