//! Storage behind a trait: the service is the only writer of games, and every change it makes
//! is one [`Change`] committed atomically by a [`GameStore`].
//!
//! A change carries the records it rewrites (each with its next revision, so a backend shared
//! by several processes can refuse a change computed from stale data), the messages it causes
//! (the outbox), and the request's idempotency key with its answer. `SledStore` is the
//! embedded backend; a PostgreSQL one can implement the same trait with a row per record and a
//! `revision = $old` condition on each update.

mod codec;
pub mod records;
mod sled_store;

use async_trait::async_trait;
use thiserror::Error;

use crate::ids::{ChallengeId, ChatId, GameId, IdempotencyKey, Platform, UserId};
use crate::message::{Answer, OutboxEntry, OutboxId};

pub use records::{
    AnswerRecord, BoardPost, ChallengeRecord, ChatRecord, ColourChoice, DrawOffer, Ending,
    EngineSeat, GameRecord, OutboxRecord, PlayerRecord, Seat, SentRecord, UnixTime, VariantStats,
};
pub use sled_store::SledStore;

/// A request key scoped by platform (Telegram and Discord number their events separately).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RequestKey(pub String);

impl RequestKey {
    /// The store key of `key` on `platform`.
    pub fn new(platform: Platform, key: &IdempotencyKey) -> RequestKey {
        RequestKey(format!("{platform}:{}", key.0))
    }
}

/// Something whose deadline has passed.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Due {
    /// A game whose player to move ran out of time.
    Game(GameId),
    /// A challenge that expired.
    Challenge(ChallengeId),
}

/// One atomic change: records rewritten, challenges removed, messages queued, the request
/// answered. Each record must carry its stored revision + 1 (1 for a new record).
#[derive(Clone, Debug, Default)]
pub struct Change {
    /// The request this change answers, and the answer (recorded for repeats).
    pub request: Option<(RequestKey, AnswerRecord)>,
    /// Games to write.
    pub games: Vec<GameRecord>,
    /// Challenges to write.
    pub challenges: Vec<ChallengeRecord>,
    /// Challenges to delete, with the revision they must still have.
    pub removed_challenges: Vec<(ChallengeId, u64)>,
    /// Chats to write.
    pub chats: Vec<ChatRecord>,
    /// Players to write.
    pub players: Vec<PlayerRecord>,
    /// New outbox messages (ids from [`GameStore::allocate_outbox_ids`]).
    pub outbox: Vec<(OutboxId, OutboxRecord)>,
    /// Outbox messages done with (delivered or given up), with what to remember of them.
    pub sent: Vec<(OutboxId, SentRecord)>,
    /// Outbox messages whose failed-attempt count changes.
    pub attempts: Vec<(OutboxId, u32)>,
    /// Wait until the change is on disk before returning (moves, game changes). Delivery
    /// bookkeeping does not need to: a crash there resends, never loses.
    pub durable: bool,
}

impl Change {
    /// True if the change writes nothing.
    pub fn is_empty(&self) -> bool {
        self.request.is_none()
            && self.games.is_empty()
            && self.challenges.is_empty()
            && self.removed_challenges.is_empty()
            && self.chats.is_empty()
            && self.players.is_empty()
            && self.outbox.is_empty()
            && self.sent.is_empty()
            && self.attempts.is_empty()
    }
}

/// An undelivered message as the store has it: the entry (without picture bytes) and how to
/// draw its picture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PendingMessage {
    /// The entry.
    pub entry: OutboxEntry,
    /// Its picture's recipe, if it has one.
    pub picture: Option<crate::pictures::PictureSpec>,
}

/// A store that failed.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum StoreError {
    /// The database could not be read or written.
    #[error("the game store is not working ({0}); please try again in a moment")]
    Backend(String),
    /// A stored record could not be read back.
    #[error("a stored record could not be read ({0})")]
    Corrupt(String),
}

/// Why a change was not committed.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum CommitError {
    /// A record changed since it was read (or an id is already taken): read again and retry.
    #[error("the game changed meanwhile")]
    Conflict,
    /// The request key was answered already; this is the earlier answer.
    #[error("this request was handled already")]
    Duplicate(Answer),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Where games, challenges, chats, players, the outbox and request answers are kept.
///
/// Reads may return slightly stale data; [`GameStore::commit`] is where consistency is
/// enforced (revisions, request keys), so several processes can share one backend.
#[async_trait]
pub trait GameStore: Send + Sync + std::fmt::Debug {
    /// A game.
    fn game(&self, id: &GameId) -> Result<Option<GameRecord>, StoreError>;
    /// A challenge.
    fn challenge(&self, id: &ChallengeId) -> Result<Option<ChallengeRecord>, StoreError>;
    /// A chat.
    fn chat(&self, chat: &ChatId) -> Result<Option<ChatRecord>, StoreError>;
    /// A player.
    fn player(&self, user: &UserId) -> Result<Option<PlayerRecord>, StoreError>;
    /// The answer given earlier to this request key.
    fn answer(&self, key: &RequestKey) -> Result<Option<Answer>, StoreError>;
    /// Games and challenges whose deadline is at or before `now`, oldest first.
    fn due(&self, now: UnixTime, limit: usize) -> Result<Vec<Due>, StoreError>;
    /// Undelivered messages for `platform` (all platforms if `None`), oldest first.
    fn pending(
        &self,
        platform: Option<Platform>,
        limit: usize,
    ) -> Result<Vec<PendingMessage>, StoreError>;
    /// One undelivered message.
    fn outbox_record(&self, id: OutboxId) -> Result<Option<OutboxRecord>, StoreError>;
    /// `n` fresh outbox ids, increasing.
    fn allocate_outbox_ids(&self, n: usize) -> Result<Vec<OutboxId>, StoreError>;
    /// Applies `change` atomically (durably if `change.durable`).
    async fn commit(&self, change: Change) -> Result<(), CommitError>;
    /// Forgets request answers and delivered-message references older than `before`.
    fn prune(&self, before: UnixTime) -> Result<usize, StoreError>;
    /// Writes everything to disk.
    async fn flush(&self) -> Result<(), StoreError>;
}
