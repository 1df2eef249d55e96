//! Why a game cannot be started, read back, or given a move, in sentences a player can act on.

use thiserror::Error;

use crate::banqi::BanqiError;
use crate::notation::MoveInputError;
use crate::outcome::Outcome;
use crate::types::Variant;

/// What went wrong with a game.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum GameError {
    /// The game has ended; no move can be played or read any more.
    #[error("the game is over ({0}): no more moves can be played")]
    GameOver(Outcome),
    /// A well-formed move that the rules do not allow now; the sentence says why.
    #[error("{0}")]
    IllegalMove(String),
    /// The text of a Xiangqi or Jieqi move could not be read.
    #[error(transparent)]
    BadInput(#[from] MoveInputError),
    /// A Banqi action could not be read or played.
    #[error(transparent)]
    Banqi(#[from] BanqiError),
    /// A move typed together with what it would reveal.
    #[error(
        "write the move without the piece it reveals (`{0}`): nobody can know it before the \
         move, and the game adds it to the record"
    )]
    RevealTyped(String),
    /// A move of the other kind of board (a Banqi action in a Jieqi game, or the reverse).
    #[error("`{mv}` is not a move of {variant}")]
    WrongGame {
        /// The move.
        mv: String,
        /// The game being played.
        variant: Variant,
    },
    /// The deal does not belong to the game the rules describe.
    #[error("the deal is for {deal} but the rules are for {rules}: deal the pieces for {rules}")]
    DealMismatch {
        /// The game of the rules.
        rules: Variant,
        /// The game the deal is for.
        deal: Variant,
    },
    /// A stored deal that cannot be read or is not a full set of pieces.
    #[error("the stored deal cannot be used: {0}")]
    BadDeal(String),
    /// The start position could not be built under these rules.
    #[error("the game cannot start: {0}")]
    BadStart(String),
    /// A stored move that does not fit the game being rebuilt.
    #[error("stored move {number} (`{text}`) cannot be replayed: {reason}")]
    Replay {
        /// The 1-based ply number of the move.
        number: usize,
        /// The stored text.
        text: String,
        /// Why it does not fit.
        reason: Box<GameError>,
    },
    /// A stored move that is not written as the store writes moves.
    #[error("{0}")]
    BadRecord(String),
    /// A stored move whose reveal suffix disagrees with the deal, or is missing or extra.
    #[error("{0}")]
    RevealMismatch(String),
}
