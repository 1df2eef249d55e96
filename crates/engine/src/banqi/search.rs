//! Banqi search: alpha-beta with iterative deepening, captures-only quiescence, and flips as
//! chance nodes.
//!
//! A flip shows one of the pieces still face down, of either colour, with the odds of the
//! unseen pool. At the root (and to `chance_plies`) a flip is an expectimax node: every piece
//! it may show is searched and the values are averaged by their counts. Each outcome is
//! searched only two plies deep (enough to see whether the shown piece is taken or takes at
//! once), which keeps the thirty-odd flips of an opening affordable. Deeper in the tree the
//! flips are not expanded: "flip something" stands for a neutral waiting move, valued as
//! passing the turn and letting the opponent resolve its captures. That keeps the engine from
//! believing it is forced into a bad move when a flip was available.
//!
//! A position repeated since the last flip or capture (on the search path, or earlier in the
//! game when the engine remembers it) scores as a draw.

use jieqi_rules::{Piece, Role, Side};

use super::board::{BanqiAction, BanqiBoard, SQUARES, Spot, can_step_capture, strength};
use crate::control::{Control, INFINITY, MATE, MATE_BOUND, MAX_PLY};

/// Material value of a face-up Banqi piece, by [`Role::index`].
const VALUES: [i32; 7] = [600, 320, 200, 130, 260, 90, 60];
/// What a soldier adds while the enemy general lives (soldiers are its only predators).
const SOLDIER_HUNTER: i32 = 40;
/// Plies each outcome of a flip is searched.
const FLIP_DEPTH: i32 = 2;
/// Margin around the window given to each outcome of a chance node.
const CHANCE_MARGIN: i32 = 400;

/// The result of a Banqi search.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BanqiResult {
    pub action: BanqiAction,
    pub score: i32,
    pub depth: i32,
}

pub(crate) struct BanqiSearch<'a> {
    board: BanqiBoard,
    /// Keys of the positions from the game's last flip or capture to here, and whether the
    /// action into each was a flip or capture (after which nothing earlier can repeat).
    path: Vec<(u64, bool)>,
    control: &'a mut Control,
    chance_plies: usize,
    killers: [[Option<BanqiAction>; 2]; MAX_PLY],
    history: [[i32; SQUARES]; SQUARES],
}

fn value_of(piece: Piece, general_alive: [bool; 2]) -> i32 {
    let mut v = VALUES[piece.role.index()];
    if piece.role == Role::Soldier && general_alive[(!piece.side).index()] {
        v += SOLDIER_HUNTER;
    }
    v
}

/// Static evaluation from the side to move's point of view.
pub(crate) fn evaluate(board: &BanqiBoard) -> i32 {
    let mut alive = [false; 2];
    for side in Side::ALL {
        alive[side.index()] = board.pool.count(side, Role::General) > 0;
    }
    let mut ups: Vec<(u8, Piece)> = Vec::with_capacity(SQUARES);
    for (sq, spot) in board.spots.iter().enumerate() {
        if let Spot::Up(p) = spot {
            ups.push((sq as u8, *p));
            if p.role == Role::General {
                alive[p.side.index()] = true;
            }
        }
    }
    let mut score = [0i32; 2];
    for side in Side::ALL {
        for (role, n) in board.pool.outcomes(side) {
            score[side.index()] += i32::from(n) * value_of(Piece::new(side, role), alive);
        }
    }
    for &(sq, p) in &ups {
        score[p.side.index()] += value_of(p, alive);
        // Hunting: a piece close to an enemy it takes and that cannot take it back presses
        // the enemy, and lets the stronger side make progress in endings.
        for &(tsq, t) in &ups {
            if t.side != p.side
                && can_step_capture(p.role, t.role)
                && !can_step_capture(t.role, p.role)
            {
                let dist = (i32::from(sq % 8) - i32::from(tsq % 8)).abs()
                    + (i32::from(sq / 8) - i32::from(tsq / 8)).abs();
                score[p.side.index()] += (6 - dist).max(0) * 3;
            }
        }
    }
    let me = board.to_move.index();
    score[me] - score[1 - me] + 5
}

