//! Move ordering: captures by victim and attacker, killers, countermoves and the history of
//! quiet moves ([`History`], which also keeps the correction history of static values), the
//! cheap test of whether a move may give check, and picking the best-scored move first.

use jieqi_rules::position::MoveList;
use jieqi_rules::{Cell, Move, Role, Side, Square};

use super::*;

#[inline]
pub(super) fn history_index(mv: Move) -> usize {
    mv.from.index() * Square::COUNT + mv.to.index()
}

/// How often each side's quiet moves, by from and to square, cut off or failed (the history
/// heuristic), each score within plus or minus [`HISTORY_MAX`]. Each side keeps its own: a
/// Red and a Black move between the same two points have nothing in common. It outlives a
/// search: the next move's search starts from it, halved ([`History::aged`]), so its first
/// iterations order moves by what the last search learnt instead of from nothing. It also
/// carries the correction history (see the module documentation), kept whole.
#[derive(Clone, Debug)]
pub(crate) struct History {
    /// The quiet moves' scores, by side and by from and to square.
    pub(super) butterfly: Vec<i32>,
    /// How far searches found the static value off (correction history), in
    /// [`ERROR_GRAIN`]ths of a point, in two tables, each by side to move: by the
    /// position's structure ([`Tally::structure`]) and by its piece counts
    /// ([`Tally::material_key`]), each key by its low bits. The static value is corrected by
    /// their mean.
    pub(super) static_error: Vec<i32>,
}

/// Slots of each table of the static value's learnt errors, for each side.
pub(super) const ERROR_SLOTS: usize = 1 << 14;
/// The unit of the learnt errors, a fraction of a point, so that small steps add up.
pub(super) const ERROR_GRAIN: i32 = 16;
/// The most the static value is corrected by, in points.
pub(super) const ERROR_MAX: i32 = 300;

impl History {
    pub(crate) fn new() -> History {
        History {
            butterfly: vec![0; 2 * Square::COUNT * Square::COUNT],
            static_error: vec![0; 4 * ERROR_SLOTS],
        }
    }

    /// The history for the next move's search: what this one learnt, at half its weight.
    /// The static value's errors stay whole: they are about positions, not moves.
    pub(crate) fn aged(mut self) -> History {
        for score in &mut self.butterfly {
            *score /= 2;
        }
        self
    }

    #[inline]
    pub(super) fn index(side: Side, mv: Move) -> usize {
        side.index() * Square::COUNT * Square::COUNT + history_index(mv)
    }

    #[inline]
    pub(super) fn get(&self, side: Side, mv: Move) -> i32 {
        self.butterfly[History::index(side, mv)]
    }

    #[inline]
    pub(super) fn get_mut(&mut self, side: Side, mv: Move) -> &mut i32 {
        &mut self.butterfly[History::index(side, mv)]
    }

    /// The two slots of the static value's learnt error for a position whose side to move
    /// is `side`: by its structure, and by its piece counts.
    #[inline]
    pub(super) fn error_slots(side: Side, tally: &Tally) -> [usize; 2] {
        let slot = |table: usize, key: u64| {
            (table * 2 + side.index()) * ERROR_SLOTS + (key as usize & (ERROR_SLOTS - 1))
        };
        [slot(0, tally.structure()), slot(1, tally.material_key())]
    }
}

