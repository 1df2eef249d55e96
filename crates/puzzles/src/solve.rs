//! Finding a puzzle in a position, and playing its line out: which tactic the position holds
//! (if exactly one first move wins it), the opponent's most stubborn reply, and the solver's
//! next winning move.

use crate::arena::{Arena, Played};
use crate::puzzle::Theme;
use crate::verify::{DEFENCE_DEPTH, Goal, OutOfBudget, Verifier};
use jieqi_rules::Side;

/// Node budgets of the searches that decide a puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budgets {
    /// For each search run on every scanned position.
    pub scan: u64,
    /// For proving that a candidate's first move is the only one.
    pub prove: u64,
}

impl Default for Budgets {
    fn default() -> Budgets {
        Budgets {
            scan: 60_000,
            prove: 1_500_000,
        }
    }
}

/// A puzzle found in a position: its theme, its length in solver moves and its unique first
/// move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found<M> {
    /// The tactic.
    pub theme: Theme,
    /// Solver moves.
    pub moves: u8,
    /// The only winning first move.
    pub first: M,
}

/// Whether exactly one first move wins `goal`: `Ok(Some(mv))`, `Ok(None)` when none does,
/// `Err` when two do or the budget ran out (both mean: no puzzle here).
fn unique<A: Arena>(arena: &mut A, goal: Goal, budget: u64) -> Result<Option<A::Move>, ()> {
    match Verifier::new(arena, budget).winning_moves(goal, 2) {
        Ok(w) if w.is_empty() => Ok(None),
        Ok(w) if w.len() == 1 => Ok(w.first().copied()),
        _ => Err(()),
    }
}

/// The puzzle `arena`'s position holds for its side to move, if any: the shortest mate (1 to
/// 3), else a material win in 1 or 2 moves, else a defence. Every kept answer is verified
/// against every consistent deal and unique; anything unknown is dropped.
pub fn find<A: Arena>(arena: &mut A, gain: i32, budgets: Budgets) -> Option<Found<A::Move>> {
    let found = |theme, moves, first| {
        Some(Found {
            theme,
            moves,
            first,
        })
    };
    for n in 1..=2 {
        match unique(arena, Goal::Mate(n), budgets.scan) {
            Ok(Some(mv)) => return found(Theme::Mate, n as u8, mv),
            Ok(None) => {}
            Err(()) => return None,
        }
    }
    // Mate in 3: a quick search by checks, then the full proof.
    if matches!(
        Verifier::new(arena, budgets.scan)
            .checks_only(true)
            .mates(3, false),
        Ok(true)
    ) {
        return match unique(arena, Goal::Mate(3), budgets.prove) {
            Ok(Some(mv)) => found(Theme::Mate, 3, mv),
            _ => None,
        };
    }
    let material = |moves| Goal::Material { moves, gain };
    let theme = |arena: &A, mv| {
        if arena.touches_hidden(mv) {
            Theme::Reveal
        } else {
            Theme::Material
        }
    };
    match unique(arena, material(1), budgets.scan) {
        Ok(Some(mv)) => return found(theme(arena, mv), 1, mv),
        Ok(None) => {}
        Err(()) => return None,
    }
    // Material in 2, starting with a capture or a check; then the full proof.
    let mut moves = Vec::new();
    arena.moves(&mut moves);
    let mut candidate = false;
    for &mv in &moves {
        let forcing = arena.is_capture(mv) || gives_check(arena, mv);
        if forcing
            && matches!(
                Verifier::new(arena, budgets.scan).move_wins(mv, material(2)),
                Ok(true)
            )
        {
            candidate = true;
            break;
        }
    }
    if candidate {
        return match unique(arena, material(2), budgets.prove) {
            Ok(Some(mv)) => found(theme(arena, mv), 2, mv),
            _ => None,
        };
    }
    if arena.in_check() && moves.len() >= 2 {
        return defence(arena, &moves, budgets.prove).and_then(|mv| found(Theme::Defence, 1, mv));
    }
    None
}

fn gives_check<A: Arena>(arena: &mut A, mv: A::Move) -> bool {
    let mut branches = Vec::new();
    let solver = arena.side_to_move();
    arena.branches(mv, solver, &mut branches);
    branches.first().is_some_and(|b| {
        let undo = arena.play(mv, b);
        let check = arena.in_check();
        arena.undo(undo);
        check
    })
}

/// The only move after which the opponent cannot mate within [`DEFENCE_DEPTH`] even choosing
/// every reveal, when every other move allows a mate whatever the reveals are.
pub(crate) fn defence<A: Arena>(arena: &mut A, moves: &[A::Move], budget: u64) -> Option<A::Move> {
    defence_counted(arena, moves, budget, &mut 0)
}

