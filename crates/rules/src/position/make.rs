//! Playing and taking back moves in place: a move touches two points, a few bit masks and
//! the hash, and [`Undo`] holds exactly what is needed to restore them.

use crate::attacks::{ZOBRIST_BLACK_TO_MOVE, ZOBRIST_PIECES};
use crate::deal::Deal;
use crate::moves::{CapturedPiece, Move, MoveRecord};
use crate::types::{Piece, Role, Side, Square, Variant};

use super::Position;
use super::board::{
    GENERAL, KIND, SOLDIER, code_side, kind_role, role_kind, side_bit, zobrist_slot,
};

/// No role was counted as captured.
const NO_ROLE: u8 = 7;

/// What [`Position::undo`] needs to take a move back. Only valid for the position the move
/// was played on, and only in reverse order of play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Undo {
    mv: Move,
    moved: u8,
    captured: u8,
    moved_was_covered: bool,
    captured_was_covered: bool,
    /// The role index added to the captured counts, or [`NO_ROLE`].
    counted_role: u8,
    halfmove_clock: u32,
    fullmove_number: u32,
    zobrist: u64,
}

impl Undo {
    /// The move this undoes.
    pub fn mv(&self) -> Move {
        self.mv
    }
}

/// What [`Position::undo_pass`] needs to take a pass back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pass {
    zobrist: u64,
}

impl Position {
    /// Plays a legal move without checking it.
    ///
    /// `reveal` is the true role of the moving piece iff it is covered (`None` otherwise);
    /// `captured_covered` is the true role of the captured piece iff the target is a covered
    /// piece (`None` otherwise: the role of a face-up capture is on the board). A covered
    /// mover with no `reveal` turns up as its fake type; a covered capture with no
    /// `captured_covered` is not counted in [`Position::captured_counts`] (its type is
    /// unknown). Playing an illegal move leaves a position that may break its invariants,
    /// but never panics.
    ///
    /// ```
    /// use jieqi_rules::{Cell, Move, Piece, Role, Side, position::Position};
    ///
    /// let mut pos = Position::jieqi_start();
    /// let mv = Move::new("b0".parse().unwrap(), "c2".parse().unwrap());
    /// let undo = pos.play_unchecked(mv, Some(Role::Chariot), None);
    /// assert_eq!(pos.cell(mv.to), Cell::Piece(Piece::new(Side::Red, Role::Chariot)));
    /// pos.undo(undo);
    /// assert_eq!(pos, Position::jieqi_start());
    /// ```
    pub fn play_unchecked(
        &mut self,
        mv: Move,
        reveal: Option<Role>,
        captured_covered: Option<Role>,
    ) -> Undo {
        let from = mv.from.index();
        let to = mv.to.index();
        let from_bit = 1u128 << from;
        let to_bit = 1u128 << to;
        let moved = self.board[from];
        let captured = self.board[to];
        let moved_was_covered = self.covered & from_bit != 0;
        let captured_was_covered = self.covered & to_bit != 0;
        let us = self.side_to_move;
        let them = !us;
        let mut undo = Undo {
            mv,
            moved,
            captured,
            moved_was_covered,
            captured_was_covered,
            counted_role: NO_ROLE,
            halfmove_clock: self.halfmove_clock,
            fullmove_number: self.fullmove_number,
            zobrist: self.zobrist,
        };

        let arrived = if moved_was_covered {
            let role = reveal.unwrap_or(kind_role(moved & KIND));
            role_kind(role, self.variant == Variant::Jieqi) | side_bit(us)
        } else {
            moved
        };

        let mut hash = self.zobrist ^ ZOBRIST_BLACK_TO_MOVE;
        hash ^= ZOBRIST_PIECES[zobrist_slot(moved, moved_was_covered)][from];
        hash ^= ZOBRIST_PIECES[zobrist_slot(arrived, false)][to];
        if captured != 0 {
            hash ^= ZOBRIST_PIECES[zobrist_slot(captured, captured_was_covered)][to];
            self.occupied[them.index()] &= !to_bit;
            let role = if captured_was_covered {
                captured_covered
            } else {
                Some(kind_role(captured & KIND))
            };
            if let Some(role) = role {
                let count = &mut self.captured[them.index()][role.index()];
                *count = count.saturating_add(1);
                undo.counted_role = role.index() as u8;
            }
        }
        self.zobrist = hash;
        self.board[from] = 0;
        self.board[to] = arrived;
        self.occupied[us.index()] ^= from_bit | to_bit;
        self.covered &= !(from_bit | to_bit);
        if moved & KIND == GENERAL {
            self.generals[us.index()] = to as u8;
        }
        if captured != 0 || moved & KIND == SOLDIER {
            self.halfmove_clock = 0;
        } else {
            self.halfmove_clock = self.halfmove_clock.saturating_add(1);
        }
        if us == Side::Black {
            self.fullmove_number = self.fullmove_number.saturating_add(1);
        }
        self.side_to_move = them;
        undo
    }

