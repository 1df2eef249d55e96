//! Board pictures of outbox messages. A picture is drawn when its message is made (so a move
//! is acknowledged with its picture ready), kept in memory until the message is delivered,
//! and stored only as a recipe ([`PictureSpec`]: game, ply, viewer, settings). After a
//! restart, or in another process, the picture is drawn again from the recipe: the same
//! moves give the same view, so the same bytes. This keeps image bytes out of the store.

use std::collections::{HashMap, VecDeque};

use jieqi_render::RenderOptions;
use jieqi_rules::{Game, GameDeal, Rules, Side, Viewer};

use crate::message::{Image, OutboxId};
pub use crate::recipe::{PictureSpec, PictureViewer};
use crate::replay::{LoadedGame, apply_ending};
use crate::settings::{ChatSettings, Orientation, Style};
use crate::store::{GameRecord, GameStore, ImageRecipe, StoreError};

/// The renderer's piece pictures for a chat's or person's `style` setting.
fn piece_style(style: Style) -> jieqi_render::PieceStyle {
    match style {
        Style::Characters => jieqi_render::PieceStyle::Characters,
        Style::Symbols => jieqi_render::PieceStyle::Symbols,
    }
}

/// A drawn picture and its recipe.
#[derive(Clone, Debug)]
pub(crate) struct Picture {
    pub image: Option<Image>,
    pub spec: PictureSpec,
}

fn render(game: &Game, spec: &PictureSpec) -> Option<Image> {
    let view = game.view(spec.viewer.viewer());
    let options = RenderOptions {
        width: spec.width,
        orientation: spec.orientation.side(),
        style: piece_style(spec.style),
    };
    match jieqi_render::render(&view, &options) {
        Ok(bytes) => Some(Image {
            bytes,
            file_name: spec.file_name.clone(),
        }),
        Err(e) => {
            tracing::warn!(error = %e, "a board picture could not be drawn");
            None
        }
    }
}

/// Draws `loaded` as `viewer` sees it now, from `orientation`'s side.
pub(crate) fn draw(
    loaded: &LoadedGame,
    viewer: Viewer,
    orientation: Side,
    settings: &ChatSettings,
    width: u32,
) -> Picture {
    let plies = loaded.game.ply();
    let viewer = PictureViewer::of(viewer);
    let suffix = match viewer {
        PictureViewer::Public => String::new(),
        PictureViewer::Red => "-red".to_owned(),
        PictureViewer::Black => "-black".to_owned(),
    };
    let spec = PictureSpec {
        game: loaded.record.id.clone(),
        plies: u32::try_from(plies).unwrap_or(u32::MAX),
        ended: loaded.game.outcome().is_some(),
        viewer,
        orientation: Orientation::of(orientation),
        style: settings.style,
        width,
        file_name: format!("{}-{plies}{suffix}.png", loaded.record.id),
    };
    Picture {
        image: render(&loaded.game, &spec),
        spec,
    }
}

/// A puzzle's board as its solver sees it (covered pieces stay covered), from the solver's
/// side. Puzzle pictures are drawn once and sent with their message: a puzzle has no stored
/// game to draw them again from.
pub(crate) fn puzzle_board(
    game: &Game,
    solver: Side,
    style: Style,
    width: u32,
    file_name: String,
) -> Option<Image> {
    let options = RenderOptions {
        width,
        orientation: solver,
        style: piece_style(style),
    };
    match jieqi_render::render(&game.view(Viewer::Player(solver)), &options) {
        Ok(bytes) => Some(Image { bytes, file_name }),
        Err(e) => {
            tracing::warn!(error = %e, "a puzzle picture could not be drawn");
            None
        }
    }
}

