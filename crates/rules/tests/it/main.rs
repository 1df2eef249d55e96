//! The rules through the public API: every option and preset, Banqi, repetition, notation,
//! perft, and properties against an independent model (one test binary; the golden verdicts,
//! which switch a process-wide judging hook, stay a binary of their own).

mod banqi;
mod banqi_props;
mod game;
mod game_props;
mod notation_fen;
mod notation_moves;
mod notation_props;
mod perft;
mod position_props;
mod repetition;
