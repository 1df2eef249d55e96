//! Moves made and taken back on the search's board: a covered mover turning up (an expanded
//! outcome, or the pool's stand-in carrying its correction), the pass of null-move pruning,
//! and the repetitions found on the path.

use super::*;

/// The score of a repetition for the side that did not check with every move of it, when
/// the other side did: a loss for the perpetual checker, short of a mate.
const PERPETUAL: i32 = 2_000;

impl BoardSearch<'_> {
    /// Plays `mv`. A covered mover turns up as `reveal` if given (an expanded outcome, taken
    /// from the pool), else as the pool's most likely role carrying a correction to the
    /// pool's average value.
    pub(super) fn make(&mut self, mv: Move, reveal: Option<Role>) -> Made {
        let us = self.pos.side_to_move();
        let from = mv.from.index();
        let to = mv.to.index();
        let mover_covered = matches!(self.pos.cell(mv.from), Cell::Covered(_));
        let irreversible = mover_covered || self.pos.is_capture(mv);
        let (role, correction, taken) = if mover_covered {
            match reveal {
                Some(role) => {
                    self.pool.take(us, role);
                    (Some(role), 0, Some((us, role)))
                }
                None => match self.pool.most_likely(us, &VALUES) {
                    Some(role) => {
                        let average = self.pool.expected_value(us, &VALUES);
                        (Some(role), average - VALUES[role.index()], None)
                    }
                    None => (None, 0, None),
                },
            }
        } else {
            (None, self.corrections[from], None)
        };
        let tally = self.tally;
        self.tally
            .lift(mv.from, self.pos.cell(mv.from), self.corrections[from]);
        self.tally
            .lift(mv.to, self.pos.cell(mv.to), self.corrections[to]);
        let made = Made {
            undo: self.pos.play_unchecked(mv, role, None),
            from_correction: self.corrections[from],
            to_correction: self.corrections[to],
            taken,
            tally,
        };
        self.corrections[from] = 0;
        self.corrections[to] = correction;
        self.tally.set(mv.to, self.pos.cell(mv.to), correction);
        self.path.push(PathEntry {
            key: self.pos.zobrist(),
            in_check: self.pos.is_check(),
            irreversible,
            passed: false,
            mv: Some(mv),
        });
        made
    }

    /// The value for the side to move of passing and letting the other side search `depth`
    /// plies with a null window at `beta`: if even that holds beta, a real move would too.
    /// A pass ends the search for repetitions (it is not a move of the game).
    pub(super) fn after_pass(&mut self, depth: i32, ply: usize, beta: i32) -> i32 {
        let pass = self.pos.pass();
        self.path.push(PathEntry {
            key: self.pos.zobrist(),
            in_check: false,
            irreversible: true,
            passed: true,
            mv: None,
        });
        let v = -self.negamax(depth, ply + 1, -beta, -beta + 1);
        self.path.pop();
        self.pos.undo_pass(pass);
        v
    }

    /// Whether `side` has a face-up chariot, horse or cannon, or any covered piece: material
    /// enough that passing would rarely be its best move (null-move pruning's zugzwang guard).
    pub(super) fn has_officers(&self, side: Side) -> bool {
        self.pos.occupied_cells().any(|(_, cell)| match cell {
            Cell::Piece(p) => {
                p.side == side && matches!(p.role, Role::Chariot | Role::Horse | Role::Cannon)
            }
            Cell::Covered(Some(s)) => s == side,
            _ => false,
        })
    }

    /// Whether playing `mv` (a face-up piece's move) gives check.
    pub(super) fn gives_check(&mut self, mv: Move) -> bool {
        let made = self.make(mv, None);
        let check = self.path.last().is_some_and(|e| e.in_check);
        self.unmake(made);
        check
    }

    pub(super) fn unmake(&mut self, made: Made) {
        self.path.pop();
        let mv = made.undo.mv();
        self.pos.undo(made.undo);
        self.corrections[mv.from.index()] = made.from_correction;
        self.corrections[mv.to.index()] = made.to_correction;
        self.tally = made.tally;
        if let Some((side, role)) = made.taken {
            self.pool.put_back(side, role);
        }
    }

    /// The score of the current position if it repeats one earlier on the path.
    pub(super) fn repetition(&self) -> Option<i32> {
        let len = self.path.len();
        let current = self.path.last()?;
        let mut mover_checked_all = true; // the side that just moved, into positions len-1, len-3...
        let mut other_checked_all = true;
        let mut j = len - 1;
        while j > 0 {
            let entry = self.path[j];
            if (len - 1 - j).is_multiple_of(2) {
                mover_checked_all &= entry.in_check;
            } else {
                other_checked_all &= entry.in_check;
            }
            if entry.irreversible {
                return None;
            }
            j -= 1;
            if self.path[j].key == current.key && (len - 1 - j).is_multiple_of(2) {
                return Some(match (mover_checked_all, other_checked_all) {
                    (true, false) => PERPETUAL,
                    (false, true) => -PERPETUAL,
                    _ => 0,
                });
            }
        }
        None
    }
}
