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
//! (delivered messages' platform refs), `d` kind + time + id (deadlines), `v` game id
//! (finished reviews), `q` queue order (reviews queued, in order), `Q` game id + chat (the
//! queue order of that review, to find it in a transaction).

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
use jieqi_store::ids::{ChallengeId, ChatId, GameId, Platform, UserId};
use jieqi_store::message::{OutboxEntry, OutboxId};
use jieqi_store::records::{
    AnswerRecord, ChallengeRecord, ChatRecord, GameRecord, OutboxRecord, PlayerRecord,
    ReviewRecord, ReviewRequest, SentRecord, UnixTime,
};
use jieqi_store::{
    Change, Claim, Coalescing, CommitError, Due, GameChange, GameChanges, GameStore, Lane,
    Leadership, PendingMessage, RequestKey, StoreError, UnixMillis,
};

const GAME: u8 = b'g';
const CHALLENGE: u8 = b'c';
const CHAT: u8 = b'h';
const PLAYER: u8 = b'p';
const ANSWER: u8 = b'r';
const ANSWER_BY_TIME: u8 = b'R';
const OUTBOX: u8 = b'o';
const SENT: u8 = b's';
const DEADLINE: u8 = b'd';
const REVIEW: u8 = b'v';
const QUEUED_REVIEW: u8 = b'q';
const QUEUED_REVIEW_ORDER: u8 = b'Q';

fn key(prefix: u8, rest: &[u8]) -> Vec<u8> {
    let mut k = Vec::with_capacity(rest.len() + 1);
    k.push(prefix);
    k.extend_from_slice(rest);
    k
}

fn game_key(id: &GameId) -> Vec<u8> {
    key(GAME, id.as_str().as_bytes())
}

fn challenge_key(id: &ChallengeId) -> Vec<u8> {
    key(CHALLENGE, id.as_str().as_bytes())
}

fn chat_key(chat: &ChatId) -> Vec<u8> {
    key(CHAT, chat.to_string().as_bytes())
}

fn player_key(user: &UserId) -> Vec<u8> {
    key(PLAYER, user.to_string().as_bytes())
}

fn review_key(game: &GameId) -> Vec<u8> {
    key(REVIEW, game.as_str().as_bytes())
}

fn queued_review_key(order: u64) -> Vec<u8> {
    key(QUEUED_REVIEW, &order.to_be_bytes())
}

/// The key of a queued review's order: the game id, a zero byte, the chat.
fn queued_review_order_key(request: &ReviewRequest) -> Vec<u8> {
    let mut k = key(QUEUED_REVIEW_ORDER, request.game.as_str().as_bytes());
    k.push(0);
    k.extend_from_slice(request.chat.to_string().as_bytes());
    k
}

fn outbox_key(id: OutboxId) -> Vec<u8> {
    key(OUTBOX, &id.0.to_be_bytes())
}

fn sent_key(id: OutboxId) -> Vec<u8> {
    key(SENT, &id.0.to_be_bytes())
}

fn answer_time_key(at: UnixTime, request: &RequestKey) -> Vec<u8> {
    let mut k = key(ANSWER_BY_TIME, &at.to_be_bytes());
    k.extend_from_slice(request.0.as_bytes());
    k
}

fn deadline_key(kind: u8, at: UnixTime, id: &str) -> Vec<u8> {
    let mut k = vec![DEADLINE, kind];
    k.extend_from_slice(&at.to_be_bytes());
    k.extend_from_slice(id.as_bytes());
    k
}

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

/// How far a compaction goes before it stops as if the process had died there (tests).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum CompactUntil {
    /// All the way.
    Done,
    /// The copy is written and synced, and not yet live.
    Copied,
    /// The copy is live (`CURRENT` names it); the old database is still there.
    Switched,
}

