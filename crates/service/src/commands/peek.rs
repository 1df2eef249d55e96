//! `/peek [id]`: the caller's own view of their game (what they alone know, such as the
//! covered pieces they captured), privately: an ephemeral reply on Discord, a DM elsewhere.

use jieqi_rules::Viewer;

use super::{my_game, optional_game};
use crate::announce::side_of;
use crate::context::{Ctx, Sentence, Step, refuse};
use crate::ids::{GameId, Platform};
use crate::message::{Destination, Message, MessageKind};
use crate::settings::ChatSettings;
use crate::store::ImageRecipe;

#[derive(Debug)]
pub(crate) struct Peek {
    game: Option<GameId>,
}

impl Peek {
    pub(crate) fn parse(args: &[&str]) -> Result<Peek, Sentence> {
        Ok(Peek {
            game: optional_game(args, "/peek <id>")?,
        })
    }

    pub(crate) async fn apply(&self, ctx: &mut Ctx<'_>) -> Step {
        let found = my_game(ctx, self.game.as_ref(), "/peek <id>", false).await?;
        let Some(loaded) = ctx.load_game(&found.id).await? else {
            return refuse(Sentence::new("refuse-no-such-game").arg("game", found.id.as_str()));
        };
        let request = ctx.req()?;
        let Some(seat) = loaded.record.seat_of(&request.user.id) else {
            return refuse(Sentence::new("refuse-not-a-player").arg("game", found.id.as_str()));
        };
        let Some(side) = side_of(&loaded.game, seat) else {
            // Banqi before the first flip: nobody knows anything yet.
            return refuse(Sentence::new("refuse-peek-no-colour"));
        };
        let chat_settings = ctx.chat_record(&loaded.record.chat).await?.settings;
        let lang = Ctx::lang_of(&request.user, chat_settings.language);
        let settings = ChatSettings {
            language: lang,
            ..chat_settings
        };
        let view = loaded.game.view(Viewer::Player(side));
        let text = ctx.say_in(
            lang,
            &Sentence::new("peek-text")
                .arg("game", found.id.as_str())
                .arg(
                    "side",
                    ctx.say_in(lang, &Sentence::new(crate::announce::side_key(side))),
                )
                .arg("fen", view.fen.clone()),
        );
        let personal = crate::announce::personal_settings(ctx, &request.user.id).await?;
        let picture = crate::announce::private_picture(ctx, personal, &loaded, side, &settings);
        let private = request.is_private_chat || request.chat.platform == Platform::Discord;
        if private {
            let ephemeral = !request.is_private_chat;
            ctx.reply_with_picture(
                Message::text(
                    Destination::ReplyToRequester { ephemeral },
                    MessageKind::Peek,
                    text,
                )
                .about(&found.id),
                picture.image,
                ImageRecipe::Board(picture.spec),
            );
        } else {
            let message = Message::text(
                Destination::Private(request.user.id.clone()),
                MessageKind::Peek,
                text,
            )
            .about(&found.id);
            ctx.post_picture(message, picture, Some(request.chat.clone()))
                .await?;
            ctx.reply_text(
                MessageKind::Notice,
                true,
                &Sentence::new("peek-sent-privately"),
            );
        }
        Ok(())
    }
}
