//! Answering an interaction with what the service said.
//!
//! Discord wants a first answer within three seconds. An answer ready in time is sent as the
//! interaction's response; a slow one (a picture to render) is deferred first ("thinking…")
//! and then written into the deferred response, with any further replies as follow-ups.
//! Commands known to answer with a picture are deferred at once. Refusals and `/peek` are
//! ephemeral, as the service marks them.
//!
//! A second delivery of the same interaction reaches the service under the same idempotency
//! key (the interaction id) and changes nothing; Discord then refuses the second response
//! (40060) and we stop there.

use std::future::Future;
use std::time::Duration;

use backon::{ExponentialBuilder, Retryable};
use jieqi_service::{Answer, Destination, Message, Request, Service};
use serenity::all::{
    CreateInteractionResponse, CreateInteractionResponseMessage, InteractionId, MessageId,
};
use serenity::builder::Builder;
use serenity::http::Http;

use crate::error::{
    ALREADY_ACKNOWLEDGED, UNKNOWN_INTERACTION, describe, is_passing, status_and_code,
};
use crate::layout::Post;
use crate::sender::DiscordSender;

/// The interaction being answered.
#[derive(Clone, Copy)]
pub(crate) struct Target<'a> {
    pub http: &'a Http,
    pub id: InteractionId,
    pub token: &'a str,
    /// A button press (its message stays as it is when there is nothing to say).
    pub from_button: bool,
}

/// Why answering stopped early.
#[derive(Debug)]
enum Stop {
    /// Answered before: this is a second delivery of the interaction.
    AlreadyAnswered,
    /// Anything else; logged where it happened.
    Failed,
}

/// How the first answer went out.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Timing {
    /// Defer at once with this visibility (commands answering with a picture).
    DeferAtOnce { ephemeral: bool },
    /// Answer directly if the service is this quick, else defer (ephemerally).
    Within(Duration),
}

/// Hands `request` to the service and answers the interaction with its replies.
pub(crate) async fn answer(
    target: Target<'_>,
    service: &Service,
    sender: &DiscordSender,
    request: Request,
    timing: Timing,
) {
    let service = service.clone();
    // The service's work is durable whatever happens to this answer, so it runs on its own.
    let mut handling = tokio::spawn(async move { service.handle(request).await });
    let outcome = match timing {
        Timing::DeferAtOnce { ephemeral } => match target.defer(ephemeral).await {
            Ok(()) => Some((ephemeral, (&mut handling).await)),
            Err(stop) => return target.stopped(stop),
        },
        Timing::Within(within) => match tokio::time::timeout(within, &mut handling).await {
            Ok(joined) => {
                let answer = joined.unwrap_or_else(|e| panicked(&e));
                if let Err(stop) = target.respond(sender, answer).await {
                    target.stopped(stop);
                }
                return;
            }
            Err(_) => match target.defer(true).await {
                Ok(()) => Some((true, handling.await)),
                Err(stop) => return target.stopped(stop),
            },
        },
    };
    if let Some((ephemeral, joined)) = outcome {
        let answer = joined.unwrap_or_else(|e| panicked(&e));
        if let Err(stop) = target.finish(sender, ephemeral, answer).await {
            target.stopped(stop);
        }
    }
}

fn panicked(error: &tokio::task::JoinError) -> Answer {
    tracing::error!(%error, "the service failed on a request");
    Answer::default()
}

fn is_ephemeral(message: &Message) -> bool {
    matches!(
        message.to,
        Destination::ReplyToRequester { ephemeral: true }
    )
}

/// Replies for the requester; anything addressed elsewhere is posted there.
async fn for_requester(sender: &DiscordSender, answer: Answer) -> Vec<Message> {
    let mut mine = Vec::new();
    for message in answer.replies {
        if matches!(message.to, Destination::ReplyToRequester { .. }) {
            mine.push(message);
        } else if let Err(error) = sender.post(&message).await {
            tracing::warn!(%error, "cannot post an answer addressed to a chat");
        }
    }
    mine
}

