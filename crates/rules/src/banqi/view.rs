//! What each party sees of a Banqi game. Nothing in Banqi is private to one player: flips
//! are public and only face-up pieces can be captured, so a player's view is the public view
//! (with its viewer set), and only the full view shows the deal.

use super::action::Action;
use super::game::BanqiGame;
use super::square::BanqiSquare;
use crate::types::{BySide, Cell, Role, Side, Variant};
use crate::view::{CapturedTray, LastAction, View, Viewer};

impl BanqiGame {
    /// What `viewer` knows of the game. Face-down squares are `Cell::Covered(None)` for
    /// everyone; a [`Viewer::Full`] view adds [`View::deal`], the piece under each face-down
    /// square (in `cells` order), and a FEN with the deal field.
    ///
    /// ```
    /// use jieqi_rules::banqi::{BanqiDeal, BanqiGame};
    /// use jieqi_rules::{Cell, Side, Viewer};
    ///
    /// let mut game = BanqiGame::new(BanqiDeal::fixed());
    /// game.play_text("a4")?;
    /// let public = game.view(Viewer::Public);
    /// assert_eq!((public.files, public.ranks), (8, 4));
    /// assert_eq!(public.cells[0], Cell::Covered(None)); // a1: face down, colour unknown
    /// assert_eq!(public.deal, None);
    /// let player = game.view(Viewer::Player(Side::Black));
    /// assert_eq!(player.cells, public.cells); // nothing in Banqi is private
    /// assert_eq!(game.view(Viewer::Full).deal.map(|d| d.len()), Some(31));
    /// # Ok::<(), jieqi_rules::banqi::BanqiError>(())
    /// ```
    pub fn view(&self, viewer: Viewer) -> View {
        let position = self.position();
        let captured = position.captured();
        let tray = |side: Side| CapturedTray {
            known: Role::ALL
                .into_iter()
                .flat_map(|role| {
                    std::iter::repeat_n(role, usize::from(captured[side][role.index()]))
                })
                .collect(),
            unknown: 0,
        };
        let last_action = self.history().last().map(|record| match record.action {
            Action::Flip(sq) => LastAction::Flip(sq.point()),
            Action::Move { from, to } => LastAction::Move {
                from: from.point(),
                to: to.point(),
            },
        });
        let deal = (viewer == Viewer::Full).then(|| {
            BanqiSquare::all()
                .filter(|sq| position.cell(*sq) == Cell::Covered(None))
                .map(|sq| (sq.point(), self.deal().piece_at(sq)))
                .collect()
        });
        View {
            variant: Variant::Banqi,
            viewer,
            files: BanqiSquare::FILES,
            ranks: BanqiSquare::RANKS,
            cells: position.cells().to_vec(),
            side_to_move: position.side_to_move(),
            captured: BySide::new_with(tray),
            last_action,
            check: None,
            ply: u32::try_from(self.ply()).unwrap_or(u32::MAX),
            deal,
            fen: self.fen(viewer),
        }
    }

    /// The FEN `viewer` may read: the public FEN for the public and both players, the full
    /// FEN (with the deal field) for [`Viewer::Full`].
    pub fn fen(&self, viewer: Viewer) -> String {
        match viewer {
            Viewer::Public | Viewer::Player(_) => self.position().to_fen(),
            Viewer::Full => self.position().to_full_fen(self.deal()),
        }
    }
}
