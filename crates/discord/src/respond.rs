//! Answering an interaction with what the service said.
//!
//! Discord wants a first answer within three seconds. The service decides first: an answer
//! ready within [`crate::DiscordConfig::respond_within`] is sent as the interaction's
//! response, with the visibility the service gave it (refusals and `/peek` ephemeral, a board
//! or the rules for everyone). A slower one is deferred, always ephemerally, because a
//! deferral's visibility cannot change later and a refusal must never show publicly: the
//! requester alone sees "thinking…". When the answer is ready the deferral is resolved first:
//! an ephemeral first reply is written into it, else the placeholder is removed. Only then
//! does a public reply go out, posted to the channel as a message of its own: Discord makes
//! the first follow-up sent while "thinking…" shows the deferral's own answer, keeping its
//! ephemeral flag (discord-api-docs issue 2742), so a public follow-up would reach the
//! requester alone.
//!
//! The first answer is sent by us (not serenity) so that a 429's `retry_after` can be waited
//! out within the three seconds; a 5xx is tried again with a short backoff, also within them.
//! If the window closes first, a public reply still reaches the channel as a post, unless
//! Discord, asked once its window has closed, says an answer whose reply we never saw got
//! through after all (it would show twice).
//!
//! A deferral is recorded in the outbox before it is sent ([`Service::defer_reply`]; side by
//! side only when the store is too slow for the window), so that a placeholder Discord shows
//! always has its entry, even if this process dies right after deferring: once the
//! service has answered, this process says so and a delivery loop finishes the interaction
//! (`later.rs`) from the answer stored under the request's key. Should this process die in
//! between, any other process finishes it after [`crate::DiscordConfig::take_over_after`]:
//! the placeholder never stays, and the claim, the delivered mark and the posts' nonces keep
//! it one answer. Only if the deferral cannot be recorded does this process finish it alone.
//!
//! A second delivery of the same interaction reaches the service under the same idempotency
//! key (the interaction id) and changes nothing; Discord then refuses the second response
//! (40060) and we stop there.

use std::future::Future;
use std::num::NonZeroU64;
use std::time::{Duration, Instant};

use backon::{ExponentialBuilder, Retryable};
use jieqi_service::{Answer, Destination, Message, Request, SendError, Service};
use serenity::all::{
    ApplicationId, ChannelId, CreateAttachment, CreateInteractionResponse,
    CreateInteractionResponseMessage, InteractionId, MessageId,
};
use serenity::builder::Builder;
use serenity::http::{LightMethod, Request as HttpRequest, Route};

use crate::error::{
    ALREADY_ACKNOWLEDGED, CallError, INVALID_WEBHOOK_TOKEN, UNKNOWN_INTERACTION, UNKNOWN_WEBHOOK,
};
use crate::layout::Post;
use crate::rest::{Rest, with_body};
use crate::sender::DiscordSender;

/// How long after an interaction reaches us its first answer may still be sent: Discord's
/// three seconds, less a margin for the interaction's trip to us and the answer's to Discord.
pub(crate) const FIRST_ANSWER_WINDOW: Duration = Duration::from_millis(2700);

/// How long after [`FIRST_ANSWER_WINDOW`] Discord may still take a first answer that was on
/// its way (its own three seconds): a call that has not answered by then either got through
/// or never will, and Discord can be asked which.
const WINDOW_CLOSES_AFTER: Duration = Duration::from_millis(300);

/// The part of the first-answer window kept for the deferral's trip to Discord when it waits
/// for the store to record it.
const DEFERRAL_TRIP: Duration = Duration::from_millis(700);

/// The interaction being answered.
#[derive(Clone, Copy)]
pub(crate) struct Target<'a> {
    pub rest: &'a Rest,
    /// The bot's application: follow-ups and edits go to `webhooks/{application}/{token}`.
    pub application: ApplicationId,
    pub id: InteractionId,
    pub token: &'a str,
    /// Where it happened: a public reply that cannot be sent as an answer is posted there.
    pub channel: ChannelId,
    /// A button press (its message stays as it is when there is nothing to say).
    pub from_button: bool,
    /// The first answer must be sent before this.
    pub deadline: Instant,
}

/// Why answering stopped early.
#[derive(Debug)]
pub(crate) enum Stop {
    /// Answered before: this is a second delivery of the interaction.
    AlreadyAnswered,
    /// A passing failure (5xx, 429, the network) outlasted its retries: trying again later
    /// may get through. Logged where it happened.
    Passing,
    /// Anything else; logged where it happened.
    Failed,
}

