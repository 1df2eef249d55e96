//! `/challenge [@user] [variant] [colour] [preset] [secret-captures] [time]`: posts a
//! challenge with Accept / Decline buttons. Options come in any order; without a user anyone
//! may accept. `secret-captures` is the "nobody sees" reading: a captured covered piece stays
//! unknown to both players, the capturer too, until the game ends.

use std::time::Duration;

use jieqi_rules::Variant;
use jieqi_rules::game::Preset;

use super::mentioned_user;
use crate::announce::{duration_text, variant_key};
use crate::context::{Ctx, Sentence, Step, refuse};
use crate::message::{Button, Destination, Message, MessageKind};
use crate::request::ButtonAction;
use crate::store::{ChallengeRecord, ColourChoice};

/// Shortest and longest time per move a challenge may ask for.
const MIN_MOVE_TIME: Duration = Duration::from_secs(60);
const MAX_MOVE_TIME: Duration = Duration::from_secs(30 * 24 * 60 * 60);

#[derive(Debug, Default)]
pub(crate) struct Challenge {
    handle: Option<String>,
    variant: Option<Variant>,
    colour: Option<ColourChoice>,
    preset: Option<Preset>,
    move_time: Option<Duration>,
    secret_captures: bool,
}

impl Challenge {
    pub(crate) fn parse(args: &[&str]) -> Result<Challenge, Sentence> {
        let mut challenge = Challenge::default();
        for arg in args {
            let word = arg.to_lowercase();
            if word.starts_with('@') {
                if challenge.handle.is_some() {
                    return Err(Sentence::new("refuse-challenge-two-users"));
                }
                challenge.handle = Some(arg.to_string());
            } else if let Ok(variant) = word.parse::<Variant>() {
                challenge.variant = Some(variant);
            } else if let Ok(preset) = word.parse::<Preset>() {
                challenge.preset = Some(preset);
            } else if word == crate::store::records::SECRET_CAPTURES {
                challenge.secret_captures = true;
            } else if let Some(colour) = colour(&word) {
                challenge.colour = Some(colour);
            } else if word.starts_with(|c: char| c.is_ascii_digit()) {
                let time = humantime::parse_duration(&word).map_err(|_| {
                    Sentence::new("refuse-challenge-time").arg("time", super::shown(arg))
                })?;
                if !(MIN_MOVE_TIME..=MAX_MOVE_TIME).contains(&time) {
                    return Err(
                        Sentence::new("refuse-challenge-time").arg("time", super::shown(arg))
                    );
                }
                challenge.move_time = Some(time);
            } else {
                return Err(
                    Sentence::new("refuse-challenge-option").arg("option", super::shown(arg))
                );
            }
        }
        Ok(challenge)
    }

