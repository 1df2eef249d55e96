//! `/review [id]`: a finished game's review (also the Review button under a result). A
//! review stored already is posted at once; otherwise it is queued in the store, in the
//! transaction that tells the requester how many reviews are ahead of it, so the promise
//! outlives the process. The review itself is computed off the request path (`reviews.rs`).

use super::optional_game;
use crate::context::{Ctx, Sentence, Step, refuse};
use crate::ids::GameId;
use crate::message::{Destination, Message, MessageKind};
use crate::review_post::post_review;
use crate::review_queue::{QUEUE_READ, Queued, ReviewJob, place_in};
use crate::store::{GameRecord, ReviewRequest};

#[derive(Debug)]
pub(crate) struct Review {
    pub(crate) game: Option<GameId>,
}

impl Review {
    pub(crate) fn parse(args: &[&str]) -> Result<Review, Sentence> {
        Ok(Review {
            game: optional_game(args, "/review <id>")?,
        })
    }

    pub(crate) async fn apply(&self, ctx: &mut Ctx<'_>) -> Step {
        let record = self.finished_game(ctx).await?;
        let chat = ctx.chat_id()?.clone();
        let id = record.id.clone();
        let queue = ctx.inner.store.queued_reviews(QUEUE_READ).await?;
        let job = ReviewJob {
            game: id.clone(),
            chat: chat.clone(),
        };
        if let Some(stored) = ctx.inner.store.review(&id).await? {
            // Stored meanwhile for another chat: this post answers a request of this chat
            // still queued too, so it is not posted twice.
            if let Some(queued) = queue.iter().find(|r| ReviewJob::from(*r) == job) {
                ctx.change.dequeued_reviews.push(queued.clone());
            }
            return post_review(ctx, &chat, &record, &stored.review).await;
        }
        let sentence = match place_in(&queue, &job) {
            Queued::Ahead(ahead) => {
                // Queued by this very change: a request for the same review committed first
                // makes it a conflict, and the retry finds it queued.
                ctx.change.queued_reviews.push(ReviewRequest {
                    game: id.clone(),
                    chat,
                    asked_at: ctx.now,
                });
                Sentence::new("review-queued").arg("ahead", ahead)
            }
            Queued::Already(ahead) => Sentence::new("review-already-queued").arg("ahead", ahead),
            Queued::Full => return refuse(Sentence::new("refuse-review-queue-full")),
        };
        let text = ctx.say(&sentence.arg("game", id.as_str()));
        ctx.reply(
            Message::text(
                Destination::ReplyToRequester { ephemeral: false },
                MessageKind::Notice,
                text,
            )
            .about(&id),
        );
        Ok(())
    }

    /// The game named, or the chat's latest finished game; refused unless it is finished
    /// with at least one move.
    async fn finished_game(&self, ctx: &Ctx<'_>) -> Step<GameRecord> {
        let record = match &self.game {
            Some(id) => ctx.game_record(id).await?,
            None => {
                let chat = ctx.chat_record(ctx.chat_id()?).await?;
                match chat.finished.last() {
                    Some(last) => ctx.game_record(last).await?,
                    None => return refuse(Sentence::new("refuse-review-nothing-finished")),
                }
            }
        };
        let Some(record) = record else {
            let id = self.game.as_ref().map(GameId::as_str).unwrap_or_default();
            return refuse(Sentence::new("refuse-no-such-game").arg("game", id));
        };
        let Some(loaded) = ctx.load_game(&record.id).await? else {
            return refuse(Sentence::new("refuse-no-such-game").arg("game", record.id.as_str()));
        };
        let finished = loaded
            .game
            .outcome()
            .is_some_and(|o| o != jieqi_rules::Outcome::Aborted);
        if !finished || record.moves.is_empty() {
            return refuse(
                Sentence::new("refuse-review-not-finished").arg("game", record.id.as_str()),
            );
        }
        Ok(record)
    }
}
