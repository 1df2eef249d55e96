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

use super::StoreError;

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
