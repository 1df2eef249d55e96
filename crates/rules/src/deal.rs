//! The secret of a Jieqi game: what each covered piece really is.
//!
//! A [`Deal`] maps each covered piece's point (a start point: covered pieces never moved) to
//! its true type. The position never holds it; it is handed to
//! [`Position::play_with_deal`](crate::position::Position::play_with_deal) when a move reveals
//! or captures a covered piece. Randomness is not ours: [`Deal::shuffled`] takes a `pick`
//! function so the caller chooses the source (a CSPRNG on the server, a seeded one in tests).

use thiserror::Error;

use crate::setup::{Setup, start_role};
use crate::types::{Cell, Piece, Rank, Role, Side, Square};

/// The true type of each covered piece of a setup, by its point.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Deal {
    pieces: [Option<Piece>; Square::COUNT],
}

/// Why a list of pieces is not a deal for a setup.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum DealError {
    /// Not one piece per covered piece.
    #[error("the deal names {found} pieces, but the position has {expected} covered pieces")]
    WrongCount {
        /// Covered pieces on the board.
        expected: usize,
        /// Pieces in the deal.
        found: usize,
    },
    /// A piece of the wrong side for the covered piece it is dealt to.
    #[error("the piece dealt to {square} must be {side}'s (upper case Red, lower case Black)")]
    WrongSide {
        /// The covered piece's point.
        square: Square,
        /// The covered piece's side.
        side: Side,
    },
    /// A general in the deal.
    #[error("a general is dealt to {square}, but generals are never covered")]
    General {
        /// The covered piece's point.
        square: Square,
    },
    /// More pieces of a type than an army has, with the face-up and captured ones.
    #[error("the deal gives {side} {count} {}s counting the board and the captured pieces, but an army has only {max}", role.name())]
    TooMany {
        /// Whose pieces.
        side: Side,
        /// Their type.
        role: Role,
        /// How many in all.
        count: u32,
        /// How many an army has.
        max: u8,
    },
}

/// The points of `setup` holding covered Jieqi pieces, in FEN reading order (rank 9 to 0,
/// file a to i), with their sides.
fn covered_points(setup: &Setup) -> Vec<(Square, Side)> {
    let mut points = Vec::new();
    for rank in (0..Rank::COUNT).rev() {
        for file in 0..9 {
            if let Some(sq) = Square::from_coords(file, i32::from(rank))
                && let Cell::Covered(Some(side)) = setup.cell(sq)
            {
                points.push((sq, side));
            }
        }
    }
    points
}

/// Pieces of each side face up on the board plus captured, by role index.
fn seen_material(setup: &Setup) -> [[u32; 7]; 2] {
    let mut seen = [[0u32; 7]; 2];
    for sq in Square::all() {
        if let Cell::Piece(p) = setup.cell(sq) {
            seen[p.side.index()][p.role.index()] += 1;
        }
    }
    for side in Side::ALL {
        for role in Role::ALL {
            seen[side.index()][role.index()] += u32::from(setup.captured.get(side)[role.index()]);
        }
    }
    seen
}

impl Deal {
    /// The deal in which every covered piece is its fake type (the type of its point), as
    /// if nothing had been shuffled. Useful for tests and perft.
    ///
    /// ```
    /// use jieqi_rules::{Role, Setup, deal::Deal};
    ///
    /// let deal = Deal::identity(&Setup::jieqi_start());
    /// assert_eq!(deal.role_at("b0".parse().unwrap()), Some(Role::Horse));
    /// assert_eq!(deal.letters(), "rheaaehrccpppppPPPPPCCRHEAAEHR");
    /// ```
    pub fn identity(setup: &Setup) -> Deal {
        let mut pieces = [None; Square::COUNT];
        for (sq, side) in covered_points(setup) {
            pieces[sq.index()] = start_role(side, sq)
                .filter(|&role| role != Role::General)
                .map(|role| Piece::new(side, role));
        }
        Deal { pieces }
    }

