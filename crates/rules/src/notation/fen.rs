//! FEN for Xiangqi and Jieqi, with the additions of seed 000: `X`/`x` for covered pieces, an
//! optional `[...]` group of captured pieces by true type right after the placement, and for
//! the server's full view a seventh field, the deal.
//!
//! Six space-separated fields: placement (ranks 9 to 0, files a to i, digits for runs of empty
//! points), active colour (`w` Red, `b` Black), castling and en passant (always `-`), halfmove
//! clock and fullmove number. A position without covered pieces or captures is written exactly
//! as plain Xiangqi FEN.
//!
//! Readers are strict except where the format invites other writers: `N`/`B` for horse and
//! elephant, captured entries in any order and with commas between them, an empty `[]`, and
//! runs of spaces between fields. Writers are canonical, so equal setups give equal strings.

use thiserror::Error;

use crate::setup::Setup;
use crate::types::{BySide, Cell, File, Piece, Rank, Role, Side, Square};

/// Why a FEN could not be read. Each message names the field and the problem.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum FenError {
    /// No text at all.
    #[error(
        "the FEN is empty: write the placement, `w` or `b`, `- -`, the halfmove clock and the move number"
    )]
    Empty,
    /// Too few or too many space-separated fields.
    #[error(
        "the FEN has {found} fields but needs {expected}: placement, active colour, `-`, `-`, halfmove clock, fullmove number"
    )]
    FieldCount {
        /// Fields found.
        found: usize,
        /// Fields accepted, e.g. `6` or `6 or 7`.
        expected: &'static str,
    },
    /// A seventh field where only a position is accepted.
    #[error("deal: this FEN has a seventh field, a deal, which is not accepted here; remove it")]
    UnexpectedDeal,
    /// Not ten ranks.
    #[error("placement: found {found} ranks, a board has 10 separated by `/`")]
    RankCount {
        /// Ranks found.
        found: usize,
    },
    /// A rank that does not add up to nine points.
    #[error("placement: rank {rank} has {points} points, a rank has 9")]
    RankWidth {
        /// The rank, 9 (Black's back rank, written first) to 0.
        rank: u8,
        /// Points the rank's letters and digits add up to.
        points: usize,
    },
    /// A character that is neither a piece letter nor a digit 1–9.
    #[error(
        "placement: `{found}` on rank {rank} is neither a piece letter (K A E R C H P, X for a covered piece) nor a count of empty points 1–9"
    )]
    PlacementChar {
        /// The rank, 9 to 0.
        rank: u8,
        /// The character.
        found: char,
    },
    /// Two digits in a row, which FEN never writes.
    #[error(
        "placement: rank {rank} has two digits in a row; write one digit per run of empty points"
    )]
    AdjacentDigits {
        /// The rank, 9 to 0.
        rank: u8,
    },
    /// `[` without `]`.
    #[error("captured group: `[` is never closed by `]`")]
    UnclosedGroup,
    /// Text after the captured group.
    #[error("captured group: `{found}` follows the closing `]`; the group must end the placement")]
    AfterGroup {
        /// What follows, shortened if long.
        found: String,
    },
    /// A character that is not a piece letter.
    #[error(
        "captured group: `{found}` is not a piece letter; write A E R C H P and a count, uppercase for Red's losses and lowercase for Black's"
    )]
    CapturedLetter {
        /// The character.
        found: char,
    },
    /// A covered piece in the group.
    #[error(
        "captured group: `{found}` is a covered piece; captured pieces are listed by their true type, and covered ones never"
    )]
    CapturedCovered {
        /// `X` or `x`.
        found: char,
    },
    /// A general in the group.
    #[error("captured group: `{found}` is a general, which is never captured in Xiangqi or Jieqi")]
    CapturedGeneral {
        /// `K` or `k`.
        found: char,
    },
    /// A letter without a count.
    #[error("captured group: `{letter}` needs a count after it, like `{letter}1`")]
    MissingCount {
        /// The letter.
        letter: char,
    },
    /// A count of zero.
    #[error("captured group: `{letter}0` lists no piece; leave the entry out")]
    ZeroCount {
        /// The letter.
        letter: char,
    },
    /// More captured pieces of a type than a side starts with.
    #[error(
        "captured group: {count} {} {}s lost, but a side has only {}",
        .piece.side,
        .piece.role,
        .piece.role.start_count()
    )]
    TooManyCaptured {
        /// The piece.
        piece: Piece,
        /// The count written.
        count: u32,
    },
    /// The same piece listed twice.
    #[error("captured group: `{letter}` is listed twice; write one entry per piece type")]
    RepeatedEntry {
        /// The letter.
        letter: char,
    },
    /// An active colour other than `w` or `b`.
    #[error("active colour: `{found}` is not a side; write `w` for Red or `b` for Black")]
    ActiveColour {
        /// The field, shortened if long.
        found: String,
    },
    /// A castling field other than `-`.
    #[error("castling: `{found}` is not `-`; Xiangqi has no castling, so this field is always `-`")]
    Castling {
        /// The field, shortened if long.
        found: String,
    },
    /// An en passant field other than `-`.
    #[error(
        "en passant: `{found}` is not `-`; Xiangqi has no en passant, so this field is always `-`"
    )]
    EnPassant {
        /// The field, shortened if long.
        found: String,
    },
    /// A halfmove clock that is not a number.
    #[error("halfmove clock: `{found}` is not a count of halfmoves; write a whole number like `0`")]
    HalfmoveClock {
        /// The field, shortened if long.
        found: String,
    },
    /// A fullmove number that is not a number from 1.
    #[error("fullmove number: `{found}` is not a move number; write a whole number from 1")]
    FullmoveNumber {
        /// The field, shortened if long.
        found: String,
    },
    /// A deal letter that is not the type of a covered piece.
    #[error(
        "deal: `{found}` (letter {index}) is not the type of a covered piece; write A E R C H P, uppercase for Red and lowercase for Black"
    )]
    DealLetter {
        /// 1-based position in the deal.
        index: usize,
        /// The character.
        found: char,
    },
    /// A deal whose length does not match the covered pieces.
    #[error(
        "deal: {letters} letters for {covered} covered pieces; write one letter per covered piece, in FEN reading order"
    )]
    DealLength {
        /// Letters in the deal.
        letters: usize,
        /// Covered pieces on the board.
        covered: usize,
    },
    /// A deal letter whose case does not match the covered piece it stands for.
    #[error(
        "deal: letter {index} `{found}` is {}'s, but the covered piece it stands for, on {square}, is {}'s",
        .letter_side,
        !*.letter_side
    )]
    DealSide {
        /// 1-based position in the deal.
        index: usize,
        /// The letter.
        found: char,
        /// The side its case gives.
        letter_side: Side,
        /// Where the covered piece stands.
        square: Square,
    },
}