impl SledStore {
    /// Compacts the store if its folder has grown by a quarter since the last compaction
    /// (and to at least [`COMPACT_FROM`]): so the folder stays within 1.25 times its
    /// compacted size. Measured against the last compaction,
    /// not the live data, so finding out is one walk of a few files, and copying costs at
    /// most a constant share of what was written. Returns whether it compacted.
    fn compact_if_grown(&self) -> Result<bool, StoreError> {
        let Some(folder) = &self.folder else {
            return Ok(false);
        };
        let now = allocated_bytes(folder.dir());
        let after_last = self.compacted.load(Ordering::SeqCst);
        if now < COMPACT_FROM.max(after_last.saturating_mul(5) / 4) {
            return Ok(false);
        }
        self.compact()?;
        Ok(true)
    }

    /// Copies every record into a fresh database in the data folder and makes it the live
    /// one, whatever the folder's size (the bot compacts by itself, in [`GameStore::reclaim`]
    /// and at open). Writers go on while the records are copied; they wait only while what
    /// they changed meanwhile is copied again and the copy is switched in. A crash at any
    /// point leaves the old database or the new one live, whole.
    pub fn compact(&self) -> Result<(), StoreError> {
        self.compact_until(CompactUntil::Done)
    }

    /// Every key and value (tests).
    #[cfg(test)]
    pub(super) fn records(&self) -> Vec<(Vec<u8>, Vec<u8>)> {
        self.live()
            .tree
            .iter()
            .flatten()
            .map(|(k, v)| (k.to_vec(), v.to_vec()))
            .collect()
    }

    /// [`SledStore::compact`], stopping at `stop` as if the process had died there.
    pub(super) fn compact_until(&self, stop: CompactUntil) -> Result<(), StoreError> {
        self.compact_with(stop, || {})
    }

    /// [`SledStore::compact_until`], calling `meanwhile` between the copy and the pause
    /// (tests write there, as a busy bot would).
    pub(super) fn compact_with(
        &self,
        stop: CompactUntil,
        meanwhile: impl FnOnce(),
    ) -> Result<(), StoreError> {
        let Some(folder) = &self.folder else {
            return Ok(());
        };
        let _one_at_a_time = self
            .compacting
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let started = std::time::Instant::now();
        let before = allocated_bytes(folder.dir());
        // From here on writers note what they change. Set under the write lock, so that no
        // writer is half-way: what was written before is in the tree the copy walks.
        let source = {
            let live = self
                .live
                .write()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            self.set_copying(true);
            live.clone()
        };
        let stop_noting = StopNoting(self);
        let (next, path) = folder.prepare_next()?;
        let copy = open_db(&path)?;
        let tree = copy.open_tree(TREE).map_err(backend)?;
        let mut records = 0usize;
        let mut batch = sled::Batch::default();
        let mut batch_started = std::time::Instant::now();
        for item in source.tree.iter() {
            let (k, v) = item.map_err(backend)?;
            batch.insert(k, v);
            records += 1;
            if records.is_multiple_of(COPY_BATCH) {
                tree.apply_batch(std::mem::take(&mut batch))
                    .map_err(backend)?;
                // Rest as long as the batch took: the copy uses at most half a core, and
                // moves keep the rest of the machine meanwhile.
                std::thread::sleep(batch_started.elapsed());
                batch_started = std::time::Instant::now();
            }
        }
        tree.apply_batch(batch).map_err(backend)?;
        copy.flush().map_err(backend)?;
        if tree.len() != records {
            // Never switch to a copy that is not whole.
            return Err(StoreError::Backend(
                "the compacted copy of the store is incomplete; the store is unchanged".into(),
            ));
        }
        meanwhile();
        let copied = started.elapsed();
        // Writers wait from here to the switch.
        let mut live = self
            .live
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let paused = std::time::Instant::now();
        let changed = self.take_changed();
        drop(stop_noting);
        let mut again = sled::Batch::default();
        for k in &changed {
            match live.tree.get(k).map_err(backend)? {
                Some(v) => again.insert(k.as_slice(), v),
                None => again.remove(k.as_slice()),
            }
        }
        // Every id the old database gave out stays below the copy's.
        let id_base = live.id_base + live.db.generate_id().map_err(backend)?;
        again.insert(META_ID_BASE, &id_base.to_be_bytes());
        tree.apply_batch(again).map_err(backend)?;
        copy.flush().map_err(backend)?;
        if stop == CompactUntil::Copied {
            return Ok(());
        }
        folder.switch_to(next)?;
        let old = std::mem::replace(
            &mut *live,
            Live {
                db: copy,
                tree,
                id_base,
            },
        );
        drop(live);
        let pause = paused.elapsed();
        drop(old);
        if stop == CompactUntil::Switched {
            // As if the process died here: the old database stays on disk.
            return Ok(());
        }
        folder.remove_leftovers()?;
        let after = allocated_bytes(folder.dir());
        self.compacted.store(after, Ordering::SeqCst);
        // Remembered for the next run; on disk with the next flush.
        self.live()
            .tree
            .insert(META_COMPACTED, &after.to_be_bytes())
            .map_err(backend)?;
        tracing::info!(
            records,
            copied_again = changed.len(),
            before,
            after,
            copy = ?copied,
            writers_held = ?pause,
            "the store was compacted"
        );
        Ok(())
    }

