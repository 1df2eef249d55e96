//! Every promise of [`GameStore`](crate::GameStore), written once as tests that any backend
//! runs (feature `conformance`). A backend's test file names a [`Subject`] (how to open a
//! fresh store of it, and how to plant bytes an older bot wrote) and calls
//! [`conformance_tests!`](crate::conformance_tests), which makes one `#[tokio::test]` per
//! promise, named after it: a backend that breaks a promise fails by that name.
//!
//! What only a store shared by several processes promises (two processes never share a
//! lane, `next_claimable`, leadership, reconnection, migrations) is tested by that backend
//! (`crates/store-pg/tests/pg_store.rs`); what only sled does (group flush, compaction) by
//! sled.

use std::any::Any;
use std::sync::Arc;

use async_trait::async_trait;

use crate::GameStore;
use crate::RequestKey;
use crate::ids::{ChallengeId, ChatId, GameId, UserId};
use crate::message::OutboxId;

pub mod fixtures;
pub mod launches;
pub mod promises;
pub mod tournaments;
pub mod upgrades;

/// A fresh store of the backend under test, and whatever must live as long as it (its
/// folder, its database schema).
pub struct Opened {
    /// The store.
    pub store: Arc<dyn GameStore>,
    /// Kept alive with the store; the subject may downcast it to reach behind the store.
    pub keep: Box<dyn Any + Send + Sync>,
}

impl std::fmt::Debug for Opened {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Opened")
            .field("store", &self.store)
            .finish_non_exhaustive()
    }
}

/// One record as a backend keeps it, by its key.
#[derive(Clone, Copy, Debug)]
pub enum StoredRecord<'a> {
    /// A game.
    Game(&'a GameId),
    /// A challenge.
    Challenge(&'a ChallengeId),
    /// A chat.
    Chat(&'a ChatId),
    /// A player.
    Player(&'a UserId),
    /// An undelivered outbox entry.
    Outbox(OutboxId),
    /// A request's answer.
    Answer(&'a RequestKey),
}

/// A backend under test.
#[async_trait]
pub trait Subject: Sync {
    /// A new, empty store; `None` if this backend cannot be tested here (no database
    /// server outside CI), and the test then passes without testing anything.
    async fn open(&self) -> Option<Opened>;
    /// Replaces the stored bytes of `record` (which exists) by `bytes`, as an older bot would
    /// have written them, behind the store's back.
    async fn overwrite(&self, opened: &Opened, record: StoredRecord<'_>, bytes: &[u8]);
}

/// Opens a store of `subject` or returns from the test (see [`Subject::open`]).
#[macro_export]
#[doc(hidden)]
macro_rules! __open_or_skip {
    ($subject:expr) => {
        match $subject.open().await {
            Some(opened) => opened,
            None => return,
        }
    };
}

/// One `#[tokio::test]` per promise of the store for `$subject` (an expression of a type
/// that implements [`Subject`]), each named after its promise.
#[macro_export]
macro_rules! conformance_tests {
    ($subject:expr) => {
        $crate::conformance_tests!(@each $subject;
            promises::a_change_computed_from_a_stale_revision_is_refused_whole,
            promises::a_new_record_whose_id_is_taken_is_a_conflict,
            promises::a_request_key_answers_once_until_pruned,
            promises::records_read_back_as_committed,
            promises::deadlines_come_due_oldest_first_and_leave_with_their_record,
            promises::a_claim_takes_the_oldest_message_of_each_free_lane,
            promises::a_lane_delivers_in_commit_order_one_message_at_a_time,
            promises::a_renewed_claim_is_kept_and_a_lapsed_one_is_taken_over_naming_its_holder,
            promises::a_claim_taken_over_is_not_renewed_by_its_old_holder,
            promises::a_deferred_lane_waits_until_its_time,
            promises::a_chats_messages_about_one_game_are_a_lane_of_their_own,
            promises::an_edit_carries_the_reference_of_the_post_it_replaces,
            promises::outbox_ids_increase,
            promises::the_review_queue_keeps_its_order_and_each_entry_is_taken_once,
            promises::a_review_is_stored_once,
            promises::game_news_comes_in_commit_order,
            launches::an_activity_launch_reads_back_until_replaced_or_pruned,
            tournaments::a_tournament_reads_back_by_id_by_chat_and_while_unfinished,
            tournaments::a_round_is_paired_once_whichever_process_pairs_it,
            tournaments::an_open_tournament_is_due_at_its_start_time_until_it_starts,
            tournaments::a_running_arena_is_due_at_its_end_until_it_finishes,
            upgrades::challenges_of_every_older_schema_read_as_current,
            upgrades::chats_of_every_older_schema_read_as_current,
            upgrades::players_of_every_older_schema_read_as_current,
            upgrades::games_of_every_older_schema_read_as_current,
            upgrades::outbox_entries_of_every_older_schema_read_as_current,
            upgrades::answers_of_every_older_schema_read_as_current
        );
    };
    (@each $subject:expr; $($module:ident :: $name:ident),* $(,)?) => {
        $(
            #[tokio::test]
            async fn $name() {
                $crate::conformance::$module::$name(&$subject).await;
            }
        )*
    };
}
