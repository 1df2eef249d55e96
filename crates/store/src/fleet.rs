//! Records written for the fleet: the processes sharing a store, some of which may still run
//! the release before this one during a rolling upgrade.
//!
//! A store keeps a *fleet version*: the record codec schema ([`SCHEMA_VERSION`]) that every
//! process using it reads. While it is older than this release's (PostgreSQL, a process of
//! the previous release still alive), a process of this release writes every record in the
//! fleet's schema ([`encode_for`]), so that the older processes read whatever it writes; once
//! no older process is left the store advances the fleet version (*finalizes* it, as
//! CockroachDB finalizes a cluster version) and records are written in this release's
//! schema from then on. A single-process store (sled) is always at this release's version.
//!
//! What an older schema cannot hold is one of three kinds:
//! - made again when the record is read, so it is left off: a game's verdict and rules
//!   revision (judged again on reading, `replay::settle_old_game`), an outbox entry's
//!   `covers` (the board is then posted as it is, not coalesced with a newer one);
//! - known to the older release in a plainer form, so it is written that way: buttons that
//!   name their board's ply become the plain Resign and Offer-a-draw buttons (a press acts
//!   on the game, as in the older release), buttons it does not know are left off (the live
//!   page's link, the web board, the Activity, Review), a review's message reads as a notice,
//!   and a stored answer's PGN attachment recipe is left off;
//! - neither: refused with [`StoreError::NotYet`]. The service does not make these while the
//!   fleet is older than the version in [`since`] (secret captures, deferred replies,
//!   stale-button edits, buttons-only edits), so the refusal is a safety net, never a player's
//!   experience.
//!
//! The rules for adding a record field, a record or a table under this scheme are in
//! `docs/architecture.md` ("Rolling upgrades").

use crate::StoreError;
use crate::codec::{Record, SCHEMA_VERSION, encode};

pub use crate::codec::older::{OLDEST_WRITABLE, older_message, since};

/// `value` in its stored bytes as a fleet at version `fleet` reads them: this release's
/// schema if the fleet is there (or newer), else the fleet's own.
pub fn encode_for<T: Record>(value: &T, fleet: u8) -> Result<Vec<u8>, StoreError> {
    if fleet >= SCHEMA_VERSION {
        return encode(value);
    }
    if fleet < OLDEST_WRITABLE {
        return Err(StoreError::Corrupt(format!(
            "cannot write records for a fleet at version {fleet}: this release writes versions \
             {OLDEST_WRITABLE} to {SCHEMA_VERSION}"
        )));
    }
    let mut bytes = vec![fleet];
    bytes.extend(value.older_shape(fleet)?);
    Ok(bytes)
}

#[cfg(test)]
#[path = "fleet/tests.rs"]
mod tests;
