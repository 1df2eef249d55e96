//! # jieqi-review
//!
//! The review of a finished game: every move judged by the engine from what its mover knew
//! when it was played, an evaluation for each ply, each player's costliest moves and an
//! accuracy figure per player.
//!
//! Where to start: [`Reviewer::review`] replays a game and returns a [`GameReview`]; a
//! [`MoveVerdict`] is one move's judgement. The figures (loss, win chance, accuracy, the
//! thresholds of an inaccuracy, a mistake and a blunder) are defined in [`judge`] and in
//! `docs/review.md` in the repository.
//!
//! **Judged from the mover's knowledge.** A move is judged on the mover's own
//! [`View`](jieqi_rules::View) at that moment, never on the deal: in Jieqi the covered
//! pieces are unknown to the mover (its own too), and a covered piece it captured is known
//! only if the rules told it. The engine ([`jieqi_engine::Engine::analyse`]) searches every
//! reveal as a chance node over the pieces the mover could not yet have seen, so a reveal
//! counts by its odds: a move that lost a chariot to a reveal nobody could foresee is not a
//! mistake. The engine's only way in is a view, so the review cannot read the deal even by
//! accident; the deal is used only to replay the moves (to know what each reveal showed, which
//! the next mover saw).
//!
//! ```
//! use jieqi_review::{Reviewer, REVIEW_BUDGET};
//! use jieqi_rules::{GameDeal, Preset, Rules, Variant};
//!
//! let rules = Rules::new(Variant::Xiangqi, Preset::Standard);
//! let moves = ["h2e2", "h9g7"].map(String::from);
//! let budget = jieqi_engine::Budget { nodes: 2_000, ..REVIEW_BUDGET };
//! let review = Reviewer::with_budget(budget).review(rules, GameDeal::None, &moves)?;
//! assert_eq!(review.moves.len(), 2);
//! assert_eq!(review.evaluation_red().len(), 3);
//! # Ok::<(), jieqi_review::ReviewError>(())
//! ```

pub mod judge;
mod reviewer;

use serde::{Deserialize, Serialize};

pub use judge::{Eval, Judgement};
pub use reviewer::{REVIEW_BUDGET, ReviewError, Reviewer};

/// A side, as the review stores it (the rules' [`jieqi_rules::Side`] is not serialisable).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Colour {
    /// Red (moves first in Xiangqi and Jieqi).
    Red,
    /// Black.
    Black,
}

impl From<jieqi_rules::Side> for Colour {
    fn from(side: jieqi_rules::Side) -> Colour {
        match side {
            jieqi_rules::Side::Red => Colour::Red,
            jieqi_rules::Side::Black => Colour::Black,
        }
    }
}

impl From<Colour> for jieqi_rules::Side {
    fn from(colour: Colour) -> jieqi_rules::Side {
        match colour {
            Colour::Red => jieqi_rules::Side::Red,
            Colour::Black => jieqi_rules::Side::Black,
        }
    }
}

/// One move, judged from its mover's view at the moment it was played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveVerdict {
    /// The ply it was (0-based): the position before it has had this many moves.
    pub ply: u32,
    /// Who played it; `None` for Banqi's first flip, made before anyone has a colour (pure
    /// chance, never judged).
    pub mover: Option<Colour>,
    /// The move as stored (`h2e2`, `b9c7c`, `c3=R`).
    pub played: String,
    /// The engine's choice in the mover's place, without anything it would reveal (`h2e2`,
    /// `c3`); `None` when the move was not judged.
    pub best: Option<String>,
    /// The value of the engine's choice for the mover, as the mover could know it.
    pub before: Eval,
    /// The value of the move played for the mover, as the mover could know it.
    pub after: Eval,
}

impl MoveVerdict {
    /// What the move cost, in win chance (percentage points, 0 to 100) for its mover.
    pub fn win_drop(&self) -> f64 {
        (judge::win_percent(self.before) - judge::win_percent(self.after)).max(0.0)
    }

    /// What the move cost in hundredths of a soldier (mates count as
    /// [`judge::DECISIVE`]); never negative.
    pub fn loss(&self) -> i32 {
        (self.before.centi() - self.after.centi()).max(0)
    }

    /// Good, an inaccuracy, a mistake or a blunder.
    pub fn judgement(&self) -> Judgement {
        Judgement::of_drop(self.win_drop())
    }

    /// This move's accuracy, 0 to 100 ([`judge::move_accuracy`]).
    pub fn accuracy(&self) -> f64 {
        judge::move_accuracy(self.win_drop())
    }

    /// True if the engine would have played the move itself.
    pub fn is_best(&self) -> bool {
        self.best.as_deref() == Some(self.played_move())
    }

    /// The move played without what it revealed (`b9c7c` is `b9c7`, `c3=R` is `c3`): as the
    /// mover chose it.
    pub fn played_move(&self) -> &str {
        let head = self.played.split('=').next().unwrap_or_default();
        // Board coordinates are four characters; a fifth is the revealed type.
        head.get(..4).unwrap_or(head)
    }
}

/// A whole game's review.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameReview {
    /// Every move, in order.
    pub moves: Vec<MoveVerdict>,
    /// The value of the final position for Red (its side to move's best, or the board's
    /// result when the board ended the game).
    pub last: Eval,
    /// Nodes each search could spend: what the figures were computed with.
    pub nodes_per_search: u64,
}

impl GameReview {
    /// The evaluation for Red in hundredths of a soldier (capped at ±[`judge::DECISIVE`])
    /// before each move and after the last one: `moves.len() + 1` points. Each point is the
    /// value the player to move there could see, turned to Red's side.
    pub fn evaluation_red(&self) -> Vec<i32> {
        let mut points: Vec<i32> = self
            .moves
            .iter()
            .map(|verdict| match verdict.mover {
                Some(Colour::Red) => verdict.before.centi(),
                Some(Colour::Black) => -verdict.before.centi(),
                None => 0,
            })
            .collect();
        points.push(self.last.centi());
        points
    }

    /// A player's moves that were judged.
    pub fn moves_of(&self, colour: Colour) -> impl Iterator<Item = &MoveVerdict> {
        self.moves.iter().filter(move |m| m.mover == Some(colour))
    }

    /// A player's accuracy, 0 to 100: the mean of their moves' accuracies; `None` if they
    /// made no judged move.
    pub fn accuracy(&self, colour: Colour) -> Option<f64> {
        let (sum, count) = self.moves_of(colour).fold((0.0, 0u32), |(sum, count), m| {
            (sum + m.accuracy(), count + 1)
        });
        (count > 0).then(|| sum / f64::from(count))
    }

    /// A player's costliest moves, at most `n`, worst first: only those judged at least an
    /// inaccuracy.
    pub fn costliest(&self, colour: Colour, n: usize) -> Vec<&MoveVerdict> {
        let mut costly: Vec<&MoveVerdict> = self
            .moves_of(colour)
            .filter(|m| m.judgement() != Judgement::Good)
            .collect();
        costly.sort_by(|a, b| {
            b.win_drop()
                .total_cmp(&a.win_drop())
                .then(a.ply.cmp(&b.ply))
        });
        costly.truncate(n);
        costly
    }
}
