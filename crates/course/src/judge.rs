//! Where a learner is, the step's game rebuilt from it, and the judgement of a typed move.

use jieqi_rules::banqi::Action;
use jieqi_rules::{Game, GameError, GameMove, PlayedMove, Preset, Rules};
use thiserror::Error;

use crate::{COURSE, Lesson, Solution, Step, Turn};

/// Where a learner is: what a service stores, and all it needs to rebuild the rest.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Place {
    /// Index into [`COURSE`]; `COURSE.len()` once the course is finished.
    pub lesson: usize,
    /// Index into the lesson's steps.
    pub step: usize,
    /// The moves played so far in the step, as [`GameMove`] prints them: the learner's
    /// solving moves and the scripted replies, alternating (the prelude is not included).
    pub moves: Vec<String>,
}

/// A stored place that does not fit the course (it changed since the place was stored, or
/// the record is damaged).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum CourseError {
    /// No such lesson or step.
    #[error("lesson {lesson}, step {step} is not in the course")]
    NoSuchStep {
        /// The lesson index.
        lesson: usize,
        /// The step index.
        step: usize,
    },
    /// The step's moves do not replay (the lesson's data is wrong, or the record is).
    #[error("the lesson's position cannot be set up: {0}")]
    Position(#[from] GameError),
    /// The moves do not leave the learner on one of the step's turns.
    #[error("the step has no turn after these moves")]
    StepOver,
}

/// What the learner's move was.
#[derive(Debug)]
pub enum Verdict {
    /// It solves the turn. `after` is the game after it (before any reply); `next` is where
    /// the learner goes on.
    Correct {
        /// The move, as the rules print it (`c3c4`, Banqi `d2`).
        mv: GameMove,
        /// The game right after the learner's move.
        after: Box<Game>,
        /// The move as played.
        played: PlayedMove,
        /// Where the learner is now.
        next: Place,
    },
    /// A legal move that does not solve the turn: show the hint and let them try again.
    Wrong {
        /// Message key of the hint.
        hint: &'static str,
    },
    /// Not a move the rules take here (unreadable, or illegal and why).
    NotLegal(GameError),
}

/// A step as the learner sees it now: the game with the moves of the step replayed.
#[derive(Debug)]
pub struct StepState {
    /// Where this is.
    pub place: Place,
    /// The lesson.
    pub lesson: &'static Lesson,
    /// The step.
    pub step: &'static Step,
    /// The turn the learner is on.
    pub turn: &'static Turn,
    /// The game at this moment (prelude and step moves played).
    pub game: Game,
}

impl Place {
    /// The start of lesson `lesson` (may be `COURSE.len()`: finished).
    pub fn lesson_start(lesson: usize) -> Place {
        Place {
            lesson,
            step: 0,
            moves: Vec::new(),
        }
    }

    /// True once every lesson is done.
    pub fn is_finished(&self) -> bool {
        self.lesson >= COURSE.len()
    }

    /// The step's game with the moves played so far; an error if the place does not fit the
    /// course.
    pub fn rebuild(&self) -> Result<StepState, CourseError> {
        let no_such = || CourseError::NoSuchStep {
            lesson: self.lesson,
            step: self.step,
        };
        let lesson = COURSE.get(self.lesson).ok_or_else(no_such)?;
        let step = lesson.steps.get(self.step).ok_or_else(no_such)?;
        // The moves come in pairs (a solving move and its reply), so their count says the turn.
        let turn = match self.moves.len() % 2 {
            0 => step.turns.get(self.moves.len() / 2),
            _ => None,
        }
        .ok_or(CourseError::StepOver)?;
        let mut game = step.start(lesson)?;
        for text in &self.moves {
            game.play_text(text)?;
        }
        Ok(StepState {
            place: self.clone(),
            lesson,
            step,
            turn,
            game,
        })
    }

    /// The place after the step this place is in: the next step, the next lesson, or the end.
    fn after_step(&self) -> Place {
        let steps = COURSE.get(self.lesson).map_or(0, |l| l.steps.len());
        if self.step + 1 < steps {
            Place {
                lesson: self.lesson,
                step: self.step + 1,
                moves: Vec::new(),
            }
        } else {
            Place::lesson_start(self.lesson + 1)
        }
    }
}

impl Step {
    /// The step's game before the learner's first turn: the FEN under the standard rules of
    /// the lesson's game, with the prelude played.
    pub fn start(&self, lesson: &Lesson) -> Result<Game, GameError> {
        let mut game = Game::from_fen(Rules::new(lesson.variant, Preset::Standard), self.fen)?;
        for text in self.prelude.split_whitespace() {
            game.play_text(text)?;
        }
        Ok(game)
    }
}

impl Turn {
    /// Whether `mv` solves this turn.
    pub fn is_solved_by(&self, mv: GameMove) -> bool {
        match self.solution {
            Solution::Moves(moves) => moves.iter().any(|m| *m == mv.to_string()),
            Solution::AnyFlip => matches!(mv, GameMove::Banqi(Action::Flip(_))),
        }
    }
}

impl StepState {
    /// Judges the move the learner typed (any notation the rules read).
    pub fn judge(&self, text: &str) -> Verdict {
        let mv = match self.game.parse_move(text) {
            Ok(mv) => mv,
            Err(e) => return Verdict::NotLegal(e),
        };
        let turn = self.turn;
        if !turn.is_solved_by(mv) {
            return Verdict::Wrong { hint: turn.hint };
        }
        let mut after = self.game.clone();
        let played = match after.play(mv) {
            Ok(played) => played,
            Err(e) => return Verdict::NotLegal(e),
        };
        let next = match turn.reply {
            Some(reply) => {
                let mut moves = self.place.moves.clone();
                moves.extend([mv.to_string(), (*reply).to_owned()]);
                Place {
                    moves,
                    ..self.place.clone()
                }
            }
            None => self.place.after_step(),
        };
        Verdict::Correct {
            mv,
            after: Box::new(after),
            played,
            next,
        }
    }
}
