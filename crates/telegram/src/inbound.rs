//! Reading updates: a Telegram update becomes a service [`Request`] plus where its answer goes.
//!
//! Only what is addressed to the bot becomes a request: commands (`/move h2e2`, and in groups
//! `/move@ThisBot h2e2`; commands for other bots pass by) and presses of our buttons. A command
//! edited after it was sent (a mistyped `/move` corrected) is read like a new one. The update id
//! is the request's idempotency key, so an update delivered twice changes nothing the second
//! time, while an edit, which comes as an update of its own, is acted on.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use jieqi_service::{ButtonAction, IdempotencyKey, Input, Language, Request, User};
use teloxide::types::{
    CallbackQuery, CallbackQueryId, MaybeInaccessibleMessage, Me, Message, MessageEntityKind,
    MessageEntityRef, MessageId, Update, UpdateKind,
};

use crate::address::{Address, user_id};
use crate::client::People;

/// An update the service should handle, and where its answer goes.
#[derive(Debug)]
pub(crate) struct Inbound {
    pub request: Request,
    pub origin: Origin,
}

/// Where a request came from, for its replies.
#[derive(Clone, Debug)]
pub(crate) enum Origin {
    /// A command typed in a chat: replies answer that message.
    Command {
        address: Address,
        message: MessageId,
    },
    /// A button pressed: replies are the answer to the callback query (seen only by the
    /// presser).
    Button { query: CallbackQueryId },
}

/// What an update amounts to.
#[derive(Debug)]
pub(crate) enum Reading {
    /// A request for the service.
    Request(Box<Inbound>),
    /// A press of a button that is not ours (any more): say so, in the presser's language if
    /// their client tells it.
    ForeignButton {
        query: CallbackQueryId,
        language: Option<Language>,
    },
    /// Nothing for the bot.
    Ignore,
}

/// Reads one update. `me` is the bot itself (its username tells which commands are ours);
/// `people` learns everyone seen and resolves `@username`s.
pub(crate) fn read_update(update: &Update, me: &Me, people: &People, now: SystemTime) -> Reading {
    let key = IdempotencyKey(update.id.0.to_string());
    match &update.kind {
        UpdateKind::Message(message) | UpdateKind::EditedMessage(message) => {
            read_message(key, message, me, people, now)
        }
        UpdateKind::CallbackQuery(query) => read_button(key, query, people, now),
        _ => Reading::Ignore,
    }
}

fn read_message(
    key: IdempotencyKey,
    message: &Message,
    me: &Me,
    people: &People,
    now: SystemTime,
) -> Reading {
    let Some(from) = message.from.as_ref().filter(|u| !u.is_bot) else {
        return Reading::Ignore;
    };
    people.saw(from);
    let replied_to = real_reply(message);
    if let Some(author) = replied_to {
        people.saw(author);
    }
    let Some(text) = message.text() else {
        return Reading::Ignore;
    };
    let Some(command) = command_for_us(text, me.user.username.as_deref()) else {
        return Reading::Ignore;
    };
    let mut mentioned: Vec<User> = Vec::new();
    let mut command = command;
    if let Some(entities) = message.parse_entities() {
        for entity in &entities {
            match entity.kind() {
                // A person without a username, picked from the client's list: the text holds
                // their name, which is not a `@handle`; take it out of the command line.
                MessageEntityKind::TextMention { user } => {
                    people.saw(user);
                    if let Some(rest) = remove_span(&command, text, entity) {
                        command = rest;
                        push_new(&mut mentioned, person(user));
                    }
                }
                MessageEntityKind::Mention => {
                    // `entity.text()` would panic on an entity past the text's end (found by
                    // the `telegram_update` fuzz target): read the span only if it is there.
                    let handle = text.get(entity.range());
                    if let Some(user) = handle.and_then(|handle| people.by_username(handle)) {
                        push_new(&mut mentioned, person(&user));
                    }
                }
                _ => {}
            }
        }
    }
    // Replying to someone's message with `/challenge` challenges them.
    if let Some(author) = replied_to.filter(|a| !a.is_bot && a.id != from.id) {
        push_new(&mut mentioned, person(author));
    }
    let address = Address {
        chat: message.chat.id,
        thread: message
            .is_topic_message
            .then_some(message.thread_id)
            .flatten(),
    };
    // An edited command counts from its edit.
    let written = message.edit_date().unwrap_or(&message.date);
    let sent_at = UNIX_EPOCH + Duration::from_secs(u64::try_from(written.timestamp()).unwrap_or(0));
    Reading::Request(Box::new(Inbound {
        request: Request {
            key,
            chat: address.chat_id(),
            is_private_chat: message.chat.is_private(),
            // In a group the handler asks Telegram when a request needs it.
            is_admin: message.chat.is_private(),
            user: person(from),
            mentioned,
            input: Input::Text(command),
            // When Telegram received it (a redelivery after a crash keeps its time), but
            // never later than now.
            received_at: sent_at.min(now),
        },
        origin: Origin::Command {
            address,
            message: message.id,
        },
    }))
}