    fn set_copying(&self, on: bool) {
        *self
            .changed
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = on.then(HashSet::new);
    }

    fn take_changed(&self) -> HashSet<Vec<u8>> {
        self.changed
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take()
            .unwrap_or_default()
    }
}

/// Writers stop noting their keys when a compaction ends, however it ends.
struct StopNoting<'a>(&'a SledStore);

impl Drop for StopNoting<'_> {
    fn drop(&mut self) {
        self.0.set_copying(false);
    }
}

impl SledStore {
    /// Rewrites every record older than [`SCHEMA_VERSION`] in the current shape and records
    /// the version; refuses a store written by a newer bot. Idempotent: a run cut short is
    /// finished by the next one. Returns how many records were rewritten.
    fn migrate(&self) -> Result<usize, StoreError> {
        let live = self.live();
        if let Some(stored) = live.tree.get(META_SCHEMA).map_err(backend)? {
            let found = stored.first().copied().unwrap_or(0);
            if found > SCHEMA_VERSION {
                return Err(StoreError::TooNew {
                    found: u32::from(found),
                    supported: u32::from(SCHEMA_VERSION),
                });
            }
            if found == SCHEMA_VERSION {
                return Ok(0);
            }
        }
        let mut rewritten = 0;
        for item in live.tree.iter() {
            let (k, v) = item.map_err(backend)?;
            let old = match version_of(&v) {
                Some(version) if version < SCHEMA_VERSION => version,
                _ => continue,
            };
            let upgraded = match k.first() {
                Some(&GAME) => encode(&decode::<GameRecord>(&v)?)?,
                Some(&CHALLENGE) => encode(&decode::<ChallengeRecord>(&v)?)?,
                Some(&CHAT) => encode(&decode::<ChatRecord>(&v)?)?,
                Some(&PLAYER) => encode(&decode::<PlayerRecord>(&v)?)?,
                Some(&ANSWER) => encode(&decode::<AnswerRecord>(&v)?)?,
                Some(&OUTBOX) => encode(&decode::<OutboxRecord>(&v)?)?,
                Some(&SENT) => encode(&decode::<SentRecord>(&v)?)?,
                Some(&REVIEW) => encode(&decode::<ReviewRecord>(&v)?)?,
                Some(&QUEUED_REVIEW) => encode(&decode::<ReviewRequest>(&v)?)?,
                // Index entries (deadlines, answer times) hold no record.
                _ => continue,
            };
            tracing::debug!(key = ?k, from = old, "record upgraded");
            live.tree.insert(k, upgraded).map_err(backend)?;
            rewritten += 1;
        }
        live.tree
            .insert(META_SCHEMA, &[SCHEMA_VERSION])
            .map_err(backend)?;
        live.db.flush().map_err(backend)?;
        if rewritten > 0 {
            tracing::info!(
                rewritten,
                "the store was upgraded to schema {SCHEMA_VERSION}"
            );
        }
        Ok(rewritten)
    }
}

