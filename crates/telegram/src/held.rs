//! Replies held back until the private message they speak of is delivered (`/peek`'s "I sent
//! your view"): the handler holds them, the client keeps them, and the outbox's delivery of
//! the private message releases them (`replies::release_held`).

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use jieqi_service::{Message, UserId};

use crate::address::Address;

/// Replies that speak of a private message (`/peek`'s "I sent your view"), held back until
/// that message is delivered: said before, they could be false. Kept in memory: if another
/// process delivers the private message, or this one restarts, the reply is never said,
/// which is better than a false one.
#[derive(Debug, Default)]
pub(crate) struct HeldReplies {
    by_user: Mutex<HashMap<UserId, (Instant, Held)>>,
}

/// Replies to say once a private message to their requester is delivered.
#[derive(Debug)]
pub(crate) struct Held {
    /// The chat of the request.
    pub address: Address,
    /// The request's message, which they answer.
    pub reply_to: teloxide::types::MessageId,
    pub messages: Vec<Message>,
}

/// Held replies whose private message never came are forgotten after this long.
const HELD_AT_MOST: Duration = Duration::from_secs(15 * 60);

impl HeldReplies {
    pub(crate) fn hold(&self, user: &UserId, held: Held) {
        let mut by_user = self.by_user.lock().unwrap_or_else(|p| p.into_inner());
        by_user.retain(|_, (since, _)| since.elapsed() < HELD_AT_MOST);
        by_user.insert(user.clone(), (Instant::now(), held));
    }

    /// The replies held for `user`, taken.
    pub(crate) fn take(&self, user: &UserId) -> Option<Held> {
        let mut by_user = self.by_user.lock().unwrap_or_else(|p| p.into_inner());
        by_user
            .remove(user)
            .filter(|(since, _)| since.elapsed() < HELD_AT_MOST)
            .map(|(_, held)| held)
    }
}
