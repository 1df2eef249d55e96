//! Why a move is illegal, in words a player can act on.

use thiserror::Error;

use crate::moves::Move;
use crate::types::{Role, Side, Square};

use super::Position;
use super::board::{
    ADVISOR, CANNON, CHARIOT, ELEPHANT, ELEPHANT_FREE, GENERAL, HORSE, KIND, SOLDIER, code_side,
    kind_role, side_bit,
};
use super::legality::generals_face_on;
use super::movelist::SQUARES;

/// Why a move is illegal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Error)]
pub enum IllegalMove {
    /// The from and to points are the same.
    #[error("a move must go to another point: {square} to {square} stays in place")]
    StaysInPlace {
        /// The point.
        square: Square,
    },
    /// Nothing stands on the from point.
    #[error("there is no piece on {square}")]
    NoPiece {
        /// The from point.
        square: Square,
    },
    /// The piece belongs to the side not to move.
    #[error("the piece on {square} is {owner}'s: move one of your own pieces")]
    NotYourPiece {
        /// The from point.
        square: Square,
        /// Whose piece it is.
        owner: Side,
    },
    /// The target holds a piece of the mover's side.
    #[error("you cannot capture your own piece on {square}")]
    CaptureOwnPiece {
        /// The target point.
        square: Square,
    },
    /// The piece does not move that way at all.
    #[error("{} cannot move from {from} to {to}", describe(*role, *covered))]
    CannotMoveLikeThat {
        /// How the piece moves (its fake type if covered).
        role: Role,
        /// Whether it is a covered piece moving as the type of its point.
        covered: bool,
        /// The from point.
        from: Square,
        /// The target point.
        to: Square,
    },
    /// A horse whose leg (the point next to it in the long direction) is occupied.
    #[error("the horse's leg is blocked by the piece on {leg}")]
    HorseLegBlocked {
        /// The leg point.
        leg: Square,
    },
    /// An elephant whose eye (the point between) is occupied.
    #[error("the elephant's eye is blocked by the piece on {eye}")]
    ElephantEyeBlocked {
        /// The eye point.
        eye: Square,
    },
    /// An elephant that would cross the river (Xiangqi, or covered in Jieqi).
    #[error("elephants cannot cross the river")]
    ElephantCannotCrossRiver,
    /// A general or advisor that would leave its palace.
    #[error("the {role} must stay in the palace")]
    MustStayInPalace {
        /// General or advisor.
        role: Role,
    },
    /// A chariot, or a cannon moving without capturing, with a piece in its way.
    #[error("the {role}'s path is blocked by the piece on {square}")]
    PathBlocked {
        /// Chariot or cannon.
        role: Role,
        /// The first piece in the way.
        square: Square,
    },
    /// A cannon capture without exactly one piece between.
    #[error("a cannon needs exactly one screen to capture, and there {}", screens_text(*screens))]
    CannonNeedsOneScreen {
        /// How many pieces stand between the cannon and its target.
        screens: u8,
    },
    /// A soldier stepping back.
    #[error("a soldier never moves backwards")]
    SoldierCannotRetreat,
    /// A soldier stepping sideways on its own half.
    #[error("a soldier moves sideways only after crossing the river")]
    SoldierNotAcrossRiver,
    /// The move would leave the mover's general attacked.
    #[error("your general would be in check")]
    GeneralInCheck,
    /// The move would leave the generals facing on an open file.
    #[error("the generals would face each other on an open file")]
    GeneralsFacing,
}

fn describe(role: Role, covered: bool) -> String {
    if covered {
        format!(
            "a covered piece moves as the {role} of its point, and {} {role}",
            role.article()
        )
    } else {
        format!("{} {role}", role.article())
    }
}

fn screens_text(screens: u8) -> String {
    match screens {
        0 => "is none".to_owned(),
        1 => "is one".to_owned(),
        n => format!("are {n}"),
    }
}

