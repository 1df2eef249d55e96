//! What one party knows of a Xiangqi or Jieqi game, and everything made from it: views,
//! FENs and move texts.
//!
//! A [`Knowledge`] is built by [`super::board::BoardGame::knowledge`] from the public board,
//! the plies with each capture of a covered piece either named or not (as the viewer is
//! entitled), and the deal only for a viewer who knows it. Nothing here can reach the game
//! itself, so two games whose public histories agree give identical public output whatever
//! their deals: the property holds by construction, and `tests/game_props.rs` checks it.

use crate::moves::Move;
use crate::notation::{self, MoveNotation};
use crate::setup::{Setup, start_role};
use crate::types::{BySide, Cell, Piece, Role, Side, Square, Variant};
use crate::view::{CapturedTray, LastAction, Point, View, Viewer};

/// A captured piece as the viewer knows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum KnownCapture {
    /// The viewer knows what it was: a face-up piece, or a covered one it was told about.
    Known(Piece),
    /// A covered piece of this side whose type the viewer was not told.
    Unknown(Side),
}

/// One ply as the viewer saw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct KnownPly {
    /// The move.
    pub mv: Move,
    /// The piece after the move (a reveal is public, so this is always known).
    pub mover: Piece,
    /// The revealed type, if the move turned a covered piece face up.
    pub reveal: Option<Role>,
    /// What it captured, as far as the viewer knows.
    pub captured: Option<KnownCapture>,
}

/// One party's knowledge of a Xiangqi or Jieqi game.
#[derive(Clone, Debug)]
pub(crate) struct Knowledge {
    pub viewer: Viewer,
    pub variant: Variant,
    /// The position the game started from (public: its captured group is known to all).
    pub start: Setup,
    /// The board as everyone sees it: covered pieces by side only.
    pub board: [Cell; Square::COUNT],
    pub side_to_move: Side,
    pub halfmove_clock: u32,
    pub fullmove_number: u32,
    /// The point of the general in check, if any.
    pub check: Option<Square>,
    pub plies: Vec<KnownPly>,
    /// The true type of every covered piece on the board, in square order, only for a viewer
    /// who knows the deal.
    pub deal: Option<Vec<(Square, Piece)>>,
}

fn point(sq: Square) -> Point {
    Point {
        file: sq.file().index(),
        rank: sq.rank().index(),
    }
}

impl Knowledge {
    /// Captured pieces the viewer can name, counted by role.
    fn known_captures(&self) -> BySide<[u8; 7]> {
        let mut counts = self.start.captured;
        for ply in &self.plies {
            if let Some(KnownCapture::Known(p)) = ply.captured {
                counts[p.side][p.role.index()] += 1;
            }
        }
        counts
    }

    /// The position now as the viewer knows it: the captured group lists only the captures
    /// the viewer can name.
    pub(crate) fn setup(&self) -> Setup {
        Setup {
            board: self.board,
            captured: self.known_captures(),
            side_to_move: self.side_to_move,
            halfmove_clock: self.halfmove_clock,
            fullmove_number: self.fullmove_number,
        }
    }

    /// The position before ply `ply` (0-based) as the viewer knows it, replayed from the start
    /// with the viewer's own record of the plies.
    pub(crate) fn setup_before(&self, ply: usize) -> Setup {
        let mut setup = self.start.clone();
        for known in self.plies.iter().take(ply) {
            apply(&mut setup, known);
        }
        setup
    }

    /// The FEN of this knowledge; with the deal field when the viewer knows the deal of a
    /// Jieqi game.
    pub(crate) fn fen(&self) -> String {
        let setup = self.setup();
        match &self.deal {
            Some(deal) if self.variant == Variant::Jieqi => {
                // FEN reading order: rank 9 down to 0, file a to i.
                let mut in_order: Vec<&(Square, Piece)> = deal.iter().collect();
                in_order.sort_by_key(|(sq, _)| (9 - sq.rank().index(), sq.file().index()));
                let letters: String = in_order.iter().map(|(_, p)| p.char()).collect();
                notation::fen::write_full(&setup, &letters)
            }
            _ => notation::fen::write_setup(&setup),
        }
    }

    /// The text of ply `ply` (0-based) as this viewer may read it.
    pub(crate) fn move_text(&self, ply: usize, notation: MoveNotation) -> Option<String> {
        let known = self.plies.get(ply)?;
        let before = self.setup_before(ply);
        Some(notation::write_move(
            &before,
            known.mv,
            known.reveal,
            notation,
        ))
    }

    /// The view of this knowledge.
    pub(crate) fn view(&self) -> View {
        let mut captured = BySide::<CapturedTray>::default();
        for side in Side::ALL {
            for role in Role::ALL {
                let count = self.start.captured[side][role.index()];
                captured[side]
                    .known
                    .extend(std::iter::repeat_n(role, usize::from(count)));
            }
        }
        for ply in &self.plies {
            match ply.captured {
                Some(KnownCapture::Known(p)) => captured[p.side].known.push(p.role),
                Some(KnownCapture::Unknown(side)) => captured[side].unknown += 1,
                None => {}
            }
        }
        for side in Side::ALL {
            captured[side].known.sort();
        }
        View {
            variant: self.variant,
            viewer: self.viewer,
            files: 9,
            ranks: 10,
            cells: self.board.to_vec(),
            side_to_move: Some(self.side_to_move),
            captured,
            last_action: self.plies.last().map(|p| LastAction::Move {
                from: point(p.mv.from),
                to: point(p.mv.to),
            }),
            check: self.check.map(point),
            ply: u32::try_from(self.plies.len()).unwrap_or(u32::MAX),
            deal: self
                .deal
                .as_ref()
                .map(|deal| deal.iter().map(|&(sq, p)| (point(sq), p)).collect()),
            fen: self.fen(),
        }
    }
}

/// Plays a known ply on a plain setup, keeping the clocks as FEN counts them.
fn apply(setup: &mut Setup, known: &KnownPly) {
    let from = known.mv.from;
    let moved_as_soldier = match setup.cell(from) {
        Cell::Piece(p) => p.role == Role::Soldier,
        Cell::Covered(Some(side)) => start_role(side, from) == Some(Role::Soldier),
        _ => false,
    };
    if let Some(KnownCapture::Known(p)) = known.captured {
        setup.captured[p.side][p.role.index()] += 1;
    }
    setup.board[known.mv.to.index()] = Cell::Piece(known.mover);
    setup.board[from.index()] = Cell::Empty;
    setup.halfmove_clock = if known.captured.is_some() || moved_as_soldier {
        0
    } else {
        setup.halfmove_clock + 1
    };
    if setup.side_to_move == Side::Black {
        setup.fullmove_number += 1;
    }
    setup.side_to_move = !setup.side_to_move;
}
