//! The flag timer of each live game: a task that sleeps until the side to move's flag falls
//! and then judges it (`timers::time_out`) through an ordinary commit of the game, so that a
//! move racing it and the same flag judged by another process are refused as conflicts and
//! the game ends once. Every commit of a live game re-arms its timer (the deadline moved);
//! a game that ended disarms it. The 5 s tick stays the net under it: a process that died
//! takes its timers with it, and any other process's tick judges the flag.
//!
//! Instants are the shared clock's (`shared_clock.rs`): a process measures its offset from
//! the store's clock ([`Service::measure_clock`]), so a process whose wall clock is fast
//! sleeps longer, not less, and never judges a flag before it fell.

use std::sync::Weak;
use std::time::Duration;

use jieqi_clock::Timestamp;

use crate::context::LoadedGame;
use crate::error::ServiceError;
use crate::ids::GameId;
use crate::service::Service;
use crate::state::{Inner, lock};

/// How many times a timer looks again when the flag is not down yet at its wake-up (the
/// offset was re-measured meanwhile, or the store's clock disagreed): each look sleeps until
/// the deadline as it then reads, so a few suffice; the tick is the net after them.
const LOOKS: usize = 8;

impl Service {
    /// Arms the flag timer of each live game among `games` (just committed) at its new
    /// deadline, and disarms it for a game that ended.
    pub(crate) fn arm_flags(&self, games: &[LoadedGame]) {
        for loaded in games {
            let deadline = loaded
                .record
                .clock
                .as_ref()
                .filter(|_| loaded.record.is_active())
                .and_then(jieqi_clock::Clock::flag_deadline);
            match deadline {
                Some(deadline) => self.arm_flag(loaded.record.id.clone(), deadline),
                None => self.disarm_flag(&loaded.record.id),
            }
        }
    }

    fn arm_flag(&self, id: GameId, deadline: Timestamp) {
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let mut timers = lock(&self.inner.flag_timers);
        if timers.get(&id).is_some_and(|(armed, _)| *armed == deadline) {
            return;
        }
        let weak = std::sync::Arc::downgrade(&self.inner);
        let task = runtime.spawn(wait_for_flag(weak, id.clone(), deadline));
        if let Some((_, earlier)) = timers.insert(id, (deadline, task.abort_handle())) {
            stop_unless_current(&earlier);
        }
    }

    fn disarm_flag(&self, id: &GameId) {
        if let Some((_, timer)) = lock(&self.inner.flag_timers).remove(id) {
            stop_unless_current(&timer);
        }
    }

    /// Measures how far this process's wall clock is from the store's and keeps the offset
    /// for live games' instants. Returns the offset in milliseconds (store minus process),
    /// or `None` if the store has no clock of its own (sled: this process is the clock) or
    /// the round trip was too slow to trust (the earlier offset is kept).
    pub async fn measure_clock(&self) -> Result<Option<i64>, ServiceError> {
        let wall = &self.inner.config.wall_clock;
        let before = wall.now();
        let store = self.inner.store.store_time().await?;
        let after = wall.now();
        Ok(store.and_then(|ms| self.inner.shared_clock.measured(before, ms, after)))
    }

    /// The offset from this process's wall clock to the store's in use, in milliseconds
    /// (store minus process; 0 until measured, and always for sled).
    pub fn clock_offset_ms(&self) -> i64 {
        self.inner.shared_clock.offset_ms()
    }

    /// The flag timers armed in this process (for tests and metrics).
    pub fn flag_timers(&self) -> usize {
        lock(&self.inner.flag_timers).len()
    }
}

/// Aborts a timer's task, unless it is the task running now: a timer whose own commit ended
/// the game is disarmed by that commit and finishes by itself.
fn stop_unless_current(timer: &tokio::task::AbortHandle) {
    if tokio::task::try_id() != Some(timer.id()) {
        timer.abort();
    }
}

/// Sleeps until `deadline` on the shared clock, then judges the flag of game `id`.
async fn wait_for_flag(weak: Weak<Inner>, id: GameId, deadline: Timestamp) {
    look_for_flag(&weak, &id, deadline).await;
    // Done looking: forget the timer unless a newer one took its place.
    if let Some(inner) = weak.upgrade() {
        let mut timers = lock(&inner.flag_timers);
        if timers.get(&id).is_some_and(|(armed, _)| *armed == deadline) {
            timers.remove(&id);
        }
    }
}

async fn look_for_flag(weak: &Weak<Inner>, id: &GameId, deadline: Timestamp) {
    for _ in 0..LOOKS {
        let Some(inner) = weak.upgrade() else {
            return;
        };
        let now = inner.clock_now();
        if now <= deadline {
            drop(inner);
            // A flag falls strictly after its deadline.
            tokio::time::sleep(deadline.since(now) + Duration::from_millis(1)).await;
            continue;
        }
        let service = Service { inner };
        let at = service.inner.config.wall_clock.now();
        let judged = service
            .commit_unattended_at(at, |ctx| {
                let id = id.clone();
                Box::pin(async move { crate::timers::time_out(ctx, id).await })
            })
            .await;
        match judged {
            // Ended (this commit disarmed the timer), or nothing to judge: done.
            Ok(true) => return,
            Ok(false) => {}
            Err(error) => tracing::error!(%error, game = %id, "a flag could not be judged"),
        }
        // Nothing committed: the game moved on (its new commit armed a new timer), or the
        // clock, read at commit, said the flag was not down yet. Look again a little later
        // while this timer is still the game's.
        let still_ours = lock(&service.inner.flag_timers)
            .get(id)
            .is_some_and(|(armed, _)| *armed == deadline);
        if !still_ours {
            return;
        }
        drop(service);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
