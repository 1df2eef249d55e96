//! # jieqi-store
//!
//! The game store as a contract: what the bot keeps and what a backend must promise. The
//! service is the only writer of games, and every change it makes is one [`Change`]
//! committed atomically by a [`GameStore`].
//!
//! A change carries the records it rewrites (each with its next revision, so a backend shared
//! by several processes refuses a change computed from stale data), the messages it causes
//! (the outbox), and the request's idempotency key with its answer.
//!
//! Delivery goes by *lanes* ([`Lane`]): one chat (its messages about each game a lane of
//! their own), or one person's private messages. Order is kept within a lane and never across
//! lanes, so one chat's trouble holds back nobody else.
//! A delivery loop [claims](GameStore::claim) the oldest message of each free lane for a
//! short lease, which it [renews](GameStore::renew) while it delivers; a process that dies
//! stops renewing, its claims lapse within the lease, and another process takes them over.
//!
//! Where to start: [`GameStore`] (the trait), [`records`] (what is kept), [`codec`] (the
//! byte form, its schema versions and the upgrades of older records), [`fleet`] (records
//! written for a fleet still running the previous release, during a rolling upgrade), [`replay`] (a game
//! rebuilt from its record, which the upgrade of old finished games uses to settle their
//! verdict). The vocabulary the records are written in lives here too, because the records
//! are made of it: [`ids`], [`message`] (messages, buttons, outbox entries), [`recipe`]
//! (pictures as recipes), [`settings`], [`language`].
//!
//! Backends: `SledStore` (embedded, one process, the default; the `jieqi-store-sled` crate)
//! and `PgStore` (PostgreSQL, shared by several processes; the `jieqi-store-pg` crate).

pub mod codec;
mod compact;
#[cfg(feature = "conformance")]
pub mod conformance;
pub mod fleet;
pub mod game_clock;
pub mod ids;
pub mod language;
pub mod message;
pub mod pace;
pub mod recipe;
pub mod records;
pub mod replay;
pub mod settings;
pub mod speed_ratings;
pub mod tournament;
pub mod utc_offset;
pub mod verdict;

use async_trait::async_trait;
use thiserror::Error;

use crate::ids::{
    ActivityInstanceId, ChallengeId, ChatId, GameId, IdempotencyKey, Platform, TournamentId, UserId,
};
use crate::message::{Destination, Message, OutboxEntry, OutboxId};

pub use pace::{Allowance, Spend, WindowLog};
pub use records::{
    AnswerRecord, BoardMoves, BoardPost, ChallengeRecord, ChatPuzzles, ChatRecord, ColourChoice,
    CourseProgress, DailySlot, DrawOffer, Ending, EngineSeat, GameRecord, ImageRecipe,
    LaunchRecord, OpenPuzzle, OutboxRecord, PlayerRecord, Prompts, PuzzleStats, ReviewRecord,
    ReviewRequest, Seat, SentRecord, StoredReply, UnixTime, VariantStats, commitment,
};
pub use speed_ratings::{LiveRating, LiveRatings};
pub use tournament::TournamentRecord;
pub use verdict::Verdict;

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
    /// An open tournament whose start time came ([`TournamentRecord::due_at`]).
    Tournament(TournamentId),
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
    /// Tournaments to write (revision checked like games: a round paired from a stale
    /// revision is refused with everything else in the change).
    pub tournaments: Vec<TournamentRecord>,
    /// New outbox messages (ids from [`GameStore::allocate_outbox_ids`]).
    pub outbox: Vec<(OutboxId, OutboxRecord)>,
    /// Outbox messages done with (delivered or given up), with what to remember of them.
    pub sent: Vec<(OutboxId, SentRecord)>,
    /// Outbox messages that failed a delivery round: their new attempt count, and when their
    /// lane may be tried again. Their claim ends.
    pub deferred: Vec<(OutboxId, Deferral)>,
    /// Outbox messages whose wait ends now (a deferred reply whose request was answered by
    /// its own process): their lane may be claimed at once. A claim on them stays as it is;
    /// one delivered meanwhile is left alone.
    pub hastened: Vec<OutboxId>,
    /// Finished reviews to store. Each is written once: the change is refused as a conflict
    /// if the game's review is stored already.
    pub reviews: Vec<ReviewRecord>,
    /// Reviews asked for, queued after every review queued before them. Refused as a
    /// conflict if that game's review is queued for that chat already.
    pub queued_reviews: Vec<ReviewRequest>,
    /// Queued reviews done with (posted, or given up). Refused as a conflict unless each is
    /// still queued, so that of several processes only one posts a review.
    pub dequeued_reviews: Vec<ReviewRequest>,
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
            && self.tournaments.is_empty()
            && self.outbox.is_empty()
            && self.sent.is_empty()
            && self.deferred.is_empty()
            && self.hastened.is_empty()
            && self.reviews.is_empty()
            && self.queued_reviews.is_empty()
            && self.dequeued_reviews.is_empty()
    }
}

