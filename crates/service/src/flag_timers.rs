//! The flag timer of each live game: a task that sleeps until the game's judgement deadline
//! (the side to move's flag, or the end of the 30 s its first move is due within) and then
//! judges it (`timers::time_out`) through an ordinary commit of the game, so that a move
//! racing it and the same flag judged by another process are refused as conflicts and the
//! game ends once.
//!
//! Every process arms every live game's timer: its own commits arm it at once, and the
//! store's news of each commit ([`Service::follow_flags`]: `LISTEN`/`NOTIFY` on PostgreSQL)
//! makes the others read the game and arm theirs. So whichever process wakes first judges
//! the flag, and the others find the game moved on; when the process that made the last
//! move dies, the others' timers still fall on time. A newer revision re-arms the timer (the
//! deadline moved), a game that ended disarms it, and news of a revision a process knows
//! already (its own commits, announced back) costs nothing. The 5 s tick stays the net under
//! the timers: it judges whatever is due, and arms the timers of live games due within the
//! next [`LOOK_AHEAD`] that this process did not hear of (news missed). When the news starts
//! (and whenever it may have missed some), the live games due within the hour are read and
//! armed, so a process that starts arms the live games already in play.
//!
//! A sleeping timer is a tokio timer entry: an idle live game costs no work until its
//! deadline. Instants are the shared clock's (`shared_clock.rs`): a process measures its
//! offset from the store's clock ([`Service::measure_clock`]), so a process whose wall clock
//! is fast sleeps longer, not less, and never judges a flag before it fell.

use std::sync::{Arc, Weak};
use std::time::{Duration, SystemTime};

use jieqi_clock::Timestamp;
use tokio::sync::broadcast::error::RecvError;

use crate::error::ServiceError;
use crate::ids::GameId;
use crate::live_clock::judgement_deadline;
use crate::service::Service;
use crate::state::{ArmedFlag, FlagTimers, Inner, SeenFlag, lock};
use crate::store::{Due, GameChange, GameRecord};

/// How many times a timer looks again when its game is not to be judged at its wake-up (the
/// offset was re-measured meanwhile, or the store's clock disagreed): each look sleeps until
/// the deadline as it then reads, so a few suffice; the tick is the net after them.
const LOOKS: usize = 8;

/// How far ahead of now the tick arms the timers of live games it finds in the deadline
/// index: more than the tick's period (5 s), so every deadline is seen by a tick before it.
pub(crate) const LOOK_AHEAD: Duration = Duration::from_secs(15);

/// How far ahead the live games are armed when the news starts (or may have been missed):
/// a process that starts arms the games in play due within the hour at once.
const LOAD_AHEAD: Duration = Duration::from_secs(3_600);

/// At most this many games' deadlines read by one look ahead (the earliest first).
const LOOK_AHEAD_GAMES: usize = 1024;

/// How many readings of the store's clock a measurement takes (the closest one counts).
const CLOCK_READINGS: usize = 5;

/// Games whose news is read at once (each read is one store read of the game).
const READS_AT_ONCE: usize = 8;

/// Past this many games remembered, the memory of what each game's flag was is forgotten
/// (a later commit of a game then costs one read): it stays bounded however many games a
/// process hears of.
const SEEN_AT_MOST: usize = 100_000;

/// What a committed revision of a game says of its flag.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct FlagNews {
    id: GameId,
    revision: u64,
    /// When it is judged if nobody moves; `None`: no flag now.
    deadline: Option<Timestamp>,
    /// Whether the game can have a flag again (it has a clock and is in play).
    live: bool,
}

impl FlagNews {
    /// What `record` (as committed) says of its game's flag.
    pub(crate) fn of(record: &GameRecord) -> FlagNews {
        FlagNews {
            id: record.id.clone(),
            revision: record.revision,
            deadline: judgement_deadline(record),
            live: record.clock.is_some() && record.is_active(),
        }
    }
}

impl FlagTimers {
    /// Whether news of `id` at `revision` may change its timer (else it costs no read).
    fn wants(&self, id: &GameId, revision: u64) -> bool {
        match self.seen.get(id) {
            Some(SeenFlag::Never) => false,
            Some(SeenFlag::Revision(known)) => revision > *known,
            None => self
                .armed
                .get(id)
                .is_none_or(|armed| revision > armed.revision),
        }
    }

