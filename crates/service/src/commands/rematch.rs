//! `/rematch [game]` (and the Rematch button under a result): the same game again with the
//! colours swapped, on the same terms (variant, rules, clock or time per move). Against the
//! engine it starts at once, at the same level. Between people the first press offers it to
//! the other player as a challenge (Accept / Decline), and the other player's press (or
//! `/accept`) accepts it: when both press, the second press starts the game.
//!
//! Exactly once: a press delivered twice is one request (its idempotency key); two presses
//! racing on two processes both save the chat's record, so one commit stands and the other
//! runs again on fresh reads, where it finds the first one's offer (and accepts it) or the
//! new game (and says so).

use jieqi_engine::Level;

use super::accept::close_post;
use super::optional_game;
use crate::announce::{duration_text, preset_text, time_terms, variant_key};
use crate::context::{Ctx, Sentence, Step, refuse};
use crate::ids::{GameId, User};
use crate::lifecycle::start_game;
use crate::message::{Button, Destination, Message, MessageKind};
use crate::request::ButtonAction;
use crate::store::{ChallengeRecord, ColourChoice, GameRecord, Seat};

const USAGE: &str = "/rematch <id>";

#[derive(Debug)]
pub(crate) struct Rematch {
    pub(crate) game: Option<GameId>,
}

impl Rematch {
    pub(crate) fn parse(args: &[&str]) -> Result<Rematch, Sentence> {
        Ok(Rematch {
            game: optional_game(args, USAGE)?,
        })
    }

    pub(crate) async fn apply(&self, ctx: &mut Ctx<'_>) -> Step {
        let user = ctx.user()?;
        let record = finished_game(ctx, self.game.as_ref()).await?;
        let Some(seat) = record.seat_of(&user.id) else {
            return refuse(
                Sentence::new("refuse-rematch-not-a-player")
                    .arg("game", record.id.as_str())
                    .arg("first", &record.first.name)
                    .arg("second", &record.second.name),
            );
        };
        if record.is_active() {
            return refuse(Sentence::new("refuse-rematch-running").arg("game", record.id.as_str()));
        }
        if crate::tournament_play::tournament_of(ctx, &record)
            .await?
            .is_some()
        {
            return refuse(
                Sentence::new("refuse-rematch-tournament").arg("game", record.id.as_str()),
            );
        }
        let control = record.clock.as_ref().map(jieqi_clock::Clock::control);
        if control.is_some() && !crate::live_clock::fleet_reads_clocks(ctx) {
            return refuse(Sentence::new("refuse-clock-not-yet"));
        }
        ctx.lock_chat(&record.chat).await;
        // The terms of the game again, the requester on the other side.
        let terms = ChallengeRecord {
            id: ctx.inner.challenge_id(),
            revision: 0,
            chat: record.chat.clone(),
            challenger: user.clone(),
            challenged: Some(record.player(!seat).clone()),
            variant: record.variant,
            preset: record.preset,
            colour: swapped(seat),
            move_time: record.move_time,
            created_at: ctx.now,
            expires_at: ctx.now,
            post: None,
            text: String::new(),
            secret_captures: record.secret_captures,
            control,
        };
        match &record.engine {
            Some(engine) => against_the_engine(ctx, &record, terms, &engine.level).await,
            None => between_people(ctx, &record, terms).await,
        }
    }
}

/// The colour the player in `seat` plays in the rematch: the other one.
fn swapped(seat: Seat) -> ColourChoice {
    match seat {
        Seat::First => ColourChoice::Black,
        Seat::Second => ColourChoice::Red,
    }
}

/// The finished game meant: the id given, or the newest finished game of this chat that the
/// requester played.
async fn finished_game(ctx: &Ctx<'_>, explicit: Option<&GameId>) -> Step<GameRecord> {
    if let Some(id) = explicit {
        return match ctx.game_record(id).await? {
            Some(record) => Ok(record),
            None => refuse(Sentence::new("refuse-no-such-game").arg("game", id.as_str())),
        };
    }
    let user = ctx.user()?;
    let chat = ctx.chat_record(ctx.chat_id()?).await?;
    for id in chat.finished.iter().rev() {
        if let Some(record) = ctx.game_record(id).await?
            && record.seat_of(&user.id).is_some()
        {
            return Ok(record);
        }
    }
    refuse(Sentence::new("refuse-rematch-no-game"))
}

/// A new game against the engine at once, at the same level, unless one is running here.
async fn against_the_engine(
    ctx: &mut Ctx<'_>,
    record: &GameRecord,
    terms: ChallengeRecord,
    level: &str,
) -> Step {
    let chat = ctx.chat_record(&record.chat).await?;
    for id in &chat.games {
        if let Some(game) = ctx.game_record(id).await?
            && game.is_active()
            && game.engine.is_some()
            && game.seat_of(&terms.challenger.id).is_some()
        {
            return refuse(Sentence::new("refuse-play-has-game").arg("game", game.id.as_str()));
        }
    }
    let level = level.parse::<Level>().unwrap_or(Level::Casual);
    let Some(engine) = terms.challenged.clone() else {
        return refuse(Sentence::new("error-internal"));
    };
    let seed = ctx.inner.engine_seed();
    start_game(ctx, &terms, &engine, Some((level, seed))).await?;
    Ok(())
}