impl Target<'_> {
    fn stopped(&self, stop: Stop) {
        match stop {
            Stop::AlreadyAnswered => {
                tracing::debug!(interaction = %self.id, "interaction delivered again; answered before");
            }
            Stop::Failed => {}
        }
    }

    /// The first answer, in time.
    async fn respond(&self, sender: &DiscordSender, answer: Answer) -> Result<(), Stop> {
        let mut replies = for_requester(sender, answer).await.into_iter();
        match replies.next() {
            // A pressed button whose effect shows elsewhere (the post is edited by the outbox).
            None if self.from_button => {
                self.callback(CreateInteractionResponse::Acknowledge)
                    .await?
            }
            // A command whose effect shows in the channel (a move's new board): acknowledge
            // and leave no trace.
            None => {
                self.defer(true).await?;
                self.delete_original().await?;
            }
            Some(first) => {
                let response = Post::of(&first).response(is_ephemeral(&first));
                self.callback(CreateInteractionResponse::Message(response))
                    .await?;
            }
        }
        for reply in replies {
            self.followup(&reply).await?;
        }
        Ok(())
    }

    /// After a deferral: the deferred response becomes the first reply of its visibility.
    async fn finish(
        &self,
        sender: &DiscordSender,
        ephemeral: bool,
        answer: Answer,
    ) -> Result<(), Stop> {
        let mut replies = for_requester(sender, answer).await;
        match replies.iter().position(|m| is_ephemeral(m) == ephemeral) {
            Some(i) => {
                let first = replies.remove(i);
                let edit = Post::of(&first).edit_response();
                let (http, token) = (self.http, self.token);
                retried(
                    || edit.clone().execute(http, token),
                    "edit an interaction response",
                )
                .await?;
            }
            None => self.delete_original().await?,
        }
        for reply in &replies {
            self.followup(reply).await?;
        }
        Ok(())
    }

    async fn defer(&self, ephemeral: bool) -> Result<(), Stop> {
        self.callback(CreateInteractionResponse::Defer(
            CreateInteractionResponseMessage::new().ephemeral(ephemeral),
        ))
        .await
    }

    async fn callback(&self, response: CreateInteractionResponse) -> Result<(), Stop> {
        let (http, id, token) = (self.http, self.id, self.token);
        retried(
            || response.clone().execute(http, (id, token)),
            "answer an interaction",
        )
        .await
    }

    async fn delete_original(&self) -> Result<(), Stop> {
        let (http, token) = (self.http, self.token);
        retried(
            || http.delete_original_interaction_response(token),
            "remove a deferred response",
        )
        .await
    }

    async fn followup(&self, reply: &Message) -> Result<(), Stop> {
        let builder = Post::of(reply).followup(is_ephemeral(reply));
        let (http, token) = (self.http, self.token);
        retried(
            || builder.clone().execute(http, (None::<MessageId>, token)),
            "send a follow-up",
        )
        .await
        .map(|_| ())
    }
}

/// One call to Discord, tried again on passing failures (5xx, network).
async fn retried<T, F, Fut>(call: F, what: &str) -> Result<T, Stop>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = serenity::Result<T>>,
{
    let backoff = ExponentialBuilder::default()
        .with_min_delay(Duration::from_millis(100))
        .with_max_delay(Duration::from_secs(1))
        .with_max_times(3);
    match call.retry(backoff).when(is_passing).await {
        Ok(value) => Ok(value),
        Err(error) => match status_and_code(&error) {
            Some((_, ALREADY_ACKNOWLEDGED)) => Err(Stop::AlreadyAnswered),
            Some((_, UNKNOWN_INTERACTION)) => {
                tracing::warn!(error = %describe(&error), "cannot {what}: the interaction expired");
                Err(Stop::Failed)
            }
            _ => {
                tracing::warn!(error = %describe(&error), "cannot {what}");
                Err(Stop::Failed)
            }
        },
    }
}