#[async_trait]
impl GameStore for SledStore {
    async fn game(&self, id: &GameId) -> Result<Option<GameRecord>, StoreError> {
        self.read(&game_key(id))
    }

    async fn challenge(&self, id: &ChallengeId) -> Result<Option<ChallengeRecord>, StoreError> {
        self.read(&challenge_key(id))
    }

    async fn chat(&self, chat: &ChatId) -> Result<Option<ChatRecord>, StoreError> {
        self.read(&chat_key(chat))
    }

    async fn player(&self, user: &UserId) -> Result<Option<PlayerRecord>, StoreError> {
        self.read(&player_key(user))
    }

    async fn answer(&self, request: &RequestKey) -> Result<Option<AnswerRecord>, StoreError> {
        self.read::<AnswerRecord>(&key(ANSWER, request.0.as_bytes()))
    }

    async fn due(&self, now: UnixTime, limit: usize) -> Result<Vec<Due>, StoreError> {
        let mut due = Vec::new();
        for kind in [GAME, CHALLENGE] {
            for item in self.live().tree.scan_prefix([DEADLINE, kind]) {
                let (k, _) = item.map_err(backend)?;
                let Some(at_bytes) = k.get(2..10) else {
                    continue;
                };
                let at = u64::from_be_bytes(at_bytes.try_into().unwrap_or_default());
                if at > now || due.len() >= limit * 2 {
                    break;
                }
                let id = String::from_utf8_lossy(k.get(10..).unwrap_or_default()).into_owned();
                let item = match kind {
                    GAME => id.parse().ok().map(Due::Game),
                    _ => id.parse().ok().map(Due::Challenge),
                };
                if let Some(item) = item {
                    due.push((at, item));
                }
            }
        }
        due.sort_by_key(|(at, _)| *at);
        Ok(due.into_iter().take(limit).map(|(_, d)| d).collect())
    }

    async fn claim(
        &self,
        platform: Option<Platform>,
        claim: &Claim,
        limit: usize,
    ) -> Result<Vec<PendingMessage>, StoreError> {
        let mut claims = self
            .claims
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        // A lapsed claim is remembered a while, to tell a claim that takes it over; one of a
        // message gone some other way is forgotten after that.
        claims.retain(|_, (_, until)| until.saturating_add(FORGET_LAPSED_CLAIMS) > claim.now);
        // A lane is decided by its oldest message: free and due, or the whole lane waits.
        let mut seen_lanes = HashSet::new();
        let heads = self.scan_outbox(
            |id, record| {
                if platform.is_some() && record.message.to.platform() != platform {
                    return false;
                }
                let Some(lane) = Lane::of(&record.message.to) else {
                    return false;
                };
                if !seen_lanes.insert(lane) {
                    return false;
                }
                let claimed = claims.get(&id).is_some_and(|(_, until)| *until > claim.now);
                !claimed && record.not_before <= claim.now
            },
            limit,
        )?;
        let mut heads = heads;
        for head in &mut heads {
            let before = claims.insert(head.entry.id, (claim.holder.clone(), claim.until));
            head.taken_from = before
                .map(|(holder, _)| holder)
                .filter(|holder| *holder != claim.holder);
        }
        Ok(heads)
    }

    async fn renew(&self, claim: &Claim, ids: &[OutboxId]) -> Result<Vec<OutboxId>, StoreError> {
        // Only the holder's own claims (one process owns the folder, but services sharing one
        // store in it each hold their own).
        let mut claims = self
            .claims
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut held = Vec::with_capacity(ids.len());
        for id in ids {
            if let Some((holder, until)) = claims.get_mut(id)
                && *holder == claim.holder
            {
                *until = (*until).max(claim.until);
                held.push(*id);
            }
        }
        Ok(held)
    }

