//! What a `go` may spend, as the engine's [`Budget`]: the level (UCI `Skill Level`) gives the
//! character of the play (depth cap, noise, node budget), and the `go` limits override what
//! they name.
//!
//! - `nodes`, `depth`: those limits, and nothing else stops the search early;
//! - `movetime`: that time, and below master the level's node budget and depth cap too, so
//!   `Skill Level` keeps the levels apart under a fixed time (a club engine given a second
//!   still plays as a club player); master has no node cap and uses the time it is given;
//! - `infinite`: nothing stops it but `stop`;
//! - a clock (`wtime`/`btime`, increments, `byoyomi`, `movestogo`): the engine's time
//!   management ([`ClockReading`]) shares the time left, less the move overhead (UCI
//!   `Move Overhead`), and the level's node budget stays, so a level plays as strong with a
//!   clock as in the bot and never loses on time;
//! - a bare `go`: the level's own budget, as in the bot.

use std::time::Duration;

use jieqi_engine::{Budget, ClockReading, Level};
use jieqi_rules::Side;

use crate::command::Go;

/// Long enough to mean "no time limit", short enough for the engine's arithmetic.
pub const UNLIMITED_TIME: Duration = Duration::from_secs(365 * 24 * 3600);

/// Deepest iteration the engine ever searches.
pub const MAX_DEPTH: u32 = 64;

/// The level of a UCI `Skill Level` from 0 to 20: 0–5 novice, 6–10 casual, 11–15 club,
/// 16–20 master.
pub fn level_of_skill(skill: u32) -> Level {
    match skill {
        0..=5 => Level::Novice,
        6..=10 => Level::Casual,
        11..=15 => Level::Club,
        _ => Level::Master,
    }
}

/// The move overhead a session assumes until the GUI sets `Move Overhead`: time lost around
/// each move outside the search (the GUI, pipes, a loaded machine).
pub const DEFAULT_MOVE_OVERHEAD: Duration = Duration::from_millis(100);

/// The budget of one `go` by `side` at `level`, losing `overhead` around each move.
///
/// ```
/// use std::time::Duration;
/// use jieqi_engine::Level;
/// use jieqi_rules::Side;
/// use jieqi_uci::command::Go;
/// use jieqi_uci::limits::budget;
///
/// let go = Go { nodes: Some(5_000), ..Go::default() };
/// let overhead = Duration::from_millis(100);
/// let b = budget(&go, Level::Master, Side::Red, overhead);
/// assert_eq!(b.nodes, 5_000);
/// let clock = Go { wtime: Some(Duration::from_secs(60)), ..Go::default() };
/// assert!(budget(&clock, Level::Master, Side::Red, overhead).movetime < Duration::from_secs(5));
/// ```
pub fn budget(go: &Go, level: Level, side: Side, overhead: Duration) -> Budget {
    let base = level.budget();
    let exact = go.infinite || go.nodes.is_some() || go.depth.is_some() || go.movetime.is_some();
    // A movetime alone keeps the node budget that makes a level what it is; master's is
    // only there to bound its time in the bot, so under a movetime it has none.
    let keeps_level_nodes = go.movetime.is_some()
        && !go.infinite
        && go.nodes.is_none()
        && go.depth.is_none()
        && level != Level::Master;
    let mut budget = Budget {
        nodes: if exact && !keeps_level_nodes {
            u64::MAX
        } else {
            base.nodes
        },
        movetime: UNLIMITED_TIME,
        ..base
    };
    if let Some(nodes) = go.nodes {
        budget.nodes = nodes.max(1);
    }
    if let Some(depth) = go.depth {
        budget.max_depth = depth.clamp(1, MAX_DEPTH);
    } else if go.infinite {
        budget.max_depth = MAX_DEPTH;
    }
    if let Some(movetime) = go.movetime {
        // The engine keeps 15 % of its time as a margin; a GUI's movetime is the whole time.
        budget.movetime = movetime.div_f64(0.85).max(Duration::from_millis(1));
    } else if !exact {
        budget.movetime =
            clock_reading(go, side, overhead).map_or(base.movetime, |c| c.move_time());
    }
    budget
}

