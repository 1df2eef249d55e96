//! The command menu Telegram clients show when someone types `/` (`setMyCommands`), in every
//! language whose translation file has the descriptions.

use jieqi_service::Language;
use jieqi_service::i18n::Translations;
use teloxide::payloads::SetMyCommandsSetters;
use teloxide::prelude::*;
use teloxide::types::BotCommand;

use crate::client::Client;

/// The commands of `bot.md`, in menu order. Each has a `command-<name>` description in the
/// translation files.
pub(crate) const COMMANDS: [&str; 18] = [
    "challenge",
    "accept",
    "decline",
    "cancel",
    "move",
    "board",
    "resign",
    "draw",
    "games",
    "watch",
    "unwatch",
    "history",
    "peek",
    "rules",
    "help",
    "stats",
    "leaderboard",
    "settings",
];

/// Telegram's limit on a command's description.
const DESCRIPTION_LIMIT: usize = 256;

/// The menu in `language`, or `None` if its translation file lacks a description.
pub(crate) fn menu(translations: &Translations, language: Language) -> Option<Vec<BotCommand>> {
    let keys = Translations::keys(language);
    COMMANDS
        .iter()
        .map(|name| {
            let key = format!("command-{name}");
            keys.contains(&key).then(|| {
                let description = translations.text(language, &key, &[]);
                BotCommand::new(
                    *name,
                    crate::text::truncate(&description, DESCRIPTION_LIMIT),
                )
            })
        })
        .collect()
}

/// Publishes the menu: English as the default, and each other language for clients set to it.
pub(crate) async fn publish(client: &Client) {
    let translations = Translations::load();
    for language in Language::ALL {
        let Some(commands) = menu(&translations, language) else {
            tracing::warn!(%language, "the translation file lacks command descriptions; menu not set");
            continue;
        };
        let mut request = client.bot.set_my_commands(commands);
        if language != Language::En {
            request = request.language_code(language.code());
        }
        if let Err(error) = request.await {
            tracing::warn!(%error, %language, "cannot set the command menu");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_english_menu_lists_every_command_with_a_description() {
        let menu = menu(&Translations::load(), Language::En).expect("English descriptions");
        assert_eq!(menu.len(), COMMANDS.len());
        for command in &menu {
            assert!(!command.description.is_empty());
            assert!(
                !command.description.starts_with("command-"),
                "{}",
                command.description
            );
            assert!(command.command.bytes().all(|b| b.is_ascii_lowercase()));
        }
    }
}
