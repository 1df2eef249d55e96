//! Sending: the service's messages as Telegram posts (the service's `Sender` on top is
//! `sender.rs`; replies to a requester, `replies.rs`).
//!
//! A message with a picture is a `sendPhoto` whose caption is the text (a GIF, the replay of a
//! finished game, is a `sendAnimation`, which Telegram plays instead of showing a still); a
//! text too long for a caption follows the picture as its own message. Edits (`replaces`) edit the earlier post
//! in place: its caption, its picture, or its text, always with the new keyboard (an empty one
//! removes stale buttons); an edit with neither text nor picture changes only the keyboard
//! (`editMessageReplyMarkup`). The reference the service keeps for a post is
//! `<chat>:<message id>:<p|t>` (photo or text).

use std::sync::Arc;

use jieqi_service::{Message, SendError};
use teloxide::ApiError;
use teloxide::RequestError;
use teloxide::payloads::{
    EditMessageCaptionSetters, EditMessageMediaSetters, EditMessageReplyMarkupSetters,
    EditMessageTextSetters, SendAnimationSetters, SendMessageSetters, SendPhotoSetters,
};
use teloxide::prelude::*;
use teloxide::types::{
    ChatId as TgChatId, InputFile, InputMedia, InputMediaAnimation, InputMediaPhoto, MessageEntity,
    MessageId, ReplyParameters,
};

use crate::address::Address;
use crate::client::Client;
use crate::keyboard::keyboard;
use crate::text::{CAPTION_LIMIT, MESSAGE_LIMIT, chunks, mention_entities, units};

/// A post on Telegram, as the service remembers it for later edits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PostRef {
    pub chat: TgChatId,
    pub message: MessageId,
    pub photo: bool,
}

impl PostRef {
    pub(crate) fn encode(&self) -> String {
        format!(
            "{}:{}:{}",
            self.chat.0,
            self.message.0,
            if self.photo { 'p' } else { 't' }
        )
    }

    pub(crate) fn decode(s: &str) -> Option<PostRef> {
        let mut parts = s.split(':');
        let chat = parts.next()?.parse().ok()?;
        let message = parts.next()?.parse().ok()?;
        let photo = match parts.next()? {
            "p" => true,
            "t" => false,
            _ => return None,
        };
        parts.next().is_none().then_some(PostRef {
            chat: TgChatId(chat),
            message: MessageId(message),
            photo,
        })
    }
}

/// Why a post did not go out.
#[derive(Debug)]
pub(crate) enum Failure {
    /// For the delivery loop (or the reply retries).
    Send(SendError),
    /// The group became a supergroup with this id: post there.
    Migrated(TgChatId),
    /// The post to edit is gone (deleted, too old): post anew.
    Gone,
}

impl From<RequestError> for Failure {
    fn from(error: RequestError) -> Failure {
        match error {
            RequestError::MigrateToChatId(chat) => Failure::Migrated(chat),
            RequestError::RetryAfter(after) => Failure::Send(SendError::Retry {
                after: Some(after.duration()),
                reason: "Telegram asked to slow down (429)".to_owned(),
            }),
            RequestError::Api(
                ApiError::MessageToEditNotFound
                | ApiError::MessageCantBeEdited
                | ApiError::MessageIdInvalid,
            ) => Failure::Gone,
            RequestError::Api(api) => Failure::Send(classify_api(&api)),
            RequestError::Network(e) => Failure::Send(SendError::Retry {
                after: None,
                reason: format!("network: {e}"),
            }),
            other @ (RequestError::InvalidJson { .. } | RequestError::Io(_)) => {
                Failure::Send(SendError::Retry {
                    after: None,
                    reason: other.to_string(),
                })
            }
        }
    }
}

/// `Some` if `error` is passing (worth asking again), with Telegram's "retry after" if it said
/// one; `None` for a refusal.
pub(crate) fn passing(error: &RequestError) -> Option<Option<std::time::Duration>> {
    match error {
        RequestError::RetryAfter(after) => Some(Some(after.duration())),
        RequestError::Api(api) => match classify_api(api) {
            SendError::Retry { .. } => Some(None),
            SendError::Undeliverable(_) => None,
        },
        RequestError::MigrateToChatId(_) => None,
        RequestError::Network(_) | RequestError::InvalidJson { .. } | RequestError::Io(_) => {
            Some(None)
        }
    }
}

/// Refusals of the Bot API are final (a blocked bot, a private chat never started, a chat the
/// bot left, a malformed request); only an unrecognised answer, such as a server error, is
/// worth retrying.
fn classify_api(api: &ApiError) -> SendError {
    let description = match api {
        ApiError::Unknown(text) => text.clone(),
        known => known.to_string(),
    };
    let refusal = !matches!(api, ApiError::Unknown(_))
        || ["Forbidden", "Bad Request", "Unauthorized", "Not Found"]
            .iter()
            .any(|prefix| description.starts_with(prefix));
    if refusal {
        SendError::Undeliverable(description)
    } else {
        SendError::Retry {
            after: None,
            reason: description,
        }
    }
}

