//! # jieqi-puzzles
//!
//! Puzzles for Jieqi, Xiangqi and Banqi: the shipped set (`assets/puzzles/*.txt.gz`), the
//! checker that plays a puzzle out with a solver, and the generator that made the set.
//!
//! What sets these puzzles apart is soundness under hidden information. A Jieqi or Banqi
//! puzzle has covered pieces, and the solver sees only their own view. A puzzle is kept only
//! if its first move wins against *every* deal consistent with that view (the covered pieces
//! are treated as the opponent's choice, not as chance) and no other first move does. The
//! verifier (`verify`) decides this with an exact AND-OR search under a node budget; a
//! position it cannot decide is dropped, so nothing unverified is ever kept.
//!
//! Where to start:
//! - [`PuzzleSet`] loads the shipped files and [`PuzzleSet::pick`]s a puzzle near a rating.
//! - [`Puzzle`] is one puzzle: the solver's FEN, the [`Task`], the solution, the rating;
//!   [`Puzzle::game`] gives a rules game to draw the board from.
//! - [`Attempt`] judges the solver's moves and plays the replies.
//! - [`generate()`] is what `jieqi-bot puzzles generate` runs; [`reverify`] re-proves a
//!   puzzle from scratch.
//!
//! ```
//! use jieqi_puzzles::{Answer, Attempt, PuzzleSet};
//!
//! let set = PuzzleSet::from_bytes(
//!     b"jieqi-puzzles 1\nx00000001\txiangqi\tmate\t1\t800\t4k4/R8/9/9/9/9/9/9/1R7/5K3 w - - 0 1\t-\tb1b9\n",
//! )?;
//! let puzzle = set.pick(jieqi_rules::Variant::Xiangqi, 1000.0, |_| false, 0).unwrap();
//! assert_eq!(puzzle.task().to_string(), "Red to move: mate in 1");
//! let mut attempt = Attempt::new(puzzle)?;
//! assert_eq!(attempt.play("b1b9"), Ok(Answer::Solved));
//! # Ok::<(), jieqi_puzzles::FormatError>(())
//! ```

mod arena;
mod attempt;
mod generate;
mod puzzle;
mod set;
mod solve;
mod verify;

pub use attempt::{Answer, Attempt, AttemptError};
pub use generate::{GenerateOptions, Summary, generate, proof_nodes, rate, reverify};
pub use puzzle::{FormatError, HEADER, Puzzle, Task, Theme};
pub use set::PuzzleSet;
pub use solve::Budgets;
pub use verify::{BANQI_MATERIAL_GAIN, DEFENCE_DEPTH, Goal, MATERIAL_GAIN};