/// What a `go` says of `side`'s clock, or `None` if it gives no time for `side`.
fn clock_reading(go: &Go, side: Side, overhead: Duration) -> Option<ClockReading> {
    let (left, increment) = match side {
        Side::Red => (go.wtime?, go.winc.unwrap_or_default()),
        Side::Black => (go.btime?, go.binc.unwrap_or_default()),
    };
    Some(ClockReading {
        left,
        increment,
        byoyomi: go.byoyomi.unwrap_or_default(),
        moves_to_go: go.movestogo,
        overhead,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const OVERHEAD: Duration = DEFAULT_MOVE_OVERHEAD;

    #[test]
    fn skill_levels_cover_all_four_levels() {
        let levels: Vec<Level> = (0..=20).map(level_of_skill).collect();
        for level in Level::ALL {
            assert!(levels.contains(&level));
        }
        assert_eq!(level_of_skill(20), Level::Master);
        assert_eq!(level_of_skill(0), Level::Novice);
    }

    #[test]
    fn a_bare_go_is_the_levels_own_budget() {
        for level in Level::ALL {
            assert_eq!(
                budget(&Go::default(), level, Side::Red, OVERHEAD),
                level.budget()
            );
        }
    }

    #[test]
    fn named_limits_replace_the_levels() {
        let go = Go {
            depth: Some(5),
            ..Go::default()
        };
        let b = budget(&go, Level::Club, Side::Black, OVERHEAD);
        assert_eq!(
            (b.max_depth, b.nodes, b.movetime),
            (5, u64::MAX, UNLIMITED_TIME)
        );
        let go = Go {
            infinite: true,
            ..Go::default()
        };
        let b = budget(&go, Level::Master, Side::Red, OVERHEAD);
        assert_eq!((b.max_depth, b.nodes), (MAX_DEPTH, u64::MAX));
        let go = Go {
            movetime: Some(Duration::from_millis(850)),
            ..Go::default()
        };
        assert_eq!(
            budget(&go, Level::Master, Side::Red, OVERHEAD).movetime,
            Duration::from_millis(1000)
        );
    }

    #[test]
    fn a_movetime_keeps_the_node_budgets_that_separate_the_levels() {
        let go = Go {
            movetime: Some(Duration::from_millis(200)),
            ..Go::default()
        };
        let nodes: Vec<u64> = Level::ALL
            .iter()
            .map(|&level| budget(&go, level, Side::Red, OVERHEAD).nodes)
            .collect();
        assert_eq!(
            nodes,
            [
                Level::Novice.budget().nodes,
                Level::Casual.budget().nodes,
                Level::Club.budget().nodes,
                u64::MAX
            ]
        );
        assert_eq!(budget(&go, Level::Casual, Side::Red, OVERHEAD).max_depth, 3);
        let with_nodes = Go {
            nodes: Some(50_000),
            movetime: Some(Duration::from_millis(200)),
            ..Go::default()
        };
        assert_eq!(
            budget(&with_nodes, Level::Novice, Side::Red, OVERHEAD).nodes,
            50_000
        );
    }

    #[test]
    fn a_clock_share_never_exceeds_half_the_time_left() {
        let go = Go {
            btime: Some(Duration::from_millis(100)),
            binc: Some(Duration::from_secs(10)),
            ..Go::default()
        };
        assert!(
            budget(&go, Level::Master, Side::Black, Duration::ZERO).movetime
                <= Duration::from_millis(50)
        );
    }

    #[test]
    fn a_clock_is_read_for_the_side_to_move_less_the_overhead() {
        let go = Go {
            wtime: Some(Duration::from_secs(60)),
            btime: Some(Duration::from_secs(30)),
            ..Go::default()
        };
        let red = budget(&go, Level::Club, Side::Red, Duration::ZERO).movetime;
        let black = budget(&go, Level::Club, Side::Black, Duration::ZERO).movetime;
        assert_eq!(
            (red, black),
            (Duration::from_secs(2), Duration::from_secs(1))
        );
        let loaded = budget(&go, Level::Club, Side::Red, Duration::from_secs(3)).movetime;
        assert_eq!(loaded, Duration::from_secs(57) / 30);
        assert_eq!(
            budget(&go, Level::Club, Side::Red, OVERHEAD).nodes,
            Level::Club.budget().nodes
        );
    }

    #[test]
    fn byo_yomi_time_is_spent_once_the_game_time_is_gone() {
        let go = Go {
            wtime: Some(Duration::ZERO),
            btime: Some(Duration::ZERO),
            byoyomi: Some(Duration::from_millis(5_100)),
            ..Go::default()
        };
        let movetime = budget(&go, Level::Master, Side::Black, OVERHEAD).movetime;
        assert_eq!(movetime, Duration::from_millis(4_500));
    }
}
