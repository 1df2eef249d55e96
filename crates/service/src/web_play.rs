//! The service's API for players on the web board (`jieqi-web`): their own page and boards,
//! built from their view, and their moves, draw offers and resignations, which enter as
//! ordinary requests through [`Service::handle`]: the same rules, refusals, idempotency and
//! chat posts as when typed in the chat. The web crate checks who the person is (a personal
//! link's token, Telegram's `initData`); everything here takes that person as given.

use std::time::SystemTime;

use jieqi_render::{PieceStyle, RenderOptions};
use jieqi_rules::Viewer;

use crate::context::{Ctx, Halt, unix};
use crate::error::ServiceError;
use crate::game_page::public_position;
use crate::i18n::Language;
use crate::ids::{GameId, IdempotencyKey, UserId};
use crate::message::{Destination, MessageKind};
use crate::personal_link::{PersonalToken, TokenError};
use crate::player_page::{PlayerPage, build_player, player_look};
use crate::replay::{LoadedGame, rebuild, side_of};
use crate::request::{ButtonAction, Input, Request};
use crate::service::Service;
use crate::settings::{PersonalSettings, Style};

/// The longest key a page may give its action (it picks one per move and sends it again on
/// a retry).
const ACTION_KEY_LONGEST: usize = 64;

/// What a player does on the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PageAction {
    /// Play this move, as `/move` takes it (`h2e2`, Banqi `c3`), with the network delay the
    /// page measured (its round trip to the bot, less the bot's own time; zero if unknown).
    Move {
        /// The move.
        play: String,
        /// The measured delay, at most [`PAGE_LAG_LONGEST`]; a live game's clock gives back
        /// at most 1 s of it a move, within its quota.
        lag: std::time::Duration,
    },
    /// Offer a draw, or accept the opponent's offer.
    OfferDraw,
    /// Resign (the page has asked "really?" already).
    Resign,
    /// A rematch of this finished game, as its Rematch button asks (`/rematch`).
    Rematch,
}

/// The longest network delay a page may report with a move. The clock gives back at most
/// 1 s a move whatever is reported; a figure beyond this is not a measurement but a wrong
/// page, and is refused rather than silently cut.
pub const PAGE_LAG_LONGEST: std::time::Duration = std::time::Duration::from_secs(10);

/// How the service answered an action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PageActionAnswer {
    /// Done; with what the chat answered the player (usually nothing: the board post says it).
    Done(Vec<String>),
    /// Refused, with the reason as the chat would have given it.
    Refused(String),
    /// A rematch asked for from the page started: the new game, and this player's page of
    /// it (a personal link, when those are set up) for the page to follow.
    Rematched {
        /// The new game.
        game: GameId,
        /// The player's own page of it, if personal links are on.
        link: Option<String>,
    },
}

/// Why an action was not even tried.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PageActionError {
    /// No such game.
    #[error("there is no such game")]
    NoGame,
    /// The person does not play in this game.
    #[error("you are not a player in this game")]
    NotAPlayer,
    /// The action or its key is not one the page sends.
    #[error("{0}")]
    Malformed(&'static str),
    /// The store failed.
    #[error(transparent)]
    Service(#[from] ServiceError),
}

/// A player's own board, as [`Service::player_board`] answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlayerBoard {
    /// The PNG.
    Drawn(Vec<u8>),
    /// The asker does not play in this game (or there is no such game).
    NotAPlayer,
    /// The game has no such position (past its last move, or its end while it runs).
    NoSuchPosition,
}

impl Service {
    /// Reads a personal link's token (`WEB_SECRET`); an error when personal links are off.
    pub fn personal_token(&self, token: &str) -> Result<PersonalToken, TokenError> {
        let secret = self
            .inner
            .config
            .web_secret
            .as_ref()
            .ok_or(TokenError::Forged)?;
        PersonalToken::verify(token, secret, unix(SystemTime::now()))
    }

    /// A personal link for `player` to play game `game` on the web board, valid for a day:
    /// `None` when the web page or personal links are off. For the terminal, which prints it
    /// to the player at their keyboard; chats give it through `/board` and the board's button.
    pub fn personal_link(&self, game: &GameId, player: &UserId) -> Option<String> {
        let config = &self.inner.config;
        let page = config.game_link(game)?;
        let token = PersonalToken::new(game.clone(), player.clone(), unix(SystemTime::now()));
        Some(format!(
            "{page}#t={}",
            token.sign(config.web_secret.as_ref()?)
        ))
    }

    /// Game `id`'s page as `player` sees it, in `language` (theirs or the chat's if `None`);
    /// `Ok(None)` if there is no such game or they do not play in it.
    pub async fn player_page(
        &self,
        id: &GameId,
        player: &UserId,
        language: Option<Language>,
    ) -> Result<Option<PlayerPage>, ServiceError> {
        let store = &self.inner.store;
        let Some(record) = store.game(id).await? else {
            return Ok(None);
        };
        let Some(seat) = record.seat_of(player) else {
            return Ok(None);
        };
        let game = match self.inner.cached_game(&record.id, record.revision) {
            Some(game) => game,
            None => rebuild(&record)?,
        };
        let settings = self.chat_settings(&record).await?;
        let personal = self.personal_settings(player).await?;
        let ctx = Ctx::for_timer_at(&self.inner, self.inner.config.wall_clock.now());
        let loaded = LoadedGame { record, game };
        let language = language.unwrap_or(settings.language);
        match build_player(&ctx, &loaded, &settings, personal, language, seat).await {
            Ok(page) => Ok(Some(page)),
            Err(Halt::Store(e)) => Err(e.into()),
            Err(Halt::Refuse(_)) => Ok(None),
        }
    }

