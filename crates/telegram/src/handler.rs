//! One update, start to finish: read it, let the service decide, deliver the replies. Both
//! ways of receiving (polling, webhook) call this and confirm an update to Telegram only after
//! it returns, so a crash makes Telegram deliver it again, and the service's idempotency key
//! check makes the second delivery change nothing.

use std::time::SystemTime;

use jieqi_service::Service;
use teloxide::types::{MaybeInaccessibleMessage, Update, UpdateKind};

use crate::inbound::{Reading, read_update};
use crate::outbound::Poster;
use crate::replies;

/// Handles updates for the service.
#[derive(Debug, Clone)]
pub(crate) struct Handler {
    pub poster: Poster,
    pub service: Service,
}

impl Handler {
    pub(crate) async fn handle(&self, update: &Update) {
        let client = &self.poster.client;
        let me = match client.me().await {
            Ok(me) => me,
            Err(error) => {
                // Unreachable in practice: `receive` learns who the bot is before the first update.
                tracing::error!(%error, "cannot tell which commands are mine; update skipped");
                return;
            }
        };
        match read_update(update, me, &client.people, SystemTime::now()) {
            Reading::Request(inbound) => {
                let origin = inbound.origin.clone();
                tracing::debug!(update = update.id.0, chat = %inbound.request.chat, "request");
                let answer = self.service.handle(inbound.request).await;
                replies::deliver(&self.poster, &origin, answer).await;
            }
            Reading::ForeignButton { query, text } => {
                replies::answer_button(&self.poster, &query, &text, true).await;
            }
            Reading::Ignore => {}
        }
    }
}

/// The chat an update belongs to: updates of one chat are handled in order.
pub(crate) fn chat_of(update: &Update) -> i64 {
    match &update.kind {
        UpdateKind::Message(message) => message.chat.id.0,
        UpdateKind::CallbackQuery(query) => match &query.message {
            Some(MaybeInaccessibleMessage::Regular(message)) => message.chat.id.0,
            Some(MaybeInaccessibleMessage::Inaccessible(message)) => message.chat.id.0,
            None => query.from.id.0.try_into().unwrap_or(i64::MAX),
        },
        _ => 0,
    }
}
