//! The Discord adapter (`jieqi-discord`) as `run` drives it: built from `DISCORD_TOKEN`,
//! `DISCORD_API_URL`, `DISCORD_GUILD_ID` and `DISCORD_SHARDS` of `DISCORD_SHARD_COUNT`.

use std::sync::Arc;

use async_trait::async_trait;
use jieqi_discord::{Discord, DiscordConfig};
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
    Ok(Box::new(DiscordAdapter(Discord::new(discord))))
}

#[derive(Debug)]
struct DiscordAdapter(Discord);

#[async_trait]
impl Adapter for DiscordAdapter {
    fn platform(&self) -> Platform {
        Platform::Discord
    }

    fn sender(&self, budgets: SendBudgets) -> Arc<dyn Sender> {
        self.0.share_budgets(budgets);
        self.0.sender()
    }

    async fn receive(
        self: Box<Self>,
        service: Service,
        shutdown: CancellationToken,
    ) -> anyhow::Result<()> {
        Ok(self.0.run(service, shutdown).await?)
    }
}