    /// Takes `news` in; returns it if it is newer than what was known, so the timer follows.
    fn learn(&mut self, news: FlagNews) -> Option<FlagNews> {
        if !self.wants(&news.id, news.revision) {
            return None;
        }
        if self.seen.len() >= SEEN_AT_MOST {
            self.seen.clear();
        }
        let seen = if news.live {
            SeenFlag::Revision(news.revision)
        } else {
            SeenFlag::Never
        };
        self.seen.insert(news.id.clone(), seen);
        Some(news)
    }
}

impl Service {
    /// Arms, re-arms or disarms the flag timers of the games `news` tells of (just committed,
    /// here or by another process), unless this process knew those revisions already.
    pub(crate) fn arm_flags(&self, news: Vec<FlagNews>) {
        let runtime = tokio::runtime::Handle::try_current().ok();
        // One lock for learning and arming, so news of two revisions taken in at once leave
        // the newer one's timer.
        let mut timers = lock(&self.inner.flag_timers);
        for news in news {
            let Some(news) = timers.learn(news) else {
                continue;
            };
            let armed = match (news.deadline, &runtime) {
                (Some(deadline), Some(runtime)) => {
                    if let Some(armed) = timers.armed.get_mut(&news.id)
                        && armed.deadline == deadline
                    {
                        armed.revision = news.revision;
                        continue;
                    }
                    let weak = Arc::downgrade(&self.inner);
                    let task = runtime.spawn(wait_for_flag(weak, news.id.clone(), deadline));
                    let armed = ArmedFlag {
                        deadline,
                        revision: news.revision,
                        timer: task.abort_handle(),
                    };
                    timers.armed.insert(news.id, armed)
                }
                // Ended, or no runtime to sleep on (the tick is the net).
                _ => timers.armed.remove(&news.id),
            };
            if let Some(earlier) = armed {
                stop_unless_current(&earlier.timer);
            }
        }
    }

    /// Reads game `id` and sets its timer by what the store holds now.
    async fn read_flag(&self, id: &GameId) {
        match self.inner.store.game(id).await {
            Ok(Some(record)) => self.arm_flags(vec![FlagNews::of(&record)]),
            Ok(None) => {}
            Err(error) => tracing::warn!(%error, game = %id, "a live game's clock cannot be read"),
        }
    }

    /// Follows the store's news of every commit, by this process and the others sharing the
    /// store, and arms each live game's flag timer from it (`flag_timers.rs`). Runs until
    /// the store stops announcing; `jieqi-bot run` runs it once its clock offset is measured.
    pub async fn follow_flags(&self) {
        let mut news = self.inner.store.game_changes();
        let reads = Arc::new(tokio::sync::Semaphore::new(READS_AT_ONCE));
        loop {
            match news.recv().await {
                Ok(GameChange::Revised(id, revision)) => {
                    if !lock(&self.inner.flag_timers).wants(&id, revision) {
                        continue;
                    }
                    let service = self.clone();
                    let reads = Arc::clone(&reads);
                    tokio::spawn(async move {
                        let Ok(_permit) = reads.acquire_owned().await else {
                            return;
                        };
                        // This process's own commit may have told it meanwhile.
                        if lock(&service.inner.flag_timers).wants(&id, revision) {
                            service.read_flag(&id).await;
                        }
                    });
                }
                // Commits may have gone unheard (and when the news starts, every commit before
                // it was): the live games due within the hour are read and armed, the tick
                // arms the later ones as they come near, and every timer armed reads its game
                // again when it wakes.
                Ok(GameChange::MaybeMissed) | Err(RecvError::Lagged(_)) => {
                    let now = self.inner.config.wall_clock.now();
                    self.arm_upcoming_flags(now, LOAD_AHEAD).await;
                }
                Err(RecvError::Closed) => return,
            }
        }
    }

    /// Arms the timers of the live games due within `ahead` of `at` that have none in this
    /// process: those in play when it started, or whose news it missed.
    pub(crate) async fn arm_upcoming_flags(&self, at: SystemTime, ahead: Duration) {
        let horizon = crate::context::unix(at + ahead);
        let due = match self.inner.store.due(horizon, LOOK_AHEAD_GAMES).await {
            Ok(due) => due,
            Err(error) => {
                tracing::warn!(%error, "cannot read the deadlines ahead");
                return;
            }
        };
        for item in due {
            let Due::Game(id) = item else { continue };
            let known = {
                let timers = lock(&self.inner.flag_timers);
                timers.armed.contains_key(&id) || timers.seen.get(&id) == Some(&SeenFlag::Never)
            };
            if !known {
                self.read_flag(&id).await;
            }
        }
    }

