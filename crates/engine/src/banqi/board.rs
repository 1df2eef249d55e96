//! The engine's own Banqi board, built from a [`View`]: what the searching player sees (face-up
//! pieces, face-down squares, the unseen pool), with flips it can imagine and undo.
//!
//! The rules crate's Banqi game holds a deal, which the engine must never read, so the search
//! works on this model. Whatever it proposes is checked against the legal actions the caller
//! passes in, so a difference between the two can never produce an illegal move.

use std::fmt;

use jieqi_rules::{Cell, Piece, Role, Side, View};

use crate::pool::Pool;

/// Squares of the Banqi board.
pub(crate) const SQUARES: usize = 32;
const FILES: i8 = 8;
const RANKS: i8 = 4;
const STEPS: [(i8, i8); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];

/// What stands in a Banqi square, as the engine knows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Spot {
    Empty,
    Down,
    Up(Piece),
}

/// A Banqi turn: flip a face-down piece, or move (or capture with) a face-up one. Squares are
/// indices `rank * 8 + file` as in [`View::cells`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BanqiAction {
    /// Turn the piece of this square face up.
    Flip(u8),
    /// Move a face-up piece (capturing whatever enemy stands on `to`).
    Move {
        /// Where the piece stands.
        from: u8,
        /// Where it goes.
        to: u8,
    },
}

/// The name of a Banqi square, `a1`..`h4`.
pub(crate) fn square_name(index: u8) -> String {
    let file = (b'a' + index % 8) as char;
    let rank = (b'1' + index / 8) as char;
    format!("{file}{rank}")
}

impl fmt::Display for BanqiAction {
    /// `c3` for a flip, `c3c4` for a move, as players type them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            BanqiAction::Flip(sq) => f.write_str(&square_name(sq)),
            BanqiAction::Move { from, to } => {
                write!(f, "{}{}", square_name(from), square_name(to))
            }
        }
    }
}

/// Banqi's order of rank, strongest first: General > Advisor > Elephant > Chariot > Horse >
/// Cannon > Soldier.
#[inline]
pub(crate) const fn strength(role: Role) -> u8 {
    match role {
        Role::General => 6,
        Role::Advisor => 5,
        Role::Elephant => 4,
        Role::Chariot => 3,
        Role::Horse => 2,
        Role::Cannon => 1,
        Role::Soldier => 0,
    }
}

/// Whether `attacker` may take `target` by stepping onto it (cannons take only by jumping).
#[inline]
pub(crate) const fn can_step_capture(attacker: Role, target: Role) -> bool {
    match (attacker, target) {
        (Role::Cannon, _) => false,
        (Role::Soldier, Role::General) => true,
        (Role::General, Role::Soldier) => false,
        _ => strength(target) <= strength(attacker),
    }
}

#[inline]
fn step(sq: u8, (df, dr): (i8, i8)) -> Option<u8> {
    let file = (sq % 8) as i8 + df;
    let rank = (sq / 8) as i8 + dr;
    if (0..FILES).contains(&file) && (0..RANKS).contains(&rank) {
        Some((rank * FILES + file) as u8)
    } else {
        None
    }
}

/// How to undo one action.
#[derive(Clone, Copy, Debug)]
pub(crate) enum BanqiUndo {
    Flip { square: u8, piece: Piece },
    Move { from: u8, to: u8, captured: Spot },
    Pass,
}

/// A Banqi position as one player sees it.
#[derive(Clone, Debug)]
pub(crate) struct BanqiBoard {
    pub spots: [Spot; SQUARES],
    pub to_move: Side,
    /// Pieces still face down, by side: what a flip may show.
    pub pool: Pool,
}

impl BanqiBoard {
    /// The board of a Banqi view; `None` if the view has no side to move yet (before the
    /// first flip colours are not assigned) or is not a Banqi board.
    pub fn from_view(view: &View) -> Option<BanqiBoard> {
        let to_move = view.side_to_move?;
        if view.cells.len() != SQUARES {
            return None;
        }
        let mut spots = [Spot::Empty; SQUARES];
        for (spot, cell) in spots.iter_mut().zip(&view.cells) {
            *spot = match cell {
                Cell::Empty => Spot::Empty,
                Cell::Covered(_) => Spot::Down,
                Cell::Piece(p) => Spot::Up(*p),
            };
        }
        Some(BanqiBoard {
            spots,
            to_move,
            pool: Pool::from_view(view),
        })
    }

