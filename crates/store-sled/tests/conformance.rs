//! The store's conformance suite (`jieqi_store::conformance`) on sled: one test per promise
//! of the `GameStore` trait, each on a fresh store in a temporary data folder, as the bot
//! opens it.

use std::sync::Arc;

use async_trait::async_trait;
use jieqi_store::conformance::{Opened, StoredRecord, Subject};
use jieqi_store::conformance_tests;
use jieqi_store_sled::SledStore;

struct Sled;

/// What an opened sled store keeps alive: its folder, and the store itself (to plant bytes).
struct Kept {
    _folder: tempfile::TempDir,
    store: Arc<SledStore>,
}

#[async_trait]
impl Subject for Sled {
    async fn open(&self) -> Option<Opened> {
        let folder = tempfile::tempdir().expect("a temporary folder");
        let store = Arc::new(SledStore::open(folder.path()).expect("a sled store"));
        Some(Opened {
            store: store.clone(),
            keep: Box::new(Kept {
                _folder: folder,
                store,
            }),
        })
    }

    async fn overwrite(&self, opened: &Opened, record: StoredRecord<'_>, bytes: &[u8]) {
        let kept = opened.keep.downcast_ref::<Kept>().expect("a sled store");
        kept.store
            .overwrite_stored(record, bytes)
            .expect("the bytes written");
    }
}

conformance_tests!(Sled);