    /// `player`'s own board of game `id` after `ply` moves (with `ended`, the finished game's
    /// last position as its end revealed it) as a PNG `width` pixels wide, drawn from their
    /// view the way their page shows it. Someone who does not play in the game (or a game
    /// that does not exist) is told apart from a position the game does not have, so that
    /// the page answers them as every other player's route does.
    pub async fn player_board(
        &self,
        id: &GameId,
        player: &UserId,
        ply: usize,
        ended: bool,
        width: u32,
    ) -> Result<PlayerBoard, ServiceError> {
        let store = &self.inner.store;
        let Some(record) = store.game(id).await? else {
            return Ok(PlayerBoard::NotAPlayer);
        };
        let Some(seat) = record.seat_of(player) else {
            return Ok(PlayerBoard::NotAPlayer);
        };
        let Some(game) = public_position(&record, ply, ended) else {
            return Ok(PlayerBoard::NoSuchPosition);
        };
        let settings = self.chat_settings(&record).await?;
        let personal = self.personal_settings(player).await?;
        // The side of the seat as the whole game settled it (a Banqi side is known from the
        // first flip on), so every picture of one page has the same bottom.
        let now = match self.inner.cached_game(&record.id, record.revision) {
            Some(game) => game,
            None => rebuild(&record)?,
        };
        let side = side_of(&now, seat);
        let (orientation, style) = player_look(&settings, personal, side);
        let viewer = side_of(&game, seat).map_or(Viewer::Public, Viewer::Player);
        let options = RenderOptions {
            width,
            orientation,
            style: match style {
                Style::Characters => PieceStyle::Characters,
                Style::Symbols => PieceStyle::Symbols,
            },
        };
        Ok(jieqi_render::render(&game.view(viewer), &options)
            .map_or(PlayerBoard::NoSuchPosition, PlayerBoard::Drawn))
    }

    /// Carries out `action` of `player` in game `id` as the chat request it stands for, under
    /// the page's `key` (the same key again changes nothing and gets the same answer).
    pub async fn act_on_page(
        &self,
        id: &GameId,
        player: &UserId,
        action: &PageAction,
        key: &str,
    ) -> Result<PageActionAnswer, PageActionError> {
        if key.is_empty()
            || key.len() > ACTION_KEY_LONGEST
            || !key
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        {
            return Err(PageActionError::Malformed(
                "an action's key is 1 to 64 letters, digits, - and _",
            ));
        }
        let input = match action {
            PageAction::Move { play, lag } => {
                if play.is_empty()
                    || play.len() > 8
                    || !play.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
                {
                    return Err(PageActionError::Malformed(
                        "a move from the board is two points like h2e2, or one square like c3",
                    ));
                }
                if *lag > PAGE_LAG_LONGEST {
                    return Err(PageActionError::Malformed(
                        "a move's lag_ms is whole milliseconds from 0 to 10000",
                    ));
                }
                Input::BoardMove {
                    game: id.clone(),
                    play: play.clone(),
                    lag: *lag,
                }
            }
            PageAction::OfferDraw => Input::Button(ButtonAction::OfferDraw(id.clone())),
            PageAction::Resign => Input::Button(ButtonAction::ResignConfirm(id.clone())),
            PageAction::Rematch => Input::Button(ButtonAction::Rematch(id.clone())),
        };
        let Some(record) = self
            .inner
            .store
            .game(id)
            .await
            .map_err(ServiceError::from)?
        else {
            return Err(PageActionError::NoGame);
        };
        let Some(seat) = record.seat_of(player) else {
            return Err(PageActionError::NotAPlayer);
        };
        let request = Request {
            // Keys of the page live beside the platform's own update ids, never clashing.
            key: IdempotencyKey(format!("web:{player}:{key}")),
            chat: record.chat.clone(),
            is_private_chat: false,
            is_admin: false,
            user: record.player(seat).clone(),
            mentioned: Vec::new(),
            input,
            received_at: self.inner.config.wall_clock.now(),
        };
        let answer = self.handle(request).await;
        let mut said = Vec::new();
        for reply in answer.replies {
            if !matches!(reply.to, Destination::ReplyToRequester { .. }) {
                continue;
            }
            if reply.kind == MessageKind::Refusal {
                return Ok(PageActionAnswer::Refused(reply.text));
            }
            said.push(reply.text);
        }
        if *action == PageAction::Rematch
            && let Some(game) = self.rematch_of(&record, seat).await?
        {
            let link = self.personal_link(&game, player);
            return Ok(PageActionAnswer::Rematched { game, link });
        }
        Ok(PageActionAnswer::Done(said))
    }

    /// The game running between `record`'s players in its chat that started once it was
    /// over: its rematch, if it has started.
    async fn rematch_of(
        &self,
        record: &crate::store::GameRecord,
        seat: crate::store::Seat,
    ) -> Result<Option<GameId>, ServiceError> {
        let store = &self.inner.store;
        let Some(chat) = store.chat(&record.chat).await? else {
            return Ok(None);
        };
        let (me, them) = (&record.player(seat).id, &record.player(!seat).id);
        for id in chat.games.iter().rev() {
            if let Some(game) = store.game(id).await?
                && game.is_active()
                && game.seat_of(me).is_some()
                && game.seat_of(them).is_some()
                && record
                    .finished_at
                    .is_some_and(|over| game.started_at >= over)
            {
                return Ok(Some(game.id));
            }
        }
        Ok(None)
    }

    /// `player`'s own picture choices (`/settings` in private), the defaults if none.
    async fn personal_settings(&self, player: &UserId) -> Result<PersonalSettings, ServiceError> {
        Ok(self
            .inner
            .store
            .player(player)
            .await?
            .map(|p| p.personal)
            .unwrap_or_default())
    }
}
