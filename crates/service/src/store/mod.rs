//! The store as the service sees it: the contract (`jieqi-store`: the [`GameStore`] trait,
//! the records, the codec), the default backend (`jieqi-store-sled`), and the service's own
//! wrapper that counts what the store does for the metrics ([`MeasuredStore`]).
//!
//! Everything of the contract is re-exported here under the paths it had when it lived in
//! this crate (`crate::store::GameRecord`, `jieqi_service::store::codec`).

mod measured;

pub use jieqi_store::*;
pub use jieqi_store_sled::SledStore;
pub(crate) use measured::MeasuredStore;
