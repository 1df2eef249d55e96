//! Who and where an interaction comes from, as the service's typed values: the channel is
//! the chat, the interaction id is the idempotency key (a redelivered interaction is answered
//! from the service's record and changes nothing).

use std::time::SystemTime;

use jieqi_service::{ChatId, IdempotencyKey, Input, Platform, Request, User, UserId};
use serenity::all::{ChannelId, GuildId, InteractionId, Member, Permissions};

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
    /// May change the chat's settings: Manage Server (or Administrator) in a server, anyone
    /// in a DM.
    pub is_admin: bool,
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
            is_admin: guild.is_none() || member.is_some_and(manages_server),
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
            is_admin: self.is_admin,
            user: self.user.clone(),
            mentioned,
            input,
            received_at: SystemTime::now(),
        }
    }
}

/// Whether a member may manage the server, by the permissions Discord computed for them in
/// the interaction's channel (Administrator implies every permission).
fn manages_server(member: &Member) -> bool {
    member.permissions.is_some_and(|p| {
        p.contains(Permissions::MANAGE_GUILD) || p.contains(Permissions::ADMINISTRATOR)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn member(permissions: Option<u64>) -> Member {
        let mut json = serde_json::json!({
            "user": { "id": "7", "username": "ann", "discriminator": "0", "global_name": null, "avatar": null },
            "roles": [], "joined_at": "2024-01-01T00:00:00Z", "deaf": false, "mute": false,
            "flags": 0, "guild_id": "1",
        });
        if let Some(bits) = permissions {
            json["permissions"] = bits.to_string().into();
        }
        serde_json::from_value(json).expect("a member")
    }

    fn origin(guild: Option<u64>, member: Option<&Member>) -> Origin {
        let user = serenity::all::User::default();
        Origin::new(
            InteractionId::new(1),
            ChannelId::new(2),
            guild.map(GuildId::new),
            &user,
            member,
            "en-US",
        )
    }

    #[test]
    fn only_members_who_manage_the_server_are_admins() {
        let manager = member(Some(Permissions::MANAGE_GUILD.bits()));
        let administrator = member(Some(Permissions::ADMINISTRATOR.bits()));
        let player = member(Some(Permissions::SEND_MESSAGES.bits()));
        let unknown = member(None);
        assert!(origin(Some(1), Some(&manager)).is_admin);
        assert!(origin(Some(1), Some(&administrator)).is_admin);
        assert!(!origin(Some(1), Some(&player)).is_admin);
        assert!(!origin(Some(1), Some(&unknown)).is_admin);
        assert!(!origin(Some(1), None).is_admin);
        // A DM with the bot: the person's own chat.
        assert!(origin(None, None).is_admin);
        let request =
            origin(Some(1), Some(&player)).request(Input::Text("/settings".into()), vec![]);
        assert!(!request.is_admin);
    }
}
