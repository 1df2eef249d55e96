//! Answers given later, by any process: a request whose answer the platform let us defer (a
//! Discord interaction showing "thinking…", whose token stays valid for 15 minutes) is
//! finished through the outbox, like any post.
//!
//! When the adapter defers, it records a deferred reply ([`Service::defer_reply`]): an
//! outbox entry in the request's own lane that names the request's key and carries what the
//! platform needs to answer it. Its delivery waits a while, the live process's chance; when
//! the request's own process has its answer it says so ([`Service::deferred_reply_ready`]),
//! and the entry is due at once. Whoever claims it then (that process, or another one if it
//! died) reads the answer stored under the request's key and hands it to the adapter's
//! [`Sender::finish`](crate::Sender::finish). The claim, the delivered mark and the posts'
//! nonces make it one answer however many processes run.
//!
//! A request that never went through (its process died before the commit, or the commit
//! failed) has no stored answer. Its deferred reply then stores one under the request's key
//! itself, the entry's own message saying it did not go through, in the same way a request
//! records its answer: the request's commit, should it still come, is refused as a repeat,
//! so that the requester is never told "send it again" about a change that happened.

use std::time::{Duration, SystemTime};

use crate::context::{unix, unix_millis};
use crate::error::ServiceError;
use crate::message::{
    Answer, DeferredReply, Destination, Message, MessageKind, OutboxEntry, OutboxId,
};
use crate::request::Request;
use crate::service::{Service, commit_error};
use crate::store::{
    AnswerRecord, Change, CommitError, OutboxRecord, RequestKey, SentRecord, StoredReply,
};

impl Service {
    /// Records that `request` is answered later, through the outbox, with `reply_token`
    /// (what the adapter needs to answer it). The entry waits `wait` (the time this process
    /// has to say [`Service::deferred_reply_ready`]) before another process may finish it.
    /// Durable before it returns; the entry's id is returned.
    pub async fn defer_reply(
        &self,
        request: &Request,
        reply_token: String,
        wait: Duration,
    ) -> Result<OutboxId, ServiceError> {
        // An older release still sharing the store could not read a deferred reply: until
        // the upgrade is finalized, the adapter finishes its deferrals itself.
        let fleet = self.inner.store.fleet();
        let needs = crate::store::fleet::since::DEFERRED_AND_BUTTON_EDITS;
        if fleet < needs {
            return Err(crate::store::StoreError::NotYet {
                what: "a deferred reply".to_owned(),
                needs: u32::from(needs),
                fleet: u32::from(fleet),
            }
            .into());
        }
        let language = self.reply_language(request).await;
        let note = self
            .inner
            .translations
            .text(language, "error-not-through", &[]);
        let reply = DeferredReply {
            chat: request.chat.clone(),
            request: request.key.clone(),
            reply_token,
        };
        let message = Message::text(
            Destination::DeferredReply(reply),
            MessageKind::Refusal,
            note,
        );
        let id = crate::store::one_outbox_id(self.inner.store.as_ref()).await?;
        // The delivery's clock: the wait is measured against its claims.
        let now = self.inner.config.wall_clock.now();
        let wait = u64::try_from(wait.as_millis()).unwrap_or(u64::MAX);
        let change = Change {
            outbox: vec![(
                id,
                OutboxRecord {
                    not_before: unix_millis(now).saturating_add(wait),
                    ..OutboxRecord::new(message, unix(now))
                },
            )],
            durable: true,
            ..Change::default()
        };
        self.inner
            .store
            .commit(change)
            .await
            .map_err(commit_error)?;
        Ok(id)
    }

    /// The request of deferred reply `id` has been answered by this process: any delivery
    /// loop may finish it now (this one is woken). A reply finished meanwhile is left alone.
    pub async fn deferred_reply_ready(&self, id: OutboxId) -> Result<(), ServiceError> {
        let change = Change {
            hastened: vec![id],
            ..Change::default()
        };
        self.inner
            .store
            .commit(change)
            .await
            .map_err(commit_error)?;
        self.inner
            .outbox_signal
            .send_modify(|n| *n = n.wrapping_add(1));
        Ok(())
    }

    /// Deferred reply `id` is not needed after all (the platform had the request answered
    /// already: a second delivery of it): it is dropped undelivered.
    pub async fn withdraw_deferred_reply(&self, id: OutboxId) -> Result<(), ServiceError> {
        let change = Change {
            sent: vec![(
                id,
                SentRecord {
                    platform_ref: None,
                    at: unix(SystemTime::now()),
                },
            )],
            ..Change::default()
        };
        self.inner.store.commit(change).await.map_err(commit_error)
    }

    /// For a deferred reply, the answer to finish it with: the one stored under its
    /// request's key, its pictures drawn again; or, with none stored, the entry's own message
    /// (the request did not go through), stored under the key first so that the request can
    /// never go through now. `None` for any other entry.
    pub(crate) async fn deferred_answer(
        &self,
        entry: &OutboxEntry,
    ) -> Result<Option<Answer>, ServiceError> {
        let Destination::DeferredReply(reply) = &entry.message.to else {
            return Ok(None);
        };
        let key = RequestKey::new(reply.chat.platform, &reply.request);
        if let Some(earlier) = self.inner.store.answer(&key).await? {
            return Ok(Some(self.repeat(earlier).await));
        }
        let note = Message {
            to: Destination::ReplyToRequester { ephemeral: true },
            ..entry.message.clone()
        };
        let change = Change {
            request: Some((
                key,
                AnswerRecord {
                    at: unix(SystemTime::now()),
                    replies: vec![StoredReply {
                        message: note.clone(),
                        picture: None,
                    }],
                },
            )),
            durable: true,
            ..Change::default()
        };
        match self.inner.store.commit(change).await {
            Ok(()) => {
                tracing::info!(id = %entry.id, "a deferred request never went through");
                Ok(Some(Answer::reply(note)))
            }
            // The request's own commit came first after all.
            Err(CommitError::Duplicate(earlier)) => Ok(Some(self.repeat(earlier).await)),
            Err(e) => Err(commit_error(e)),
        }
    }
}
