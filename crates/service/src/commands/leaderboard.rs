//! `/leaderboard [variant]`: this chat's players by Glicko-2 rating in one variant.

use jieqi_rules::Variant;

use crate::announce::variant_key;
use crate::context::{Ctx, Sentence, Step};
use crate::message::MessageKind;

/// Rows shown.
const TOP: usize = 10;

#[derive(Debug)]
pub(crate) struct Leaderboard {
    variant: Variant,
}

impl Leaderboard {
    pub(crate) fn parse(args: &[&str]) -> Result<Leaderboard, Sentence> {
        match args {
            [] => Ok(Leaderboard {
                variant: Variant::Jieqi,
            }),
            [name] => name
                .parse()
                .map(|variant| Leaderboard { variant })
                .map_err(|_| {
                    Sentence::new("refuse-unknown-variant").arg("variant", super::shown(name))
                }),
            _ => Err(Sentence::new("refuse-usage").arg("usage", "/leaderboard jieqi")),
        }
    }

    pub(crate) async fn apply(&self, ctx: &mut Ctx<'_>) -> Step {
        let chat = ctx.chat_record(ctx.chat_id()?).await?;
        let mut rows = Vec::new();
        for user in &chat.players {
            if let Some(player) = ctx.player_record_by_id(user).await? {
                let stats = *player.stats(self.variant);
                if stats.games() > 0 {
                    rows.push((player.name, stats));
                }
            }
        }
        rows.sort_by(|a, b| b.1.rating.total_cmp(&a.1.rating));
        let variant = ctx.say(&Sentence::new(variant_key(self.variant)));
        let mut text = ctx.say(&Sentence::new("leaderboard-head").arg("variant", variant.as_str()));
        if rows.is_empty() {
            text.push('\n');
            text.push_str(&ctx.say(&Sentence::new("leaderboard-empty").arg("variant", variant)));
        }
        for (rank, (name, stats)) in rows.iter().take(TOP).enumerate() {
            text.push('\n');
            text.push_str(
                &ctx.say(
                    &Sentence::new("leaderboard-line")
                        .arg("rank", rank + 1)
                        .arg("player", name)
                        .arg("rating", format!("{:.0}", stats.rating))
                        .arg("games", u64::from(stats.games())),
                ),
            );
        }
        ctx.reply(crate::message::Message::text(
            crate::message::Destination::ReplyToRequester { ephemeral: false },
            MessageKind::Listing,
            text,
        ));
        Ok(())
    }
}
