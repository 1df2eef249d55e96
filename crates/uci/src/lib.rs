//! # jieqi-uci
//!
//! The built-in engine as a standard engine: the UCI protocol as Xiangqi engines speak it
//! (Pikafish's dialect), and Jieqi in the dialect of Pikafish's `jieqi` branch that Jieqi GUIs
//! such as JieqiBox use; and the other way round, a client that drives any UCI engine, so
//! that `jieqi-bot match` can measure the engine against other engines.
//!
//! Where to start: [`Session`] (one GUI session: commands in, answers out, the search on its
//! own thread); [`command`] reads a line into a typed [`Command`](command::Command);
//! [`dialect`] turns the GUI's FEN and moves into the [`View`](jieqi_rules::View) of the side
//! to move, which is all the engine ever searches; [`limits`] turns `go` into the engine's
//! budget; [`client`] speaks to an external engine, in its [`ranks`] numbering.
//!
//! The dialects are described in `docs/notation.md` ("UCI dialects") in the repository; how the
//! crates fit together in `docs/architecture.md`.

pub mod client;
pub mod command;
pub mod dialect;
pub mod limits;
pub mod ranks;
pub mod session;

pub use session::{Flow, Session, Settings, Sink};
