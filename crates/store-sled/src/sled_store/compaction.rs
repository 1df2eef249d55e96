//! Compaction: the live records copied into a fresh database beside the live one while
//! writers go on (they note the keys they change, copied again with writers held), then the
//! switch to it (`sled_folder.rs` makes the switch atomic).

use super::*;

/// How far a compaction goes before it stops as if the process had died there (tests).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CompactUntil {
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
    pub(super) fn compact_if_grown(&self) -> Result<bool, StoreError> {
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
    pub(crate) fn records(&self) -> Vec<(Vec<u8>, Vec<u8>)> {
        self.live()
            .tree
            .iter()
            .flatten()
            .map(|(k, v)| (k.to_vec(), v.to_vec()))
            .collect()
    }

    /// [`SledStore::compact`], stopping at `stop` as if the process had died there.
    pub(crate) fn compact_until(&self, stop: CompactUntil) -> Result<(), StoreError> {
        self.compact_with(stop, || {})
    }

    /// [`SledStore::compact_until`], calling `meanwhile` between the copy and the pause
    /// (tests write there, as a busy bot would).
    pub(crate) fn compact_with(
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

    pub(super) fn set_copying(&self, on: bool) {
        *self
            .changed
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = on.then(HashSet::new);
    }

    pub(super) fn take_changed(&self) -> HashSet<Vec<u8>> {
        self.changed
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take()
            .unwrap_or_default()
    }
}

/// Writers stop noting their keys when a compaction ends, however it ends.
pub(super) struct StopNoting<'a>(&'a SledStore);

impl Drop for StopNoting<'_> {
    fn drop(&mut self) {
        self.0.set_copying(false);
    }
}
