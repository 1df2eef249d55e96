//! The unseen pool: what a covered (Jieqi) or face-down (Banqi) piece may turn out to be, as
//! far as the viewer knows.
//!
//! Each side starts with one general, two each of advisor, elephant, chariot, cannon and
//! horse, and five soldiers. Whatever of that the viewer has not seen face up on the board or
//! among the captures it knows is in the pool. A covered piece captured without the viewer
//! learning its type stays in the pool: from the viewer's seat it is exactly as likely to be
//! any of those pieces as a covered piece still on the board is.

use jieqi_rules::{BySide, Cell, Role, Side, View};

/// Unseen pieces of each side, counted by [`Role::index`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pool {
    counts: BySide<[u8; 7]>,
}

impl Pool {
    /// The pool of a view: start material minus what is face up on the board minus the
    /// captures whose type the viewer knows. Never reads a deal.
    pub fn from_view(view: &View) -> Pool {
        let mut counts = BySide::new_with(|_| Role::ALL.map(Role::start_count));
        for cell in &view.cells {
            if let Cell::Piece(piece) = cell {
                let slot = &mut counts[piece.side][piece.role.index()];
                *slot = slot.saturating_sub(1);
            }
        }
        for side in Side::ALL {
            for role in &view.captured[side].known {
                let slot = &mut counts[side][role.index()];
                *slot = slot.saturating_sub(1);
            }
        }
        Pool { counts }
    }

    /// The pool at the start of a Jieqi game: each side's fifteen covered pieces.
    pub fn jieqi_start() -> Pool {
        let mut counts = BySide::new_with(|_| Role::ALL.map(Role::start_count));
        for side in Side::ALL {
            counts[side][Role::General.index()] = 0;
        }
        Pool { counts }
    }

    /// A pool with these counts (by [`Role::index`]).
    pub fn from_counts(counts: BySide<[u8; 7]>) -> Pool {
        Pool { counts }
    }

    /// How many unseen pieces of `side` are `role`.
    #[inline]
    pub fn count(&self, side: Side, role: Role) -> u8 {
        self.counts[side][role.index()]
    }

    /// All unseen pieces of `side`.
    #[inline]
    pub fn total(&self, side: Side) -> u32 {
        self.counts[side].iter().map(|&n| u32::from(n)).sum()
    }

    /// The roles `side` may still reveal, with their counts (weights of a chance node).
    pub fn outcomes(&self, side: Side) -> impl Iterator<Item = (Role, u8)> + '_ {
        Role::ALL
            .into_iter()
            .map(move |role| (role, self.count(side, role)))
            .filter(|&(_, n)| n > 0)
    }

    /// The role `side` most likely reveals next; among equally likely roles the one whose
    /// value (by `values`) is closest to the pool's average, so a stand-in is typical.
    pub fn most_likely(&self, side: Side, values: &[i32; 7]) -> Option<Role> {
        let expected = self.expected_value(side, values);
        self.outcomes(side)
            .max_by_key(|&(role, n)| (n, -(values[role.index()] - expected).abs()))
            .map(|(role, _)| role)
    }

    /// The average of `values` over `side`'s unseen pieces (0 for an empty pool).
    pub fn expected_value(&self, side: Side, values: &[i32; 7]) -> i32 {
        let total = self.total(side) as i32;
        if total == 0 {
            return 0;
        }
        let sum: i32 = Role::ALL
            .iter()
            .map(|role| i32::from(self.count(side, *role)) * values[role.index()])
            .sum();
        sum / total
    }

    /// Takes one `role` of `side` out of the pool (a reveal seen in the search).
    #[inline]
    pub fn take(&mut self, side: Side, role: Role) {
        let slot = &mut self.counts[side][role.index()];
        *slot = slot.saturating_sub(1);
    }

    /// Puts one `role` of `side` back (undoing [`Pool::take`]).
    #[inline]
    pub fn put_back(&mut self, side: Side, role: Role) {
        self.counts[side][role.index()] += 1;
    }

    /// The counts by [`Role::index`].
    pub fn counts(&self) -> &BySide<[u8; 7]> {
        &self.counts
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jieqi_rules::{CapturedTray, Piece, Variant, Viewer};

    fn jieqi_start_view() -> View {
        let setup = jieqi_rules::Setup::jieqi_start();
        View {
            variant: Variant::Jieqi,
            viewer: Viewer::Player(Side::Red),
            files: 9,
            ranks: 10,
            cells: setup.board.to_vec(),
            side_to_move: Some(Side::Red),
            captured: BySide::default(),
            last_action: None,
            check: None,
            ply: 0,
            deal: None,
            fen: String::new(),
        }
    }

    const VALUES: [i32; 7] = [0, 200, 200, 900, 450, 400, 100];

    #[test]
    fn start_pool_is_the_fifteen_covered_pieces_of_each_side() {
        let pool = Pool::from_view(&jieqi_start_view());
        for side in Side::ALL {
            assert_eq!(pool.total(side), 15);
            assert_eq!(pool.count(side, Role::General), 0);
            assert_eq!(pool.count(side, Role::Soldier), 5);
            assert_eq!(pool.most_likely(side, &VALUES), Some(Role::Soldier));
        }
    }

    #[test]
    fn face_up_and_known_captures_leave_the_pool_but_unknown_captures_stay() {
        let mut view = jieqi_start_view();
        // A revealed Red chariot on the board, a Black cannon Red captured and knows, and a
        // Red covered piece Black captured that Red never saw.
        view.cells[4 * 9 + 4] = Cell::Piece(Piece::new(Side::Red, Role::Chariot));
        view.cells[3 * 9 + 4] = Cell::Empty;
        view.captured.black = CapturedTray {
            known: vec![Role::Cannon],
            unknown: 0,
        };
        view.captured.red = CapturedTray {
            known: vec![],
            unknown: 1,
        };
        let pool = Pool::from_view(&view);
        assert_eq!(pool.count(Side::Red, Role::Chariot), 1);
        assert_eq!(pool.total(Side::Red), 14);
        assert_eq!(pool.count(Side::Black, Role::Cannon), 1);
        assert_eq!(pool.total(Side::Black), 14);
    }

    #[test]
    fn expected_value_averages_the_pool() {
        let pool = Pool::from_view(&jieqi_start_view());
        let expected = (2 * 200 + 2 * 200 + 2 * 900 + 2 * 450 + 2 * 400 + 5 * 100) / 15;
        assert_eq!(pool.expected_value(Side::Black, &VALUES), expected);
        assert_eq!(Pool::default().expected_value(Side::Red, &VALUES), 0);
    }

    #[test]
    fn take_and_put_back_restore_the_pool() {
        let mut pool = Pool::from_view(&jieqi_start_view());
        let before = pool;
        pool.take(Side::Red, Role::Horse);
        assert_eq!(pool.count(Side::Red, Role::Horse), 1);
        pool.put_back(Side::Red, Role::Horse);
        assert_eq!(pool, before);
    }
}
