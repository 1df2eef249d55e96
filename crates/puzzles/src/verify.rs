//! The verifier: an exact AND-OR search that decides whether a move *wins against every deal
//! consistent with the solver's view*.
//!
//! The solver chooses moves (OR). The opponent chooses replies (AND), and the covered pieces
//! are the opponent's choice too: every time a move turns a covered piece face up, every type
//! the unseen pool still holds is tried (AND), and the pool shrinks along the line. A covered
//! piece the solver captures is tried as every type too (the capturer learns it, so the
//! solver's later moves may depend on it). A covered piece the opponent captures is not
//! branched on, because the solver never learns it; it stays in the pool (the adversary keeps
//! every option: an over-approximation, so still sound) and costs the solver the most
//! valuable type the pool allows. In Banqi a flip is tried as every piece of either colour
//! not yet seen. Along one line each reveal is of a different piece and is drawn from what is
//! left, so every path of the search is one real deal: a move that wins here wins against
//! every consistent deal, and the reverse holds except for that one over-approximation
//! (which could only make a second solution look like a failure, never a failure a
//! solution).
//!
//! What "wins" means, per theme (N = the puzzle's number of solver moves):
//! - **mate in N**: within N solver moves the opponent has no legal move (checkmate or
//!   stalemate: both lose in all three games).
//! - **material in N**: after the solver's N-th move the material taken in the line, minus the
//!   material lost, is at least [`MATERIAL_GAIN`] after a capture-only quiescence search
//!   (both sides may take or stop; a side in check must answer it; at the quiescence horizon
//!   the opponent is assumed to take the solver's most valuable attacked piece), and the
//!   opponent has no mate in one at the end of the line. Mating the opponent on the way wins.
//! - **defence** (Xiangqi and Jieqi): the solver is in check; after the solution the opponent
//!   has no mate in [`DEFENCE_DEPTH`] even choosing every reveal itself, and after every other
//!   move the opponent mates within that depth whatever the reveals are.
//!
//! Uniqueness: no other first move wins by the same definition and depth (for a mate in N, no
//! mate in fewer moves exists either). Every search has a node budget; running out means
//! "unknown", and the generator rejects the position. Draw rules (repetition, no progress)
//! are not applied inside these lines of at most six plies.

use crate::arena::{Arena, Branch};
use jieqi_rules::Side;

/// Material a "win material" puzzle must gain, in half soldiers (two soldiers, an advisor or
/// an elephant in Xiangqi and Jieqi).
pub const MATERIAL_GAIN: i32 = 4;
/// Material a Banqi "win material" puzzle must gain.
pub const BANQI_MATERIAL_GAIN: i32 = 4;
/// How many moves of the opponent's mate a defence must stop.
pub const DEFENCE_DEPTH: u32 = 2;
/// Plies of the capture-only quiescence search at the end of a material line.
const QUIESCENCE_PLIES: u32 = 6;
const INF: i32 = 1_000_000;

/// The search ran out of its node budget: the answer is unknown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutOfBudget;

type Res<T> = Result<T, OutOfBudget>;

/// What a puzzle asks the solver to achieve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// Mate within this many solver moves.
    Mate(u32),
    /// Gain at least `gain` material within this many solver moves.
    Material {
        /// Solver moves.
        moves: u32,
        /// Material to gain.
        gain: i32,
    },
}

/// The search over one arena for one solver, with a node budget.
#[derive(Debug)]
pub struct Verifier<'a, A: Arena> {
    arena: &'a mut A,
    solver: Side,
    nodes: u64,
    limit: u64,
    checks_only: bool,
}

