//! The slow way, kept as the yardstick: build one SVG document for the whole picture and
//! rasterise it for every request. The benchmark compares [`crate::render`] against it, and
//! the tests check that both draw the same picture, so the sprites stay honest.

use std::fmt::Write;

use jieqi_rules::{Side, View};

use crate::art::{self, Disc};
use crate::compose::{self, Occupant};
use crate::layout::Layout;
use crate::sprites::badge_diameter;
use crate::{RenderError, RenderOptions};

/// The whole picture of `view` as one SVG document (text in the embedded board font).
pub fn board_svg(view: &View, options: &RenderOptions) -> Result<String, RenderError> {
    compose::check_cells(view)?;
    let layout = Layout::for_view(view, options.width, options.orientation)?;
    let mut body = art::board(&layout);
    let mut place = |fragment: String, size: u32, cx: u32, cy: u32| {
        let (x, y) = compose::corner(cx, cy, size);
        let _ = write!(body, r#"<g transform="translate({x} {y})">{fragment}</g>"#);
    };
    for point in compose::marked_points(view) {
        if let Some((cx, cy)) = layout.point_center(point) {
            place(art::highlight(layout.cell), layout.cell, cx, cy);
        }
    }
    if let Some((cx, cy)) = view.check.and_then(|p| layout.point_center(p)) {
        place(
            art::check(layout.cell),
            art::check_canvas(layout.cell),
            cx,
            cy,
        );
    }
    let piece = layout.piece_diameter;
    let piece_canvas = art::disc_canvas(piece);
    for (point, occupant) in compose::occupants(view) {
        let Some((cx, cy)) = layout.point_center(point) else {
            continue;
        };
        match occupant {
            Occupant::Disc(disc) => {
                place(art::disc(disc, piece, options.style), piece_canvas, cx, cy);
            }
            Occupant::Revealed(true_piece, side) => {
                let face = art::disc(Disc::Face(true_piece), piece, options.style);
                place(face, piece_canvas, cx, cy);
                let (bx, by) = compose::badge_center(&layout, cx, cy);
                let size = badge_diameter(&layout);
                place(art::badge(side, size), size, bx, by);
            }
        }
    }
    let tray = layout.tray_piece_diameter;
    for side in Side::ALL {
        let discs = compose::tray_discs(view, side);
        for (index, disc) in discs.iter().enumerate() {
            let (cx, cy) = layout.tray_slot_center(side, index, discs.len());
            let fragment = art::disc(*disc, tray, options.style);
            place(fragment, art::disc_canvas(tray), cx, cy);
        }
    }
    Ok(art::document(layout.width, layout.height, &body))
}

/// Draws `view` by building and rasterising its whole SVG, as a renderer without sprites
/// would: the comparison for the benchmark. Use [`crate::render`] instead.
pub fn render_svg_per_request(
    view: &View,
    options: &RenderOptions,
) -> Result<Vec<u8>, RenderError> {
    let svg = board_svg(view, options)?;
    compose::encode_rgb_png(&art::rasterise(&svg)?)
}
