//! The upgrade at open: every record written by an older schema rewritten in the current
//! shape (read through the codec's upgrades), and the store's schema version recorded.

use super::*;

impl SledStore {
    /// Rewrites every record older than [`SCHEMA_VERSION`] in the current shape and records
    /// the version; refuses a store written by a newer bot. Idempotent: a run cut short is
    /// finished by the next one. Returns how many records were rewritten.
    pub(super) fn migrate(&self) -> Result<usize, StoreError> {
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
                Some(&LAUNCH) => encode(&decode::<LaunchRecord>(&v)?)?,
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
