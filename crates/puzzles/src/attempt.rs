//! An [`Attempt`]: one person solving one puzzle, move by move. It checks each move, plays the
//! opponent's reply, and says when the puzzle is solved or failed.
//!
//! The stored solution's moves are always accepted. A different move is accepted after the
//! first when the verifier proves it still wins the task in the moves left (a faster mate, a
//! second way to finish); the first move is unique by construction. The replies after a
//! deviation are the verifier's most stubborn ones, played under the puzzle's real deal.

use jieqi_rules::banqi::{Action, BanqiDeal};
use jieqi_rules::deal::Deal;
use jieqi_rules::notation::{self, fen};
use jieqi_rules::{Side, Variant};
use thiserror::Error;

use crate::arena::{Arena, BanqiArena, BoardArena};
use crate::puzzle::{FormatError, Puzzle, Start};
use crate::solve::{RealPlay, remaining, stubborn_reply};
use crate::verify::{Goal, Verifier};

/// Nodes the checker may spend on one move (an alternative solution, a reply).
const CHECK_BUDGET: u64 = 400_000;

/// What the checker says about a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Right; the opponent replied with this move (record notation, e.g. `b9c7c`).
    Continue {
        /// The reply, already played.
        reply: String,
    },
    /// Right, and the puzzle is solved.
    Solved,
    /// Not a solution: the attempt has failed and is over.
    Wrong,
}

/// Why a typed move was not judged at all (the attempt goes on).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum AttemptError {
    /// The text is not a legal move here.
    #[error("{0}")]
    NotAMove(String),
    /// The player typed what a covered piece is; they cannot know it.
    #[error("type the move without the revealed piece: `{0}`")]
    RevealTyped(String),
    /// The attempt is already over.
    #[error("this puzzle is over: ask for a new one")]
    Over,
}

#[derive(Clone, Debug)]
enum Inner {
    Board { arena: BoardArena, deal: Deal },
    Banqi { arena: BanqiArena, deal: BanqiDeal },
}

/// One try at a puzzle.
#[derive(Clone, Debug)]
pub struct Attempt {
    inner: Inner,
    solver: Side,
    goal: Option<Goal>,
    total: u32,
    solution: Vec<String>,
    played: Vec<String>,
    done: u32,
    balance: i32,
    on_line: bool,
    over: bool,
}

struct Ctx<'a> {
    solver: Side,
    goal: Option<Goal>,
    total: u32,
    solution: &'a [String],
    played: &'a mut Vec<String>,
    done: &'a mut u32,
    balance: &'a mut i32,
    on_line: &'a mut bool,
}

fn bare(text: &str) -> &str {
    match text.split_once('=') {
        Some((bare, _)) => bare,
        None => text.get(..4).unwrap_or(text),
    }
}

impl Attempt {
    /// Starts an attempt at `puzzle`.
    pub fn new(puzzle: &Puzzle) -> Result<Attempt, FormatError> {
        let inner = match puzzle.start()? {
            Start::Board {
                setup,
                variant,
                deal,
            } => Inner::Board {
                arena: BoardArena::new(&setup, variant).map_err(FormatError::Position)?,
                deal,
            },
            Start::Banqi { position, deal } => Inner::Banqi {
                arena: BanqiArena::new(position).map_err(FormatError::Position)?,
                deal,
            },
        };
        Ok(Attempt {
            inner,
            solver: puzzle.side_to_move(),
            goal: puzzle.goal(),
            total: u32::from(puzzle.moves),
            solution: puzzle.solution.clone(),
            played: Vec::new(),
            done: 0,
            balance: 0,
            on_line: true,
            over: false,
        })
    }

    /// The position now, as the solver sees it (FEN).
    pub fn fen(&self) -> String {
        match &self.inner {
            Inner::Board { arena, .. } => fen::write_setup(&arena.position().to_setup()),
            Inner::Banqi { arena, .. } => arena.position().to_fen(),
        }
    }

    /// The game.
    pub fn variant(&self) -> Variant {
        match &self.inner {
            Inner::Board { arena, .. } => arena.position().variant(),
            Inner::Banqi { .. } => Variant::Banqi,
        }
    }

    /// The moves played so far, both sides, in record notation.
    pub fn played(&self) -> &[String] {
        &self.played
    }

