//! One picture per request: copy the background, blit the marks and the discs a view asks
//! for, encode. Nothing here rasterises; everything here reads only the [`View`].

use jieqi_rules::{Cell, LastAction, Piece, Point, Side, View};
use resvg::tiny_skia::Pixmap;

use crate::RenderError;
use crate::art::Disc;
use crate::layout::Layout;
use crate::palette::{Palette, Picture};
use crate::sprites::{Sheet, badge_diameter};

/// What one point of the board shows: nothing, or a disc, possibly a covered piece whose
/// true type a full view knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Occupant {
    /// A disc as everybody sees it.
    Disc(Disc),
    /// A covered piece drawn face up (full view only), with the colour of its back.
    Revealed(Piece, Option<Side>),
}

/// Checks that `view` has one cell per point of its board.
pub(crate) fn check_cells(view: &View) -> Result<(), RenderError> {
    let expected = usize::from(view.files) * usize::from(view.ranks);
    if view.cells.len() == expected {
        Ok(())
    } else {
        Err(RenderError::Cells {
            expected,
            found: view.cells.len(),
        })
    }
}

/// Every occupied point of `view` and what to draw there.
pub(crate) fn occupants(view: &View) -> impl Iterator<Item = (Point, Occupant)> + '_ {
    let files = view.files.max(1);
    view.cells
        .iter()
        .enumerate()
        .filter_map(move |(index, cell)| {
            let point = Point {
                file: u8::try_from(index % usize::from(files)).ok()?,
                rank: u8::try_from(index / usize::from(files)).ok()?,
            };
            let occupant = match *cell {
                Cell::Empty => return None,
                Cell::Piece(piece) => Occupant::Disc(Disc::Face(piece)),
                Cell::Covered(side) => match revealed(view, point) {
                    Some(piece) => Occupant::Revealed(piece, side),
                    None => Occupant::Disc(Disc::Back(side)),
                },
            };
            Some((point, occupant))
        })
}

/// The true piece under a covered point, which only a full view carries.
fn revealed(view: &View, point: Point) -> Option<Piece> {
    let deal = view.deal.as_ref()?;
    deal.iter()
        .find(|(p, _)| *p == point)
        .map(|(_, piece)| *piece)
}

/// The points to mark as the last move.
pub(crate) fn marked_points(view: &View) -> Vec<Point> {
    match view.last_action {
        Some(LastAction::Move { from, to }) => vec![from, to],
        Some(LastAction::Flip(point)) => vec![point],
        None => Vec::new(),
    }
}

/// The discs of `side`'s captured tray, known pieces first.
pub(crate) fn tray_discs(view: &View, side: Side) -> Vec<Disc> {
    let tray = &view.captured[side];
    tray.known
        .iter()
        .map(|&role| Disc::Face(Piece::new(side, role)))
        .chain(std::iter::repeat_n(
            Disc::Back(Some(side)),
            usize::from(tray.unknown),
        ))
        .collect()
}

/// Top-left corner for a sprite of `size` centred on `(cx, cy)`.
pub(crate) fn corner(cx: u32, cy: u32, size: u32) -> (i32, i32) {
    let half = i64::from(size / 2);
    let x = i64::from(cx) - half;
    let y = i64::from(cy) - half;
    (
        i32::try_from(x).unwrap_or(i32::MIN),
        i32::try_from(y).unwrap_or(i32::MIN),
    )
}

/// Where the "still covered" badge of a revealed piece goes: its upper right.
pub(crate) fn badge_center(layout: &Layout, cx: u32, cy: u32) -> (u32, u32) {
    let offset = layout.piece_diameter / 2 - badge_diameter(layout) / 3;
    (cx + offset, cy.saturating_sub(offset))
}

fn blit(canvas: &mut Picture, palette: &Palette, sprite: &Pixmap, cx: u32, cy: u32) {
    let (x, y) = corner(cx, cy, sprite.width());
    canvas.blit(palette, sprite, i64::from(x), i64::from(y));
}

