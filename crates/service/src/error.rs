//! Errors of the service's own API (requests never fail: they are answered with a reason).

use thiserror::Error;

use crate::store::StoreError;

/// What can go wrong opening or running the service.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ServiceError {
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The configuration cannot work.
    #[error("the service configuration is wrong: {0}")]
    Config(String),
}
