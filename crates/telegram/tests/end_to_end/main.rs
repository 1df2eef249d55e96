//! End-to-end tests of the Telegram adapter: the real teloxide client, the real service, and a
//! fake Bot API server on 127.0.0.1 that records every request.

use jieqi_fake_telegram as fake_bot_api;
mod harness;

mod admins;
mod arena;
mod delivery;
mod experience;
mod fast_game;
mod game;
mod lanes;
mod old_boards;
mod play_on_board;
mod receiving;
mod record;
mod tournament;
mod tournament_support;