/// The other player's offer accepted, or the requester's offered to them.
async fn between_people(ctx: &mut Ctx<'_>, record: &GameRecord, terms: ChallengeRecord) -> Step {
    let Some(opponent) = terms.challenged.clone() else {
        return refuse(Sentence::new("error-internal"));
    };
    let me = terms.challenger.clone();
    let mut chat = ctx.chat_record(&record.chat).await?;
    for id in &chat.games {
        if let Some(game) = ctx.game_record(id).await?
            && game.is_active()
            && game.seat_of(&me.id).is_some()
            && game.seat_of(&opponent.id).is_some()
        {
            return refuse(
                Sentence::new("refuse-pair-has-game")
                    .arg("player", &opponent.name)
                    .arg("game", game.id.as_str()),
            );
        }
    }
    let mut theirs = None;
    for id in &chat.challenges {
        let Some(open) = ctx.challenge_record(id).await? else {
            continue;
        };
        if open.expires_at <= ctx.now {
            continue;
        }
        let between = |a: &User, b: &User| {
            open.challenger.id == a.id && open.challenged.as_ref().is_some_and(|u| u.id == b.id)
        };
        if between(&me, &opponent) {
            return refuse(
                Sentence::new("refuse-rematch-offered")
                    .arg("player", &opponent.name)
                    .arg("challenge", open.id.as_str()),
            );
        }
        if between(&opponent, &me) && same_terms(&open, &terms) {
            theirs = Some(open);
        }
    }
    if let Some(offer) = theirs {
        // Both want it: the second press accepts the first.
        chat.challenges.retain(|c| *c != offer.id);
        ctx.save_chat(chat);
        ctx.remove_challenge(&offer);
        let game = start_game(ctx, &offer, &me, None).await?;
        return close_post(ctx, &offer, "challenge-accepted", &me.name, Some(&game)).await;
    }
    offer_rematch(ctx, record, terms, chat).await
}

/// Whether `offer` (from the opponent) is this rematch: the same terms, the colours the
/// other way round.
fn same_terms(offer: &ChallengeRecord, mine: &ChallengeRecord) -> bool {
    let other_colour = match mine.colour {
        ColourChoice::Red => ColourChoice::Black,
        ColourChoice::Black => ColourChoice::Red,
        ColourChoice::Random => ColourChoice::Random,
    };
    offer.variant == mine.variant
        && offer.preset == mine.preset
        && offer.secret_captures == mine.secret_captures
        && offer.control == mine.control
        && offer.move_time == mine.move_time
        && offer.colour == other_colour
}

/// Posts the offer in the game's chat, with Accept and Decline for the opponent.
async fn offer_rematch(
    ctx: &mut Ctx<'_>,
    record: &GameRecord,
    mut offer: ChallengeRecord,
    mut chat: crate::store::ChatRecord,
) -> Step {
    let Some(opponent) = offer.challenged.clone() else {
        return refuse(Sentence::new("error-internal"));
    };
    let ttl = crate::announce::seconds(ctx.inner.config.challenge_ttl);
    let lang = chat.settings.language;
    let colour_key = match offer.colour {
        ColourChoice::Red => "challenge-colour-red",
        _ => "challenge-colour-black",
    };
    let text = ctx.say_in(
        lang,
        &Sentence::new("rematch-offered")
            .arg("challenger", &offer.challenger.name)
            .arg("opponent", &opponent.name)
            .arg("game", record.id.as_str())
            .arg(
                "variant",
                ctx.say_in(lang, &Sentence::new(variant_key(offer.variant))),
            )
            .arg("preset", preset_text(offer.preset, offer.secret_captures))
            .arg(
                "time",
                time_terms(ctx, lang, offer.move_time, offer.control),
            )
            .arg(
                "colour",
                ctx.say_in(
                    lang,
                    &Sentence::new(colour_key).arg("challenger", &offer.challenger.name),
                ),
            )
            .arg("expiry", duration_text(ctx, lang, ttl))
            .arg("challenge", offer.id.as_str()),
    );
    let buttons = vec![
        Button {
            label: ctx.say_in(lang, &Sentence::new("button-accept")),
            action: ButtonAction::Accept(offer.id.clone()),
            deep_link_accept: true,
        },
        Button {
            label: ctx.say_in(lang, &Sentence::new("button-decline")),
            action: ButtonAction::Decline(offer.id.clone()),
            deep_link_accept: false,
        },
    ];
    let message = Message::text(
        Destination::Chat(record.chat.clone()),
        MessageKind::Challenge,
        &text,
    )
    .with_buttons(buttons)
    .with_mentions(vec![opponent.id.clone()]);
    offer.post = Some(ctx.post(message, None).await?);
    offer.text = text;
    offer.expires_at = ctx.now + ttl;
    ctx.reply_text(
        MessageKind::Notice,
        true,
        &Sentence::new("rematch-offer-sent")
            .arg("player", &opponent.name)
            .arg("challenge", offer.id.as_str()),
    );
    chat.challenges.push(offer.id.clone());
    ctx.save_challenge(offer);
    ctx.save_chat(chat);
    Ok(())
}
