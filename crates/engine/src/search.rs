//! Xiangqi and Jieqi search: principal-variation alpha-beta with iterative deepening, a
//! transposition table, move ordering by killers, countermoves and a
//! history that also remembers the quiet moves that failed before a cut-off (each side's
//! apart, and kept from one move's search to the next: [`History`]), a check
//! extension, internal iterative reduction and a quiescence search of captures, whose first
//! ply also tries the quiet moves that give check (`quiet_checks`); away from
//! the principal variation, null-move pruning, reverse futility pruning, futility and
//! move-count pruning of quiet moves near the leaves, and late-move reductions that grow with
//! depth and move number and shrink with a move's history. The evaluation's sums are kept up
//! to date move by move (`eval::Tally`); its activity term, which reads the board afresh, is
//! cached by board and skipped in the quiescence search where the rest already stands far
//! enough above beta (lazy evaluation). The static value is corrected by what searches
//! found it off by in positions like this one (correction history, below).
//!
//! Correction history, in Xiangqi: wherever a node's search settles which way its static
//! value erred (an exact value, a lower bound above it, an upper bound below it; not where a
//! capture was best, which a static value never sees coming), the error is learnt, a
//! sixty-fourth of the way a ply of depth, at most a quarter, in two tables by side to move:
//! one by where the soldiers, advisors, elephants and generals stand (the position's
//! structure, which changes slowly, `Tally::structure`), one by how many pieces of each kind
//! are left (`Tally::material_key`). The mean of the two, within 300 points, is added to the
//! static value everywhere the search reads it; both are kept from move to move in
//! [`History`]. Against the search without it, at 30,000 nodes a move: the structure table
//! alone, +37 Elo (+8, +68) in Xiangqi over 400 games; both tables against the structure
//! table alone, +28 (-15, +71) over 200; both against none, +42 (+21, +64) over 800 (+23,
//! +21, +69 and +58 on four seeds), taking about 6 % more time a move for the same nodes
//! (19.5 against 18.3 ms). In Jieqi (where covered pieces count in the structure as a kind
//! of their own) neither showed a clear gain: the structure table +11 (-13, +35) over 800,
//! both tables +6 (-13, +26) over 1,123, so Jieqi is searched without it.
//!
//! The quiet checks at the quiescence search's first ply, against the search without them
//! (both with the evaluation's threats term), at 30,000 nodes a move: +74 Elo (+49, +100) in
//! Xiangqi over 600 games (+54 and +95 on two seeds), +23 (-4, +50) in Jieqi over 600, at
//! about 15 % of the speed at equal nodes (34.0 against 29.4 ms a move in Xiangqi, 21.1
//! against 17.8 in Jieqi). A cheap test of the move's geometry (`may_give_check`) spares
//! making the moves that cannot check; making them all cost about a quarter of the speed.
//!
//! Tried and not kept, each in self-play against the search without it at 30,000 nodes a move
//! (`scripts/self-play.sh`; Elo for the change with its 95 % interval, Jieqi / Xiangqi, 300 /
//! 150 games unless said):
//!
//! - aspiration windows at the root: -32 (-66, +1) / +14 (-17, +45), 400 games each; Jieqi's
//!   root values move with each reveal's odds;
//! - continuation histories (how well a quiet move did after the move before it): -2 (-41,
//!   +36) / +33 (-15, +82), but their 3.6 MB table cost about a sixth of the nodes a second,
//!   and a build with them and the next three changes scored 40.5/100 against
//!   Fairy-Stockfish at 200 ms a move, as this search does (41/100);
//! - a transposition table of two entries a slot (the deepest of this search's, the latest):
//!   +3 over 600 games / +9 over 300, each half within noise (+14 and -8; +30 and -12);
//! - futility judged at the depth a move's reduction leaves, up to 5 plies: +16 (-22, +55) /
//!   +7 (-41, +55);
//! - ProbCut: +12 (-27, +50) / +7 (-42, +57); with the two above, +7 (-32, +46) / +0 (-50,
//!   +50);
//! - singular extensions: +10 (-28, +49) / -14 (-62, +34);
//! - pruning quiet moves of very low history: +1 (-37, +40) / not run;
//! - two more plies of reduction for late quiet moves at nodes expected to fail high (cut
//!   nodes, tracked through the search as in most alpha-beta engines): +20 (-7, +48) / +23
//!   (-1, +48), 600 games each, the best of all these; but it searched about 6 % fewer nodes
//!   a second and scored 29/100 against Fairy-Stockfish at 200 ms a move where this search,
//!   on the same machine and openings, scored 32.5/100; at equal time (50 ms a move, 320
//!   Xiangqi games) it scored 123/75/122 against this search, about +1;
//! - reducing late moves more (divisor 1.7 in `late_move_reduction`): not run / -19 (-53,
//!   +16) over 300;
//! - no check extension: not run / -41 (-77, -6) over 300;
//! - deeper null-move reductions (4 + depth / 3 instead of 3 + depth / 6), with the cut-node
//!   reductions above and against them: not run / -57 (-93, -23) over 300;
//! - "improving" (the side to move stands better than at its previous turn): where it does,
//!   reverse futility a ply's margin less; where it does not, move-count pruning after half as
//!   many quiet moves and late moves reduced a ply more: -13 (-40, +15) over 600 / +5 (-30,
//!   +40) over 300;
//! - razoring (at most 3 plies deep, a static value 250 + 150 * depth * depth below alpha
//!   is settled by the quiescence search if that stays below): not run / -28 (-63, +7) over
//!   300;
//! - not searching, at most 3 plies deep, a late quiet move that leaves its piece attacked
//!   and undefended: not run / -10 (-45, +24) over 300, and about 5 % slower a move;
//! - move-count pruning up to 6 plies deep instead of 4: not run / -19 (-54, +16) over 300;
//! - late-move reductions for killers too, a ply less than other quiet moves: not run / +3
//!   (-31, +38) over 300;
//! - the transposition table's value in place of the static value for the pruning decisions
//!   where its bound lies beyond it (an exact value, a lower bound above it, an upper bound
//!   below it): +9 (-7, +25) over 1,800 / +12 (-5, +30) over 1,200, at no cost in speed;
//!   tested again on fresh seeds, +7 (-12, +26) over 1,200 / +0 (-25, +25) over 600, so
//!   +8 (-4, +20) over 3,000 / +8 (-6, +22) over 1,800 in all: at most a small gain, and
//!   neither interval clear of zero;
//! - a ply's reduction for captures that give a piece for a cheaper, defended one, on top of
//!   the table's value above and against it: not run / -19 (-54, +16) over 300;
//! - a capture history (captures that cut off rank higher among captures of the same
//!   victim and attacker values next time, those tried before a cut-off lower): not run /
//!   -19 (-53, +16) over 300;
//! - late-move reductions a ply smaller for quiet moves that give check: not run / -9 (-44,
//!   +26) over 300;
//! - reverse futility pruning up to 7 plies deep (now 5): -8 (-35, +19) over 600 / +13
//!   (-12, +37) over 600;
//! - quiet checks in the quiescence search for a second round (after the checked side's
//!   reply, the checker tries its quiet checks again): not run / -12 (-46, +23) over 300;
//! - storing the quiescence search's results in the table (where they evict no result of
//!   the full-width search; once no piece is hidden): not run / -19 (-53, +16) over 300;
//! - a ply's extension where the pass of null-move pruning is answered by a mate (a mate
//!   threat): not run / +7 (-28, +42) over 300;
//! - the activity term's bound at 300 instead of 200 (less often clamped, lazy evaluation
//!   less often skips it): not run / +3 (-31, +38) over 300;
//! - in the quiescence search, a side in check trying its quiet replies only until two
//!   replies in all are searched and one shows it is not mated (as Stockfish does): -5 (-33,
//!   +22) over 600 / +17 (-8, +41) over 600 (+36 and -2 on two seeds).
//! - late-move reductions at the root too (a ply less than below it, as at a principal
//!   variation's node): not run / -6 (-36, +24) over 400;
//! - a continuation history of 2 MB (scores by the piece kind and arrival point of a quiet
//!   move and of the move before it, added to its history in the move order), at no cost
//!   in speed: not run / -17 (-55, +20) over 245, stopped there.
//!
//! # Covered pieces: chance nodes and their approximation
//!
//! The engine searches its own view, so it does not know what a covered piece is. A move
//! that reveals one is a chance node: the piece is any of its side's unseen pool, each with
//! the pool's odds. Searching every outcome everywhere multiplies the branching factor by up
//! to six at every reveal, and in the opening nearly every move reveals; the search would be
//! two plies shallower for it. So the engine does both, where each pays:
//!
//! - Near the root (the first `chance_plies` plies) a reveal is an expectimax node: every
//!   role the pool holds is played out and the values are averaged by their counts. This is
//!   where the choice between moves is made, and where "this cannon point might be a
//!   chariot" matters most. Each outcome is searched with the node's window widened by
//!   [`CHANCE_MARGIN`] (outcomes differ mostly by the value of the revealed piece), so the
//!   average is exact whenever the outcomes fall inside it and a close estimate otherwise.
//! - Deeper, a reveal is not expanded. The piece turns up as the pool's most likely role (a
//!   stand-in that keeps the tree small and the tactics plausible: early on that is a
//!   soldier, the piece that least often surprises) but keeps the value of the pool's
//!   average through a per-square correction that travels with it. Material therefore stays
//!   right in expectation, and only the stand-in's moves are a guess, for a few plies, until
//!   the real reveal on the board replaces the guess at the next move.
//!
//! Capturing a covered piece is uncertain too, but its type only changes material (the piece
//! leaves the board), so no expansion is needed: a covered piece is worth its pool's average
//! in the evaluation, and that is what its capture removes. The pool is not changed by such a
//! capture, because from the searcher's seat the captured piece is as unknown as before.
//!
//! Repetition: a position repeated on the search path (or from the game so far, when the
//! caller remembers it) scores as a draw, unless one side gave check with every move of the
//! cycle: then that side loses, as the rules say. Chases are not judged.

