//! Why a Banqi action cannot be read or played, in sentences a player can act on.

use thiserror::Error;

use super::square::{BanqiSquare, ParseBanqiSquareError};
use crate::outcome::Outcome;
use crate::types::{Piece, Role};

/// An action that could not be read, or that the rules do not allow now.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum BanqiError {
    /// The game has ended.
    #[error("the game is over ({0}): no more actions can be played")]
    GameOver(Outcome),
    /// The text is not an action at all.
    #[error(
        "`{0}` is not a Banqi action: write a square to flip (`c3`) or two squares to move or \
         capture (`c3c4`)"
    )]
    Unreadable(String),
    /// A flip typed with the piece it should reveal.
    #[error(
        "write only the square to flip (`{0}`): the game adds what the flip reveals to the record"
    )]
    RevealTyped(BanqiSquare),
    /// A square that is not on the board.
    #[error(transparent)]
    BadSquare(#[from] ParseBanqiSquareError),
    /// Flipping an empty square.
    #[error("{0} is empty: there is nothing to flip there")]
    FlipEmpty(BanqiSquare),
    /// Flipping a piece that is already face up.
    #[error("the piece on {0} is already face up: only face-down pieces can be flipped")]
    AlreadyFaceUp(BanqiSquare),
    /// Moving before the first flip has given the player a colour.
    #[error("no colour is yours until the first flip: start by flipping a face-down piece")]
    FlipFirst,
    /// Moving from an empty square.
    #[error("there is no piece on {0} to move")]
    NoPiece(BanqiSquare),
    /// Moving a face-down piece.
    #[error("{0} is face down: flip it first")]
    FaceDown(BanqiSquare),
    /// Moving the opponent's piece.
    #[error(
        "the {role} on {square} is {owner}'s: move one of your own ({mover}) pieces",
        role = piece.role,
        owner = piece.side,
        mover = !piece.side
    )]
    NotYourPiece {
        /// Where it stands.
        square: BanqiSquare,
        /// The opponent's piece.
        piece: Piece,
    },
    /// From and to are the same square.
    #[error("{0} to {0} goes nowhere: give two different squares")]
    SameSquare(BanqiSquare),
    /// A move that is not one orthogonal step (and not a cannon capture).
    #[error(
        "{} {role} moves one square up, down, left or right, and {to} is not next to {from}",
        role.article()
    )]
    NotAStep {
        /// The moving piece's role.
        role: Role,
        /// Where it stands.
        from: BanqiSquare,
        /// Where it was sent.
        to: BanqiSquare,
    },
    /// A cannon sent off its row and column.
    #[error(
        "a cannon moves one square, or captures along its rank or file: {to} is on neither \
         {from}'s rank nor its file"
    )]
    CannonOffLine {
        /// Where the cannon stands.
        from: BanqiSquare,
        /// Where it was sent.
        to: BanqiSquare,
    },
    /// A cannon sent more than one square to an empty square.
    #[error(
        "{0} is empty: a cannon goes further than one square only to capture, by jumping over \
         exactly one piece"
    )]
    CannonLongMove(BanqiSquare),
    /// Capturing a face-down piece.
    #[error("the piece on {0} is face down: face-down pieces cannot be captured")]
    CaptureFaceDown(BanqiSquare),
    /// Capturing one's own piece.
    #[error("the piece on {0} is your own: you cannot capture it")]
    CaptureOwn(BanqiSquare),
    /// A cannon trying to take the piece next to it.
    #[error(
        "a cannon cannot capture the piece next to it: it captures only by jumping over exactly \
         one piece"
    )]
    CannonAdjacent,
    /// A cannon capture without exactly one screen.
    #[error("{}", cannon_screens_sentence(*from, *to, *count))]
    CannonScreens {
        /// Where the cannon stands.
        from: BanqiSquare,
        /// The target.
        to: BanqiSquare,
        /// Pieces between them.
        count: u8,
    },
    /// A stored flip whose revealed piece is not what the game's deal has there.
    #[error(
        "the record says what came up on {0}, and this game's deal has another piece there: \
         the record belongs to a different deal"
    )]
    RecordDoesNotMatchDeal(BanqiSquare),
    /// A capture the rank ladder forbids.
    #[error(
        "your {attacker} cannot capture {} {target}{}",
        target.article(),
        rank_reason(*attacker, *target)
    )]
    Outranked {
        /// The capturing piece.
        attacker: Role,
        /// The piece it tried to take.
        target: Role,
    },
}

fn cannon_screens_sentence(from: BanqiSquare, to: BanqiSquare, count: u8) -> String {
    if count == 0 {
        format!(
            "a cannon captures by jumping over exactly one piece, and there is none between \
             {from} and {to}"
        )
    } else {
        format!(
            "a cannon captures by jumping over exactly one piece, and there are {count} between \
             {from} and {to}"
        )
    }
}

fn rank_reason(attacker: Role, target: Role) -> &'static str {
    match (attacker, target) {
        (Role::General, Role::Soldier) => {
            ": the general is the one piece that cannot take soldiers"
        }
        (Role::Soldier, _) => ": a soldier takes only soldiers and the general",
        _ => {
            ": a piece takes only enemies of its own rank or lower (general, advisor, elephant, \
             chariot, horse, cannon, soldier)"
        }
    }
}
