//! Who and where an interaction comes from, as the service's typed values: the channel is
//! the chat, the interaction id is the idempotency key (a redelivered interaction is answered
//! from the service's record and changes nothing).

use std::time::SystemTime;

use jieqi_service::{ChatId, IdempotencyKey, Input, Platform, Request, User, UserId};
use serenity::all::{ChannelId, GuildId, InteractionId, Member};

/// A Discord user as the service names them: the server nickname, else the display name,
/// else the user name.
pub(crate) fn person(user: &serenity::all::User, nick: Option<&str>, locale: Option<&str>) -> User {
    let name = nick
        .or(user.global_name.as_deref())
        .unwrap_or(&user.name)
        .to_owned();
    User {
        id: UserId::new(Platform::Discord, user.id.to_string()),
        name,
        language: locale.map(str::to_owned),
    }
}

/// Where an interaction happened and who made it.
#[derive(Clone, Debug)]
pub(crate) struct Origin {
    pub id: InteractionId,
    pub channel: ChannelId,
    pub guild: Option<GuildId>,
    pub user: User,
}

impl Origin {
    pub(crate) fn new(
        id: InteractionId,
        channel: ChannelId,
        guild: Option<GuildId>,
        user: &serenity::all::User,
        member: Option<&Member>,
        locale: &str,
    ) -> Origin {
        let nick = member.and_then(|m| m.nick.as_deref());
        let locale = Some(locale).filter(|l| !l.is_empty());
        Origin {
            id,
            channel,
            guild,
            user: person(user, nick, locale),
        }
    }

    /// The chat: the channel (a DM with the bot is a channel too).
    pub(crate) fn chat(&self) -> ChatId {
        ChatId::new(Platform::Discord, self.channel.to_string())
    }

    /// The request for the service.
    pub(crate) fn request(&self, input: Input, mentioned: Vec<User>) -> Request {
        Request {
            key: IdempotencyKey(self.id.to_string()),
            chat: self.chat(),
            // Interactions outside a guild come from the bot's DM channel.
            is_private_chat: self.guild.is_none(),
            user: self.user.clone(),
            mentioned,
            input,
            received_at: SystemTime::now(),
        }
    }
}