/// The Xiangqi start position.
pub const XIANGQI_START: &str =
    "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1";

/// The Jieqi start position: generals face up, everything else covered.
pub const JIEQI_START: &str =
    "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w - - 0 1";

/// Reads a position: exactly six fields (a seventh, deal field is an error here; see
/// [`read_full`]).
///
/// ```
/// use jieqi_rules::Setup;
/// use jieqi_rules::notation::fen::{read_setup, write_setup, FenError};
///
/// let fen = "x3k3x/c3e4/4R4/E4r2x/4p4/4A1R1P/3A5/6E2/9/3XKX2X[C2H1P2a2r1c1h2p1] b - - 0 1";
/// let setup = read_setup(fen)?;
/// assert_eq!(write_setup(&setup), fen);
/// assert_eq!(read_setup("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1")?,
///            Setup::xiangqi_start());
/// assert_eq!(
///     read_setup("9/9/9/9/9/9/9/4K5/9/9 w - - 0 1").unwrap_err().to_string(),
///     "placement: rank 2 has 10 points, a rank has 9"
/// );
/// # Ok::<(), FenError>(())
/// ```
pub fn read_setup(fen: &str) -> Result<Setup, FenError> {
    let fields: Vec<&str> = fen.split_ascii_whitespace().collect();
    match fields.as_slice() {
        [] => Err(FenError::Empty),
        [placement, colour, castling, en_passant, halfmove, fullmove] => {
            read_fields(placement, colour, castling, en_passant, halfmove, fullmove)
        }
        [_, _, _, _, _, _, _] => Err(FenError::UnexpectedDeal),
        _ => Err(FenError::FieldCount {
            found: fields.len(),
            expected: "6",
        }),
    }
}