impl<'a> BanqiSearch<'a> {
    /// A search of `board`; `earlier` are keys of positions of the game since its last flip
    /// or capture (see [`BanqiBoard::key`]), which the search treats as drawn if reached again.
    pub fn new(
        board: BanqiBoard,
        control: &'a mut Control,
        chance_plies: u32,
        earlier: &[u64],
    ) -> Self {
        let mut path: Vec<(u64, bool)> = earlier.iter().map(|&k| (k, false)).collect();
        path.push((board.key(), false));
        BanqiSearch {
            board,
            path,
            control,
            chance_plies: chance_plies as usize,
            killers: [[None; 2]; MAX_PLY],
            history: [[0; SQUARES]; SQUARES],
        }
    }

    /// Iterative deepening over `root` (actions known legal), each with its noise bonus.
    /// Returns `None` only if `root` is empty.
    pub fn run(
        &mut self,
        root: &[BanqiAction],
        noise: &[i32],
        max_depth: u32,
    ) -> Option<BanqiResult> {
        let mut order: Vec<(BanqiAction, i32)> = root
            .iter()
            .zip(noise.iter().chain(std::iter::repeat(&0)))
            .map(|(&a, &n)| (a, n))
            .collect();
        let mut best: Option<BanqiResult> = None;
        for depth in 1..=max_depth.max(1) as i32 {
            let mut alpha = -INFINITY;
            let mut iteration: Option<BanqiResult> = None;
            let mut scored: Vec<(BanqiAction, i32, i32)> = Vec::with_capacity(order.len());
            for &(action, bonus) in &order {
                let value = self.action_value(action, depth, 0, alpha - bonus, INFINITY) + bonus;
                if self.control.stopped() {
                    break;
                }
                scored.push((action, bonus, value));
                if value > alpha {
                    alpha = value;
                    iteration = Some(BanqiResult {
                        action,
                        score: value,
                        depth,
                    });
                }
            }
            if let Some(found) = iteration {
                // A partial iteration is still usable: its first move was the previous best,
                // so whatever it prefers beat that on the deeper search.
                best = Some(found);
            }
            if self.control.stopped() || best.is_some_and(|b| b.score.abs() >= MATE_BOUND) {
                break;
            }
            scored.sort_by_key(|&(_, _, v)| -v);
            order = scored.iter().map(|&(a, b, _)| (a, b)).collect();
            if !self.control.may_deepen() {
                break;
            }
        }
        best.or_else(|| {
            root.first().map(|&action| BanqiResult {
                action,
                score: 0,
                depth: 0,
            })
        })
    }

    /// The value for the side to move of playing `action`.
    fn action_value(
        &mut self,
        action: BanqiAction,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        match action {
            BanqiAction::Move { from, to } => {
                let capture = self.board.spots[usize::from(to)] != Spot::Empty;
                let undo = self.board.play_move(from, to);
                self.path.push((self.board.key(), capture));
                let v = -self.negamax(depth - 1, ply + 1, -beta, -alpha);
                self.path.pop();
                self.board.undo(undo);
                v
            }
            BanqiAction::Flip(square) => self.flip_value(square, depth, ply, alpha, beta),
        }
    }

