//! Board pictures of outbox messages. A picture is drawn when its message is made (so a move
//! is acknowledged with its picture ready), kept in memory until the message is delivered,
//! and stored only as a recipe ([`PictureSpec`]: game, ply, viewer, settings). After a
//! restart, or in another process, the picture is drawn again from the recipe: the same
//! moves give the same view, so the same bytes. This keeps image bytes out of the store.

use std::collections::{HashMap, VecDeque};

use jieqi_render::RenderOptions;
use jieqi_rules::{Game, GameDeal, Rules, Side, Viewer};
use serde::{Deserialize, Serialize};

use crate::context::LoadedGame;
use crate::ids::GameId;
use crate::lifecycle::apply_ending;
use crate::message::{Image, OutboxId};
use crate::settings::{ChatSettings, Orientation, Style};
use crate::store::{GameStore, StoreError};

/// Whose knowledge a picture shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PictureViewer {
    /// What everyone knows.
    Public,
    /// What the Red player knows.
    Red,
    /// What the Black player knows.
    Black,
}

impl PictureViewer {
    fn viewer(self) -> Viewer {
        match self {
            PictureViewer::Public => Viewer::Public,
            PictureViewer::Red => Viewer::Player(Side::Red),
            PictureViewer::Black => Viewer::Player(Side::Black),
        }
    }

    fn of(viewer: Viewer) -> PictureViewer {
        match viewer {
            Viewer::Player(Side::Red) => PictureViewer::Red,
            Viewer::Player(Side::Black) => PictureViewer::Black,
            // Full views are never drawn for messages.
            Viewer::Public | Viewer::Full => PictureViewer::Public,
        }
    }
}

/// How to draw a board picture again.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PictureSpec {
    /// Which game.
    pub game: GameId,
    /// The position after this many plies.
    pub plies: u32,
    /// With the game's ending applied (the final position, deal shown if the rules say so).
    pub ended: bool,
    /// Whose view.
    pub viewer: PictureViewer,
    /// Which side is at the bottom.
    pub orientation: Orientation,
    /// Piece pictures.
    pub style: Style,
    /// Width in pixels.
    pub width: u32,
    /// The attachment's file name.
    pub file_name: String,
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
        style: spec.style.piece_style(),
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
        orientation: match orientation {
            Side::Red => Orientation::Red,
            Side::Black => Orientation::Black,
        },
        style: settings.style,
        width,
        file_name: format!("{}-{plies}{suffix}.png", loaded.record.id),
    };
    Picture {
        image: render(&loaded.game, &spec),
        spec,
    }
}

/// Draws a picture again from its recipe (the game is rebuilt from the store).
pub(crate) fn redraw(
    store: &dyn GameStore,
    spec: &PictureSpec,
) -> Result<Option<Image>, StoreError> {
    let Some(record) = store.game(&spec.game)? else {
        return Ok(None);
    };
    let plies = usize::try_from(spec.plies).unwrap_or(usize::MAX);
    let Some(moves) = record.moves.get(..plies) else {
        return Ok(None);
    };
    let rules = Rules::new(record.variant, record.preset);
    let rebuilt = GameDeal::from_letters(record.variant, &record.deal)
        .and_then(|deal| Game::replay(rules, deal, moves));
    let mut game = match rebuilt {
        Ok(game) => game,
        Err(e) => {
            return Err(StoreError::Corrupt(format!(
                "game {} cannot be rebuilt for a picture: {e}",
                record.id
            )));
        }
    };
    if spec.ended {
        apply_ending(&record, &mut game);
    }
    Ok(render(&game, spec))
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
