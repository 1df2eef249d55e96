//! The service: one small shared type (`Service`, an `Arc` inside) that handles requests,
//! runs timers, and hands the outbox to delivery loops.
//!
//! `handle` never panics and is durable before it returns: the request's whole effect (game
//! records, outbox messages, the answer under its idempotency key) is one committed change.
//! A conflicting change (another request or process changed the same records first) is
//! recomputed from fresh reads.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::commands::learn::CoursePlace;
use crate::commands::{self, Parsed};
use crate::config::ServiceConfig;
use crate::context::{Ctx, Halt, LoadedGame, rebuild};
use crate::error::ServiceError;
use crate::i18n::{Language, Translations};
use crate::ids::{ChatId, GameId, UserId};
use crate::message::{Answer, Destination, Image, Message, MessageKind, OutboxId};
use crate::metrics::{Event, MetricsRegistry, MetricsSnapshot};
use crate::request::Request;
pub(crate) use crate::state::{Inner, lock};
use crate::store::{
    AnswerRecord, Change, CommitError, GameRecord, GameStore, Leadership, RequestKey, SledStore,
    StoreError, StoredReply,
};

/// A step of [`Service::commit_unattended`], boxed so that the task running it stays `Send`.
pub(crate) type StepFuture<'c> =
    std::pin::Pin<Box<dyn std::future::Future<Output = crate::context::Step> + Send + 'c>>;

/// How often a change is recomputed after conflicts before giving up.
pub(crate) const ATTEMPTS: usize = 8;
/// Failed delivery rounds after which a message is dropped.
pub(crate) const MAX_DELIVERY_ROUNDS: u32 = 12;

/// The bot without a platform. Cheap to clone.
#[derive(Clone)]
pub struct Service {
    pub(crate) inner: Arc<Inner>,
}

impl std::fmt::Debug for Service {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Service")
            .field("store", &self.inner.store)
            .finish_non_exhaustive()
    }
}

impl Service {
    /// Opens the sled store in `config.data_dir` and starts the service on it.
    pub fn open(config: ServiceConfig) -> Result<Service, ServiceError> {
        let store = SledStore::open(&config.data_dir)?;
        Service::open_with_store(Arc::new(store), config)
    }

    /// Starts the service on a store of the caller's choosing.
    pub fn open_with_store(
        store: Arc<dyn GameStore>,
        config: ServiceConfig,
    ) -> Result<Service, ServiceError> {
        if !(jieqi_render::MIN_WIDTH..=jieqi_render::MAX_WIDTH).contains(&config.board_width) {
            return Err(ServiceError::Config(format!(
                "board_width must be {} to {} pixels, not {}",
                jieqi_render::MIN_WIDTH,
                jieqi_render::MAX_WIDTH,
                config.board_width
            )));
        }
        let service = Service {
            inner: Arc::new(Inner::new(store, config)),
        };
        // Games left waiting for the engine's move (a restart) are picked up by the first
        // `tick`, which the clock runs at once: reads are async, and a scan started here could
        // race with the first requests.
        Ok(service)
    }

    /// The configuration it runs with.
    pub fn config(&self) -> &ServiceConfig {
        &self.inner.config
    }

    /// Handles one request: carries it out (or refuses it, saying why) and records the answer
    /// under the request's key. Durable before it returns. A key seen before returns the
    /// earlier answer and changes nothing.
    pub async fn handle(&self, request: Request) -> Answer {
        let started = Instant::now();
        let request = request.cleaned();
        let answer = self.handle_inner(&request).await;
        self.inner.metrics.request_took(started.elapsed());
        answer
    }

    async fn handle_inner(&self, request: &Request) -> Answer {
        let key = RequestKey::new(request.chat.platform, &request.key);
        let mut first_read = match self.inner.store.answer_and_chat(&key, &request.chat).await {
            Ok((Some(earlier), _)) => return self.repeat(earlier).await,
            Ok((None, chat)) => Some(chat),
            Err(e) => return self.store_failure(request, &e).await,
        };
        let command =
            match commands::parse(&request.input, self.inner.config.bot_username.as_deref()) {
                Parsed::Command(command) => command,
                Parsed::Ignore => return Answer::default(),
            };
        for _ in 0..ATTEMPTS {
            // A retry (the game changed meanwhile) reads the chat again.
            let stored_chat = match first_read.take() {
                Some(chat) => chat,
                None => match self.inner.store.chat(&request.chat).await {
                    Ok(chat) => chat,
                    Err(e) => return self.store_failure(request, &e).await,
                },
            };
            let mut ctx = Ctx::for_request(&self.inner, request, key.clone(), stored_chat);
            match command.apply(&mut ctx).await {
                Ok(()) => {}
                Err(Halt::Refuse(sentence)) => {
                    ctx.discard_changes();
                    ctx.count(Event::Refusal);
                    let text = ctx.say(&sentence);
                    ctx.reply(Message::text(
                        Destination::ReplyToRequester { ephemeral: true },
                        MessageKind::Refusal,
                        text,
                    ));
                }
                Err(Halt::Store(e)) => return self.store_failure(request, &e).await,
            }
            let change = ctx.take_change();
            let answer = Answer {
                replies: std::mem::take(&mut ctx.replies),
            };
            match self
                .commit(change, ctx.events, ctx.loaded, ctx.pictures)
                .await
            {
                Ok(()) => return answer,
                Err(CommitError::Conflict) => continue,
                Err(CommitError::Duplicate(earlier)) => return self.repeat(earlier).await,
                Err(CommitError::Store(e)) => return self.store_failure(request, &e).await,
            }
        }
        self.busy(request).await
    }

