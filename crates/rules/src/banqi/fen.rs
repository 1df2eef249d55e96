//! Banqi FEN: `????????/????????/????????/???????? - 0 1`.
//!
//! Fields: placement (ranks 4 down to 1, files `a`–`h`, `?` face down, digits for empty
//! squares) with an optional captured group `[...]` glued to it (letter and count, case =
//! the side that lost the piece, canonical order Red then Black, each K A E R C H P); the side
//! to move (`w`, `b`, or `-` before the first flip); plies since the last flip or capture;
//! the move number (1 at the start, one more after each action by Black, as in Xiangqi FEN,
//! so it needs no knowledge of who moved first). A full FEN adds a fifth field, the deal: the letters of the pieces under
//! the face-down squares in reading order (`-` when none is face down).

use thiserror::Error;

use super::deal::{BanqiDeal, BanqiDealError};
use super::position::{BanqiPosition, BanqiPositionError};
use super::square::BanqiSquare;
use crate::types::{BySide, Cell, Piece, Role, Side};

/// A Banqi FEN that could not be read. Each variant names the field that is wrong.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum BanqiFenError {
    /// Not 4 or 5 fields.
    #[error(
        "a Banqi FEN has 4 fields (placement, side to move, plies since the last flip or \
         capture, move number), and a full one a 5th (the deal), but this one has {0}"
    )]
    FieldCount(usize),
    /// Not 4 ranks.
    #[error("the placement has {0} ranks but the Banqi board has 4: separate them with `/`")]
    RankCount(usize),
    /// A rank of the wrong width.
    #[error("rank {rank} of the placement covers {squares} squares but every rank has 8")]
    RankWidth {
        /// The rank, `1`..`4`.
        rank: u8,
        /// How many squares it described.
        squares: usize,
    },
    /// A character that means nothing in a placement.
    #[error(
        "`{0}` in the placement is not a piece: use K A E R C H P (Red upper case, Black lower \
         case), `?` for a face-down piece and digits 1–8 for empty squares"
    )]
    PlacementChar(char),
    /// A captured group that cannot be read.
    #[error(
        "the captured group `{0}` cannot be read: write piece letters with counts inside \
         brackets, like `[R1p2]`"
    )]
    CapturedGroup(String),
    /// A side to move other than `w`, `b` or `-`.
    #[error("the side to move is `{0}`: write w (Red), b (Black) or - (before the first flip)")]
    ActiveColour(String),
    /// A no-progress count that is not a number.
    #[error("the plies since the last flip or capture must be a whole number, not `{0}`")]
    Clock(String),
    /// A move number that is not a number.
    #[error("the move number must be a whole number from 1, not `{0}`")]
    MoveNumber(String),
    /// The deal field is wrong.
    #[error("the deal field does not fit: {0}")]
    Deal(#[from] BanqiDealError),
    /// The position cannot occur.
    #[error(transparent)]
    Position(#[from] BanqiPositionError),
}

impl BanqiPosition {
    /// Reads a public or full Banqi FEN; a deal field is checked, then left out (use
    /// [`BanqiPosition::from_full_fen`] to keep it).
    ///
    /// ```
    /// use jieqi_rules::banqi::BanqiPosition;
    ///
    /// let start = "????????/????????/????????/???????? - 0 1";
    /// assert_eq!(BanqiPosition::from_fen(start)?, BanqiPosition::start());
    /// assert_eq!(BanqiPosition::start().to_fen(), start);
    /// # Ok::<(), jieqi_rules::banqi::BanqiFenError>(())
    /// ```
    pub fn from_fen(fen: &str) -> Result<BanqiPosition, BanqiFenError> {
        Self::from_full_fen(fen).map(|(position, _)| position)
    }

    /// Reads a public FEN (4 fields, no deal) or a full one (5 fields, with the deal).
    ///
    /// ```
    /// use jieqi_rules::banqi::{BanqiDeal, BanqiPosition};
    ///
    /// let full = "????????/????????/????????/???????? - 0 1 KpAaErRcChHpPkPeaAeErRcChHpPpPpP";
    /// let (position, deal) = BanqiPosition::from_full_fen(full)?;
    /// assert_eq!(deal, Some(BanqiDeal::fixed()));
    /// assert_eq!(position.to_full_fen(&BanqiDeal::fixed()), full);
    /// # Ok::<(), jieqi_rules::banqi::BanqiFenError>(())
    /// ```
    pub fn from_full_fen(fen: &str) -> Result<(BanqiPosition, Option<BanqiDeal>), BanqiFenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let (placement, side, clock, number, deal) = match fields.as_slice() {
            [p, s, c, n] => (*p, *s, *c, *n, None),
            [p, s, c, n, d] => (*p, *s, *c, *n, Some(*d)),
            _ => return Err(BanqiFenError::FieldCount(fields.len())),
        };
        let (board, group) = match placement.split_once('[') {
            None => (placement, None),
            Some((board, rest)) => (board, Some(rest)),
        };
        let cells = read_board(board)?;
        let captured = match group {
            None => BySide::default(),
            Some(group) => read_captured(group)?,
        };
        let side_to_move = match side {
            "-" => None,
            _ => {
                let mut chars = side.chars();
                match (chars.next().map(|c| c.to_ascii_lowercase()), chars.next()) {
                    (Some(c), None) => Some(
                        Side::from_fen_char(c)
                            .ok_or_else(|| BanqiFenError::ActiveColour(side.to_owned()))?,
                    ),
                    _ => return Err(BanqiFenError::ActiveColour(side.to_owned())),
                }
            }
        };
        let clock = clock
            .parse::<u32>()
            .map_err(|_| BanqiFenError::Clock(clock.to_owned()))?;
        let number = number
            .parse::<u32>()
            .map_err(|_| BanqiFenError::MoveNumber(number.to_owned()))?;
        let position = BanqiPosition::new(cells, captured, side_to_move, clock, number)?;
        let deal = match deal {
            None => None,
            Some(letters) => Some(BanqiDeal::for_position(&position, letters)?),
        };
        Ok((position, deal))
    }

    /// The public FEN: what everyone may know.
    pub fn to_fen(&self) -> String {
        let mut fen = String::with_capacity(64);
        for rank in (0..BanqiSquare::RANKS).rev() {
            let mut empty = 0u8;
            for file in 0..BanqiSquare::FILES {
                let cell = BanqiSquare::new(file, rank).map_or(Cell::Empty, |sq| self.cell(sq));
                match cell.char() {
                    None => empty += 1,
                    Some(c) => {
                        if empty > 0 {
                            fen.push((b'0' + empty) as char);
                            empty = 0;
                        }
                        fen.push(c);
                    }
                }
            }
            if empty > 0 {
                fen.push((b'0' + empty) as char);
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        let captured = self.captured();
        if captured != BySide::default() {
            fen.push('[');
            for side in Side::ALL {
                for role in Role::ALL {
                    let count = captured[side][role.index()];
                    if count > 0 {
                        fen.push(Piece::new(side, role).char());
                        fen.push_str(&count.to_string());
                    }
                }
            }
            fen.push(']');
        }
        let side = self.side_to_move().map_or('-', Side::fen_char);
        fen.push_str(&format!(
            " {side} {} {}",
            self.plies_since_progress(),
            self.fullmove_number()
        ));
        fen
    }

    /// The full FEN: the public FEN plus the deal field, the pieces under the face-down
    /// squares in reading order (`-` when none is face down). Server-only while a game runs.
    pub fn to_full_fen(&self, deal: &BanqiDeal) -> String {
        format!("{} {}", self.to_fen(), deal.face_down_letters(self))
    }
}

/// Reads the four ranks of a placement (without its captured group).
fn read_board(board: &str) -> Result<[Cell; 32], BanqiFenError> {
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != usize::from(BanqiSquare::RANKS) {
        return Err(BanqiFenError::RankCount(ranks.len()));
    }
    let mut cells = [Cell::Empty; 32];
    for (row, text) in ranks.iter().enumerate() {
        let rank = BanqiSquare::RANKS - 1 - row as u8;
        let mut file = 0usize;
        for c in text.chars() {
            let cell = match c {
                '1'..='8' => {
                    file += usize::from(c as u8 - b'0');
                    continue;
                }
                '?' => Cell::Covered(None),
                _ => Cell::Piece(Piece::from_char(c).ok_or(BanqiFenError::PlacementChar(c))?),
            };
            let width_error = BanqiFenError::RankWidth {
                rank: rank + 1,
                squares: file + 1,
            };
            let sq = u8::try_from(file)
                .ok()
                .and_then(|f| BanqiSquare::new(f, rank))
                .ok_or(width_error)?;
            cells[sq.index()] = cell;
            file += 1;
        }
        if file != usize::from(BanqiSquare::FILES) {
            return Err(BanqiFenError::RankWidth {
                rank: rank + 1,
                squares: file,
            });
        }
    }
    Ok(cells)
}

/// Reads a captured group after its `[`: letter and count entries (a missing count is 1),
/// any order, commas allowed, closed by `]`.
fn read_captured(group: &str) -> Result<BySide<[u8; 7]>, BanqiFenError> {
    let bad = || BanqiFenError::CapturedGroup(format!("[{group}"));
    let inner = group.strip_suffix(']').ok_or_else(bad)?;
    let mut captured = BySide::<[u8; 7]>::default();
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        if c == ',' {
            continue;
        }
        let piece = Piece::from_char(c).ok_or_else(bad)?;
        let mut count: Option<u8> = None;
        while let Some(digit) = chars.peek().and_then(|d| d.to_digit(10)) {
            chars.next();
            let so_far = count.unwrap_or(0);
            count = Some(
                so_far
                    .checked_mul(10)
                    .and_then(|n| n.checked_add(digit as u8))
                    .ok_or_else(bad)?,
            );
        }
        let slot = &mut captured[piece.side][piece.role.index()];
        *slot = slot.saturating_add(count.unwrap_or(1));
    }
    Ok(captured)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_fen_round_trips() {
        let fen = "????????/????????/????????/???????? - 0 1";
        assert_eq!(
            BanqiPosition::from_fen(fen).map(|p| p.to_fen()),
            Ok(fen.into())
        );
    }

    #[test]
    fn captured_group_reads_any_order_and_writes_canonically() {
        let fen = "8/8/2C?p3/8[p3,h2c2r2e2a2k1P5H2C1R2E2A2K1] w 0 20";
        let canonical = "8/8/2C?p3/8[K1A2E2R2C1H2P5k1a2e2r2c2h2p3] w 0 20";
        assert_eq!(
            BanqiPosition::from_fen(fen).map(|p| p.to_fen()),
            Ok(canonical.into())
        );
    }

    #[test]
    fn each_field_names_its_problem() {
        let cases = [
            ("", BanqiFenError::FieldCount(0)),
            (
                "????????/????????/???????? - 0 1",
                BanqiFenError::RankCount(3),
            ),
            (
                "?????????/????????/????????/???????? - 0 1",
                BanqiFenError::RankWidth {
                    rank: 4,
                    squares: 9,
                },
            ),
            (
                "???????/????????/????????/???????? - 0 1",
                BanqiFenError::RankWidth {
                    rank: 4,
                    squares: 7,
                },
            ),
            (
                "X???????/????????/????????/???????? - 0 1",
                BanqiFenError::PlacementChar('X'),
            ),
            (
                "????????/????????/????????/???????? x 0 1",
                BanqiFenError::ActiveColour("x".into()),
            ),
            (
                "????????/????????/????????/???????? - z 1",
                BanqiFenError::Clock("z".into()),
            ),
            (
                "????????/????????/????????/???????? - 0 -1",
                BanqiFenError::MoveNumber("-1".into()),
            ),
        ];
        for (fen, error) in cases {
            assert_eq!(BanqiPosition::from_fen(fen), Err(error), "{fen}");
        }
    }
}