/// Posts and edits messages.
#[derive(Debug, Clone)]
pub(crate) struct Poster {
    pub client: Arc<Client>,
}

impl Poster {
    /// Posts `message` to `address` (answering `reply_to` if given). A group that became a
    /// supergroup is followed once.
    pub(crate) async fn post(
        &self,
        address: Address,
        message: &Message,
        reply_to: Option<MessageId>,
    ) -> Result<Option<PostRef>, SendError> {
        match self.post_once(address, message, reply_to).await {
            Err(Failure::Migrated(chat)) => {
                tracing::info!(
                    from = address.chat.0,
                    to = chat.0,
                    "a group became a supergroup"
                );
                let moved = Address { chat, thread: None };
                self.post_once(moved, message, None)
                    .await
                    .map_err(final_failure)
            }
            other => other.map_err(final_failure),
        }
    }

    async fn post_once(
        &self,
        address: Address,
        message: &Message,
        reply_to: Option<MessageId>,
    ) -> Result<Option<PostRef>, Failure> {
        let bot = &self.client.bot;
        let markup = keyboard(&message.buttons, self.deep_link_username().await);
        let reply = reply_to.map(|id| ReplyParameters::new(id).allow_sending_without_reply());
        let mut photo_ref = None;
        let text = message.text.trim();
        if let Some(image) = &message.image {
            let file = InputFile::memory(image.bytes.clone()).file_name(image.file_name.clone());
            let fits = units(text) <= CAPTION_LIMIT;
            let caption = fits.then(|| (text, self.pings(text, message)));
            let markup = (fits && !markup.inline_keyboard.is_empty()).then(|| markup.clone());
            let _turn = self.client.pacer.wait(address.chat).await;
            // sendAnimation and sendPhoto take the same optional parts; only the method differs.
            macro_rules! with_parts {
                ($request:expr) => {{
                    let mut request = $request;
                    if let Some(thread) = address.thread {
                        request = request.message_thread_id(thread);
                    }
                    if let Some(reply) = reply.clone() {
                        request = request.reply_parameters(reply);
                    }
                    if let Some((text, pings)) = caption {
                        request = request.caption(text).caption_entities(pings);
                    }
                    if let Some(markup) = markup {
                        request = request.reply_markup(markup);
                    }
                    request.await.map_err(|e| self.noted(address.chat, e))?
                }};
            }
            let sent = if is_animation(image) {
                with_parts!(bot.send_animation(address.chat, file))
            } else if is_document(image) {
                with_parts!(bot.send_document(address.chat, file))
            } else {
                with_parts!(bot.send_photo(address.chat, file))
            };
            let posted = PostRef {
                chat: sent.chat.id,
                message: sent.id,
                photo: true,
            };
            if fits {
                return Ok(Some(posted));
            }
            photo_ref = Some(posted);
        }
        let pieces = chunks(text, MESSAGE_LIMIT);
        if pieces.is_empty() {
            return Ok(photo_ref);
        }
        let last = pieces.len() - 1;
        let mut posted = photo_ref;
        for (i, piece) in pieces.iter().enumerate() {
            let mut request = bot
                .send_message(address.chat, piece.as_str())
                .entities(self.pings(piece, message));
            if let Some(thread) = address.thread {
                request = request.message_thread_id(thread);
            }
            if i == 0
                && let Some(reply) = reply.clone()
            {
                request = request.reply_parameters(reply);
            }
            if i == last && !markup.inline_keyboard.is_empty() {
                request = request.reply_markup(markup.clone());
            }
            let _turn = self.client.pacer.wait(address.chat).await;
            let sent = request.await.map_err(|e| self.noted(address.chat, e))?;
            posted = Some(PostRef {
                chat: sent.chat.id,
                message: sent.id,
                photo: false,
            });
        }
        Ok(posted)
    }

