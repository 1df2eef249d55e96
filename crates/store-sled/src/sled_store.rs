//! The embedded store: one sled tree with prefixed keys, one sled transaction per change,
//! and group commit: concurrent changes that ask to be durable share one flush.
//!
//! Compaction: sled leaves most of a busy folder to garbage and its own bookkeeping, so when
//! the folder has grown well past its size after the last compaction, [`SledStore`] copies
//! the live records into a fresh database and switches to it (`sled_folder.rs` makes the
//! switch atomic). Writers go on during the copy and note the keys they change; only those
//! are copied again, with writers held, before the switch. So the pause writers see grows
//! with what was written during the copy, not with the store.
//!
//! Keys: `g` game id, `c` challenge id, `h` chat, `p` player, `r` request key (answers),
//! `R` time + request key (pruning index), `o` outbox id (pending messages), `s` outbox id
//! (delivered messages' platform refs), `d` kind (`g`, `c`, `t`) + time + id (deadlines; an
//! open tournament's start time), `v` game id
//! (finished reviews), `q` queue order (reviews queued, in order), `Q` game id + chat (the
//! queue order of that review, to find it in a transaction), `a` Activity instance (the game
//! it was launched on), `t` tournament id (its own byte form, `jieqi_store::tournament`), `T`
//! chat + creation time + tournament id (a chat's tournaments).

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};

use async_trait::async_trait;
use sled::IVec;
use sled::transaction::{
    ConflictableTransactionError, TransactionError, TransactionalTree, UnabortableTransactionError,
};
use tokio::sync::watch;

use crate::sled_folder::{DataFolder, allocated_bytes};
use jieqi_store::codec::{Record, SCHEMA_VERSION, decode, encode, version_of};
use jieqi_store::ids::{
    ActivityInstanceId, ChallengeId, ChatId, GameId, Platform, TournamentId, UserId,
};
use jieqi_store::message::{OutboxEntry, OutboxId};
use jieqi_store::records::{
    AnswerRecord, ChallengeRecord, ChatRecord, GameRecord, LaunchRecord, OutboxRecord,
    PlayerRecord, ReviewRecord, ReviewRequest, SentRecord, UnixTime,
};
use jieqi_store::tournament::{TournamentRecord, decode_tournament, encode_tournament};
use jieqi_store::{
    Change, Claim, Coalescing, CommitError, Due, GameChange, GameChanges, GameStore, Lane,
    Leadership, PendingMessage, RequestKey, StoreError, UnixMillis, WindowLog,
};

mod compaction;
mod game_store;
mod keys;
mod upgrade;

#[cfg(test)]
pub(crate) use compaction::CompactUntil;
use keys::*;

fn backend(e: impl std::fmt::Display) -> StoreError {
    StoreError::Backend(e.to_string())
}

/// Why a sled transaction stopped on purpose.
enum Abort {
    Conflict,
    Duplicate(AnswerRecord),
    Corrupt(StoreError),
}

type TxResult<T> = Result<T, ConflictableTransactionError<Abort>>;

fn abort<T>(why: Abort) -> TxResult<T> {
    Err(ConflictableTransactionError::Abort(why))
}

fn tx_decode<T: Record>(bytes: &[u8]) -> TxResult<T> {
    decode(bytes).map_err(|e| ConflictableTransactionError::Abort(Abort::Corrupt(e)))
}

fn tx_encode<T: Record>(value: &T) -> TxResult<Vec<u8>> {
    encode(value).map_err(|e| ConflictableTransactionError::Abort(Abort::Corrupt(e)))
}

fn lift(e: UnabortableTransactionError) -> ConflictableTransactionError<Abort> {
    e.into()
}

/// A transaction's view of the tree that notes the keys it writes while a compaction is
/// copying (see [`SledStore::compact`]). A transaction that sled runs again notes its keys
/// again, which does no harm: a key noted and not changed is copied again unchanged.
struct Writes<'a> {
    tx: &'a TransactionalTree,
    noted: Option<&'a RefCell<Vec<Vec<u8>>>>,
}

