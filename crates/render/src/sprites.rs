//! Sprites: the art of [`crate::art`] rasterised once per kind of picture and kept.
//!
//! Rasterising SVG costs tens of milliseconds; copying a finished sprite costs microseconds.
//! So, as lila-gif does, everything that does not depend on the position (background, every
//! disc at both sizes, the marks) is drawn once for each (board shape, width, orientation,
//! style) the first time it is asked for, and every later picture of that kind only blits.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use jieqi_rules::Side;
use resvg::tiny_skia::{Color, Pixmap, PixmapPaint, Transform};

use crate::art::{self, Disc};
use crate::layout::{BoardShape, Layout};
use crate::palette::{Palette, Picture};
use crate::{PieceStyle, RenderError};

/// Beyond this many kinds of picture the cache starts again, so that odd widths asked for
/// once cannot make it grow without end.
const MAX_SHEETS: usize = 24;

/// Everything needed to compose pictures of one kind.
#[derive(Debug)]
pub(crate) struct Sheet {
    /// The geometry the sprites were made for.
    pub(crate) layout: Layout,
    /// The colours of every picture made from this sheet.
    pub(crate) palette: Palette,
    /// Frame, board, lines and coordinates, as palette entries.
    pub(crate) background: Picture,
    /// Discs at board size, by [`Disc::index`].
    pub(crate) board_discs: Vec<Pixmap>,
    /// Discs at tray size, by [`Disc::index`].
    pub(crate) tray_discs: Vec<Pixmap>,
    /// The last-move mark, one cell square.
    pub(crate) highlight: Pixmap,
    /// The check glow.
    pub(crate) check: Pixmap,
    /// The "still covered" badges of a full view: no side, Red, Black.
    pub(crate) badges: [Pixmap; 3],
}

impl Sheet {
    /// Rasterises every sprite of one kind of picture.
    pub(crate) fn draw(layout: Layout, style: PieceStyle) -> Result<Sheet, RenderError> {
        let background = art::rasterise(&art::document(
            layout.width,
            layout.height,
            &art::board(&layout),
        ))?;
        let discs = |diameter: u32| -> Result<Vec<Pixmap>, RenderError> {
            let canvas = art::disc_canvas(diameter);
            Disc::all()
                .map(|disc| {
                    art::rasterise(&art::document(
                        canvas,
                        canvas,
                        &art::disc(disc, diameter, style),
                    ))
                })
                .collect()
        };
        let badge_size = badge_diameter(&layout);
        let badge = |side| {
            art::rasterise(&art::document(
                badge_size,
                badge_size,
                &art::badge(side, badge_size),
            ))
        };
        let check = art::check_canvas(layout.cell);
        let board_discs = discs(layout.piece_diameter)?;
        let tray_discs = discs(layout.tray_piece_diameter)?;
        let highlight = art::rasterise(&art::document(
            layout.cell,
            layout.cell,
            &art::highlight(layout.cell),
        ))?;
        let check = art::rasterise(&art::document(check, check, &art::check(layout.cell)))?;
        let badges = [
            badge(None)?,
            badge(Some(Side::Red))?,
            badge(Some(Side::Black))?,
        ];

        // The palette learns from the background and from every sprite on the colour it
        // usually lands on. The background is mostly plain wood, so only every third pixel
        // of it is shown: otherwise the inks and backs would get too few entries.
        let mut samples: Vec<u8> = background
            .data()
            .chunks_exact(4)
            .step_by(3)
            .flatten()
            .copied()
            .collect();
        let wood = art::wood();
        for sprite in &board_discs {
            samples.extend(on(sprite, wood)?);
        }
        for sprite in &tray_discs {
            samples.extend(on(sprite, art::frame())?);
        }
        for sprite in badges.iter().chain([&highlight, &check]) {
            samples.extend(on(sprite, wood)?);
        }
        let palette = Palette::learn(&samples);
        let background = Picture {
            width: layout.width,
            height: layout.height,
            indices: palette.indices_of(&background),
        };
        Ok(Sheet {
            layout,
            palette,
            background,
            board_discs,
            tray_discs,
            highlight,
            check,
            badges,
        })
    }

    /// The badge sprite for a covered cell of `side`.
    pub(crate) fn badge(&self, side: Option<Side>) -> &Pixmap {
        match side {
            None => &self.badges[0],
            Some(Side::Red) => &self.badges[1],
            Some(Side::Black) => &self.badges[2],
        }
    }
}

/// The pixels of `sprite` laid on a plain `colour`.
fn on(sprite: &Pixmap, colour: Color) -> Result<Vec<u8>, RenderError> {
    let mut canvas = Pixmap::new(sprite.width(), sprite.height())
        .ok_or_else(|| RenderError::Art("an empty sprite".to_owned()))?;
    canvas.fill(colour);
    canvas.draw_pixmap(
        0,
        0,
        sprite.as_ref(),
        &PixmapPaint::default(),
        Transform::identity(),
        None,
    );
    Ok(canvas.take())
}

/// Size of the "still covered" badge: a bit over a third of a piece, and even.
pub(crate) fn badge_diameter(layout: &Layout) -> u32 {
    (layout.piece_diameter * 2 / 5) & !1
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct SheetKey {
    shape: BoardShape,
    width: u32,
    orientation: Side,
    style: PieceStyle,
}

/// The sheet for `layout` and `style`, drawing it the first time.
pub(crate) fn sheet(layout: Layout, style: PieceStyle) -> Result<Arc<Sheet>, RenderError> {
    static SHEETS: OnceLock<Mutex<HashMap<SheetKey, Arc<Sheet>>>> = OnceLock::new();
    let key = SheetKey {
        shape: layout.shape,
        width: layout.width,
        orientation: layout.orientation,
        style,
    };
    let sheets = SHEETS.get_or_init(|| Mutex::new(HashMap::new()));
    // A panic elsewhere while the lock was held cannot leave a half-made sheet in the map
    // (sheets are inserted whole), so a poisoned lock is still safe to use.
    let lock = || {
        sheets
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    };
    if let Some(sheet) = lock().get(&key) {
        return Ok(Arc::clone(sheet));
    }
    // Drawn without holding the lock, so pictures of kinds already drawn are not held up.
    // Two requests for a new kind may both draw it; the first one stored wins.
    let drawn = Arc::new(Sheet::draw(layout, style)?);
    let mut sheets = lock();
    if let Some(sheet) = sheets.get(&key) {
        return Ok(Arc::clone(sheet));
    }
    if sheets.len() >= MAX_SHEETS {
        sheets.clear();
    }
    sheets.insert(key, Arc::clone(&drawn));
    Ok(drawn)
}