/// News of a game, from the store to whoever follows games live (the web page's streams).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameChange {
    /// A commit wrote this revision of the game (in this process, or in another one sharing
    /// the store).
    Revised(GameId, u64),
    /// Announcements may have been missed (a shared store's listening connection was
    /// re-established, or a follower fell behind): read again whatever you follow.
    MaybeMissed,
}

/// How many announcements a slow follower may fall behind before it is told
/// [`GameChange::MaybeMissed`] instead of each one.
pub const GAME_CHANGE_BACKLOG: usize = 4096;

/// The announcements every revision of a game gets after its commit: each store keeps one
/// and calls [`GameChanges::announce`] once a change is committed.
#[derive(Clone, Debug)]
pub struct GameChanges {
    sender: tokio::sync::broadcast::Sender<GameChange>,
}

impl Default for GameChanges {
    fn default() -> GameChanges {
        GameChanges {
            sender: tokio::sync::broadcast::Sender::new(GAME_CHANGE_BACKLOG),
        }
    }
}

impl GameChanges {
    /// Announces every game `change` wrote (call once it is committed).
    pub fn announce(&self, change: &Change) {
        for game in &change.games {
            self.send(GameChange::Revised(game.id.clone(), game.revision));
        }
    }

    /// Announces one piece of news (nobody listening is fine).
    pub fn send(&self, news: GameChange) {
        let _ = self.sender.send(news);
    }

    /// A new follower, told everything announced from now on.
    pub fn subscribe(&self) -> tokio::sync::broadcast::Receiver<GameChange> {
        self.sender.subscribe()
    }
}

/// An undelivered message as the store has it: the entry (without picture bytes) and how to
/// draw its picture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PendingMessage {
    /// The entry.
    pub entry: OutboxEntry,
    /// Its picture's recipe, if it has one.
    pub picture: Option<crate::recipe::PictureSpec>,
    /// From [`GameStore::claim`]: the holder whose lapsed claim this claim took over (it
    /// stopped renewing: it died, or lost the store for a whole lease). `None` for a message
    /// nobody had claimed, or claimed last by the same holder.
    pub taken_from: Option<String>,
}

/// Milliseconds since the Unix epoch: the unit of delivery claims and deferrals, which need
/// finer steps than [`UnixTime`] (a platform's "retry after 1.5 s").
pub type UnixMillis = u64;

/// One delivery lane: a chat's messages about one game, its other messages, one person's
/// private messages, or one deferred reply. Messages of a lane are delivered in the order
/// they were queued; lanes are independent of each other.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Lane(pub String);

impl Lane {
    /// The lane of `message` (`None` for replies, which never enter the outbox): what every
    /// backend delivers by. A chat's messages about a game are a lane of their own beside the
    /// chat's: one game's posts keep their order, and one game's board waiting for its time
    /// (a live game's, `docs/clocks.md`) or its failures hold back no other game of the chat
    /// and no other answer there.
    pub fn of_message(message: &Message) -> Option<Lane> {
        match (&message.to, &message.game) {
            (Destination::Chat(chat), Some(game)) => Some(Lane(format!("c:{chat}/{game}"))),
            (to, _) => Lane::of(to),
        }
    }

    /// The lane of a message to `to` about no game (`None` for replies).
    pub fn of(to: &Destination) -> Option<Lane> {
        match to {
            Destination::Chat(chat) => Some(Lane(format!("c:{chat}"))),
            Destination::Private(user) => Some(Lane(format!("u:{user}"))),
            // Its own: nothing waits for it, and it waits for nothing.
            Destination::DeferredReply(reply) => Some(Lane(format!(
                "r:{}",
                RequestKey::new(reply.chat.platform, &reply.request).0
            ))),
            // Beside the chat's own lane: greying out old buttons waits for room to spare
            // and never holds back a board.
            Destination::StaleButtons(chat) => Some(Lane(format!("s:{chat}"))),
            Destination::ReplyToRequester { .. } => None,
        }
    }
}

