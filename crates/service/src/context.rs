//! The working state of one request (or one timer): what it read, the [`Change`] it builds,
//! the replies for the requester, and the locks it holds. A command reads through it, adds
//! records and messages to it, and the service commits it as one transaction.

use std::time::{SystemTime, UNIX_EPOCH};

use tokio::sync::OwnedMutexGuard;

use crate::i18n::{Arg, Language, Translations};
use crate::ids::{ChallengeId, ChatId, GameId, User, UserId};
use crate::message::{Destination, Image, Message, MessageKind, OutboxId};
use crate::metrics::Event;
use crate::pictures::{Picture, PictureSpec};
pub(crate) use crate::replay::{LoadedGame, rebuild};
use crate::request::Request;
use crate::settings::ChatSettings;
use crate::state::Inner;
use crate::store::{
    AnswerRecord, BoardMoves, ChallengeRecord, Change, ChatRecord, GameRecord, ImageRecipe,
    OutboxRecord, PlayerRecord, RequestKey, StoreError, StoredReply, UnixTime,
};

/// Seconds since the epoch (0 for times before it).
pub(crate) fn unix(time: SystemTime) -> UnixTime {
    time.duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// Milliseconds since the epoch (0 for times before it).
pub(crate) fn unix_millis(time: SystemTime) -> crate::store::UnixMillis {
    time.duration_since(UNIX_EPOCH)
        .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
        .unwrap_or(0)
}

/// A value for a translated sentence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Value {
    Text(String),
    Number(i64),
}

impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::Text(s.to_owned())
    }
}

impl From<String> for Value {
    fn from(s: String) -> Value {
        Value::Text(s)
    }
}

impl From<&String> for Value {
    fn from(s: &String) -> Value {
        Value::Text(s.clone())
    }
}

impl From<usize> for Value {
    fn from(n: usize) -> Value {
        Value::Number(i64::try_from(n).unwrap_or(i64::MAX))
    }
}

impl From<u64> for Value {
    fn from(n: u64) -> Value {
        Value::Number(i64::try_from(n).unwrap_or(i64::MAX))
    }
}

/// A sentence to translate: a message id and its arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Sentence {
    pub key: &'static str,
    pub args: Vec<(&'static str, Value)>,
}

impl Sentence {
    pub(crate) fn new(key: &'static str) -> Sentence {
        Sentence {
            key,
            args: Vec::new(),
        }
    }

    pub(crate) fn arg(mut self, name: &'static str, value: impl Into<Value>) -> Sentence {
        self.args.push((name, value.into()));
        self
    }

    /// The sentence in `language`.
    pub(crate) fn render(&self, translations: &Translations, language: Language) -> String {
        let args: Vec<(&str, Arg<'_>)> = self
            .args
            .iter()
            .map(|(name, value)| {
                let arg = match value {
                    Value::Text(s) => Arg::Str(s),
                    Value::Number(n) => Arg::Num(*n),
                };
                (*name, arg)
            })
            .collect();
        translations.text(language, self.key, &args)
    }
}

/// Why a request stops.
#[derive(Debug)]
pub(crate) enum Halt {
    /// Not carried out: tell the requester why (and what to do).
    Refuse(Sentence),
    /// The store failed: nothing is recorded, the requester may try again.
    Store(StoreError),
}

impl From<StoreError> for Halt {
    fn from(e: StoreError) -> Halt {
        Halt::Store(e)
    }
}

impl From<Sentence> for Halt {
    fn from(s: Sentence) -> Halt {
        Halt::Refuse(s)
    }
}

pub(crate) type Step<T = ()> = Result<T, Halt>;

/// A refusal with that sentence.
pub(crate) fn refuse<T>(sentence: Sentence) -> Step<T> {
    Err(Halt::Refuse(sentence))
}

/// The working state of one request or timer.
pub(crate) struct Ctx<'a> {
    pub inner: &'a Inner,
    /// The request being handled (`None` for timers).
    pub request: Option<&'a Request>,
    pub now: UnixTime,
    /// Now on the shared clock live games are timed by (the request's arrival, or the
    /// timer's instant), in milliseconds.
    pub clock_now: jieqi_clock::Timestamp,
    pub change: Change,
    pub replies: Vec<Message>,
    /// Counted once the change is committed.
    pub events: Vec<Event>,
    /// Games to remember in the replay cache once committed.
    pub loaded: Vec<LoadedGame>,
    /// Pictures of queued messages, cached for delivery once committed.
    pub pictures: Vec<(OutboxId, Image)>,
    guards: Vec<OwnedMutexGuard<()>>,
    answer_key: Option<RequestKey>,
    /// The request's chat as stored when the request began (its settings and language).
    stored_chat: Option<ChatRecord>,
    /// Recipes of the replies' pictures, by reply index (kept with the answer for repeats).
    pub reply_pictures: Vec<(usize, ImageRecipe)>,
}

