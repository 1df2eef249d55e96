//! Long polling: `getUpdates` in a loop. Each chat's updates are handled in order on a lane
//! of their own, so a chat whose handling is slow (its replies waiting out a 429 or a server
//! error) holds back only that chat: polling goes on and other chats' updates are handled
//! meanwhile. An offset confirms only what was handled: it never passes the oldest update
//! still in hand, and updates Telegram hands out again while they are in hand are skipped.

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use backon::{BackoffBuilder, ExponentialBuilder};
use teloxide::ApiError;
use teloxide::RequestError;
use teloxide::payloads::GetUpdatesSetters;
use teloxide::prelude::*;
use teloxide::types::{AllowedUpdate, Update};
use tokio::sync::{Notify, mpsc};
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;

use crate::TelegramError;
use crate::handler::{Handler, chat_of};

/// The updates the bot asks for.
pub(crate) const ALLOWED: [AllowedUpdate; 3] = [
    AllowedUpdate::Message,
    AllowedUpdate::EditedMessage,
    AllowedUpdate::CallbackQuery,
];

/// The longest wait of one `getUpdates`: teloxide's HTTP client gives up after 17 s.
const LONGEST_POLL: Duration = Duration::from_secs(15);

/// How long to wait before asking again when Telegram only handed out updates still in hand
/// (it answers such a call at once, so asking again at once would spin).
const IN_HAND_PAUSE: Duration = Duration::from_millis(300);
/// How long a stop waits for the updates in hand to finish, and then for the confirming
/// `getUpdates`: a stop never hangs on a stuck handler or a Telegram that does not answer.
/// What is left unconfirmed is handed over again to the next process, which has seen the
/// requests' keys and changes nothing.
const STOP_GRACE: Duration = Duration::from_secs(10);

/// Polls until `shutdown`, handling each update before confirming it.
pub(crate) async fn poll(
    handler: Handler,
    timeout: Duration,
    shutdown: CancellationToken,
) -> Result<(), TelegramError> {
    let bot = handler.poster.client.bot.clone();
    // With a webhook set, Telegram refuses getUpdates.
    if let Err(error) = bot.delete_webhook().await {
        tracing::warn!(%error, "cannot remove a webhook before polling");
    }
    let timeout_secs = u32::try_from(timeout.min(LONGEST_POLL).as_secs()).unwrap_or(0);
    let mut lanes = Lanes::new(handler.clone(), shutdown.clone());
    let mut delays = ExponentialBuilder::default()
        .with_max_delay(Duration::from_secs(30))
        .without_max_times()
        .build();
    tracing::info!("receiving Telegram updates by long polling");
    while !shutdown.is_cancelled() {
        lanes.close_idle();
        let mut request = bot
            .get_updates()
            .timeout(timeout_secs)
            .allowed_updates(ALLOWED);
        if let Some(offset) = lanes.offset() {
            request = request.offset(offset);
        }
        let updates = tokio::select! {
            () = shutdown.cancelled() => break,
            result = request.send() => result,
        };
        match updates {
            Ok(updates) => {
                delays = ExponentialBuilder::default()
                    .with_max_delay(Duration::from_secs(30))
                    .without_max_times()
                    .build();
                let fresh = lanes.dispatch(updates);
                if fresh == 0 && lanes.busy() {
                    // Only updates still in hand came back: wait for one of them to finish.
                    let finished = lanes.finished.clone();
                    tokio::select! {
                        () = shutdown.cancelled() => break,
                        () = finished.notified() => {}
                        () = tokio::time::sleep(IN_HAND_PAUSE) => {}
                    }
                }
            }
            Err(RequestError::Api(ApiError::InvalidToken)) => {
                lanes.finish().await;
                return Err(TelegramError::InvalidToken);
            }
            Err(error) => {
                if matches!(
                    error,
                    RequestError::Api(ApiError::TerminatedByOtherGetUpdates)
                ) {
                    tracing::error!(
                        "another process polls with this token: run only one bot per token"
                    );
                } else {
                    tracing::warn!(%error, "getUpdates failed; trying again");
                }
                let delay = match &error {
                    RequestError::RetryAfter(after) => after.duration(),
                    _ => delays.next().unwrap_or(Duration::from_secs(30)),
                };
                tokio::select! {
                    () = shutdown.cancelled() => break,
                    () = tokio::time::sleep(delay) => {}
                }
            }
        }
    }
    if tokio::time::timeout(STOP_GRACE, lanes.finish())
        .await
        .is_err()
    {
        tracing::warn!("updates still in hand at the stop are left unconfirmed");
    }
    let offset = lanes.offset();
    // Confirm what was handled, so that a restart does not hand it over again (it would
    // change nothing, thanks to the idempotency keys, but costs a round of answers).
    if let Some(offset) = offset {
        let confirm = bot
            .get_updates()
            .offset(offset)
            .limit(1)
            .timeout(0)
            .allowed_updates(ALLOWED);
        match tokio::time::timeout(STOP_GRACE, confirm.send()).await {
            Ok(Ok(_)) => {}
            Ok(Err(error)) => {
                tracing::debug!(%error, "cannot confirm the last updates; they will be seen again");
            }
            Err(_) => tracing::debug!("Telegram did not answer the confirmation in time"),
        }
    }
    Ok(())
}

/// Which updates are in hand and which are done, to know what an offset may confirm.
#[derive(Debug, Default)]
struct Ledger {
    /// Updates handed to a lane and not finished (or skipped at shutdown).
    in_hand: BTreeSet<u32>,
    /// Updates finished but not yet confirmable (an older one is still in hand).
    done: BTreeSet<u32>,
    /// The highest update id handed to a lane.
    highest: Option<u32>,
    /// Updates in hand per chat (a lane with none left is closed).
    per_chat: HashMap<i64, usize>,
}

