//! `/board [id]`: shows the current public board of this chat's game (a reply in the chat).

use jieqi_rules::Viewer;

use super::{chat_game, optional_game};
use crate::announce::{move_number, move_text, our_seat, player_label, public_picture};
use crate::context::{Ctx, Sentence, Step, refuse};
use crate::ids::GameId;
use crate::message::{Destination, Message, MessageKind};
use crate::store::ImageRecipe;

#[derive(Debug)]
pub(crate) struct Board {
    game: Option<GameId>,
}

impl Board {
    pub(crate) fn parse(args: &[&str]) -> Result<Board, Sentence> {
        Ok(Board {
            game: optional_game(args, "/board <id>")?,
        })
    }

    pub(crate) async fn apply(&self, ctx: &mut Ctx<'_>) -> Step {
        let record = chat_game(ctx, self.game.as_ref(), true, "/board <id>").await?;
        let Some(loaded) = ctx.load_game(&record.id).await? else {
            return refuse(Sentence::new("refuse-no-such-game").arg("game", record.id.as_str()));
        };
        let settings = ctx.settings();
        let lang = settings.language;
        let ply = loaded.game.ply();
        let mut text = ctx.say_in(
            lang,
            &Sentence::new("board-repost")
                .arg("game", loaded.record.id.as_str())
                .arg(
                    "first",
                    player_label(ctx, lang, &loaded, crate::store::Seat::First),
                )
                .arg(
                    "second",
                    player_label(ctx, lang, &loaded, crate::store::Seat::Second),
                )
                .arg("plies", ply),
        );
        if ply > 0 {
            text.push('\n');
            text.push_str(
                &ctx.say_in(
                    lang,
                    &Sentence::new("board-last-move")
                        .arg("number", move_number(ply - 1))
                        .arg(
                            "move",
                            move_text(&loaded.game, ply - 1, settings.notation, Viewer::Public),
                        ),
                ),
            );
        }
        let mut mentions = Vec::new();
        match loaded.game.outcome() {
            Some(outcome) => {
                text.push('\n');
                text.push_str(&crate::announce::outcome_text(ctx, lang, &loaded, outcome));
            }
            None => {
                let seat = our_seat(loaded.game.seat_to_move());
                text.push('\n');
                text.push_str(
                    &ctx.say_in(
                        lang,
                        &Sentence::new("board-to-move")
                            .arg("player", player_label(ctx, lang, &loaded, seat)),
                    ),
                );
                if let Some(deadline) = crate::lifecycle::deadline_line(ctx, lang, &loaded.record) {
                    text.push(' ');
                    text.push_str(&deadline);
                }
                if !crate::lifecycle::is_engine_seat(&loaded.record, seat) {
                    mentions.push(loaded.record.player(seat).id.clone());
                }
            }
        }
        let picture = public_picture(ctx, &loaded, &settings);
        ctx.reply_with_picture(
            Message::text(
                Destination::ReplyToRequester { ephemeral: false },
                MessageKind::Board,
                text,
            )
            .about(&loaded.record.id)
            .with_mentions(mentions),
            picture.image,
            ImageRecipe::Board(picture.spec),
        );
        Ok(())
    }
}
