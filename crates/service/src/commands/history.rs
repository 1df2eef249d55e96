//! `/history [id]`: the move record and public FEN; for a finished game also the full record
//! with the deal and an animated GIF of the game.

use jieqi_render::RenderOptions;
use jieqi_rules::{Game, GameDeal, Rules, Variant, View, Viewer};

use super::{chat_game, optional_game};
use crate::announce::{full_record_text, outcome_text, player_label, record_text};
use crate::context::{Ctx, LoadedGame, Sentence, Step, refuse};
use crate::ids::GameId;
use crate::lifecycle::apply_ending;
use crate::message::{Destination, Image, Message, MessageKind};
use crate::store::{GameRecord, Seat};

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

    pub(crate) fn apply(&self, ctx: &mut Ctx<'_>) -> Step {
        let record = chat_game(ctx, self.game.as_ref(), true, "/history <id>")?;
        let Some(loaded) = ctx.load_game(&record.id)? else {
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
                text.push_str(
                    &ctx.say(
                        &Sentence::new("result-proof")
                            .arg("deal", &loaded.record.deal)
                            .arg("salt", &loaded.record.salt)
                            .arg("commitment", &loaded.record.commitment),
                    ),
                );
            }
        }
        let reply = |text, image| {
            Message::text(
                Destination::ReplyToRequester { ephemeral: false },
                MessageKind::History,
                text,
            )
            .about(&loaded.record.id)
            .with_image(image)
        };
        ctx.reply(reply(text, None));
        if outcome.is_some() && loaded.game.history_len() > 0 {
            let gif = animation(ctx, &loaded, &settings);
            if gif.is_some() {
                let caption = ctx.say(&Sentence::new("history-gif").arg("game", id));
                ctx.reply(reply(caption, gif));
            }
        }
        Ok(())
    }
}

/// The public view after each ply of a finished game (the last with the deal, if public).
fn public_views(record: &GameRecord) -> Option<Vec<View>> {
    let deal = GameDeal::from_letters(record.variant, &record.deal).ok()?;
    let mut game = Game::new(Rules::new(record.variant, record.preset), deal).ok()?;
    let mut views = vec![game.view(Viewer::Public)];
    for stored in &record.moves {
        // The stored form carries what the move revealed; a player's form is the move alone.
        let typed = match record.variant {
            Variant::Banqi => stored.split('=').next().unwrap_or(stored),
            _ => stored.get(..4).unwrap_or(stored),
        };
        game.play_text(typed).ok()?;
        views.push(game.view(Viewer::Public));
    }
    apply_ending(record, &mut game);
    if let Some(last) = views.last_mut() {
        *last = game.view(Viewer::Public);
    }
    Some(views)
}

fn animation(
    ctx: &Ctx<'_>,
    loaded: &LoadedGame,
    settings: &crate::settings::ChatSettings,
) -> Option<Image> {
    let views = public_views(&loaded.record)?;
    let options = RenderOptions {
        width: ctx.inner.config.board_width,
        orientation: settings.orientation.side(),
        style: settings.style.piece_style(),
    };
    match jieqi_render::render_gif(&views, &options) {
        Ok(bytes) => Some(Image {
            bytes,
            file_name: format!("{}.gif", loaded.record.id),
        }),
        Err(e) => {
            tracing::warn!(error = %e, "a game animation could not be drawn");
            None
        }
    }
}
