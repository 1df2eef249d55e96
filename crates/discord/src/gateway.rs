//! The gateway side: registering the commands on shard 0's READY, and turning each
//! interaction into a service request.
//!
//! The bot asks for no intents at all: it reads nothing but interactions, which Discord sends
//! to every bot regardless of intents.

use std::sync::Arc;
use std::time::Instant;

use jieqi_service::Service;
use serenity::all::{
    AutocompleteChoice, CommandInteraction, ComponentInteraction, Context,
    CreateAutocompleteResponse, CreateInteractionResponse, EventHandler, GuildId, Interaction,
    Ready,
};
use serenity::async_trait;
use serenity::builder::Builder;
use serenity::http::Http;
use tokio_util::task::TaskTracker;

use crate::commands::{self, MOVE_OPTION};
use crate::config::DiscordConfig;
use crate::error::describe;
use crate::interaction::{self, Origin};
use crate::layout::Post;
use crate::respond::{self, FIRST_ANSWER_WINDOW, Target, Timing};
use crate::rest::Rest;
use crate::sender::DiscordSender;

/// Receives gateway events.
pub(crate) struct Handler {
    pub http: Arc<Http>,
    pub rest: Arc<Rest>,
    pub service: Service,
    pub sender: Arc<DiscordSender>,
    pub config: DiscordConfig,
    /// Interactions being answered; shutdown waits for them.
    pub in_flight: TaskTracker,
}

#[async_trait]
impl EventHandler for Handler {
    async fn ready(&self, ctx: Context, ready: Ready) {
        self.http.set_application_id(ready.application.id);
        tracing::info!(user = %ready.user.name, guilds = ready.guilds.len(), shard = ctx.shard_id.0, "connected to Discord");
        // Every shard gets a READY; the commands are the application's, registered once.
        if ctx.shard_id.0 == 0 {
            self.register().await;
        }
    }

    async fn interaction_create(&self, _ctx: Context, interaction: Interaction) {
        let _in_flight = self.in_flight.token();
        let received = Instant::now();
        match interaction {
            Interaction::Command(command) => self.command(&command, received).await,
            Interaction::Autocomplete(command) => self.autocomplete(&command).await,
            Interaction::Component(component) => self.button(&component, received).await,
            _ => {}
        }
    }
}

impl Handler {
    async fn register(&self) {
        let mut definitions = commands::definitions(self.service.translations());
        if self.config.activity {
            definitions.push(crate::activity::entry_point(self.service.translations()));
        }
        let count = definitions.len();
        let result = match self.config.guild_id {
            Some(guild) => GuildId::from(guild)
                .set_commands(&*self.http, definitions)
                .await
                .map(|_| ()),
            None => serenity::all::Command::set_global_commands(&*self.http, definitions)
                .await
                .map(|_| ()),
        };
        match result {
            Ok(()) => tracing::info!(count, guild = ?self.config.guild_id, "commands registered"),
            Err(e) => tracing::error!(
                error = %describe(&e),
                "cannot register the commands; earlier registrations stay in effect"
            ),
        }
    }

    /// What answering an interaction needs. Follow-ups and edits of the answer go to
    /// `webhooks/{application}/{token}`, so the application id is set from each interaction.
    fn target<'a>(
        &'a self,
        application: serenity::all::ApplicationId,
        id: serenity::all::InteractionId,
        token: &'a str,
        channel: serenity::all::ChannelId,
        from_button: bool,
        received: Instant,
    ) -> Target<'a> {
        Target {
            rest: &self.rest,
            application,
            id,
            token,
            channel,
            from_button,
            deadline: received + FIRST_ANSWER_WINDOW,
        }
    }

    async fn command(&self, command: &CommandInteraction, received: Instant) {
        self.http.set_application_id(command.application_id);
        tracing::debug!(interaction = %command.id, command = %command.data.name, "command");
        let target = self.target(
            command.application_id,
            command.id,
            &command.token,
            command.channel_id,
            false,
            received,
        );
        if self.config.activity
            && command.data.kind == serenity::all::CommandType::PrimaryEntryPoint
        {
            return crate::activity::launch(target).await;
        }
        let request = interaction::command_request(command, self.now());
        respond::answer(target, &self.service, &self.sender, request, self.timing()).await;
    }

    /// Now by the service's clock, the one the process times everything by (the system's
    /// in production; a scripted one in tests, which moves arenas' ends as it moves the
    /// requests).
    fn now(&self) -> std::time::SystemTime {
        self.service.config().wall_clock.now()
    }

    fn timing(&self) -> Timing {
        Timing {
            respond_within: self.config.respond_within,
            take_over_after: self.config.take_over_after,
        }
    }

    /// `/move`: the caller's legal moves in their game here, filtered by what they typed.
    async fn autocomplete(&self, command: &CommandInteraction) {
        let Some(focused) = command.data.autocomplete() else {
            return;
        };
        let choices = if focused.name == MOVE_OPTION {
            let origin = Origin::new(
                command.id,
                command.channel_id,
                command.guild_id,
                &command.user,
                command.member.as_deref(),
                &command.locale,
            );
            let legal = self
                .service
                .legal_move_texts(&origin.chat(), &origin.user.id)
                .await;
            commands::move_choices(legal, focused.value)
        } else {
            Vec::new()
        };
        let response = CreateAutocompleteResponse::new().set_choices(
            choices
                .into_iter()
                .map(|m| AutocompleteChoice::new(m.clone(), m))
                .collect(),
        );
        if let Err(e) = CreateInteractionResponse::Autocomplete(response)
            .execute(&*self.http, (command.id, &command.token))
            .await
        {
            tracing::debug!(error = %describe(&e), "cannot offer moves");
        }
    }

    async fn button(&self, component: &ComponentInteraction, received: Instant) {
        self.http.set_application_id(component.application_id);
        let target = self.target(
            component.application_id,
            component.id,
            &component.token,
            component.channel_id,
            true,
            received,
        );
        if self.config.activity
            && let Some(game) = crate::activity::launches(&component.data.custom_id)
        {
            let chat = interaction::chat_of(component.channel_id);
            return crate::activity::launch_game(target, &self.service, &game, &chat).await;
        }
        let request = match interaction::button_request(component, self.now()) {
            Ok(request) => request,
            Err(refusal) => {
                // Not one of ours (or from an older version): say so, to the presser only.
                let message = jieqi_service::Message::text(
                    jieqi_service::Destination::ReplyToRequester { ephemeral: true },
                    jieqi_service::MessageKind::Refusal,
                    refusal.to_string(),
                );
                let response =
                    CreateInteractionResponse::Message(Post::of(&message).response(true));
                if let Err(e) = response
                    .execute(&*self.http, (component.id, &component.token))
                    .await
                {
                    tracing::debug!(error = %describe(&e), "cannot refuse a foreign button");
                }
                return;
            }
        };
        respond::answer(target, &self.service, &self.sender, request, self.timing()).await;
    }
}