    async fn pending(&self, limit: usize) -> Result<Vec<PendingMessage>, StoreError> {
        self.scan_outbox(|_, _| true, limit)
    }

    async fn lane_from(
        &self,
        head: OutboxId,
        limit: usize,
    ) -> Result<Vec<(OutboxId, OutboxRecord)>, StoreError> {
        let mut out: Vec<(OutboxId, OutboxRecord)> = Vec::new();
        let mut lane = None;
        let tree = self.live().tree;
        // Messages of other lanes in between are passed over, a bounded number of them: a
        // lane is looked at this way only for its first few messages.
        for item in tree
            .range(outbox_key(head)..key(OUTBOX + 1, &[]))
            .take(LANE_SCAN)
        {
            if out.len() >= limit {
                break;
            }
            let (k, v) = item.map_err(backend)?;
            let Some(id) = SledStore::outbox_id(&k) else {
                continue;
            };
            let record: OutboxRecord = decode(&v)?;
            let of = Lane::of(&record.message.to);
            match &lane {
                None if id == head => lane = Some(of),
                None => return Ok(Vec::new()),
                Some(lane) if *lane != of => continue,
                Some(_) => {}
            }
            out.push((id, record));
        }
        Ok(out)
    }

    async fn coalesce(
        &self,
        claim: &Claim,
        coalescing: &Coalescing,
    ) -> Result<Option<PendingMessage>, StoreError> {
        let Some(&head) = coalescing.skipped.first() else {
            return Ok(None);
        };
        // The lane must still start with the skipped boards and then the covering one.
        let wanted: Vec<OutboxId> = coalescing
            .skipped
            .iter()
            .copied()
            .chain([coalescing.covering])
            .collect();
        let lane: Vec<OutboxId> = self
            .lane_from(head, wanted.len())
            .await?
            .into_iter()
            .map(|(id, _)| id)
            .collect();
        if lane != wanted {
            return Ok(None);
        }
        {
            let mut claims = self
                .claims
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if claims
                .get(&head)
                .is_none_or(|(holder, until)| *holder != claim.holder || *until <= claim.now)
            {
                return Ok(None);
            }
            // Claimed before the head goes: the lane is never free in between.
            claims.insert(coalescing.covering, (claim.holder.clone(), claim.until));
        }
        let result = {
            let live = read(&self.live);
            let noted = self.copying().then(RefCell::default);
            let result = live.tree.transaction(|tx| {
                let tx = &Writes {
                    tx,
                    noted: noted.as_ref(),
                };
                for id in &coalescing.skipped {
                    if tx.remove(outbox_key(*id))?.is_none() {
                        return abort(Abort::Conflict);
                    }
                }
                let k = outbox_key(coalescing.covering);
                if tx.get(&k)?.is_none() {
                    return abort(Abort::Conflict);
                }
                tx.insert(k, tx_encode(&coalescing.record)?)?;
                Ok(())
            });
            if let Some(noted) = noted {
                self.note_changed(noted.into_inner());
            }
            result
        };
        let ticket = self.flush.ticket();
        {
            let mut claims = self
                .claims
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if result.is_ok() {
                for id in &coalescing.skipped {
                    claims.remove(id);
                }
            } else {
                claims.remove(&coalescing.covering);
            }
        }
        match result {
            Ok(()) => {}
            Err(TransactionError::Abort(Abort::Corrupt(e))) => return Err(e),
            Err(TransactionError::Abort(_)) => return Ok(None),
            Err(TransactionError::Storage(e)) => return Err(backend(e)),
        }
        self.flush.wait_durable(&self.live, ticket).await?;
        self.pending_message(coalescing.covering, coalescing.record.clone())
            .map(Some)
    }

    async fn outbox_record(&self, id: OutboxId) -> Result<Option<OutboxRecord>, StoreError> {
        self.read(&outbox_key(id))
    }

