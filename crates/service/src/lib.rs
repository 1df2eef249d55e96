//! # jieqi-service
//!
//! The Jieqi bot without a platform: challenges, games, turns, timers, ratings, settings,
//! translations, the store and the outbox. A chat adapter turns a platform event into a
//! [`Request`]; [`Service::handle`] decides, records the change in one store transaction
//! (with the messages it causes in the outbox) and answers; a delivery loop
//! ([`run_delivery`]) drains the outbox through the adapter's [`Sender`].
//!
//! Where to start: [`Service`] (the API adapters use), `commands/` (one file per chat command,
//! each with `parse` and `apply`), `lifecycle.rs` (a game's start, moves and end as the chat
//! sees them), [`store`] (the [`GameStore`] trait, the records and the sled backend, from
//! the `jieqi-store` and `jieqi-store-sled` crates, with the metrics wrapper).
//!
//! The modules form layers, each using only its own and the ones below (`tests/layers.rs`
//! checks it), from the bottom: the model (`request`, `i18n`, `puzzle_set`, ..., and `ids`,
//! `message`, `settings`, `recipe` from `jieqi-store`, whose records are written in them), the
//! [`store`] and games rebuilt from its records (`replay`, in `jieqi-store` too, whose
//! upgrades use it), pictures ([`pictures`]), the shared state (`state`), the request context (`context`), presentation
//! (`announce`), game logic (`lifecycle`, and `puzzle_play` for puzzles), `commands/`, and on
//! top the service's API ([`Service`], split by concern over `service.rs`, `outbox.rs`,
//! `delivery.rs`, `timers.rs`, `engine_play.rs`).
//!
//! Hidden information: public messages are built only from `Viewer::Public` views and texts,
//! private ones from the receiving player's view. The deal and salt stay in the store until
//! the game ends.
//!
//! In the repository: `docs/architecture.md` (a request's path, the store and the outbox,
//! several processes), `docs/chat-surface.md` (the commands and the hidden-information
//! promises), `docs/contributing.md` (adding a command or a language) and `docs/testing.md`.

pub mod activity;
mod announce;
mod arena_play;
mod board_buttons;
pub mod budgets;
mod commands;
pub mod config;
mod context;
mod deferred;
pub mod delivery;
mod engine_clock;
mod engine_play;
pub mod error;
pub mod fairness;
mod flag_timers;
pub mod game_page;
pub mod i18n;
mod lifecycle;
mod live_boards;
mod live_clock;
pub mod menu;
pub mod metrics;
mod outbox;
pub mod personal_link;
mod pgn;
pub mod pictures;
pub mod player_page;
mod puzzle_play;
mod puzzle_set;
mod rated_games;
pub mod ratings;
pub mod request;
mod review_post;
mod review_queue;
mod reviews;
mod service;
pub mod shared_clock;
mod spectators;
mod stale_buttons;
mod state;
pub mod store;
mod sync;
mod timers;
pub mod tournament_page;
mod tournament_play;
mod tournament_standings;
mod tournament_start;
mod web_play;

// The vocabulary the store's records are written in lives in the store's contract crate;
// the service uses it under its old paths, and adapters keep importing it from here.
use jieqi_store::replay;
pub use jieqi_store::{ids, message, recipe, settings};

pub use budgets::SendBudgets;
pub use commands::{LineReading, read_command_line};
pub use config::{DealSource, ServiceConfig};
pub use delivery::{RetryPolicy, SendError, Sender, run_delivery, run_delivery_with};
pub use error::ServiceError;
pub use i18n::Language;
pub use ids::{
    ChallengeId, ChatId, ENGINE_USER_ID, GameId, IdempotencyKey, ParseIdError, Platform,
    TournamentId, User, UserId, engine_user_id,
};
pub use message::{
    Answer, Button, DeferredReply, Destination, Image, Message, MessageKind, OutboxEntry, OutboxId,
};
pub use metrics::{MetricsRegistry, MetricsSnapshot};
pub use request::{ButtonAction, ButtonDecodeError, Input, Request};
pub use review_queue::DEFAULT_WORKERS as DEFAULT_REVIEW_WORKERS;
pub use service::Service;
pub use shared_clock::WallClock;
pub use store::{GameChange, GameStore, Leadership, SledStore, StoreError};
pub use web_play::{PAGE_LAG_LONGEST, PageAction, PageActionAnswer, PageActionError, PlayerBoard};
