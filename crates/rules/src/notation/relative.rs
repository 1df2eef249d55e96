//! What WXF and Chinese notation share. Both describe a move from the mover's side of the
//! board: which piece (its type and file, or its place among like pieces on one file), which
//! way (advance, retreat, traverse) and a number (the target file, or for straight movers going
//! forward or back, the count of points). This module takes moves apart into those parts and
//! finds the legal move a set of parts names; [`super::wxf`] and [`super::chinese`] only
//! spell them.

use crate::moves::Move;
use crate::setup::{Setup, start_role};
use crate::types::{Cell, File, Piece, Rank, Role, Side, Square};

use super::{MoveInputError, MoveNotation, ParsedMove, shorten, write_move};

/// The direction of a move, seen by the mover.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Op {
    /// Towards the enemy (`+`, 进).
    Advance,
    /// Towards the mover's own back rank (`-`, 退).
    Retreat,
    /// Along the rank (`.`, 平).
    Traverse,
}

/// How a text picks one piece out of a column of like pieces on one file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pick {
    /// The one nearest the enemy (前).
    Front,
    /// The one nearest the mover's back rank (后).
    Rear,
    /// The middle one of an odd column (中).
    Middle,
    /// The n-th from the front, 1-based (Chinese 一兵, 二兵, ... for four or more).
    Nth(u8),
    /// WXF `+`: the front one of two or three, the second of four or five.
    WxfPlus,
    /// WXF `-`: the rear one of two or three, the second from the rear of four or five.
    WxfMinus,
    /// WXF `++`: the foremost of four or five.
    WxfFirst,
    /// WXF `--`: the rearmost of four or five.
    WxfLast,
}

impl Pick {
    /// The index from the front this pick names in a column of `count` like pieces.
    fn index(self, count: usize) -> Option<usize> {
        if count < 2 {
            return None;
        }
        match self {
            Pick::Front | Pick::WxfFirst => Some(0),
            Pick::Rear | Pick::WxfLast => Some(count - 1),
            Pick::Middle => (count % 2 == 1).then_some(count / 2),
            Pick::Nth(n) => (n >= 1 && usize::from(n) <= count).then(|| usize::from(n) - 1),
            Pick::WxfPlus => Some(if count <= 3 { 0 } else { 1 }),
            Pick::WxfMinus => Some(if count <= 3 { count - 1 } else { count - 2 }),
        }
    }

    fn describe(self) -> String {
        match self {
            Pick::Front | Pick::WxfPlus => "front".to_owned(),
            Pick::Rear | Pick::WxfMinus => "rear".to_owned(),
            Pick::Middle => "middle".to_owned(),
            Pick::WxfFirst => "foremost".to_owned(),
            Pick::WxfLast => "rearmost".to_owned(),
            Pick::Nth(n) => {
                let suffix = match n {
                    1 => "st",
                    2 => "nd",
                    3 => "rd",
                    _ => "th",
                };
                format!("{n}{suffix} from the front")
            }
        }
    }
}

/// Where a text says the moving piece stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Place {
    /// On a file numbered 1–9 from the mover's right. If the file holds several like pieces,
    /// any of them may be meant (the legal moves decide) — except that in WXF a file number
    /// on a column of three or five names the middle one (`middle_if_odd`).
    File { number: u8, middle_if_odd: bool },
    /// Picked out of a column of like pieces, on the named file or on any file.
    Column { file: Option<u8>, pick: Pick },
}

/// A move as WXF and Chinese describe it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Relative {
    pub role: Role,
    pub place: Place,
    pub op: Op,
    /// A target file (1–9) or a count of points (1–9).
    pub arg: u8,
    pub reveal: Option<Role>,
}

/// The piece a player names on `square`: a face-up piece, or a covered piece by its fake type.
pub(crate) fn named_piece(setup: &Setup, square: Square) -> Option<Piece> {
    match setup.cell(square) {
        Cell::Piece(piece) => Some(piece),
        Cell::Covered(Some(side)) => start_role(side, square).map(|role| Piece::new(side, role)),
        Cell::Covered(None) | Cell::Empty => None,
    }
}

/// The number of `square`'s file counted 1–9 from `side`'s right.
pub(crate) fn file_number(side: Side, square: Square) -> u8 {
    match side {
        Side::Red => 9 - square.file().index(),
        Side::Black => square.file().index() + 1,
    }
}

