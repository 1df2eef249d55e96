//! `/play bot [level] [variant] [colour] [preset] [secret-captures] [time]`: a game against
//! the built-in engine in this chat (`/play bot 3+2`: on a game clock; see `challenge.rs`). Options come in any order (the word `bot` may be left out, as Discord's `/play`
//! does); the level defaults to casual, the variant to Jieqi, the colour to a coin toss.
//! Games against the engine are not rated.

use jieqi_engine::Level;
use jieqi_rules::Variant;
use jieqi_rules::game::Preset;

use super::challenge::{Time, colour, is_time, read_time};
use crate::context::{Ctx, Sentence, Step, refuse};
use crate::ids::User;
use crate::ids::engine_user_id;
use crate::lifecycle::start_game;
use crate::store::{ChallengeRecord, ColourChoice};

/// The level when none is named.
const DEFAULT_LEVEL: Level = Level::Casual;

#[derive(Debug, Default)]
pub(crate) struct Play {
    level: Option<Level>,
    variant: Option<Variant>,
    colour: Option<ColourChoice>,
    preset: Option<Preset>,
    secret_captures: bool,
    time: Option<Time>,
}

impl Play {
    pub(crate) fn parse(args: &[&str]) -> Result<Play, Sentence> {
        let options = match args.split_first() {
            Some((first, rest)) if first.eq_ignore_ascii_case("bot") => rest,
            // Only the engine can be played this way; people are challenged.
            Some((first, _)) if first.starts_with('@') => {
                return Err(Sentence::new("refuse-play-usage"));
            }
            _ => args,
        };
        let mut play = Play::default();
        for arg in options {
            let word = arg.to_lowercase();
            if let Ok(level) = word.parse::<Level>() {
                play.level = Some(level);
            } else if let Ok(variant) = word.parse::<Variant>() {
                play.variant = Some(variant);
            } else if let Ok(preset) = word.parse::<Preset>() {
                play.preset = Some(preset);
            } else if word == crate::store::records::SECRET_CAPTURES {
                play.secret_captures = true;
            } else if let Some(colour) = colour(&word) {
                play.colour = Some(colour);
            } else if is_time(&word) {
                play.time = Some(read_time(arg)?);
            } else {
                return Err(Sentence::new("refuse-play-option").arg("option", super::shown(arg)));
            }
        }
        Ok(play)
    }

    pub(crate) async fn apply(&self, ctx: &mut Ctx<'_>) -> Step {
        let request = ctx.req()?;
        let human = &request.user;
        ctx.lock_chat(&request.chat).await;
        let chat = ctx.chat_record(&request.chat).await?;
        for id in &chat.games {
            if let Some(game) = ctx.game_record(id).await?
                && game.is_active()
                && game.engine.is_some()
                && game.seat_of(&human.id).is_some()
            {
                return refuse(Sentence::new("refuse-play-has-game").arg("game", game.id.as_str()));
            }
        }
        let control = match self.time {
            Some(Time::Live(control)) => Some(control),
            _ => None,
        };
        if control.is_some() && !crate::live_clock::fleet_reads_clocks(ctx) {
            return refuse(Sentence::new("refuse-clock-not-yet"));
        }
        let move_time = match self.time {
            Some(Time::PerMove(time)) => time,
            _ => ctx.inner.config.default_move_time,
        };
        let level = self.level.unwrap_or(DEFAULT_LEVEL);
        let lang = chat.settings.language;
        let engine = User::new(
            engine_user_id(request.chat.platform),
            ctx.say_in(
                lang,
                &Sentence::new("engine-name").arg("level", level.name()),
            ),
        );
        // The same terms a challenge carries; it is never stored, the game starts at once.
        let terms = ChallengeRecord {
            id: ctx.inner.challenge_id(),
            revision: 0,
            chat: request.chat.clone(),
            challenger: human.clone(),
            challenged: Some(engine.clone()),
            variant: self.variant.unwrap_or(Variant::Jieqi),
            preset: self.preset.unwrap_or_default(),
            colour: self.colour.unwrap_or_default(),
            move_time: crate::announce::seconds(move_time),
            created_at: ctx.now,
            expires_at: ctx.now,
            post: None,
            text: String::new(),
            secret_captures: self.secret_captures,
            control,
        };
        let seed = ctx.inner.engine_seed();
        start_game(ctx, &terms, &engine, Some((level, seed))).await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn play_reads_level_variant_and_colour_in_any_order() {
        let p = Play::parse(&["bot", "club", "jieqi", "red"]).unwrap();
        assert_eq!(p.level, Some(Level::Club));
        assert_eq!(p.variant, Some(Variant::Jieqi));
        assert_eq!(p.colour, Some(ColourChoice::Red));
        let p = Play::parse(&["BOT", "black", "xiangqi", "master"]).unwrap();
        assert_eq!(p.level, Some(Level::Master));
        assert_eq!(p.variant, Some(Variant::Xiangqi));
        assert_eq!(p.colour, Some(ColourChoice::Black));
        let p = Play::parse(&["bot"]).unwrap();
        assert_eq!((p.level, p.variant, p.colour), (None, None, None));
        // Discord's `/play level:club` sends no `bot`.
        let p = Play::parse(&["club"]).unwrap();
        assert_eq!(p.level, Some(Level::Club));
        assert!(Play::parse(&[]).is_ok());
    }

    #[test]
    fn play_takes_a_game_clock() {
        let p = Play::parse(&["bot", "3+2", "club"]).unwrap();
        assert_eq!(p.time, Some(Time::Live("3+2".parse().unwrap())));
        assert_eq!(p.level, Some(Level::Club));
        let p = Play::parse(&["rapid"]).unwrap();
        assert_eq!(p.time, Some(Time::Live("10+5".parse().unwrap())));
        assert_eq!(
            Play::parse(&["bot", "3+"]).unwrap_err().key,
            "refuse-challenge-time"
        );
    }

    #[test]
    fn play_refuses_people_and_unknown_options() {
        assert_eq!(
            Play::parse(&["@alice"]).unwrap_err().key,
            "refuse-play-usage"
        );
        assert_eq!(
            Play::parse(&["alice"]).unwrap_err().key,
            "refuse-play-option"
        );
        assert_eq!(
            Play::parse(&["bot", "grandmaster"]).unwrap_err().key,
            "refuse-play-option"
        );
    }
}