/// How long an interaction's answer may take, before it is deferred and before another
/// process may finish it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Timing {
    /// See [`crate::DiscordConfig::respond_within`].
    pub respond_within: Duration,
    /// See [`crate::DiscordConfig::take_over_after`].
    pub take_over_after: Duration,
}

/// Hands `request` to the service and answers the interaction with its replies, directly if
/// they are ready within `timing.respond_within`, else after an ephemeral deferral.
pub(crate) async fn answer(
    target: Target<'_>,
    service: &Service,
    sender: &DiscordSender,
    request: Request,
    timing: Timing,
) {
    let handler = service.clone();
    let asked = request.clone();
    // The service's work is durable whatever happens to this answer, so it runs on its own.
    let mut handling = tokio::spawn(async move { handler.handle(asked).await });
    // Zero: always defer (a timeout would still look at the answer once).
    let ready = if timing.respond_within.is_zero() {
        None
    } else {
        tokio::time::timeout(timing.respond_within, &mut handling)
            .await
            .ok()
    };
    let result = match ready {
        Some(joined) => {
            let answer = joined.unwrap_or_else(|e| panicked(&e));
            target.respond(sender, answer).await
        }
        None => {
            target
                .later(service, sender, &request, handling, timing.take_over_after)
                .await
        }
    };
    if let Err(Stop::AlreadyAnswered) = result {
        tracing::debug!(interaction = %target.id, "interaction delivered again; answered before");
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

impl Target<'_> {
    /// The deferral, recorded in the outbox while it is sent; once the service has answered,
    /// the outbox finishes it. Unrecorded (the store failed), this process finishes it.
    async fn later(
        &self,
        service: &Service,
        sender: &DiscordSender,
        request: &Request,
        handling: tokio::task::JoinHandle<Answer>,
        take_over_after: Duration,
    ) -> Result<(), Stop> {
        let reply_token = reply_token(self.application, self.token);
        // Recorded before Discord shows "thinking…": a process killed right after deferring
        // then leaves its placeholder to the next one, through the outbox. But a slow store
        // (often why the answer is late) must not hold the deferral past Discord's window:
        // past its share of the window, both go side by side, as the only way left.
        let recording = service.defer_reply(request, reply_token, take_over_after);
        tokio::pin!(recording);
        let share = self
            .deadline
            .saturating_duration_since(Instant::now())
            .saturating_sub(DEFERRAL_TRIP);
        let (deferred, recorded) = match tokio::time::timeout(share, &mut recording).await {
            Ok(recorded) => (self.defer().await, recorded),
            Err(_) => {
                tracing::warn!(interaction = %self.id, "the store is slow to record a deferral; deferring first");
                tokio::join!(self.defer(), recording)
            }
        };
        let recorded = match recorded {
            Ok(id) => Some(id),
            Err(error) => {
                tracing::warn!(%error, interaction = %self.id, "cannot record a deferral; only this process can finish it");
                None
            }
        };
        if let Err(stop) = deferred {
            match (&stop, recorded) {
                // A second delivery of the interaction: the first one's answer stands.
                (Stop::AlreadyAnswered, Some(id)) => {
                    if let Err(error) = service.withdraw_deferred_reply(id).await {
                        tracing::warn!(%error, %id, "cannot withdraw a deferred reply");
                    }
                }
                // Not deferred in time: the outbox still posts the public replies.
                (_, Some(id)) => {
                    let _ = handling.await;
                    ready(service, id).await;
                }
                (_, None) => {}
            }
            return Err(stop);
        }
        let answer = handling.await.unwrap_or_else(|e| panicked(&e));
        match recorded {
            Some(id) => {
                ready(service, id).await;
                Ok(())
            }
            None => self.finish(sender, answer).await,
        }
    }

    /// Replies for the requester; anything addressed elsewhere is posted there (a passing
    /// failure to post one sets `passing`).
    async fn for_requester(
        &self,
        sender: &DiscordSender,
        answer: Answer,
        passing: &mut bool,
    ) -> Vec<Message> {
        let mut mine = Vec::new();
        for (n, message) in answer.replies.into_iter().enumerate() {
            if matches!(message.to, Destination::ReplyToRequester { .. }) {
                mine.push(message);
            } else if let Err(error) = sender.post(&message, self.nonce(n)).await {
                *passing |= matches!(error, SendError::Retry { .. });
                tracing::warn!(%error, "cannot post an answer addressed to a chat");
            }
        }
        mine
    }

    /// The nonce of this interaction's post `which`: the same interaction delivered again
    /// posts nothing twice. At most 20 digits, a colon and a short suffix: within Discord's 25.
    fn nonce(&self, which: impl std::fmt::Display) -> String {
        format!("{}:{which}", self.id)
    }

    /// The first answer, in time.
    async fn respond(&self, sender: &DiscordSender, answer: Answer) -> Result<(), Stop> {
        let mut replies = self
            .for_requester(sender, answer, &mut false)
            .await
            .into_iter();
        match replies.next() {
            // A pressed button whose effect shows elsewhere (the post is edited by the outbox).
            None if self.from_button => {
                self.callback(&CreateInteractionResponse::Acknowledge, Vec::new())
                    .await?;
            }
            // A command whose effect shows in the channel (a move's new board): acknowledge
            // and leave no trace.
            None => {
                self.defer().await?;
                self.delete_original().await?;
            }
            Some(first) => {
                let post = Post::of(&first);
                let files = post.files();
                let response =
                    CreateInteractionResponse::Message(post.response(is_ephemeral(&first)));
                if let Err(stop) = self.callback(&response, files).await {
                    if matches!(stop, Stop::Failed) && !is_ephemeral(&first) {
                        self.post_instead(sender, first, "r").await;
                    }
                    return Err(stop);
                }
            }
        }
        for reply in replies {
            self.followup(&reply).await?;
        }
        Ok(())
    }

    /// A public reply the interaction cannot carry (not answered in time, or deferred
    /// privately) goes to the channel as a message of its own, under nonce `which` (posted
    /// once however often this runs), retried on passing failures. False if a passing
    /// failure outlasted the retries.
    async fn post_instead(&self, sender: &DiscordSender, mut reply: Message, which: &str) -> bool {
        reply.to = Destination::Chat(jieqi_service::ChatId::new(
            jieqi_service::Platform::Discord,
            self.channel.to_string(),
        ));
        let backoff = ExponentialBuilder::default()
            .with_min_delay(Duration::from_millis(200))
            .with_max_delay(Duration::from_secs(5))
            .with_max_times(6);
        let posted = (|| sender.post(&reply, self.nonce(which)))
            .retry(backoff)
            .when(|e| matches!(e, SendError::Retry { .. }))
            .adjust(|e, delay| match e {
                SendError::Retry {
                    after: Some(after), ..
                } => delay.map(|d| d.max(*after)),
                _ => delay,
            })
            .await;
        match posted {
            Ok(post) => {
                tracing::debug!(%post, "posted an answer to the channel");
                true
            }
            Err(error) => {
                tracing::warn!(%error, "cannot post an answer to the channel");
                !matches!(error, SendError::Retry { .. })
            }
        }
    }

    /// After the (ephemeral) deferral: the deferral is resolved first (the first ephemeral
    /// reply written into it, or the placeholder removed), then public replies are posted to
    /// the channel and any further ephemeral ones follow up. A follow-up sent while the
    /// deferral still shows would become its answer, ephemeral whatever it asks for.
    ///
    /// Done again after a passing failure ([`Stop::Passing`], by the outbox), it repeats
    /// nothing anyone saw: the edit or removal leaves the same placeholder, and the posts
    /// carry nonces.
    pub(crate) async fn finish(&self, sender: &DiscordSender, answer: Answer) -> Result<(), Stop> {
        let mut passing = false;
        let (private, public): (Vec<Message>, Vec<Message>) = self
            .for_requester(sender, answer, &mut passing)
            .await
            .into_iter()
            .partition(is_ephemeral);
        let mut private = private.into_iter();
        let resolved = match private.next() {
            Some(first) => {
                let edit = Post::of(&first).edit_response();
                let (http, token) = (self.rest.http(), self.token);
                retried(
                    || edit.clone().execute(http, token),
                    "edit an interaction response",
                )
                .await
                .map(drop)
            }
            None => self.delete_original().await,
        };
        if let Err(Stop::AlreadyAnswered) = resolved {
            return resolved;
        }
        // Public replies reach the channel even if the placeholder could not be resolved.
        for (n, reply) in public.into_iter().enumerate() {
            passing |= !self.post_instead(sender, reply, &format!("p{n}")).await;
        }
        resolved?;
        for reply in private {
            self.followup(&reply).await?;
        }
        if passing { Err(Stop::Passing) } else { Ok(()) }
    }

    /// "Thinking…", seen by the requester alone.
    async fn defer(&self) -> Result<(), Stop> {
        let response = CreateInteractionResponse::Defer(
            CreateInteractionResponseMessage::new().ephemeral(true),
        );
        self.callback(&response, Vec::new()).await
    }

    /// Sends the first answer, waiting out rate limits and passing failures while Discord's
    /// window is open.
    pub(crate) async fn callback(
        &self,
        response: &CreateInteractionResponse,
        files: Vec<CreateAttachment>,
    ) -> Result<(), Stop> {
        self.first_answer(response, files, false).await.map(|_| ())
    }

    /// [`Target::callback`] with Discord's account of what the answer did
    /// (`?with_response=true`: the interaction callback response, whose `resource` names the
    /// message sent or the Activity instance launched). `None` when the answer is known to
    /// have got through only by asking afterwards.
    pub(crate) async fn callback_with_response(
        &self,
        response: &CreateInteractionResponse,
    ) -> Result<Option<serde_json::Value>, Stop> {
        self.first_answer(response, Vec::new(), true).await
    }

    async fn first_answer(
        &self,
        response: &CreateInteractionResponse,
        files: Vec<CreateAttachment>,
        with_response: bool,
    ) -> Result<Option<serde_json::Value>, Stop> {
        let mut backoff = Duration::from_millis(100);
        // Whether an earlier try may have reached Discord although we saw no success.
        let mut maybe_sent = false;
        loop {
            let route = Route::InteractionResponse {
                interaction_id: self.id,
                token: self.token,
            };
            // No longer than Discord's window: once it has closed, what the call did is
            // settled, and asked below instead of waited for.
            let left = self.deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return if maybe_sent && self.answered_after_all().await {
                    Ok(None)
                } else {
                    Err(Stop::Failed)
                };
            }
            let params = with_response.then(|| vec![("with_response", "true".to_owned())]);
            let result = match with_body(
                HttpRequest::new(route, LightMethod::Post).params(params),
                response,
                files.clone(),
            ) {
                Ok(request) => {
                    let call = async {
                        if with_response {
                            self.rest.call::<serde_json::Value>(request).await.map(Some)
                        } else {
                            self.rest.call_unit(request).await.map(|()| None)
                        }
                    };
                    tokio::time::timeout(left + WINDOW_CLOSES_AFTER, call)
                        .await
                        .unwrap_or_else(|_| {
                            Err(CallError::Transport(
                                "no answer within the interaction's window".to_owned(),
                            ))
                        })
                }
                Err(error) => Err(error),
            };
            let error = match result {
                Ok(answer) => return Ok(answer),
                Err(error) => error,
            };
            if error.status_and_code().map(|(_, code)| code) == Some(ALREADY_ACKNOWLEDGED) {
                // Our earlier try got through after all, or this is a second delivery.
                return if maybe_sent {
                    Ok(None)
                } else {
                    Err(Stop::AlreadyAnswered)
                };
            }
            if !error.is_passing() {
                return Err(failed(&error, "answer an interaction"));
            }
            maybe_sent |= matches!(error, CallError::Transport(_))
                || error
                    .status_and_code()
                    .is_some_and(|(status, _)| status >= 500);
            let wait = error.retry_after().unwrap_or(backoff);
            if Instant::now() + wait >= self.deadline {
                // A try whose answer never came may have been taken: then the answer shows
                // already, and posting it to the channel instead would show it twice.
                if maybe_sent && self.answered_after_all().await {
                    tracing::info!(%error, "an interaction's answer got through unacknowledged");
                    return Ok(None);
                }
                tracing::warn!(
                    %error,
                    ?wait,
                    "cannot answer an interaction within Discord's three seconds"
                );
                return Err(Stop::Failed);
            }
            tracing::debug!(%error, ?wait, "answering an interaction again");
            tokio::time::sleep(wait).await;
            backoff = (backoff * 2).min(Duration::from_millis(800));
        }
    }

    /// Whether the interaction has a first answer although we saw none succeed: Discord
    /// knows its original response (the message, or the deferral's placeholder) once there
    /// is one. Only a clear "unknown" counts as no; if Discord cannot be asked, the answer is
    /// taken as given, since showing it twice is the mistake a player sees.
    async fn answered_after_all(&self) -> bool {
        let http = self.rest.http();
        http.set_application_id(self.application);
        let asked = (|| http.get_original_interaction_response(self.token))
            .retry(
                ExponentialBuilder::default()
                    .with_min_delay(Duration::from_millis(200))
                    .with_max_times(4),
            )
            .when(|e| CallError::from_serenity(e).is_passing())
            .await;
        match asked {
            Ok(_) => true,
            Err(error) => {
                let error = CallError::from_serenity(&error);
                let unknown = error
                    .status_and_code()
                    .is_some_and(|(status, _)| status == 404);
                tracing::debug!(%error, unknown, "looked up an interaction's answer");
                !unknown
            }
        }
    }

    async fn delete_original(&self) -> Result<(), Stop> {
        let (http, token) = (self.rest.http(), self.token);
        retried(
            || http.delete_original_interaction_response(token),
            "remove a deferred response",
        )
        .await
    }

    async fn followup(&self, reply: &Message) -> Result<(), Stop> {
        let builder = Post::of(reply).followup(is_ephemeral(reply));
        let (http, token) = (self.rest.http(), self.token);
        retried(
            || builder.clone().execute(http, (None::<MessageId>, token)),
            "send a follow-up",
        )
        .await
        .map(|_| ())
    }
}