    /// The earlier answer to a repeated request, its pictures drawn again from their recipes.
    pub(crate) async fn repeat(&self, earlier: AnswerRecord) -> Answer {
        let mut replies = Vec::with_capacity(earlier.replies.len());
        for StoredReply {
            mut message,
            picture,
        } in earlier.replies
        {
            if let Some(recipe) = picture {
                message.image = match crate::pictures::redraw_recipe(
                    self.inner.store.as_ref(),
                    &recipe,
                )
                .await
                {
                    Ok(image) => image,
                    Err(error) => {
                        tracing::warn!(%error, "a repeated answer's picture cannot be drawn");
                        None
                    }
                };
            }
            replies.push(message);
        }
        Answer { replies }
    }

    /// Carries out a change nobody asked for (a timer, a daily puzzle, the engine's move):
    /// `step` computes it at `now` and it is committed, computed again from fresh reads after
    /// a conflict. Returns whether something was committed; a step that refuses, or changes
    /// nothing, commits nothing.
    pub(crate) async fn commit_unattended(
        &self,
        now: crate::store::UnixTime,
        step: impl for<'c, 'i> Fn(&'c mut Ctx<'i>) -> StepFuture<'c>,
    ) -> Result<bool, StoreError> {
        let at = std::time::UNIX_EPOCH + Duration::from_secs(now);
        self.commit_unattended_at(at, step).await
    }

    /// [`Service::commit_unattended`] at `at` on this process's clock, to the millisecond (a
    /// flag, the engine's move on a live game's clock).
    pub(crate) async fn commit_unattended_at(
        &self,
        at: std::time::SystemTime,
        step: impl for<'c, 'i> Fn(&'c mut Ctx<'i>) -> StepFuture<'c>,
    ) -> Result<bool, StoreError> {
        for _ in 0..ATTEMPTS {
            let mut ctx = Ctx::for_timer_at(&self.inner, at);
            match step(&mut ctx).await {
                Ok(()) => {}
                Err(Halt::Refuse(_)) => return Ok(false),
                Err(Halt::Store(e)) => return Err(e),
            }
            let change = ctx.take_change();
            if change.is_empty() {
                return Ok(false);
            }
            match self
                .commit(change, ctx.events, ctx.loaded, ctx.pictures)
                .await
            {
                Ok(()) => return Ok(true),
                // Another process did it first, or the records changed: look again.
                Err(CommitError::Conflict | CommitError::Duplicate(_)) => continue,
                Err(CommitError::Store(e)) => return Err(e),
            }
        }
        Ok(false)
    }

    pub(crate) async fn commit(
        &self,
        mut change: Change,
        events: Vec<Event>,
        loaded: Vec<LoadedGame>,
        pictures: Vec<(OutboxId, Image)>,
    ) -> Result<(), CommitError> {
        // A live game's board held back for its time goes out now if anything else about
        // the game is queued behind it (`live_boards.rs`).
        crate::live_boards::release_held(
            self.inner.store.as_ref(),
            &mut change,
            self.delivery_now(),
        )
        .await?;
        let queued = !change.outbox.is_empty();
        let review_asked = !change.queued_reviews.is_empty();
        let engine_turns: Vec<GameId> = loaded
            .iter()
            .filter(|l| crate::context::engine_to_move(l))
            .map(|l| l.record.id.clone())
            .collect();
        // Every game written: its flag timer follows the revision committed.
        let flags: Vec<crate::flag_timers::FlagNews> = change
            .games
            .iter()
            .map(crate::flag_timers::FlagNews::of)
            .collect();
        self.inner.store.commit(change).await?;
        if !pictures.is_empty() {
            let mut cache = lock(&self.inner.pictures);
            for (id, image) in pictures {
                cache.insert(id, image);
            }
        }
        for event in events {
            self.inner.metrics.count(event);
        }
        self.arm_flags(flags);
        self.inner.remember(loaded);
        if queued {
            self.inner
                .outbox_signal
                .send_modify(|n| *n = n.wrapping_add(1));
        }
        for id in engine_turns {
            self.think_later(id);
        }
        if review_asked {
            self.start_reviews();
        }
        Ok(())
    }

    pub(crate) async fn reply_language(&self, request: &Request) -> Language {
        let chat = self.inner.store.chat(&request.chat).await.ok().flatten();
        chat.map(|c| c.settings.language)
            .or_else(|| {
                request
                    .user
                    .language
                    .as_deref()
                    .and_then(Language::from_tag)
            })
            .unwrap_or(self.inner.config.default_language)
    }