/// Where a piece stands among like pieces (same side, same named type).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Column {
    /// Its file, counted from its side's right.
    pub number: u8,
    /// Like pieces on that file, itself included.
    pub count: usize,
    /// How many of them stand in front of it.
    pub index: usize,
    /// How many files hold two or more like pieces.
    pub crowded_files: usize,
}

fn like_pieces_on_file(setup: &Setup, piece: Piece, file: File) -> impl Iterator<Item = Square> {
    (0..Rank::COUNT)
        .filter_map(move |rank| Rank::new(rank).map(|rank| Square::new(file, rank)))
        .filter(move |&square| named_piece(setup, square) == Some(piece))
}

fn is_ahead(side: Side, a: Square, b: Square) -> bool {
    match side {
        Side::Red => a.rank() > b.rank(),
        Side::Black => a.rank() < b.rank(),
    }
}

/// The column facts of `piece` standing on `square`.
pub(crate) fn column(setup: &Setup, piece: Piece, square: Square) -> Column {
    let mut count = 0;
    let mut index = 0;
    for other in like_pieces_on_file(setup, piece, square.file()) {
        count += 1;
        if is_ahead(piece.side, other, square) {
            index += 1;
        }
    }
    let crowded_files = (0..File::COUNT)
        .filter_map(File::new)
        .filter(|&file| like_pieces_on_file(setup, piece, file).count() >= 2)
        .count();
    Column {
        number: file_number(piece.side, square),
        count,
        index,
        crowded_files,
    }
}

/// Advisors, elephants and horses change file with every move, so their number is always the
/// target file.
fn moves_diagonally(role: Role) -> bool {
    matches!(role, Role::Advisor | Role::Elephant | Role::Horse)
}

/// The direction and number of `mv` made by a `side` piece moving as `role`, or `None` if the
/// notation cannot say it (a null move, or a straight mover changing file and rank at once).
pub(crate) fn motion(side: Side, role: Role, mv: Move) -> Option<(Op, u8)> {
    let (from_rank, to_rank) = (mv.from.rank().index(), mv.to.rank().index());
    if from_rank == to_rank {
        return (mv.from != mv.to).then(|| (Op::Traverse, file_number(side, mv.to)));
    }
    let forward = match side {
        Side::Red => to_rank > from_rank,
        Side::Black => to_rank < from_rank,
    };
    let op = if forward { Op::Advance } else { Op::Retreat };
    if moves_diagonally(role) {
        Some((op, file_number(side, mv.to)))
    } else if mv.from.file() == mv.to.file() {
        Some((op, from_rank.abs_diff(to_rank)))
    } else {
        None
    }
}

/// A move taken apart for a relative writer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Parts {
    pub piece: Piece,
    pub column: Column,
    pub op: Op,
    pub arg: u8,
}

/// Takes `mv` apart, or `None` if a relative notation cannot describe it.
pub(crate) fn parts(setup: &Setup, mv: Move) -> Option<Parts> {
    let piece = named_piece(setup, mv.from)?;
    let (op, arg) = motion(piece.side, piece.role, mv)?;
    Some(Parts {
        piece,
        column: column(setup, piece, mv.from),
        op,
        arg,
    })
}

fn place_fits(place: Place, column: Column) -> bool {
    match place {
        Place::File {
            number,
            middle_if_odd,
        } => {
            column.number == number
                && (column.count == 1
                    || !middle_if_odd
                    || column.count.is_multiple_of(2)
                    || column.index == column.count / 2)
        }
        Place::Column { file, pick } => {
            file.is_none_or(|file| file == column.number)
                && pick.index(column.count) == Some(column.index)
        }
    }
}

fn describe_piece(role: Role, place: Place) -> String {
    match place {
        Place::File { number, .. } => format!("{role} on file {number}"),
        Place::Column { file: None, pick } => format!("{} {role}", pick.describe()),
        Place::Column {
            file: Some(file),
            pick,
        } => format!("{} {role} on file {file}", pick.describe()),
    }
}

