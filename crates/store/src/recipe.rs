//! Recipes for pictures: what to draw again, never the bytes. The store keeps them with
//! outbox entries and stored answers, and a picture is drawn from its recipe when it is
//! needed (a restart, another process, a repeated request): the same game gives the same
//! picture.

use jieqi_rules::{Side, Variant, Viewer};
use serde::{Deserialize, Serialize};

use crate::ids::GameId;
use crate::settings::{Orientation, Style};

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
    pub fn viewer(self) -> Viewer {
        match self {
            PictureViewer::Public => Viewer::Public,
            PictureViewer::Red => Viewer::Player(Side::Red),
            PictureViewer::Black => Viewer::Player(Side::Black),
        }
    }

    pub fn of(viewer: Viewer) -> PictureViewer {
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

/// How to draw a reply's picture again.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ImageRecipe {
    /// A board of a game.
    Board(crate::recipe::PictureSpec),
    /// A variant's start position (`/rules`).
    Start {
        /// Which game.
        #[serde(with = "variant_name")]
        variant: Variant,
        /// Which side is at the bottom.
        orientation: crate::settings::Orientation,
        /// Piece pictures.
        style: crate::settings::Style,
        /// Width in pixels.
        width: u32,
    },
    /// A finished game as an animation (`/history`).
    Animation {
        /// Which game.
        game: GameId,
        /// Which side is at the bottom.
        orientation: crate::settings::Orientation,
        /// Piece pictures.
        style: crate::settings::Style,
        /// Width in pixels.
        width: u32,
    },
    /// A position of the rules course (`/learn`), as its learner sees it. Last, so stored
    /// answers keep the variant numbers they were written with.
    Lesson {
        /// The lesson's index in the course.
        lesson: u32,
        /// The step's index in the lesson.
        step: u32,
        /// The moves played in the step up to the picture.
        moves: Vec<String>,
        /// Which side is at the bottom.
        orientation: crate::settings::Orientation,
        /// Piece pictures.
        style: crate::settings::Style,
        /// Width in pixels.
        width: u32,
    },
    /// A finished game's PGN record (`/history`): not a picture, but an attachment made
    /// again from the game the same way. Last, like `Lesson`.
    Pgn {
        /// Which game.
        game: GameId,
    },
}

/// A variant stored by its name (`jieqi`), which outlives any reordering of the enum.
pub mod variant_name {
    use jieqi_rules::Variant;
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    pub fn serialize<S: Serializer>(v: &Variant, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(v.name())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Variant, D::Error> {
        let name = String::deserialize(d)?;
        name.parse().map_err(D::Error::custom)
    }
}