fn failed(error: &CallError, what: &str) -> Stop {
    match error.status_and_code() {
        Some((_, ALREADY_ACKNOWLEDGED)) => Stop::AlreadyAnswered,
        Some((_, UNKNOWN_INTERACTION | UNKNOWN_WEBHOOK | INVALID_WEBHOOK_TOKEN)) => {
            tracing::warn!(%error, "cannot {what}: the interaction expired");
            Stop::Failed
        }
        _ if error.is_passing() => {
            tracing::warn!(%error, "cannot {what} yet");
            Stop::Passing
        }
        _ => {
            tracing::warn!(%error, "cannot {what}");
            Stop::Failed
        }
    }
}

/// Tells the outbox that deferred reply `id` may be finished now. Should that fail, its
/// wait ends by itself.
async fn ready(service: &Service, id: jieqi_service::OutboxId) {
    if let Err(error) = service.deferred_reply_ready(id).await {
        tracing::warn!(%error, %id, "cannot hasten a deferred reply; it is finished when its wait ends");
    }
}

/// A call after the first answer (the interaction's token lasts 15 minutes), tried again on
/// passing failures (5xx, 429, network).
async fn retried<T, F, Fut>(call: F, what: &str) -> Result<T, Stop>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = serenity::Result<T>>,
{
    let backoff = ExponentialBuilder::default()
        .with_min_delay(Duration::from_millis(200))
        .with_max_delay(Duration::from_secs(5))
        .with_max_times(6);
    call.retry(backoff)
        .when(|e| CallError::from_serenity(e).is_passing())
        .await
        .map_err(|e| failed(&CallError::from_serenity(&e), what))
}