use jieqi_rules::position::{MoveList, Position, Undo};
use jieqi_rules::{Cell, Move, Role, Side, Square, Variant};

use crate::control::{Control, INFINITY, MATE, MATE_BOUND, MAX_PLY};
use crate::eval::{ACTIVITY_BOUND, Tally, VALUES, activity, covered_values};
use crate::pool::Pool;
use crate::tt::{Bound, Tt};

mod make;
mod ordering;
mod quiesce;
mod static_value;

pub(crate) use ordering::History;
use ordering::{ERROR_GRAIN, ERROR_MAX, may_give_check, pick_best};

/// Margin around the window given to each outcome of a chance node.
const CHANCE_MARGIN: i32 = 600;

/// Move-ordering tiers, far apart so that no history score (capped at `HISTORY_MAX`) ever
/// outranks a capture or a killer: captures, then killers, then losing captures, then quiet
/// moves by history.
const CAPTURE_TIER: i32 = 200_000_000;
const KILLER_FIRST: i32 = 100_000_000;
const KILLER_SECOND: i32 = 90_000_000;
/// The quiet move that last refuted the move just played (the countermove heuristic).
const COUNTERMOVE: i32 = 80_000_000;
/// Captures that give more than they take on a defended point: after the killers, before the
/// quiet moves, and left out of the quiescence search.
const BAD_CAPTURE_TIER: i32 = 50_000_000;
/// History scores stay within plus or minus this: each update moves a score toward the bound by
/// a share of the distance left (history "gravity"), so old successes fade as new ones come.
const HISTORY_MAX: i32 = 1 << 14;
/// The most quiet moves of a node whose failure is remembered (their history lowered) when a
/// later quiet move cuts off.
const QUIETS_REMEMBERED: usize = 32;
/// A late move's reduction shrinks by a ply for each this much history it has (and grows by
/// a ply for each this much it lacks).
const HISTORY_PER_PLY: i32 = HISTORY_MAX / 2;
/// Internal iterative reduction: nodes at least this deep with no move from the table are
/// searched a ply shallower.
const IIR_DEPTH: i32 = 4;
/// Entries of the cache of the evaluation's activity term, by board key and phase.
const ACTIVITY_CACHE: usize = 1 << 16;
/// Moves of a node picked best-first one at a time before the rest are sorted.
const PICKED_ONE_BY_ONE: usize = 3;