fn describe_motion(role: Role, op: Op, arg: u8) -> String {
    let plural = if arg == 1 { "" } else { "s" };
    match op {
        Op::Traverse => format!("traverse to file {arg}"),
        Op::Advance if moves_diagonally(role) => format!("advance to file {arg}"),
        Op::Retreat if moves_diagonally(role) => format!("retreat to file {arg}"),
        Op::Advance => format!("advance {arg} point{plural}"),
        Op::Retreat => format!("retreat {arg} point{plural}"),
    }
}

/// Finds the one move of `legal` that `relative` names, checking its reveal.
pub(crate) fn resolve(
    setup: &Setup,
    legal: &[Move],
    text: &str,
    relative: &Relative,
    notation: MoveNotation,
) -> Result<ParsedMove, MoveInputError> {
    let side = setup.side_to_move;
    let wanted = Piece::new(side, relative.role);
    let named: Vec<Square> = Square::all()
        .filter(|&square| named_piece(setup, square) == Some(wanted))
        .filter(|&square| place_fits(relative.place, column(setup, wanted, square)))
        .collect();
    let piece = describe_piece(relative.role, relative.place);
    if named.is_empty() {
        return Err(MoveInputError::NoSuchPiece { side, piece });
    }
    let fits: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|mv| named.contains(&mv.from))
        .filter(|&mv| motion(side, relative.role, mv) == Some((relative.op, relative.arg)))
        .collect();
    let mv = match fits.as_slice() {
        [] => {
            return Err(MoveInputError::NoSuchMove {
                side,
                piece,
                motion: describe_motion(relative.role, relative.op, relative.arg),
            });
        }
        [mv] => *mv,
        _ => {
            let options = fits
                .iter()
                .map(|&mv| write_move(setup, mv, relative.reveal, notation))
                .collect();
            return Err(MoveInputError::Ambiguous {
                text: shorten(text),
                moves: fits,
                options,
            });
        }
    };
    check_reveal(setup, mv, relative.reveal)?;
    Ok(ParsedMove {
        mv,
        reveal: relative.reveal,
    })
}

/// A reveal belongs only to a covered piece, and is never a general.
pub(crate) fn check_reveal(
    setup: &Setup,
    mv: Move,
    reveal: Option<Role>,
) -> Result<(), MoveInputError> {
    match reveal {
        None => Ok(()),
        Some(Role::General) => Err(MoveInputError::RevealAsGeneral),
        Some(_) => match setup.cell(mv.from) {
            Cell::Covered(_) => Ok(()),
            Cell::Empty | Cell::Piece(_) => Err(MoveInputError::NothingToReveal { from: mv.from }),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(text: &str) -> Square {
        text.parse().unwrap_or_else(|_| panic!("bad square {text}"))
    }

    #[test]
    fn files_count_from_each_sides_right() {
        assert_eq!(file_number(Side::Red, sq("i0")), 1);
        assert_eq!(file_number(Side::Red, sq("a0")), 9);
        assert_eq!(file_number(Side::Black, sq("a9")), 1);
        assert_eq!(file_number(Side::Black, sq("i9")), 9);
    }

    #[test]
    fn wxf_plus_and_minus_mean_second_from_the_ends_of_four() {
        assert_eq!(Pick::WxfPlus.index(2), Some(0));
        assert_eq!(Pick::WxfMinus.index(3), Some(2));
        assert_eq!(Pick::WxfPlus.index(4), Some(1));
        assert_eq!(Pick::WxfMinus.index(5), Some(3));
        assert_eq!(Pick::WxfFirst.index(5), Some(0));
        assert_eq!(Pick::Middle.index(4), None);
        assert_eq!(Pick::Front.index(1), None);
    }

    #[test]
    fn black_advances_down_the_board() {
        let mv = Move::new(sq("b7"), sq("b0"));
        assert_eq!(
            motion(Side::Black, Role::Cannon, mv),
            Some((Op::Advance, 7))
        );
        let horse = Move::new(sq("b9"), sq("c7"));
        assert_eq!(
            motion(Side::Black, Role::Horse, horse),
            Some((Op::Advance, 3))
        );
    }

    #[test]
    fn straight_movers_cannot_be_described_moving_diagonally() {
        let mv = Move::new(sq("a0"), sq("b1"));
        assert_eq!(motion(Side::Red, Role::Chariot, mv), None);
    }
}