/// The answer to [`GameStore::claim_review`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReviewClaim {
    /// The review is stored already: serve it.
    Done(Box<ReviewRecord>),
    /// This process may compute it until the claim lapses.
    Ours,
    /// Another process is computing it (its claim has not lapsed): wait for it.
    Busy,
}

/// A failed delivery round's consequence for one message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deferral {
    /// Failed rounds so far.
    pub attempts: u32,
    /// Its lane is not claimed again before this time.
    pub not_before: UnixMillis,
}

/// Boards of one game waiting one after the other at the head of a lane, and the newest of
/// them, which stands in for them all (see [`GameStore::coalesce`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Coalescing {
    /// The lane's head (claimed by the caller) and the boards queued after it up to the
    /// newest, in lane order: done with, without being sent.
    pub skipped: Vec<OutboxId>,
    /// The newest board, queued right after the last of `skipped`.
    pub covering: OutboxId,
    /// Its record rewritten: its caption names every move of the boards it stands in for.
    pub record: OutboxRecord,
}

/// Who claims outbox messages, and for how long.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Claim {
    /// The claiming process (unique per process run).
    pub holder: String,
    /// Now, as the claimant sees it.
    pub now: UnixMillis,
    /// When the claim lapses if the claimant has not finished by then (it died, say).
    pub until: UnixMillis,
}

/// A role only one process may play at a time (Telegram long polling), held until dropped or
/// lost. With PostgreSQL it is a session advisory lock: it goes with the process that holds
/// it, so a dead leader's role is free again at once.
pub struct Leadership {
    /// Cancelled when the role is lost (the database connection that holds it broke).
    pub lost: tokio_util::sync::CancellationToken,
    /// Whatever keeps the role held (a database connection); dropped to give it up.
    pub hold: Box<dyn std::any::Any + Send + Sync>,
}

impl std::fmt::Debug for Leadership {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Leadership")
            .field("lost", &self.lost.is_cancelled())
            .finish_non_exhaustive()
    }
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
    /// The store was written by a newer version of the bot.
    #[error(
        "the store has schema version {found}, newer than this bot's {supported}: run the newer \
         bot, or restore a backup made for this version"
    )]
    TooNew {
        /// The store's schema version.
        found: u32,
        /// The newest this binary knows.
        supported: u32,
    },
    /// Something only this release reads, while a process of an older release still shares
    /// the store (a rolling upgrade, `fleet.rs`).
    #[error(
        "{what} must wait until every process of this bot runs the new release (the store's \
         processes read record version {fleet}; this needs {needs})"
    )]
    NotYet {
        /// What could not be stored.
        what: String,
        /// The fleet version it needs.
        needs: u32,
        /// The store's fleet version.
        fleet: u32,
    },
}

/// Why a change was not committed.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum CommitError {
    /// A record changed since it was read (or an id is already taken): read again and retry.
    #[error("the game changed meanwhile")]
    Conflict,
    /// The request key was answered already; this is the earlier answer.
    #[error("this request was handled already")]
    Duplicate(AnswerRecord),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// One fresh outbox id from `store`.
pub async fn one_outbox_id(store: &dyn GameStore) -> Result<OutboxId, StoreError> {
    store
        .allocate_outbox_ids(1)
        .await?
        .into_iter()
        .next()
        .ok_or_else(|| StoreError::Backend("no outbox id".to_owned()))
}

