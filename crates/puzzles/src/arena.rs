//! The board the verifier searches: one trait, [`Arena`], over a Xiangqi/Jieqi position and a
//! Banqi position, so that the AND-OR search of `verify` is written once.
//!
//! What makes it fit hidden information: a move that turns a covered piece face up does not
//! have one result but several, one per type the piece could be ([`Branch`]). The arena
//! lists them from the pool of pieces the solver has not seen, and the search treats the
//! choice between them as the adversary's. The arena keeps that pool up to date along the
//! line, so a reveal can never produce a piece that an earlier reveal used up.

use jieqi_rules::banqi::{Action, BanqiDeal, BanqiPosition, BanqiUndo};
use jieqi_rules::deal::Deal;
use jieqi_rules::position::{MoveList, MoveOptions, Position, Undo};
use jieqi_rules::setup::start_role;
use jieqi_rules::{BySide, Cell, Move, Piece, Role, Setup, Side, Square, Variant};

/// Material values of Xiangqi and Jieqi pieces for the puzzles' accounting, in half soldiers.
pub const fn board_value(role: Role) -> i32 {
    match role {
        Role::General => 0,
        Role::Advisor | Role::Elephant => 4,
        Role::Chariot => 18,
        Role::Cannon => 9,
        Role::Horse => 8,
        Role::Soldier => 2,
    }
}

/// Material values of Banqi pieces (rank matters more there, the cannon jumps), in the same
/// unit.
pub const fn banqi_value(role: Role) -> i32 {
    match role {
        Role::General => 12,
        Role::Advisor => 9,
        Role::Elephant => 7,
        Role::Chariot => 5,
        Role::Cannon => 6,
        Role::Horse => 4,
        Role::Soldier => 2,
    }
}

/// One possible result of a move: what a moved covered piece turns out to be, what a captured
/// covered piece was (when the capturer learns it), and the material the move takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Branch {
    /// The type the moved piece shows, if the move turns it face up.
    pub reveal: Option<Piece>,
    /// The type of a captured covered piece, if the capturer is the solver (who learns it).
    pub taken: Option<Piece>,
    /// The value of the piece captured (0 for none), from the pessimistic side for the solver
    /// where the solver cannot know it.
    pub value: i32,
}

/// A move played as it really happened (under the puzzle's deal).
#[derive(Debug)]
pub struct Played<U> {
    /// Its record text, reveal included (`b9c7c`, `c3=R`).
    pub text: String,
    /// How to take it back.
    pub undo: U,
    /// The material it took, as the solver counts it.
    pub value: i32,
}

/// A position the verifier can search.
pub trait Arena {
    /// A move of this game.
    type Move: Copy + Eq + std::fmt::Debug;
    /// What `play` returns to undo the move.
    type Undo;

    /// Whose turn it is.
    fn side_to_move(&self) -> Side;
    /// The legal moves, captures of the most valuable piece first.
    fn moves(&self, out: &mut Vec<Self::Move>);
    /// Whether `mv` captures.
    fn is_capture(&self, mv: Self::Move) -> bool;
    /// The possible results of `mv` (at least one), seen by `solver`.
    fn branches(&self, mv: Self::Move, solver: Side, out: &mut Vec<Branch>);
    /// Plays `mv` with the result `branch`.
    fn play(&mut self, mv: Self::Move, branch: &Branch) -> Self::Undo;
    /// Takes back the last move.
    fn undo(&mut self, undo: Self::Undo);
    /// Whether the side to move has any legal move (no move loses, in all three games).
    fn has_moves(&self) -> bool;
    /// Whether the side to move is in check (never in Banqi).
    fn in_check(&self) -> bool;
    /// The move's text without any reveal (what a player types).
    fn move_text(&self, mv: Self::Move) -> String;
    /// Whether `mv` moves or takes a covered or face-down piece (or flips one).
    fn touches_hidden(&self, mv: Self::Move) -> bool;
}

