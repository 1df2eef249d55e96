//! Which actions the rules allow, and why one is refused. Legality depends only on the public
//! position (a flip is legal whatever it will reveal), so nothing here reads the deal.

use std::ops::ControlFlow;

use super::action::Action;
use super::error::BanqiError;
use super::position::BanqiPosition;
use super::square::{BanqiSquare, DIRECTIONS};
use crate::types::{Cell, Piece, Role, Side};

/// A role's place on the Banqi rank ladder, as a target: general 6, advisor 5, elephant 4,
/// chariot 3, horse 2, cannon 1, soldier 0.
///
/// ```
/// use jieqi_rules::banqi::ladder_rank;
/// use jieqi_rules::Role;
///
/// assert!(ladder_rank(Role::Horse) > ladder_rank(Role::Cannon));
/// ```
pub const fn ladder_rank(role: Role) -> u8 {
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

/// Whether a face-up piece of role `attacker` may capture an adjacent face-up enemy of role
/// `target` by stepping onto it: own rank or lower, except that a soldier takes the general,
/// the general cannot take soldiers, and a soldier cannot take a cannon. A cannon never
/// captures by stepping (it jumps: see [`BanqiPosition::legal_actions`]).
///
/// ```
/// use jieqi_rules::banqi::captures_by_rank;
/// use jieqi_rules::Role::*;
///
/// assert!(captures_by_rank(Soldier, General));
/// assert!(!captures_by_rank(General, Soldier));
/// assert!(!captures_by_rank(Soldier, Cannon));
/// assert!(captures_by_rank(Horse, Cannon));
/// assert!(!captures_by_rank(Cannon, Soldier));
/// ```
pub const fn captures_by_rank(attacker: Role, target: Role) -> bool {
    match (attacker, target) {
        (Role::Cannon, _) => false,
        (Role::Soldier, target) => matches!(target, Role::Soldier | Role::General),
        (Role::General, Role::Soldier) => false,
        (attacker, target) => ladder_rank(attacker) >= ladder_rank(target),
    }
}

impl BanqiPosition {
    /// Every legal action, sorted (flips by square, then moves by from and to square in
    /// [`BanqiSquare::index`] order). Before the first flip only flips are legal.
    ///
    /// ```
    /// use jieqi_rules::banqi::BanqiPosition;
    ///
    /// // Red: a cannon on c2; a face-down piece on d2; a Black soldier on e2.
    /// let fen = "8/8/2C?p3/8[K1A2E2R2C1H2P5k1a2e2r2c2h2p3] w 0 20";
    /// let position = BanqiPosition::from_fen(fen)?;
    /// let actions: Vec<String> = position.legal_actions().iter().map(|a| a.to_string()).collect();
    /// assert_eq!(actions, ["d2", "c2c1", "c2b2", "c2e2", "c2c3"]); // c2e2 jumps over d2
    /// # Ok::<(), jieqi_rules::banqi::BanqiFenError>(())
    /// ```
    pub fn legal_actions(&self) -> Vec<Action> {
        let mut actions = Vec::with_capacity(48);
        self.legal_actions_into(&mut actions);
        actions.sort_unstable();
        actions
    }

    /// Every legal action, unsorted, into `out` (cleared first): the allocation-free form for
    /// search and perft.
    pub fn legal_actions_into(&self, out: &mut Vec<Action>) {
        out.clear();
        let _ = self.visit_actions(|action| {
            out.push(action);
            ControlFlow::<()>::Continue(())
        });
    }

    /// How many legal actions there are.
    pub fn count_legal_actions(&self) -> usize {
        let mut count = 0;
        let _ = self.visit_actions(|_| {
            count += 1;
            ControlFlow::<()>::Continue(())
        });
        count
    }

    /// Whether the side to move has any legal action (if not, it has lost).
    pub fn has_legal_action(&self) -> bool {
        self.visit_actions(|_| ControlFlow::Break(())).is_break()
    }

    /// Calls `visit` with every legal action in square order, stopping when it breaks.
    fn visit_actions<B>(&self, mut visit: impl FnMut(Action) -> ControlFlow<B>) -> ControlFlow<B> {
        let mover = self.side_to_move();
        for from in BanqiSquare::all() {
            match self.cell(from) {
                Cell::Covered(_) => visit(Action::Flip(from))?,
                Cell::Piece(piece) if Some(piece.side) == mover => {
                    for (df, dr) in DIRECTIONS {
                        let Some(next) = from.offset(df, dr) else {
                            continue;
                        };
                        match self.cell(next) {
                            Cell::Empty => visit(Action::Move { from, to: next })?,
                            Cell::Piece(target)
                                if target.side != piece.side
                                    && captures_by_rank(piece.role, target.role) =>
                            {
                                visit(Action::Move { from, to: next })?
                            }
                            _ => {}
                        }
                        if piece.role == Role::Cannon
                            && let Some(to) = self.cannon_target(from, (df, dr), piece.side)
                        {
                            visit(Action::Move { from, to })?;
                        }
                    }
                }
                _ => {}
            }
        }
        ControlFlow::Continue(())
    }

    /// The square a cannon of `side` on `from` captures on looking along `direction`: the
    /// first piece beyond the first piece (the screen), if it is a face-up enemy.
    fn cannon_target(
        &self,
        from: BanqiSquare,
        direction: (i8, i8),
        side: Side,
    ) -> Option<BanqiSquare> {
        let mut square = from;
        let mut screened = false;
        while let Some(next) = square.offset(direction.0, direction.1) {
            square = next;
            match self.cell(square) {
                Cell::Empty => {}
                _ if !screened => screened = true,
                Cell::Piece(target) if target.side != side => return Some(square),
                _ => return None,
            }
        }
        None
    }

    /// Whether `action` is legal now.
    pub fn is_legal(&self, action: Action) -> bool {
        self.why_illegal(action).is_none()
    }

    /// Why `action` is not legal now, or `None` when it is. The reasons are sentences for the
    /// player ("c3 is face down: flip it first", "your soldier cannot capture a cannon: ...").
    ///
    /// ```
    /// use jieqi_rules::banqi::{BanqiError, BanqiPosition};
    ///
    /// let position = BanqiPosition::start();
    /// let why = position.why_illegal("c3c4".parse()?);
    /// assert_eq!(why, Some(BanqiError::FlipFirst));
    /// # Ok::<(), BanqiError>(())
    /// ```
    pub fn why_illegal(&self, action: Action) -> Option<BanqiError> {
        match action {
            Action::Flip(sq) => match self.cell(sq) {
                Cell::Covered(_) => None,
                Cell::Empty => Some(BanqiError::FlipEmpty(sq)),
                Cell::Piece(_) => Some(BanqiError::AlreadyFaceUp(sq)),
            },
            Action::Move { from, to } => self.why_move_illegal(from, to).err(),
        }
    }

    fn why_move_illegal(&self, from: BanqiSquare, to: BanqiSquare) -> Result<(), BanqiError> {
        let mover = self.side_to_move().ok_or(BanqiError::FlipFirst)?;
        let piece = match self.cell(from) {
            Cell::Empty => return Err(BanqiError::NoPiece(from)),
            Cell::Covered(_) => return Err(BanqiError::FaceDown(from)),
            Cell::Piece(piece) if piece.side != mover => {
                return Err(BanqiError::NotYourPiece {
                    square: from,
                    piece,
                });
            }
            Cell::Piece(piece) => piece,
        };
        if from == to {
            return Err(BanqiError::SameSquare(from));
        }
        let target = self.cell(to);
        if from.is_next_to(to) {
            if target == Cell::Empty {
                return Ok(());
            }
            let victim = Self::victim(piece, to, target)?;
            return if piece.role == Role::Cannon {
                Err(BanqiError::CannonAdjacent)
            } else if captures_by_rank(piece.role, victim.role) {
                Ok(())
            } else {
                Err(BanqiError::Outranked {
                    attacker: piece.role,
                    target: victim.role,
                })
            };
        }
        if piece.role != Role::Cannon {
            return Err(BanqiError::NotAStep {
                role: piece.role,
                from,
                to,
            });
        }
        let between = from
            .between(to)
            .ok_or(BanqiError::CannonOffLine { from, to })?;
        if target == Cell::Empty {
            return Err(BanqiError::CannonLongMove(to));
        }
        Self::victim(piece, to, target)?;
        let screens = between.filter(|sq| self.cell(*sq) != Cell::Empty).count();
        if screens != 1 {
            return Err(BanqiError::CannonScreens {
                from,
                to,
                count: screens as u8,
            });
        }
        Ok(())
    }

    /// The enemy a capture on `to` would take, or why there is none to take.
    fn victim(piece: Piece, to: BanqiSquare, target: Cell) -> Result<Piece, BanqiError> {
        match target {
            Cell::Piece(victim) if victim.side != piece.side => Ok(victim),
            Cell::Piece(_) => Err(BanqiError::CaptureOwn(to)),
            Cell::Covered(_) => Err(BanqiError::CaptureFaceDown(to)),
            Cell::Empty => Err(BanqiError::NoPiece(to)),
        }
    }
}
