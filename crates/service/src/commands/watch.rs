//! `/watch <id>`: this chat gets that game's public board updates too (spectating a game of
//! another chat).

use super::optional_game;
use crate::announce::public_picture;
use crate::context::{Ctx, Sentence, Step, refuse};
use crate::ids::GameId;
use crate::message::{Destination, Message, MessageKind};
use crate::store::ImageRecipe;

#[derive(Debug)]
pub(crate) struct Watch {
    game: GameId,
}

impl Watch {
    pub(crate) fn parse(args: &[&str]) -> Result<Watch, Sentence> {
        match optional_game(args, "/watch <id>")? {
            Some(game) => Ok(Watch { game }),
            None => Err(Sentence::new("refuse-usage").arg("usage", "/watch <id>")),
        }
    }

    pub(crate) async fn apply(&self, ctx: &mut Ctx<'_>) -> Step {
        let chat_id = ctx.chat_id()?.clone();
        ctx.lock_game(&self.game).await;
        let Some(mut loaded) = ctx.load_game(&self.game).await? else {
            return refuse(Sentence::new("refuse-no-such-game").arg("game", self.game.as_str()));
        };
        if !loaded.record.is_active() {
            return refuse(Sentence::new("refuse-watch-finished").arg("game", self.game.as_str()));
        }
        if loaded.record.chat == chat_id {
            return refuse(Sentence::new("refuse-watch-home").arg("game", self.game.as_str()));
        }
        if loaded.record.watchers.contains(&chat_id) {
            return refuse(
                Sentence::new("refuse-already-watching").arg("game", self.game.as_str()),
            );
        }
        loaded.record.watchers.push(chat_id.clone());
        let mut chat = ctx.chat_record(&chat_id).await?;
        chat.watching.push(self.game.clone());
        let settings = chat.settings;
        ctx.save_chat(chat);
        let text = ctx.say(
            &Sentence::new("watch-started")
                .arg("game", self.game.as_str())
                .arg("first", &loaded.record.first.name)
                .arg("second", &loaded.record.second.name),
        );
        let picture = public_picture(ctx, &loaded, &settings);
        let link = crate::board_buttons::page_link(ctx, &settings, &self.game, "button-watch-live");
        ctx.reply_with_picture(
            Message::text(
                Destination::ReplyToRequester { ephemeral: false },
                MessageKind::Board,
                text,
            )
            .about(&self.game)
            .with_buttons(link.into_iter().collect()),
            picture.image,
            ImageRecipe::Board(picture.spec),
        );
        ctx.save_loaded(loaded);
        Ok(())
    }
}