fn role_values_seen(counts: &[u8; 7], value: fn(Role) -> i32) -> Option<i32> {
    Role::ALL
        .into_iter()
        .filter(|r| counts[r.index()] > 0)
        .map(value)
        .max()
}

/// A Xiangqi or Jieqi position with the pool of pieces the solver has not seen.
#[derive(Clone, Debug)]
pub struct BoardArena {
    pos: Position,
    pool: BySide<[u8; 7]>,
}

/// Undo information of [`BoardArena::play`].
#[derive(Clone, Copy, Debug)]
pub struct BoardUndo {
    undo: Undo,
    reveal: Option<Piece>,
    taken: Option<Piece>,
}

impl BoardArena {
    /// The arena of a solver's view `setup`. The pool is what the view has not accounted for:
    /// an army minus the face-up pieces and the captured pieces the view names.
    pub fn new(setup: &Setup, variant: Variant) -> Result<BoardArena, String> {
        let pos = Position::from_setup(setup.clone(), variant, MoveOptions::default())
            .map_err(|e| e.to_string())?;
        let mut pool = BySide::<[u8; 7]>::default();
        for side in Side::ALL {
            for role in Role::ALL {
                if role != Role::General {
                    pool.get_mut(side)[role.index()] = role.start_count();
                }
            }
            for role in Role::ALL {
                let n = setup.captured.get(side)[role.index()];
                let slot = &mut pool.get_mut(side)[role.index()];
                *slot = slot.saturating_sub(n);
            }
        }
        for sq in Square::all() {
            if let Cell::Piece(p) = setup.cell(sq) {
                let slot = &mut pool.get_mut(p.side)[p.role.index()];
                *slot = slot.saturating_sub(1);
            }
        }
        Ok(BoardArena { pos, pool })
    }

    /// The position.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// Plays `mv` as it really happens under `deal`; `solver` decides whether a captured
    /// covered piece becomes known (only to its capturer). Returns the record text
    /// (`b9c7c`), the undo and the material taken as the solver counts it.
    pub fn play_real(&mut self, mv: Move, deal: &Deal, solver: Side) -> Played<BoardUndo> {
        let mover = self.pos.side_to_move();
        let value = match self.pos.cell(mv.to) {
            Cell::Empty => 0,
            Cell::Piece(p) => board_value(p.role),
            Cell::Covered(Some(side)) if mover == solver => deal
                .role_at(mv.to)
                .map_or_else(|| self.covered_value_max(side, mv.to), board_value),
            Cell::Covered(side) => self.covered_value_max(side.unwrap_or(!mover), mv.to),
        };
        let reveal = match self.pos.cell(mv.from) {
            Cell::Covered(_) => deal.role_at(mv.from).map(|r| Piece::new(mover, r)),
            _ => None,
        };
        let taken = match self.pos.cell(mv.to) {
            Cell::Covered(Some(side)) if mover == solver => {
                deal.role_at(mv.to).map(|r| Piece::new(side, r))
            }
            _ => None,
        };
        let text = jieqi_rules::notation::uci::write(mv, reveal.map(|p| p.role));
        let undo = self.play(
            mv,
            &Branch {
                reveal,
                taken,
                value,
            },
        );
        Played { text, undo, value }
    }

    /// The value to the solver's opponent of capturing the covered piece on `sq`.
    fn covered_value_max(&self, side: Side, sq: Square) -> i32 {
        role_values_seen(self.pool.get(side), board_value)
            .or_else(|| start_role(side, sq).map(board_value))
            .unwrap_or(0)
    }
}

fn roles_in(pool: &[u8; 7]) -> impl Iterator<Item = Role> + '_ {
    Role::ALL
        .into_iter()
        .filter(|r| *r != Role::General && pool[r.index()] > 0)
}

impl Arena for BoardArena {
    type Move = Move;
    type Undo = BoardUndo;

    fn side_to_move(&self) -> Side {
        self.pos.side_to_move()
    }

