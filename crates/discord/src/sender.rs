//! Delivering the service's outbox to Discord: channel posts, private messages through a DM
//! channel, and edits of earlier posts (a board edited in place, stale buttons disabled).
//!
//! Every post carries a nonce derived from its outbox id, with `enforce_nonce`: a post tried
//! again after an ambiguous failure (a timeout, a 502 after Discord created the message) is
//! not doubled, Discord returns the message it made the first time. A 429's `retry_after`
//! (or the route's rate-limit headers) goes back to the delivery lane as
//! [`SendError::Retry`]'s `after`, so that only this chat waits, exactly that long. The
//! service's `Sender` on top of these posts is `outbox.rs`.
//!
//! A user who does not accept DMs from the bot makes Discord answer 50007; that is reported
//! as undeliverable, and the service tells the game's channel how to fix it.

use std::collections::HashMap;
use std::fmt;
use std::num::NonZeroU64;
use std::str::FromStr;
use std::sync::{Arc, Mutex};

use jieqi_service::{Destination, Message, OutboxId, Platform, SendError};
use serenity::all::{ActionRowComponent, Button as DiscordButton, ButtonKind, ChannelId};
use serenity::all::{CreateActionRow, CreateButton, EditMessage, MessageId, Nonce, UserId};
use serenity::http::{LightMethod, Request, Route};

use crate::error::{UNKNOWN_MESSAGE, describe};
use crate::layout::Post;
use crate::rest::{Rest, with_body};

/// The nonce of an outbox entry's post: its id in decimal (Discord allows 25 characters).
pub(crate) fn outbox_nonce(id: OutboxId) -> String {
    id.0.to_string()
}

/// What Discord answers when it creates a message or a DM channel: only the id matters.
#[derive(serde::Deserialize)]
struct Created<Id> {
    id: Id,
}

/// Where a delivered post lives: what [`jieqi_service::Service::delivered`] keeps so that
/// later edits find it. Written `channel/message`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PostRef {
    /// The channel (a guild channel or a DM channel).
    pub channel: ChannelId,
    /// The message.
    pub message: MessageId,
}

impl fmt::Display for PostRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.channel, self.message)
    }
}

impl FromStr for PostRef {
    type Err = SendError;

    fn from_str(s: &str) -> Result<PostRef, SendError> {
        let bad = || SendError::Undeliverable(format!("`{s}` is not a Discord message reference"));
        let (channel, message) = s.split_once('/').ok_or_else(bad)?;
        Ok(PostRef {
            channel: snowflake(channel).ok_or_else(bad)?.into(),
            message: snowflake(message).ok_or_else(bad)?.into(),
        })
    }
}

/// A Discord id; serenity's ids refuse zero.
fn snowflake(s: &str) -> Option<NonZeroU64> {
    s.trim().parse().ok()
}

/// Delivers outbox messages through Discord's HTTP API.
pub struct DiscordSender {
    rest: Arc<Rest>,
    /// DM channels already opened, by user (Discord returns the same channel every time).
    dm_channels: Mutex<HashMap<UserId, ChannelId>>,
}

impl fmt::Debug for DiscordSender {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DiscordSender").finish_non_exhaustive()
    }
}

impl DiscordSender {
    pub(crate) fn new(rest: Arc<Rest>) -> DiscordSender {
        DiscordSender {
            rest,
            dm_channels: Mutex::new(HashMap::new()),
        }
    }

    /// The calls to Discord, shared with the answers to interactions.
    pub(crate) fn rest(&self) -> &Rest {
        &self.rest
    }

    /// The channel a message goes to, opening a DM channel for a private one.
    async fn channel(&self, message: &Message) -> Result<ChannelId, SendError> {
        match &message.to {
            Destination::Chat(chat) if chat.platform == Platform::Discord => {
                snowflake(&chat.id).map(ChannelId::from).ok_or_else(|| {
                    SendError::Undeliverable(format!("{chat} is not a Discord channel"))
                })
            }
            Destination::Private(user) if user.platform == Platform::Discord => {
                let user = snowflake(&user.id).map(UserId::from).ok_or_else(|| {
                    SendError::Undeliverable(format!("{user} is not a Discord user"))
                })?;
                self.dm_channel(user).await
            }
            other => Err(SendError::Undeliverable(format!(
                "{other:?} is not a Discord destination"
            ))),
        }
    }

    async fn dm_channel(&self, user: UserId) -> Result<ChannelId, SendError> {
        if let Some(channel) = self.known_dm(user) {
            return Ok(channel);
        }
        let request = with_body(
            Request::new(Route::UserMeDmChannels, LightMethod::Post),
            &serde_json::json!({ "recipient_id": user }),
            Vec::new(),
        )
        .map_err(|e| e.send_error())?;
        let channel = self
            .rest
            .call::<Created<ChannelId>>(request)
            .await
            .map_err(|e| e.send_error())?
            .id;
        if let Ok(mut known) = self.dm_channels.lock() {
            known.insert(user, channel);
        }
        Ok(channel)
    }

    fn known_dm(&self, user: UserId) -> Option<ChannelId> {
        self.dm_channels.lock().ok()?.get(&user).copied()
    }