/// Where games, challenges, chats, players, the outbox and request answers are kept.
///
/// Reads may return slightly stale data; [`GameStore::commit`] is where consistency is
/// enforced (revisions, request keys), so several processes can share one backend.
#[async_trait]
pub trait GameStore: Send + Sync + std::fmt::Debug {
    /// A game.
    async fn game(&self, id: &GameId) -> Result<Option<GameRecord>, StoreError>;
    /// A challenge.
    async fn challenge(&self, id: &ChallengeId) -> Result<Option<ChallengeRecord>, StoreError>;
    /// A chat.
    async fn chat(&self, chat: &ChatId) -> Result<Option<ChatRecord>, StoreError>;
    /// A player.
    async fn player(&self, user: &UserId) -> Result<Option<PlayerRecord>, StoreError>;
    /// A tournament.
    async fn tournament(&self, id: &TournamentId) -> Result<Option<TournamentRecord>, StoreError>;
    /// Every tournament run in `chat`, oldest first.
    async fn chat_tournaments(&self, chat: &ChatId) -> Result<Vec<TournamentRecord>, StoreError>;
    /// Every tournament not yet over (open or running), anywhere: a player takes part in one
    /// at a time, so joining looks here. Events are few; a backend may scan for them.
    async fn unfinished_tournaments(&self) -> Result<Vec<TournamentRecord>, StoreError>;
    /// The answer given earlier to this request key.
    async fn answer(&self, key: &RequestKey) -> Result<Option<AnswerRecord>, StoreError>;
    /// The answer given earlier to this request key, and the record of the chat it came
    /// from: what every request reads first, in one go where a backend can (one round trip
    /// instead of two on PostgreSQL).
    async fn answer_and_chat(
        &self,
        key: &RequestKey,
        chat: &ChatId,
    ) -> Result<(Option<AnswerRecord>, Option<ChatRecord>), StoreError> {
        Ok((self.answer(key).await?, self.chat(chat).await?))
    }
    /// Games, challenges and open tournaments whose deadline (a tournament's start time) is
    /// at or before `now`, oldest first.
    async fn due(&self, now: UnixTime, limit: usize) -> Result<Vec<Due>, StoreError>;
    /// Claims, for `claim.holder` until `claim.until`, the oldest undelivered message of up to
    /// `limit` lanes of `platform` (all platforms if `None`): lanes whose oldest message is
    /// neither claimed by a live claim nor deferred past `claim.now`. Never two messages of
    /// one lane at once. Oldest first.
    async fn claim(
        &self,
        platform: Option<Platform>,
        claim: &Claim,
        limit: usize,
    ) -> Result<Vec<PendingMessage>, StoreError>;
    /// When, after `claim.now`, a lane of `platform` that `claim.holder` is not delivering
    /// may next be claimed: the earliest lapse of another holder's claim or end of a deferral
    /// among the lanes' oldest messages. `None` if nothing is waiting so (or the store cannot
    /// tell): the delivery loop then looks again after its idle poll. The loop sleeps until
    /// then, so a dead process's lanes are taken over as their claims lapse.
    async fn next_claimable(
        &self,
        platform: Option<Platform>,
        claim: &Claim,
    ) -> Result<Option<UnixMillis>, StoreError> {
        let _ = (platform, claim);
        Ok(None)
    }
    /// Extends `claim.holder`'s claims on `ids` until `claim.until`: the heartbeat of a
    /// delivery loop, so that a short lease lapses only for a process that stopped beating
    /// (it died). Returns the ids still held; one another process has taken over (the claim
    /// lapsed first) is not extended and not returned.
    async fn renew(&self, claim: &Claim, ids: &[OutboxId]) -> Result<Vec<OutboxId>, StoreError>;
    /// The undelivered messages of `head`'s lane from `head` on (`head` first, then the ones
    /// queued after it, in lane order), at most `limit`; empty if `head` is not undelivered.
    /// The default reads the whole outbox: a backend should do better.
    async fn lane_from(
        &self,
        head: OutboxId,
        limit: usize,
    ) -> Result<Vec<(OutboxId, OutboxRecord)>, StoreError> {
        let pending = self.pending(usize::MAX).await?;
        let Some(lane) = pending
            .iter()
            .find(|p| p.entry.id == head)
            .and_then(|p| Lane::of_message(&p.entry.message))
        else {
            return Ok(Vec::new());
        };
        let mut out = Vec::new();
        for message in pending.into_iter().skip_while(|p| p.entry.id != head) {
            if out.len() >= limit {
                break;
            }
            if Lane::of_message(&message.entry.message).as_ref() != Some(&lane) {
                continue;
            }
            if let Some(record) = self.outbox_record(message.entry.id).await? {
                out.push((message.entry.id, record));
            }
        }
        Ok(out)
    }
    /// Lets the newest of several boards waiting in a row at the head of a lane stand in for
    /// them, in one durable step: every message of `coalescing.skipped` is done with (sent
    /// nowhere, no platform reference kept), the covering board's record is rewritten, and
    /// `claim.holder`'s claim moves from the lane's head to the covering board (until
    /// `claim.until`). Nothing is done, and `None` returned, unless `claim.holder` still
    /// holds its claim on the head (the first of `skipped`) and the lane still starts with
    /// exactly `skipped` and then the covering board. Returns the covering board, claimed.
    /// A crash after it leaves the covering board pending (its caption naming every move),
    /// for whoever takes the lane next. The default never coalesces.
    async fn coalesce(
        &self,
        claim: &Claim,
        coalescing: &Coalescing,
    ) -> Result<Option<PendingMessage>, StoreError> {
        let _ = (claim, coalescing);
        Ok(None)
    }
    /// Every undelivered message (claimed or not), oldest first: for tests and tools.
    async fn pending(&self, limit: usize) -> Result<Vec<PendingMessage>, StoreError>;
    /// One undelivered message.
    async fn outbox_record(&self, id: OutboxId) -> Result<Option<OutboxRecord>, StoreError>;
    /// `n` fresh outbox ids, increasing.
    async fn allocate_outbox_ids(&self, n: usize) -> Result<Vec<OutboxId>, StoreError>;
    /// Applies `change` atomically (durably if `change.durable`).
    async fn commit(&self, change: Change) -> Result<(), CommitError>;
    /// Forgets request answers, delivered-message references and Activity launches older
    /// than `before`.
    async fn prune(&self, before: UnixTime) -> Result<usize, StoreError>;
    /// Remembers that Discord's Activity instance `instance` was launched on `launch.game`
    /// (the game's "Play in Discord"), for every process: the Activity opened there asks
    /// [`GameStore::launch`]. A later launch into the same instance replaces it.
    async fn record_launch(
        &self,
        instance: &ActivityInstanceId,
        launch: &LaunchRecord,
    ) -> Result<(), StoreError>;
    /// What Activity instance `instance` was last launched on, if it was launched from a game.
    async fn launch(
        &self,
        instance: &ActivityInstanceId,
    ) -> Result<Option<LaunchRecord>, StoreError>;
    /// Gives back disk space that holds nothing live, when there is enough of it to be worth
    /// a pause of the writers (sled: a compacted copy). Returns whether it did. A store that
    /// does this by itself (PostgreSQL's autovacuum) has nothing to do.
    async fn reclaim(&self) -> Result<bool, StoreError> {
        Ok(false)
    }
    /// Writes everything to disk.
    async fn flush(&self) -> Result<(), StoreError>;
    /// The stored review of a game, if it was reviewed.
    async fn review(&self, game: &GameId) -> Result<Option<ReviewRecord>, StoreError>;
    /// The review queue: reviews asked for and not yet posted, in the order they were queued
    /// (at most `limit`).
    async fn queued_reviews(&self, limit: usize) -> Result<Vec<ReviewRequest>, StoreError>;
    /// Claims the computing of `game`'s review for `claim.holder` until `claim.until`, so
    /// that of several processes only one computes it. The default suits a store used by
    /// one process (sled), whose review queue never runs one game twice at once.
    async fn claim_review(&self, game: &GameId, claim: &Claim) -> Result<ReviewClaim, StoreError> {
        let _ = claim;
        Ok(match self.review(game).await? {
            Some(done) => ReviewClaim::Done(Box::new(done)),
            None => ReviewClaim::Ours,
        })
    }
    /// Spends one post from every one of `allowances` (the send budgets of a chat and of
    /// the bot, see [`pace`]) or from none, and says which: budgets are kept here so that
    /// every process posting to a chat spends from the same one. A store several processes
    /// share must spend atomically across them, by one clock.
    async fn spend(&self, allowances: &[Allowance]) -> Result<Spend, StoreError>;
    /// Tries to take `role` for this process; `None` if another process holds it.
    async fn lead(&self, role: &str) -> Result<Option<Leadership>, StoreError>;
    /// The store's own clock, in milliseconds since the Unix epoch, for a store several
    /// processes share: the one clock their live games are timed by (each process measures
    /// its offset from it). `None`: the store has no clock of its own (sled, one process:
    /// that process's clock is the store's).
    async fn store_time(&self) -> Result<Option<UnixMillis>, StoreError> {
        Ok(None)
    }
    /// Follows every game revision committed from now on: by this process, and for a store
    /// several processes share, by the others too (PostgreSQL: `LISTEN`/`NOTIFY`).
    fn game_changes(&self) -> tokio::sync::broadcast::Receiver<GameChange>;
    /// The fleet version: the record codec schema every process sharing this store reads,
    /// which records are written in ([`fleet`]). Older than [`codec::SCHEMA_VERSION`] only
    /// during a rolling upgrade of a shared store; what only this release reads waits until
    /// it is at least the version [`fleet::since`] names. A store one process owns (sled) is
    /// always at this release's version. Required, so that a store wrapping another says
    /// the inner one's.
    fn fleet(&self) -> u8;
}
