//! Replaying a game and asking the engine about each move, from the mover's view.

use std::time::Duration;

use jieqi_engine::{Analysis, Budget, Engine, EngineError, Level, Score};
use jieqi_rules::{Game, GameDeal, GameError, GameMove, Outcome, Rules, Viewer};
use thiserror::Error;

use crate::judge::{DECISIVE, Eval};
use crate::{Colour, GameReview, MoveVerdict};

/// What each of a review's searches may spend: about a tenth of a second on one core,
/// without the randomness the playing levels mix in, so the same game always gets the same
/// review on any machine where the node count, not the time cap, is the limit.
pub const REVIEW_BUDGET: Budget = Budget {
    nodes: 40_000,
    movetime: Duration::from_millis(1_500),
    max_depth: 64,
    noise: 0,
    chance_plies: 1,
};

/// The engine's seed for reviews (unused without noise, fixed for reproducibility).
const SEED: u64 = 0x5EED_0F2E_71E3;

/// Why a game could not be reviewed.
#[derive(Debug, Error)]
pub enum ReviewError {
    /// The stored game does not replay under its rules.
    #[error("the game cannot be replayed for a review: {0}")]
    Replay(#[from] GameError),
    /// The engine refused a position of the game.
    #[error("the engine could not judge move {ply}: {error}")]
    Engine {
        /// The ply (0-based).
        ply: usize,
        /// Why.
        error: EngineError,
    },
}

/// Reviews games with one engine budget per search.
#[derive(Clone, Copy, Debug)]
pub struct Reviewer {
    budget: Budget,
}

impl Default for Reviewer {
    fn default() -> Reviewer {
        Reviewer::new()
    }
}

impl Reviewer {
    /// A reviewer with [`REVIEW_BUDGET`].
    pub fn new() -> Reviewer {
        Reviewer::with_budget(REVIEW_BUDGET)
    }

    /// A reviewer whose searches spend `budget` (tests and benchmarks use smaller ones).
    pub fn with_budget(budget: Budget) -> Reviewer {
        Reviewer { budget }
    }

    /// What each search may spend.
    pub fn budget(&self) -> Budget {
        self.budget
    }

    /// Reviews the game of `rules` and `deal` whose moves were `moves` (as stored:
    /// `b9c7c`, `c3=R`). Synchronous and CPU-bound: run it on a thread of its own. `on_ply`
    /// is told after each judged move how many of the moves are done.
    pub fn review(
        &self,
        rules: Rules,
        deal: GameDeal,
        moves: &[String],
    ) -> Result<GameReview, ReviewError> {
        self.review_watched(rules, deal, moves, &mut |_| {})
    }

    /// [`Reviewer::review`], telling `on_ply` how many moves are done after each.
    pub fn review_watched(
        &self,
        rules: Rules,
        deal: GameDeal,
        moves: &[String],
        on_ply: &mut dyn FnMut(usize),
    ) -> Result<GameReview, ReviewError> {
        let mut game = Game::new(rules, deal)?;
        let mut verdicts = Vec::with_capacity(moves.len());
        for (ply, text) in moves.iter().enumerate() {
            let mv = stored_move(&game, text)?;
            verdicts.push(self.judge(&game, ply, mv, text)?);
            game.play(mv)?;
            on_ply(ply + 1);
        }
        let last = self.last_value(&game)?;
        Ok(GameReview {
            moves: verdicts,
            last,
            nodes_per_search: self.budget.nodes,
        })
    }

    /// The verdict on `mv`, played at `ply` of `game` (the position before it).
    fn judge(
        &self,
        game: &Game,
        ply: usize,
        mv: GameMove,
        text: &str,
    ) -> Result<MoveVerdict, ReviewError> {
        let ply32 = u32::try_from(ply).unwrap_or(u32::MAX);
        let Some(side) = game.side_to_move() else {
            // Banqi's first flip: nobody has a colour yet and nothing can be known.
            return Ok(MoveVerdict {
                ply: ply32,
                mover: None,
                played: text.to_owned(),
                best: None,
                before: Eval::Centi(0),
                after: Eval::Centi(0),
            });
        };
        // The mover's own view: what it knew, never the deal.
        let view = game.view(Viewer::Player(side));
        let legal = game.legal_moves();
        let engine_error = |error| ReviewError::Engine { ply, error };
        let (best, before) = self.search(&view, &legal).map_err(engine_error)?;
        let after = if best == mv {
            before
        } else {
            // The move played alone at the root: its value with every reveal it makes
            // weighed by its odds, as the mover could weigh them.
            let (_, value) = self.search(&view, &[mv]).map_err(engine_error)?;
            // A search of one move may see deeper than the search of all of them; it never
            // makes the played move better than the engine's choice.
            if value.centi() > before.centi() {
                before
            } else {
                value
            }
        };
        Ok(MoveVerdict {
            ply: ply32,
            mover: Some(Colour::from(side)),
            played: text.to_owned(),
            best: Some(best.to_string()),
            before,
            after,
        })
    }

    /// The engine's move among `legal` and its value for the side to move of `view`.
    fn search(
        &self,
        view: &jieqi_rules::View,
        legal: &[GameMove],
    ) -> Result<(GameMove, Eval), EngineError> {
        let mut engine = Engine::with_budget(Level::Master, self.budget, SEED);
        let mv = engine.analyse(view, legal, Analysis::default())?;
        let value = engine.last_search().map_or(Eval::Centi(0), |info| {
            Eval::of_score(Score::from_value(info.score))
        });
        Ok((mv, value))
    }

    /// The final position's value for Red.
    fn last_value(&self, game: &Game) -> Result<Eval, ReviewError> {
        if let Some(outcome) = game.outcome() {
            return Ok(match outcome {
                Outcome::Win { winner, .. } => match Colour::from(winner) {
                    Colour::Red => Eval::Centi(DECISIVE),
                    Colour::Black => Eval::Centi(-DECISIVE),
                },
                Outcome::Draw(_) | Outcome::Aborted => Eval::Centi(0),
            });
        }
        let Some(side) = game.side_to_move() else {
            return Ok(Eval::Centi(0));
        };
        let legal = game.legal_moves();
        if legal.is_empty() {
            return Ok(Eval::Centi(0));
        }
        let view = game.view(Viewer::Player(side));
        let (_, value) = self
            .search(&view, &legal)
            .map_err(|error| ReviewError::Engine {
                ply: game.ply(),
                error,
            })?;
        Ok(match Colour::from(side) {
            Colour::Red => value,
            Colour::Black => value.flipped(),
        })
    }
}

/// The move a stored text names in `game` (the text may carry what the move revealed).
fn stored_move(game: &Game, text: &str) -> Result<GameMove, GameError> {
    game.parse_move(text).or_else(|error| {
        // `b9c7c` and `c3=R` carry what the move showed; the move itself is before that.
        let head = text.split('=').next().unwrap_or_default();
        let head = head.get(..4).unwrap_or(head);
        game.parse_move(head).map_err(|_| error)
    })
}