/// Reverse futility pruning: at a node at most this deep whose static value beats beta by
/// `RFP_MARGIN` a ply, the side to move is assumed to hold it.
const RFP_DEPTH: i32 = 5;
const RFP_MARGIN: i32 = 85;
/// Futility pruning of quiet moves: at most this deep, a quiet move cannot lift a static
/// value this far below alpha (by remaining depth).
const FUTILITY_MARGIN: [i32; 4] = [0, 130, 240, 360];
/// Move-count pruning: at depth d (at most 4), quiet moves after the first `3 + d * d` are
/// not searched.
const LMP_DEPTH: i32 = 4;

/// Late-move reduction for the `i`-th move (0-based) at `depth`: grows with both, as the
/// logarithms of each (the common form among alpha-beta engines). The divisor 2.0 (reducing
/// more than the earlier 2.3) gained in self-play: +30 Elo (-5, +66) in Xiangqi and +3 (-35,
/// +42) in Jieqi, 300 games each at 30,000 nodes a move.
fn late_move_reduction(depth: i32, i: usize) -> i32 {
    if depth < 3 || i < 2 {
        return 0;
    }
    let r = 0.7 + f64::from(depth).ln() * (i as f64).ln() / 2.0;
    r as i32
}

/// A position seen earlier in the game, for repetition: its hash and whether the side to move
/// was in check there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Seen {
    pub key: u64,
    pub in_check: bool,
}