/// What the outbox keeps to answer an interaction later (`later.rs`): `<application
/// id>/<token>`.
pub(crate) fn reply_token(application: ApplicationId, token: &str) -> String {
    format!("{application}/{token}")
}

/// The application id and token of a reply token, or why it is not one of ours.
pub(crate) fn read_reply_token(reply_token: &str) -> Result<(ApplicationId, &str), SendError> {
    let bad = || SendError::Undeliverable(format!("`{reply_token}` names no interaction token"));
    let (application, token) = reply_token.split_once('/').ok_or_else(bad)?;
    let application = application.parse::<NonZeroU64>().map_err(|_| bad())?;
    if token.is_empty() {
        return Err(bad());
    }
    Ok((ApplicationId::from(application), token))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reply_tokens_read_back_and_garbage_is_refused() {
        let written = reply_token(ApplicationId::new(900_001), "aW50ZXJhY3Rpb24/abc");
        assert_eq!(written, "900001/aW50ZXJhY3Rpb24/abc");
        let (application, token) = read_reply_token(&written).expect("a reply token");
        assert_eq!(application, ApplicationId::new(900_001));
        assert_eq!(token, "aW50ZXJhY3Rpb24/abc");
        for bad in ["", "900001", "900001/", "0/token", "x/token", "/token"] {
            assert!(
                matches!(read_reply_token(bad), Err(SendError::Undeliverable(_))),
                "{bad}"
            );
        }
    }
}