    async fn store_failure(&self, request: &Request, error: &StoreError) -> Answer {
        tracing::error!(%error, chat = %request.chat, "store failure");
        self.inner.metrics.count(Event::StoreError);
        let text =
            self.inner
                .translations
                .text(self.reply_language(request).await, "error-store", &[]);
        Answer::reply(Message::text(
            Destination::ReplyToRequester { ephemeral: true },
            MessageKind::Refusal,
            text,
        ))
    }

    async fn busy(&self, request: &Request) -> Answer {
        let text =
            self.inner
                .translations
                .text(self.reply_language(request).await, "error-busy", &[]);
        Answer::reply(Message::text(
            Destination::ReplyToRequester { ephemeral: true },
            MessageKind::Refusal,
            text,
        ))
    }

    /// The legal moves (as typed: coordinates, Banqi squares) of the caller's game in this
    /// chat when it is their turn; with no game of theirs here, those of their open lesson
    /// (`/learn`) if they have one, else of the chat's open puzzle; empty otherwise. For
    /// Discord's autocomplete.
    pub async fn legal_move_texts(&self, chat: &ChatId, user: &UserId) -> Vec<String> {
        let store = &self.inner.store;
        let Ok(chat) = store.chat(chat).await else {
            return Vec::new();
        };
        let games = chat.as_ref().map(|c| c.games.clone()).unwrap_or_default();
        let mut mine = Vec::new();
        for id in &games {
            if let Ok(Some(g)) = store.game(id).await
                && g.is_active()
                && g.seat_of(user).is_some()
            {
                mine.push(g);
            }
        }
        // With no game of theirs here, `/move` answers their lesson, else the chat's puzzle.
        if mine.is_empty() {
            let lesson = self.lesson_move_texts(user).await;
            if !lesson.is_empty() {
                return lesson;
            }
            return chat
                .map(|c| crate::puzzle_play::legal_move_texts(&c))
                .unwrap_or_default();
        }
        // Only when exactly one game of theirs is here is it clear which moves to offer.
        let Ok([record]) = <[GameRecord; 1]>::try_from(mine) else {
            return Vec::new();
        };
        let game = match self.inner.cached_game(&record.id, record.revision) {
            Some(game) => game,
            None => match rebuild(&record) {
                Ok(game) => game,
                Err(_) => return Vec::new(),
            },
        };
        let to_move = crate::announce::our_seat(game.seat_to_move());
        if record.seat_of(user) != Some(to_move) {
            return Vec::new();
        }
        game.legal_move_texts()
    }

    /// The legal moves of `user`'s open lesson, if they have one.
    async fn lesson_move_texts(&self, user: &UserId) -> Vec<String> {
        let Ok(Some(player)) = self.inner.store.player(user).await else {
            return Vec::new();
        };
        if !player.course.open {
            return Vec::new();
        }
        match player.course.place().rebuild() {
            Ok(state) => state.game.legal_move_texts(),
            Err(_) => Vec::new(),
        }
    }

    /// Takes `role` for this process if no other process holds it (one Telegram poller
    /// among several processes); `None` if another holds it. Dropping the lease gives it up.
    pub async fn lead(&self, role: &str) -> Result<Option<Leadership>, ServiceError> {
        Ok(self.inner.store.lead(role).await?)
    }

    /// Writes everything to disk (call before exiting).
    pub async fn shutdown(&self) -> Result<(), ServiceError> {
        Ok(self.inner.store.flush().await?)
    }

    /// The chat commands with a one-line description each in `language`, for command menus
    /// (Telegram `setMyCommands`, Discord slash command descriptions).
    pub fn command_menu(&self, language: Language) -> Vec<(&'static str, String)> {
        crate::menu::COMMANDS
            .iter()
            .map(|c| {
                (
                    c.name,
                    self.inner.translations.text(language, c.description, &[]),
                )
            })
            .collect()
    }

    /// The bot's sentences in every language it speaks (for texts an adapter shows outside
    /// answers, such as Discord's command descriptions).
    pub fn translations(&self) -> &Translations {
        &self.inner.translations
    }

    /// The send budgets kept in the store, shared by every process using it: adapters pace
    /// their posts to a chat, and the bot's overall, by these.
    pub fn send_budgets(&self) -> crate::SendBudgets {
        crate::SendBudgets::in_store(self.inner.store.clone())
    }

    /// Counters since start.
    pub fn metrics(&self) -> MetricsSnapshot {
        self.inner.metrics.snapshot()
    }

    /// The registry behind `/metrics`: the service's metrics, and a place for other parts of
    /// the program to add theirs (see [`crate::metrics`]).
    pub fn metrics_registry(&self) -> MetricsRegistry {
        self.inner.metrics.registry().clone()
    }
}

pub(crate) fn commit_error(e: CommitError) -> ServiceError {
    match e {
        CommitError::Store(e) => ServiceError::Store(e),
        other => ServiceError::Store(StoreError::Backend(other.to_string())),
    }
}

/// How long a delivery loop waits for new messages before looking again anyway (other
/// processes may have queued some).
pub(crate) const IDLE_POLL: Duration = Duration::from_secs(2);