    /// The stored solution, to show when the attempt is over.
    pub fn solution(&self) -> &[String] {
        &self.solution
    }

    /// Whether the attempt is over (solved or failed).
    pub fn is_over(&self) -> bool {
        self.over
    }

    /// Judges the solver's move `text` (coordinates, WXF or Chinese; Banqi `c3` / `c3c4`).
    pub fn play(&mut self, text: &str) -> Result<Answer, AttemptError> {
        if self.over {
            return Err(AttemptError::Over);
        }
        let mut ctx = Ctx {
            solver: self.solver,
            goal: self.goal,
            total: self.total,
            solution: &self.solution,
            played: &mut self.played,
            done: &mut self.done,
            balance: &mut self.balance,
            on_line: &mut self.on_line,
        };
        let answer = match &mut self.inner {
            Inner::Board { arena, deal } => {
                let setup = arena.position().to_setup();
                let mut legal = Vec::new();
                arena.moves(&mut legal);
                let parsed = notation::parse_move(&setup, &legal, text)
                    .map_err(|e| AttemptError::NotAMove(e.to_string()))?;
                if parsed.reveal.is_some() {
                    return Err(AttemptError::RevealTyped(parsed.mv.to_string()));
                }
                let deal = deal.clone();
                let solver = self.solver;
                let mut real = move |a: &mut BoardArena, mv| a.play_real(mv, &deal, solver);
                step(arena, parsed.mv, &mut ctx, &mut real)
            }
            Inner::Banqi { arena, deal } => {
                let action: Action =
                    text.parse().map_err(|e: jieqi_rules::banqi::BanqiError| {
                        AttemptError::NotAMove(e.to_string())
                    })?;
                let mut legal = Vec::new();
                arena.moves(&mut legal);
                if !legal.contains(&action) {
                    return Err(AttemptError::NotAMove(format!(
                        "{action} is not a legal move here"
                    )));
                }
                let deal = deal.clone();
                let mut real = move |a: &mut BanqiArena, mv| a.play_real(mv, &deal);
                step(arena, action, &mut ctx, &mut real)
            }
        };
        if !matches!(answer, Answer::Continue { .. }) {
            self.over = true;
        }
        Ok(answer)
    }
}

fn step<A: Arena>(
    arena: &mut A,
    mv: A::Move,
    ctx: &mut Ctx<'_>,
    real: &mut RealPlay<'_, A>,
) -> Answer {
    let index = 2 * (*ctx.done as usize);
    let expected = ctx.solution.get(index).map(|t| bare(t));
    let accepted = if *ctx.on_line && expected == Some(arena.move_text(mv).as_str()) {
        true
    } else if *ctx.done > 0
        && let Some(goal) = ctx.goal
    {
        let goal = remaining(goal, *ctx.done);
        let ok = matches!(
            Verifier::for_solver(arena, ctx.solver, CHECK_BUDGET).move_wins_from(
                mv,
                goal,
                *ctx.balance
            ),
            Ok(true)
        );
        *ctx.on_line &= !ok;
        ok
    } else {
        false
    };
    if !accepted {
        return Answer::Wrong;
    }
    let played = real(arena, mv);
    ctx.played.push(played.text);
    *ctx.balance += played.value;
    *ctx.done += 1;
    let Some(goal) = ctx.goal else {
        return Answer::Solved;
    };
    if *ctx.done >= ctx.total || !arena.has_moves() {
        return Answer::Solved;
    }
    let mut replies = Vec::new();
    arena.moves(&mut replies);
    let stored = if *ctx.on_line {
        ctx.solution.get(index + 1).and_then(|t| {
            replies
                .iter()
                .copied()
                .find(|r| arena.move_text(*r) == bare(t))
        })
    } else {
        None
    };
    let reply = stored.or_else(|| {
        stubborn_reply(
            arena,
            ctx.solver,
            remaining(goal, *ctx.done),
            CHECK_BUDGET,
            real,
        )
    });
    match reply {
        Some(reply) => {
            let played = real(arena, reply);
            *ctx.balance -= played.value;
            ctx.played.push(played.text.clone());
            Answer::Continue { reply: played.text }
        }
        None => Answer::Solved,
    }
}
