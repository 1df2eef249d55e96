//! `/decline [id]` (and the Decline button): the challenged player turns a challenge down.
//! The challenger pressing Decline withdraws it, like `/cancel`.

use super::accept::{close_post, find_challenge, optional_challenge};
use crate::context::{Ctx, Sentence, Step, refuse};
use crate::ids::ChallengeId;

#[derive(Debug)]
pub(crate) struct Decline {
    pub(crate) challenge: Option<ChallengeId>,
}

impl Decline {
    pub(crate) fn parse(args: &[&str]) -> Result<Decline, Sentence> {
        Ok(Decline {
            challenge: optional_challenge(args, "/decline <id>")?,
        })
    }

    pub(crate) async fn apply(&self, ctx: &mut Ctx<'_>) -> Step {
        let user = ctx.user()?;
        let found = find_challenge(ctx, self.challenge.as_ref(), |c| {
            c.challenged.as_ref().is_some_and(|t| t.id == user.id)
        })
        .await?;
        ctx.lock_chat(&found.chat).await;
        let Some(challenge) = ctx.challenge_record(&found.id).await? else {
            return refuse(
                Sentence::new("refuse-no-such-challenge").arg("challenge", found.id.as_str()),
            );
        };
        let how = if challenge.challenger.id == user.id {
            "challenge-withdrawn"
        } else {
            match &challenge.challenged {
                Some(target) if target.id == user.id => "challenge-declined",
                Some(target) => {
                    return refuse(
                        Sentence::new("refuse-challenge-not-for-you").arg("player", &target.name),
                    );
                }
                None => {
                    return refuse(
                        Sentence::new("refuse-decline-open")
                            .arg("challenger", &challenge.challenger.name),
                    );
                }
            }
        };
        let mut chat = ctx.chat_record(&challenge.chat).await?;
        chat.challenges.retain(|c| *c != challenge.id);
        ctx.save_chat(chat);
        ctx.remove_challenge(&challenge);
        close_post(ctx, &challenge, how, &user.name, None).await
    }
}
