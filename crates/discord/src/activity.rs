//! Launching the bot's Activity (the board inside Discord, served by `jieqi-web` under
//! `PUBLIC_URL`): the "Play in Discord" button under each board and the Activity's entry
//! point command (`/launch`) are answered with interaction response type 12,
//! `LAUNCH_ACTIVITY`, which opens the Activity in the channel where they were used (or joins
//! the one running there).
//!
//! `LAUNCH_ACTIVITY` carries no parameter for the Activity. So a button's answer is sent with
//! `?with_response=true`: Discord's interaction callback response names the Activity instance
//! it launched (`resource.activity_instance.id`), and the service remembers that instance →
//! the button's game in the store ([`Service::record_launch`]), where every process serving
//! the Activity reads it. The Activity opened on that instance opens that game; opened before
//! the record is written (the person was quicker than the store), it shows the channel's
//! games and switches to the game when the record appears. The entry point command names no
//! game and writes nothing down: an instance it opens shows the channel's games.
//!
//! The entry point command is registered with the others while the Activity is on. Discord
//! refuses a bulk overwrite of an application's commands that leaves out its entry point, so
//! it is part of every registration; its handler is the app (`APP_HANDLER`), so its
//! invocations reach the bot as interactions and are answered here.

use jieqi_service::i18n::Translations;
use jieqi_service::ids::ActivityInstanceId;
use jieqi_service::{ButtonAction, ChatId, GameId, Language, Service};
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

/// The game of a "Play in Discord" button's id.
pub(crate) fn launches(custom_id: &str) -> Option<GameId> {
    match ButtonAction::decode(custom_id) {
        Ok(ButtonAction::PlayInDiscord(game)) => Some(game),
        _ => None,
    }
}

/// Answers the entry point command with `LAUNCH_ACTIVITY`, within Discord's three seconds.
pub(crate) async fn launch(target: Target<'_>) {
    let answered = target
        .callback(&CreateInteractionResponse::LaunchActivity, Vec::new())
        .await;
    launched(&target, answered.map(|()| None));
}

/// Answers a "Play in Discord" press for `game` in `chat` with `LAUNCH_ACTIVITY`, and
/// remembers the instance Discord launched as that game's.
pub(crate) async fn launch_game(
    target: Target<'_>,
    service: &Service,
    game: &GameId,
    chat: &ChatId,
) {
    let answered = target
        .callback_with_response(&CreateInteractionResponse::LaunchActivity)
        .await;
    let Some(instance) = launched(&target, answered) else {
        return;
    };
    match service.record_launch(&instance, game, chat).await {
        Ok(true) => tracing::debug!(%instance, %game, "an Activity instance shows a game"),
        Ok(false) => {
            tracing::info!(%instance, %game, %chat, "a launch from another channel's game")
        }
        Err(e) => tracing::warn!(%instance, %game, "cannot remember an Activity launch: {e}"),
    }
}

/// Logs how the launch went; the instance Discord named, if it named one.
fn launched(
    target: &Target<'_>,
    answered: Result<Option<serde_json::Value>, Stop>,
) -> Option<ActivityInstanceId> {
    match answered {
        Ok(response) => {
            tracing::debug!(interaction = %target.id, "launched the Activity");
            response.as_ref().and_then(instance_of)
        }
        Err(Stop::AlreadyAnswered) => {
            tracing::debug!(interaction = %target.id, "interaction delivered again; launched before");
            None
        }
        // Logged where it failed.
        Err(Stop::Passing | Stop::Failed) => None,
    }
}

/// The Activity instance an interaction callback response names: its resource's
/// `activity_instance.id`, or the interaction's `activity_instance_id`.
fn instance_of(response: &serde_json::Value) -> Option<ActivityInstanceId> {
    let id = response["resource"]["activity_instance"]["id"]
        .as_str()
        .or_else(|| response["interaction"]["activity_instance_id"].as_str());
    let instance = id.and_then(|id| id.parse().ok());
    if instance.is_none() {
        tracing::warn!(%response, "Discord's launch answer names no Activity instance");
    }
    instance
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
        assert_eq!(launches("act_g7k2"), "g7k2".parse().ok());
        assert_eq!(launches("ply_g7k2"), None);
        assert_eq!(launches("act_"), None);
    }

    #[test]
    fn the_launch_answer_is_type_twelve_without_data() {
        let answer = serde_json::to_value(CreateInteractionResponse::LaunchActivity).expect("json");
        assert_eq!(answer["type"], 12);
        assert!(answer["data"].is_null());
    }

    #[test]
    fn the_launched_instance_is_read_from_the_callback_response() {
        let response = serde_json::json!({
            "interaction": {"id": "1", "type": 3, "activity_instance_id": "i-9-gc-1-2"},
            "resource": {"type": 12, "activity_instance": {"id": "i-9-gc-1-2"}},
        });
        assert_eq!(
            instance_of(&response).map(|i| i.to_string()).as_deref(),
            Some("i-9-gc-1-2")
        );
        let only_interaction =
            serde_json::json!({"interaction": {"activity_instance_id": "i-8"}, "resource": null});
        assert_eq!(
            instance_of(&only_interaction)
                .map(|i| i.to_string())
                .as_deref(),
            Some("i-8")
        );
        for hostile in [
            serde_json::json!({"resource": {"activity_instance": {"id": "../../x"}}}),
            serde_json::json!({"resource": {"activity_instance": {"id": 5}}}),
            serde_json::json!(null),
        ] {
            assert_eq!(instance_of(&hostile), None, "{hostile}");
        }
    }
}