/// Reads a position with an optional seventh field, the deal: the true type letter of every
/// covered piece in FEN reading order (rank 9 to 0, file a to i), case by side, or `-` when no
/// piece is covered. Checks that the letters are piece types, one per covered piece, each of
/// its covered piece's side; material is the position's business.
///
/// ```
/// use jieqi_rules::{Piece, Role, Side};
/// use jieqi_rules::notation::fen::{read_full, write_full, FenError};
///
/// let fen = "4k4/9/9/9/9/9/9/9/9/RX2K4 w - - 0 1 C";
/// let (setup, deal) = read_full(fen)?;
/// assert_eq!(deal, Some(vec![Piece::new(Side::Red, Role::Cannon)]));
/// assert_eq!(write_full(&setup, "C"), fen);
/// assert!(matches!(
///     read_full("4k4/9/9/9/9/9/9/9/9/RX2K4 w - - 0 1 c"),
///     Err(FenError::DealSide { .. })
/// ));
/// # Ok::<(), FenError>(())
/// ```
pub fn read_full(fen: &str) -> Result<(Setup, Option<Vec<Piece>>), FenError> {
    let fields: Vec<&str> = fen.split_ascii_whitespace().collect();
    match fields.as_slice() {
        [] => Err(FenError::Empty),
        [
            placement,
            colour,
            castling,
            en_passant,
            halfmove,
            fullmove,
            rest @ ..,
        ] if rest.len() <= 1 => {
            let setup = read_fields(placement, colour, castling, en_passant, halfmove, fullmove)?;
            let deal = match rest {
                [deal] => Some(read_deal(&setup, deal)?),
                _ => None,
            };
            Ok((setup, deal))
        }
        _ => Err(FenError::FieldCount {
            found: fields.len(),
            expected: "6 or 7",
        }),
    }
}

