//! What a `go` may spend, as the engine's [`Budget`]: the level (UCI `Skill Level`) gives the
//! character of the play (depth cap, noise, node budget), and the `go` limits override what
//! they name.
//!
//! - `nodes`, `depth`: those limits, and nothing else stops the search early;
//! - `movetime`: that time, and below master the level's node budget and depth cap too, so
//!   `Skill Level` keeps the levels apart under a fixed time (a club engine given a second
//!   still plays as a club player); master has no node cap and uses the time it is given;
//! - `infinite`: nothing stops it but `stop`;
//! - a clock (`wtime`/`btime`, increments, `movestogo`): a share of the remaining time, and
//!   the level's node budget, so a level plays as strong with a clock as in the bot;
//! - a bare `go`: the level's own budget, as in the bot.

use std::time::Duration;

use jieqi_engine::{Budget, Level};
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

/// The budget of one `go` by `side` at `level`.
///
/// ```
/// use std::time::Duration;
/// use jieqi_engine::Level;
/// use jieqi_rules::Side;
/// use jieqi_uci::command::Go;
/// use jieqi_uci::limits::budget;
///
/// let go = Go { nodes: Some(5_000), ..Go::default() };
/// let b = budget(&go, Level::Master, Side::Red);
/// assert_eq!(b.nodes, 5_000);
/// let clock = Go { wtime: Some(Duration::from_secs(60)), ..Go::default() };
/// assert!(budget(&clock, Level::Master, Side::Red).movetime < Duration::from_secs(5));
/// ```
pub fn budget(go: &Go, level: Level, side: Side) -> Budget {
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
        budget.movetime = clock_share(go, side).unwrap_or(base.movetime);
    }
    budget
}

/// The time to spend from a clock: an even share of what is left for the moves to the next
/// control (30 if the GUI does not say), plus most of the increment, and never more than
/// half of what is left. `None` if the GUI gave no clock for `side`.
fn clock_share(go: &Go, side: Side) -> Option<Duration> {
    let (left, inc) = match side {
        Side::Red => (go.wtime?, go.winc.unwrap_or_default()),
        Side::Black => (go.btime?, go.binc.unwrap_or_default()),
    };
    let moves = go.movestogo.unwrap_or(30).clamp(1, 60);
    let share = left / moves + inc.mul_f64(0.75);
    Some(share.min(left / 2).max(Duration::from_millis(5)))
}

#[cfg(test)]
mod tests {
    use super::*;

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
            assert_eq!(budget(&Go::default(), level, Side::Red), level.budget());
        }
    }

    #[test]
    fn named_limits_replace_the_levels() {
        let go = Go {
            depth: Some(5),
            ..Go::default()
        };
        let b = budget(&go, Level::Club, Side::Black);
        assert_eq!(
            (b.max_depth, b.nodes, b.movetime),
            (5, u64::MAX, UNLIMITED_TIME)
        );
        let go = Go {
            infinite: true,
            ..Go::default()
        };
        let b = budget(&go, Level::Master, Side::Red);
        assert_eq!((b.max_depth, b.nodes), (MAX_DEPTH, u64::MAX));
        let go = Go {
            movetime: Some(Duration::from_millis(850)),
            ..Go::default()
        };
        assert_eq!(
            budget(&go, Level::Master, Side::Red).movetime,
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
            .map(|&level| budget(&go, level, Side::Red).nodes)
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
        assert_eq!(budget(&go, Level::Casual, Side::Red).max_depth, 3);
        let with_nodes = Go {
            nodes: Some(50_000),
            movetime: Some(Duration::from_millis(200)),
            ..Go::default()
        };
        assert_eq!(budget(&with_nodes, Level::Novice, Side::Red).nodes, 50_000);
    }

    #[test]
    fn a_clock_share_never_exceeds_half_the_time_left() {
        let go = Go {
            btime: Some(Duration::from_millis(100)),
            binc: Some(Duration::from_secs(10)),
            ..Go::default()
        };
        assert!(budget(&go, Level::Master, Side::Black).movetime <= Duration::from_millis(50));
    }
}
