//! `/draw [id]` (and the draw button): offers a draw, or accepts the opponent's offer. An
//! offer stands until the opponent accepts it or makes a move.

use super::{my_running_game, optional_game, refuse_old_board};
use crate::context::{Ctx, Sentence, Step, refuse};
use crate::ids::GameId;
use crate::lifecycle::{apply_ending, finish_game, settle_draw_offer};
use crate::message::{Button, Destination, Message, MessageKind};
use crate::request::ButtonAction;
use crate::store::{DrawOffer, Ending};

#[derive(Debug)]
pub(crate) struct Draw {
    pub(crate) game: Option<GameId>,
    /// Pressed under the board after this many plies (a board's draw button).
    pub(crate) board: Option<u32>,
}

impl Draw {
    pub(crate) fn parse(args: &[&str]) -> Result<Draw, Sentence> {
        Ok(Draw {
            game: optional_game(args, "/draw <id>")?,
            board: None,
        })
    }

    pub(crate) async fn apply(&self, ctx: &mut Ctx<'_>) -> Step {
        let (mut loaded, seat) =
            my_running_game(ctx, self.game.as_ref(), "/draw <id>", false).await?;
        refuse_old_board(ctx, &loaded, self.board).await?;
        let user = ctx.user()?;
        match &loaded.record.draw_offer {
            Some(offer) if offer.by == seat => refuse(
                Sentence::new("refuse-draw-already-offered")
                    .arg("player", &loaded.record.player(!seat).name),
            ),
            Some(_) => {
                settle_draw_offer(ctx, &mut loaded, "draw-offer-accepted").await?;
                loaded.record.ending = Some(Ending::DrawAgreed);
                apply_ending(&loaded.record, &mut loaded.game);
                finish_game(ctx, loaded).await
            }
            None => {
                let chat = loaded.record.chat.clone();
                let lang = ctx.chat_record(&chat).await?.settings.language;
                let opponent = loaded.record.player(!seat).clone();
                let text = ctx.say_in(
                    lang,
                    &Sentence::new("draw-offered")
                        .arg("game", loaded.record.id.as_str())
                        .arg("player", &user.name)
                        .arg("opponent", &opponent.name),
                );
                let message = Message::text(Destination::Chat(chat), MessageKind::DrawOffer, text)
                    .about(&loaded.record.id)
                    .with_buttons(vec![Button {
                        label: ctx.say_in(lang, &Sentence::new("button-accept-draw")),
                        action: ButtonAction::OfferDraw(loaded.record.id.clone()),
                        deep_link_accept: false,
                    }])
                    .with_mentions(
                        // The engine is nobody to ping (and plays on: its move declines).
                        if crate::lifecycle::is_engine_seat(&loaded.record, !seat) {
                            Vec::new()
                        } else {
                            vec![opponent.id.clone()]
                        },
                    );
                let post = ctx.post(message, None).await?;
                loaded.record.draw_offer = Some(DrawOffer {
                    by: seat,
                    post: Some(post),
                });
                ctx.save_loaded(loaded);
                Ok(())
            }
        }
    }
}
