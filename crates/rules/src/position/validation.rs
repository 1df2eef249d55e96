//! Turning a plain [`Setup`] into a [`Position`]: the "material sanity" rules of `rules.md`.
//!
//! A setup can say anything (it comes from a FEN a person typed); a position must be one that
//! play could reach, as far as cheap checks can tell: no more pieces of a type than an army
//! has, generals in their palaces, covered pieces on their own start points, Xiangqi pieces
//! on points they can reach, and the side that just moved not in check.

use thiserror::Error;

use crate::setup::{Setup, start_role};
use crate::types::{Cell, Role, Side, Square, Variant};

use super::board::{GENERAL, KIND, role_kind, side_bit};
use super::movelist::SQUARES;
use super::{MoveOptions, Position};

/// Why a setup is not a legal Xiangqi or Jieqi position.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PositionError {
    /// Banqi has its own board and rules.
    #[error("a {0} game has no Xiangqi board: positions are Xiangqi or Jieqi")]
    UnsupportedVariant(Variant),
    /// A side has no general.
    #[error("{side} has no general: put one in its palace")]
    MissingGeneral {
        /// Whose general is missing.
        side: Side,
    },
    /// A side has two generals or more.
    #[error("{side} has more than one general (one too many on {square}): remove all but one")]
    TooManyGenerals {
        /// Whose generals.
        side: Side,
        /// The point of an extra general.
        square: Square,
    },
    /// A general outside its own palace.
    #[error("{side}'s general on {square} is outside its palace: it must stand on files d–f, {}", palace_ranks(*side))]
    GeneralOutsidePalace {
        /// Whose general.
        side: Side,
        /// Where it stands.
        square: Square,
    },
    /// The captured group lists a general.
    #[error(
        "the captured pieces list a {side} general, but a general is never captured: remove it from the captured group"
    )]
    GeneralCaptured {
        /// Whose general.
        side: Side,
    },
    /// More pieces of a type (board plus captured) than an army has.
    #[error("{side} has {count} {}s counting the board and the captured pieces, but an army has only {max}", role.name())]
    TooManyPieces {
        /// Whose pieces.
        side: Side,
        /// Their type.
        role: Role,
        /// How many the setup has, face up on the board plus captured.
        count: u32,
        /// How many an army has.
        max: u8,
    },
    /// More covered pieces than pieces of the side not accounted for by face-up and captured ones.
    #[error(
        "{side} has {covered} covered pieces, but only {remaining} of its pieces are neither face up nor captured"
    )]
    TooManyCovered {
        /// Whose pieces.
        side: Side,
        /// Covered pieces on the board.
        covered: u32,
        /// Pieces of the army neither face up on the board nor listed as captured.
        remaining: u32,
    },
    /// A face-down piece without a side (a Banqi piece) on a Xiangqi board.
    #[error(
        "the face-down piece on {square} has no side: write a Jieqi covered piece as X (Red) or x (Black)"
    )]
    ColourlessCoveredPiece {
        /// Where it stands.
        square: Square,
    },
    /// A covered piece in Xiangqi.
    #[error("the covered piece on {square} has no place in Xiangqi: write its type, or play Jieqi")]
    CoveredInXiangqi {
        /// Where it stands.
        square: Square,
    },
    /// A covered piece off its own side's start points.
    #[error(
        "the covered {side} piece on {square} is not on a {side} start point, but a covered piece has never moved"
    )]
    CoveredOffStartPoint {
        /// Whose piece.
        side: Side,
        /// Where it stands.
        square: Square,
    },
    /// A covered piece on its side's general point.
    #[error(
        "the covered {side} piece on {square} stands on the general's point, but the general is never covered"
    )]
    CoveredOnGeneralPoint {
        /// Whose piece.
        side: Side,
        /// Where it stands.
        square: Square,
    },
    /// A Xiangqi advisor, elephant or soldier on a point it can never reach.
    #[error("the {side} {} on {square} stands where it can never go in Xiangqi: {}", role.name(), reach_hint(*role))]
    UnreachablePoint {
        /// Whose piece.
        side: Side,
        /// Its type.
        role: Role,
        /// Where it stands.
        square: Square,
    },
    /// The generals face each other on an open file.
    #[error("the generals face each other on the {} file with nothing between them, which no move can leave", file_char(*general))]
    GeneralsFacing {
        /// The point of the general of the side to move.
        general: Square,
    },
    /// The side that is not to move is in check: its opponent could take its general.
    #[error(
        "{side} is in check while it is not {side}'s turn: the side that just moved cannot have left its general attacked"
    )]
    OpponentInCheck {
        /// The side in check.
        side: Side,
    },
}

