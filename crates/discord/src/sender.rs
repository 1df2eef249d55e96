//! Delivering the service's outbox to Discord: channel posts, private messages through a DM
//! channel, and edits of earlier posts (a board edited in place, stale buttons disabled).
//!
//! A user who does not accept DMs from the bot makes Discord answer 50007; that is reported
//! as undeliverable, and the service tells the game's channel how to fix it.

use std::collections::HashMap;
use std::fmt;
use std::num::NonZeroU64;
use std::str::FromStr;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use jieqi_service::{Destination, Message, OutboxEntry, Platform, SendError, Sender};
use serenity::all::{ActionRowComponent, Button as DiscordButton, ButtonKind, ChannelId};
use serenity::all::{CreateActionRow, CreateButton, EditMessage, MessageId, UserId};
use serenity::http::Http;

use crate::error::{UNKNOWN_MESSAGE, describe, send_error, status_and_code};
use crate::layout::Post;

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
    http: Arc<Http>,
    /// DM channels already opened, by user (Discord returns the same channel every time).
    dm_channels: Mutex<HashMap<UserId, ChannelId>>,
}

impl fmt::Debug for DiscordSender {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DiscordSender").finish_non_exhaustive()
    }
}

impl DiscordSender {
    pub(crate) fn new(http: Arc<Http>) -> DiscordSender {
        DiscordSender {
            http,
            dm_channels: Mutex::new(HashMap::new()),
        }
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
        let channel = user
            .create_dm_channel(&*self.http)
            .await
            .map_err(|e| send_error(&e))?
            .id;
        if let Ok(mut known) = self.dm_channels.lock() {
            known.insert(user, channel);
        }
        Ok(channel)
    }

    fn known_dm(&self, user: UserId) -> Option<ChannelId> {
        self.dm_channels.lock().ok()?.get(&user).copied()
    }

    /// Posts a message now (also used for answers that name a chat instead of the requester).
    pub(crate) async fn post(&self, message: &Message) -> Result<PostRef, SendError> {
        let channel = self.channel(message).await?;
        let sent = channel
            .send_message(&*self.http, Post::of(message).create_message())
            .await
            .map_err(|e| send_error(&e))?;
        Ok(PostRef {
            channel,
            message: sent.id,
        })
    }

    async fn edit(&self, post: PostRef, message: &Message) -> Result<Option<String>, SendError> {
        let mut edit = Post::of(message).edit_message();
        if message.buttons.is_empty() {
            edit = self.disable_buttons(post, edit).await;
        }
        match post
            .channel
            .edit_message(&*self.http, post.message, edit)
            .await
        {
            Ok(_) => Ok(Some(post.to_string())),
            // Someone deleted the post: nothing is left to edit, and a fresh post would repeat
            // an old board. Later edits become new posts.
            Err(e) if status_and_code(&e).is_some_and(|(_, code)| code == UNKNOWN_MESSAGE) => {
                tracing::info!(%post, "the post to edit was deleted");
                Ok(None)
            }
            Err(e) => Err(send_error(&e)),
        }
    }

    /// Stale buttons stay visible but disabled: the earlier post's buttons, greyed out. If the
    /// post cannot be read, they are removed instead.
    async fn disable_buttons(&self, post: PostRef, edit: EditMessage) -> EditMessage {
        let earlier = match post.channel.message(&*self.http, post.message).await {
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

#[async_trait]
impl Sender for DiscordSender {
    async fn send(&self, entry: &OutboxEntry) -> Result<Option<String>, SendError> {
        let message = &entry.message;
        if message.replaces.is_some()
            && let Some(reference) = &entry.replaces_ref
        {
            return self.edit(reference.parse()?, message).await;
        }
        // A new post, or an edit whose earlier post never got through: post it anew.
        let post = self.post(message).await?;
        Ok(Some(post.to_string()))
    }
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