impl Ledger {
    /// The offset that confirms everything handled: the oldest update in hand, or the one
    /// after the newest.
    fn offset(&self) -> Option<i32> {
        let next = match self.in_hand.first() {
            Some(oldest) => *oldest,
            None => self.highest?.checked_add(1)?,
        };
        i32::try_from(next).ok()
    }

    fn seen(&self, id: u32) -> bool {
        self.in_hand.contains(&id)
            || self.done.contains(&id)
            || self
                .offset()
                .is_some_and(|offset| i64::from(id) < i64::from(offset))
    }

    fn finished(&mut self, id: u32, chat: i64) {
        self.in_hand.remove(&id);
        self.done.insert(id);
        if let Some(count) = self.per_chat.get_mut(&chat) {
            *count = count.saturating_sub(1);
        }
        // What the offset confirms need not be remembered.
        let floor = self.in_hand.first().copied();
        self.done.retain(|d| floor.is_some_and(|f| *d > f));
    }
}

/// One task per chat with updates in hand, each handling its chat's updates in order.
struct Lanes {
    handler: Handler,
    shutdown: CancellationToken,
    ledger: Arc<Mutex<Ledger>>,
    senders: HashMap<i64, mpsc::UnboundedSender<Update>>,
    tasks: JoinSet<()>,
    /// Notified whenever an update is finished.
    finished: Arc<Notify>,
}

impl Lanes {
    fn new(handler: Handler, shutdown: CancellationToken) -> Lanes {
        Lanes {
            handler,
            shutdown,
            ledger: Arc::default(),
            senders: HashMap::new(),
            tasks: JoinSet::new(),
            finished: Arc::new(Notify::new()),
        }
    }

    fn ledger(&self) -> MutexGuard<'_, Ledger> {
        self.ledger.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn offset(&self) -> Option<i32> {
        self.ledger().offset()
    }

    fn busy(&self) -> bool {
        !self.ledger().in_hand.is_empty()
    }

    /// Hands each update not seen before to its chat's lane; how many were new.
    fn dispatch(&mut self, updates: Vec<Update>) -> usize {
        let mut fresh = 0;
        for update in updates {
            let id = update.id.0;
            let chat = chat_of(&update);
            {
                let mut ledger = self.ledger();
                if ledger.seen(id) {
                    continue;
                }
                ledger.in_hand.insert(id);
                ledger.highest = ledger.highest.max(Some(id));
                *ledger.per_chat.entry(chat).or_default() += 1;
            }
            fresh += 1;
            if !self.senders.contains_key(&chat) {
                let lane = self.open_lane(chat);
                self.senders.insert(chat, lane);
            }
            let Some(lane) = self.senders.get(&chat) else {
                continue;
            };
            if let Err(mpsc::error::SendError(update)) = lane.send(update) {
                // The lane's task is gone (it panicked): leave the update in hand, so it is
                // never confirmed unhandled; a restart gets it again.
                tracing::error!(update = update.id.0, chat, "a chat's lane is gone");
            }
        }
        fresh
    }

    /// Closes the lanes of chats with nothing in hand (their tasks end).
    fn close_idle(&mut self) {
        let mut ledger = self.ledger.lock().unwrap_or_else(|p| p.into_inner());
        ledger.per_chat.retain(|_, n| *n > 0);
        self.senders
            .retain(|chat, _| ledger.per_chat.contains_key(chat));
    }

    /// Lets every lane finish the update at hand (the rest are skipped once `shutdown` is
    /// cancelled, and stay unconfirmed).
    async fn finish(&mut self) {
        self.senders.clear();
        while let Some(joined) = self.tasks.join_next().await {
            if let Err(error) = joined {
                tracing::error!(%error, "handling updates panicked");
            }
        }
    }

    /// Starts the task that handles `chat`'s updates in order.
    fn open_lane(&mut self, chat: i64) -> mpsc::UnboundedSender<Update> {
        let (sender, mut receiver) = mpsc::unbounded_channel::<Update>();
        let handler = self.handler.clone();
        let shutdown = self.shutdown.clone();
        let ledger = self.ledger.clone();
        let finished = self.finished.clone();
        self.tasks.spawn(async move {
            while let Some(update) = receiver.recv().await {
                if shutdown.is_cancelled() {
                    // Left in hand: never confirmed, so Telegram hands it over again.
                    continue;
                }
                handler.handle(&update).await;
                ledger
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .finished(update.id.0, chat);
                finished.notify_waiters();
            }
        });
        sender
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_offset_never_passes_an_update_in_hand() {
        let mut ledger = Ledger::default();
        assert_eq!(ledger.offset(), None);
        for (id, chat) in [(5, 1), (6, 2), (7, 1)] {
            ledger.in_hand.insert(id);
            ledger.highest = ledger.highest.max(Some(id));
            *ledger.per_chat.entry(chat).or_default() += 1;
        }
        ledger.finished(6, 2);
        assert_eq!(ledger.offset(), Some(5), "5 is still in hand");
        assert!(ledger.seen(6) && ledger.seen(5) && !ledger.seen(8));
        ledger.finished(5, 1);
        assert_eq!(ledger.offset(), Some(7));
        ledger.finished(7, 1);
        assert_eq!(ledger.offset(), Some(8));
        assert!(ledger.seen(7), "confirmed by the offset");
        assert!(
            ledger.done.is_empty(),
            "nothing kept that the offset confirms"
        );
    }
}
