//! The service's behaviour through its public API: one test binary, a module per scenario
//! (one binary links the dependency graph once instead of once per file).

mod any_input;
mod arenas;
mod banqi;
mod board_links;
mod chat_surface;
mod coalescing;
mod common;
mod compaction_crash;
mod delivery;
mod engine_on_a_clock;
mod hidden_information;
mod idempotency;
mod jieqi;
mod layers;
mod learn;
mod live_boards;
mod live_clocks;
mod live_clocks_across_processes;
mod old_boards;
mod pgn;
mod play_again;
mod play_bot;
mod players_experience;
mod puzzle_solvers;
mod puzzles;
mod ratings_by_speed;
mod restart;
mod review;
mod review_queue;
mod settings;
mod tournament_entries;
mod tournament_settings;
mod tournaments;
mod web_links;
mod xiangqi;
