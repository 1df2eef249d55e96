//! The service's [`Sender`] for Discord: what the delivery loop hands over from the outbox,
//! sent through the [`DiscordSender`] as a new post, an edit of an earlier one, an old board's
//! buttons greyed out, or a deferred interaction finished (`later.rs`).
//!
//! A channel whose limit for new messages is known to be used up is waited out before the
//! delivery loop chooses what to send there ([`Sender::ready`]), so that the boards queued
//! meanwhile go out as one post naming every move.

use std::time::Duration;

use async_trait::async_trait;
use jieqi_service::{Destination, OutboxEntry, SendError, Sender};
use serenity::http::{LightMethod, Request, Route};

use crate::pace::Counted;
use crate::sender::{DiscordSender, outbox_nonce};

/// The longest wait for a channel's limit before the delivery loop chooses what to send;
/// past it the lane is deferred (the delivery loop's own bound for a "retry after" in a round).
const LONGEST_READY_WAIT: Duration = Duration::from_secs(10);

#[async_trait]
impl Sender for DiscordSender {
    /// Waits while the channel's limit for new messages is used up (Discord said so in the
    /// headers of an earlier answer, or with a 429): the delivery loop chooses what to send
    /// after this, so the boards queued meanwhile go out as one post naming every move, not
    /// as a board already stale followed by the newest. A longer wait is left to the send,
    /// which reports it, so that the lane is deferred instead of holding its claim. (An edit
    /// waits here too, though edits have a bucket of their own: only where a message goes is
    /// known here, and a channel's edits are rare next to its posts.)
    async fn ready(&self, to: &Destination) {
        let Some(channel) = self.known_channel(to) else {
            return;
        };
        let new_message = Request::new(
            Route::ChannelMessages {
                channel_id: channel,
            },
            LightMethod::Post,
        );
        while let Some(wait) = self.rest().held_back(&new_message) {
            if wait > LONGEST_READY_WAIT {
                return;
            }
            tokio::time::sleep(wait).await;
        }
        // The channel's budget, shared with the bot's other processes.
        self.rest().pace().reserve(Counted::of(&new_message)).await;
    }

    /// Room to spare for greying out an old board's buttons: the channel's edits (a budget
    /// apart from its new messages, so a board never waits for it) keep one free after it.
    async fn spare(&self, to: &Destination) -> bool {
        let Some(channel) = self.known_channel(to) else {
            return true;
        };
        self.rest().pace().spare(Counted::Edit(channel.get())).await
    }

    async fn send(&self, entry: &OutboxEntry) -> Result<Option<String>, SendError> {
        let message = &entry.message;
        if let Destination::StaleButtons(_) = &message.to {
            return match entry.replaces_ref.as_deref() {
                Some(reference) => self.grey_out(reference.parse()?, message).await,
                None => Ok(None),
            };
        }
        if message.replaces.is_some()
            && let Some(reference) = &entry.replaces_ref
        {
            return self.edit(reference.parse()?, message).await;
        }
        // A new post, or an edit whose earlier post never got through: post it anew.
        let post = self.post(message, outbox_nonce(entry.id)).await?;
        Ok(Some(post.to_string()))
    }

    /// A deferred interaction, finished by whichever process delivers it (`later.rs`).
    async fn finish(
        &self,
        entry: &OutboxEntry,
        answer: &jieqi_service::Answer,
    ) -> Result<Option<String>, SendError> {
        crate::later::finish(self, entry, answer).await
    }
}
