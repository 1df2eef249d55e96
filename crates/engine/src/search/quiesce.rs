//! The quiescence search: captures (and at its first ply the quiet moves that give check)
//! until the position is quiet, so that a static value is read only where nothing hangs.

use super::*;

impl BoardSearch<'_> {
    pub(super) fn quiesce(&mut self, ply: usize, mut alpha: i32, beta: i32, checks: bool) -> i32 {
        if self.control.tick() {
            return 0;
        }
        let in_check = self.path.last().is_some_and(|e| e.in_check);
        // A bound from the table settles the node as it would in the full-width search; only
        // once no piece is hidden: +34 Elo (+10, +59) in Xiangqi over 600 self-play games at
        // 30,000 nodes a move, but -9 (-36, +18) in Jieqi with covered pieces left, where the
        // stored values are averages over reveals the quiescence search does not make.
        if self.tally.all_face_up()
            && let Some(entry) = self.tt.probe(self.pos.zobrist(), ply)
            && entry.settles(alpha, beta)
        {
            return entry.score;
        }
        let partial = self.value_without_activity();
        let partial = (partial.0 + self.learnt_error(), partial.1);
        // Out of check, standing pat above beta needs no move list: a side with no legal
        // move at all (a loss) is left to the full-width search above. Where the value without
        // activity stands so far above beta that no activity could bring it down, the costly
        // term is not read at all (lazy evaluation).
        if !in_check && partial.0 - ACTIVITY_BOUND >= beta {
            return partial.0;
        }
        let stand = partial.0 + self.activity(partial.1);
        if (!in_check && stand >= beta) || ply >= MAX_PLY - 1 {
            return stand;
        }
        // Out of check only captures are searched: listing them alone skips the legality of
        // every quiet move. No capture may still mean no move at all (a loss).
        let mut list = MoveList::new();
        if in_check {
            self.pos.legal_moves(&mut list);
        } else {
            self.pos.legal_captures(&mut list);
        }
        if list.is_empty() && (in_check || !self.pos.has_legal_move()) {
            return -MATE + ply as i32;
        }
        let mut best = -INFINITY;
        if !in_check {
            alpha = alpha.max(stand);
            best = stand;
        }
        // The ply's move buffer, as in the full-width search: no allocation a node.
        let mut moves = std::mem::take(&mut self.orders[ply]);
        moves.clear();
        moves.extend(
            list.iter()
                .filter(|&&mv| in_check || self.pos.is_capture(mv))
                .map(|&mv| (mv, self.capture_score(mv))),
        );
        moves.sort_by_key(|&(_, s)| -s);
        for &(mv, score) in &moves {
            if !in_check && (stand + self.victim_value(mv) + 200 <= alpha || score < CAPTURE_TIER) {
                // Even winning this piece for free would not reach alpha; or the capture
                // gives a piece for a cheaper one that is defended.
                continue;
            }
            let made = self.make(mv, None);
            let v = -self.quiesce(ply + 1, -beta, -alpha, false);
            self.unmake(made);
            if self.control.stopped() {
                break;
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
        self.orders[ply] = moves;
        if self.control.stopped() {
            return 0;
        }
        // Out of check the stand-pat value was below beta, so only a capture's cut-off gets here.
        if best >= beta {
            return best;
        }
        if checks && !in_check {
            best = best.max(self.quiet_checks(ply, alpha, beta));
        }
        best
    }

    /// The best of the quiet moves that give check, each answered by the quiescence search
    /// (in check, it tries every reply): the first ply of the quiescence search looks at them
    /// too, so that a leaf does not miss a mate or a fork that begins with a check. Only
    /// face-up pieces' moves: a reveal is no quiet move. `-INFINITY` if there is none.
    pub(super) fn quiet_checks(&mut self, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        let mut best = -INFINITY;
        let Some(general) = self.pos.general(!self.pos.side_to_move()) else {
            return best;
        };
        let mut list = MoveList::new();
        self.pos.legal_moves(&mut list);
        for &mv in list.iter() {
            let Cell::Piece(piece) = self.pos.cell(mv.from) else {
                continue;
            };
            if self.pos.is_capture(mv) || !may_give_check(piece.role, mv, general) {
                continue;
            }
            let made = self.make(mv, None);
            let check = self.path.last().is_some_and(|e| e.in_check);
            let v = if check {
                -self.quiesce(ply + 1, -beta, -alpha, false)
            } else {
                -INFINITY
            };
            self.unmake(made);
            if self.control.stopped() {
                return 0;
            }
            if v > best {
                best = v;
                alpha = alpha.max(v);
                if v >= beta {
                    break;
                }
            }
        }
        best
    }
}
