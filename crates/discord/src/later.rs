//! A deferred interaction finished through the outbox, by whichever process delivers it.
//!
//! When an answer is deferred (`respond.rs`), the service records a deferred reply naming the
//! interaction (its id is the request's key) and, in its reply token, what answering it
//! needs: the application id and the interaction's token, which Discord honours for 15
//! minutes. The delivery loop hands it here with the answer stored under the request's key
//! ([`jieqi_service::Sender::finish`]); it is finished the way the live process would have:
//! the placeholder resolved first, then the public replies posted to the channel under the
//! interaction's nonces, so that a process that dies midway and another that does it again
//! post nothing twice.

use std::num::NonZeroU64;
use std::time::Instant;

use jieqi_service::{Answer, Destination, OutboxEntry, SendError};
use serenity::all::{ChannelId, InteractionId};

use crate::respond::{Stop, Target, read_reply_token};
use crate::sender::DiscordSender;

fn snowflake(text: &str) -> Option<NonZeroU64> {
    text.parse().ok()
}

/// Finishes the deferred interaction of `entry` with `answer`. A passing failure is
/// [`SendError::Retry`] (the outbox tries again, repeating nothing seen); an interaction
/// that can no longer be answered (its token lapsed) still gets its public replies posted,
/// and is done.
pub(crate) async fn finish(
    sender: &DiscordSender,
    entry: &OutboxEntry,
    answer: &Answer,
) -> Result<Option<String>, SendError> {
    let Destination::DeferredReply(reply) = &entry.message.to else {
        return Err(SendError::Undeliverable(format!(
            "{} is not a deferred reply",
            entry.id
        )));
    };
    let (application, token) = read_reply_token(&reply.reply_token)?;
    let id = snowflake(&reply.request.0)
        .map(InteractionId::from)
        .ok_or_else(|| {
            SendError::Undeliverable(format!("`{}` is not an interaction id", reply.request))
        })?;
    let channel = snowflake(&reply.chat.id)
        .map(ChannelId::from)
        .ok_or_else(|| SendError::Undeliverable(format!("{} is not a channel", reply.chat)))?;
    let rest = sender.rest();
    // Follow-ups and edits go to the application's webhook; this process may not have heard
    // of the application yet (its gateway not ready), and the bot has only one.
    rest.http().set_application_id(application);
    let target = Target {
        rest,
        application,
        id,
        token,
        channel,
        from_button: false,
        // Only the first answer has a deadline, and it was sent.
        deadline: Instant::now(),
    };
    match target.finish(sender, answer.clone()).await {
        Ok(()) | Err(Stop::AlreadyAnswered | Stop::Failed) => Ok(None),
        Err(Stop::Passing) => Err(SendError::Retry {
            after: None,
            reason: format!("interaction {id} could not be finished yet"),
        }),
    }
}
