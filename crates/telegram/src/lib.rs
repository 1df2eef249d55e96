//! # jieqi-telegram
//!
//! The Telegram adapter of the Jieqi bot, built on teloxide. It turns Telegram updates into the
//! service's [`Request`](jieqi_service::Request)s and delivers the service's messages; no game
//! rule lives here.
//!
//! Where to start: [`Telegram`] (what `jieqi-bot run` starts), `inbound.rs` (an update becomes
//! a request), `outbound.rs` (a message becomes `sendPhoto` / `sendMessage` / edits),
//! `sender.rs` (the service's [`Sender`] on top), `replies.rs` (answers only the requester
//! sees), `polling.rs` and `webhook.rs` (the two ways updates arrive).
//!
//! Promises kept here:
//! - An update is confirmed to Telegram (next `getUpdates` offset, or the webhook's HTTP
//!   answer) only after the service handled it; its `update_id` is the idempotency key, so a
//!   redelivery changes nothing.
//! - Button data is [`ButtonAction::encode`](jieqi_service::ButtonAction::encode): ids only.
//! - Sending stays within Telegram's rate limits, paced per chat (`pacing.rs`): a chat over
//!   its rate, or one that Telegram answers with a 429 or a server error, delays only its own
//!   messages, never another chat's. A 429's `retry_after` goes back to the caller for that
//!   message alone (the service's delivery loop waits it out); a private chat that refuses the
//!   bot (blocked, never started) is reported as undeliverable, never retried forever.
//!
//! In the repository: `docs/architecture.md` (a request's path, several processes and the
//! polling role), `docs/contributing.md` (what a platform adapter provides), `docs/testing.md`
//! (the end-to-end tests against `jieqi-fake-telegram`).

mod address;
mod client;
mod config;
mod handler;
mod held;
mod inbound;
mod keyboard;
mod menu;
mod outbound;
mod pacing;
mod polling;
mod replies;
mod sender;
mod text;
mod webhook;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use backon::{ExponentialBuilder, Retryable};
use jieqi_service::i18n::Translations;
use jieqi_service::{Platform, Sender, Service};
use teloxide::ApiError;
use teloxide::RequestError;
use thiserror::Error;
use tokio_util::sync::CancellationToken;

pub use crate::config::{Receiving, SendLimits, TelegramConfig, WebhookSecret, WebhookSecretError};
pub use crate::inbound::request_from_update_json;
pub use crate::sender::TelegramSender;
pub use crate::webhook::SECRET_HEADER;

use crate::client::Client;
use crate::handler::Handler;
use crate::outbound::Poster;

/// Why the Telegram adapter cannot run.
#[derive(Debug, Error)]
pub enum TelegramError {
    /// Telegram does not know the token.
    #[error("Telegram refused the bot token: check TELEGRAM_TOKEN (the token @BotFather gave you)")]
    InvalidToken,
    /// The Bot API server could not be reached at start.
    #[error("cannot reach the Telegram Bot API ({reason}): check the network and TELEGRAM_API_URL")]
    Unreachable {
        /// What went wrong.
        reason: String,
    },
    /// The bot account has no username (every bot account has one; a fake server may not).
    #[error(
        "the Bot API says this bot has no username; check TELEGRAM_API_URL points at a real Bot API server"
    )]
    NoUsername,
    /// The webhook's HTTP server could not listen.
    #[error(
        "cannot serve the Telegram webhook on {addr} ({error}): choose a free address and port"
    )]
    WebhookListen {
        /// Where it tried.
        addr: SocketAddr,
        /// What failed.
        error: std::io::Error,
    },
    /// Telegram refused the webhook.
    #[error(
        "Telegram refused the webhook {url} ({reason}): it must be a public https URL on port 443, 80, 88 or 8443"
    )]
    Webhook {
        /// The URL given.
        url: String,
        /// Telegram's words.
        reason: String,
    },
}

/// The Telegram adapter: receives updates for the service and delivers its messages.
#[derive(Debug)]
pub struct Telegram {
    config: TelegramConfig,
    client: Arc<Client>,
}

impl Telegram {
    /// The adapter for `config`. Nothing is sent until it is used (so it can be built before
    /// the async runtime starts).
    pub fn new(config: TelegramConfig) -> Telegram {
        let client = Arc::new(Client::new(&config));
        Telegram { config, client }
    }

    /// Always [`Platform::Telegram`].
    pub fn platform(&self) -> Platform {
        Platform::Telegram
    }

