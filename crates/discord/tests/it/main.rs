//! The Discord adapter through the real serenity client against the fake Discord (one test
//! binary).

mod arena;
mod discord;
mod fast_game;
mod harness;
mod launch;
mod play_on_board;
mod takeover;
mod tournament;