fn palace_ranks(side: Side) -> &'static str {
    match side {
        Side::Red => "ranks 0–2",
        Side::Black => "ranks 7–9",
    }
}

fn file_char(sq: Square) -> char {
    sq.file().char()
}

fn reach_hint(role: Role) -> &'static str {
    match role {
        Role::Advisor => "an advisor keeps to the five diagonal points of its palace",
        Role::Elephant => "an elephant keeps to the seven points of its own half it can reach",
        Role::Soldier => "a soldier never moves back, and sideways only after crossing the river",
        _ => "this piece cannot stand there",
    }
}

/// Whether a Xiangqi piece of `side` and `role` can ever stand on `sq`.
fn reachable_in_xiangqi(side: Side, role: Role, sq: Square) -> bool {
    let file = sq.file().index();
    // Ranks counted from the side's own back rank.
    let rank = match side {
        Side::Red => sq.rank().index(),
        Side::Black => 9 - sq.rank().index(),
    };
    match role {
        // The palace corners and centre: d0 f0 e1 d2 f2.
        Role::Advisor => matches!((file, rank), (3 | 5, 0) | (4, 1) | (3 | 5, 2)),
        // c0 g0 a2 e2 i2 c4 g4.
        Role::Elephant => matches!((file, rank), (2 | 6, 0) | (0 | 4 | 8, 2) | (2 | 6, 4)),
        // Never behind the start rank; on its own half only on the start files.
        Role::Soldier => rank >= 5 || (rank >= 3 && file.is_multiple_of(2)),
        _ => true,
    }
}

