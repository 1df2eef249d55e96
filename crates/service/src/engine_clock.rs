//! The engine's own clock in a live chat game (`/play bot 1+0`): what it is told before each
//! move, and the budget it thinks with.
//!
//! The server keeps the time (`live_clock`): the engine's move is charged from the commit of
//! the human's move to the instant its own answer comes back to be committed, on the shared
//! clock. So the engine reads its clock as the server keeps it, as of the moment it starts
//! thinking ([`reading`]): the game time left now, the increment or the byo-yomi period, and
//! a move overhead for what is charged outside the search ([`ENGINE_MOVE_OVERHEAD`]).
//! [`budget`] gives every level the time that reading allows (`Budget::on_clock`, which
//! never spends more than half the game time, and in byo-yomi never more than the period
//! once) and keeps a level's own cap below master: a club engine still answers within its
//! second when its clock would allow more, and never later than its clock allows.

use std::time::Duration;

use jieqi_clock::{Clock, Form, Side, Timestamp};
use jieqi_engine::{Budget, ClockReading, Level};

/// Time charged to the engine's clock outside its search: the blocking thread it thinks on
/// may wait for a core on a busy machine, the search reads its own clock every few hundred
/// nodes, and the instant its move is charged at is read after the answer comes back to the
/// game's task. UCI's default (100 ms) is for a process answering a pipe; a service sharing
/// its cores with everything else keeps three times that.
pub(crate) const ENGINE_MOVE_OVERHEAD: Duration = Duration::from_millis(300);

/// What the engine playing `side` knows of its clock at `at` (its time has run since the
/// opponent's move was committed): the game time left, and once that is spent the time left
/// in its current byo-yomi period as the period to move in. A period is never counted on
/// twice, though a move overrunning one only uses it up while others are left: the engine
/// plays to keep them.
pub(crate) fn reading(clock: &Clock, side: Side, at: Timestamp) -> ClockReading {
    let face = clock.face(side, at);
    let (left, increment, byoyomi) = match clock.control().form() {
        Form::Increment { increment, .. } => (face.left, increment, Duration::ZERO),
        Form::ByoYomi { period, .. } if !face.byo_yomi => (face.left, Duration::ZERO, period),
        Form::ByoYomi { .. } => (Duration::ZERO, Duration::ZERO, face.left),
        // A time per move is a period of its own; a live game has none, but the clock could.
        Form::PerMove { limit } => {
            let elapsed = match clock.running() {
                Some(running) if running.side == side => at.since(running.since),
                _ => Duration::ZERO,
            };
            (
                Duration::ZERO,
                Duration::ZERO,
                limit.saturating_sub(elapsed),
            )
        }
    };
    ClockReading {
        left,
        increment,
        byoyomi,
        moves_to_go: None,
        overhead: ENGINE_MOVE_OVERHEAD,
    }
}