    /// A random deal: for each side, the pieces not face up and not captured are shuffled
    /// (Fisher–Yates, calling `pick(n)` for a uniform number in `0..n`; out-of-range answers
    /// are reduced modulo `n`) and dealt to that side's covered pieces in FEN reading order.
    /// A setup with more covered pieces than unseen pieces (which validation rejects) gets
    /// fake types for the rest.
    ///
    /// ```
    /// use jieqi_rules::{Setup, deal::Deal};
    ///
    /// let mut state = 7u32;
    /// let mut pick = |n: u32| { state = state.wrapping_mul(1_103_515_245).wrapping_add(12_345); (state >> 16) % n };
    /// let deal = Deal::shuffled(&Setup::jieqi_start(), &mut pick);
    /// let mut letters: Vec<char> = deal.letters().chars().collect();
    /// letters.sort_unstable();
    /// let expected: String = "AACCEEHHPPPPPRRaacceehhppppprr".chars().collect();
    /// assert_eq!(letters.into_iter().collect::<String>(), expected);
    /// ```
    pub fn shuffled(setup: &Setup, pick: &mut impl FnMut(u32) -> u32) -> Deal {
        let mut pieces = [None; Square::COUNT];
        let points = covered_points(setup);
        let seen = seen_material(setup);
        for side in Side::ALL {
            let mut pool: Vec<Role> = Vec::new();
            for role in Role::ALL.into_iter().filter(|&r| r != Role::General) {
                let unseen =
                    u32::from(role.start_count()).saturating_sub(seen[side.index()][role.index()]);
                pool.extend(std::iter::repeat_n(role, unseen as usize));
            }
            for i in (1..pool.len()).rev() {
                let n = (i + 1) as u32;
                let j = (pick(n) % n) as usize;
                pool.swap(i, j);
            }
            let mut pool = pool.into_iter();
            for &(sq, _) in points.iter().filter(|&&(_, s)| s == side) {
                let role = pool
                    .next()
                    .or_else(|| start_role(side, sq).filter(|&r| r != Role::General));
                pieces[sq.index()] = role.map(|role| Piece::new(side, role));
            }
        }
        Deal { pieces }
    }

    /// The deal giving `pieces` to the covered pieces of `setup` in FEN reading order (rank
    /// 9 to 0, file a to i), one each, sides matching, and no side given more of a type than
    /// an army has (with its face-up and captured pieces).
    ///
    /// ```
    /// use jieqi_rules::{Piece, Setup, deal::{Deal, DealError}};
    ///
    /// let setup = Setup::jieqi_start();
    /// let pieces: Vec<Piece> = Deal::identity(&setup).pieces().into_iter().map(|(_, p)| p).collect();
    /// assert_eq!(Deal::from_pieces(&setup, &pieces), Ok(Deal::identity(&setup)));
    /// assert!(matches!(Deal::from_pieces(&setup, &pieces[1..]), Err(DealError::WrongCount { .. })));
    /// ```
    pub fn from_pieces(setup: &Setup, pieces: &[Piece]) -> Result<Deal, DealError> {
        let points = covered_points(setup);
        if points.len() != pieces.len() {
            return Err(DealError::WrongCount {
                expected: points.len(),
                found: pieces.len(),
            });
        }
        let mut counts = seen_material(setup);
        let mut dealt = [None; Square::COUNT];
        for (&(square, side), &piece) in points.iter().zip(pieces) {
            if piece.side != side {
                return Err(DealError::WrongSide { square, side });
            }
            if piece.role == Role::General {
                return Err(DealError::General { square });
            }
            let count = &mut counts[side.index()][piece.role.index()];
            *count += 1;
            if *count > u32::from(piece.role.start_count()) {
                return Err(DealError::TooMany {
                    side,
                    role: piece.role,
                    count: *count,
                    max: piece.role.start_count(),
                });
            }
            dealt[square.index()] = Some(piece);
        }
        Ok(Deal { pieces: dealt })
    }

    /// The true type of the covered piece on `sq`, if the deal has one there.
    #[inline]
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        self.pieces[sq.index()].map(|p| p.role)
    }

    /// Every dealt piece with its point, in FEN reading order (rank 9 to 0, file a to i).
    pub fn pieces(&self) -> Vec<(Square, Piece)> {
        let mut out = Vec::new();
        for rank in (0..Rank::COUNT).rev() {
            for file in 0..9 {
                if let Some(sq) = Square::from_coords(file, i32::from(rank))
                    && let Some(piece) = self.pieces[sq.index()]
                {
                    out.push((sq, piece));
                }
            }
        }
        out
    }

    /// The dealt pieces as FEN letters in reading order, case by side: the seventh field of
    /// a full FEN (30 letters at the start).
    pub fn letters(&self) -> String {
        self.pieces().into_iter().map(|(_, p)| p.char()).collect()
    }
}
