//! Long polling: `getUpdates` in a loop. A batch is handled completely (chats in parallel,
//! each chat's updates in order) before the next call confirms it with its offset.

use std::collections::BTreeMap;
use std::time::Duration;

use backon::{BackoffBuilder, ExponentialBuilder};
use teloxide::ApiError;
use teloxide::RequestError;
use teloxide::payloads::GetUpdatesSetters;
use teloxide::prelude::*;
use teloxide::types::{AllowedUpdate, Update};
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;

use crate::TelegramError;
use crate::handler::{Handler, chat_of};

/// The updates the bot asks for.
pub(crate) const ALLOWED: [AllowedUpdate; 2] =
    [AllowedUpdate::Message, AllowedUpdate::CallbackQuery];

/// The longest wait of one `getUpdates`: teloxide's HTTP client gives up after 17 s.
const LONGEST_POLL: Duration = Duration::from_secs(15);

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
    let mut offset: Option<i32> = None;
    let mut delays = ExponentialBuilder::default()
        .with_max_delay(Duration::from_secs(30))
        .without_max_times()
        .build();
    tracing::info!("receiving Telegram updates by long polling");
    while !shutdown.is_cancelled() {
        let mut request = bot
            .get_updates()
            .timeout(timeout_secs)
            .allowed_updates(ALLOWED);
        if let Some(offset) = offset {
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
                if let Some(next) = handle_batch(&handler, updates, &shutdown).await {
                    offset = Some(next);
                }
            }
            Err(RequestError::Api(ApiError::InvalidToken)) => {
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
    // Confirm what was handled, so that a restart does not hand it over again (it would
    // change nothing, thanks to the idempotency keys, but costs a round of answers).
    if let Some(offset) = offset {
        let confirm = bot
            .get_updates()
            .offset(offset)
            .limit(1)
            .timeout(0)
            .allowed_updates(ALLOWED);
        if let Err(error) = confirm.await {
            tracing::debug!(%error, "cannot confirm the last updates; they will be seen again");
        }
    }
    Ok(())
}

/// Handles a batch; the offset that confirms what was handled (all of it unless `shutdown`
/// came first: then up to the first update not handled).
async fn handle_batch(
    handler: &Handler,
    updates: Vec<Update>,
    shutdown: &CancellationToken,
) -> Option<i32> {
    let ids: Vec<u32> = updates.iter().map(|u| u.id.0).collect();
    let mut by_chat: BTreeMap<i64, Vec<Update>> = BTreeMap::new();
    for update in updates {
        by_chat.entry(chat_of(&update)).or_default().push(update);
    }
    let mut chats = JoinSet::new();
    for (_, updates) in by_chat {
        let handler = handler.clone();
        let shutdown = shutdown.clone();
        chats.spawn(async move {
            let mut unhandled = None;
            for update in &updates {
                if shutdown.is_cancelled() {
                    unhandled = Some(update.id.0);
                    break;
                }
                handler.handle(update).await;
            }
            unhandled
        });
    }
    let mut first_unhandled: Option<u32> = None;
    while let Some(joined) = chats.join_next().await {
        let unhandled = joined.unwrap_or_else(|error| {
            tracing::error!(%error, "handling updates panicked");
            None
        });
        first_unhandled = match (first_unhandled, unhandled) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
    }
    let next = match first_unhandled {
        Some(id) => id,
        None => ids.iter().max()?.checked_add(1)?,
    };
    i32::try_from(next).ok()
}
