//! # jieqi-course
//!
//! The rules course behind `/learn`: short lessons that walk a newcomer through Jieqi (and
//! then Banqi), each step a task on a real position solved with one move.
//!
//! Where to start: [`COURSE`] is the course itself, as data ([`Lesson`] → [`Step`] →
//! [`Turn`]); [`Place`] says where a learner is (lesson, step, and the moves already played
//! in the step), and [`Place::rebuild`] turns it into a [`StepState`]: the step's game with
//! those moves replayed, ready to [judge](StepState::judge) the next move a learner types.
//!
//! Every position is a full [`jieqi_rules::Game`] taken up from a FEN with a fixed deal, so a
//! covered piece really turns up as what the deal says, the flying-general rule really makes
//! a move illegal, and a mate really ends the game. Texts are Fluent message keys (the
//! service translates them); nothing here is a sentence.
//!
//! A service keeps only a [`Place`] per learner (three small numbers and a few move texts)
//! and rebuilds everything else from it, after a restart or in another process.

mod judge;
mod lessons;

pub use judge::{CourseError, Place, StepState, Verdict};
pub use lessons::COURSE;

use jieqi_rules::{Side, Variant};

/// One lesson: a stable id (the store may outlive the lesson order), the game it teaches,
/// its title key, and its steps in order.
#[derive(Debug)]
pub struct Lesson {
    /// Stable id, also the stem of the lesson's message keys (`course-<id>-...`).
    pub id: &'static str,
    /// The game of every step.
    pub variant: Variant,
    /// Message key of the lesson's title.
    pub title: &'static str,
    /// The steps, in order; never empty.
    pub steps: &'static [Step],
}

/// One position and what the learner does in it: one or more turns, each answered with one
/// move (the opponent's scripted reply between them).
#[derive(Debug)]
pub struct Step {
    /// Where the step starts: a full FEN (Xiangqi and Jieqi: with the deal as seventh field
    /// when pieces are covered; Banqi: with or without the deal field).
    pub fen: &'static str,
    /// Moves played from the FEN before the learner's first turn, separated by spaces: a
    /// history the rules judge (repetition, no progress). Coordinates or Banqi squares.
    pub prelude: &'static str,
    /// The side the learner plays (the picture is drawn from it).
    pub learner: Side,
    /// The learner's turns; never empty.
    pub turns: &'static [Turn],
}

/// One task: answered by a move that solves it.
#[derive(Debug)]
pub struct Turn {
    /// Message key of the task.
    pub task: &'static str,
    /// The moves that solve it.
    pub solution: Solution,
    /// The opponent's scripted reply when the step goes on after this turn (`None` on the
    /// step's last turn). It must be legal after every solving move.
    pub reply: Option<&'static str>,
    /// Message key of what is shown when the learner solves it.
    pub explanation: &'static str,
    /// Message key of the hint shown after a legal move that does not solve it.
    pub hint: &'static str,
}

/// The moves that solve a turn.
#[derive(Debug)]
pub enum Solution {
    /// Exactly these moves (coordinates or Banqi text, as [`jieqi_rules::GameMove`] prints
    /// them); the learner may type them in any notation the rules read.
    Moves(&'static [&'static str]),
    /// Any Banqi flip.
    AnyFlip,
}

impl Lesson {
    /// The lesson with this id.
    pub fn by_id(id: &str) -> Option<(usize, &'static Lesson)> {
        COURSE.iter().enumerate().find(|(_, l)| l.id == id)
    }
}
