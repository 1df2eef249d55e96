//! Launching the bot's Activity (the board inside Discord, served by `jieqi-web` under
//! `PUBLIC_URL`): the "Play in Discord" button under each board and the Activity's entry
//! point command (`/launch`) are answered with interaction response type 12,
//! `LAUNCH_ACTIVITY`, which opens the Activity in the channel where they were used. Discord
//! gives the Activity no parameter through this answer: the Activity opens on the channel's
//! games, the presser's own first.
//!
//! The entry point command is registered with the others while the Activity is on. Discord
//! refuses a bulk overwrite of an application's commands that leaves out its entry point, so
//! it is part of every registration; its handler is the app (`APP_HANDLER`), so its
//! invocations reach the bot as interactions and are answered here.

use jieqi_service::i18n::Translations;
use jieqi_service::{ButtonAction, Language};
use serenity::all::{
    CommandType, CreateCommand, CreateInteractionResponse, EntryPointHandlerType,
    InstallationContext, InteractionContext,
};

use crate::respond::{Stop, Target};

/// The entry point command's name (Discord's default one is called this too).
pub(crate) const ENTRY_POINT: &str = "launch";

/// The Activity's entry point command, described in every language.
pub(crate) fn entry_point(translations: &Translations) -> CreateCommand {
    let mut command = CreateCommand::new(ENTRY_POINT)
        .kind(CommandType::PrimaryEntryPoint)
        .handler(EntryPointHandlerType::AppHandler)
        .description(translations.text(Language::En, "activity-command", &[]))
        .integration_types(vec![InstallationContext::Guild])
        .contexts(vec![
            InteractionContext::Guild,
            InteractionContext::PrivateChannel,
        ]);
    for (language, locale) in [(Language::Zh, "zh-CN"), (Language::Vi, "vi")] {
        command = command
            .description_localized(locale, translations.text(language, "activity-command", &[]));
    }
    command
}

/// True for the id of a "Play in Discord" button.
pub(crate) fn launches(custom_id: &str) -> bool {
    matches!(
        ButtonAction::decode(custom_id),
        Ok(ButtonAction::PlayInDiscord(_))
    )
}

/// Answers the interaction with `LAUNCH_ACTIVITY`, within Discord's three seconds.
pub(crate) async fn launch(target: Target<'_>) {
    match target
        .callback(&CreateInteractionResponse::LaunchActivity, Vec::new())
        .await
    {
        Ok(()) => tracing::debug!(interaction = %target.id, "launched the Activity"),
        Err(Stop::AlreadyAnswered) => {
            tracing::debug!(interaction = %target.id, "interaction delivered again; launched before");
        }
        // Logged where it failed.
        Err(Stop::Passing | Stop::Failed) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_entry_point_is_a_primary_entry_point_handled_by_the_app() {
        let command = serde_json::to_value(entry_point(&Translations::load())).expect("json");
        assert_eq!(command["name"], ENTRY_POINT);
        assert_eq!(command["type"], 4, "PRIMARY_ENTRY_POINT");
        assert_eq!(command["handler"], 1, "APP_HANDLER: the bot answers it");
        assert!(command["description_localizations"]["zh-CN"].is_string());
        assert!(launches("act_g7k2"));
        assert!(!launches("ply_g7k2"));
        assert!(!launches("act_"));
    }

    #[test]
    fn the_launch_answer_is_type_twelve_without_data() {
        let answer = serde_json::to_value(CreateInteractionResponse::LaunchActivity).expect("json");
        assert_eq!(answer["type"], 12);
        assert!(answer["data"].is_null());
    }
}