/// [`defence`], adding the nodes it searched to `spent`.
pub(crate) fn defence_counted<A: Arena>(
    arena: &mut A,
    moves: &[A::Move],
    budget: u64,
    spent: &mut u64,
) -> Option<A::Move> {
    let solver = arena.side_to_move();
    let mut holding = None;
    let mut branches = Vec::new();
    for &mv in moves {
        arena.branches(mv, solver, &mut branches);
        let (mut holds, mut loses) = (true, true);
        for b in branches.clone() {
            let undo = arena.play(mv, &b);
            let mut v = Verifier::for_solver(arena, solver, budget);
            let upper = v.mates(DEFENCE_DEPTH, true);
            let lower = match upper {
                Ok(true) => v.mates(DEFENCE_DEPTH, false),
                other => other,
            };
            *spent += v.nodes();
            arena.undo(undo);
            let (Ok(upper), Ok(lower)) = (upper, lower) else {
                return None;
            };
            holds &= !upper;
            loses &= lower;
        }
        match (holds, loses) {
            (true, _) if holding.is_none() => holding = Some(mv),
            (false, true) => {}
            _ => return None,
        }
    }
    holding
}

/// Plays a move as it really happens (the deal decides reveals); returns its record text and
/// the undo.
pub(crate) type RealPlay<'a, A> =
    dyn FnMut(&mut A, <A as Arena>::Move) -> Played<<A as Arena>::Undo> + 'a;

/// The goal left after `done` solver moves.
pub(crate) fn remaining(goal: Goal, done: u32) -> Goal {
    match goal {
        Goal::Mate(n) => Goal::Mate(n.saturating_sub(done).max(1)),
        Goal::Material { moves, gain } => Goal::Material {
            moves: moves.saturating_sub(done).max(1),
            gain,
        },
    }
}

/// The solver's next move that wins `goal` (the fastest mate first) in a line whose earlier
/// moves won `balance`, if the budget finds one.
pub(crate) fn next_winning<A: Arena>(
    arena: &mut A,
    goal: Goal,
    balance: i32,
    budget: u64,
) -> Option<A::Move> {
    let goals: Vec<Goal> = match goal {
        Goal::Mate(n) => (1..=n).map(Goal::Mate).collect(),
        other => vec![other],
    };
    let mut moves = Vec::new();
    arena.moves(&mut moves);
    let mut v = Verifier::new(arena, budget);
    for g in goals {
        for &mv in &moves {
            match v.move_wins_from(mv, g, balance) {
                Ok(true) => return Some(mv),
                Ok(false) => {}
                Err(_) => return None,
            }
        }
    }
    None
}

/// The opponent's reply that resists longest: for a mate, the one after which the mate is
/// furthest; for material, the one that leaves the solver the least after the captures.
pub(crate) fn stubborn_reply<A: Arena>(
    arena: &mut A,
    solver: Side,
    goal: Goal,
    budget: u64,
    real: &mut RealPlay<'_, A>,
) -> Option<A::Move> {
    let mut replies = Vec::new();
    arena.moves(&mut replies);
    let mut best: Option<(i64, A::Move)> = None;
    for reply in replies {
        let undo = real(arena, reply).undo;
        let score: Result<i64, OutOfBudget> = if !arena.has_moves() {
            Ok(i64::MAX)
        } else {
            let mut v = Verifier::for_solver(arena, solver, budget);
            match goal {
                Goal::Mate(n) => {
                    let mut d = i64::from(n) + 1;
                    for k in 1..=n {
                        if v.mates(k, false).unwrap_or(false) {
                            d = i64::from(k);
                            break;
                        }
                    }
                    Ok(d)
                }
                Goal::Material { .. } => v
                    .quiescence(0, -1_000_000, 1_000_000, 4)
                    .map(|q| -i64::from(q)),
            }
        };
        arena.undo(undo);
        let score = score.unwrap_or(i64::MIN);
        if best.is_none_or(|(s, _)| score > s) {
            best = Some((score, reply));
        }
    }
    best.map(|(_, mv)| mv)
}

/// The solution line from the start: the solver's `first` move, then alternately the
/// stubborn reply and the solver's next winning move, played under the real deal.
pub(crate) fn line<A: Arena>(
    arena: &mut A,
    goal: Option<Goal>,
    first: A::Move,
    budget: u64,
    real: &mut RealPlay<'_, A>,
) -> Option<Vec<String>> {
    let solver = arena.side_to_move();
    let mut texts = Vec::new();
    let mut undos = Vec::new();
    let mut mv = first;
    let total = match goal {
        Some(Goal::Mate(n)) | Some(Goal::Material { moves: n, .. }) => n,
        None => 1,
    };
    let mut result = Some(());
    let mut balance = 0;
    for done in 1..=total {
        let played = real(arena, mv);
        balance += played.value;
        texts.push(played.text);
        undos.push(played.undo);
        let Some(goal) = goal else { break };
        if done == total || !arena.has_moves() {
            break;
        }
        let Some(reply) = stubborn_reply(arena, solver, remaining(goal, done), budget, real) else {
            result = None;
            break;
        };
        let played = real(arena, reply);
        balance -= played.value;
        texts.push(played.text);
        undos.push(played.undo);
        match next_winning(arena, remaining(goal, done), balance, budget) {
            Some(next) => mv = next,
            None => {
                result = None;
                break;
            }
        }
    }
    while let Some(undo) = undos.pop() {
        arena.undo(undo);
    }
    result.map(|()| texts)
}
