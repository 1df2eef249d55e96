//! A Discord user as the service knows them: the requester of an interaction
//! (`interaction.rs`) and the users a command names (`commands.rs`) alike.

use jieqi_service::{Platform, User, UserId};

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
