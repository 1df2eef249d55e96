//! `/board [id]`: posts the current public board of this chat's game to the chat again
//! (through the outbox, like every board), at most once per game and chat every
//! [`REPOST_EVERY`] seconds so it cannot flood a chat; a refusal says when to ask again. A
//! player asking where answers are private (Discord) also gets their personal link to the
//! web board.

use jieqi_rules::Viewer;

use super::{chat_game, optional_game};
use crate::announce::{move_number, move_text, our_seat, player_label, public_picture};
use crate::context::{Ctx, Sentence, Step, refuse};
use crate::ids::GameId;
use crate::message::{Destination, Message, MessageKind};
use crate::store::UnixTime;

/// Seconds between two reposts of one game's board in one chat.
const REPOST_EVERY: UnixTime = 30;

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
        ctx.lock_game(&record.id).await;
        let Some(mut loaded) = ctx.load_game(&record.id).await? else {
            return refuse(Sentence::new("refuse-no-such-game").arg("game", record.id.as_str()));
        };
        let chat = ctx.chat_id()?.clone();
        let reposts = &mut loaded.record.prompts.board_reposts;
        if let Some(&(_, at)) = reposts.iter().find(|(c, _)| *c == chat) {
            let again = at.saturating_add(REPOST_EVERY);
            if again > ctx.now {
                return refuse(
                    Sentence::new("refuse-board-too-soon")
                        .arg("game", loaded.record.id.as_str())
                        .arg("seconds", again - ctx.now),
                );
            }
        }
        reposts.retain(|(c, _)| *c != chat);
        reposts.push((chat.clone(), ctx.now));
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
        let message = Message::text(Destination::Chat(chat), MessageKind::Board, text)
            .about(&loaded.record.id)
            .with_mentions(mentions);
        ctx.post_picture(message, picture, None).await?;
        // A player also gets their personal link to the web board, where only they see it.
        if let Some(link) = super::board_link::private_board_link(ctx, &loaded.record) {
            ctx.reply(link);
        }
        ctx.save_loaded(loaded);
        Ok(())
    }
}