/// Writes `setup` canonically: captured group in the order Red then Black, A E R C H P within
/// a side, and left out when empty. A face-down Banqi cell (`?`) has no place in this FEN and
/// is written as `?`, which [`read_setup`] refuses.
///
/// ```
/// use jieqi_rules::Setup;
/// use jieqi_rules::notation::fen::{write_setup, JIEQI_START, XIANGQI_START};
///
/// assert_eq!(write_setup(&Setup::xiangqi_start()), XIANGQI_START);
/// assert_eq!(write_setup(&Setup::jieqi_start()), JIEQI_START);
/// ```
pub fn write_setup(setup: &Setup) -> String {
    let mut fen = String::with_capacity(96);
    for rank in (0..10).rev() {
        let mut empty = 0u8;
        for file in 0..9 {
            let cell = Square::from_coords(file, rank).map_or(Cell::Empty, |sq| setup.cell(sq));
            match cell.char() {
                None => empty += 1,
                Some(c) => {
                    if empty > 0 {
                        fen.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    fen.push(c);
                }
            }
        }
        if empty > 0 {
            fen.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    let mut group = String::new();
    for side in Side::ALL {
        for role in Role::ALL {
            let count = setup.captured[side][role.index()];
            if count > 0 {
                group.push(Piece::new(side, role).char());
                group.push_str(&count.to_string());
            }
        }
    }
    if !group.is_empty() {
        fen.push('[');
        fen.push_str(&group);
        fen.push(']');
    }
    fen.push(' ');
    fen.push(setup.side_to_move.fen_char());
    fen.push_str(" - - ");
    fen.push_str(&setup.halfmove_clock.to_string());
    fen.push(' ');
    fen.push_str(&setup.fullmove_number.to_string());
    fen
}

/// Writes `setup` and the deal letters as the seventh field (`-` if there are none). The
/// letters are written as given; [`crate::deal::Deal`] makes them.
///
/// ```
/// use jieqi_rules::Setup;
/// use jieqi_rules::notation::fen::write_full;
///
/// let fen = write_full(&Setup::xiangqi_start(), "");
/// assert!(fen.ends_with(" w - - 0 1 -"));
/// ```
pub fn write_full(setup: &Setup, deal_letters: &str) -> String {
    let mut fen = write_setup(setup);
    fen.push(' ');
    fen.push_str(if deal_letters.is_empty() {
        "-"
    } else {
        deal_letters
    });
    fen
}

fn read_fields(
    placement: &str,
    colour: &str,
    castling: &str,
    en_passant: &str,
    halfmove: &str,
    fullmove: &str,
) -> Result<Setup, FenError> {
    let (board, captured) = read_placement(placement)?;
    let side_to_move = match colour {
        "w" => Side::Red,
        "b" => Side::Black,
        _ => {
            return Err(FenError::ActiveColour {
                found: short(colour),
            });
        }
    };
    if castling != "-" {
        return Err(FenError::Castling {
            found: short(castling),
        });
    }
    if en_passant != "-" {
        return Err(FenError::EnPassant {
            found: short(en_passant),
        });
    }
    let halfmove_clock = number(halfmove).ok_or_else(|| FenError::HalfmoveClock {
        found: short(halfmove),
    })?;
    let fullmove_number =
        number(fullmove)
            .filter(|&n| n >= 1)
            .ok_or_else(|| FenError::FullmoveNumber {
                found: short(fullmove),
            })?;
    Ok(Setup {
        board,
        captured,
        side_to_move,
        halfmove_clock,
        fullmove_number,
    })
}

/// A whole number in plain digits (no sign), if it fits.
fn number(text: &str) -> Option<u32> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

fn short(text: &str) -> String {
    super::shorten(text)
}

type Board = [Cell; Square::COUNT];

fn read_placement(field: &str) -> Result<(Board, BySide<[u8; 7]>), FenError> {
    let (board, group) = match field.split_once('[') {
        Some((board, group)) => (board, Some(group)),
        None => (field, None),
    };
    let board = read_board(board)?;
    let captured = match group {
        None => BySide::default(),
        Some(group) => {
            let (entries, after) = group.split_once(']').ok_or(FenError::UnclosedGroup)?;
            if !after.is_empty() {
                return Err(FenError::AfterGroup {
                    found: short(after),
                });
            }
            read_group(entries)?
        }
    };
    Ok((board, captured))
}

fn read_board(text: &str) -> Result<Board, FenError> {
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 10 {
        return Err(FenError::RankCount { found: ranks.len() });
    }
    let mut board = [Cell::Empty; Square::COUNT];
    for (row, rank_text) in (0u8..).zip(&ranks) {
        let rank = 9 - row;
        let mut points = 0usize;
        let mut after_digit = false;
        for c in rank_text.chars() {
            match c {
                '1'..='9' => {
                    if after_digit {
                        return Err(FenError::AdjacentDigits { rank });
                    }
                    points += (c as usize) - ('0' as usize);
                    after_digit = true;
                }
                _ => {
                    let cell = match Cell::from_char(c) {
                        Some(cell @ (Cell::Piece(_) | Cell::Covered(Some(_)))) => cell,
                        _ => return Err(FenError::PlacementChar { rank, found: c }),
                    };
                    // Points past the ninth are counted for the error, not placed.
                    if let Some(square) = File::new(points.try_into().unwrap_or(u8::MAX))
                        .zip(Rank::new(rank))
                        .map(|(file, rank)| Square::new(file, rank))
                    {
                        board[square.index()] = cell;
                    }
                    points += 1;
                    after_digit = false;
                }
            }
        }
        if points != 9 {
            return Err(FenError::RankWidth { rank, points });
        }
    }
    Ok(board)
}

fn read_group(entries: &str) -> Result<BySide<[u8; 7]>, FenError> {
    let mut captured = BySide::<[u8; 7]>::default();
    let mut chars = entries.chars().peekable();
    while let Some(c) = chars.next() {
        if c == ',' {
            continue;
        }
        let piece = match Piece::from_char(c) {
            Some(piece) => piece,
            _ if c == 'X' || c == 'x' => return Err(FenError::CapturedCovered { found: c }),
            _ => return Err(FenError::CapturedLetter { found: c }),
        };
        if piece.role == Role::General {
            return Err(FenError::CapturedGeneral { found: c });
        }
        let mut count: u32 = 0;
        let mut digits = 0;
        while let Some(d) = chars.peek().and_then(|d| d.to_digit(10)) {
            chars.next();
            digits += 1;
            count = count.saturating_mul(10).saturating_add(d);
        }
        if digits == 0 {
            return Err(FenError::MissingCount { letter: c });
        }
        if count == 0 {
            return Err(FenError::ZeroCount { letter: c });
        }
        let slot = &mut captured[piece.side][piece.role.index()];
        if *slot != 0 {
            return Err(FenError::RepeatedEntry { letter: c });
        }
        *slot = match u8::try_from(count) {
            Ok(n) if n <= piece.role.start_count() => n,
            _ => return Err(FenError::TooManyCaptured { piece, count }),
        };
    }
    Ok(captured)
}

fn read_deal(setup: &Setup, field: &str) -> Result<Vec<Piece>, FenError> {
    let letters: Vec<(char, Piece)> = if field == "-" {
        Vec::new()
    } else {
        field
            .chars()
            .enumerate()
            .map(|(i, c)| match Piece::from_char(c) {
                Some(piece) if piece.role != Role::General => Ok((c, piece)),
                _ => Err(FenError::DealLetter {
                    index: i + 1,
                    found: c,
                }),
            })
            .collect::<Result<_, _>>()?
    };
    // FEN reading order: rank 9 down to 0, file a to i.
    let covered: Vec<(Square, Side)> = (0..10)
        .rev()
        .flat_map(|rank| (0..9).filter_map(move |file| Square::from_coords(file, rank)))
        .filter_map(|square| match setup.cell(square) {
            Cell::Covered(Some(side)) => Some((square, side)),
            _ => None,
        })
        .collect();
    if letters.len() != covered.len() {
        return Err(FenError::DealLength {
            letters: letters.len(),
            covered: covered.len(),
        });
    }
    for (i, (&(found, piece), &(square, side))) in letters.iter().zip(&covered).enumerate() {
        if piece.side != side {
            return Err(FenError::DealSide {
                index: i + 1,
                found,
                letter_side: piece.side,
                square,
            });
        }
    }
    Ok(letters.into_iter().map(|(_, piece)| piece).collect())
}