    async fn allocate_outbox_ids(&self, n: usize) -> Result<Vec<OutboxId>, StoreError> {
        // Under the read lock: an id taken from a database being replaced could repeat.
        let live = read(&self.live);
        (0..n)
            .map(|_| {
                live.db
                    .generate_id()
                    .map(|id| OutboxId(live.id_base + id + 1))
                    .map_err(backend)
            })
            .collect()
    }

    async fn commit(&self, change: Change) -> Result<(), CommitError> {
        if change.is_empty() {
            return Ok(());
        }
        // A sled transaction only touches memory (the log is written by flushes), so it runs
        // right here; only the flush waits on the disk, off the async workers.
        let result = {
            let live = read(&self.live);
            // Queue orders grow across compactions as outbox ids do (`Live::id_base`).
            let orders = change
                .queued_reviews
                .iter()
                .map(|_| live.db.generate_id().map(|id| live.id_base + id + 1))
                .collect::<Result<Vec<u64>, _>>()
                .map_err(|e| CommitError::Store(backend(e)))?;
            let noted = self.copying().then(RefCell::default);
            let result = SledStore::apply(&live.tree, &change, &orders, noted.as_ref());
            if let Some(noted) = noted {
                self.note_changed(noted.into_inner());
            }
            result
        };
        let ticket = self.flush.ticket();
        match result {
            Ok(()) => {}
            Err(ConflictableTransactionError::Abort(Abort::Conflict)) => {
                return Err(CommitError::Conflict);
            }
            Err(ConflictableTransactionError::Abort(Abort::Duplicate(answer))) => {
                return Err(CommitError::Duplicate(answer));
            }
            Err(ConflictableTransactionError::Abort(Abort::Corrupt(e))) => {
                return Err(CommitError::Store(e));
            }
            Err(ConflictableTransactionError::Storage(e)) => {
                return Err(CommitError::Store(backend(e)));
            }
            Err(ConflictableTransactionError::Conflict) => return Err(CommitError::Conflict),
        }
        if change.durable {
            self.flush.wait_durable(&self.live, ticket).await?;
        }
        self.unclaim(&change);
        self.changes.announce(&change);
        Ok(())
    }

    async fn prune(&self, before: UnixTime) -> Result<usize, StoreError> {
        // Under the read lock: a removal from a database being replaced would be lost.
        let live = read(&self.live);
        let tree = &live.tree;
        let mut removed = 0;
        let mut noted = Vec::new();
        let copying = self.copying();
        let end = answer_time_key(before, &RequestKey(String::new()));
        for item in tree.range(vec![ANSWER_BY_TIME]..end) {
            let (k, _) = item.map_err(backend)?;
            if let Some(request) = k.get(9..) {
                let answer = key(ANSWER, request);
                tree.remove(&answer).map_err(backend)?;
                if copying {
                    noted.push(answer);
                }
            }
            tree.remove(&k).map_err(backend)?;
            if copying {
                noted.push(k.to_vec());
            }
            removed += 1;
        }
        for item in tree.scan_prefix([SENT]) {
            let (k, v) = item.map_err(backend)?;
            let sent: SentRecord = decode(&v)?;
            // Sent ids grow with time: stop at the first one still young enough.
            if sent.at >= before {
                break;
            }
            tree.remove(&k).map_err(backend)?;
            if copying {
                noted.push(k.to_vec());
            }
            removed += 1;
        }
        self.note_changed(noted);
        Ok(removed)
    }

    async fn reclaim(&self) -> Result<bool, StoreError> {
        let store = self.clone();
        tokio::task::spawn_blocking(move || store.compact_if_grown())
            .await
            .map_err(backend)?
    }

    async fn flush(&self) -> Result<(), StoreError> {
        let db = self.live().db;
        db.flush_async().await.map_err(backend).map(|_| ())
    }

    fn game_changes(&self) -> tokio::sync::broadcast::Receiver<GameChange> {
        self.changes.subscribe()
    }

    async fn review(&self, game: &GameId) -> Result<Option<ReviewRecord>, StoreError> {
        self.read(&review_key(game))
    }

