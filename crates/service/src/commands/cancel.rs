//! `/cancel [id]`: the challenger withdraws their open challenge (all of theirs in this chat
//! when no id is given).

use super::accept::{close_post, optional_challenge};
use crate::context::{Ctx, Sentence, Step, refuse};
use crate::ids::ChallengeId;

#[derive(Debug)]
pub(crate) struct Cancel {
    challenge: Option<ChallengeId>,
}

impl Cancel {
    pub(crate) fn parse(args: &[&str]) -> Result<Cancel, Sentence> {
        Ok(Cancel {
            challenge: optional_challenge(args, "/cancel <id>")?,
        })
    }

    pub(crate) async fn apply(&self, ctx: &mut Ctx<'_>) -> Step {
        let request = ctx.req()?;
        let user = &request.user;
        let chat_id = match &self.challenge {
            Some(id) => match ctx.challenge_record(id).await? {
                Some(c) => c.chat,
                None => {
                    return refuse(
                        Sentence::new("refuse-no-such-challenge").arg("challenge", id.as_str()),
                    );
                }
            },
            None => request.chat.clone(),
        };
        ctx.lock_chat(&chat_id).await;
        let mut chat = ctx.chat_record(&chat_id).await?;
        let ids: Vec<ChallengeId> = match &self.challenge {
            Some(id) => vec![id.clone()],
            None => chat.challenges.clone(),
        };
        let mut withdrawn = 0;
        for id in ids {
            let Some(challenge) = ctx.challenge_record(&id).await? else {
                continue;
            };
            if challenge.challenger.id != user.id {
                if self.challenge.is_some() {
                    return refuse(
                        Sentence::new("refuse-cancel-not-yours")
                            .arg("challenger", &challenge.challenger.name),
                    );
                }
                continue;
            }
            chat.challenges.retain(|c| *c != challenge.id);
            ctx.remove_challenge(&challenge);
            close_post(ctx, &challenge, "challenge-withdrawn", &user.name, None).await?;
            withdrawn += 1;
        }
        if withdrawn == 0 {
            return refuse(Sentence::new("refuse-nothing-to-cancel"));
        }
        ctx.save_chat(chat);
        Ok(())
    }
}