impl Position {
    /// Validates `setup` as a position of `variant` (Xiangqi or Jieqi) with `options`.
    ///
    /// Rejected, with an error naming the problem: Banqi; a side without a general or with
    /// two; a general outside its palace; more pieces of a type (face up plus captured) than
    /// an army has; more covered pieces than a side has pieces unaccounted for; covered
    /// pieces off their own start points or in Xiangqi; in Xiangqi, advisors, elephants and
    /// soldiers on points they cannot reach; and the side not to move in check (including
    /// facing generals). Fewer pieces than a full army is fine. A fullmove number of 0 is
    /// read as 1.
    ///
    /// ```
    /// use jieqi_rules::{Setup, Variant, position::{MoveOptions, Position, PositionError}};
    ///
    /// let pos = Position::from_setup(Setup::jieqi_start(), Variant::Jieqi, MoveOptions::default());
    /// assert!(pos.is_ok());
    ///
    /// // Covered pieces do not exist in Xiangqi.
    /// let err = Position::from_setup(Setup::jieqi_start(), Variant::Xiangqi, MoveOptions::default());
    /// assert!(matches!(err, Err(PositionError::CoveredInXiangqi { .. })));
    /// ```
    pub fn from_setup(
        setup: Setup,
        variant: Variant,
        options: MoveOptions,
    ) -> Result<Position, PositionError> {
        if variant == Variant::Banqi {
            return Err(PositionError::UnsupportedVariant(variant));
        }
        let mut general: [Option<Square>; 2] = [None, None];
        let mut face_up = [[0u32; 7]; 2];
        let mut covered = [0u32; 2];
        for sq in Square::all() {
            match setup.cell(sq) {
                Cell::Empty => {}
                Cell::Covered(None) => {
                    return Err(PositionError::ColourlessCoveredPiece { square: sq });
                }
                Cell::Covered(Some(side)) => {
                    if variant == Variant::Xiangqi {
                        return Err(PositionError::CoveredInXiangqi { square: sq });
                    }
                    match start_role(side, sq) {
                        None => {
                            return Err(PositionError::CoveredOffStartPoint { side, square: sq });
                        }
                        Some(Role::General) => {
                            return Err(PositionError::CoveredOnGeneralPoint { side, square: sq });
                        }
                        Some(_) => covered[side.index()] += 1,
                    }
                }
                Cell::Piece(piece) => {
                    let side = piece.side;
                    if piece.role == Role::General {
                        if general[side.index()].is_some() {
                            return Err(PositionError::TooManyGenerals { side, square: sq });
                        }
                        if !sq.in_palace(side) {
                            return Err(PositionError::GeneralOutsidePalace { side, square: sq });
                        }
                        general[side.index()] = Some(sq);
                    } else if variant == Variant::Xiangqi
                        && !reachable_in_xiangqi(side, piece.role, sq)
                    {
                        return Err(PositionError::UnreachablePoint {
                            side,
                            role: piece.role,
                            square: sq,
                        });
                    }
                    face_up[side.index()][piece.role.index()] += 1;
                }
            }
        }
        for side in Side::ALL {
            let s = side.index();
            if general[s].is_none() {
                return Err(PositionError::MissingGeneral { side });
            }
            let captured = setup.captured.get(side);
            if captured[Role::General.index()] > 0 {
                return Err(PositionError::GeneralCaptured { side });
            }
            let mut accounted = 0u32;
            for role in Role::ALL {
                let count = face_up[s][role.index()] + u32::from(captured[role.index()]);
                if count > u32::from(role.start_count()) {
                    return Err(PositionError::TooManyPieces {
                        side,
                        role,
                        count,
                        max: role.start_count(),
                    });
                }
                if role != Role::General {
                    accounted += count;
                }
            }
            let remaining = 15 - accounted;
            if covered[s] > remaining {
                return Err(PositionError::TooManyCovered {
                    side,
                    covered: covered[s],
                    remaining,
                });
            }
        }
        let pos = Position::build_unvalidated(&setup, variant, options);
        let mover = pos.side_to_move;
        let waiting = !mover;
        if pos.generals_face() {
            return Err(PositionError::GeneralsFacing {
                general: SQUARES[usize::from(pos.generals[mover.index()])],
            });
        }
        if pos.general_attacked(waiting) {
            return Err(PositionError::OpponentInCheck { side: waiting });
        }
        Ok(pos)
    }

    /// Builds the position's own representation of `setup` without checking it. Only called
    /// with setups that passed validation (or the start setups).
    pub(super) fn build_unvalidated(
        setup: &Setup,
        variant: Variant,
        options: MoveOptions,
    ) -> Position {
        let free = variant == Variant::Jieqi;
        let mut pos = Position {
            board: [0; Square::COUNT],
            occupied: [0; 2],
            covered: 0,
            generals: [0; 2],
            side_to_move: setup.side_to_move,
            variant,
            options,
            halfmove_clock: setup.halfmove_clock,
            fullmove_number: setup.fullmove_number.max(1),
            captured: [setup.captured.red, setup.captured.black],
            zobrist: 0,
        };
        for sq in Square::all() {
            let i = sq.index();
            let (side, code, is_covered) = match setup.cell(sq) {
                Cell::Empty | Cell::Covered(None) => continue,
                Cell::Piece(piece) => (piece.side, role_kind(piece.role, free), false),
                Cell::Covered(Some(side)) => {
                    let role = start_role(side, sq).unwrap_or(Role::Soldier);
                    let may_leave =
                        role == Role::Advisor && options.covered_advisor_may_leave_palace;
                    (side, role_kind(role, may_leave), true)
                }
            };
            let code = code | side_bit(side);
            pos.board[i] = code;
            pos.occupied[side.index()] |= 1u128 << i;
            if is_covered {
                pos.covered |= 1u128 << i;
            }
            if code & KIND == GENERAL {
                pos.generals[side.index()] = i as u8;
            }
        }
        pos.zobrist = pos.compute_zobrist();
        pos
    }
}