/// Draws a picture again from its recipe (the game is rebuilt from the store).
pub(crate) async fn redraw(
    store: &dyn GameStore,
    spec: &PictureSpec,
) -> Result<Option<Image>, StoreError> {
    let Some(record) = store.game(&spec.game).await? else {
        return Ok(None);
    };
    let plies = usize::try_from(spec.plies).unwrap_or(usize::MAX);
    if plies > record.moves.len() {
        return Ok(None);
    }
    let game = crate::replay::rebuild_at(&record, plies, spec.ended).map_err(|e| {
        StoreError::Corrupt(format!(
            "a picture of game {} cannot be drawn: {e}",
            record.id
        ))
    })?;
    // Drawing takes tens of milliseconds of CPU: off the async workers, so that a process
    // drawing a batch of pictures (after a restart, with nothing cached) still renews its
    // delivery claims on time and answers its chats.
    let spec = spec.clone();
    Ok(tokio::task::spawn_blocking(move || render(&game, &spec))
        .await
        .unwrap_or_else(|error| {
            tracing::error!(%error, "drawing a picture failed; the message goes without it");
            None
        }))
}

/// A variant's start position as everyone sees it (`/rules`).
pub(crate) fn start_position(
    variant: jieqi_rules::Variant,
    orientation: Orientation,
    style: Style,
    width: u32,
) -> Option<Image> {
    // The public start position does not depend on the deal, so any deal draws it.
    let deal = GameDeal::shuffled(variant, &mut |_| 0);
    let game = Game::new(Rules::new(variant, Default::default()), deal).ok()?;
    let options = RenderOptions {
        width,
        orientation: orientation.side(),
        style: piece_style(style),
    };
    let bytes = jieqi_render::render(&game.view(Viewer::Public), &options)
        .map_err(|e| tracing::warn!(error = %e, "a start position could not be drawn"))
        .ok()?;
    Some(Image {
        bytes,
        file_name: format!("{}-start.png", variant.name()),
    })
}

/// A position of the rules course as its learner sees it: step `step` of lesson `lesson` with
/// `moves` played. `None` if that no longer fits the course.
pub(crate) fn lesson_picture(
    lesson: usize,
    step: usize,
    moves: &[String],
    orientation: Orientation,
    style: Style,
    width: u32,
) -> Option<Image> {
    let number = step + 1;
    let lesson = jieqi_course::COURSE.get(lesson)?;
    let step = lesson.steps.get(step)?;
    let mut game = step.start(lesson).ok()?;
    for text in moves {
        game.play_text(text).ok()?;
    }
    // The learner sees what their side knows: the covered pieces they captured, say.
    let viewer = match lesson.variant {
        jieqi_rules::Variant::Banqi => Viewer::Public,
        _ => Viewer::Player(step.learner),
    };
    let options = RenderOptions {
        width,
        orientation: orientation.side(),
        style: piece_style(style),
    };
    let bytes = jieqi_render::render(&game.view(viewer), &options)
        .map_err(|e| tracing::warn!(error = %e, "a lesson picture could not be drawn"))
        .ok()?;
    Some(Image {
        bytes,
        file_name: format!("lesson-{}-{number}-{}.png", lesson.id, moves.len()),
    })
}

/// The public view after each ply of a game (the last with its ending applied): as recorded,
/// so a finished game shows every move that replays and its stored verdict.
fn public_views(record: &GameRecord) -> Option<Vec<jieqi_rules::View>> {
    let deal = GameDeal::from_letters(record.variant, &record.deal).ok()?;
    let mut game = Game::new(record.rules(), deal).ok()?;
    let mut views = vec![game.view(Viewer::Public)];
    for stored in &record.moves {
        if game.play_recorded(stored).is_err() {
            break;
        }
        // Mid-game views are of a running game, whatever today's judge says of the position.
        game.impose_verdict(None);
        views.push(game.view(Viewer::Public));
    }
    match record.verdict {
        Some(verdict) => game.impose_verdict(Some(verdict.into())),
        None => apply_ending(record, &mut game),
    }
    if let Some(last) = views.last_mut() {
        *last = game.view(Viewer::Public);
    }
    Some(views)
}

