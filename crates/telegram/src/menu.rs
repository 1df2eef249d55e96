//! The command menu Telegram clients show when someone types `/` (`setMyCommands`): every
//! command of the service's [`Service::command_menu`], in each language it speaks (English as
//! the default, the others for clients set to them). The list comes from the service alone, so
//! a command added there (as `/play` was) cannot be missing here.

use jieqi_service::{Language, Service};
use teloxide::payloads::SetMyCommandsSetters;
use teloxide::prelude::*;
use teloxide::types::BotCommand;

use crate::client::Client;

/// Telegram's limit on a command's description.
const DESCRIPTION_LIMIT: usize = 256;

/// The menu in `language`.
pub(crate) fn menu(service: &Service, language: Language) -> Vec<BotCommand> {
    service
        .command_menu(language)
        .into_iter()
        .map(|(name, description)| {
            BotCommand::new(name, crate::text::truncate(&description, DESCRIPTION_LIMIT))
        })
        .collect()
}

/// Publishes the menu: English as the default, and each other language for clients set to it.
pub(crate) async fn publish(client: &Client, service: &Service) {
    for language in Language::ALL {
        let mut request = client.bot.set_my_commands(menu(service, language));
        if language != Language::En {
            request = request.language_code(language.code());
        }
        if let Err(error) = request.await {
            tracing::warn!(%error, %language, "cannot set the command menu");
        }
    }
}
