//! The service's [`Sender`] for Telegram: what the delivery loop hands over from the outbox,
//! posted or edited through the [`Poster`], an old board's buttons taken away, and the replies
//! held for a private message released once it is delivered.

use async_trait::async_trait;
use jieqi_service::{ButtonAction, Destination, OutboxEntry, SendError, Sender};

use crate::address::Address;
use crate::outbound::{Failure, PostRef, Poster};
use crate::replies::release_held;

/// The service's [`Sender`] for Telegram.
#[derive(Debug, Clone)]
pub struct TelegramSender {
    pub(crate) poster: Poster,
}

impl TelegramSender {
    /// An old board loses its buttons: its keyboard is replaced by one of its links alone (a
    /// link still works on an old board; Telegram has no greyed-out buttons). A board that
    /// can no longer be edited is left as it is.
    async fn take_away_buttons(&self, entry: &OutboxEntry) -> Result<Option<String>, SendError> {
        let Some(earlier) = entry.replaces_ref.as_deref().and_then(PostRef::decode) else {
            return Ok(None);
        };
        let mut message = entry.message.clone();
        message
            .buttons
            .retain(|b| matches!(b.action, ButtonAction::Link(_) | ButtonAction::App(_)));
        match self.poster.edit(earlier, &message).await {
            Ok(post) => Ok(Some(post.encode())),
            Err(Failure::Gone | Failure::Migrated(_)) => Ok(None),
            Err(Failure::Send(error)) => Err(error),
        }
    }
}

/// Where an outbox message goes on Telegram.
fn address_of(to: &Destination) -> Result<Address, SendError> {
    match to {
        Destination::Chat(chat) | Destination::StaleButtons(chat) => Address::from_chat_id(chat),
        Destination::Private(user) => Address::private(user),
        Destination::ReplyToRequester { .. } | Destination::DeferredReply(_) => {
            return Err(SendError::Undeliverable(
                "a reply to a request cannot wait in the outbox".to_owned(),
            ));
        }
    }
    .map_err(|e| SendError::Undeliverable(e.to_string()))
}

#[async_trait]
impl Sender for TelegramSender {
    async fn ready(&self, to: &Destination) {
        if let Ok(address) = address_of(to) {
            self.poster.client.pacer.reserve(address.chat).await;
        }
    }

    /// Room to spare in the chat (see `Pacer::spare`): an old board's buttons are taken away
    /// only when the group's boards will not need the post.
    async fn spare(&self, to: &Destination) -> bool {
        match address_of(to) {
            Ok(address) => self.poster.client.pacer.spare(address.chat).await,
            Err(_) => true,
        }
    }

    async fn send(&self, entry: &OutboxEntry) -> Result<Option<String>, SendError> {
        let message = &entry.message;
        let address = address_of(&message.to)?;
        if let Destination::StaleButtons(_) = &message.to {
            return self.take_away_buttons(entry).await;
        }
        if message.replaces.is_some()
            && let Some(earlier) = entry.replaces_ref.as_deref().and_then(PostRef::decode)
        {
            match self.poster.edit(earlier, message).await {
                Ok(post) => return Ok(Some(post.encode())),
                Err(Failure::Gone) => {}
                Err(Failure::Migrated(chat)) => {
                    let moved = Address { chat, thread: None };
                    return Ok(self
                        .poster
                        .post(moved, message, None)
                        .await?
                        .map(|p| p.encode()));
                }
                Err(Failure::Send(error)) => return Err(error),
            }
        }
        let posted = self.poster.post(address, message, None).await;
        if let Destination::Private(user) = &message.to
            && !matches!(posted, Err(SendError::Retry { .. }))
        {
            release_held(&self.poster, user, message.kind, posted.is_ok()).await;
        }
        Ok(posted?.map(|p| p.encode()))
    }
}
