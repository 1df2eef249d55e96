//! Where a message goes on Telegram, and how that is written into the service's platform-neutral
//! ids.
//!
//! A forum topic behaves like a channel of its own (its own games, its own board posts), so the
//! service's [`ChatId`] of a topic message carries the topic: `-100123/45` is topic 45 of group
//! -100123, `-100123` is the group itself (or its General topic). A private chat's id is the
//! user's id, so [`Destination::Private`] needs no lookup.

use std::fmt;

use jieqi_service::{ChatId, Platform, UserId};
use teloxide::types::{ChatId as TgChatId, MessageId, ThreadId};
use thiserror::Error;

/// A Telegram chat, and the forum topic in it if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Address {
    /// The chat (group, supergroup, private chat).
    pub chat: TgChatId,
    /// The forum topic, for messages in a topic other than General.
    pub thread: Option<ThreadId>,
}

/// A service id that is not a Telegram chat or user.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("`{0}` is not a Telegram chat: Telegram chats are numbers such as -100123 or -100123/45")]
pub struct AddressError(pub String);

impl Address {
    /// A chat without topic.
    pub fn chat(chat: TgChatId) -> Address {
        Address { chat, thread: None }
    }

    /// The service's id of this chat (or topic).
    pub fn chat_id(&self) -> ChatId {
        ChatId::new(Platform::Telegram, self.to_string())
    }

    /// The chat (or topic) a service chat id names.
    pub fn from_chat_id(chat: &ChatId) -> Result<Address, AddressError> {
        if chat.platform != Platform::Telegram {
            return Err(AddressError(chat.to_string()));
        }
        let bad = || AddressError(chat.id.clone());
        let (chat_part, thread_part) = match chat.id.split_once('/') {
            Some((c, t)) => (c, Some(t)),
            None => (chat.id.as_str(), None),
        };
        let id: i64 = chat_part.parse().map_err(|_| bad())?;
        let thread = match thread_part {
            Some(t) => Some(ThreadId(MessageId(t.parse().map_err(|_| bad())?))),
            None => None,
        };
        Ok(Address {
            chat: TgChatId(id),
            thread,
        })
    }

    /// The private chat with a user (on Telegram its id is the user's id).
    pub fn private(user: &UserId) -> Result<Address, AddressError> {
        if user.platform != Platform::Telegram {
            return Err(AddressError(user.to_string()));
        }
        let id: i64 = user.id.parse().map_err(|_| AddressError(user.id.clone()))?;
        Ok(Address::chat(TgChatId(id)))
    }
}

impl fmt::Display for Address {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.thread {
            Some(ThreadId(MessageId(thread))) => write!(f, "{}/{}", self.chat.0, thread),
            None => write!(f, "{}", self.chat.0),
        }
    }
}

/// The service's id of a Telegram user.
pub fn user_id(user: teloxide::types::UserId) -> UserId {
    UserId::new(Platform::Telegram, user.0.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_topic_round_trips_through_the_service_chat_id() {
        let topic = Address {
            chat: TgChatId(-100_123),
            thread: Some(ThreadId(MessageId(45))),
        };
        assert_eq!(topic.chat_id().to_string(), "telegram:-100123/45");
        assert_eq!(Address::from_chat_id(&topic.chat_id()), Ok(topic));
        let group = Address::chat(TgChatId(-100_123));
        assert_eq!(Address::from_chat_id(&group.chat_id()), Ok(group));
    }

    #[test]
    fn ids_of_other_platforms_or_shapes_are_refused() {
        for id in ["abc", "-1/x", "", "1/2/3"] {
            assert!(
                Address::from_chat_id(&ChatId::new(Platform::Telegram, id)).is_err(),
                "{id}"
            );
        }
        assert!(Address::from_chat_id(&ChatId::new(Platform::Discord, "123")).is_err());
        assert!(Address::private(&UserId::new(Platform::Local, "5")).is_err());
        assert_eq!(
            Address::private(&UserId::new(Platform::Telegram, "77")),
            Ok(Address::chat(TgChatId(77)))
        );
    }
}