impl Writes<'_> {
    fn note(&self, k: &[u8]) {
        if let Some(noted) = self.noted {
            noted.borrow_mut().push(k.to_vec());
        }
    }

    fn get(&self, k: &[u8]) -> Result<Option<IVec>, UnabortableTransactionError> {
        self.tx.get(k)
    }

    fn insert(
        &self,
        k: impl AsRef<[u8]>,
        v: impl Into<IVec>,
    ) -> Result<Option<IVec>, UnabortableTransactionError> {
        self.note(k.as_ref());
        self.tx.insert(k.as_ref(), v)
    }

    fn remove(&self, k: impl AsRef<[u8]>) -> Result<Option<IVec>, UnabortableTransactionError> {
        self.note(k.as_ref());
        self.tx.remove(k.as_ref())
    }
}

/// Checks that `revision` follows the stored record's and writes it; returns the old record.
fn put_revised<T>(
    tx: &Writes<'_>,
    k: &[u8],
    record: &T,
    revision: u64,
    stored_revision: impl Fn(&T) -> u64,
) -> TxResult<Option<T>>
where
    T: Record,
{
    let old: Option<T> = match tx.get(k).map_err(lift)? {
        Some(bytes) => Some(tx_decode(&bytes)?),
        None => None,
    };
    if revision != old.as_ref().map_or(0, &stored_revision) + 1 {
        return abort(Abort::Conflict);
    }
    tx.insert(k, tx_encode(record)?).map_err(lift)?;
    Ok(old)
}

/// Lets concurrent committers share flushes: whoever finds no flush running starts one that
/// covers every change applied so far; the others wait for a flush that covers theirs.
#[derive(Debug)]
struct GroupFlush {
    applied: AtomicU64,
    flushing: AtomicBool,
    flushed: watch::Sender<u64>,
}

impl GroupFlush {
    fn new() -> GroupFlush {
        GroupFlush {
            applied: AtomicU64::new(0),
            flushing: AtomicBool::new(false),
            flushed: watch::Sender::new(0),
        }
    }

    /// A ticket for a change just applied in memory.
    fn ticket(&self) -> u64 {
        self.applied.fetch_add(1, Ordering::SeqCst) + 1
    }

    async fn wait_durable(&self, live: &RwLock<Live>, ticket: u64) -> Result<(), StoreError> {
        let mut flushed = self.flushed.subscribe();
        loop {
            if *flushed.borrow_and_update() >= ticket {
                return Ok(());
            }
            if self
                .flushing
                .compare_exchange(false, true, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
            {
                let mut leading = Leading {
                    flush: self,
                    covered: None,
                };
                let covers = self.applied.load(Ordering::SeqCst);
                // The database is read after `covers`: a change applied to a compacted copy
                // took its ticket after the switch, so a flush covering it flushes the copy.
                // Changes applied before the switch were copied and synced with the copy.
                let db = read(live).db.clone();
                let result = tokio::task::spawn_blocking(move || db.flush())
                    .await
                    .map_err(backend)
                    .and_then(|r| r.map_err(backend));
                if result.is_ok() {
                    leading.covered = Some(covers);
                }
                drop(leading);
                result?;
                continue;
            }
            if flushed.changed().await.is_err() {
                return Err(StoreError::Backend("the store is closing".to_owned()));
            }
        }
    }
}

/// The lead of one flush. Dropping it ends the lead, however the leader's wait ends: its
/// future may be dropped during the flush (an aborted task, a cancelled request), and a flag
/// left set would keep every later commit waiting for a flush nobody starts.
struct Leading<'a> {
    flush: &'a GroupFlush,
    /// How far the flush made changes durable, once it has.
    covered: Option<u64>,
}

impl Drop for Leading<'_> {
    fn drop(&mut self) {
        // The flag is cleared before the waiters wake, so one of them can lead the next flush.
        self.flush.flushing.store(false, Ordering::SeqCst);
        let covered = self.covered;
        self.flush.flushed.send_modify(|flushed| {
            if let Some(covered) = covered {
                *flushed = (*flushed).max(covered);
            }
        });
    }
}

/// The live sled database.
#[derive(Clone, Debug)]
struct Live {
    db: sled::Db,
    tree: sled::Tree,
    /// Added to sled's ids to make outbox ids: a compacted copy's id counter starts afresh,
    /// and outbox ids must keep growing (delivered messages are looked up by them).
    id_base: u64,
}

