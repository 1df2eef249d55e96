//! `/accept [id]` (and the Accept button, and Telegram's `/start acc_<id>` deep link): takes a
//! challenge and starts the game.

use crate::context::{Ctx, Halt, Sentence, Step, refuse};
use crate::ids::{ChallengeId, GameId};
use crate::lifecycle::start_game;
use crate::message::{Destination, Message, MessageKind};
use crate::store::ChallengeRecord;

#[derive(Debug)]
pub(crate) struct Accept {
    pub(crate) challenge: Option<ChallengeId>,
}

impl Accept {
    pub(crate) fn parse(args: &[&str]) -> Result<Accept, Sentence> {
        Ok(Accept {
            challenge: optional_challenge(args, "/accept <id>")?,
        })
    }

    pub(crate) async fn apply(&self, ctx: &mut Ctx<'_>) -> Step {
        let request = ctx.req()?;
        let user = &request.user;
        let found = match find_challenge(ctx, self.challenge.as_ref(), |c| {
            c.challenger.id != user.id
                && c.challenged
                    .as_ref()
                    .is_none_or(|target| target.id == user.id)
        })
        .await
        {
            Ok(found) => found,
            // Nothing for them, but they have one of their own open here: say so.
            Err(Halt::Refuse(sentence)) if sentence.key == "refuse-no-challenge-for-you" => {
                let own = find_challenge(ctx, None, |c| c.challenger.id == user.id).await;
                return match own {
                    Ok(_) => refuse(Sentence::new("refuse-accept-own")),
                    Err(_) => refuse(sentence),
                };
            }
            Err(other) => return Err(other),
        };
        ctx.lock_chat(&found.chat).await;
        // Read again under the chat lock: it may have been taken meanwhile.
        let Some(challenge) = ctx.challenge_record(&found.id).await? else {
            return refuse(
                Sentence::new("refuse-no-such-challenge").arg("challenge", found.id.as_str()),
            );
        };
        if challenge.expires_at <= ctx.now {
            return refuse(
                Sentence::new("refuse-challenge-expired").arg("challenge", challenge.id.as_str()),
            );
        }
        if challenge.challenger.id == user.id {
            return refuse(Sentence::new("refuse-accept-own"));
        }
        if let Some(target) = &challenge.challenged
            && target.id != user.id
        {
            return refuse(
                Sentence::new("refuse-challenge-not-for-you").arg("player", &target.name),
            );
        }
        let mut chat = ctx.chat_record(&challenge.chat).await?;
        for id in &chat.games {
            if let Some(game) = ctx.game_record(id).await?
                && game.is_active()
                && game.seat_of(&user.id).is_some()
                && game.seat_of(&challenge.challenger.id).is_some()
            {
                return refuse(
                    Sentence::new("refuse-pair-has-game")
                        .arg("player", &challenge.challenger.name)
                        .arg("game", game.id.as_str()),
                );
            }
        }
        chat.challenges.retain(|c| *c != challenge.id);
        ctx.save_chat(chat);
        ctx.remove_challenge(&challenge);
        let game = start_game(ctx, &challenge, user, None).await?;
        close_post(
            ctx,
            &challenge,
            "challenge-accepted",
            &user.name,
            Some(&game),
        )
        .await?;
        if request.chat != challenge.chat {
            ctx.reply_text(
                MessageKind::Notice,
                false,
                &Sentence::new("accepted-elsewhere")
                    .arg("challenger", &challenge.challenger.name)
                    .arg("game", game.as_str()),
            );
        }
        Ok(())
    }
}

/// Reads an optional challenge id argument.
pub(super) fn optional_challenge(
    args: &[&str],
    usage: &'static str,
) -> Result<Option<ChallengeId>, Sentence> {
    match args {
        [] => Ok(None),
        [id] => id.parse().map(Some).map_err(|_| {
            Sentence::new("refuse-bad-challenge-id")
                .arg("id", super::shown(id))
                .arg("usage", usage)
        }),
        _ => Err(Sentence::new("refuse-usage").arg("usage", usage)),
    }
}

/// The challenge meant: the id given, or the only open challenge in this chat that `fits`.
pub(super) async fn find_challenge(
    ctx: &Ctx<'_>,
    explicit: Option<&ChallengeId>,
    fits: impl Fn(&ChallengeRecord) -> bool,
) -> Step<ChallengeRecord> {
    if let Some(id) = explicit {
        return match ctx.challenge_record(id).await? {
            Some(c) => Ok(c),
            None => refuse(Sentence::new("refuse-no-such-challenge").arg("challenge", id.as_str())),
        };
    }
    let chat = ctx.chat_record(ctx.chat_id()?).await?;
    let mut open = Vec::new();
    for id in &chat.challenges {
        if let Some(c) = ctx.challenge_record(id).await?
            && c.expires_at > ctx.now
            && fits(&c)
        {
            open.push(c);
        }
    }
    match open.len() {
        0 => refuse(Sentence::new("refuse-no-challenge-for-you")),
        1 => Ok(open.remove(0)),
        _ => refuse(
            Sentence::new("refuse-several-challenges")
                .arg(
                    "challenges",
                    open.iter()
                        .map(|c| format!("{} ({})", c.id, c.challenger.name))
                        .collect::<Vec<_>>()
                        .join(", "),
                )
                .arg("example", open[0].id.as_str()),
        ),
    }
}

/// Edits a challenge's post: its text plus how it was closed, without its buttons; when a
/// game started, with the "Watch live" link to its board (when the web page is on), so
/// that whoever saw the challenge (an open one, a seek) can follow the game from there.
pub(crate) async fn close_post(
    ctx: &mut Ctx<'_>,
    challenge: &ChallengeRecord,
    how: &'static str,
    who: &str,
    game: Option<&GameId>,
) -> Step {
    let Some(post) = challenge.post else {
        return Ok(());
    };
    let settings = ctx.chat_record(&challenge.chat).await?.settings;
    let lang = settings.language;
    let mut sentence = Sentence::new(how).arg("player", who);
    if let Some(game) = game {
        sentence = sentence.arg("game", game.as_str());
    }
    let text = format!("{}\n{}", challenge.text, ctx.say_in(lang, &sentence));
    let link = game.and_then(|game| {
        crate::board_buttons::page_link(ctx, &settings, game, "button-watch-live")
    });
    let edit = Message::text(
        Destination::Chat(challenge.chat.clone()),
        MessageKind::Challenge,
        text,
    )
    .with_buttons(link.into_iter().collect())
    .replacing(Some(post));
    ctx.post(edit, None).await?;
    Ok(())
}
