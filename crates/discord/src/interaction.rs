//! Who and where an interaction comes from, as the service's typed values: the channel is
//! the chat, the interaction id is the idempotency key (a redelivered interaction is answered
//! from the service's record and changes nothing).

use std::time::SystemTime;

use jieqi_service::{ChatId, IdempotencyKey, Input, Platform, Request, User};
use serenity::all::{ChannelId, GuildId, InteractionId, Member, Permissions};

use crate::person::person;

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

/// The chat of a Discord channel: every game, challenge and setting is the channel's.
pub(crate) fn chat_of(channel: ChannelId) -> ChatId {
    ChatId::new(Platform::Discord, channel.to_string())
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
        chat_of(self.channel)
    }

    /// The request for the service, received at `now` (the service's clock).
    pub(crate) fn request(&self, input: Input, mentioned: Vec<User>, now: SystemTime) -> Request {
        Request {
            key: IdempotencyKey(self.id.to_string()),
            chat: self.chat(),
            // Interactions outside a guild come from the bot's DM channel.
            is_private_chat: self.guild.is_none(),
            is_admin: self.is_admin,
            user: self.user.clone(),
            mentioned,
            input,
            received_at: now,
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

/// Reads an interaction as Discord sends it (the JSON of an `INTERACTION_CREATE` event's
/// data) the way the adapter does: a slash command becomes its command line, a press of one
/// of our buttons its action; anything else (autocompletion, a foreign button, pings) asks
/// nothing of the service. Bytes that are not an interaction are serde's error. This is the
/// door the `discord_interaction` fuzz target (`fuzz/`) knocks on: any bytes give an error,
/// nothing or a request, never a panic.
pub fn request_from_interaction_json(json: &[u8]) -> Result<Option<Request>, serde_json::Error> {
    let interaction: serenity::all::Interaction = serde_json::from_slice(json)?;
    Ok(match &interaction {
        serenity::all::Interaction::Command(command) => {
            Some(command_request(command, SystemTime::now()))
        }
        serenity::all::Interaction::Component(component) => {
            button_request(component, SystemTime::now()).ok()
        }
        serenity::all::Interaction::Autocomplete(command) => {
            // What the gateway does with it, minus the service's legal moves.
            if let Some(focused) = command.data.autocomplete() {
                let _ = crate::commands::move_choices(Vec::new(), focused.value);
            }
            None
        }
        _ => None,
    })
}

/// The request for an invoked slash command, received at `now`.
pub(crate) fn command_request(
    command: &serenity::all::CommandInteraction,
    now: SystemTime,
) -> Request {
    let origin = Origin::new(
        command.id,
        command.channel_id,
        command.guild_id,
        &command.user,
        command.member.as_deref(),
        &command.locale,
    );
    let line = crate::commands::command_line(&command.data);
    origin.request(Input::Text(line.text), line.mentioned, now)
}

/// The request for a pressed button received at `now`, or why it is not one of ours.
pub(crate) fn button_request(
    component: &serenity::all::ComponentInteraction,
    now: SystemTime,
) -> Result<Request, jieqi_service::ButtonDecodeError> {
    let action = jieqi_service::ButtonAction::decode(&component.data.custom_id)?;
    let origin = Origin::new(
        component.id,
        component.channel_id,
        component.guild_id,
        &component.user,
        component.member.as_ref(),
        &component.locale,
    );
    Ok(origin.request(Input::Button(action), Vec::new(), now))
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
    fn an_interaction_read_from_its_json_is_the_request_the_adapter_makes() {
        let user = serde_json::json!({"id": "42", "username": "ann", "discriminator": "0", "global_name": null, "avatar": null});
        let command = serde_json::json!({
            "id": "900", "application_id": "5", "type": 2, "token": "t", "version": 1,
            "channel_id": "77", "user": user, "locale": "vi", "entitlements": [],
            "attachment_size_limit": 10_485_760,
            "authorizing_integration_owners": {"1": "42"}, "context": 1,
            "data": {"id": "1", "name": "move", "type": 1,
                     "options": [{"name": "move", "type": 3, "value": "h2e2"}]}
        });
        let request = request_from_interaction_json(command.to_string().as_bytes())
            .expect("an interaction")
            .expect("a request");
        assert_eq!(request.key.0, "900");
        assert_eq!(request.input, Input::Text("/move h2e2".into()));
        assert_eq!(request.user.language.as_deref(), Some("vi"));
        assert!(request.is_private_chat, "no guild: the bot's DM channel");
        let foreign_button = serde_json::json!({
            "id": "901", "application_id": "5", "type": 3, "token": "t", "version": 1,
            "channel_id": "77", "user": user, "locale": "en-US", "entitlements": [],
            "attachment_size_limit": 10_485_760,
            "data": {"custom_id": "not ours", "component_type": 2}
        });
        let read = request_from_interaction_json(foreign_button.to_string().as_bytes());
        assert!(matches!(read, Ok(None) | Err(_)), "{read:?}");
        assert!(request_from_interaction_json(b"[1, 2").is_err());
    }

    /// The fuzz target's seeds are interactions as Discord sends them: each reads (a ping or
    /// an autocompletion into no request), none is refused by serde.
    #[test]
    fn the_fuzz_seeds_are_interactions_discord_would_send() {
        let seeds = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../fuzz/seeds/discord_interaction"
        );
        let mut requests = 0;
        for entry in std::fs::read_dir(seeds).expect("the seeds folder") {
            let path = entry.expect("a seed").path();
            let json = std::fs::read(&path).expect("a seed file");
            match request_from_interaction_json(&json) {
                Ok(request) => requests += usize::from(request.is_some()),
                Err(error) => panic!("{}: {error}", path.display()),
            }
        }
        assert!(requests >= 5, "{requests} seeds became requests");
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
        let request = origin(Some(1), Some(&player)).request(
            Input::Text("/settings".into()),
            vec![],
            SystemTime::now(),
        );
        assert!(!request.is_admin);
    }
}
