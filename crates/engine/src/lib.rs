//! # jieqi-engine
//!
//! The built-in opponent for Xiangqi, Jieqi and Banqi. It plays from a player's
//! [`View`](jieqi_rules::View), never from the deal: the only way in is
//! [`Engine::choose`], which takes a view and the legal moves, so fairness holds by
//! construction.
//!
//! Where to start: [`Engine`] and [`Level`]. The search lives in `search` (Xiangqi and
//! Jieqi, with reveals as chance nodes over the unseen [`Pool`]) and `banqi` (flips as
//! chance nodes); the evaluation in `eval`. [`RandomMover`] is the uniformly random
//! opponent that matches measure the levels against. On a game clock, [`ClockReading`] and
//! [`Budget::on_clock`] share the time between the moves to come (`time`).
//!
//! How the crates fit together: `docs/architecture.md` in the repository; the
//! hidden-information promises the engine keeps: `docs/chat-surface.md`; its benchmarks:
//! `docs/testing.md`.

mod banqi;
mod control;
mod engine;
mod eval;
mod level;
mod pool;
mod random;
mod search;
mod time;
mod tt;

pub use engine::{Analysis, Engine, EngineError, Line, Progress, Score, SearchInfo};
pub use level::{Budget, Level, ParseLevelError};
pub use pool::Pool;
pub use random::RandomMover;
pub use time::ClockReading;
