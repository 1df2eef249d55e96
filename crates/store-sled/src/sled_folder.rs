//! The sled data folder (`DATA_DIR`): which sled database in it is live, the lock that keeps a
//! second process out, and the switch to a compacted copy.
//!
//! sled gives disk space back only a whole log segment at a time, once little of the segment
//! is live; with records of a few hundred bytes rewritten on every move, a long-running
//! store's folder is mostly sled's garbage and bookkeeping. Compaction (in `sled_store.rs`)
//! copies the live records into a fresh database beside the live one, and this module makes
//! the copy live with one atomic rename, so a crash at any moment leaves either the old
//! database or the new one, whole, and the next open removes whatever the other left.
//!
//! Layout:
//! - `CURRENT`: the name of the live database's folder (`gen-<n>`), replaced by writing
//!   `CURRENT.tmp`, syncing it and renaming it over `CURRENT`;
//! - `gen-<n>/`: a sled database;
//! - `LOCK`: locked by the process that has the folder open.
//!
//! A folder written before compaction existed holds sled's files directly (`conf`, `db`,
//! `snap.*`, `blobs/`); that database stays live until its first compaction.

use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use jieqi_store::StoreError;

const CURRENT: &str = "CURRENT";
const CURRENT_TMP: &str = "CURRENT.tmp";
const LOCK: &str = "LOCK";
const GENERATION: &str = "gen-";
/// What sled keeps directly in its folder.
const SLED_FILES: [&str; 3] = ["conf", "db", "blobs"];

fn io(dir: &Path, what: &str, e: std::io::Error) -> StoreError {
    StoreError::Backend(format!("{what} in the data folder {}: {e}", dir.display()))
}

/// An open data folder: locked for this process, with its live database chosen.
#[derive(Debug)]
pub(super) struct DataFolder {
    dir: PathBuf,
    /// Held for as long as the folder is open; the lock goes with the file.
    _lock: File,
    /// The live database's generation; 0 for a folder from before compaction existed.
    generation: std::sync::Mutex<u64>,
}

impl DataFolder {
    /// Locks `dir` (creating it if needed), finishes or undoes a compaction that a crash
    /// interrupted, and chooses the live database (a fresh folder gets `gen-1`).
    pub(super) fn open(dir: &Path) -> Result<DataFolder, StoreError> {
        fs::create_dir_all(dir).map_err(|e| io(dir, "cannot create the folder", e))?;
        let lock = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(dir.join(LOCK))
            .map_err(|e| io(dir, "cannot open the lock file", e))?;
        match lock.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                return Err(StoreError::Backend(format!(
                    "the data folder {} is in use by another bot process; stop it, or give \
                     this one its own DATA_DIR",
                    dir.display()
                )));
            }
            Err(std::fs::TryLockError::Error(e)) => {
                return Err(io(dir, "cannot lock the folder", e));
            }
        }
        let generation = match fs::read_to_string(dir.join(CURRENT)) {
            Ok(text) => parse_generation(text.trim()).ok_or_else(|| {
                StoreError::Corrupt(format!(
                    "{} names no database ({text:?})",
                    dir.join(CURRENT).display()
                ))
            })?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                if SLED_FILES.iter().any(|f| dir.join(f).exists()) {
                    0
                } else {
                    // A fresh folder: its database is named before anything is written to it.
                    write_current(dir, 1)?;
                    1
                }
            }
            Err(e) => return Err(io(dir, "cannot read CURRENT", e)),
        };
        let folder = DataFolder {
            dir: dir.to_owned(),
            _lock: lock,
            generation: std::sync::Mutex::new(generation),
        };
        folder.remove_leftovers()?;
        Ok(folder)
    }

    /// The folder.
    pub(super) fn dir(&self) -> &Path {
        &self.dir
    }

    fn generation(&self) -> u64 {
        *self
            .generation
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Where the live database is.
    pub(super) fn live_path(&self) -> PathBuf {
        self.path_of(self.generation())
    }

    fn path_of(&self, generation: u64) -> PathBuf {
        if generation == 0 {
            self.dir.clone()
        } else {
            self.dir.join(format!("{GENERATION}{generation}"))
        }
    }

    /// An empty folder for the next database (removing a copy that a crash left unfinished).
    pub(super) fn prepare_next(&self) -> Result<(u64, PathBuf), StoreError> {
        let next = self.generation() + 1;
        let path = self.path_of(next);
        if path.exists() {
            fs::remove_dir_all(&path).map_err(|e| io(&self.dir, "cannot clear a copy", e))?;
        }
        Ok((next, path))
    }

    /// Makes generation `next` live: after this returns, a crash opens the new database.
    /// Its data must be on disk already.
    pub(super) fn switch_to(&self, next: u64) -> Result<(), StoreError> {
        sync_dir(&self.path_of(next))?;
        write_current(&self.dir, next)?;
        let old = std::mem::replace(
            &mut *self
                .generation
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
            next,
        );
        tracing::debug!(from = old, to = next, "switched to the compacted store");
        Ok(())
    }

    /// Removes every database but the live one, and an unfinished `CURRENT.tmp`.
    pub(super) fn remove_leftovers(&self) -> Result<(), StoreError> {
        let live = self.generation();
        let entries = fs::read_dir(&self.dir).map_err(|e| io(&self.dir, "cannot list", e))?;
        for entry in entries.flatten() {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            let path = entry.path();
            let stale = if name == CURRENT_TMP {
                true
            } else if let Some(generation) = parse_generation(&name) {
                generation != live
            } else {
                // sled's own files at the top belong to the database from before compaction.
                live != 0 && (SLED_FILES.contains(&&*name) || name.starts_with("snap."))
            };
            if !stale {
                continue;
            }
            let removed = if path.is_dir() {
                fs::remove_dir_all(&path)
            } else {
                fs::remove_file(&path)
            };
            removed.map_err(|e| io(&self.dir, "cannot remove an old database", e))?;
        }
        Ok(())
    }
}