    /// Every action of the side to move: captures first, then moves, then (if `flips`)
    /// flips. Appends to `out`.
    pub fn actions(&self, out: &mut Vec<BanqiAction>, flips: bool) {
        self.captures(out);
        for from in 0..SQUARES as u8 {
            let Spot::Up(piece) = self.spots[usize::from(from)] else {
                continue;
            };
            if piece.side != self.to_move {
                continue;
            }
            for dir in STEPS {
                if let Some(to) = step(from, dir)
                    && self.spots[usize::from(to)] == Spot::Empty
                {
                    out.push(BanqiAction::Move { from, to });
                }
            }
        }
        if flips {
            for sq in 0..SQUARES as u8 {
                if self.spots[usize::from(sq)] == Spot::Down {
                    out.push(BanqiAction::Flip(sq));
                }
            }
        }
    }

    /// Captures of the side to move. Appends to `out`.
    pub fn captures(&self, out: &mut Vec<BanqiAction>) {
        for from in 0..SQUARES as u8 {
            let Spot::Up(piece) = self.spots[usize::from(from)] else {
                continue;
            };
            if piece.side != self.to_move {
                continue;
            }
            for dir in STEPS {
                if piece.role == Role::Cannon {
                    if let Some(to) = self.cannon_target(from, dir) {
                        out.push(BanqiAction::Move { from, to });
                    }
                } else if let Some(to) = step(from, dir)
                    && let Spot::Up(target) = self.spots[usize::from(to)]
                    && target.side != piece.side
                    && can_step_capture(piece.role, target.role)
                {
                    out.push(BanqiAction::Move { from, to });
                }
            }
        }
    }

    /// The enemy a cannon on `from` can take in direction `dir`: over exactly one screen, the
    /// first piece beyond it, if that is a face-up enemy.
    fn cannon_target(&self, from: u8, dir: (i8, i8)) -> Option<u8> {
        let Spot::Up(cannon) = self.spots[usize::from(from)] else {
            return None;
        };
        let mut sq = from;
        let mut screened = false;
        while let Some(next) = step(sq, dir) {
            sq = next;
            match self.spots[usize::from(sq)] {
                Spot::Empty => continue,
                _ if !screened => screened = true,
                Spot::Up(target) if target.side != cannon.side => return Some(sq),
                _ => return None,
            }
        }
        None
    }

    /// A hash of the board and the side to move (what Banqi's repetition rule compares).
    pub fn key(&self) -> u64 {
        let start = 0xcbf2_9ce4_8422_2325u64 ^ (self.to_move.index() as u64 + 1);
        self.spots.iter().fold(start, |h, spot| {
            let code = match spot {
                Spot::Empty => 0u64,
                Spot::Down => 1,
                Spot::Up(p) => 2 + p.side.index() as u64 * 7 + p.role.index() as u64,
            };
            (h ^ code).wrapping_mul(0x0000_0100_0000_01b3)
        })
    }

    /// Whether any face-down piece is left.
    pub fn has_face_down(&self) -> bool {
        self.spots.contains(&Spot::Down)
    }

    /// Plays a move or capture.
    pub fn play_move(&mut self, from: u8, to: u8) -> BanqiUndo {
        let captured = self.spots[usize::from(to)];
        self.spots[usize::from(to)] = self.spots[usize::from(from)];
        self.spots[usize::from(from)] = Spot::Empty;
        self.to_move = !self.to_move;
        BanqiUndo::Move { from, to, captured }
    }

    /// Turns the piece on `square` up as `piece` (one outcome of a flip).
    pub fn play_flip(&mut self, square: u8, piece: Piece) -> BanqiUndo {
        self.spots[usize::from(square)] = Spot::Up(piece);
        self.pool.take(piece.side, piece.role);
        self.to_move = !self.to_move;
        BanqiUndo::Flip { square, piece }
    }

    /// Hands the turn over without changing the board: stands for "flip something" beyond the
    /// search's chance horizon (see the search's module doc).
    pub fn pass(&mut self) -> BanqiUndo {
        self.to_move = !self.to_move;
        BanqiUndo::Pass
    }

