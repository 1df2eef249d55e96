//! Answers to the requester: a reply to their command message, or, for a button press, the
//! answer to the callback query, which only the presser sees (an alert for a refusal, a short
//! notice otherwise). Every callback query is answered exactly once, so the button stops
//! spinning even when there is nothing to say.

use std::time::Duration;

use backon::{ExponentialBuilder, Retryable};
use jieqi_service::{Answer, Destination, Message, MessageKind, SendError, UserId};
use teloxide::payloads::AnswerCallbackQuerySetters;
use teloxide::prelude::*;
use teloxide::types::CallbackQueryId;

use crate::address::Address;
use crate::inbound::Origin;
use crate::outbound::Poster;
use crate::text::{ALERT_LIMIT, truncate};

/// Delivers `answer`'s replies for a request that came from `origin`.
pub(crate) async fn deliver(poster: &Poster, origin: &Origin, answer: Answer) {
    let (for_requester, elsewhere): (Vec<Message>, Vec<Message>) = answer
        .replies
        .into_iter()
        .partition(|m| matches!(m.to, Destination::ReplyToRequester { .. }));
    match origin {
        Origin::Command { address, message } => {
            for reply in &for_requester {
                send_with_retries(poster, *address, reply, Some(*message)).await;
            }
        }
        Origin::Button { query } => {
            let alert = for_requester.iter().any(|m| m.kind == MessageKind::Refusal);
            let text = for_requester
                .iter()
                .map(|m| m.text.trim())
                .filter(|t| !t.is_empty())
                .collect::<Vec<_>>()
                .join("\n");
            answer_button(poster, query, &text, alert).await;
        }
    }
    for message in &elsewhere {
        let address = match &message.to {
            Destination::Chat(chat) => Address::from_chat_id(chat),
            Destination::Private(user) => Address::private(user),
            Destination::ReplyToRequester { .. }
            | Destination::DeferredReply(_)
            | Destination::StaleButtons(_) => continue,
        };
        match address {
            Ok(address) => send_with_retries(poster, address, message, None).await,
            Err(error) => tracing::warn!(%error, "a reply names no Telegram chat"),
        }
    }
}

/// Answers a button press: `text` as an alert (or a brief notice), cut to Telegram's limit.
pub(crate) async fn answer_button(
    poster: &Poster,
    query: &CallbackQueryId,
    text: &str,
    alert: bool,
) {
    let bot = &poster.client.bot;
    let mut request = bot.answer_callback_query(query.clone());
    if !text.is_empty() {
        request = request.text(truncate(text, ALERT_LIMIT)).show_alert(alert);
    }
    let result = (|| async { request.send_ref().await })
        .retry(backoff())
        .when(|e| {
            matches!(
                e,
                teloxide::RequestError::RetryAfter(_) | teloxide::RequestError::Network(_)
            )
        })
        .adjust(|e, delay| {
            delay.map(|d| match e {
                teloxide::RequestError::RetryAfter(after) => after.duration().max(d),
                _ => d,
            })
        })
        .await;
    if let Err(error) = result {
        // A query older than 15 minutes or answered already: nothing left to do.
        tracing::warn!(%error, "cannot answer a button press");
    }
}

pub(crate) async fn send_with_retries(
    poster: &Poster,
    address: Address,
    message: &Message,
    reply_to: Option<teloxide::types::MessageId>,
) {
    let result = (|| async { poster.post(address, message, reply_to).await })
        .retry(backoff())
        .when(|e| matches!(e, SendError::Retry { .. }))
        .adjust(|e, delay| {
            delay.map(|d| match e {
                SendError::Retry {
                    after: Some(after), ..
                } => (*after).max(d),
                _ => d,
            })
        })
        .await;
    if let Err(error) = result {
        tracing::warn!(%error, chat = %address, "cannot deliver a reply");
    }
}

/// Replies are answered while the person waits: a few quick tries, then give up (the request
/// itself is done and stored; a repeat of it gets the same answer).
fn backoff() -> ExponentialBuilder {
    ExponentialBuilder::default()
        .with_min_delay(Duration::from_millis(200))
        .with_max_delay(Duration::from_secs(10))
        .with_max_times(4)
        .with_jitter()
}

/// After a private message of `kind` to `user` was delivered (`Ok`) or found undeliverable:
/// says or drops the replies held for it.
pub(crate) async fn release_held(
    poster: &Poster,
    user: &UserId,
    kind: MessageKind,
    delivered: bool,
) {
    if kind != MessageKind::Peek {
        return;
    }
    let Some(held) = poster.client.held.take(user) else {
        return;
    };
    if !delivered {
        // The service tells the chat that the player cannot be reached, and how to fix it.
        return;
    }
    for message in &held.messages {
        send_with_retries(poster, held.address, message, Some(held.reply_to)).await;
    }
}
