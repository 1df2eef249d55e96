//! `/challenge [@user] [variant] [colour] [preset] [secret-captures] [time]`: posts a
//! challenge with Accept / Decline buttons. Options come in any order; without a user anyone
//! may accept. `secret-captures` is the "nobody sees" reading: a captured covered piece stays
//! unknown to both players, the capturer too, until the game ends. The time is a time per
//! move (`30m`, `1d`: the game across a day, as before) or a game clock (`3+2`, `10m|30s`,
//! `blitz`: a live game, `jieqi-clock`'s notation).

use std::time::Duration;

use jieqi_clock::{Form, ParseTimeControlError, TimeControl, TimeControlError};
use jieqi_rules::Variant;
use jieqi_rules::game::Preset;

use super::mentioned_user;
use crate::announce::{duration_text, time_terms, variant_key};
use crate::context::{Ctx, Sentence, Step, refuse};
use crate::message::{Button, Destination, Message, MessageKind};
use crate::request::ButtonAction;
use crate::store::{ChallengeRecord, ColourChoice};

/// Shortest and longest time per move a challenge may ask for.
const MIN_MOVE_TIME: Duration = Duration::from_secs(60);
const MAX_MOVE_TIME: Duration = Duration::from_secs(30 * 24 * 60 * 60);

#[derive(Debug, Default)]
pub(crate) struct Challenge {
    pub(super) handle: Option<String>,
    pub(super) variant: Option<Variant>,
    pub(super) colour: Option<ColourChoice>,
    pub(super) preset: Option<Preset>,
    pub(super) move_time: Option<Duration>,
    pub(super) control: Option<TimeControl>,
    pub(super) secret_captures: bool,
    /// Posted as a seek (`/seek`): open to anyone, worded as a quick game to take.
    pub(super) seek: bool,
}

/// The time a challenge (or `/play`) names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Time {
    /// A time per move: the game across hours or days.
    PerMove(Duration),
    /// A game clock: a live game.
    Live(TimeControl),
}

/// Whether `word` is meant as a time: it starts with a digit or names a clock preset.
pub(crate) fn is_time(word: &str) -> bool {
    word.starts_with(|c: char| c.is_ascii_digit()) || word.parse::<jieqi_clock::Preset>().is_ok()
}

/// Reads a time: a game clock (`3+2`, `10m|30s`, `blitz`) or a time per move (`30m`, `1d`;
/// the older spellings `2days`, `90 min` still read). Refused naming the accepted forms.
pub(crate) fn read_time(arg: &str) -> Result<Time, Sentence> {
    let word = arg.to_lowercase();
    let error = match word.parse::<TimeControl>() {
        Ok(control) => {
            return Ok(match control.form() {
                Form::PerMove { limit } => Time::PerMove(limit),
                _ => Time::Live(control),
            });
        }
        Err(error) => error,
    };
    if let Ok(time) = humantime::parse_duration(&word)
        && (MIN_MOVE_TIME..=MAX_MOVE_TIME).contains(&time)
    {
        return Ok(Time::PerMove(time));
    }
    let reason = match error {
        ParseTimeControlError::Malformed { .. } => "other",
        ParseTimeControlError::OutOfRange { reason, .. } => match reason {
            TimeControlError::Initial => "initial",
            TimeControlError::Increment => "increment",
            TimeControlError::Main => "main",
            TimeControlError::Period => "period",
            TimeControlError::Periods => "periods",
            TimeControlError::PerMove => "per-move",
        },
    };
    Err(Sentence::new("refuse-challenge-time")
        .arg("time", super::shown(arg))
        .arg("reason", reason))
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
            } else if is_time(&word) {
                match read_time(arg)? {
                    Time::PerMove(time) => challenge.move_time = Some(time),
                    Time::Live(control) => challenge.control = Some(control),
                }
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
            return refuse(Sentence::new(if self.seek {
                "refuse-seek-private"
            } else {
                "refuse-challenge-private"
            }));
        }
        if self.secret_captures {
            super::option_waits_for_upgrade(ctx, crate::store::records::SECRET_CAPTURES)?;
        }
        if self.control.is_some() && !crate::live_clock::fleet_reads_clocks(ctx) {
            return refuse(Sentence::new("refuse-clock-not-yet"));
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
                        .arg("time", time_terms(ctx, lang, open.move_time, open.control)),
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
            &Sentence::new(if self.seek {
                "seek-posted"
            } else {
                "challenge-posted"
            })
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
            .arg("time", time_terms(ctx, lang, move_time, self.control))
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
            label: ctx.say_in(
                lang,
                &Sentence::new(if self.seek {
                    "button-take-seek"
                } else {
                    "button-accept"
                }),
            ),
            action: ButtonAction::Accept(id.clone()),
            deep_link_accept: true,
        }];
        // A seek's seeker may take it back from its post (Decline by the challenger
        // withdraws, as `/cancel` does).
        if challenged.is_some() || self.seek {
            buttons.push(Button {
                label: ctx.say_in(
                    lang,
                    &Sentence::new(if self.seek {
                        "button-cancel-seek"
                    } else {
                        "button-decline"
                    }),
                ),
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
            control: self.control,
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
        for silly in [
            "5s",
            "99y",
            "3x",
            "3+999",
            "181+0",
            "10m|2s",
            "10m|6x30s",
            "3.5+2",
        ] {
            let refusal = Challenge::parse(&[silly]).unwrap_err();
            assert_eq!(refusal.key, "refuse-challenge-time", "{silly}");
        }
        let reason = |text: &str| {
            Challenge::parse(&[text])
                .unwrap_err()
                .args
                .into_iter()
                .find(|(name, _)| *name == "reason")
                .map(|(_, value)| value)
        };
        assert_eq!(reason("3+999"), Some("increment".into()));
        assert_eq!(reason("10m|2s"), Some("period".into()));
        assert_eq!(reason("3x"), Some("other".into()));
        assert_eq!(
            Challenge::parse(&["@a", "@b"]).unwrap_err().key,
            "refuse-challenge-two-users"
        );
    }

    #[test]
    fn a_game_clock_or_a_preset_makes_a_live_challenge_and_a_time_per_move_does_not() {
        let c = Challenge::parse(&["@bob", "3+2"]).unwrap();
        assert_eq!(c.control, Some("3+2".parse().unwrap()));
        assert_eq!(c.move_time, None);
        let c = Challenge::parse(&["Blitz", "xiangqi"]).unwrap();
        assert_eq!(c.control.map(|c| c.to_string()), Some("3+2".to_owned()));
        let c = Challenge::parse(&["10m|3x30s"]).unwrap();
        assert_eq!(
            c.control.map(|c| c.to_string()),
            Some("10m|3x30s".to_owned())
        );
        let c = Challenge::parse(&["1d"]).unwrap();
        assert_eq!(
            (c.control, c.move_time),
            (None, Some(Duration::from_secs(86_400)))
        );
        // The older spellings of a time per move still read.
        let c = Challenge::parse(&["2days"]).unwrap();
        assert_eq!(
            (c.control, c.move_time),
            (None, Some(Duration::from_secs(172_800)))
        );
        let c = Challenge::parse(&["jieqi"]).unwrap();
        assert_eq!((c.control, c.move_time), (None, None));
    }
}
