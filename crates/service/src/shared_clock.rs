//! The one clock live games are timed by. Every process of a deployment must agree on when a
//! flag falls, so clock instants are read from the store's clock (PostgreSQL's, shared by
//! every process; sled's process is alone, and its own clock is the store's): each process
//! measures how far its wall clock is from the store's ([`SharedClock::measure`]) and adds
//! that offset to its own readings. A process whose clock is 2 s fast thus reads the same
//! instants as the others and never ends a game early. The wall clock itself is injected
//! ([`WallClock`]), so tests run a process with a wrong one.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use jieqi_clock::Timestamp;

/// The process's own clock: the system's, or in tests one that is wrong or fake.
#[derive(Clone)]
pub struct WallClock(Arc<dyn Fn() -> SystemTime + Send + Sync>);

impl WallClock {
    /// The system's clock.
    pub fn system() -> WallClock {
        WallClock(Arc::new(SystemTime::now))
    }

    /// A clock read by `read` (tests: a fake clock, or one set wrong on purpose).
    pub fn new(read: impl Fn() -> SystemTime + Send + Sync + 'static) -> WallClock {
        WallClock(Arc::new(read))
    }

    /// Now, by this clock.
    pub fn now(&self) -> SystemTime {
        (self.0)()
    }
}

impl Default for WallClock {
    fn default() -> WallClock {
        WallClock::system()
    }
}

impl std::fmt::Debug for WallClock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("WallClock").field(&self.now()).finish()
    }
}

/// A measurement is trusted only if its round trip took less than this: half of it is the
/// most it can be off by.
pub(crate) const MAX_ROUND_TRIP: Duration = Duration::from_millis(500);

/// The offset from this process's wall clock to the store's, in milliseconds.
#[derive(Debug, Default)]
pub struct SharedClock {
    offset_ms: AtomicI64,
}

fn millis(time: SystemTime) -> i64 {
    match time.duration_since(UNIX_EPOCH) {
        Ok(after) => i64::try_from(after.as_millis()).unwrap_or(i64::MAX),
        Err(before) => -i64::try_from(before.duration().as_millis()).unwrap_or(i64::MAX),
    }
}

impl SharedClock {
    /// The shared instant of `process` (a reading of this process's wall clock).
    pub(crate) fn at(&self, process: SystemTime) -> Timestamp {
        let shared = millis(process).saturating_add(self.offset_ms.load(Ordering::Relaxed));
        Timestamp::from_millis(u64::try_from(shared).unwrap_or(0))
    }

    /// The reading of this process's wall clock at the shared instant `at`.
    pub(crate) fn process_time(&self, at: Timestamp) -> SystemTime {
        let process = i64::try_from(at.as_millis())
            .unwrap_or(i64::MAX)
            .saturating_sub(self.offset_ms.load(Ordering::Relaxed));
        UNIX_EPOCH + Duration::from_millis(u64::try_from(process).unwrap_or(0))
    }

    /// The process's second (as timers and deadlines are kept) at or after the shared
    /// instant `at`: a deadline index entry never due before the instant itself.
    pub(crate) fn process_second_after(&self, at: Timestamp) -> u64 {
        let process = self.process_time(at);
        let after = process.duration_since(UNIX_EPOCH).unwrap_or_default();
        after.as_secs() + u64::from(after.subsec_nanos() > 0)
    }

    /// Takes a measurement: the store read `store_ms` between this process's readings
    /// `before` and `after`. Returns the new offset, or `None` if the round trip was too long
    /// to trust (the offset is kept as it was).
    pub(crate) fn measured(
        &self,
        before: SystemTime,
        store_ms: u64,
        after: SystemTime,
    ) -> Option<i64> {
        let (before, after) = (millis(before), millis(after));
        if after < before || after - before > i64::try_from(MAX_ROUND_TRIP.as_millis()).ok()? {
            return None;
        }
        let midpoint = before + (after - before) / 2;
        let offset = i64::try_from(store_ms).ok()?.saturating_sub(midpoint);
        self.offset_ms.store(offset, Ordering::Relaxed);
        Some(offset)
    }

    /// The offset in use, in milliseconds (store minus process).
    pub fn offset_ms(&self) -> i64 {
        self.offset_ms.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fast_process_clock_reads_the_stores_instants_once_measured() {
        let clock = SharedClock::default();
        let store = UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        let fast = store + Duration::from_secs(2);
        assert_eq!(clock.at(fast).as_millis(), 1_700_000_002_000);
        let offset = clock.measured(fast, 1_700_000_000_050, fast + Duration::from_millis(100));
        assert_eq!(offset, Some(-2_000));
        assert_eq!(clock.at(fast).as_millis(), 1_700_000_000_000);
        assert_eq!(
            clock.process_time(Timestamp::from_millis(1_700_000_000_000)),
            fast
        );
        assert_eq!(
            clock.process_second_after(Timestamp::from_millis(1_700_000_000_001)),
            1_700_000_003
        );
    }

    #[test]
    fn a_slow_round_trip_is_not_trusted() {
        let clock = SharedClock::default();
        let at = UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        assert_eq!(clock.measured(at, 5, at + Duration::from_secs(2)), None);
        assert_eq!(clock.offset_ms(), 0);
    }
}