impl BoardSearch<'_> {
    /// The material value of what stands on `mv.to` (0 if nothing).
    pub(super) fn victim_value(&self, mv: Move) -> i32 {
        self.value_on(mv.to)
    }

    pub(super) fn value_on(&self, sq: Square) -> i32 {
        match self.pos.cell(sq) {
            Cell::Piece(p) => VALUES[p.role.index()] + self.corrections[sq.index()],
            Cell::Covered(Some(side)) => covered_values(&self.pool)[side.index()],
            _ => 0,
        }
    }

    /// Most valuable victim, then least valuable attacker; 0 for a quiet move. A capture
    /// that gives a piece for a cheaper, defended one ranks below the killers
    /// ([`BAD_CAPTURE_TIER`]): it loses material unless something else is going on.
    pub(super) fn capture_score(&self, mv: Move) -> i32 {
        if !self.pos.is_capture(mv) {
            return 0;
        }
        let victim = self.victim_value(mv);
        let attacker = self.value_on(mv.from);
        let order = victim * 16 - attacker / 16;
        let them = !self.pos.side_to_move();
        if attacker > victim + 50 && self.pos.is_attacked(mv.to, them) {
            BAD_CAPTURE_TIER + order
        } else {
            CAPTURE_TIER + order
        }
    }

    pub(super) fn is_killer(&self, mv: Move, ply: usize) -> bool {
        self.killers
            .get(ply)
            .is_some_and(|k| k[0] == Some(mv) || k[1] == Some(mv))
    }

    /// A quiet move cut off at `ply`: it becomes a killer there and the countermove of the
    /// move before it, its history rises, and the history of the quiet moves `failed` before
    /// it falls by as much.
    pub(super) fn remember_quiet(
        &mut self,
        mv: Move,
        depth: i32,
        ply: usize,
        failed: &[Option<Move>],
    ) {
        if let Some(killers) = self.killers.get_mut(ply)
            && killers[0] != Some(mv)
        {
            killers[1] = killers[0];
            killers[0] = Some(mv);
        }
        if let Some(previous) = self.path.last().and_then(|e| e.mv) {
            self.countermoves[history_index(previous)] = Some(mv);
        }
        let bonus = (depth * depth).min(400);
        self.update_history(mv, bonus);
        for &quiet in failed.iter().flatten() {
            self.update_history(quiet, -bonus);
        }
    }

    /// Moves `mv`'s history by `bonus`, less the share of it the score already holds, so that
    /// scores stay within [`HISTORY_MAX`] and recent results weigh more than old ones.
    pub(super) fn update_history(&mut self, mv: Move, bonus: i32) {
        let h = self.history.get_mut(self.pos.side_to_move(), mv);
        *h += bonus * 32 - *h * bonus.abs() / (HISTORY_MAX / 32);
    }

    /// Scores the moves of `list` for search order into `into` (cleared first): the table's
    /// move, captures, killers, then by history.
    pub(super) fn score_moves(
        &self,
        list: &MoveList,
        tt_move: Option<Move>,
        ply: usize,
        into: &mut Vec<(Move, i32)>,
    ) {
        let killers = self.killers.get(ply).copied().unwrap_or([None; 2]);
        let countermove = self
            .path
            .last()
            .and_then(|e| e.mv)
            .and_then(|previous| self.countermoves[history_index(previous)]);
        into.clear();
        into.extend(list.iter().map(|&mv| {
            let score = if Some(mv) == tt_move {
                i32::MAX
            } else if self.pos.is_capture(mv) {
                self.capture_score(mv)
            } else if Some(mv) == killers[0] {
                KILLER_FIRST
            } else if Some(mv) == killers[1] {
                KILLER_SECOND
            } else if Some(mv) == countermove {
                COUNTERMOVE
            } else {
                self.history.get(self.pos.side_to_move(), mv)
            };
            (mv, score)
        }));
    }
}

/// Whether moving a `role` by `mv` may give check to the general on `general`: making a
/// move costs more than this test, which passes every move that does (and some that do
/// not). A check along a file or rank (a chariot's, a cannon's or a soldier's, or one the
/// move screens or uncovers) needs the move to start or end on the general's lines; a
/// horse's, to end a horse's move away, or to leave the point diagonal to the general that
/// was the horse's leg; a Jieqi advisor's or elephant's, to end its step away (or to leave
/// the elephant's eye, a diagonal point too).
pub(super) fn may_give_check(role: Role, mv: Move, general: Square) -> bool {
    let offset = |sq: Square| {
        (
            (i32::from(sq.file().index()) - i32::from(general.file().index())).abs(),
            (i32::from(sq.rank().index()) - i32::from(general.rank().index())).abs(),
        )
    };
    let (from, to) = (offset(mv.from), offset(mv.to));
    let lined = |(df, dr): (i32, i32)| df == 0 || dr == 0;
    lined(from)
        || lined(to)
        || from == (1, 1)
        || match role {
            Role::Horse => to == (1, 2) || to == (2, 1),
            // Jieqi's face-up advisors and elephants roam the board.
            Role::Advisor => to == (1, 1),
            Role::Elephant => to == (2, 2),
            _ => false,
        }
}

/// Moves the highest-scored of `moves` (the first of equals) to the front, keeping the others
/// in their order, and returns it: taken one after another, the moves come out as a stable
/// sort by score would give them.
pub(super) fn pick_best(moves: &mut [(Move, i32)]) -> Move {
    let mut best = 0;
    for (i, &(_, score)) in moves.iter().enumerate().skip(1) {
        if score > moves[best].1 {
            best = i;
        }
    }
    moves[..=best].rotate_right(1);
    moves[0].0
}