    pub(crate) async fn apply(&self, ctx: &mut Ctx<'_>) -> Step {
        let request = ctx.req()?;
        let challenger = &request.user;
        if request.is_private_chat {
            return refuse(Sentence::new("refuse-challenge-private"));
        }
        if self.secret_captures {
            super::option_waits_for_upgrade(ctx, crate::store::records::SECRET_CAPTURES)?;
        }
        let challenged = mentioned_user(ctx, self.handle.as_deref())?.cloned();
        if challenged.as_ref().is_some_and(|u| u.id == challenger.id) {
            return refuse(Sentence::new("refuse-challenge-self"));
        }
        ctx.lock_chat(&request.chat).await;
        let mut chat = ctx.chat_record(&request.chat).await?;
        if let Some(opponent) = &challenged {
            for id in &chat.games {
                if let Some(game) = ctx.game_record(id).await?
                    && game.is_active()
                    && game.seat_of(&challenger.id).is_some()
                    && game.seat_of(&opponent.id).is_some()
                {
                    return refuse(
                        Sentence::new("refuse-pair-has-game")
                            .arg("player", &opponent.name)
                            .arg("game", game.id.as_str()),
                    );
                }
            }
        }
        for id in &chat.challenges {
            if let Some(open) = ctx.challenge_record(id).await?
                && open.expires_at > ctx.now
                && open.challenger.id == challenger.id
                && open.challenged.as_ref().map(|u| &u.id) == challenged.as_ref().map(|u| &u.id)
            {
                // Say exactly what is open, so a challenge for another variant or time is
                // not mistaken for this one.
                let lang = chat.settings.language;
                let opponent = match &open.challenged {
                    Some(user) => user.name.clone(),
                    None => ctx.say_in(lang, &Sentence::new("challenge-anyone")),
                };
                return refuse(
                    Sentence::new("refuse-challenge-exists")
                        .arg("challenge", open.id.as_str())
                        .arg("opponent", opponent)
                        .arg(
                            "variant",
                            ctx.say_in(lang, &Sentence::new(variant_key(open.variant))),
                        )
                        .arg("time", duration_text(ctx, lang, open.move_time)),
                );
            }
        }

        let config = &ctx.inner.config;
        let variant = self.variant.unwrap_or(Variant::Jieqi);
        let preset = self.preset.unwrap_or_default();
        let colour = self.colour.unwrap_or_default();
        let move_time =
            crate::announce::seconds(self.move_time.unwrap_or(config.default_move_time));
        let ttl = crate::announce::seconds(config.challenge_ttl);
        let id = ctx.inner.challenge_id();
        let lang = chat.settings.language;

        // In Banqi the first flip decides colours: the choice is only who flips first.
        let colour_key = match (variant, colour) {
            (Variant::Banqi, ColourChoice::Red) => "challenge-colour-banqi-first",
            (Variant::Banqi, ColourChoice::Black) => "challenge-colour-banqi-second",
            (Variant::Banqi, ColourChoice::Random) => "challenge-colour-banqi-random",
            (_, ColourChoice::Red) => "challenge-colour-red",
            (_, ColourChoice::Black) => "challenge-colour-black",
            (_, ColourChoice::Random) => "challenge-colour-random",
        };
        let opponent = match &challenged {
            Some(user) => user.name.clone(),
            None => ctx.say_in(lang, &Sentence::new("challenge-anyone")),
        };
        let text = ctx.say_in(
            lang,
            &Sentence::new("challenge-posted")
                .arg("challenger", &challenger.name)
                .arg("opponent", opponent)
                .arg(
                    "variant",
                    ctx.say_in(lang, &Sentence::new(variant_key(variant))),
                )
                .arg(
                    "preset",
                    crate::announce::preset_text(preset, self.secret_captures),
                )
                .arg("time", duration_text(ctx, lang, move_time))
                .arg(
                    "colour",
                    ctx.say_in(
                        lang,
                        &Sentence::new(colour_key).arg("challenger", &challenger.name),
                    ),
                )
                .arg("expiry", duration_text(ctx, lang, ttl))
                .arg("challenge", id.as_str()),
        );
        let mut buttons = vec![Button {
            label: ctx.say_in(lang, &Sentence::new("button-accept")),
            action: ButtonAction::Accept(id.clone()),
            deep_link_accept: true,
        }];
        if challenged.is_some() {
            buttons.push(Button {
                label: ctx.say_in(lang, &Sentence::new("button-decline")),
                action: ButtonAction::Decline(id.clone()),
                deep_link_accept: false,
            });
        }
        let mentions = challenged.iter().map(|u| u.id.clone()).collect();
        let message = Message::text(
            Destination::Chat(request.chat.clone()),
            MessageKind::Challenge,
            &text,
        )
        .with_buttons(buttons)
        .with_mentions(mentions);
        let post = ctx.post(message, None).await?;
        ctx.save_challenge(ChallengeRecord {
            id: id.clone(),
            revision: 0,
            chat: request.chat.clone(),
            challenger: challenger.clone(),
            challenged,
            variant,
            preset,
            colour,
            move_time,
            created_at: ctx.now,
            expires_at: ctx.now + ttl,
            post: Some(post),
            text,
            secret_captures: self.secret_captures,
        });
        chat.challenges.push(id);
        ctx.save_chat(chat);
        Ok(())
    }
}

pub(super) fn colour(word: &str) -> Option<ColourChoice> {
    match word {
        "red" | "r" => Some(ColourChoice::Red),
        "black" | "b" => Some(ColourChoice::Black),
        "random" | "any" => Some(ColourChoice::Random),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_are_read_in_any_order() {
        let c = Challenge::parse(&["2d", "black", "@bob", "banqi", "tencent"]).unwrap();
        assert_eq!(c.handle.as_deref(), Some("@bob"));
        assert_eq!(c.variant, Some(Variant::Banqi));
        assert_eq!(c.colour, Some(ColourChoice::Black));
        assert_eq!(c.preset, Some(Preset::Tencent));
        assert_eq!(c.move_time, Some(Duration::from_secs(2 * 86_400)));
        let c = Challenge::parse(&["30m", "xiangqi"]).unwrap();
        assert_eq!(c.move_time, Some(Duration::from_secs(1800)));
        assert_eq!(c.handle, None);
        assert!(!c.secret_captures);
        let c = Challenge::parse(&["Secret-Captures", "tencent"]).unwrap();
        assert!(c.secret_captures);
        assert_eq!(c.preset, Some(Preset::Tencent));
    }

    #[test]
    fn unknown_options_and_silly_times_are_refused() {
        assert_eq!(
            Challenge::parse(&["chess"]).unwrap_err().key,
            "refuse-challenge-option"
        );
        assert_eq!(
            Challenge::parse(&["5s"]).unwrap_err().key,
            "refuse-challenge-time"
        );
        assert_eq!(
            Challenge::parse(&["99y"]).unwrap_err().key,
            "refuse-challenge-time"
        );
        assert_eq!(
            Challenge::parse(&["3x"]).unwrap_err().key,
            "refuse-challenge-time"
        );
        assert_eq!(
            Challenge::parse(&["@a", "@b"]).unwrap_err().key,
            "refuse-challenge-two-users"
        );
    }
}