    /// Measures how far this process's wall clock is from the store's and keeps the offset
    /// for live games' instants. Returns the offset in milliseconds (store minus process),
    /// or `None` if the store has no clock of its own (sled: this process is the clock) or
    /// the round trip was too slow to trust (the earlier offset is kept).
    ///
    /// Of [`CLOCK_READINGS`] readings the one with the shortest round trip is kept: half the
    /// round trip is the most a reading can be off by, and on a loaded machine one reading
    /// can wait long on either side of the store's.
    pub async fn measure_clock(&self) -> Result<Option<i64>, ServiceError> {
        let wall = &self.inner.config.wall_clock;
        let mut best: Option<(Duration, SystemTime, u64, SystemTime)> = None;
        for _ in 0..CLOCK_READINGS {
            let before = wall.now();
            let Some(store) = self.inner.store.store_time().await? else {
                return Ok(None);
            };
            let after = wall.now();
            let round_trip = after.duration_since(before).unwrap_or(Duration::MAX);
            if best.is_none_or(|(shortest, ..)| round_trip < shortest) {
                best = Some((round_trip, before, store, after));
            }
        }
        Ok(best.and_then(|(_, before, store, after)| {
            self.inner.shared_clock.measured(before, store, after)
        }))
    }

    /// The offset from this process's wall clock to the store's in use, in milliseconds
    /// (store minus process; 0 until measured, and always for sled).
    pub fn clock_offset_ms(&self) -> i64 {
        self.inner.shared_clock.offset_ms()
    }

    /// The flag timers armed in this process (for tests and metrics).
    pub fn flag_timers(&self) -> usize {
        lock(&self.inner.flag_timers).armed.len()
    }

    /// Whether this process has a flag timer armed for game `id` (for tests).
    pub fn has_flag_timer(&self, id: &GameId) -> bool {
        lock(&self.inner.flag_timers).armed.contains_key(id)
    }
}

/// Aborts a timer's task, unless it is the task running now: a timer whose own commit ended
/// the game is disarmed by that commit and finishes by itself.
fn stop_unless_current(timer: &tokio::task::AbortHandle) {
    if tokio::task::try_id() != Some(timer.id()) {
        timer.abort();
    }
}

/// Whether `deadline` is still the one game `id`'s timer waits for.
fn still_armed(inner: &Inner, id: &GameId, deadline: Timestamp) -> bool {
    lock(&inner.flag_timers)
        .armed
        .get(id)
        .is_some_and(|armed| armed.deadline == deadline)
}

/// Sleeps until `deadline` on the shared clock, then judges game `id`.
async fn wait_for_flag(weak: Weak<Inner>, id: GameId, deadline: Timestamp) {
    look_for_flag(&weak, &id, deadline).await;
    // Done looking: forget the timer unless a newer one took its place.
    if let Some(inner) = weak.upgrade() {
        let mut timers = lock(&inner.flag_timers);
        if timers
            .armed
            .get(&id)
            .is_some_and(|armed| armed.deadline == deadline)
        {
            timers.armed.remove(&id);
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
            // Ended (this commit disarmed the timer): done.
            Ok(true) => return,
            Ok(false) => {}
            Err(error) => tracing::error!(%error, game = %id, "a flag could not be judged"),
        }
        // Nothing committed: the game moved on (news of it may not have come yet), or the
        // clock, read at commit, said the flag was not down yet. The game as stored now
        // says which: a new deadline re-arms the timer (this one ends), none disarms it.
        match service.inner.store.game(id).await {
            Ok(Some(record)) => {
                let news = FlagNews::of(&record);
                if news.deadline != Some(deadline) {
                    // Newer than this process knew: its timer follows it (and this one ends).
                    service.arm_flags(vec![news]);
                    return;
                }
            }
            Ok(None) => return,
            Err(error) => tracing::warn!(%error, game = %id, "a live game cannot be read"),
        }
        if !still_armed(&service.inner, id, deadline) {
            return;
        }
        drop(service);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
