//! The buttons under a public board: Draw and Resign under the home chat's boards (naming
//! the board's ply, so a press under an older board is told the board is old), the link to
//! the game's web page, the button to play on the web board, Rematch under a result; and
//! the edit that greys out an older board's buttons once a newer board is under it.

use crate::context::{Ctx, Sentence, Step};
use crate::ids::{ChatId, GameId, Platform};
use crate::message::{Button, Destination, Message, MessageKind, OutboxId};
use crate::request::ButtonAction;
use crate::settings::ChatSettings;

/// The two board buttons of a running game, under the board after `ply` plies: a press
/// under a board that is no longer the newest is answered with the game as it stands
/// (`commands::refuse_old_board`) instead of acting.
pub(crate) fn game_buttons(
    ctx: &Ctx<'_>,
    settings: &ChatSettings,
    id: &GameId,
    ply: usize,
) -> Vec<Button> {
    let lang = settings.language;
    let ply = u32::try_from(ply).unwrap_or(u32::MAX);
    vec![
        Button {
            label: ctx.say_in(lang, &Sentence::new("button-draw")),
            action: ButtonAction::OfferDrawAt(id.clone(), ply),
            deep_link_accept: false,
        },
        Button {
            label: ctx.say_in(lang, &Sentence::new("button-resign")),
            action: ButtonAction::ResignAt(id.clone(), ply),
            deep_link_accept: false,
        },
    ]
}

/// The "Watch live" link to the game's web page (when the web page is on), under every
/// public board; `key` names its label.
pub(crate) fn page_link(
    ctx: &Ctx<'_>,
    settings: &ChatSettings,
    id: &GameId,
    key: &'static str,
) -> Option<Button> {
    let url = ctx.inner.config.game_link(id)?;
    Some(Button {
        label: ctx.say_in(settings.language, &Sentence::new(key)),
        action: ButtonAction::Link(url),
        deep_link_accept: false,
    })
}

/// The button that opens the game's board for playing, under the boards in its home chat:
/// in a Telegram group the Mini App's direct link ("Open the board"), in a private Telegram
/// chat the Mini App itself (a `web_app` button), on Discord "Play on the board" (a personal
/// link, answered privately). None while the web page or its credentials are not set up, and
/// none in the terminal (it prints the links).
pub(crate) fn play_button(
    ctx: &Ctx<'_>,
    settings: &ChatSettings,
    chat: &ChatId,
    id: &GameId,
) -> Option<Button> {
    let config = &ctx.inner.config;
    let (key, action) = match chat.platform {
        // Telegram's private chats have the user's (positive) id, groups negative ones.
        Platform::Telegram if chat.id.parse::<i64>().is_ok_and(|id| id > 0) => (
            "button-open-board",
            ButtonAction::App(config.game_link(id)?),
        ),
        Platform::Telegram => (
            "button-open-board",
            ButtonAction::Link(config.mini_app_link(id)?),
        ),
        Platform::Discord => {
            config.web_secret.as_ref()?;
            config.public_url.as_ref()?;
            (
                "button-play-on-board",
                ButtonAction::PlayOnBoard(id.clone()),
            )
        }
        Platform::Local => return None,
    };
    Some(Button {
        label: ctx.say_in(settings.language, &Sentence::new(key)),
        action,
        deep_link_accept: false,
    })
}

/// The board `stale` has a newer board under it: its buttons are greyed out (Discord) or
/// taken away (Telegram), with an edit in the chat's stale-button lane that goes out only
/// when the chat has room to spare, so it never holds back a board (a fast game in a
/// Telegram group may leave older boards as they are until it slows down; a press there
/// is answered with the game as it stands). `buttons` are the ones the edit shows greyed,
/// as the board had them; links among them stay usable.
pub(crate) async fn grey_out(
    ctx: &mut Ctx<'_>,
    chat: &ChatId,
    game: &GameId,
    stale: OutboxId,
    buttons: Vec<Button>,
) -> Step {
    // An older release still sharing the store could not read the edit: old boards keep
    // their buttons until the upgrade is finalized (a press there is still checked).
    if buttons.is_empty() || !button_edits_allowed(ctx) {
        return Ok(());
    }
    let edit = Message::text(
        Destination::StaleButtons(chat.clone()),
        MessageKind::Board,
        String::new(),
    )
    .about(game)
    .with_buttons(buttons)
    .replacing(Some(stale));
    ctx.post(edit, None).await?;
    Ok(())
}

/// Whether every process sharing the store reads stale-button and buttons-only edits (not
/// during a rolling upgrade from the release before them, `jieqi_store::fleet`).
pub(crate) fn button_edits_allowed(ctx: &Ctx<'_>) -> bool {
    ctx.inner.store.fleet() >= crate::store::fleet::since::DEFERRED_AND_BUTTON_EDITS
}

/// The Rematch button under a finished game's result in its own chat (`commands/rematch.rs`
/// answers it): none for a tournament's games, which the event pairs.
pub(crate) async fn rematch_button(
    ctx: &Ctx<'_>,
    settings: &ChatSettings,
    record: &crate::store::GameRecord,
) -> Step<Option<Button>> {
    if crate::tournament_play::tournament_of(ctx, record)
        .await?
        .is_some()
    {
        return Ok(None);
    }
    Ok(Some(Button {
        label: ctx.say_in(settings.language, &Sentence::new("button-rematch")),
        action: ButtonAction::Rematch(record.id.clone()),
        deep_link_accept: false,
    }))
}
