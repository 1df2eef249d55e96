//! The Discord adapter (`jieqi-discord`) as `run` drives it: built from `DISCORD_TOKEN`,
//! `DISCORD_API_URL`, `DISCORD_GUILD_ID` and `DISCORD_SHARDS` of `DISCORD_SHARD_COUNT`; with
//! `DISCORD_CLIENT_SECRET` (and the web page's `PUBLIC_URL` and `WEB_SECRET`) its Activity.

use std::sync::Arc;

use async_trait::async_trait;
use jieqi_discord::{ClientSecret, Discord, DiscordConfig, DiscordOAuth};
use jieqi_service::{Platform, SendBudgets, Sender, Service};
use tokio_util::sync::CancellationToken;

use super::Adapter;
use crate::config::{Config, Token};

/// Builds the Discord adapter; nothing is contacted before [`Adapter::receive`].
pub(super) fn build(config: &Config, token: &Token) -> anyhow::Result<Box<dyn Adapter>> {
    let mut discord = DiscordConfig::new(token.expose());
    discord.api_url = config.discord_api_url.clone();
    discord.guild_id = config.discord_guild_id;
    discord.shards = config.discord_shards;
    let secret = super::activity_on(config)
        .then(|| {
            config
                .discord_client_secret
                .as_ref()
                .and_then(|s| ClientSecret::new(s.expose()))
        })
        .flatten();
    discord.activity = secret.is_some();
    let discord = Discord::new(discord);
    let oauth = secret.map(|secret| discord.oauth(secret));
    Ok(Box::new(DiscordAdapter(discord, oauth)))
}

#[derive(Debug)]
struct DiscordAdapter(Discord, Option<DiscordOAuth>);

#[async_trait]
impl Adapter for DiscordAdapter {
    fn platform(&self) -> Platform {
        Platform::Discord
    }

    fn sender(&self, budgets: SendBudgets) -> Arc<dyn Sender> {
        self.0.share_budgets(budgets);
        self.0.sender()
    }

    fn activity_sign_in(&self) -> Option<DiscordOAuth> {
        self.1.clone()
    }

    async fn receive(
        self: Box<Self>,
        service: Service,
        shutdown: CancellationToken,
    ) -> anyhow::Result<()> {
        Ok(self.0.run(service, shutdown).await?)
    }
}
