//! The "Play on the board" button (Discord): answers the player who pressed it, and only
//! them, with a personal link to play the game on its web board (`personal_link`). `/board`
//! adds the same private answer for a player (`private_board_link`).
//!
//! A personal link lets its holder play as that player, so it is given only where nobody
//! else can read it: Discord's ephemeral answers, a private chat, the terminal. In a Telegram
//! group the Mini App's "Open the board" button does the same job without a link.

use crate::context::{Ctx, Sentence, Step, refuse};
use crate::ids::{GameId, Platform};
use crate::message::{Button, Destination, Message, MessageKind};
use crate::personal_link::{PERSONAL_LINK_LIFETIME, PersonalToken};
use crate::request::ButtonAction;
use crate::store::GameRecord;

#[derive(Debug)]
pub(crate) struct BoardLink {
    pub(crate) game: GameId,
}

impl BoardLink {
    pub(crate) async fn apply(&self, ctx: &mut Ctx<'_>) -> Step {
        let Some(record) = ctx.game_record(&self.game).await? else {
            return refuse(Sentence::new("refuse-no-such-game").arg("game", self.game.as_str()));
        };
        let user = ctx.user()?;
        if record.seat_of(&user.id).is_none() {
            return refuse(Sentence::new("refuse-not-a-player").arg("game", record.id.as_str()));
        }
        if !record.is_active() {
            return refuse(Sentence::new("refuse-board-link-over").arg("game", record.id.as_str()));
        }
        if !private_answers(ctx)? {
            return refuse(Sentence::new("refuse-board-link-public"));
        }
        match private_board_link(ctx, &record) {
            Some(message) => {
                ctx.reply(message);
                Ok(())
            }
            None => refuse(Sentence::new("refuse-board-link-off")),
        }
    }
}

/// True where an answer to the requester is seen by them alone: Discord's ephemeral
/// answers, a private chat, the terminal (the requester's own).
fn private_answers(ctx: &Ctx<'_>) -> Step<bool> {
    let request = ctx.req()?;
    Ok(request.is_private_chat
        || matches!(request.chat.platform, Platform::Discord | Platform::Local))
}

/// The requester's personal link to `record`'s board as a private answer, if they play in
/// it, it runs, personal links are set up (`WEB_SECRET`, `PUBLIC_URL`) and the answer can be
/// private; `None` otherwise.
pub(crate) fn private_board_link(ctx: &Ctx<'_>, record: &GameRecord) -> Option<Message> {
    let request = ctx.request?;
    record.seat_of(&request.user.id)?;
    if !record.is_active() || !private_answers(ctx).ok()? {
        return None;
    }
    let config = &ctx.inner.config;
    let secret = config.web_secret.as_ref()?;
    let page = config.game_link(&record.id)?;
    let token = PersonalToken::new(record.id.clone(), request.user.id.clone(), ctx.now);
    let url = format!("{page}#t={}", token.sign(secret));
    let lang = ctx.lang();
    let text = ctx.say_in(
        lang,
        &Sentence::new("board-link-private")
            .arg("game", record.id.as_str())
            .arg("hours", PERSONAL_LINK_LIFETIME.as_secs() / 3600),
    );
    Some(
        Message::text(
            Destination::ReplyToRequester { ephemeral: true },
            MessageKind::Notice,
            text,
        )
        .about(&record.id)
        .with_buttons(vec![Button {
            label: ctx.say_in(lang, &Sentence::new("button-my-board")),
            action: ButtonAction::Link(url),
            deep_link_accept: false,
        }]),
    )
}
