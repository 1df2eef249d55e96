//! The service's API for the web page (`jieqi-web`): a game's public page and boards, and the
//! news of every committed revision. Read-only: nothing here changes a game, and everything
//! it returns is built from public views (see `game_page`).

use jieqi_render::RenderOptions;
use jieqi_rules::Viewer;

use crate::context::{Ctx, Halt};
use crate::error::ServiceError;
use crate::game_page::{BoardLook, GamePage, build, public_position};
use crate::i18n::Language;
use crate::ids::GameId;
use crate::replay::{LoadedGame, rebuild};
use crate::service::Service;
use crate::settings::ChatSettings;
use crate::store::{GameChange, GameRecord};

impl Service {
    /// The public page of game `id` in `language` (the chat's language if `None`); `None`
    /// if there is no such game.
    pub async fn game_page(
        &self,
        id: &GameId,
        language: Option<Language>,
    ) -> Result<Option<GamePage>, ServiceError> {
        let store = &self.inner.store;
        let Some(record) = store.game(id).await? else {
            return Ok(None);
        };
        let game = match self.inner.cached_game(&record.id, record.revision) {
            Some(game) => game,
            None => rebuild(&record)?,
        };
        let settings = self.chat_settings(&record).await?;
        let ctx = Ctx::for_timer_at(&self.inner, self.inner.config.wall_clock.now());
        let loaded = LoadedGame { record, game };
        let language = language.unwrap_or(settings.language);
        let look = BoardLook::of(&settings);
        match build(&ctx, &loaded, &settings, language, Viewer::Public, look).await {
            Ok(page) => Ok(Some(page)),
            Err(Halt::Store(e)) => Err(e.into()),
            // Building a page refuses nothing.
            Err(Halt::Refuse(_)) => Ok(None),
        }
    }

    /// The public board of game `id` after `ply` moves as a PNG drawn with `options` (with
    /// `ended`, the finished game's last position as its end revealed it); `None` if there is
    /// no such game or position.
    pub async fn public_board(
        &self,
        id: &GameId,
        ply: usize,
        ended: bool,
        options: &RenderOptions,
    ) -> Result<Option<Vec<u8>>, ServiceError> {
        let Some(record) = self.inner.store.game(id).await? else {
            return Ok(None);
        };
        let Some(game) = public_position(&record, ply, ended) else {
            return Ok(None);
        };
        let view = game.view(Viewer::Public);
        Ok(jieqi_render::render(&view, options).ok())
    }

    /// Follows every game revision committed from now on, by this process or (on a shared
    /// store) another.
    pub fn game_changes(&self) -> tokio::sync::broadcast::Receiver<GameChange> {
        self.inner.store.game_changes()
    }

    /// The language of the chat game `id` is played in (its page's default); `None` if there
    /// is no such game.
    pub async fn game_language(&self, id: &GameId) -> Result<Option<Language>, ServiceError> {
        match self.inner.store.game(id).await? {
            Some(record) => Ok(Some(self.chat_settings(&record).await?.language)),
            None => Ok(None),
        }
    }

    /// The stored revision of game `id`; `None` if there is no such game.
    pub async fn game_revision(&self, id: &GameId) -> Result<Option<u64>, ServiceError> {
        Ok(self
            .inner
            .store
            .game(id)
            .await?
            .map(|record| record.revision))
    }

    /// The settings of the chat `record` is played in (the defaults if it has none stored).
    pub(crate) async fn chat_settings(
        &self,
        record: &GameRecord,
    ) -> Result<ChatSettings, ServiceError> {
        Ok(self
            .inner
            .store
            .chat(&record.chat)
            .await?
            .map(|chat| chat.settings)
            .unwrap_or_else(|| ChatSettings::for_language(self.inner.config.default_language)))
    }

    /// One of the bot's sentences, with text arguments (labels of the web page).
    pub fn text(&self, language: Language, key: &str, args: &[(&str, &str)]) -> String {
        let args: Vec<(&str, crate::i18n::Arg<'_>)> = args
            .iter()
            .map(|(name, value)| (*name, crate::i18n::Arg::Str(value)))
            .collect();
        self.inner.translations.text(language, key, &args)
    }
}
