//! # jieqi-store-sled
//!
//! The embedded backend of the game store ([`jieqi_store::GameStore`]): one sled database in
//! a data folder, owned by one process. The bot's default, and what `local` uses.
//!
//! Where to start: [`SledStore`] (`sled_store.rs`: keys, transactions, group commit, claims
//! kept in memory, the upgrade of older records at open, compaction), `sled_folder.rs` (the
//! data folder's generations and the atomic switch to a compacted copy).

mod sled_folder;
mod sled_store;

pub use sled_store::SledStore;