    /// The channel a message goes to, if it is known without asking Discord.
    pub(crate) fn known_channel(&self, to: &Destination) -> Option<ChannelId> {
        match to {
            Destination::Chat(chat) | Destination::StaleButtons(chat)
                if chat.platform == Platform::Discord =>
            {
                snowflake(&chat.id).map(ChannelId::from)
            }
            Destination::Private(user) if user.platform == Platform::Discord => {
                self.known_dm(snowflake(&user.id)?.into())
            }
            _ => None,
        }
    }

    /// Posts a message now (also used for answers that name a chat instead of the requester),
    /// with `nonce` enforced: Discord creates one message per nonce and channel.
    pub(crate) async fn post(
        &self,
        message: &Message,
        nonce: String,
    ) -> Result<PostRef, SendError> {
        let channel = self.channel(message).await?;
        let post = Post::of(message);
        let files = post.files();
        let builder = post
            .create_message()
            .nonce(Nonce::String(nonce))
            .enforce_nonce(true);
        let request = with_body(
            Request::new(
                Route::ChannelMessages {
                    channel_id: channel,
                },
                LightMethod::Post,
            ),
            &builder,
            files,
        )
        .map_err(|e| e.send_error())?;
        let sent: Created<MessageId> = self.rest.call(request).await.map_err(|e| e.send_error())?;
        Ok(PostRef {
            channel,
            message: sent.id,
        })
    }

    pub(crate) async fn edit(
        &self,
        post: PostRef,
        message: &Message,
    ) -> Result<Option<String>, SendError> {
        let layout = Post::of(message);
        let files = layout.files();
        // No text and no picture: only the buttons change (the board keeps the caption it went
        // out with, which may have named several moves).
        let mut edit = if message.text.trim().is_empty() && message.image.is_none() {
            layout.buttons_edit()
        } else {
            layout.edit_message()
        };
        if message.buttons.is_empty() {
            edit = self.disable_buttons(post, edit).await;
        }
        self.patch(post, &edit, files).await
    }

    /// Edits `post` as `edit` says.
    async fn patch(
        &self,
        post: PostRef,
        edit: &EditMessage,
        files: Vec<serenity::all::CreateAttachment>,
    ) -> Result<Option<String>, SendError> {
        let request = with_body(
            Request::new(
                Route::ChannelMessage {
                    channel_id: post.channel,
                    message_id: post.message,
                },
                LightMethod::Patch,
            ),
            edit,
            files,
        )
        .map_err(|e| e.send_error())?;
        match self.rest.call_unit(request).await {
            Ok(()) => Ok(Some(post.to_string())),
            // Someone deleted the post: nothing is left to edit, and a fresh post would repeat
            // an old board. Later edits become new posts.
            Err(e)
                if e.status_and_code()
                    .is_some_and(|(_, code)| code == UNKNOWN_MESSAGE) =>
            {
                tracing::info!(%post, "the post to edit was deleted");
                Ok(None)
            }
            Err(e) => Err(e.send_error()),
        }
    }

    /// An old board's buttons greyed out (`message.buttons`, as the board had them; links
    /// stay usable), its text and picture left as they are: one edit.
    pub(crate) async fn grey_out(
        &self,
        post: PostRef,
        message: &Message,
    ) -> Result<Option<String>, SendError> {
        let edit = EditMessage::new().components(crate::layout::rows(&message.buttons, true));
        self.patch(post, &edit, Vec::new()).await
    }

    /// Stale buttons stay visible but disabled: the earlier post's buttons, greyed out. If the
    /// post cannot be read, they are removed instead.
    async fn disable_buttons(&self, post: PostRef, edit: EditMessage) -> EditMessage {
        let earlier = match post.channel.message(self.rest.http(), post.message).await {
            Ok(earlier) => earlier,
            Err(e) => {
                tracing::debug!(%post, error = %describe(&e), "cannot read a post's buttons");
                return edit;
            }
        };
        let rows = earlier
            .components
            .iter()
            .map(|row| {
                CreateActionRow::Buttons(
                    row.components
                        .iter()
                        .filter_map(|component| match component {
                            ActionRowComponent::Button(button) => Some(disabled(button)),
                            _ => None,
                        })
                        .collect(),
                )
            })
            .filter(|row| !matches!(row, CreateActionRow::Buttons(b) if b.is_empty()))
            .collect();
        edit.components(rows)
    }
}

fn disabled(button: &DiscordButton) -> CreateButton {
    let builder = match &button.data {
        ButtonKind::NonLink { custom_id, style } => CreateButton::new(custom_id).style(*style),
        ButtonKind::Link { url } => CreateButton::new_link(url),
        ButtonKind::Premium { sku_id } => CreateButton::new_premium(*sku_id),
    };
    let builder = match &button.label {
        Some(label) => builder.label(label),
        None => builder,
    };
    builder.disabled(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn post_refs_round_trip_and_refuse_garbage() {
        let post = PostRef {
            channel: ChannelId::new(12),
            message: MessageId::new(34),
        };
        assert_eq!(post.to_string(), "12/34");
        assert_eq!("12/34".parse::<PostRef>(), Ok(post));
        for bad in ["", "12", "0/34", "12/x", "/"] {
            assert!(bad.parse::<PostRef>().is_err(), "{bad}");
        }
    }
}
