//! Move generation: pseudo-legal moves from the tables, then the legality filter.

use crate::attacks::{
    ADVISOR_FREE, ADVISOR_PALACE, ELEPHANT_FREE, ELEPHANT_HOME, GENERAL_MOVES, HORSE_MOVES, Jumps,
    RAYS, SOLDIER_MOVES,
};
use crate::moves::Move;
use crate::types::Square;

use super::Position;
use super::board::{
    ADVISOR, ADVISOR_FREE as ADVISOR_FREE_KIND, CANNON, CHARIOT, ELEPHANT,
    ELEPHANT_FREE as ELEPHANT_FREE_KIND, GENERAL, HORSE, KIND, SOLDIER, side_bit,
};
use super::movelist::MoveList;

impl Position {
    /// Calls `emit(to)` for every pseudo-legal target of the side to move's piece on `from`
    /// (moves that obey how the piece moves, ignoring the safety of its own general).
    #[inline(always)]
    pub(super) fn piece_targets(&self, from: usize, mut emit: impl FnMut(usize)) {
        let b = &self.board;
        let code = b[from];
        let us = self.side_to_move;
        let own = side_bit(us);
        // Steps to points not holding an own piece, each needing its `via` point empty or not.
        let mut steps = |jumps: &Jumps, check_via: bool| {
            for (to, via) in jumps.pairs() {
                if b[to] & own == 0 && (!check_via || b[via] == 0) {
                    emit(to);
                }
            }
        };
        match code & KIND {
            GENERAL => steps(&GENERAL_MOVES[from], false),
            ADVISOR => steps(&ADVISOR_PALACE[from], false),
            ADVISOR_FREE_KIND => steps(&ADVISOR_FREE[from], false),
            ELEPHANT => steps(&ELEPHANT_HOME[us.index()][from], true),
            ELEPHANT_FREE_KIND => steps(&ELEPHANT_FREE[from], true),
            HORSE => steps(&HORSE_MOVES[from], true),
            SOLDIER => steps(&SOLDIER_MOVES[us.index()][from], false),
            CHARIOT => {
                for ray in &RAYS[from] {
                    for &s in ray.squares() {
                        let to = usize::from(s);
                        let c = b[to];
                        if c == 0 {
                            emit(to);
                        } else {
                            if c & own == 0 {
                                emit(to);
                            }
                            break;
                        }
                    }
                }
            }
            CANNON => {
                for ray in &RAYS[from] {
                    let mut squares = ray.squares().iter();
                    for &s in squares.by_ref() {
                        let to = usize::from(s);
                        if b[to] == 0 {
                            emit(to);
                        } else {
                            break;
                        }
                    }
                    for &s in squares {
                        let c = b[usize::from(s)];
                        if c != 0 {
                            if c & own == 0 {
                                emit(usize::from(s));
                            }
                            break;
                        }
                    }
                }
            }
            _ => {}
        }
    }

    /// Every pseudo-legal move of the side to move, into `out` (cleared first).
    pub(super) fn pseudo_legal_moves(&self, out: &mut MoveList) {
        out.clear();
        for (from, _) in self.own_pieces() {
            self.piece_targets(from, |to| out.push_indexes(from, to));
        }
    }