/// One entry of the path: a position, whether it is in check, and whether the move into it
/// can never be undone (a capture or a reveal), which ends the search for repetitions.
#[derive(Clone, Copy, Debug)]
struct PathEntry {
    key: u64,
    in_check: bool,
    irreversible: bool,
    /// Reached by a pass (null-move pruning): no second pass in a row.
    passed: bool,
    /// The move that reached it (none at the root, nor after a pass): the key of the
    /// countermove table.
    mv: Option<Move>,
}

/// What `make` changed besides the position.
#[derive(Clone, Copy, Debug)]
struct Made {
    undo: Undo,
    from_correction: i32,
    to_correction: i32,
    taken: Option<(Side, Role)>,
    /// The evaluation's sums before the move.
    tally: Tally,
}

/// What one completed iteration of a root search found: its best lines (value for the
/// mover, principal variation), best first.
#[derive(Clone, Debug)]
pub(crate) struct Iteration {
    pub depth: i32,
    pub nodes: u64,
    pub lines: Vec<(i32, Vec<Move>)>,
}

/// The `n`-th best value among `scored` (`-INFINITY` while fewer than `n` are scored): the
/// value a root move must beat to enter the best `n` lines.
fn nth_best(scored: &[(Move, i32, i32)], n: usize) -> i32 {
    if scored.len() < n {
        return -INFINITY;
    }
    if n == 1 {
        return scored.iter().map(|&(_, _, v)| v).max().unwrap_or(-INFINITY);
    }
    let mut values: Vec<i32> = scored.iter().map(|&(_, _, v)| v).collect();
    values.sort_unstable_by(|a, b| b.cmp(a));
    values[n - 1]
}

/// The result of a search.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SearchResult {
    pub mv: Move,
    pub score: i32,
    pub depth: i32,
}

pub(crate) struct BoardSearch<'a> {
    pos: Position,
    pool: Pool,
    corrections: [i32; Square::COUNT],
    /// The evaluation's sums for `pos` and `corrections`, kept up to date by `make`.
    tally: Tally,
    control: &'a mut Control,
    tt: &'a Tt,
    killers: [[Option<Move>; 2]; MAX_PLY],
    history: History,
    /// For each move (by its from and to squares), the quiet move that last cut off in reply.
    countermoves: Vec<Option<Move>>,
    /// Each ply's moves with their ordering scores: one buffer a ply, reused from node to
    /// node, so that ordering moves never allocates.
    orders: Vec<Vec<(Move, i32)>>,
    path: Vec<PathEntry>,
    chance_plies: usize,
    /// Activity terms read before, by board key and phase (see [`BoardSearch::activity`]).
    activity_cache: Vec<(u64, i32)>,
    /// Plies a helper search starts deeper ([`BoardSearch::ahead_by`]); 0 for the main one.
    ahead: i32,
    /// Whether the static value is corrected by the errors searches found in it: in Xiangqi
    /// only (see the module documentation).
    corrects_static_value: bool,
}

