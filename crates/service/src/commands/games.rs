//! `/games`: the games going on in this chat and the caller's games anywhere, with ids.

use super::game_line;
use crate::announce::{our_seat, variant_key};
use crate::context::{Ctx, Sentence, Step};
use crate::ids::GameId;
use crate::message::MessageKind;
use crate::store::GameRecord;

#[derive(Debug)]
pub(crate) struct Games;

impl Games {
    pub(crate) fn parse(args: &[&str]) -> Result<Games, Sentence> {
        if args.is_empty() {
            Ok(Games)
        } else {
            Err(Sentence::new("refuse-usage").arg("usage", "/games"))
        }
    }

    pub(crate) async fn apply(&self, ctx: &mut Ctx<'_>) -> Step {
        let request = ctx.req()?;
        let chat = ctx.chat_record(&request.chat).await?;
        let mine = ctx.player_record(&request.user).await?.games;
        let here = lines(ctx, &chat.games).await?;
        let elsewhere: Vec<GameId> = mine
            .into_iter()
            .filter(|g| !chat.games.contains(g))
            .collect();
        let elsewhere = lines(ctx, &elsewhere).await?;
        let mut text = String::new();
        if here.is_empty() {
            text.push_str(&ctx.say(&Sentence::new("games-none-here")));
        } else {
            text.push_str(&ctx.say(&Sentence::new("games-here")));
            for line in here {
                text.push_str("\n• ");
                text.push_str(&line);
            }
        }
        if !elsewhere.is_empty() {
            text.push('\n');
            text.push_str(&ctx.say(&Sentence::new("games-yours-elsewhere")));
            for line in elsewhere {
                text.push_str("\n• ");
                text.push_str(&line);
            }
        }
        ctx.reply(crate::message::Message::text(
            crate::message::Destination::ReplyToRequester { ephemeral: true },
            MessageKind::Listing,
            text,
        ));
        Ok(())
    }
}

async fn lines(ctx: &Ctx<'_>, ids: &[GameId]) -> Step<Vec<String>> {
    let mut out = Vec::new();
    for id in ids {
        let Some(record) = ctx.game_record(id).await? else {
            continue;
        };
        if !record.is_active() {
            continue;
        }
        out.push(line(ctx, &record));
    }
    Ok(out)
}

fn line(ctx: &Ctx<'_>, record: &GameRecord) -> String {
    let mut line = summary(ctx, record);
    // The live page, when there is one: a link a chat shows as one.
    if let Some(link) = ctx.inner.config.game_link(&record.id) {
        line.push_str(" · ");
        line.push_str(&link);
    }
    line
}

fn summary(ctx: &Ctx<'_>, record: &GameRecord) -> String {
    let to_move = if record.moves.len().is_multiple_of(2) {
        our_seat(jieqi_rules::game::Seat::First)
    } else {
        our_seat(jieqi_rules::game::Seat::Second)
    };
    ctx.say(
        &Sentence::new("games-line")
            .arg("game", game_line(record))
            .arg(
                "variant",
                ctx.say(&Sentence::new(variant_key(record.variant))),
            )
            .arg("plies", record.moves.len())
            .arg("player", &record.player(to_move).name),
    )
}
