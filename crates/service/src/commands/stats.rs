//! `/stats [@user]`: a player's Glicko-2 rating and record per variant in each speed they
//! have rated games in (bullet, blitz, rapid, classical, correspondence), and their puzzle
//! rating with the current and best streak of puzzles solved.

use jieqi_rules::Variant;

use super::mentioned_user;
use crate::announce::variant_key;
use crate::context::{Ctx, Sentence, Step};
use crate::message::MessageKind;
use crate::rated_games::speed_key;

#[derive(Debug)]
pub(crate) struct Stats {
    handle: Option<String>,
}

impl Stats {
    pub(crate) fn parse(args: &[&str]) -> Result<Stats, Sentence> {
        match args {
            [] => Ok(Stats { handle: None }),
            [handle] => Ok(Stats {
                handle: Some(handle.to_string()),
            }),
            _ => Err(Sentence::new("refuse-usage").arg("usage", "/stats @user")),
        }
    }

    pub(crate) async fn apply(&self, ctx: &mut Ctx<'_>) -> Step {
        let request = ctx.req()?;
        let user = match self.handle.as_deref() {
            Some(handle) => mentioned_user(ctx, Some(handle))?.unwrap_or(&request.user),
            None => &request.user,
        };
        let player = ctx.player_record(user).await?;
        let mut text = ctx.say(&Sentence::new("stats-head").arg("player", &user.name));
        let mut any = false;
        for variant in Variant::ALL {
            for (speed, stats) in player.speeds_played(variant) {
                any = true;
                text.push('\n');
                text.push_str(
                    &ctx.say(
                        &Sentence::new("stats-line")
                            .arg("variant", ctx.say(&Sentence::new(variant_key(variant))))
                            .arg("speed", ctx.say(&Sentence::new(speed_key(speed))))
                            .arg("rating", format!("{:.0}", stats.rating))
                            .arg("deviation", format!("{:.0}", stats.deviation))
                            .arg("wins", u64::from(stats.wins))
                            .arg("losses", u64::from(stats.losses))
                            .arg("draws", u64::from(stats.draws)),
                    ),
                );
            }
        }
        let puzzles = &player.puzzle;
        if puzzles.rating.games() > 0 {
            any = true;
            text.push('\n');
            text.push_str(
                &ctx.say(
                    &Sentence::new("stats-puzzles")
                        .arg("rating", format!("{:.0}", puzzles.rating.rating))
                        .arg("deviation", format!("{:.0}", puzzles.rating.deviation))
                        .arg("solved", u64::from(puzzles.rating.wins))
                        .arg("failed", u64::from(puzzles.rating.losses))
                        .arg("streak", u64::from(puzzles.streak))
                        .arg("best", u64::from(puzzles.best_streak)),
                ),
            );
        }
        if !any {
            text.push('\n');
            text.push_str(&ctx.say(&Sentence::new("stats-none")));
        }
        ctx.reply(crate::message::Message::text(
            crate::message::Destination::ReplyToRequester { ephemeral: false },
            MessageKind::Listing,
            text,
        ));
        Ok(())
    }
}