    /// The side to move's pieces, by square index, with their kind codes.
    fn own_pieces(&self) -> impl Iterator<Item = (usize, u8)> + '_ {
        let mut left = self.occupied[self.side_to_move.index()];
        std::iter::from_fn(move || {
            if left == 0 {
                return None;
            }
            let from = left.trailing_zeros() as usize;
            left &= left - 1;
            Some((from, self.board[from] & KIND))
        })
    }

    /// Puts the legal moves of the side to move into `out`, which is cleared first. Order:
    /// by piece (square index), then by the piece's move pattern; see
    /// [`Position::legal_move_vec`] for a sorted list.
    ///
    /// ```
    /// use jieqi_rules::position::{MoveList, Position};
    ///
    /// let pos = Position::xiangqi_start();
    /// let mut moves = MoveList::new();
    /// pos.legal_moves(&mut moves);
    /// assert_eq!(moves.len(), 44);
    /// ```
    pub fn legal_moves(&self, out: &mut MoveList) {
        self.pseudo_legal_moves(out);
        let safety = self.safety();
        let mut scratch = self.board;
        out.retain(|mv| {
            let from = mv.from.index();
            let to = mv.to.index();
            safety.is_safe(self.board[from] & KIND, from, to)
                || self.legal_on(&mut scratch, from, to)
        });
    }

    /// Puts the legal captures of the side to move (moves onto an enemy piece, face up or
    /// covered) into `out`, which is cleared first, in the order of
    /// [`Position::legal_moves`]. A quiescence search wants only these, and most of a full
    /// list's cost is the legality of moves it would throw away.
    ///
    /// ```
    /// use jieqi_rules::position::{MoveList, Position};
    ///
    /// let pos = Position::xiangqi_start();
    /// let mut captures = MoveList::new();
    /// pos.legal_captures(&mut captures);
    /// // Each cannon can take the horse behind the cannon facing it.
    /// assert_eq!(captures.len(), 2);
    /// ```
    pub fn legal_captures(&self, out: &mut MoveList) {
        out.clear();
        let safety = self.safety();
        let mut scratch = self.board;
        for (from, kind) in self.own_pieces() {
            self.piece_targets(from, |to| {
                // Own pieces are never targets, so an occupied target is an enemy's.
                if self.board[to] != 0
                    && (safety.is_safe(kind, from, to) || self.legal_on(&mut scratch, from, to))
                {
                    out.push_indexes(from, to);
                }
            });
        }
    }

    /// Whether the side to move has any legal move (stops at the first one found).
    pub fn has_legal_move(&self) -> bool {
        let safety = self.safety();
        let mut scratch = self.board;
        for (from, kind) in self.own_pieces() {
            let mut found = false;
            self.piece_targets(from, |to| {
                found = found
                    || safety.is_safe(kind, from, to)
                    || self.legal_on(&mut scratch, from, to);
            });
            if found {
                return true;
            }
        }
        false
    }

    /// The number of legal moves of the side to move, without listing them (perft's last ply).
    pub(crate) fn count_legal_moves(&self) -> u64 {
        let safety = self.safety();
        let mut scratch = self.board;
        let mut count = 0u64;
        for (from, kind) in self.own_pieces() {
            if safety.piece_is_free(kind, from) {
                // The usual case: nothing this piece does can expose its general.
                self.piece_targets(from, |to| {
                    count += u64::from(
                        safety.danger & (1u128 << to) == 0 || self.legal_on(&mut scratch, from, to),
                    );
                });
            } else {
                self.piece_targets(from, |to| {
                    if self.legal_on(&mut scratch, from, to) {
                        count += 1;
                    }
                });
            }
        }
        count
    }

    /// The legal moves of the side to move, sorted by `(from, to)`.
    ///
    /// ```
    /// use jieqi_rules::position::Position;
    ///
    /// let moves = Position::xiangqi_start().legal_move_vec();
    /// assert_eq!(moves.len(), 44);
    /// assert!(moves.windows(2).all(|w| w[0] < w[1]));
    /// ```
    pub fn legal_move_vec(&self) -> Vec<Move> {
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        let mut moves = list.to_vec();
        moves.sort_unstable();
        moves
    }

    /// Whether `mv` obeys how the piece on its from point moves, for the side to move.
    pub(super) fn is_pseudo_legal(&self, mv: Move) -> bool {
        let from = mv.from.index();
        let code = self.board[from];
        if code == 0 || code & side_bit(self.side_to_move) == 0 {
            return false;
        }
        let target = mv.to.index();
        let mut found = false;
        self.piece_targets(from, |to| found |= to == target);
        found
    }

    /// Whether `mv` is legal for the side to move.
    ///
    /// ```
    /// use jieqi_rules::{Move, position::Position};
    ///
    /// let pos = Position::xiangqi_start();
    /// let cannon_to_centre = Move::new("h2".parse().unwrap(), "e2".parse().unwrap());
    /// let general_out = Move::new("e0".parse().unwrap(), "e1".parse().unwrap());
    /// let soldier_back = Move::new("e3".parse().unwrap(), "e2".parse().unwrap());
    /// assert!(pos.is_legal(cannon_to_centre));
    /// assert!(pos.is_legal(general_out));
    /// assert!(!pos.is_legal(soldier_back));
    /// ```
    pub fn is_legal(&self, mv: Move) -> bool {
        if !self.is_pseudo_legal(mv) {
            return false;
        }
        let mut scratch: [u8; Square::COUNT] = self.board;
        self.legal_on(&mut scratch, mv.from.index(), mv.to.index())
    }
}
