//! `/history [id]`: the move record and public FEN; for a finished game also the full record
//! with the deal, an animated GIF of the game and its PGN (Xiangqi and Jieqi).

use jieqi_rules::{Variant, Viewer};

use super::{chat_game, optional_game};
use crate::announce::{full_record_text, outcome_text, player_label, record_text};
use crate::context::{Ctx, Sentence, Step, refuse};
use crate::ids::GameId;
use crate::message::{Destination, Message, MessageKind};
use crate::pictures::animation;
use crate::store::{ImageRecipe, Seat};

#[derive(Debug)]
pub(crate) struct History {
    game: Option<GameId>,
}

impl History {
    pub(crate) fn parse(args: &[&str]) -> Result<History, Sentence> {
        Ok(History {
            game: optional_game(args, "/history <id>")?,
        })
    }

    pub(crate) async fn apply(&self, ctx: &mut Ctx<'_>) -> Step {
        let record = chat_game(ctx, self.game.as_ref(), true, "/history <id>").await?;
        let Some(loaded) = ctx.load_game(&record.id).await? else {
            return refuse(Sentence::new("refuse-no-such-game").arg("game", record.id.as_str()));
        };
        let settings = ctx.settings();
        let lang = settings.language;
        let id = loaded.record.id.as_str();
        let mut text = ctx.say(
            &Sentence::new("history-head")
                .arg("game", id)
                .arg("first", player_label(ctx, lang, &loaded, Seat::First))
                .arg("second", player_label(ctx, lang, &loaded, Seat::Second)),
        );
        text.push('\n');
        text.push_str(&crate::announce::game_terms(ctx, lang, &loaded.record));
        let outcome = loaded.game.outcome();
        let deal_public = outcome.is_some()
            && loaded.game.rules().reveal_deal_at_end
            && loaded.record.variant != Variant::Xiangqi;
        let moves = if deal_public {
            full_record_text(&loaded.record)
        } else {
            record_text(&loaded.game, settings.notation, Viewer::Public)
        };
        text.push('\n');
        text.push_str(&ctx.say(&Sentence::new("history-moves").arg("moves", moves)));
        text.push('\n');
        text.push_str(
            &ctx.say(&Sentence::new("history-fen").arg("fen", loaded.game.fen(Viewer::Public))),
        );
        if let Some(outcome) = outcome {
            text.push('\n');
            text.push_str(&outcome_text(ctx, lang, &loaded, outcome));
            if deal_public {
                text.push('\n');
                text.push_str(&crate::announce::deal_proof(ctx, lang, &loaded.record));
            }
        }
        let reply = |text| {
            Message::text(
                Destination::ReplyToRequester { ephemeral: false },
                MessageKind::History,
                text,
            )
            .about(&loaded.record.id)
        };
        ctx.reply(reply(text));
        if outcome.is_some() && loaded.game.history_len() > 0 {
            let width = ctx.inner.config.board_width;
            let gif = animation(&loaded.record, settings.orientation, settings.style, width);
            if gif.is_some() {
                let caption = ctx.say(&Sentence::new("history-gif").arg("game", id));
                let recipe = ImageRecipe::Animation {
                    game: loaded.record.id.clone(),
                    orientation: settings.orientation,
                    style: settings.style,
                    width,
                };
                ctx.reply_with_picture(reply(caption), gif, recipe);
            }
            // The record other programs read: a Xiangqi game any Xiangqi program, a Jieqi
            // game (its variant tag and deal) only those that know Jieqi.
            let pgn = crate::pictures::pgn_file(ctx.inner.store.as_ref(), &loaded.record).await?;
            if pgn.is_some() {
                let key = match loaded.record.variant {
                    Variant::Jieqi => "history-pgn-jieqi",
                    _ => "history-pgn",
                };
                let caption = ctx.say(&Sentence::new(key).arg("game", id));
                let recipe = ImageRecipe::Pgn {
                    game: loaded.record.id.clone(),
                };
                ctx.reply_with_picture(reply(caption), pgn, recipe);
            }
        }
        Ok(())
    }
}