    /// Expectimax over what a flip of `square` may show.
    fn flip_value(&mut self, square: u8, depth: i32, ply: usize, alpha: i32, beta: i32) -> i32 {
        let total = self.board.pool.total(Side::Red) + self.board.pool.total(Side::Black);
        if total == 0 {
            return self.pass_value(ply);
        }
        let child_depth = (depth - 1).min(FLIP_DEPTH);
        let (lo, hi) = (
            alpha.saturating_sub(CHANCE_MARGIN),
            beta.saturating_add(CHANCE_MARGIN),
        );
        let mut sum: i64 = 0;
        for side in Side::ALL {
            let outcomes: Vec<(Role, u8)> = self.board.pool.outcomes(side).collect();
            for (role, n) in outcomes {
                let undo = self.board.play_flip(square, Piece::new(side, role));
                self.path.push((self.board.key(), true));
                let v = -self.negamax(child_depth, ply + 1, -hi, -lo);
                self.path.pop();
                self.board.undo(undo);
                sum += i64::from(v) * i64::from(n);
            }
        }
        (sum / i64::from(total)) as i32
    }

    /// "Flip something" beyond the chance horizon: the turn passes, the opponent resolves its
    /// captures.
    fn pass_value(&mut self, ply: usize) -> i32 {
        let undo = self.board.pass();
        let v = -self.quiesce(ply + 1, -INFINITY, INFINITY);
        self.board.undo(undo);
        v
    }

    /// Whether the current position (the last on the path) occurred before since the last
    /// flip or capture.
    fn repeated(&self) -> bool {
        let Some(&(key, _)) = self.path.last() else {
            return false;
        };
        let mut j = self.path.len() - 1;
        while j > 0 {
            if self.path[j].1 {
                return false;
            }
            j -= 1;
            if self.path[j].0 == key {
                return true;
            }
        }
        false
    }

