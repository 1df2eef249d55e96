//! Old boards lose their live buttons: when a newer board is posted in a chat, the one before
//! it is edited to grey out (Discord) or take away (Telegram) its Draw and Resign buttons, so
//! that a channel is not left full of buttons that look live.
//!
//! Such an edit waits in the chat's stale-button lane ([`Destination::StaleButtons`], beside
//! the chat's own lane), so it never holds back a board, and it goes out only when the
//! platform says the chat has room to spare ([`Sender::spare`]): room its next boards will
//! not need. Until then it waits, looking again every few seconds; a fast game in a Telegram
//! group may leave older boards as they are until it slows down, and a press there is
//! answered with the game as it stands (`commands::refuse_old_board`).
//!
//! An edit names the board it greys out; it goes out only once that board was posted (a
//! board still waiting is waited for), and is dropped without a platform call if the board
//! never was (a newer board stood in for it: nothing to grey out).

use std::time::{Duration, SystemTime};

use crate::delivery::Sender;
use crate::error::ServiceError;
use crate::message::{Destination, OutboxEntry, OutboxId};
use crate::service::{Service, commit_error};
use crate::store::{Change, Deferral, SentRecord};

/// How long a stale-button edit waits before it looks again for a board still waiting to
/// be posted.
pub(crate) const BOARD_PENDING_RECHECK: Duration = Duration::from_secs(2);
/// How long it waits before it asks again for room to spare.
pub(crate) const NO_ROOM_RECHECK: Duration = Duration::from_secs(5);

/// What to do with a claimed stale-button edit.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// Send it now: the chat has room to spare, which is taken.
    Send,
    /// Look again after this long (the board is not posted yet, or no room to spare).
    Later(Duration),
    /// Nothing to grey out: the board was never posted.
    Drop,
}

/// True for an edit that greys out a stale board's buttons.
pub(crate) fn is_stale_buttons(entry: &OutboxEntry) -> bool {
    matches!(entry.message.to, Destination::StaleButtons(_))
}

impl Service {
    /// What to do with the claimed stale-button edit `entry` now.
    pub(crate) async fn stale_buttons_step(
        &self,
        sender: &dyn Sender,
        entry: &OutboxEntry,
    ) -> Result<Step, ServiceError> {
        let Some(board) = entry.message.replaces else {
            return Ok(Step::Drop);
        };
        if entry.replaces_ref.is_none() {
            return Ok(if self.is_undelivered(board).await? {
                Step::Later(BOARD_PENDING_RECHECK)
            } else {
                Step::Drop
            });
        }
        Ok(if sender.spare(&entry.message.to).await {
            Step::Send
        } else {
            Step::Later(NO_ROOM_RECHECK)
        })
    }

    /// Lets message `id` wait `pause` without counting a failed round: its lane is not
    /// claimed again before then (another process may take it then), and its claim ends.
    pub(crate) async fn wait_in_lane(
        &self,
        id: OutboxId,
        attempts: u32,
        pause: Duration,
    ) -> Result<(), ServiceError> {
        let not_before = self
            .delivery_now()
            .saturating_add(u64::try_from(pause.as_millis()).unwrap_or(u64::MAX));
        let change = Change {
            deferred: vec![(
                id,
                Deferral {
                    attempts,
                    not_before,
                },
            )],
            ..Change::default()
        };
        self.inner.store.commit(change).await.map_err(commit_error)
    }

    /// Message `id` is done with, unsent (a stale-button edit of a board never posted).
    pub(crate) async fn done_unsent(&self, id: OutboxId) -> Result<(), ServiceError> {
        let change = Change {
            sent: vec![(
                id,
                SentRecord {
                    platform_ref: None,
                    at: crate::context::unix(SystemTime::now()),
                },
            )],
            ..Change::default()
        };
        self.inner.store.commit(change).await.map_err(commit_error)
    }
}