    /// Delivers the service's Telegram messages (give it to `run_delivery`).
    pub fn sender(&self) -> Arc<dyn Sender> {
        Arc::new(TelegramSender {
            poster: Poster {
                client: self.client.clone(),
            },
        })
    }

    /// Paces posts by `budgets` (the service's [`Service::send_budgets`], kept in the store):
    /// with several processes on one database, every process posting to a group spends from
    /// the group's one budget. Until this is called (or [`Telegram::receive`] starts), posts
    /// spend from budgets in this process's memory.
    pub fn share_budgets(&self, budgets: jieqi_service::SendBudgets) {
        self.client.pacer.share(budgets);
    }

    /// The bot's username (`getMe`), e.g. for the service's `bot_username`.
    pub async fn bot_username(&self) -> Result<String, TelegramError> {
        let me = self.client.me().await.map_err(start_error)?;
        me.user.username.clone().ok_or(TelegramError::NoUsername)
    }

    /// Receives updates for `service` until `shutdown` is cancelled, then returns after
    /// finishing the updates at hand. Publishes the command menu first.
    pub async fn receive(
        self,
        service: Service,
        shutdown: CancellationToken,
    ) -> Result<(), TelegramError> {
        self.share_budgets(service.send_budgets());
        let username = tokio::select! {
            () = shutdown.cancelled() => return Ok(()),
            name = self.learn_username() => name?,
        };
        tracing::info!(bot = %username, "Telegram bot connected");
        menu::publish(&self.client, &service).await;
        let handler = Handler {
            poster: Poster {
                client: self.client.clone(),
            },
            service,
            translations: Arc::new(Translations::load()),
        };
        match self.config.receiving.clone() {
            Receiving::Polling => {
                poll_while_leading(handler, self.config.poll_timeout, shutdown).await
            }
            Receiving::Webhook {
                url,
                listen,
                secret,
            } => webhook::serve(handler, url, listen, secret, shutdown).await,
        }
    }

    /// `getMe`, retried while the network is down (a bot started before its network is up
    /// should wait, not fail); a refused token fails at once.
    async fn learn_username(&self) -> Result<String, TelegramError> {
        let backoff = ExponentialBuilder::default()
            .with_max_delay(Duration::from_secs(30))
            .without_max_times();
        (|| self.bot_username())
            .retry(backoff)
            .when(|e| matches!(e, TelegramError::Unreachable { .. }))
            .notify(|error, delay| tracing::warn!(%error, ?delay, "cannot reach Telegram yet"))
            .await
    }
}

/// The role of the one process that long-polls (Telegram gives a bot's updates to one
/// consumer; two pollers would fight with HTTP 409).
pub const POLLING_ROLE: &str = "telegram-polling";
/// How often a process that is not the poller asks again whether it may poll.
const LEAD_RETRY: Duration = Duration::from_secs(2);

/// Long-polls while this process holds the polling role; when it does not (another process
/// polls), waits and asks again, so a dead poller is replaced within seconds. Every process
/// delivers, whether it polls or not.
async fn poll_while_leading(
    handler: Handler,
    timeout: Duration,
    shutdown: CancellationToken,
) -> Result<(), TelegramError> {
    let mut waiting_said = false;
    loop {
        let lease = tokio::select! {
            () = shutdown.cancelled() => return Ok(()),
            lease = handler.service.lead(POLLING_ROLE) => lease,
        };
        match lease {
            Ok(Some(lease)) => {
                tracing::info!("this process polls Telegram for updates");
                waiting_said = false;
                let stop = shutdown.child_token();
                let lost = lease.lost.clone();
                let watch = {
                    let stop = stop.clone();
                    tokio::spawn(async move {
                        lost.cancelled().await;
                        stop.cancel();
                    })
                };
                let polled = polling::poll(handler.clone(), timeout, stop).await;
                watch.abort();
                drop(lease);
                polled?;
                if shutdown.is_cancelled() {
                    return Ok(());
                }
                tracing::warn!("lost the polling role (the database connection broke)");
            }
            Ok(None) => {
                if !waiting_said {
                    tracing::info!("another process polls Telegram; this one delivers");
                    waiting_said = true;
                }
            }
            Err(error) => tracing::warn!(%error, "cannot ask for the polling role"),
        }
        tokio::select! {
            () = shutdown.cancelled() => return Ok(()),
            () = tokio::time::sleep(LEAD_RETRY) => {}
        }
    }
}

fn start_error(error: RequestError) -> TelegramError {
    match error {
        RequestError::Api(ApiError::InvalidToken) => TelegramError::InvalidToken,
        other => TelegramError::Unreachable {
            reason: other.to_string(),
        },
    }
}