    fn moves(&self, out: &mut Vec<Move>) {
        let mut list = MoveList::new();
        self.pos.legal_moves(&mut list);
        out.clear();
        out.extend(list.iter().copied());
        out.sort_by_key(|mv| match self.pos.cell(mv.to) {
            Cell::Piece(p) => -board_value(p.role) - 1,
            Cell::Covered(_) => -3,
            Cell::Empty => 0,
        });
    }

    fn is_capture(&self, mv: Move) -> bool {
        self.pos.is_capture(mv)
    }

    fn branches(&self, mv: Move, solver: Side, out: &mut Vec<Branch>) {
        out.clear();
        let mover = self.pos.side_to_move();
        let reveals: Vec<Option<Piece>> = match self.pos.cell(mv.from) {
            Cell::Covered(_) => {
                let roles: Vec<Option<Piece>> = roles_in(self.pool.get(mover))
                    .map(|r| Some(Piece::new(mover, r)))
                    .collect();
                if roles.is_empty() { vec![None] } else { roles }
            }
            _ => vec![None],
        };
        let takes: Vec<(Option<Piece>, i32)> = match self.pos.cell(mv.to) {
            Cell::Empty => vec![(None, 0)],
            Cell::Piece(p) => vec![(None, board_value(p.role))],
            Cell::Covered(Some(side)) if mover == solver => {
                let roles: Vec<(Option<Piece>, i32)> = roles_in(self.pool.get(side))
                    .map(|r| (Some(Piece::new(side, r)), board_value(r)))
                    .collect();
                if roles.is_empty() {
                    vec![(None, self.covered_value_max(side, mv.to))]
                } else {
                    roles
                }
            }
            // The solver never learns what the opponent took: no branch (the solver's plan
            // cannot depend on it), valued at the worst the pool allows.
            Cell::Covered(side) => {
                vec![(None, self.covered_value_max(side.unwrap_or(!mover), mv.to))]
            }
        };
        for &reveal in &reveals {
            for &(taken, value) in &takes {
                out.push(Branch {
                    reveal,
                    taken,
                    value,
                });
            }
        }
    }

    fn play(&mut self, mv: Move, branch: &Branch) -> BoardUndo {
        for p in [branch.reveal, branch.taken].into_iter().flatten() {
            let slot = &mut self.pool.get_mut(p.side)[p.role.index()];
            *slot = slot.saturating_sub(1);
        }
        let undo = self.pos.play_unchecked(
            mv,
            branch.reveal.map(|p| p.role),
            branch.taken.map(|p| p.role),
        );
        BoardUndo {
            undo,
            reveal: branch.reveal,
            taken: branch.taken,
        }
    }

    fn undo(&mut self, undo: BoardUndo) {
        self.pos.undo(undo.undo);
        for p in [undo.reveal, undo.taken].into_iter().flatten() {
            self.pool.get_mut(p.side)[p.role.index()] += 1;
        }
    }

    fn has_moves(&self) -> bool {
        let mut list = MoveList::new();
        self.pos.legal_moves(&mut list);
        !list.is_empty()
    }

    fn in_check(&self) -> bool {
        self.pos.is_check()
    }

    fn move_text(&self, mv: Move) -> String {
        mv.to_string()
    }

    fn touches_hidden(&self, mv: Move) -> bool {
        matches!(self.pos.cell(mv.from), Cell::Covered(_))
            || matches!(self.pos.cell(mv.to), Cell::Covered(_))
    }
}

/// A Banqi position. Every face-down piece is unknown to both players alike, so the pool is
/// simply what the position has not shown.
#[derive(Clone, Debug)]
pub struct BanqiArena {
    pos: BanqiPosition,
    /// Any deal: moves never look at it; flips are played by rebuilding the position.
    filler: BanqiDeal,
}

/// Undo information of [`BanqiArena::play`].
#[derive(Clone, Debug)]
pub enum BanqiArenaUndo {
    /// A move or capture.
    Move(BanqiUndo),
    /// A flip: the position before it.
    Flip(Box<BanqiPosition>),
}

