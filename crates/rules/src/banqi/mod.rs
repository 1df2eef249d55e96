//! Banqi (暗棋, "dark chess", also 翻棋 flip chess): the half-board game where all 32 pieces
//! start face down on a 4x8 board and the first flip decides who plays which colour.
//!
//! Where to start: a [`BanqiGame`] is a whole game (position, secret [`BanqiDeal`], history,
//! draw counters, result) and is what the service plays; a [`BanqiPosition`] is the public
//! state alone, with legal actions, make/unmake and FEN; [`Action`] is what a player does
//! (`c3` flip, `c3c4` move or capture) and [`ActionRecord`] what it turned out to do
//! (`c3=R`). The rules are those of `rules.md` ("Banqi"): capture by rank with the soldier /
//! general exceptions, a cannon that captures by jumping exactly one screen, face-down pieces
//! that cannot be captured, loss with no legal action, draws after 40 plies without a flip or
//! capture or on the third occurrence of a position.
//!
//! ```
//! use jieqi_rules::banqi::{perft, BanqiDeal, BanqiGame};
//! use jieqi_rules::Viewer;
//!
//! let mut game = BanqiGame::new(BanqiDeal::fixed());
//! // Red flips its general; Black flips a Red cannon; Red flips a Black horse, which takes it.
//! for text in ["a4", "a3", "b3", "b3a3"] {
//!     game.play_text(text)?;
//! }
//! let records: Vec<String> = game.history().iter().map(|r| r.to_string()).collect();
//! assert_eq!(records, ["a4=K", "a3=C", "b3=h", "b3a3"]);
//! assert_eq!(game.fen(Viewer::Public), "K???????/h1??????/????????/????????[C1] w 0 3");
//! assert_eq!(perft(&game, 1), game.legal_actions().len() as u64);
//! # Ok::<(), jieqi_rules::banqi::BanqiError>(())
//! ```

mod action;
mod deal;
mod error;
mod fen;
mod game;
mod movegen;
mod perft;
mod position;
mod square;
mod view;

pub use action::{Action, ActionRecord};
pub use deal::{BanqiDeal, BanqiDealError};
pub use error::BanqiError;
pub use fen::BanqiFenError;
pub use game::{BanqiGame, NO_PROGRESS_PLIES, REPETITION_OCCURRENCES};
pub use movegen::{captures_by_rank, ladder_rank};
pub use perft::{divide, perft, perft_position};
pub use position::{BanqiPosition, BanqiPositionError, BanqiUndo};
pub use square::{BanqiSquare, ParseBanqiSquareError};