    /// Edits the post `earlier` into `message`; `Failure::Gone` if it cannot be edited.
    pub(crate) async fn edit(
        &self,
        earlier: PostRef,
        message: &Message,
    ) -> Result<PostRef, Failure> {
        let bot = &self.client.bot;
        let markup = keyboard(&message.buttons, self.deep_link_username().await);
        let text = message.text.trim();
        let _turn = self.client.pacer.wait(earlier.chat).await;
        let result = match (earlier.photo, &message.image) {
            // No text and no picture: only the buttons change (the caption stays as it went
            // out, which may have named several moves).
            (_, None) if text.is_empty() => bot
                .edit_message_reply_markup(earlier.chat, earlier.message)
                .reply_markup(markup)
                .await
                .map(drop),
            (true, Some(image)) if units(text) <= CAPTION_LIMIT => {
                let file =
                    InputFile::memory(image.bytes.clone()).file_name(image.file_name.clone());
                let pings = self.pings(text, message);
                let media = if is_animation(image) {
                    InputMedia::Animation(
                        InputMediaAnimation::new(file)
                            .caption(text)
                            .caption_entities(pings),
                    )
                } else {
                    InputMedia::Photo(
                        InputMediaPhoto::new(file)
                            .caption(text)
                            .caption_entities(pings),
                    )
                };
                bot.edit_message_media(earlier.chat, earlier.message, media)
                    .reply_markup(markup)
                    .await
                    .map(drop)
            }
            (true, None) if units(text) <= CAPTION_LIMIT => bot
                .edit_message_caption(earlier.chat, earlier.message)
                .caption(text)
                .caption_entities(self.pings(text, message))
                .reply_markup(markup)
                .await
                .map(drop),
            (false, None) if units(text) <= MESSAGE_LIMIT && !text.is_empty() => bot
                .edit_message_text(earlier.chat, earlier.message, text)
                .entities(self.pings(text, message))
                .reply_markup(markup)
                .await
                .map(drop),
            // A picture cannot be added to a text post, nor a long text put in a caption.
            _ => return Err(Failure::Gone),
        };
        match result {
            Ok(()) | Err(RequestError::Api(ApiError::MessageNotModified)) => Ok(earlier),
            Err(error) => Err(self.noted(earlier.chat, error).into()),
        }
    }

    /// A 429 holds back every post to its chat, whichever lane or reply makes it, for as
    /// long as Telegram said.
    fn noted(&self, chat: TgChatId, error: RequestError) -> RequestError {
        if let RequestError::RetryAfter(after) = &error {
            self.client.pacer.hold(chat, after.duration());
        }
        error
    }

    /// Text-mention entities for the people a message pings who have no `@username` (those
    /// with one appear as `@name` in the text, which Telegram links by itself).
    fn pings(&self, text: &str, message: &Message) -> Vec<MessageEntity> {
        let people: Vec<(teloxide::types::UserId, String)> = message
            .mentions
            .iter()
            .filter_map(|id| id.id.parse::<u64>().ok())
            .filter_map(|id| self.client.people.by_id(teloxide::types::UserId(id)))
            .filter(|user| user.username.is_none())
            .map(|user| (user.id, user.full_name()))
            .collect();
        mention_entities(text, &people)
    }

    /// The bot's username for deep links (asking Telegram once if nobody has yet).
    async fn deep_link_username(&self) -> Option<&str> {
        if self.client.username().is_none()
            && let Err(error) = self.client.me().await
        {
            tracing::warn!(%error, "cannot learn the bot's username; accept buttons stay plain");
        }
        self.client.username()
    }
}

/// A GIF (the replay of a finished game) must go as an animation: as a photo Telegram shows
/// only its first frame.
fn is_animation(image: &jieqi_service::Image) -> bool {
    image
        .file_name
        .rsplit_once('.')
        .is_some_and(|(_, extension)| extension.eq_ignore_ascii_case("gif"))
}

/// A file that is not a picture (a game's PGN record) goes as a document.
fn is_document(image: &jieqi_service::Image) -> bool {
    !image
        .file_name
        .rsplit_once('.')
        .is_some_and(|(_, extension)| {
            ["png", "gif", "jpg", "jpeg"]
                .iter()
                .any(|known| extension.eq_ignore_ascii_case(known))
        })
}

fn final_failure(failure: Failure) -> SendError {
    match failure {
        Failure::Send(error) => error,
        Failure::Migrated(chat) => {
            SendError::Undeliverable(format!("the group moved twice (now {})", chat.0))
        }
        Failure::Gone => SendError::Undeliverable("the message to answer is gone".to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn post_refs_round_trip() {
        let post = PostRef {
            chat: TgChatId(-100_123),
            message: MessageId(77),
            photo: true,
        };
        assert_eq!(post.encode(), "-100123:77:p");
        assert_eq!(PostRef::decode(&post.encode()), Some(post));
        for bad in ["", "1:2", "1:2:x", "a:2:p", "1:2:p:4"] {
            assert_eq!(PostRef::decode(bad), None, "{bad}");
        }
    }

    #[test]
    fn blocked_and_never_started_private_chats_are_undeliverable() {
        assert!(matches!(
            classify_api(&ApiError::BotBlocked),
            SendError::Undeliverable(_)
        ));
        let never_started =
            ApiError::Unknown("Forbidden: bot can't initiate conversation with a user".to_owned());
        assert!(matches!(
            classify_api(&never_started),
            SendError::Undeliverable(_)
        ));
        let server = ApiError::Unknown("Internal Server Error".to_owned());
        assert!(matches!(classify_api(&server), SendError::Retry { .. }));
    }
}