impl BanqiArena {
    /// The arena of `pos`. Fails before the first flip (no side to move yet).
    pub fn new(pos: BanqiPosition) -> Result<BanqiArena, String> {
        if pos.side_to_move().is_none() {
            return Err("the puzzle starts before the first flip".to_owned());
        }
        Ok(BanqiArena {
            pos,
            filler: BanqiDeal::fixed(),
        })
    }

    /// The position.
    pub fn position(&self) -> &BanqiPosition {
        &self.pos
    }

    /// Plays `action` as it really happens under `deal`; returns the record text (`c3=R`),
    /// the undo and the material taken.
    pub fn play_real(&mut self, action: Action, deal: &BanqiDeal) -> Played<BanqiArenaUndo> {
        let value = self.victim(action).map_or(0, |p| banqi_value(p.role));
        let reveal = match action {
            Action::Flip(sq) => Some(deal.piece_at(sq)),
            Action::Move { .. } => None,
        };
        let text = match reveal {
            Some(p) => format!("{action}={}", p.char()),
            None => action.to_string(),
        };
        let undo = self.play(
            action,
            &Branch {
                reveal,
                taken: None,
                value,
            },
        );
        Played { text, undo, value }
    }

    fn victim(&self, action: Action) -> Option<Piece> {
        match action {
            Action::Move { to, .. } => match self.pos.cell(to) {
                Cell::Piece(p) => Some(p),
                _ => None,
            },
            Action::Flip(_) => None,
        }
    }
}

impl Arena for BanqiArena {
    type Move = Action;
    type Undo = BanqiArenaUndo;

    fn side_to_move(&self) -> Side {
        self.pos.side_to_move().unwrap_or(Side::Red)
    }

    fn moves(&self, out: &mut Vec<Action>) {
        self.pos.legal_actions_into(out);
        out.sort_by_key(|a| (-self.victim(*a).map_or(0, |p| banqi_value(p.role) + 1), *a));
    }

    fn is_capture(&self, mv: Action) -> bool {
        self.victim(mv).is_some()
    }

    fn branches(&self, mv: Action, _solver: Side, out: &mut Vec<Branch>) {
        out.clear();
        match mv {
            Action::Flip(_) => {
                let unseen = self.pos.unseen();
                for side in Side::ALL {
                    for role in Role::ALL {
                        if unseen[side][role.index()] > 0 {
                            out.push(Branch {
                                reveal: Some(Piece::new(side, role)),
                                taken: None,
                                value: 0,
                            });
                        }
                    }
                }
            }
            Action::Move { .. } => out.push(Branch {
                reveal: None,
                taken: None,
                value: self.victim(mv).map_or(0, |p| banqi_value(p.role)),
            }),
        }
    }

    fn play(&mut self, mv: Action, branch: &Branch) -> BanqiArenaUndo {
        match (mv, branch.reveal) {
            (Action::Flip(sq), Some(piece)) => {
                let before = self.pos.clone();
                let mut cells = *self.pos.cells();
                cells[sq.index()] = Cell::Piece(piece);
                let mover = self.side_to_move();
                let fullmove = self.pos.fullmove_number() + u32::from(mover == Side::Black);
                if let Ok(next) =
                    BanqiPosition::new(cells, self.pos.captured(), Some(!mover), 0, fullmove)
                {
                    self.pos = next;
                }
                BanqiArenaUndo::Flip(Box::new(before))
            }
            _ => {
                let (_, undo) = self.pos.play_unchecked(mv, &self.filler);
                BanqiArenaUndo::Move(undo)
            }
        }
    }

    fn undo(&mut self, undo: BanqiArenaUndo) {
        match undo {
            BanqiArenaUndo::Move(undo) => self.pos.undo(undo),
            BanqiArenaUndo::Flip(before) => self.pos = *before,
        }
    }

    fn has_moves(&self) -> bool {
        self.pos.has_legal_action()
    }

    fn in_check(&self) -> bool {
        false
    }

    fn move_text(&self, mv: Action) -> String {
        mv.to_string()
    }

    fn touches_hidden(&self, mv: Action) -> bool {
        matches!(mv, Action::Flip(_))
    }
}