    fn negamax(&mut self, depth: i32, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        if ply > 0 && self.repeated() {
            // A repetition is a draw (the third occurrence ends the game): a side that is
            // ahead looks for something better, one behind is glad of it.
            return 0;
        }
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.quiesce(ply, alpha, beta);
        }
        if self.control.tick() {
            return 0;
        }
        let expand_flips = ply < self.chance_plies;
        let mut actions = Vec::with_capacity(48);
        self.board.actions(&mut actions, expand_flips);
        let mut best = -INFINITY;
        if !expand_flips && self.board.has_face_down() {
            best = self.pass_value(ply);
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
        }
        if actions.is_empty() {
            return if best > -INFINITY {
                best
            } else {
                -MATE + ply as i32
            };
        }
        self.order(&mut actions, ply);
        for action in actions {
            let v = self.action_value(action, depth, ply, alpha, beta);
            if self.control.stopped() {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        if let BanqiAction::Move { from, to } = action
                            && self.board.spots[usize::from(to)] == Spot::Empty
                        {
                            self.remember_quiet(action, from, to, depth, ply);
                        }
                        break;
                    }
                }
            }
        }
        best
    }

    fn remember_quiet(&mut self, action: BanqiAction, from: u8, to: u8, depth: i32, ply: usize) {
        let killers = &mut self.killers[ply];
        if killers[0] != Some(action) {
            killers[1] = killers[0];
            killers[0] = Some(action);
        }
        let h = &mut self.history[usize::from(from)][usize::from(to)];
        *h = (*h + depth * depth).min(1 << 20);
    }

    fn quiesce(&mut self, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        if self.control.tick() {
            return 0;
        }
        let stand = evaluate(&self.board);
        let has_piece = self.board.has_face_down()
            || self
                .board
                .spots
                .iter()
                .any(|s| matches!(s, Spot::Up(p) if p.side == self.board.to_move));
        if !has_piece {
            return -MATE + ply as i32;
        }
        if stand >= beta || ply >= MAX_PLY - 1 {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut best = stand;
        let mut captures = Vec::with_capacity(16);
        self.board.captures(&mut captures);
        self.order(&mut captures, ply);
        for action in captures {
            let BanqiAction::Move { from, to } = action else {
                continue;
            };
            let undo = self.board.play_move(from, to);
            let v = -self.quiesce(ply + 1, -beta, -alpha);
            self.board.undo(undo);
            if self.control.stopped() {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// Captures by most valuable victim then least valuable attacker, then killers, then
    /// quiet moves by history, flips last.
    fn order(&self, actions: &mut [BanqiAction], ply: usize) {
        let killers = self.killers.get(ply).copied().unwrap_or([None; 2]);
        actions.sort_by_cached_key(|&action| match action {
            BanqiAction::Move { from, to } => match (
                self.board.spots[usize::from(to)],
                self.board.spots[usize::from(from)],
            ) {
                (Spot::Up(victim), Spot::Up(attacker)) => {
                    -1_000_000 - VALUES[victim.role.index()] * 16
                        + i32::from(strength(attacker.role))
                }
                _ if Some(action) == killers[0] => -500_000,
                _ if Some(action) == killers[1] => -400_000,
                _ => -self.history[usize::from(from)][usize::from(to)],
            },
            BanqiAction::Flip(_) => 1_000_000,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::Level;
    use crate::pool::Pool;
    use jieqi_rules::BySide;

    fn empty_board(to_move: Side) -> BanqiBoard {
        BanqiBoard {
            spots: [Spot::Empty; SQUARES],
            to_move,
            pool: Pool::from_counts(BySide::default()),
        }
    }

    fn put(b: &mut BanqiBoard, sq: usize, side: Side, role: Role) {
        b.spots[sq] = Spot::Up(Piece::new(side, role));
    }

    fn best(board: BanqiBoard) -> BanqiResult {
        let mut root = Vec::new();
        board.actions(&mut root, true);
        let mut control = Control::new(&Level::Club.budget());
        let mut search = BanqiSearch::new(board, &mut control, 1, &[]);
        let noise = vec![0; root.len()];
        search.run(&root, &noise, 4).expect("there are actions")
    }

    #[test]
    fn takes_a_hanging_chariot_with_the_advisor() {
        let mut b = empty_board(Side::Red);
        put(&mut b, 9, Side::Red, Role::Advisor); // b2
        put(&mut b, 10, Side::Black, Role::Chariot); // c2
        put(&mut b, 30, Side::Black, Role::Soldier); // g4
        assert_eq!(best(b).action, BanqiAction::Move { from: 9, to: 10 });
    }

    #[test]
    fn taking_the_last_enemy_piece_wins() {
        let mut b = empty_board(Side::Red);
        put(&mut b, 0, Side::Red, Role::Soldier); // a1
        put(&mut b, 1, Side::Black, Role::General); // b1
        let result = best(b);
        assert_eq!(result.action, BanqiAction::Move { from: 0, to: 1 });
        assert!(result.score >= MATE_BOUND);
    }

    #[test]
    fn steps_away_from_a_stronger_attacker() {
        let mut b = empty_board(Side::Red);
        put(&mut b, 0, Side::Red, Role::Horse); // a1
        put(&mut b, 8, Side::Black, Role::Elephant); // a2 takes a horse on a1
        put(&mut b, 31, Side::Red, Role::Soldier); // h4
        put(&mut b, 23, Side::Black, Role::Cannon); // h3
        // b1 is out of the elephant's reach; moving the soldier instead loses the horse.
        assert_eq!(best(b).action, BanqiAction::Move { from: 0, to: 1 });
    }

    #[test]
    fn going_back_and_forth_is_a_repetition() {
        let mut b = empty_board(Side::Red);
        put(&mut b, 0, Side::Red, Role::Horse); // a1
        put(&mut b, 31, Side::Black, Role::Soldier); // h4
        let mut control = Control::new(&Level::Club.budget());
        let mut search = BanqiSearch::new(b, &mut control, 1, &[]);
        for (from, to) in [(0, 1), (31, 30), (1, 0), (30, 31)] {
            assert!(!search.repeated());
            search.board.play_move(from, to);
            let key = search.board.key();
            search.path.push((key, false));
        }
        assert!(search.repeated());
        // A capture (or flip) on the way breaks the cycle.
        search.path[2].1 = true;
        assert!(!search.repeated());
    }
}