impl<'a, A: Arena> Verifier<'a, A> {
    /// A verifier for the side to move of `arena`, allowed `limit` nodes in all.
    pub fn new(arena: &'a mut A, limit: u64) -> Verifier<'a, A> {
        let solver = arena.side_to_move();
        Verifier {
            arena,
            solver,
            nodes: 0,
            limit,
            checks_only: false,
        }
    }

    /// A verifier for `solver`, who need not be to move (the arena may be mid-line).
    pub fn for_solver(arena: &'a mut A, solver: Side, limit: u64) -> Verifier<'a, A> {
        Verifier {
            arena,
            solver,
            nodes: 0,
            limit,
            checks_only: false,
        }
    }

    /// Restricts the attacker's moves in [`Verifier::mates`] to checks (and, on the last
    /// move, to moves that leave no reply): a fast filter, never a proof of uniqueness.
    pub fn checks_only(mut self, on: bool) -> Self {
        self.checks_only = on;
        self
    }

    /// Nodes spent so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    fn tick(&mut self) -> Res<()> {
        self.nodes += 1;
        if self.nodes > self.limit {
            Err(OutOfBudget)
        } else {
            Ok(())
        }
    }

    fn moves(&self) -> Vec<A::Move> {
        let mut out = Vec::new();
        self.arena.moves(&mut out);
        out
    }

    fn branches(&self, mv: A::Move) -> Vec<Branch> {
        let mut out = Vec::new();
        self.arena.branches(mv, self.solver, &mut out);
        out
    }

    /// The first moves of the solver (to move) that win `goal`, at most `stop_after` of them
    /// (to test uniqueness, 2 is enough).
    pub fn winning_moves(&mut self, goal: Goal, stop_after: usize) -> Res<Vec<A::Move>> {
        let mut winners = Vec::new();
        for mv in self.moves() {
            if self.move_wins(mv, goal)? {
                winners.push(mv);
                if winners.len() >= stop_after {
                    break;
                }
            }
        }
        Ok(winners)
    }

    /// Whether the solver's move `mv` (solver to move) wins `goal` against every deal.
    pub fn move_wins(&mut self, mv: A::Move, goal: Goal) -> Res<bool> {
        self.move_wins_from(mv, goal, 0)
    }

    /// [`Verifier::move_wins`] in the middle of a line whose earlier moves won `balance`.
    pub fn move_wins_from(&mut self, mv: A::Move, goal: Goal, balance: i32) -> Res<bool> {
        match goal {
            Goal::Mate(n) => self.mate_move(mv, n, false),
            Goal::Material { moves, gain } => self.material_move(mv, moves, balance, gain),
        }
    }

    /// Whether the side to move mates within `n` of its moves. With `attacker_chooses`, the
    /// attacker picks every reveal (an upper bound on what any deal allows); without, the
    /// reveals go against it (what every deal allows).
    pub fn mates(&mut self, n: u32, attacker_chooses: bool) -> Res<bool> {
        for mv in self.moves() {
            if self.checks_only && !self.is_check_move(mv)? {
                continue;
            }
            if self.mate_move(mv, n, attacker_chooses)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Whether `mv` checks (or leaves no reply) for some reveal.
    fn is_check_move(&mut self, mv: A::Move) -> Res<bool> {
        for b in self.branches(mv) {
            self.tick()?;
            let undo = self.arena.play(mv, &b);
            let check = self.arena.in_check() || !self.arena.has_moves();
            self.arena.undo(undo);
            if check {
                return Ok(true);
            }
        }
        Ok(false)
    }

    fn mate_move(&mut self, mv: A::Move, n: u32, attacker_chooses: bool) -> Res<bool> {
        let branches = self.branches(mv);
        let mut any = false;
        for b in &branches {
            self.tick()?;
            let undo = self.arena.play(mv, b);
            let ok = self.defender_lost(n, attacker_chooses);
            self.arena.undo(undo);
            let ok = ok?;
            if attacker_chooses && ok {
                return Ok(true);
            }
            if !attacker_chooses && !ok {
                return Ok(false);
            }
            any |= ok;
        }
        Ok(any || !attacker_chooses)
    }

    /// Defender to move, after an attacker's move: is it lost within `n` attacker moves
    /// (counting the one just played)?
    fn defender_lost(&mut self, n: u32, attacker_chooses: bool) -> Res<bool> {
        if !self.arena.has_moves() {
            return Ok(true);
        }
        if n <= 1 {
            return Ok(false);
        }
        for reply in self.moves() {
            // The reveals of the reply: one lost branch is enough when the attacker chooses
            // them, every branch must be lost otherwise.
            let mut reply_lost = !attacker_chooses;
            for b in self.branches(reply) {
                self.tick()?;
                let undo = self.arena.play(reply, &b);
                let lost = if self.arena.has_moves() {
                    self.mates(n - 1, attacker_chooses)
                } else {
                    Ok(false)
                };
                self.arena.undo(undo);
                let lost = lost?;
                if lost == attacker_chooses {
                    reply_lost = lost;
                    break;
                }
            }
            if !reply_lost {
                return Ok(false);
            }
        }
        Ok(true)
    }

    fn material_move(&mut self, mv: A::Move, n: u32, balance: i32, gain: i32) -> Res<bool> {
        for b in self.branches(mv) {
            self.tick()?;
            let undo = self.arena.play(mv, &b);
            let ok = self.after_solver_material(n, balance + b.value, gain);
            self.arena.undo(undo);
            if !ok? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Opponent to move after a solver move of a material line.
    fn after_solver_material(&mut self, n: u32, balance: i32, gain: i32) -> Res<bool> {
        if !self.arena.has_moves() {
            return Ok(true);
        }
        if n <= 1 {
            if self.quiescence(balance, gain - 1, gain, QUIESCENCE_PLIES)? < gain {
                return Ok(false);
            }
            return Ok(!self.mates(1, true)?);
        }
        for reply in self.moves() {
            for b in self.branches(reply) {
                self.tick()?;
                let undo = self.arena.play(reply, &b);
                let ok = self.solver_material(n - 1, balance - b.value, gain);
                self.arena.undo(undo);
                if !ok? {
                    return Ok(false);
                }
            }
        }
        Ok(true)
    }

    fn solver_material(&mut self, n: u32, balance: i32, gain: i32) -> Res<bool> {
        for mv in self.moves() {
            if self.material_move(mv, n, balance, gain)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Capture-only minimax of the material balance (solver's point of view), reveals and
    /// unknown captures against the solver, with an alpha-beta window.
    pub fn quiescence(
        &mut self,
        balance: i32,
        mut alpha: i32,
        mut beta: i32,
        plies: u32,
    ) -> Res<i32> {
        self.tick()?;
        let solver_to_move = self.arena.side_to_move() == self.solver;
        let moves = self.moves();
        if moves.is_empty() {
            return Ok(if solver_to_move { -INF } else { INF });
        }
        let in_check = self.arena.in_check();
        if plies == 0 {
            return Ok(if solver_to_move {
                if in_check { -INF } else { balance }
            } else {
                // The opponent takes the most valuable piece it can.
                let mut worst = balance;
                for mv in moves.iter().filter(|m| self.arena.is_capture(**m)) {
                    for b in self.branches(*mv) {
                        worst = worst.min(balance - b.value);
                    }
                }
                worst
            });
        }
        let mut best = if in_check {
            if solver_to_move { -INF } else { INF }
        } else {
            balance
        };
        if solver_to_move {
            alpha = alpha.max(best);
        } else {
            beta = beta.min(best);
        }
        if alpha >= beta {
            return Ok(best);
        }
        for mv in moves {
            if !in_check && !self.arena.is_capture(mv) {
                continue;
            }
            // The adversary picks the branch: the move is worth its worst branch.
            let mut value = INF;
            for b in self.branches(mv) {
                let undo = self.arena.play(mv, &b);
                let next = if solver_to_move {
                    balance + b.value
                } else {
                    balance - b.value
                };
                let v = self.quiescence(next, alpha, beta.min(value), plies - 1);
                self.arena.undo(undo);
                value = value.min(v?);
                if value <= alpha {
                    break;
                }
            }
            if solver_to_move {
                best = best.max(value);
                alpha = alpha.max(best);
            } else {
                best = best.min(value);
                beta = beta.min(best);
            }
            if alpha >= beta {
                break;
            }
        }
        Ok(best)
    }
}