fn read(live: &RwLock<Live>) -> std::sync::RwLockReadGuard<'_, Live> {
    live.read()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The key of the outbox id base ([`Live::id_base`]), a big-endian u64.
const META_ID_BASE: &[u8] = b"m:id_base";
/// The key of the folder's size right after the last compaction, a big-endian u64.
const META_COMPACTED: &[u8] = b"m:compacted";
/// Compaction waits until the folder is this large: below it, sled's fixed overhead is
/// most of the folder and a copy would give little back.
const COMPACT_FROM: u64 = 1 << 20;
/// Outbox entries [`SledStore::lane_from`] looks through at most.
const LANE_SCAN: usize = 4096;
/// Records a compaction copies between rests.
const COPY_BATCH: usize = 4096;

/// The sled-backed [`GameStore`] (the `DATA_DIR` folder).
#[derive(Clone, Debug)]
pub struct SledStore {
    /// Swapped by compaction. Writers hold the read lock while they write, so a compaction
    /// (which takes the write lock) copies every change applied before it.
    live: Arc<RwLock<Live>>,
    /// The data folder (`None` for a temporary store, which is never compacted).
    folder: Option<Arc<DataFolder>>,
    /// The folder's size after the last compaction (or at open).
    compacted: Arc<AtomicU64>,
    flush: Arc<GroupFlush>,
    /// Live delivery claims: their holder and until when. One process owns a sled folder, so
    /// claims need not outlive it.
    claims: Arc<Mutex<HashMap<OutboxId, (String, UnixMillis)>>>,
    /// While a compaction copies: the keys written since it started (writers add theirs
    /// under the read lock of `live`; the compaction sets and takes it under the write lock).
    changed: Arc<Mutex<Option<HashSet<Vec<u8>>>>>,
    /// One compaction at a time.
    compacting: Arc<Mutex<()>>,
    /// Told of every committed game revision (one process owns the folder: in memory).
    changes: GameChanges,
    /// The send budgets (one process owns the folder, so they need not outlive it: a
    /// restart takes longer than most windows).
    pace: Arc<WindowLog>,
}

impl SledStore {
    /// Opens (or creates) the store in `dir`. Only one process may open a folder at a time.
    /// A folder grown well past its live data is compacted first.
    pub fn open(dir: &Path) -> Result<SledStore, StoreError> {
        let folder = DataFolder::open(dir)?;
        let db = open_db(&folder.live_path())?;
        let store = SledStore::from_db(db, Some(Arc::new(folder)))?;
        store.compact_if_grown()?;
        Ok(store)
    }

    /// A store that lives in a temporary folder, removed when dropped (tests, benchmarks).
    pub fn temporary() -> Result<SledStore, StoreError> {
        let db = sled::Config::new()
            .temporary(true)
            .open()
            .map_err(backend)?;
        SledStore::from_db(db, None)
    }

    fn from_db(db: sled::Db, folder: Option<Arc<DataFolder>>) -> Result<SledStore, StoreError> {
        let tree = db.open_tree(TREE).map_err(backend)?;
        let id_base = read_u64(&tree, META_ID_BASE)?;
        let compacted = match &folder {
            Some(_) => read_u64(&tree, META_COMPACTED)?,
            None => 0,
        };
        let store = SledStore {
            live: Arc::new(RwLock::new(Live { db, tree, id_base })),
            folder,
            compacted: Arc::new(AtomicU64::new(compacted)),
            flush: Arc::new(GroupFlush::new()),
            claims: Arc::new(Mutex::new(HashMap::new())),
            changed: Arc::new(Mutex::new(None)),
            compacting: Arc::new(Mutex::new(())),
            changes: GameChanges::default(),
            pace: Arc::new(WindowLog::default()),
        };
        store.migrate()?;
        Ok(store)
    }

    /// The live database (a handle: a compaction may replace it; write only under `read`).
    fn live(&self) -> Live {
        read(&self.live).clone()
    }