/// Draws `view` with the sprites of `sheet`, as entries of the sheet's palette.
pub(crate) fn compose(view: &View, sheet: &Sheet) -> Result<Picture, RenderError> {
    check_cells(view)?;
    let layout = &sheet.layout;
    let palette = &sheet.palette;
    let mut canvas = sheet.background.clone();
    for point in marked_points(view) {
        if let Some((cx, cy)) = layout.point_center(point) {
            blit(&mut canvas, palette, &sheet.highlight, cx, cy);
        }
    }
    if let Some((cx, cy)) = view.check.and_then(|p| layout.point_center(p)) {
        blit(&mut canvas, palette, &sheet.check, cx, cy);
    }
    for (point, occupant) in occupants(view) {
        let Some((cx, cy)) = layout.point_center(point) else {
            continue;
        };
        match occupant {
            Occupant::Disc(disc) => {
                blit(
                    &mut canvas,
                    palette,
                    &sheet.board_discs[disc.index()],
                    cx,
                    cy,
                );
            }
            Occupant::Revealed(piece, side) => {
                let face = Disc::Face(piece).index();
                blit(&mut canvas, palette, &sheet.board_discs[face], cx, cy);
                let (bx, by) = badge_center(layout, cx, cy);
                blit(&mut canvas, palette, sheet.badge(side), bx, by);
            }
        }
    }
    for side in Side::ALL {
        let discs = tray_discs(view, side);
        for (index, disc) in discs.iter().enumerate() {
            let (cx, cy) = layout.tray_slot_center(side, index, discs.len());
            blit(
                &mut canvas,
                palette,
                &sheet.tray_discs[disc.index()],
                cx,
                cy,
            );
        }
    }
    Ok(canvas)
}

/// Encodes a palette picture as an indexed PNG. Deflate at zlib level 1 (zlib-rs) finds the
/// long runs of one colour that these boards are made of; filters only break them up (Up and
/// Sub measured 7-14% bigger and slower), and fdeflate's fast mode, built for filtered
/// true-colour rows, leaves palette indices nearly uncompressed.
pub(crate) fn encode_png(picture: &Picture, palette: &Palette) -> Result<Vec<u8>, RenderError> {
    let mut out = Vec::with_capacity(picture.indices.len() / 8);
    let mut encoder = png::Encoder::new(&mut out, picture.width, picture.height);
    encoder.set_color(png::ColorType::Indexed);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_palette(palette.rgb());
    encoder.set_deflate_compression(png::DeflateCompression::Level(1));
    encoder.set_filter(png::Filter::NoFilter);
    let mut writer = encoder
        .write_header()
        .map_err(|e| RenderError::Encode(e.to_string()))?;
    writer
        .write_image_data(&picture.indices)
        .map_err(|e| RenderError::Encode(e.to_string()))?;
    writer
        .finish()
        .map_err(|e| RenderError::Encode(e.to_string()))?;
    Ok(out)
}

/// Encodes an opaque RGBA picture as an RGB PNG with the png crate's fast setting: what a
/// renderer without a palette would do (the reference path).
pub(crate) fn encode_rgb_png(pixmap: &Pixmap) -> Result<Vec<u8>, RenderError> {
    // Every pixel is opaque (the background covers the canvas), so premultiplied RGBA is
    // plain RGBA and dropping alpha loses nothing.
    let rgb: Vec<u8> = pixmap
        .data()
        .chunks_exact(4)
        .flat_map(|px| [px[0], px[1], px[2]])
        .collect();
    let mut out = Vec::with_capacity(rgb.len() / 16);
    let mut encoder = png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Fast);
    encoder.set_filter(png::Filter::Adaptive);
    let mut writer = encoder
        .write_header()
        .map_err(|e| RenderError::Encode(e.to_string()))?;
    writer
        .write_image_data(&rgb)
        .map_err(|e| RenderError::Encode(e.to_string()))?;
    writer
        .finish()
        .map_err(|e| RenderError::Encode(e.to_string()))?;
    Ok(out)
}