    /// Takes back the move `undo` came from. Moves must be taken back in reverse order.
    pub fn undo(&mut self, undo: Undo) {
        let from = undo.mv.from.index();
        let to = undo.mv.to.index();
        let from_bit = 1u128 << from;
        let to_bit = 1u128 << to;
        let them = self.side_to_move;
        let us = !them;
        self.side_to_move = us;
        self.board[from] = undo.moved;
        self.board[to] = undo.captured;
        self.occupied[us.index()] ^= from_bit | to_bit;
        if undo.captured != 0 {
            self.occupied[them.index()] |= to_bit;
        }
        if undo.moved_was_covered {
            self.covered |= from_bit;
        }
        if undo.captured_was_covered {
            self.covered |= to_bit;
        }
        if let Some(count) = self.captured[them.index()].get_mut(usize::from(undo.counted_role)) {
            *count = count.saturating_sub(1);
        }
        if undo.moved & KIND == GENERAL {
            self.generals[us.index()] = from as u8;
        }
        self.halfmove_clock = undo.halfmove_clock;
        self.fullmove_number = undo.fullmove_number;
        self.zobrist = undo.zobrist;
    }

    /// Passes the turn without moving: the side to move changes and nothing else. Not a
    /// move of any game (a pass is never legal); searches use it to ask "would the other
    /// side gain anything by moving twice?" (null-move pruning). Call it only when the side
    /// to move is not in check, and take it back with [`Position::undo_pass`].
    ///
    /// ```
    /// use jieqi_rules::{Side, position::Position};
    ///
    /// let mut pos = Position::xiangqi_start();
    /// let pass = pos.pass();
    /// assert_eq!(pos.side_to_move(), Side::Black);
    /// assert_ne!(pos.zobrist(), Position::xiangqi_start().zobrist());
    /// pos.undo_pass(pass);
    /// assert_eq!(pos, Position::xiangqi_start());
    /// ```
    pub fn pass(&mut self) -> Pass {
        let pass = Pass {
            zobrist: self.zobrist,
        };
        self.zobrist ^= ZOBRIST_BLACK_TO_MOVE;
        self.side_to_move = !self.side_to_move;
        pass
    }

    /// Takes back a [`Position::pass`].
    pub fn undo_pass(&mut self, pass: Pass) {
        self.side_to_move = !self.side_to_move;
        self.zobrist = pass.zobrist;
    }

    /// Plays a legal move, taking the true type of a covered mover or covered target from
    /// `deal`, and returns what happened with the way to take it back.
    ///
    /// ```
    /// use jieqi_rules::{Move, Piece, Role, Side, Setup, deal::Deal, position::Position};
    ///
    /// let mut pos = Position::jieqi_start();
    /// let deal = Deal::identity(&Setup::jieqi_start());
    /// let mv = Move::new("h2".parse().unwrap(), "h9".parse().unwrap());
    /// let (record, _undo) = pos.play_with_deal(mv, &deal);
    /// assert_eq!(record.reveal, Some(Role::Cannon));
    /// let captured = record.captured.unwrap();
    /// assert!(captured.was_covered);
    /// assert_eq!(captured.piece, Piece::new(Side::Black, Role::Horse));
    /// ```
    pub fn play_with_deal(&mut self, mv: Move, deal: &Deal) -> (MoveRecord, Undo) {
        let from = mv.from.index();
        let to = mv.to.index();
        let moved = self.board[from];
        let target = self.board[to];
        let mover_covered = self.is_covered_index(from);
        let target_covered = self.is_covered_index(to);
        let reveal =
            mover_covered.then(|| deal.role_at(mv.from).unwrap_or(kind_role(moved & KIND)));
        // A deal that does not know the target (it does not match the position) leaves the
        // capture as its fake type rather than uncounted.
        let captured_covered =
            target_covered.then(|| deal.role_at(mv.to).unwrap_or(kind_role(target & KIND)));
        let captured = (target != 0).then(|| CapturedPiece {
            piece: Piece::new(
                code_side(target),
                captured_covered.unwrap_or(kind_role(target & KIND)),
            ),
            was_covered: target_covered,
            square: mv.to,
        });
        let undo = self.play_unchecked(mv, reveal, captured_covered);
        let mover = Piece::new(code_side(moved), reveal.unwrap_or(kind_role(moved & KIND)));
        let record = MoveRecord {
            mv,
            mover,
            reveal,
            captured,
        };
        (record, undo)
    }

    /// The hash of the current board and side to move, from scratch.
    pub(super) fn compute_zobrist(&self) -> u64 {
        let mut hash = if self.side_to_move == Side::Black {
            ZOBRIST_BLACK_TO_MOVE
        } else {
            0
        };
        for sq in 0..Square::COUNT {
            let code = self.board[sq];
            if code != 0 {
                hash ^= ZOBRIST_PIECES[zobrist_slot(code, self.is_covered_index(sq))][sq];
            }
        }
        hash
    }
}
