//! The Telegram adapter (`jieqi-telegram`) as `run` drives it: built from `TELEGRAM_TOKEN`,
//! `TELEGRAM_API_URL` and `TELEGRAM_WEBHOOK_URL` (webhook mode when set, listening on
//! `TELEGRAM_WEBHOOK_ADDR` and checking `TELEGRAM_WEBHOOK_SECRET`; long polling otherwise).

use std::sync::Arc;

use async_trait::async_trait;
use jieqi_service::{Platform, SendBudgets, Sender, Service};
use jieqi_telegram::{Receiving, Telegram, TelegramConfig};
use tokio_util::sync::CancellationToken;

use super::Adapter;
use crate::config::{Config, Token};

/// Builds the Telegram adapter; nothing is contacted before it is asked for its username.
pub(super) fn build(config: &Config, token: &Token) -> anyhow::Result<Box<dyn Adapter>> {
    let mut telegram = TelegramConfig::new(token.expose());
    telegram.api_url = config.telegram_api_url.clone();
    if let Some(url) = &config.telegram_webhook_url {
        let Some(secret) = config.telegram_webhook_secret.clone() else {
            anyhow::bail!("TELEGRAM_WEBHOOK_SECRET must be set with TELEGRAM_WEBHOOK_URL");
        };
        telegram.receiving = Receiving::Webhook {
            url: url.clone(),
            listen: config.telegram_webhook_addr,
            secret,
        };
    }
    Ok(Box::new(TelegramAdapter(Telegram::new(telegram))))
}

#[derive(Debug)]
struct TelegramAdapter(Telegram);

#[async_trait]
impl Adapter for TelegramAdapter {
    fn platform(&self) -> Platform {
        Platform::Telegram
    }

    fn sender(&self, budgets: SendBudgets) -> Arc<dyn Sender> {
        self.0.share_budgets(budgets);
        self.0.sender()
    }

    async fn bot_username(&self) -> anyhow::Result<Option<String>> {
        Ok(Some(self.0.bot_username().await?))
    }

    async fn receive(
        self: Box<Self>,
        service: Service,
        shutdown: CancellationToken,
    ) -> anyhow::Result<()> {
        Ok(self.0.receive(service, shutdown).await?)
    }
}