    /// Replaces the stored bytes of `record` by `bytes` behind the store's back, as an older
    /// bot would have written them: the conformance suite's upgrade tests.
    #[cfg(feature = "conformance")]
    pub fn overwrite_stored(
        &self,
        record: jieqi_store::conformance::StoredRecord<'_>,
        bytes: &[u8],
    ) -> Result<(), StoreError> {
        use jieqi_store::conformance::StoredRecord;
        let k = match record {
            StoredRecord::Game(id) => game_key(id),
            StoredRecord::Challenge(id) => challenge_key(id),
            StoredRecord::Chat(chat) => chat_key(chat),
            StoredRecord::Player(user) => player_key(user),
            StoredRecord::Outbox(id) => outbox_key(id),
            StoredRecord::Answer(request) => key(ANSWER, request.0.as_bytes()),
        };
        self.live().tree.insert(k, bytes).map_err(backend)?;
        Ok(())
    }

    /// Bytes the database occupies on disk.
    pub fn size_on_disk(&self) -> Result<u64, StoreError> {
        self.live().db.size_on_disk().map_err(backend)
    }

    fn read<T: Record>(&self, k: &[u8]) -> Result<Option<T>, StoreError> {
        match self.live().tree.get(k).map_err(backend)? {
            Some(bytes) => decode(&bytes).map(Some),
            None => Ok(None),
        }
    }

    /// Whether a compaction is copying (asked under the read lock of `live`, during which
    /// the answer cannot change), and so writers must note the keys they write.
    fn copying(&self) -> bool {
        self.changed
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .is_some()
    }

    /// Adds `keys` to what the running compaction must copy again.
    fn note_changed(&self, keys: impl IntoIterator<Item = Vec<u8>>) {
        if let Some(changed) = self
            .changed
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .as_mut()
        {
            changed.extend(keys);
        }
    }