    pub fn undo(&mut self, undo: BanqiUndo) {
        self.to_move = !self.to_move;
        match undo {
            BanqiUndo::Flip { square, piece } => {
                self.spots[usize::from(square)] = Spot::Down;
                self.pool.put_back(piece.side, piece.role);
            }
            BanqiUndo::Move { from, to, captured } => {
                self.spots[usize::from(from)] = self.spots[usize::from(to)];
                self.spots[usize::from(to)] = captured;
            }
            BanqiUndo::Pass => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(pieces: &[(&str, Spot)], to_move: Side) -> BanqiBoard {
        let mut spots = [Spot::Empty; SQUARES];
        for (name, spot) in pieces {
            let bytes = name.as_bytes();
            let index = (bytes[1] - b'1') * 8 + (bytes[0] - b'a');
            spots[usize::from(index)] = *spot;
        }
        BanqiBoard {
            spots,
            to_move,
            pool: Pool::default(),
        }
    }

    fn up(side: Side, role: Role) -> Spot {
        Spot::Up(Piece::new(side, role))
    }

    fn texts(board: &BanqiBoard, flips: bool) -> Vec<String> {
        let mut out = Vec::new();
        board.actions(&mut out, flips);
        let mut texts: Vec<String> = out.iter().map(ToString::to_string).collect();
        texts.sort();
        texts
    }

    #[test]
    fn soldier_takes_general_but_general_cannot_take_soldier() {
        let b = board(
            &[
                ("a1", up(Side::Red, Role::Soldier)),
                ("a2", up(Side::Black, Role::General)),
            ],
            Side::Red,
        );
        assert_eq!(texts(&b, true), ["a1a2", "a1b1"]);
        let b = BanqiBoard {
            to_move: Side::Black,
            ..b
        };
        assert_eq!(texts(&b, true), ["a2a3", "a2b2"]);
    }

    #[test]
    fn cannon_jumps_exactly_one_screen_and_never_takes_adjacent() {
        let b = board(
            &[
                ("a1", up(Side::Red, Role::Cannon)),
                ("b1", up(Side::Black, Role::Soldier)),
                ("c1", Spot::Down),
                ("e1", up(Side::Black, Role::General)),
                ("a3", up(Side::Black, Role::Chariot)),
            ],
            Side::Red,
        );
        // Rightwards b1 screens and the face-down c1 blocks; upwards a3 is the first piece,
        // a screen with nothing beyond it. Only the step to a2 is left.
        assert_eq!(texts(&b, false), ["a1a2"]);
        let b = board(
            &[
                ("a1", up(Side::Red, Role::Cannon)),
                ("c1", Spot::Down),
                ("e1", up(Side::Black, Role::General)),
                ("a2", up(Side::Red, Role::Soldier)),
                ("a4", up(Side::Black, Role::Soldier)),
            ],
            Side::Red,
        );
        let t = texts(&b, false);
        assert!(t.contains(&"a1e1".to_owned()), "{t:?}");
        assert!(t.contains(&"a1a4".to_owned()), "{t:?}");
    }

    #[test]
    fn rank_decides_step_captures() {
        assert!(can_step_capture(Role::Chariot, Role::Horse));
        assert!(can_step_capture(Role::Chariot, Role::Chariot));
        assert!(!can_step_capture(Role::Horse, Role::Chariot));
        assert!(!can_step_capture(Role::Soldier, Role::Cannon));
        assert!(can_step_capture(Role::Horse, Role::Cannon));
        assert!(!can_step_capture(Role::Cannon, Role::Soldier));
    }

    #[test]
    fn flip_and_move_undo_restore_the_board() {
        let mut b = board(
            &[("a1", up(Side::Red, Role::Horse)), ("b1", Spot::Down)],
            Side::Red,
        );
        b.pool = Pool::from_counts(jieqi_rules::BySide {
            red: [0, 0, 0, 0, 0, 0, 1],
            black: [0; 7],
        });
        let before = b.clone();
        let u1 = b.play_flip(1, Piece::new(Side::Red, Role::Soldier));
        let u2 = b.play_move(0, 8);
        b.undo(u2);
        b.undo(u1);
        assert_eq!(b.spots, before.spots);
        assert_eq!(b.pool, before.pool);
        assert_eq!(b.to_move, before.to_move);
    }
}
