//! Banqi for the engine: its own view-only board model and the search over it.

mod board;
mod search;

pub(crate) use board::{BanqiAction, BanqiBoard, SQUARES, Spot};
pub(crate) use search::BanqiSearch;