    /// Applies `change` in one transaction; `orders` are the queue orders of its
    /// `queued_reviews`, one each.
    fn apply(
        tree: &sled::Tree,
        change: &Change,
        orders: &[u64],
        noted: Option<&RefCell<Vec<Vec<u8>>>>,
    ) -> TxResult<()> {
        tree.transaction(|tx| {
            let tx = &Writes { tx, noted };
            if let Some((request, record)) = &change.request {
                let k = key(ANSWER, request.0.as_bytes());
                if let Some(bytes) = tx.get(&k)? {
                    let earlier: AnswerRecord = tx_decode(&bytes)?;
                    return abort(Abort::Duplicate(earlier));
                }
                tx.insert(k, tx_encode(record)?)?;
                tx.insert(answer_time_key(record.at, request), &[])?;
            }
            for game in &change.games {
                let old = put_revised(
                    tx,
                    &game_key(&game.id),
                    game,
                    game.revision,
                    |g: &GameRecord| g.revision,
                )?;
                if let Some(at) = old.and_then(|g| g.deadline) {
                    tx.remove(deadline_key(GAME, at, game.id.as_str()))?;
                }
                if let Some(at) = game.deadline {
                    tx.insert(deadline_key(GAME, at, game.id.as_str()), &[])?;
                }
            }
            for challenge in &change.challenges {
                let old = put_revised(
                    tx,
                    &challenge_key(&challenge.id),
                    challenge,
                    challenge.revision,
                    |c: &ChallengeRecord| c.revision,
                )?;
                if let Some(old) = old {
                    tx.remove(deadline_key(CHALLENGE, old.expires_at, old.id.as_str()))?;
                }
                tx.insert(
                    deadline_key(CHALLENGE, challenge.expires_at, challenge.id.as_str()),
                    &[],
                )?;
            }
            for (id, revision) in &change.removed_challenges {
                let k = challenge_key(id);
                let Some(bytes) = tx.get(&k)? else {
                    return abort(Abort::Conflict);
                };
                let old: ChallengeRecord = tx_decode(&bytes)?;
                if old.revision != *revision {
                    return abort(Abort::Conflict);
                }
                tx.remove(k)?;
                tx.remove(deadline_key(CHALLENGE, old.expires_at, old.id.as_str()))?;
            }
            for chat in &change.chats {
                put_revised(
                    tx,
                    &chat_key(&chat.chat),
                    chat,
                    chat.revision,
                    |c: &ChatRecord| c.revision,
                )?;
            }
            for player in &change.players {
                put_revised(
                    tx,
                    &player_key(&player.user),
                    player,
                    player.revision,
                    |p: &PlayerRecord| p.revision,
                )?;
            }
            for tournament in &change.tournaments {
                // Its own byte form, revision checked as games are: of two processes pairing
                // the same round, one commits.
                let k = tournament_key(&tournament.id);
                let stored = match tx.get(&k)? {
                    Some(bytes) => Some(
                        decode_tournament(&bytes)
                            .map_err(|e| ConflictableTransactionError::Abort(Abort::Corrupt(e)))?,
                    ),
                    None => None,
                };
                if tournament.revision != stored.as_ref().map_or(0, |t| t.revision) + 1 {
                    return abort(Abort::Conflict);
                }
                let bytes = encode_tournament(tournament)
                    .map_err(|e| ConflictableTransactionError::Abort(Abort::Corrupt(e)))?;
                tx.insert(k, bytes)?;
                // An open event's start time is a deadline like a game's.
                if let Some(at) = stored.as_ref().and_then(TournamentRecord::due_at) {
                    tx.remove(deadline_key(TOURNAMENT, at, tournament.id.as_str()))?;
                }
                if let Some(at) = tournament.due_at() {
                    tx.insert(deadline_key(TOURNAMENT, at, tournament.id.as_str()), &[])?;
                }
                if stored.is_none() {
                    tx.insert(
                        tournament_chat_key(
                            &tournament.chat,
                            tournament.created_at,
                            &tournament.id,
                        ),
                        &[],
                    )?;
                }
            }
            for review in &change.reviews {
                // Written once: a second review of the same game is a conflict.
                let k = review_key(&review.game);
                if tx.get(&k)?.is_some() {
                    return abort(Abort::Conflict);
                }
                tx.insert(k, tx_encode(review)?)?;
            }
            for (request, order) in change.queued_reviews.iter().zip(orders) {
                // Queued once per game and chat: a second request is a conflict.
                let k = queued_review_order_key(request);
                if tx.get(&k)?.is_some() {
                    return abort(Abort::Conflict);
                }
                tx.insert(k, &order.to_be_bytes())?;
                tx.insert(queued_review_key(*order), tx_encode(request)?)?;
            }
            for request in &change.dequeued_reviews {
                // Posted once: a review no longer queued (posted already) is a conflict.
                let Some(order) = tx.remove(queued_review_order_key(request))? else {
                    return abort(Abort::Conflict);
                };
                let order = <[u8; 8]>::try_from(order.as_ref()).map_err(|_| {
                    ConflictableTransactionError::Abort(Abort::Corrupt(StoreError::Corrupt(
                        "a queued review's order".to_owned(),
                    )))
                })?;
                tx.remove(queued_review_key(u64::from_be_bytes(order)))?;
            }
            for (id, record) in &change.outbox {
                tx.insert(outbox_key(*id), tx_encode(record)?)?;
            }
            for (id, deferral) in &change.deferred {
                let k = outbox_key(*id);
                if let Some(bytes) = tx.get(&k)? {
                    let mut record: OutboxRecord = tx_decode(&bytes)?;
                    record.attempts = deferral.attempts;
                    record.not_before = deferral.not_before;
                    tx.insert(k, tx_encode(&record)?)?;
                }
            }
            for id in &change.hastened {
                let k = outbox_key(*id);
                if let Some(bytes) = tx.get(&k)? {
                    let mut record: OutboxRecord = tx_decode(&bytes)?;
                    record.not_before = 0;
                    tx.insert(k, tx_encode(&record)?)?;
                }
            }
            for (id, sent) in &change.sent {
                // Only a reference that a later edit may need is kept.
                if tx.remove(outbox_key(*id))?.is_some() && sent.platform_ref.is_some() {
                    tx.insert(sent_key(*id), tx_encode(sent)?)?;
                }
            }
            Ok(())
        })
        .map_err(|e| match e {
            TransactionError::Abort(why) => ConflictableTransactionError::Abort(why),
            TransactionError::Storage(e) => ConflictableTransactionError::Storage(e),
        })
    }
}

