//! `/resign [id]` (and the Resign button): the caller gives up their game, once they
//! confirm. The first `/resign` (or press) answers privately with a confirm button; a second
//! `/resign` within a minute, or the confirm button, resigns. The pending question is kept
//! with the game, so the confirmation works across processes and restarts.

use super::{my_running_game, optional_game, refuse_old_board};
use crate::context::{Ctx, Sentence, Step};
use crate::ids::GameId;
use crate::lifecycle::{apply_ending, finish_game};
use crate::message::{Button, Destination, Message, MessageKind};
use crate::request::ButtonAction;
use crate::store::Ending;

/// How long a first `/resign` waits for the second.
const CONFIRM_WITHIN: u64 = 60;

#[derive(Debug)]
pub(crate) struct Resign {
    pub(crate) game: Option<GameId>,
    /// Pressed the confirm button (no question asked again).
    pub(crate) confirmed: bool,
    /// Pressed under the board after this many plies (a board's Resign button).
    pub(crate) board: Option<u32>,
}

impl Resign {
    pub(crate) fn parse(args: &[&str]) -> Result<Resign, Sentence> {
        Ok(Resign {
            game: optional_game(args, "/resign <id>")?,
            confirmed: false,
            board: None,
        })
    }

    pub(crate) async fn apply(&self, ctx: &mut Ctx<'_>) -> Step {
        let (mut loaded, seat) =
            my_running_game(ctx, self.game.as_ref(), "/resign <id>", false).await?;
        refuse_old_board(ctx, &loaded, self.board).await?;
        let asked_lately = loaded
            .record
            .prompts
            .resign_asked
            .iter()
            .any(|&(by, at)| by == seat && ctx.now.saturating_sub(at) <= CONFIRM_WITHIN);
        if self.confirmed || asked_lately {
            loaded.record.prompts.resign_asked.clear();
            loaded.record.ending = Some(Ending::Resigned(seat));
            apply_ending(&loaded.record, &mut loaded.game);
            return finish_game(ctx, loaded).await;
        }
        let id = loaded.record.id.clone();
        let asked = &mut loaded.record.prompts.resign_asked;
        asked.retain(|&(by, _)| by != seat);
        asked.push((seat, ctx.now));
        ctx.save_loaded(loaded);
        let text = ctx.say(&Sentence::new("resign-confirm").arg("game", id.as_str()));
        let button = Button {
            label: ctx.say(&Sentence::new("button-resign-confirm")),
            action: ButtonAction::ResignConfirm(id.clone()),
            deep_link_accept: false,
        };
        ctx.reply(
            Message::text(
                Destination::ReplyToRequester { ephemeral: true },
                MessageKind::Notice,
                text,
            )
            .about(&id)
            .with_buttons(vec![button]),
        );
        Ok(())
    }
}