/// What one move of `level` may spend: the level's own budget in a game on a time per move;
/// on a game clock, the time its [`reading`] allows (master plays on its clock, the levels
/// below it keep their own cap when the clock would give them more).
pub(crate) fn budget(level: Level, clock: Option<&Clock>, side: Side, at: Timestamp) -> Budget {
    let own = level.budget();
    let Some(clock) = clock else {
        return own;
    };
    let on_clock = own.on_clock(&reading(clock, side, at));
    if level == Level::Master {
        on_clock
    } else {
        Budget {
            movetime: on_clock.movetime.min(own.movetime),
            ..own
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jieqi_clock::TimeControl;
    use proptest::prelude::*;

    fn ms(m: u64) -> Duration {
        Duration::from_millis(m)
    }

    /// A clock on `control` whose `side` has `main` ms of game time (and `periods`), its
    /// time running since `since`.
    fn clock_at(control: &str, side: Side, main: u64, periods: u8, since: u64) -> Clock {
        let control: TimeControl = control.parse().unwrap();
        let mut parts = Clock::new(control).parts();
        let time = match side {
            Side::Red => &mut parts.red,
            Side::Black => &mut parts.black,
        };
        time.main = time.main.min(ms(main));
        time.periods = time.periods.min(periods.max(1));
        parts.running = Some(jieqi_clock::Running {
            side,
            since: Timestamp::from_millis(since),
        });
        Clock::from_parts(parts).unwrap()
    }

    /// The time `side` may still take before its move is refused: its game time left and
    /// the current byo-yomi period's.
    fn allowance(clock: &Clock, side: Side, at: Timestamp) -> Duration {
        let face = clock.face(side, at);
        match clock.control().form() {
            Form::ByoYomi { period, .. } if !face.byo_yomi => face.left + period,
            _ => face.left,
        }
    }

    #[test]
    fn a_bullet_engine_is_told_the_time_left_now_less_nothing_else() {
        let clock = clock_at("1+0", Side::Black, 30_000, 0, 1_000);
        let read = reading(&clock, Side::Black, Timestamp::from_millis(5_000));
        assert_eq!(read.left, ms(26_000));
        assert_eq!((read.increment, read.byoyomi), (ms(0), ms(0)));
        assert_eq!(read.overhead, ENGINE_MOVE_OVERHEAD);
        let blitz = clock_at("3+2", Side::Red, 180_000, 0, 0);
        assert_eq!(
            reading(&blitz, Side::Red, Timestamp::from_millis(0)).increment,
            ms(2_000)
        );
    }

    #[test]
    fn in_byo_yomi_the_engine_moves_within_what_is_left_of_its_period() {
        let clock = clock_at("10m|3x30s", Side::Red, 0, 2, 0);
        let read = reading(&clock, Side::Red, Timestamp::from_millis(12_000));
        assert_eq!((read.left, read.byoyomi), (ms(0), ms(18_000)));
        let before = clock_at("10m|30s", Side::Red, 40_000, 1, 0);
        let read = reading(&before, Side::Red, Timestamp::from_millis(10_000));
        assert_eq!((read.left, read.byoyomi), (ms(30_000), ms(30_000)));
    }

    #[test]
    fn below_master_a_level_keeps_its_own_cap_and_master_plays_on_its_clock() {
        let clock = clock_at("30+20", Side::Red, 1_800_000, 0, 0);
        let at = Timestamp::from_millis(0);
        let club = budget(Level::Club, Some(&clock), Side::Red, at);
        assert_eq!(club, Level::Club.budget());
        let master = budget(Level::Master, Some(&clock), Side::Red, at);
        assert!(
            master.movetime > Level::Master.budget().movetime,
            "{master:?}"
        );
        assert_eq!(master.nodes, Level::Master.budget().nodes);
        // Short of time, every level moves within it.
        let short = clock_at("1+0", Side::Red, 900, 0, 0);
        for level in Level::ALL {
            let spent = budget(level, Some(&short), Side::Red, at).movetime;
            assert!(spent <= ms(300), "{level}: {spent:?}");
        }
        assert_eq!(
            budget(Level::Master, None, Side::Red, at),
            Level::Master.budget()
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2_000))]

        /// Whatever the clock, no level's move is given more than the time left before its
        /// flag less the move overhead (at least a millisecond, to answer at all).
        #[test]
        fn the_budget_never_exceeds_the_time_left_less_the_overhead(
            control in prop_oneof![
                Just("1+0"), Just("3+2"), Just("10+5"), Just("30+20"), Just("2+1"),
                Just("10m|30s"), Just("10m|3x30s"), Just("0s|5s"), Just("1m|5x10s")
            ],
            main in 0u64..2_000_000,
            periods in 0u8..6,
            elapsed in 0u64..120_000,
            black in any::<bool>(),
            level in prop::sample::select(Level::ALL.to_vec()),
        ) {
            let side = if black { Side::Black } else { Side::Red };
            let clock = clock_at(control, side, main, periods, 1_000);
            let at = Timestamp::from_millis(1_000 + elapsed);
            if clock.flagged(at).is_some() {
                // Lost already: the engine's move would be refused whatever it spent.
                return Ok(());
            }
            let given = budget(level, Some(&clock), side, at).movetime;
            let left = allowance(&clock, side, at).saturating_sub(ENGINE_MOVE_OVERHEAD);
            prop_assert!(given <= left.max(ms(1)), "{control} {level}: {given:?} > {left:?}");
            if level != Level::Master {
                prop_assert!(given <= level.budget().movetime);
            }
        }
    }
}