impl Position {
    /// Why `mv` is illegal for the side to move, or `None` iff it is legal.
    ///
    /// ```
    /// use jieqi_rules::{Move, position::{IllegalMove, Position}};
    ///
    /// let pos = Position::xiangqi_start();
    /// let mv = |s: &str| Move::new(s[..2].parse().unwrap(), s[2..].parse().unwrap());
    /// assert_eq!(pos.why_illegal(mv("h2e2")), None);
    /// assert_eq!(
    ///     pos.why_illegal(mv("b2b7")),
    ///     Some(IllegalMove::CannonNeedsOneScreen { screens: 0 })
    /// );
    /// assert_eq!(
    ///     pos.why_illegal(mv("a0a4")).map(|e| e.to_string()).as_deref(),
    ///     Some("the chariot's path is blocked by the piece on a3")
    /// );
    /// ```
    pub fn why_illegal(&self, mv: Move) -> Option<IllegalMove> {
        let from = mv.from.index();
        let to = mv.to.index();
        if from == to {
            return Some(IllegalMove::StaysInPlace { square: mv.from });
        }
        let code = self.board[from];
        if code == 0 {
            return Some(IllegalMove::NoPiece { square: mv.from });
        }
        let us = self.side_to_move;
        if code & side_bit(us) == 0 {
            return Some(IllegalMove::NotYourPiece {
                square: mv.from,
                owner: code_side(code),
            });
        }
        if self.board[to] & side_bit(us) != 0 {
            return Some(IllegalMove::CaptureOwnPiece { square: mv.to });
        }
        if self.is_pseudo_legal(mv) {
            let mut scratch = self.board;
            if self.legal_on(&mut scratch, from, to) {
                return None;
            }
            scratch[to] = code;
            scratch[from] = 0;
            let mut generals = self.generals.map(usize::from);
            if code & KIND == GENERAL {
                generals[us.index()] = to;
            }
            return Some(if generals_face_on(&scratch, generals[0], generals[1]) {
                IllegalMove::GeneralsFacing
            } else {
                IllegalMove::GeneralInCheck
            });
        }
        Some(self.explain_pattern(code, from, to))
    }

    /// Why the piece `code` on `from` cannot go to `to` (a move known not pseudo-legal).
    fn explain_pattern(&self, code: u8, from: usize, to: usize) -> IllegalMove {
        let b = &self.board;
        let side = code_side(code);
        let kind = code & KIND;
        let df = (to % 9) as i32 - (from % 9) as i32;
        let dr = (to / 9) as i32 - (from / 9) as i32;
        let (adf, adr) = (df.abs(), dr.abs());
        let point = |i: usize| SQUARES[i];
        let at = |f: i32, r: i32| {
            ((from / 9) as i32 + r) as usize * 9 + ((from % 9) as i32 + f) as usize
        };
        let cannot = IllegalMove::CannotMoveLikeThat {
            role: kind_role(kind),
            covered: self.is_covered_index(from),
            from: point(from),
            to: point(to),
        };
        match kind {
            GENERAL if adf + adr == 1 => IllegalMove::MustStayInPalace {
                role: Role::General,
            },
            ADVISOR if adf == 1 && adr == 1 => IllegalMove::MustStayInPalace {
                role: Role::Advisor,
            },
            ELEPHANT | ELEPHANT_FREE if adf == 2 && adr == 2 => {
                let eye = at(df / 2, dr / 2);
                if b[eye] != 0 {
                    IllegalMove::ElephantEyeBlocked { eye: point(eye) }
                } else if kind == ELEPHANT {
                    IllegalMove::ElephantCannotCrossRiver
                } else {
                    cannot
                }
            }
            HORSE if (adf == 1 && adr == 2) || (adf == 2 && adr == 1) => {
                let leg = if adr == 2 {
                    at(0, dr / 2)
                } else {
                    at(df / 2, 0)
                };
                if b[leg] != 0 {
                    IllegalMove::HorseLegBlocked { leg: point(leg) }
                } else {
                    cannot
                }
            }
            CHARIOT | CANNON if df == 0 || dr == 0 => {
                let step = if df == 0 {
                    9 * dr.signum()
                } else {
                    df.signum()
                };
                let between: Vec<usize> = (1..(adf + adr))
                    .map(|k| (from as i32 + k * step) as usize)
                    .filter(|&s| b[s] != 0)
                    .collect();
                let role = kind_role(kind);
                match (kind, between.first()) {
                    (CANNON, _) if b[to] != 0 => IllegalMove::CannonNeedsOneScreen {
                        screens: u8::try_from(between.len()).unwrap_or(u8::MAX),
                    },
                    (_, Some(&first)) => IllegalMove::PathBlocked {
                        role,
                        square: point(first),
                    },
                    _ => cannot,
                }
            }
            SOLDIER if adf + adr == 1 => {
                let forward = if side == Side::Red { 1 } else { -1 };
                if dr == -forward {
                    IllegalMove::SoldierCannotRetreat
                } else if dr == 0 && point(from).on_home_half(side) {
                    IllegalMove::SoldierNotAcrossRiver
                } else {
                    cannot
                }
            }
            // A free advisor has no limit to explain: the step is simply not diagonal.
            _ => cannot,
        }
    }
}