impl SledStore {
    /// Undelivered messages in id order, with the lane of each.
    fn scan_outbox(
        &self,
        mut keep: impl FnMut(OutboxId, &OutboxRecord) -> bool,
        limit: usize,
    ) -> Result<Vec<PendingMessage>, StoreError> {
        let mut entries = Vec::new();
        for item in self.live().tree.scan_prefix([OUTBOX]) {
            if entries.len() >= limit {
                break;
            }
            let (k, v) = item.map_err(backend)?;
            let Some(id_bytes) = k.get(1..9) else {
                continue;
            };
            let id = OutboxId(u64::from_be_bytes(id_bytes.try_into().unwrap_or_default()));
            let record: OutboxRecord = decode(&v)?;
            if !keep(id, &record) {
                continue;
            }
            entries.push(self.pending_message(id, record)?);
        }
        Ok(entries)
    }

    /// An outbox record as a pending message, with the platform reference of the post it
    /// edits.
    fn pending_message(
        &self,
        id: OutboxId,
        record: OutboxRecord,
    ) -> Result<PendingMessage, StoreError> {
        let replaces_ref = match record.message.replaces {
            Some(earlier) => self
                .read::<SentRecord>(&sent_key(earlier))?
                .and_then(|s| s.platform_ref),
            None => None,
        };
        Ok(PendingMessage {
            entry: OutboxEntry {
                id,
                message: record.message,
                attempts: record.attempts,
                replaces_ref,
            },
            picture: record.picture,
            taken_from: None,
        })
    }

    /// The outbox id of an outbox key.
    fn outbox_id(k: &[u8]) -> Option<OutboxId> {
        let bytes: [u8; 8] = k.get(1..9)?.try_into().ok()?;
        Some(OutboxId(u64::from_be_bytes(bytes)))
    }

    fn unclaim(&self, change: &Change) {
        if change.sent.is_empty() && change.deferred.is_empty() {
            return;
        }
        let mut claims = self
            .claims
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        for (id, _) in &change.sent {
            claims.remove(id);
        }
        for (id, _) in &change.deferred {
            claims.remove(id);
        }
    }
}

/// How long (milliseconds) a lapsed delivery claim is remembered, to tell that a later claim
/// took it over from its holder.
const FORGET_LAPSED_CLAIMS: UnixMillis = 10 * 60 * 1000;

/// The key of the store's schema version.
const META_SCHEMA: &[u8] = b"m:schema";

/// The tree that holds every record.
const TREE: &str = "jieqi";

/// Opens the sled database in `path`. New databases compress their log (zstd): a store's
/// records are small and alike (ids, names, packed moves), and compressed they take about
/// half the disk (1.2 KiB per finished game instead of 2.2 KiB in the storage benchmark).
/// sled cannot change that setting for a database that exists, so one written without
/// compression (by an earlier version) is opened as it is, and the next compaction copies
/// it into a compressed one.
fn open_db(path: &Path) -> Result<sled::Db, StoreError> {
    sled::Config::new()
        .path(path)
        .mode(sled::Mode::LowSpace)
        .use_compression(compresses(path))
        .compression_factor(1)
        .open()
        .map_err(|e| {
            StoreError::Backend(format!(
                "cannot open the data folder {}: {e}",
                path.display()
            ))
        })
}

/// Whether the database in `path` compresses (sled writes its settings to `conf` when it
/// creates a database); a new one does.
fn compresses(path: &Path) -> bool {
    const UNCOMPRESSED: &[u8] = b"use_compression: false";
    match std::fs::read(path.join("conf")) {
        // Text lines followed by a checksum.
        Ok(conf) => !conf.windows(UNCOMPRESSED.len()).any(|w| w == UNCOMPRESSED),
        Err(_) => true,
    }
}

fn read_u64(tree: &sled::Tree, k: &[u8]) -> Result<u64, StoreError> {
    Ok(tree
        .get(k)
        .map_err(backend)?
        .and_then(|v| v.as_ref().try_into().ok())
        .map_or(0, u64::from_be_bytes))
}

#[cfg(test)]
mod tests;