/// A finished game as an animated GIF (`/history`).
pub(crate) fn animation(
    record: &GameRecord,
    orientation: Orientation,
    style: Style,
    width: u32,
) -> Option<Image> {
    let views = public_views(record)?;
    let options = RenderOptions {
        width,
        orientation: orientation.side(),
        style: piece_style(style),
    };
    match jieqi_render::render_gif(&views, &options) {
        Ok(bytes) => Some(Image {
            bytes,
            file_name: format!("{}.gif", record.id),
        }),
        Err(e) => {
            tracing::warn!(error = %e, "a game animation could not be drawn");
            None
        }
    }
}

/// Draws a stored reply's picture again (a repeated request gets the same bytes).
pub(crate) async fn redraw_recipe(
    store: &dyn GameStore,
    recipe: &ImageRecipe,
) -> Result<Option<Image>, StoreError> {
    match recipe {
        ImageRecipe::Board(spec) => redraw(store, spec).await,
        ImageRecipe::Start {
            variant,
            orientation,
            style,
            width,
        } => Ok(start_position(*variant, *orientation, *style, *width)),
        ImageRecipe::Lesson {
            lesson,
            step,
            moves,
            orientation,
            style,
            width,
        } => {
            let lesson = usize::try_from(*lesson).unwrap_or(usize::MAX);
            let step = usize::try_from(*step).unwrap_or(usize::MAX);
            Ok(lesson_picture(
                lesson,
                step,
                moves,
                *orientation,
                *style,
                *width,
            ))
        }
        ImageRecipe::Animation {
            game,
            orientation,
            style,
            width,
        } => Ok(match store.game(game).await? {
            Some(record) => animation(&record, *orientation, *style, *width),
            None => None,
        }),
        ImageRecipe::Pgn { game } => Ok(match store.game(game).await? {
            Some(record) => pgn_file(store, &record).await?,
            None => None,
        }),
    }
}

/// A finished game's PGN as an attachment (`g7k2.pgn`); `None` for Banqi. A tournament
/// game's carries its event and round.
pub(crate) async fn pgn_file(
    store: &dyn crate::store::GameStore,
    record: &GameRecord,
) -> Result<Option<Image>, StoreError> {
    let game = crate::replay::rebuild(record)?;
    let event = store
        .chat_tournaments(&record.chat)
        .await?
        .iter()
        .find_map(|t| {
            let round = match t.game(&record.id) {
                Some(played) => played.round,
                None => t.arena_game(&record.id).map(|_| 0)?,
            };
            Some((format!("jieqi-bot tournament {}", t.id), round))
        });
    Ok(crate::pgn::pgn(record, &game, event).map(|text| Image {
        bytes: text.into_bytes(),
        file_name: format!("{}.pgn", record.id),
    }))
}

/// Drawn pictures of undelivered messages, by outbox id (oldest dropped first when full:
/// they can be drawn again).
#[derive(Debug, Default)]
pub(crate) struct PictureCache {
    images: HashMap<OutboxId, Image>,
    order: VecDeque<OutboxId>,
}

/// Pictures kept in memory at most.
const CACHED_PICTURES: usize = 512;

impl PictureCache {
    pub(crate) fn insert(&mut self, id: OutboxId, image: Image) {
        if self.images.insert(id, image).is_none() {
            self.order.push_back(id);
        }
        while self.order.len() > CACHED_PICTURES {
            if let Some(old) = self.order.pop_front() {
                self.images.remove(&old);
            }
        }
    }

    pub(crate) fn get(&self, id: OutboxId) -> Option<Image> {
        self.images.get(&id).cloned()
    }

    pub(crate) fn remove(&mut self, id: OutboxId) {
        if self.images.remove(&id).is_some() {
            self.order.retain(|o| *o != id);
        }
    }
}