impl<'a> Ctx<'a> {
    pub(crate) fn for_request(
        inner: &'a Inner,
        request: &'a Request,
        key: RequestKey,
        stored_chat: Option<ChatRecord>,
    ) -> Ctx<'a> {
        Ctx {
            inner,
            request: Some(request),
            now: unix(request.received_at),
            clock_now: inner.shared_clock.at(request.received_at),
            change: Change {
                durable: true,
                ..Change::default()
            },
            replies: Vec::new(),
            events: Vec::new(),
            loaded: Vec::new(),
            pictures: Vec::new(),
            guards: Vec::new(),
            answer_key: Some(key),
            stored_chat,
            reply_pictures: Vec::new(),
        }
    }

    /// A timer's context at `at` on this process's clock, to the millisecond (a flag).
    pub(crate) fn for_timer_at(inner: &'a Inner, at: SystemTime) -> Ctx<'a> {
        Ctx {
            inner,
            request: None,
            now: unix(at),
            clock_now: inner.shared_clock.at(at),
            change: Change {
                durable: true,
                ..Change::default()
            },
            replies: Vec::new(),
            events: Vec::new(),
            loaded: Vec::new(),
            pictures: Vec::new(),
            guards: Vec::new(),
            answer_key: None,
            stored_chat: None,
            reply_pictures: Vec::new(),
        }
    }

    /// The request (commands always have one).
    pub(crate) fn req(&self) -> Step<&'a Request> {
        self.request
            .ok_or_else(|| Halt::Refuse(Sentence::new("error-internal")))
    }

    /// The requester.
    pub(crate) fn user(&self) -> Step<&'a User> {
        Ok(&self.req()?.user)
    }

    /// The chat of the request.
    pub(crate) fn chat_id(&self) -> Step<&'a ChatId> {
        Ok(&self.req()?.chat)
    }

    /// Drops what was changed so far (a refusal after some work), keeping replies.
    pub(crate) fn discard_changes(&mut self) {
        let durable = self.change.durable;
        self.change = Change {
            durable,
            ..Change::default()
        };
        self.events.clear();
        self.loaded.clear();
        self.pictures.clear();
    }

    /// Takes the change to commit, with the answer recorded under the request key.
    pub(crate) fn take_change(&mut self) -> Change {
        let mut change = std::mem::take(&mut self.change);
        if let Some(key) = self.answer_key.clone() {
            change.request = Some((
                key,
                AnswerRecord {
                    at: self.now,
                    replies: self
                        .replies
                        .iter()
                        .enumerate()
                        .map(|(i, reply)| StoredReply {
                            message: crate::message::Message {
                                image: None,
                                ..reply.clone()
                            },
                            picture: self
                                .reply_pictures
                                .iter()
                                .find(|(at, _)| *at == i)
                                .map(|(_, recipe)| recipe.clone()),
                        })
                        .collect(),
                },
            ));
        }
        change
    }

    // ----- locks -----

    /// Holds the per-game lock until the request is done.
    pub(crate) async fn lock_game(&mut self, id: &GameId) {
        let guard = self.inner.locks.lock(format!("g:{id}")).await;
        self.guards.push(guard);
    }

    /// Holds the per-chat lock (creating games, one per pair of players) until done.
    pub(crate) async fn lock_chat(&mut self, chat: &ChatId) {
        let guard = self.inner.locks.lock(format!("h:{chat}")).await;
        self.guards.push(guard);
    }

    // ----- reads (seeing this request's own writes first) -----

    pub(crate) async fn game_record(&self, id: &GameId) -> Step<Option<GameRecord>> {
        if let Some(g) = self.change.games.iter().find(|g| g.id == *id) {
            return Ok(Some(g.clone()));
        }
        Ok(self.inner.store.game(id).await?)
    }

    /// The game rebuilt from its record (from the replay cache when it is current).
    pub(crate) async fn load_game(&self, id: &GameId) -> Step<Option<LoadedGame>> {
        let Some(record) = self.game_record(id).await? else {
            return Ok(None);
        };
        if let Some(game) = self.inner.cached_game(id, record.revision) {
            return Ok(Some(LoadedGame { record, game }));
        }
        let game = rebuild(&record)?;
        Ok(Some(LoadedGame { record, game }))
    }

    pub(crate) async fn challenge_record(&self, id: &ChallengeId) -> Step<Option<ChallengeRecord>> {
        if self.change.removed_challenges.iter().any(|(c, _)| c == id) {
            return Ok(None);
        }
        if let Some(c) = self.change.challenges.iter().find(|c| c.id == *id) {
            return Ok(Some(c.clone()));
        }
        Ok(self.inner.store.challenge(id).await?)
    }

    /// A chat's record, or a fresh one (not stored until saved) with default settings in the
    /// requester's language.
    pub(crate) async fn chat_record(&self, chat: &ChatId) -> Step<ChatRecord> {
        if let Some(c) = self.change.chats.iter().find(|c| c.chat == *chat) {
            return Ok(c.clone());
        }
        if self.request.is_some_and(|r| r.chat == *chat) {
            if let Some(c) = &self.stored_chat {
                return Ok(c.clone());
            }
        } else if let Some(c) = self.inner.store.chat(chat).await? {
            return Ok(c);
        }
        Ok(ChatRecord::new(
            chat.clone(),
            ChatSettings::for_language(self.fresh_chat_language()),
        ))
    }

    pub(crate) async fn player_record(&self, user: &User) -> Step<PlayerRecord> {
        if let Some(p) = self.change.players.iter().find(|p| p.user == user.id) {
            return Ok(p.clone());
        }
        Ok(self
            .inner
            .store
            .player(&user.id)
            .await?
            .unwrap_or_else(|| PlayerRecord::new(user)))
    }

    pub(crate) async fn player_record_by_id(&self, user: &UserId) -> Step<Option<PlayerRecord>> {
        if let Some(p) = self.change.players.iter().find(|p| p.user == *user) {
            return Ok(Some(p.clone()));
        }
        Ok(self.inner.store.player(user).await?)
    }

    /// The tournament of `chat` not yet over, if it has one (a chat runs one at a time).
    pub(crate) async fn chat_tournament(
        &self,
        chat: &ChatId,
    ) -> Step<Option<crate::store::TournamentRecord>> {
        let mut found = None;
        for stored in self.inner.store.chat_tournaments(chat).await? {
            let current = match self.change.tournaments.iter().find(|t| t.id == stored.id) {
                Some(t) => t.clone(),
                None => stored,
            };
            if !current.state.is_over() {
                found = Some(current);
            }
        }
        if found.is_none() {
            found = self
                .change
                .tournaments
                .iter()
                .find(|t| t.chat == *chat && !t.state.is_over())
                .cloned();
        }
        Ok(found)
    }

    // ----- writes -----

    /// Saves a tournament (its revision bumped once per request, as every record's).
    pub(crate) fn save_tournament(&mut self, record: crate::store::TournamentRecord) {
        let id = record.id.clone();
        upsert(
            &mut self.change.tournaments,
            record,
            |t| t.id == id,
            |t| &mut t.revision,
        );
    }

    pub(crate) fn save_game(&mut self, mut record: GameRecord) {
        if let Some(slot) = self.change.games.iter_mut().find(|g| g.id == record.id) {
            record.revision = slot.revision;
            *slot = record;
        } else {
            record.revision += 1;
            self.change.games.push(record);
        }
    }

    pub(crate) fn save_loaded(&mut self, loaded: LoadedGame) {
        let id = loaded.record.id.clone();
        self.save_game(loaded.record);
        if let Some(record) = self.change.games.iter().find(|g| g.id == id) {
            let snapshot = LoadedGame {
                record: record.clone(),
                game: loaded.game,
            };
            self.loaded.retain(|l| l.record.id != id);
            self.loaded.push(snapshot);
        }
    }

    pub(crate) fn save_challenge(&mut self, record: ChallengeRecord) {
        let id = record.id.clone();
        upsert(
            &mut self.change.challenges,
            record,
            |c| c.id == id,
            |c| &mut c.revision,
        );
    }

    pub(crate) fn remove_challenge(&mut self, record: &ChallengeRecord) {
        self.change.challenges.retain(|c| c.id != record.id);
        self.change
            .removed_challenges
            .push((record.id.clone(), record.revision));
    }

    pub(crate) fn save_chat(&mut self, record: ChatRecord) {
        let chat = record.chat.clone();
        upsert(
            &mut self.change.chats,
            record,
            |c| c.chat == chat,
            |c| &mut c.revision,
        );
    }

    pub(crate) fn save_player(&mut self, record: PlayerRecord) {
        let user = record.user.clone();
        upsert(
            &mut self.change.players,
            record,
            |p| p.user == user,
            |p| &mut p.revision,
        );
    }

    /// Queues a message in the outbox; returns its id (for later edits).
    pub(crate) async fn post(
        &mut self,
        message: Message,
        fallback_chat: Option<ChatId>,
    ) -> Step<OutboxId> {
        self.post_record(message, None, fallback_chat, None).await
    }

    /// Queues a message with a board picture: the store keeps the picture's recipe, the
    /// drawn bytes wait in memory for delivery.
    pub(crate) async fn post_picture(
        &mut self,
        message: Message,
        picture: Picture,
        fallback_chat: Option<ChatId>,
    ) -> Step<OutboxId> {
        self.post_board(message, picture, fallback_chat, None).await
    }

    /// [`Ctx::post_picture`] for a board that names moves (`covers`): a newer board of the
    /// same game may stand in for it while both wait in the outbox.
    pub(crate) async fn post_board(
        &mut self,
        message: Message,
        picture: Picture,
        fallback_chat: Option<ChatId>,
        covers: Option<BoardMoves>,
    ) -> Step<OutboxId> {
        let id = self
            .post_record(message, Some(picture.spec), fallback_chat, covers)
            .await?;
        if let Some(image) = picture.image {
            self.pictures.push((id, image));
        }
        Ok(id)
    }

    async fn post_record(
        &mut self,
        mut message: Message,
        picture: Option<PictureSpec>,
        fallback_chat: Option<ChatId>,
        covers: Option<BoardMoves>,
    ) -> Step<OutboxId> {
        if picture.is_some() {
            message.image = None;
        }
        let id = crate::store::one_outbox_id(self.inner.store.as_ref()).await?;
        self.change.outbox.push((
            id,
            OutboxRecord {
                fallback_chat,
                picture,
                covers,
                ..OutboxRecord::new(message, self.now)
            },
        ));
        Ok(id)
    }

    /// Holds queued message `id` until `until` (milliseconds, the delivery's clock): its lane
    /// is not claimed before then (a live game's board, `live_boards.rs`).
    pub(crate) fn hold_until(&mut self, id: OutboxId, until: crate::store::UnixMillis) {
        if let Some((_, record)) = self.change.outbox.iter_mut().find(|(i, _)| *i == id) {
            record.not_before = until;
        }
    }

    /// Adds a reply for the requester.
    pub(crate) fn reply(&mut self, message: Message) {
        self.replies.push(message);
    }

    /// Adds a reply with a picture, remembering how to draw it again for a repeated request.
    pub(crate) fn reply_with_picture(
        &mut self,
        message: Message,
        image: Option<Image>,
        recipe: ImageRecipe,
    ) {
        if image.is_some() {
            self.reply_pictures.push((self.replies.len(), recipe));
        }
        self.replies.push(message.with_image(image));
    }

    /// A guide for everyone in the chat (`/rules`, a lesson) with its picture.
    pub(crate) fn guide_with_picture(
        &mut self,
        text: String,
        image: Option<Image>,
        recipe: ImageRecipe,
    ) {
        self.reply_with_picture(
            Message::text(
                Destination::ReplyToRequester { ephemeral: false },
                MessageKind::Guide,
                text,
            ),
            image,
            recipe,
        );
    }

    /// Counts `event` once the change is committed.
    pub(crate) fn count(&mut self, event: Event) {
        self.events.push(event);
    }

    // ----- language -----

    /// The language a new chat starts with: the requester's client language if we speak it,
    /// else the configured default.
    fn fresh_chat_language(&self) -> Language {
        self.request
            .and_then(|r| r.user.language.as_deref())
            .and_then(Language::from_tag)
            .unwrap_or(self.inner.config.default_language)
    }

    /// The settings of the request's chat (defaults if it was never stored).
    pub(crate) fn settings(&self) -> ChatSettings {
        let Some(request) = self.request else {
            return ChatSettings::for_language(self.fresh_chat_language());
        };
        self.change
            .chats
            .iter()
            .find(|c| c.chat == request.chat)
            .or(self.stored_chat.as_ref())
            .map(|c| c.settings)
            .unwrap_or_else(|| ChatSettings::for_language(self.fresh_chat_language()))
    }

    /// The language of replies to the requester: the chat's.
    pub(crate) fn lang(&self) -> Language {
        self.settings().language
    }

    /// The language of a private message to `user`: their client's if we speak it, else
    /// `fallback` (the game chat's).
    pub(crate) fn lang_of(user: &User, fallback: Language) -> Language {
        user.language
            .as_deref()
            .and_then(Language::from_tag)
            .unwrap_or(fallback)
    }

    /// `sentence` in `language`.
    pub(crate) fn say_in(&self, language: Language, sentence: &Sentence) -> String {
        sentence.render(&self.inner.translations, language)
    }

    /// `sentence` in the requester's chat language.
    pub(crate) fn say(&self, sentence: &Sentence) -> String {
        self.say_in(self.lang(), sentence)
    }

    /// A plain text reply to the requester.
    pub(crate) fn reply_text(&mut self, kind: MessageKind, ephemeral: bool, sentence: &Sentence) {
        let text = self.say(sentence);
        self.reply(Message::text(
            Destination::ReplyToRequester { ephemeral },
            kind,
            text,
        ));
    }
}

/// Puts `record` into a change's list, replacing an earlier save of the same record in this
/// request. The revision is bumped once per request: a second save keeps the revision the
/// first one set, so the store's revision check sees one change, not two.
fn upsert<T>(
    list: &mut Vec<T>,
    mut record: T,
    same: impl Fn(&T) -> bool,
    revision: fn(&mut T) -> &mut u64,
) {
    if let Some(slot) = list.iter_mut().find(|r| same(r)) {
        *revision(&mut record) = *revision(slot);
        *slot = record;
    } else {
        *revision(&mut record) += 1;
        list.push(record);
    }
}

/// True if `loaded` is a running game against the engine with the engine to move.
pub(crate) fn engine_to_move(loaded: &LoadedGame) -> bool {
    loaded.record.is_active()
        && loaded.game.outcome().is_none()
        && loaded
            .record
            .engine
            .as_ref()
            .is_some_and(|e| e.seat == crate::replay::our_seat(loaded.game.seat_to_move()))
}