fn read_button(
    key: IdempotencyKey,
    query: &CallbackQuery,
    people: &People,
    now: SystemTime,
) -> Reading {
    people.saw(&query.from);
    let foreign = || Reading::ForeignButton {
        query: query.id.clone(),
        language: query
            .from
            .language_code
            .as_deref()
            .and_then(Language::from_tag),
    };
    let (chat, thread) = match &query.message {
        Some(MaybeInaccessibleMessage::Regular(message)) => (
            message.chat.clone(),
            message
                .is_topic_message
                .then_some(message.thread_id)
                .flatten(),
        ),
        Some(MaybeInaccessibleMessage::Inaccessible(message)) => (message.chat.clone(), None),
        // Inline-mode messages: the bot posts none, so such a button is not ours.
        None => return foreign(),
    };
    let Ok(action) = ButtonAction::decode(query.data.as_deref().unwrap_or_default()) else {
        return foreign();
    };
    let address = Address {
        chat: chat.id,
        thread,
    };
    Reading::Request(Box::new(Inbound {
        request: Request {
            key,
            chat: address.chat_id(),
            is_private_chat: chat.is_private(),
            is_admin: chat.is_private(),
            user: person(&query.from),
            mentioned: Vec::new(),
            input: Input::Button(action),
            received_at: now,
        },
        origin: Origin::Button {
            query: query.id.clone(),
        },
    }))
}

/// The message this one really replies to. In a forum topic every message "replies" to the
/// topic's first message; that is not a reply to a person.
fn real_reply(message: &Message) -> Option<&teloxide::types::User> {
    let replied = message.reply_to_message()?;
    if message.is_topic_message && message.thread_id.is_some_and(|t| t.0 == replied.id) {
        return None;
    }
    replied.from.as_ref()
}

/// The command line as the service reads it, if the text is a command for this bot:
/// `/cmd@ThisBot args` becomes `/cmd args`; `/cmd@OtherBot` is not ours.
pub(crate) fn command_for_us(text: &str, our_username: Option<&str>) -> Option<String> {
    let text = text.trim_start();
    let line = text.strip_prefix('/')?;
    let head_end = line.find(char::is_whitespace).unwrap_or(line.len());
    let (head, rest) = line.split_at(head_end);
    let name = match head.split_once('@') {
        Some((name, addressee)) => {
            let ours = our_username.is_some_and(|u| u.eq_ignore_ascii_case(addressee));
            if !ours {
                return None;
            }
            name
        }
        None => head,
    };
    if name.is_empty() {
        return None;
    }
    Some(format!("/{name}{rest}"))
}

/// `command` (derived from `text`) with the span of `entity` in `text` blanked out, or
/// `None` if the span is not within the command's arguments. Telegram's clients put a picked
/// person after the command, but an update may say anything: a span over the command's head
/// (found by the `telegram_update` fuzz target) would cut the command itself.
fn remove_span(command: &str, text: &str, entity: &MessageEntityRef<'_>) -> Option<String> {
    // The command line differs from the text only in its head (`/cmd@Bot` → `/cmd`); the
    // arguments after it are the same bytes, the text's last ones: map the span by its
    // distance from the end.
    let head = command.find(char::is_whitespace).unwrap_or(command.len());
    let arguments = command.len() - head;
    if entity.start() < text.len().saturating_sub(arguments) {
        return None;
    }
    let from_end = text.len().saturating_sub(entity.start());
    let start = command.len().saturating_sub(from_end);
    let end = start + entity.len();
    match (command.get(..start), command.get(end..)) {
        (Some(before), Some(after)) => Some(format!("{before} {after}")),
        _ => None,
    }
}

fn push_new(users: &mut Vec<User>, user: User) {
    if !users.iter().any(|u| u.id == user.id) {
        users.push(user);
    }
}

/// A Telegram user as the service knows them. The name is the `@username` where there is
/// one: it is what people type to name them, and Telegram turns it into a ping in messages.
pub(crate) fn person(user: &teloxide::types::User) -> User {
    let name = match &user.username {
        Some(username) => format!("@{username}"),
        None => user.full_name(),
    };
    User {
        id: user_id(user.id),
        name,
        language: user.language_code.clone(),
    }
}

/// Reads an update as Telegram sends it (the JSON of one `getUpdates` result or webhook
/// body) the way the adapter does, for a bot called `@bot_username`: the request it makes for
/// the service, if any. Bytes that are not an update are serde's error. This is the door the
/// `telegram_update` fuzz target (`fuzz/`) knocks on: any bytes give an error, nothing or a
/// request, never a panic.
pub fn request_from_update_json(
    json: &[u8],
    bot_username: &str,
    now: SystemTime,
) -> Result<Option<Request>, serde_json::Error> {
    let update: Update = serde_json::from_slice(json)?;
    let me: Me = serde_json::from_value(serde_json::json!({
        "id": 1, "is_bot": true, "first_name": bot_username, "username": bot_username,
        "can_join_groups": true, "can_read_all_group_messages": false,
        "supports_inline_queries": false, "has_main_web_app": false
    }))?;
    Ok(match read_update(&update, &me, &People::default(), now) {
        Reading::Request(inbound) => Some(inbound.request),
        Reading::ForeignButton { .. } | Reading::Ignore => None,
    })
}

#[cfg(test)]
#[path = "inbound/tests.rs"]
mod tests;