fn parse_generation(name: &str) -> Option<u64> {
    name.strip_prefix(GENERATION)?
        .parse()
        .ok()
        .filter(|&g| g > 0)
}

/// Replaces `CURRENT` atomically: a crash leaves the old name or the new one.
fn write_current(dir: &Path, generation: u64) -> Result<(), StoreError> {
    let tmp = dir.join(CURRENT_TMP);
    let mut file = File::create(&tmp).map_err(|e| io(dir, "cannot write CURRENT.tmp", e))?;
    writeln!(file, "{GENERATION}{generation}")
        .and_then(|()| file.sync_all())
        .map_err(|e| io(dir, "cannot write CURRENT.tmp", e))?;
    fs::rename(&tmp, dir.join(CURRENT)).map_err(|e| io(dir, "cannot replace CURRENT", e))?;
    sync_dir(dir)
}

/// Makes a folder's entries (files created, renamed) durable.
fn sync_dir(dir: &Path) -> Result<(), StoreError> {
    File::open(dir)
        .and_then(|d| d.sync_all())
        .map_err(|e| io(dir, "cannot sync", e))
}

/// Bytes allocated on disk to `path` and everything under it.
pub(super) fn allocated_bytes(path: &Path) -> u64 {
    let Ok(meta) = fs::symlink_metadata(path) else {
        return 0;
    };
    if !meta.is_dir() {
        #[cfg(unix)]
        return std::os::unix::fs::MetadataExt::blocks(&meta) * 512;
        #[cfg(not(unix))]
        return meta.len();
    }
    fs::read_dir(path)
        .map(|entries| entries.flatten().map(|e| allocated_bytes(&e.path())).sum())
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::SledStore;
    use crate::sled_store::CompactUntil;
    use jieqi_store::ids::{ChatId, Platform, User, UserId};
    use jieqi_store::language::Language;
    use jieqi_store::message::{Destination, Message, MessageKind};
    use jieqi_store::settings::ChatSettings;
    use jieqi_store::{
        AnswerRecord, Change, ChatRecord, GameStore, OutboxRecord, PlayerRecord, RequestKey,
        SentRecord,
    };

    /// Every record of the store, by key (the bookkeeping keys `m:` left out).
    fn records(store: &SledStore) -> BTreeMap<Vec<u8>, Vec<u8>> {
        store
            .records()
            .into_iter()
            .filter(|(k, _)| !k.starts_with(b"m:"))
            .collect()
    }

    /// Writes chats, players, answers and outbox messages, rewriting each many times (as moves
    /// rewrite a game) and delivering most messages, so that sled leaves garbage behind.
    async fn fill(store: &SledStore, from: usize, count: usize) {
        for i in from..from + count {
            let chat = ChatId::new(Platform::Telegram, format!("-{i}"));
            let user = User::new(UserId::new(Platform::Telegram, i.to_string()), "ann");
            for revision in 1..=8 {
                let mut record =
                    ChatRecord::new(chat.clone(), ChatSettings::for_language(Language::En));
                record.revision = revision;
                let mut player = PlayerRecord::new(&user);
                player.revision = revision;
                let ids = store.allocate_outbox_ids(1).await.unwrap();
                store
                    .commit(Change {
                        request: Some((
                            RequestKey(format!("telegram:{i}:{revision}")),
                            AnswerRecord {
                                at: 7,
                                replies: Vec::new(),
                            },
                        )),
                        chats: vec![record],
                        players: vec![player],
                        outbox: vec![(
                            ids[0],
                            OutboxRecord {
                                message: Message::text(
                                    Destination::Chat(chat.clone()),
                                    MessageKind::Notice,
                                    "a move",
                                ),
                                attempts: 0,
                                created_at: 0,
                                fallback_chat: None,
                                picture: None,
                                not_before: 0,
                                covers: None,
                            },
                        )],
                        durable: true,
                        ..Change::default()
                    })
                    .await
                    .unwrap();
                if revision < 8 {
                    store
                        .commit(Change {
                            sent: vec![(
                                ids[0],
                                SentRecord {
                                    platform_ref: Some(format!("{i}")),
                                    at: 7,
                                },
                            )],
                            ..Change::default()
                        })
                        .await
                        .unwrap();
                }
            }
        }
        store.flush().await.unwrap();
    }

    #[tokio::test]
    async fn compaction_keeps_every_record_and_gives_space_back() {
        let dir = tempfile::tempdir().unwrap();
        let store = SledStore::open(dir.path()).unwrap();
        fill(&store, 0, 300).await;
        let before = records(&store);
        let bytes_before = allocated_bytes(dir.path());
        store.compact().unwrap();
        assert_eq!(records(&store), before, "the live store after compaction");
        let bytes_after = allocated_bytes(dir.path());
        assert!(
            bytes_after < bytes_before,
            "{bytes_after} bytes after, {bytes_before} before"
        );
        drop(store);
        let store = reopen(dir.path());
        assert_eq!(records(&store), before, "reopened after compaction");
        // Only the live database is left in the folder.
        let mut names: Vec<String> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names, ["CURRENT", "LOCK", "gen-2"]);
    }

    /// The store in `dir` opened again after its last handle was dropped. sled lets go of
    /// its file lock from a thread of its own, a moment after that (full test runs have
    /// opened the folder before, twice); a process meeting such a folder was started after
    /// the one that wrote it had ended, so only the tests wait for it.
    fn reopen(dir: &Path) -> SledStore {
        let mut attempts = 0;
        loop {
            match SledStore::open(dir) {
                Ok(store) => return store,
                Err(e) if attempts < 100 && e.to_string().contains("could not acquire lock") => {
                    attempts += 1;
                    std::thread::sleep(std::time::Duration::from_millis(50));
                }
                Err(e) => panic!("{e}"),
            }
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn what_is_written_while_a_compaction_copies_is_in_the_compacted_store() {
        let dir = tempfile::tempdir().unwrap();
        let store = SledStore::open(dir.path()).unwrap();
        fill(&store, 0, 200).await;
        let mut expected = BTreeMap::new();
        store
            .compact_with(CompactUntil::Done, || {
                // A busy bot: new records, rewritten ones and removals land in the old
                // database after the copy walked past them.
                tokio::task::block_in_place(|| {
                    tokio::runtime::Handle::current().block_on(async {
                        fill(&store, 200, 60).await;
                        store.prune(u64::MAX).await.unwrap();
                        fill(&store, 260, 10).await;
                        for i in 0..50 {
                            let chat = ChatId::new(Platform::Telegram, format!("-{i}"));
                            let mut record = ChatRecord::new(
                                chat.clone(),
                                ChatSettings::for_language(Language::Vi),
                            );
                            record.revision = 9;
                            let change = Change {
                                chats: vec![record],
                                ..Change::default()
                            };
                            store.commit(change).await.unwrap();
                        }
                    })
                });
                expected = records(&store);
            })
            .unwrap();
        assert!(expected.len() > 250, "{} records", expected.len());
        assert_eq!(records(&store), expected, "the live store after compaction");
        drop(store);
        let store = reopen(dir.path());
        assert_eq!(records(&store), expected, "reopened after compaction");
    }

    #[tokio::test]
    async fn a_compaction_cut_short_at_any_step_loses_nothing() {
        for stop in [CompactUntil::Copied, CompactUntil::Switched] {
            let dir = tempfile::tempdir().unwrap();
            let store = SledStore::open(dir.path()).unwrap();
            fill(&store, 0, 40).await;
            store.compact_until(stop).unwrap();
            // The store goes on working until the "crash".
            fill(&store, 40, 10).await;
            let expected = records(&store);
            drop(store);
            // What a crash mid-write would also leave: a half-written CURRENT.tmp.
            fs::write(dir.path().join(CURRENT_TMP), "gen-").unwrap();
            let store = reopen(dir.path());
            assert_eq!(records(&store), expected, "after stopping at {stop:?}");
            let generations = fs::read_dir(dir.path())
                .unwrap()
                .filter(|e| {
                    let name = e.as_ref().unwrap().file_name();
                    parse_generation(&name.to_string_lossy()).is_some()
                })
                .count();
            assert_eq!(generations, 1, "the other database was removed ({stop:?})");
            assert!(!dir.path().join(CURRENT_TMP).exists());
            // And it compacts again from there.
            store.compact().unwrap();
            assert_eq!(records(&store), expected);
        }
    }

    #[tokio::test]
    async fn a_copy_left_half_written_is_discarded() {
        let dir = tempfile::tempdir().unwrap();
        let store = SledStore::open(dir.path()).unwrap();
        fill(&store, 0, 20).await;
        let expected = records(&store);
        drop(store);
        // A crash while copying: the next generation's folder holds part of a database.
        let copy = dir.path().join("gen-2");
        fs::create_dir(&copy).unwrap();
        fs::write(copy.join("db"), [0xAB; 1000]).unwrap();
        let store = reopen(dir.path());
        assert_eq!(records(&store), expected);
        assert!(!copy.exists());
        store.compact().unwrap();
        assert_eq!(records(&store), expected);
    }

    #[tokio::test]
    async fn outbox_ids_keep_growing_across_compactions() {
        let dir = tempfile::tempdir().unwrap();
        let store = SledStore::open(dir.path()).unwrap();
        let mut last = store.allocate_outbox_ids(3).await.unwrap()[2];
        for _ in 0..3 {
            store.compact().unwrap();
            let next = store.allocate_outbox_ids(1).await.unwrap()[0];
            assert!(next > last, "{next:?} after {last:?}");
            last = next;
            store.flush().await.unwrap();
        }
        drop(store);
        let store = reopen(dir.path());
        assert!(store.allocate_outbox_ids(1).await.unwrap()[0] > last);
    }

    #[tokio::test]
    async fn a_second_process_cannot_open_the_folder() {
        let dir = tempfile::tempdir().unwrap();
        let _first = SledStore::open(dir.path()).unwrap();
        let second = SledStore::open(dir.path()).unwrap_err();
        assert!(
            second.to_string().contains("another bot process"),
            "{second}"
        );
    }

    #[tokio::test]
    async fn a_database_written_without_compression_opens_and_its_next_compaction_compresses() {
        let dir = tempfile::tempdir().unwrap();
        let conf = |generation: &str| {
            String::from_utf8_lossy(&fs::read(dir.path().join(generation).join("conf")).unwrap())
                .into_owned()
        };
        {
            // As a version before compression left it: gen-1, uncompressed.
            let db = sled::Config::new()
                .path(dir.path().join("gen-1"))
                .open()
                .unwrap();
            db.open_tree("jieqi").unwrap();
            db.flush().unwrap();
            fs::write(dir.path().join(CURRENT), "gen-1").unwrap();
        }
        assert!(conf("gen-1").contains("use_compression: false"));
        // The sled database just dropped lets go of its lock a moment later (see `reopen`).
        let store = reopen(dir.path());
        fill(&store, 0, 20).await;
        let expected = records(&store);
        store.compact().unwrap();
        assert!(
            conf("gen-2").contains("use_compression: true"),
            "{}",
            conf("gen-2")
        );
        assert_eq!(records(&store), expected);
        drop(store);
        let store = reopen(dir.path());
        assert_eq!(records(&store), expected, "reopened");
    }

    #[tokio::test]
    async fn a_folder_from_before_compaction_moves_into_its_first_generation() {
        let dir = tempfile::tempdir().unwrap();
        {
            // sled's files directly in the folder, as every earlier version left them.
            let db = sled::open(dir.path()).unwrap();
            db.open_tree("jieqi").unwrap();
            db.flush().unwrap();
        }
        let store = reopen(dir.path());
        fill(&store, 0, 20).await;
        let expected = records(&store);
        store.compact().unwrap();
        drop(store);
        for sled_file in SLED_FILES {
            assert!(
                !dir.path().join(sled_file).exists(),
                "{sled_file} left over"
            );
        }
        let store = reopen(dir.path());
        assert_eq!(records(&store), expected);
    }
}