impl<'a> BoardSearch<'a> {
    /// A search of `pos` as seen with `pool`. `earlier` lists positions of the game before
    /// this one (oldest first) that may repeat; `tt` is the transposition table and `history`
    /// the move history, fresh or kept from the search of an earlier move
    /// ([`BoardSearch::into_memory`]).
    pub fn new(
        pos: Position,
        pool: Pool,
        control: &'a mut Control,
        (tt, history): (&'a Tt, History),
        chance_plies: u32,
        earlier: &[Seen],
    ) -> Self {
        let mut path: Vec<PathEntry> = earlier
            .iter()
            .map(|s| PathEntry {
                key: s.key,
                in_check: s.in_check,
                irreversible: false,
                passed: false,
                mv: None,
            })
            .collect();
        path.push(PathEntry {
            key: pos.zobrist(),
            in_check: pos.is_check(),
            irreversible: false,
            passed: false,
            mv: None,
        });
        let corrections = [0; Square::COUNT];
        let variant = pos.variant();
        BoardSearch {
            tally: Tally::of(&pos, &corrections),
            pos,
            pool,
            corrections,
            control,
            tt,
            killers: [[None; 2]; MAX_PLY],
            history,
            countermoves: vec![None; Square::COUNT * Square::COUNT],
            orders: vec![Vec::new(); MAX_PLY],
            path,
            chance_plies: chance_plies as usize,
            activity_cache: vec![(0, 0); ACTIVITY_CACHE],
            ahead: 0,
            corrects_static_value: variant == Variant::Xiangqi,
        }
    }

    /// The history, to keep for the next move's search (the table is the caller's).
    pub fn into_history(self) -> History {
        self.history
    }

    /// Makes this search a helper of another on the same table (UCI `Threads`): it starts
    /// its iterations `ahead` plies deeper, so that it does not walk the same tree in step with
    /// the main search but fills the table with what the main search's next iteration needs.
    pub fn ahead_by(&mut self, ahead: i32) {
        self.ahead = ahead.max(0);
    }

    /// Iterative deepening over the `root` moves (known legal), each with its noise bonus
    /// (same order). `None` only if `root` is empty.
    #[cfg(test)]
    pub fn run(&mut self, root: &[Move], noise: &[i32], max_depth: u32) -> Option<SearchResult> {
        self.run_observed(root, noise, max_depth, 1, None)
    }

    /// [`BoardSearch::run`], keeping the best `lines` root moves exact (a multi-line
    /// analysis: with `lines == 1` it is the same search), and handing `report` the best lines
    /// with their principal variations after each completed iteration.
    pub fn run_observed(
        &mut self,
        root: &[Move],
        noise: &[i32],
        max_depth: u32,
        lines: usize,
        mut report: Option<&mut dyn FnMut(&Iteration)>,
    ) -> Option<SearchResult> {
        let lines = lines.max(1);
        let mut order: Vec<(Move, i32)> = root
            .iter()
            .zip(noise.iter().chain(std::iter::repeat(&0)))
            .map(|(&mv, &bonus)| (mv, bonus))
            .collect();
        // Before the first iteration: captures of valuable pieces first.
        order.sort_by_key(|&(mv, _)| -self.capture_score(mv));
        let mut best: Option<SearchResult> = None;
        for depth in (1 + self.ahead)..=max_depth.max(1) as i32 {
            // The value a move must beat to enter the best `lines` (with one line: alpha).
            let mut alpha = -INFINITY;
            let mut found: Option<SearchResult> = None;
            let mut scored: Vec<(Move, i32, i32)> = Vec::with_capacity(order.len());
            for (i, &(mv, bonus)) in order.iter().enumerate() {
                let value = if i < lines {
                    self.child(mv, depth - 1, 0, -INFINITY, INFINITY) + bonus
                } else {
                    let a = alpha - bonus;
                    let mut v = self.child(mv, depth - 1, 0, a, a + 1);
                    if v > a && !self.control.stopped() {
                        v = self.child(mv, depth - 1, 0, a, INFINITY);
                    }
                    v + bonus
                };
                if self.control.stopped() {
                    break;
                }
                scored.push((mv, bonus, value));
                if found.is_none_or(|f| value > f.score) {
                    found = Some(SearchResult {
                        mv,
                        score: value,
                        depth,
                    });
                }
                alpha = nth_best(&scored, lines);
            }
            if let Some(found) = found {
                // A partial iteration still counts: its first move was the previous best, so
                // a move it prefers beat that one on the deeper search.
                best = Some(found);
            }
            let complete = !self.control.stopped();
            // Moves not reached keep their old order behind the searched ones.
            let searched = scored.len();
            scored.sort_by_key(|&(_, _, v)| -v);
            if complete && let Some(report) = report.as_deref_mut() {
                let iteration = Iteration {
                    depth,
                    nodes: self.control.nodes,
                    lines: scored
                        .iter()
                        .take(lines)
                        .map(|&(mv, _, score)| (score, self.principal_variation(mv, depth)))
                        .collect(),
                };
                report(&iteration);
            }
            if !complete || best.is_some_and(|b| b.score.abs() >= MATE_BOUND) {
                break;
            }
            let mut next: Vec<(Move, i32)> = scored.iter().map(|&(m, b, _)| (m, b)).collect();
            next.extend(order.iter().skip(searched).copied());
            order = next;
            if !self.control.may_deepen() {
                break;
            }
        }
        best.or_else(|| {
            order.first().map(|&(mv, _)| SearchResult {
                mv,
                score: 0,
                depth: 0,
            })
        })
    }

    /// `first` and the moves the table holds after it, at most `depth` plies in all: the line
    /// the search expects. A reveal on the way turns up as the search's stand-in.
    fn principal_variation(&mut self, first: Move, depth: i32) -> Vec<Move> {
        let mut line = vec![first];
        let mut made = vec![self.make(first, None)];
        while line.len() < depth.max(1) as usize {
            let next = self
                .tt
                .probe(self.pos.zobrist(), made.len())
                .and_then(|e| e.mv);
            match next {
                Some(mv) if self.pos.is_legal(mv) && self.repetition().is_none() => {
                    line.push(mv);
                    made.push(self.make(mv, None));
                }
                _ => break,
            }
        }
        while let Some(m) = made.pop() {
            self.unmake(m);
        }
        line
    }

    /// The value, for the side to move, of playing `mv` and searching `depth` plies below.
    fn child(&mut self, mv: Move, depth: i32, ply: usize, alpha: i32, beta: i32) -> i32 {
        let us = self.pos.side_to_move();
        let reveals = matches!(self.pos.cell(mv.from), Cell::Covered(_));
        if reveals && ply < self.chance_plies && depth >= 1 {
            let total = self.pool.total(us);
            if total > 0 {
                let outcomes: Vec<(Role, u8)> = self.pool.outcomes(us).collect();
                let (lo, hi) = (
                    alpha.saturating_sub(CHANCE_MARGIN),
                    beta.saturating_add(CHANCE_MARGIN),
                );
                let mut sum: i64 = 0;
                for (role, n) in outcomes {
                    let made = self.make(mv, Some(role));
                    let v = -self.negamax(depth, ply + 1, -hi, -lo);
                    self.unmake(made);
                    sum += i64::from(v) * i64::from(n);
                }
                return (sum / i64::from(total)) as i32;
            }
        }
        let made = self.make(mv, None);
        let v = -self.negamax(depth, ply + 1, -beta, -alpha);
        self.unmake(made);
        v
    }

    fn negamax(&mut self, depth: i32, ply: usize, mut alpha: i32, mut beta: i32) -> i32 {
        if let Some(score) = self.repetition() {
            return score;
        }
        // Mate-distance pruning: no line from here beats a mate already found nearer.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        let in_check = self.path.last().is_some_and(|e| e.in_check);
        let depth = if in_check { depth + 1 } else { depth };
        if depth <= 0 || ply >= MAX_PLY - 8 {
            return self.quiesce(ply, alpha, beta, true);
        }
        if self.control.tick() {
            return 0;
        }
        let key = self.pos.zobrist();
        let mut tt_move = None;
        let pv_node = beta - alpha > 1;
        if let Some(entry) = self.tt.probe(key, ply) {
            tt_move = entry.mv;
            if !pv_node && entry.depth >= depth && entry.settles(alpha, beta) {
                return entry.score;
            }
        }
        // The static value, where the pruning below may use it: off the principal variation
        // and out of check (a side in check has no quiet alternative to weigh); on it too
        // where its error is learnt.
        let us = self.pos.side_to_move();
        let raw =
            (!in_check && (!pv_node || self.corrects_static_value)).then(|| self.static_value());
        let eval = raw
            .filter(|_| !pv_node)
            .map(|raw| raw + self.learnt_error());
        if let Some(eval) = eval
            && beta.abs() < MATE_BOUND
        {
            if depth <= RFP_DEPTH && eval - RFP_MARGIN * depth >= beta {
                return eval;
            }
            let passed = self.path.last().is_some_and(|e| e.passed);
            if depth >= 3 && eval >= beta && !passed && self.has_officers(us) {
                // The further the static value stands above beta, the less the pass needs
                // to be searched to show it holds.
                let reduction = 3 + depth / 6 + ((eval - beta) / 200).min(3);
                let v = self.after_pass(depth - 1 - reduction, ply, beta);
                if self.control.stopped() {
                    return 0;
                }
                if v >= beta {
                    // A mate found after a pass is no proof of a mate after a move.
                    return if v >= MATE_BOUND { beta } else { v };
                }
            }
        }
        let mut list = MoveList::new();
        self.pos.legal_moves(&mut list);
        if list.is_empty() {
            // Checkmate and stalemate alike lose.
            return -MATE + ply as i32;
        }
        // Internal iterative reduction: a node deep enough to matter that the table knows no
        // move for has not been searched before; a shallower search of it costs less and
        // fills the table, and the next iteration searches it at full depth with a move.
        let depth = if tt_move.is_none() && depth >= IIR_DEPTH {
            depth - 1
        } else {
            depth
        };
        let mut moves = std::mem::take(&mut self.orders[ply]);
        self.score_moves(&list, tt_move, ply, &mut moves);
        let alpha_start = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        let mut quiets_seen = 0;
        let mut quiets_tried = [None; QUIETS_REMEMBERED];
        let mut quiets_tried_len = 0;
        for i in 0..moves.len() {
            // The first few moves are picked one by one (most nodes that cut off do so
            // within them), the rest are sorted once: both give the order a stable sort by
            // score would.
            let mv = if i < PICKED_ONE_BY_ONE {
                pick_best(&mut moves[i..])
            } else {
                if i == PICKED_ONE_BY_ONE {
                    moves[i..].sort_by_key(|&(_, score)| std::cmp::Reverse(score));
                }
                moves[i].0
            };
            let capture = self.pos.is_capture(mv);
            let killer = self.is_killer(mv, ply);
            let quiet = !capture && !in_check && !killer;
            // A reveal is never pruned: what turns up may change everything.
            let reveals = matches!(self.pos.cell(mv.from), Cell::Covered(_));
            if quiet && !reveals {
                quiets_seen += 1;
            }
            if let Some(eval) = eval
                && i > 0
                && quiet
                && !reveals
                && depth <= LMP_DEPTH
                && best > -MATE_BOUND
            {
                let too_late = quiets_seen > 3 + depth * depth;
                let futile = FUTILITY_MARGIN
                    .get(depth as usize)
                    .is_some_and(|margin| eval + margin <= alpha);
                if (too_late || futile) && !self.gives_check(mv) {
                    continue;
                }
            }
            let v = if i == 0 {
                self.child(mv, depth - 1, ply, alpha, beta)
            } else {
                let reduction = if quiet {
                    // Quiet moves that have often cut off elsewhere are reduced less, those
                    // that have often failed more.
                    let history = self.history.get(us, mv) / HISTORY_PER_PLY;
                    let r = late_move_reduction(depth, i) - i32::from(pv_node) - history;
                    r.min(depth - 2).max(0)
                } else {
                    0
                };
                let mut v = self.child(mv, depth - 1 - reduction, ply, alpha, alpha + 1);
                if v > alpha && reduction > 0 {
                    v = self.child(mv, depth - 1, ply, alpha, alpha + 1);
                }
                if v > alpha && v < beta {
                    v = self.child(mv, depth - 1, ply, alpha, beta);
                }
                v
            };
            if self.control.stopped() {
                self.orders[ply] = moves;
                return 0;
            }
            if v > best {
                best = v;
                best_move = Some(mv);
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        if !capture {
                            self.remember_quiet(mv, depth, ply, &quiets_tried[..quiets_tried_len]);
                        }
                        break;
                    }
                }
            }
            if !capture && quiets_tried_len < QUIETS_REMEMBERED {
                quiets_tried[quiets_tried_len] = Some(mv);
                quiets_tried_len += 1;
            }
        }
        self.orders[ply] = moves;
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha_start {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(key, ply, best_move, best, depth, bound);
        // The static value was off where the search says so: unless the best move is a
        // capture (the static value never sees one coming), or the bound leaves it open
        // which way the error lies.
        if let Some(raw) = raw
            && best.abs() < MATE_BOUND
            && !best_move.is_some_and(|mv| self.pos.is_capture(mv))
        {
            let corrected = raw + self.learnt_error();
            let settled = match bound {
                Bound::Exact => true,
                Bound::Lower => best > corrected,
                Bound::Upper => best < corrected,
            };
            if settled {
                self.learn_error(raw, best, depth);
            }
        }
        best
    }
}

#[cfg(test)]
mod tests;
