//! The secret of a game, whatever the variant: nothing for Xiangqi, the true types of the
//! covered pieces for Jieqi, the pieces under the face-down squares for Banqi.

use std::fmt;

use crate::banqi::BanqiDeal;
use crate::deal::Deal;
use crate::setup::Setup;
use crate::types::{Piece, Variant};

use super::error::GameError;

/// The deal of one game. Its [`fmt::Debug`] output hides the pieces, so a stray `{:?}` in a
/// log line cannot leak it.
#[derive(Clone, PartialEq, Eq, Hash)]
pub enum GameDeal {
    /// Xiangqi has nothing hidden.
    None,
    /// The true type of each covered Jieqi piece.
    Jieqi(Deal),
    /// The piece under each face-down Banqi square.
    Banqi(BanqiDeal),
}

impl GameDeal {
    /// A fresh deal for `variant`. `pick(n)` must return a uniform number in `0..n` drawn from
    /// a cryptographically secure source: the deal is only as secret as `pick`.
    ///
    /// ```
    /// use jieqi_rules::{GameDeal, Variant};
    ///
    /// let mut state = 7u32;
    /// let mut pick = |n: u32| { state = state.wrapping_mul(1_103_515_245).wrapping_add(12_345); (state >> 8) % n };
    /// let deal = GameDeal::shuffled(Variant::Jieqi, &mut pick);
    /// assert_eq!(deal.letters().len(), 30);
    /// assert_eq!(GameDeal::from_letters(Variant::Jieqi, &deal.letters()).ok(), Some(deal));
    /// ```
    pub fn shuffled(variant: Variant, pick: &mut impl FnMut(u32) -> u32) -> GameDeal {
        match variant {
            Variant::Xiangqi => GameDeal::None,
            Variant::Jieqi => GameDeal::Jieqi(Deal::shuffled(&Setup::jieqi_start(), pick)),
            Variant::Banqi => GameDeal::Banqi(BanqiDeal::shuffled(pick)),
        }
    }

    /// The game this deal is for.
    pub fn variant(&self) -> Variant {
        match self {
            GameDeal::None => Variant::Xiangqi,
            GameDeal::Jieqi(_) => Variant::Jieqi,
            GameDeal::Banqi(_) => Variant::Banqi,
        }
    }

    /// The deal as letters (case by side), in FEN reading order of the start position: what
    /// is stored, and what the fairness commitment hashes together with its salt. Empty for
    /// Xiangqi.
    pub fn letters(&self) -> String {
        match self {
            GameDeal::None => String::new(),
            GameDeal::Jieqi(deal) => deal.letters(),
            GameDeal::Banqi(deal) => deal.letters(),
        }
    }

    /// Reads a deal written by [`GameDeal::letters`].
    pub fn from_letters(variant: Variant, letters: &str) -> Result<GameDeal, GameError> {
        let letters = letters.trim();
        match variant {
            Variant::Xiangqi if letters.is_empty() => Ok(GameDeal::None),
            Variant::Xiangqi => Err(GameError::BadDeal(
                "a xiangqi game has no covered pieces, so its deal is empty".to_owned(),
            )),
            Variant::Jieqi => {
                let pieces = letters
                    .chars()
                    .map(|c| {
                        Piece::from_char(c).ok_or_else(|| {
                            GameError::BadDeal(format!(
                                "`{c}` is not a piece letter: use A E R C H P, upper case for \
                                 Red and lower case for Black"
                            ))
                        })
                    })
                    .collect::<Result<Vec<Piece>, GameError>>()?;
                Deal::from_pieces(&Setup::jieqi_start(), &pieces)
                    .map(GameDeal::Jieqi)
                    .map_err(|e| GameError::BadDeal(e.to_string()))
            }
            Variant::Banqi => BanqiDeal::from_letters(letters)
                .map(GameDeal::Banqi)
                .map_err(|e| GameError::BadDeal(e.to_string())),
        }
    }
}

impl fmt::Debug for GameDeal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameDeal::None => f.write_str("GameDeal::None"),
            GameDeal::Jieqi(_) => f.write_str("GameDeal::Jieqi(<hidden>)"),
            GameDeal::Banqi(_) => f.write_str("GameDeal::Banqi(<hidden>)"),
        }
    }
}