    async fn queued_reviews(&self, limit: usize) -> Result<Vec<ReviewRequest>, StoreError> {
        self.live()
            .tree
            .scan_prefix([QUEUED_REVIEW])
            .take(limit)
            .map(|item| decode(&item.map_err(backend)?.1))
            .collect()
    }

    async fn lead(&self, _role: &str) -> Result<Option<Leadership>, StoreError> {
        // One process owns a sled folder: it plays every role.
        Ok(Some(Leadership {
            lost: tokio_util::sync::CancellationToken::new(),
            hold: Box::new(()),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jieqi_store::ids::{Platform, User};
    use std::time::Duration;

    fn answered(key: &str) -> Change {
        Change {
            request: Some((
                RequestKey(key.to_owned()),
                AnswerRecord {
                    at: 5,
                    replies: Vec::new(),
                },
            )),
            durable: true,
            ..Change::default()
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_commit_dropped_while_it_leads_a_flush_holds_up_no_later_commit() {
        // A delivery lane aborted while its "delivered" mark was being flushed once left every
        // later commit of the process waiting forever (a Telegram test's delivery loop then
        // never stopped). A commit polled once starts a flush, then is dropped during it.
        use std::task::{Context, Waker};
        let store = SledStore::temporary().unwrap();
        let mut dropped_during_a_flush = 0;
        for i in 0..20 {
            let mut dropped = store.commit(answered(&format!("local:dropped-{i}")));
            let polled = dropped
                .as_mut()
                .poll(&mut Context::from_waker(Waker::noop()));
            if polled.is_pending() {
                dropped_during_a_flush += 1;
            }
            drop(dropped);
            let next = store.commit(answered(&format!("local:next-{i}")));
            tokio::time::timeout(Duration::from_secs(20), next)
                .await
                .unwrap_or_else(|_| panic!("round {i}: the next commit waited for a dead flush"))
                .unwrap();
        }
        assert!(
            dropped_during_a_flush > 0,
            "no commit was dropped mid-flush"
        );
    }

    #[tokio::test]
    async fn concurrent_durable_commits_share_flushes_and_all_land() {
        let store = SledStore::temporary().unwrap();
        let mut tasks = Vec::new();
        for i in 0..32 {
            let store = store.clone();
            tasks.push(tokio::spawn(async move {
                store.commit(answered(&format!("local:{i}"))).await
            }));
        }
        for task in tasks {
            task.await.unwrap().unwrap();
        }
        for i in 0..32 {
            assert!(
                store
                    .answer(&RequestKey(format!("local:{i}")))
                    .await
                    .unwrap()
                    .is_some()
            );
        }
    }

    /// A game as schema 2 wrote it (the field order of the old `GameRecord`).
    #[derive(serde::Serialize)]
    struct SchemaTwoGame {
        id: GameId,
        revision: u64,
        chat: ChatId,
        variant: &'static str,
        preset: &'static str,
        first: User,
        second: User,
        deal: String,
        salt: String,
        commitment: String,
        moves: Vec<String>,
        ending: Option<jieqi_store::Ending>,
        move_time: u64,
        deadline: Option<UnixTime>,
        draw_offer: Option<jieqi_store::DrawOffer>,
        posts: Vec<jieqi_store::BoardPost>,
        watchers: Vec<ChatId>,
        started_at: UnixTime,
        finished_at: Option<UnixTime>,
        engine: Option<jieqi_store::EngineSeat>,
    }

    #[tokio::test]
    async fn a_schema_two_store_is_upgraded_at_open_without_losing_a_game() {
        let dir = tempfile::tempdir().unwrap();
        let deal = "rheaaehrccpppppPPPPPCCRHEAAEHR".to_owned();
        let salt = "00112233445566778899aabbccddeeff".to_owned();
        let old = SchemaTwoGame {
            id: "g7k2".parse().unwrap(),
            revision: 9,
            chat: ChatId::new(Platform::Telegram, "-100"),
            variant: "jieqi",
            preset: "standard",
            first: User::new(UserId::new(Platform::Telegram, "1"), "ann"),
            second: User::new(UserId::new(Platform::Telegram, "2"), "bob"),
            commitment: jieqi_store::commitment(&deal, &salt),
            deal,
            salt,
            moves: vec!["h2e2".into(), "b9c7c".into(), "e2e6".into()],
            ending: None,
            move_time: 86_400,
            deadline: Some(1_700_000_000),
            draw_offer: None,
            posts: Vec::new(),
            watchers: Vec::new(),
            started_at: 1_699_999_000,
            finished_at: None,
            engine: None,
        };
        {
            let db = sled::open(dir.path()).unwrap();
            let tree = db.open_tree("jieqi").unwrap();
            let bytes = postcard::to_extend(&old, vec![2u8]).unwrap();
            tree.insert(game_key(&old.id), bytes).unwrap();
            db.flush().unwrap();
        }
        let store = SledStore::open(dir.path()).unwrap();
        let game = store
            .game(&old.id)
            .await
            .unwrap()
            .expect("the game survived");
        assert_eq!(game.moves, old.moves);
        assert_eq!(game.deal, old.deal);
        assert_eq!(game.salt, old.salt);
        assert_eq!(game.commitment, old.commitment);
        assert_eq!(game.variant, jieqi_rules::Variant::Jieqi);
        assert_eq!(game.revision, 9);
        let raw = store.live().tree.get(game_key(&old.id)).unwrap().unwrap();
        assert_eq!(raw[0], SCHEMA_VERSION, "written back in the current shape");
        assert!(raw.len() < 120, "compact: {} bytes", raw.len());
        drop(store);
        // A second open finds nothing left to do, and a newer store is refused.
        let store = SledStore::open(dir.path()).unwrap();
        assert_eq!(store.migrate().unwrap(), 0);
        store
            .live()
            .tree
            .insert(META_SCHEMA, &[SCHEMA_VERSION + 1])
            .unwrap();
        assert!(matches!(store.migrate(), Err(StoreError::TooNew { .. })));
    }

    fn review_request(game: &str, chat: &str) -> ReviewRequest {
        ReviewRequest {
            game: game.parse().unwrap(),
            chat: ChatId::new(Platform::Local, chat),
            asked_at: 1,
        }
    }

    #[tokio::test]
    async fn the_review_queue_keeps_its_order_across_a_compaction_and_each_entry_is_taken_once() {
        let dir = tempfile::tempdir().unwrap();
        let queue = |requests: Vec<ReviewRequest>| Change {
            queued_reviews: requests,
            ..Change::default()
        };
        let dequeue = |request| Change {
            dequeued_reviews: vec![request],
            ..Change::default()
        };
        let store = SledStore::open(dir.path()).unwrap();
        store
            .commit(queue(vec![
                review_request("g7k2", "b"),
                review_request("g7k3", "a"),
            ]))
            .await
            .unwrap();
        assert_eq!(
            store.commit(queue(vec![review_request("g7k2", "b")])).await,
            Err(CommitError::Conflict),
            "the same review is queued once"
        );
        store.compact().unwrap();
        drop(store);
        // A compacted copy starts sled's id counter afresh: later entries still come after.
        let store = SledStore::open(dir.path()).unwrap();
        store
            .commit(queue(vec![review_request("g7k2", "a")]))
            .await
            .unwrap();
        assert_eq!(
            store.queued_reviews(10).await.unwrap(),
            [
                review_request("g7k2", "b"),
                review_request("g7k3", "a"),
                review_request("g7k2", "a")
            ]
        );
        store
            .commit(dequeue(review_request("g7k3", "a")))
            .await
            .unwrap();
        assert_eq!(
            store.commit(dequeue(review_request("g7k3", "a"))).await,
            Err(CommitError::Conflict),
            "taken off the queue once"
        );
        assert_eq!(
            store.queued_reviews(10).await.unwrap(),
            [review_request("g7k2", "b"), review_request("g7k2", "a")]
        );
    }
}
