//! # jieqi-discord
//!
//! The Discord adapter of the Jieqi bot (serenity 0.12). It turns interactions (slash
//! commands, buttons, `/move` autocompletion) into service [`jieqi_service::Request`]s and
//! delivers the service's messages: channel posts with the board as an attachment shown in an
//! embed, private reveals through a DM channel, edits that disable stale buttons. No rule or
//! game logic lives here.
//!
//! Where to start: [`Discord`] (build it from a [`DiscordConfig`], hand its
//! [`Discord::sender`] to the service's delivery loop, then [`Discord::run`] the gateway),
//! `commands.rs` (the commands and their options), `respond.rs` (answering within Discord's
//! three seconds), `later.rs` (a deferred interaction finished through the outbox, by any
//! process), `sender.rs` (posts and edits, with their nonces), `outbox.rs` (the service's
//! `Sender` on top), `rest.rs` (the calls whose rate limits we read ourselves).
//!
//! In the repository: `docs/architecture.md` (a request's path, shards and several
//! processes), `docs/contributing.md` (what a platform adapter provides), `docs/testing.md`
//! (the end-to-end tests against `jieqi-fake-discord`).
//!
//! ```no_run
//! # async fn start(service: jieqi_service::Service) -> Result<(), jieqi_discord::DiscordError> {
//! use jieqi_discord::{Discord, DiscordConfig};
//! use tokio_util::sync::CancellationToken;
//!
//! let discord = Discord::new(DiscordConfig::new(std::env::var("DISCORD_TOKEN").unwrap_or_default()));
//! let shutdown = CancellationToken::new();
//! tokio::spawn(jieqi_service::run_delivery(
//!     service.clone(),
//!     discord.sender(),
//!     jieqi_service::Platform::Discord,
//!     shutdown.clone(),
//! ));
//! discord.run(service, shutdown).await
//! # }
//! ```

mod activity;
mod commands;
mod config;
mod error;
mod gateway;
mod interaction;
mod later;
mod layout;
mod oauth;
mod outbox;
mod pace;
mod person;
mod respond;
mod rest;
mod sender;

use std::sync::Arc;

use jieqi_service::Service;
use rest::Rest;
use serenity::all::GatewayIntents;
use serenity::http::Http;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

pub use config::{DiscordConfig, RESPOND_WITHIN, ShardRange, ShardRangeError, TAKE_OVER_AFTER};
pub use error::DiscordError;
pub use interaction::request_from_interaction_json;
pub use oauth::{
    ActivityInstance, ClientSecret, DiscordAccount, DiscordOAuth, NotAdmitted, SignInError,
};
pub use sender::{DiscordSender, PostRef};

/// The Discord adapter: one HTTP client (and rate limiter) shared by the answers to
/// interactions and the outbox's sender.
#[derive(Debug)]
pub struct Discord {
    config: DiscordConfig,
    http: Arc<Http>,
    rest: Arc<Rest>,
    sender: Arc<DiscordSender>,
}

impl Discord {
    /// An adapter for this configuration; nothing is contacted until [`Discord::run`].
    pub fn new(config: DiscordConfig) -> Discord {
        let http = Arc::new(config.http());
        let rest = Arc::new(Rest::new(Arc::clone(&http)));
        let sender = Arc::new(DiscordSender::new(Arc::clone(&rest)));
        Discord {
            config,
            http,
            rest,
            sender,
        }
    }

    /// Paces requests by `budgets` (the service's [`Service::send_budgets`], kept in the
    /// store): with several processes on one database, every process posting to a channel
    /// spends from the channel's one budget, and all of them from the bot's. Until this is
    /// called (or [`Discord::run`] starts), requests spend from budgets in this process's
    /// memory.
    pub fn share_budgets(&self, budgets: jieqi_service::SendBudgets) {
        self.rest.pace().share(budgets);
    }

    /// Delivers the service's Discord messages (for [`jieqi_service::run_delivery`]).
    pub fn sender(&self) -> Arc<DiscordSender> {
        Arc::clone(&self.sender)
    }

    /// The Activity's sign-in with `secret` (`DISCORD_CLIENT_SECRET`), through this adapter's
    /// REST client and its rate limits.
    pub fn oauth(&self, secret: ClientSecret) -> DiscordOAuth {
        DiscordOAuth::new(Arc::clone(&self.rest), secret)
    }

    /// Connects to the gateway (the configured [`ShardRange`], else as many shards as Discord
    /// recommends), registers the commands (the process running shard 0 does) and answers
    /// interactions until `shutdown` is cancelled; then finishes the interactions at hand and
    /// returns. Returns an error if Discord refuses the token or the gateway fails for good.
    pub async fn run(
        self,
        service: Service,
        shutdown: CancellationToken,
    ) -> Result<(), DiscordError> {
        self.share_budgets(service.send_budgets());
        let in_flight = TaskTracker::new();
        let handler = gateway::Handler {
            http: Arc::clone(&self.http),
            rest: Arc::clone(&self.rest),
            service,
            sender: Arc::clone(&self.sender),
            config: self.config.clone(),
            in_flight: in_flight.clone(),
        };
        // The gateway's own client only looks up the gateway and the shard count.
        let client = serenity::client::ClientBuilder::new_with_http(
            self.config.http(),
            GatewayIntents::empty(),
        )
        .event_handler(handler);
        let mut client = client.await.map_err(DiscordError::from_start)?;
        let shards = Arc::clone(&client.shard_manager);
        let start = async {
            match self.config.shards {
                // serenity counts the range's end in (`start_shard_range(2..3, 8)` runs 2 and 3).
                Some(range) => {
                    tracing::info!(shards = %range, "connecting these gateway shards");
                    client
                        .start_shard_range(range.first()..range.last(), range.count())
                        .await
                }
                None => client.start_autosharded().await,
            }
        };
        let result = tokio::select! {
            result = start => result.map_err(DiscordError::from_start),
            () = shutdown.cancelled() => {
                shards.shutdown_all().await;
                Ok(())
            }
        };
        in_flight.close();
        in_flight.wait().await;
        result
    }
}
