//! `/leaderboard [variant] [speed]`: this chat's players by Glicko-2 rating in one variant
//! (Jieqi unless named), in one speed if named, else in every speed someone here has rated
//! games in, fastest first.

use jieqi_clock::Speed;
use jieqi_rules::Variant;

use crate::announce::variant_key;
use crate::context::{Ctx, Sentence, Step};
use crate::message::MessageKind;
use crate::rated_games::{parse_speed, speed_key};
use crate::store::VariantStats;

/// Rows shown per speed.
const TOP: usize = 10;

#[derive(Debug)]
pub(crate) struct Leaderboard {
    variant: Variant,
    /// One speed, or every speed played.
    speed: Option<Speed>,
}

impl Leaderboard {
    /// A variant and a speed, each optional, in either order.
    pub(crate) fn parse(args: &[&str]) -> Result<Leaderboard, Sentence> {
        let mut board = Leaderboard {
            variant: Variant::Jieqi,
            speed: None,
        };
        let (mut variant_named, mut speed_named) = (false, false);
        let twice = || Sentence::new("refuse-usage").arg("usage", "/leaderboard jieqi blitz");
        for word in args {
            if let Ok(variant) = word.parse::<Variant>() {
                if std::mem::replace(&mut variant_named, true) {
                    return Err(twice());
                }
                board.variant = variant;
            } else if let Some(speed) = parse_speed(word) {
                if std::mem::replace(&mut speed_named, true) {
                    return Err(twice());
                }
                board.speed = Some(speed);
            } else {
                return Err(
                    Sentence::new("refuse-leaderboard-word").arg("word", super::shown(word))
                );
            }
        }
        Ok(board)
    }

    pub(crate) async fn apply(&self, ctx: &mut Ctx<'_>) -> Step {
        let chat = ctx.chat_record(ctx.chat_id()?).await?;
        let mut players = Vec::new();
        for user in &chat.players {
            if let Some(player) = ctx.player_record_by_id(user).await? {
                players.push(player);
            }
        }
        let speeds: Vec<Speed> = match self.speed {
            Some(speed) => vec![speed],
            None => Speed::ALL.to_vec(),
        };
        let mut tables: Vec<(Speed, Vec<(String, VariantStats)>)> = Vec::new();
        for speed in speeds {
            let mut rows: Vec<(String, VariantStats)> = players
                .iter()
                .map(|p| (p.name.clone(), p.rating(self.variant, speed)))
                .filter(|(_, stats)| stats.games() > 0)
                .collect();
            rows.sort_by(|a, b| b.1.rating.total_cmp(&a.1.rating));
            if !rows.is_empty() {
                tables.push((speed, rows));
            }
        }
        let variant = ctx.say(&Sentence::new(variant_key(self.variant)));
        let mut text = ctx.say(&Sentence::new("leaderboard-head").arg("variant", variant.as_str()));
        if tables.is_empty() {
            text.push('\n');
            let empty = match self.speed {
                Some(speed) => Sentence::new("leaderboard-empty-speed")
                    .arg("variant", variant)
                    .arg("speed", ctx.say(&Sentence::new(speed_key(speed)))),
                None => Sentence::new("leaderboard-empty").arg("variant", variant),
            };
            text.push_str(&ctx.say(&empty));
        }
        for (speed, rows) in tables {
            text.push('\n');
            text.push_str(
                &ctx.say(
                    &Sentence::new("leaderboard-speed")
                        .arg("speed", ctx.say(&Sentence::new(speed_key(speed)))),
                ),
            );
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
        }
        ctx.reply(crate::message::Message::text(
            crate::message::Destination::ReplyToRequester { ephemeral: false },
            MessageKind::Listing,
            text,
        ));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_variant_and_a_speed_read_in_either_order() {
        let board = Leaderboard::parse(&["blitz", "xiangqi"]).unwrap();
        assert_eq!(
            (board.variant, board.speed),
            (Variant::Xiangqi, Some(Speed::Blitz))
        );
        let board = Leaderboard::parse(&[]).unwrap();
        assert_eq!((board.variant, board.speed), (Variant::Jieqi, None));
        let board = Leaderboard::parse(&["Correspondence"]).unwrap();
        assert_eq!(board.speed, Some(Speed::Correspondence));
        assert!(Leaderboard::parse(&["chess"]).is_err());
        assert!(Leaderboard::parse(&["blitz", "rapid"]).is_err());
    }
}
