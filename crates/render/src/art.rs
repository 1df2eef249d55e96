//! The art, written once as SVG: the board, the pieces (face up in either style, face down in
//! each colour) and the marks. Sprites are rasterised from these fragments once per size, and
//! the slow reference path ([`crate::render_svg_per_request`]) pastes the same fragments into
//! one document per picture, so both paths draw the same thing.
//!
//! Text uses only the embedded board font (`assets/fonts/`), never the machine's fonts, so a
//! picture looks the same wherever it is drawn.

use std::fmt::Write;
use std::sync::{Arc, OnceLock};

use jieqi_rules::{Piece, Role, Side};
use resvg::{tiny_skia, usvg};

use crate::layout::{BoardShape, Layout};
use crate::{PieceStyle, RenderError, symbols};

/// The subset of Noto Serif CJK TC Bold cut by `scripts/subset-font.py`.
static FONT: &[u8] = include_bytes!("../../../assets/fonts/jieqi-board-serif.otf");
/// The family name the subset script gives the font.
pub(crate) const FONT_FAMILY: &str = "Jieqi Board Serif";

/// Around the pictures: the trays and the margin behind the board.
const FRAME: &str = "#5a4230";
const WOOD: &str = "#e9c78e";
const WOOD_EDGE: &str = "#c99a5b";
const LINE: &str = "#4b2e16";
const LABEL: &str = "#6a4322";
const FACE_LIGHT: &str = "#fdf3da";
const FACE_SHADE: &str = "#ead3a4";
const FACE_RIM: &str = "#7a5430";
const HIGHLIGHT: &str = "#2f9e44";
const CHECK: &str = "#e8261b";

/// The wood colour, for the palette's training.
pub(crate) fn wood() -> tiny_skia::Color {
    tiny_skia::Color::from_rgba8(0xe9, 0xc7, 0x8e, 0xff)
}

/// The frame colour, for the palette's training.
pub(crate) fn frame() -> tiny_skia::Color {
    tiny_skia::Color::from_rgba8(0x5a, 0x42, 0x30, 0xff)
}

/// What a disc shows: a known piece, or the back of a covered one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Disc {
    /// Face up.
    Face(Piece),
    /// Face down, of a known side (Jieqi) or of none (Banqi).
    Back(Option<Side>),
}

impl Disc {
    /// Every face-up piece then every back, in the order sprites are stored.
    pub(crate) fn all() -> impl Iterator<Item = Disc> {
        Side::ALL
            .into_iter()
            .flat_map(|side| Role::ALL.map(|role| Disc::Face(Piece::new(side, role))))
            .chain([None, Some(Side::Red), Some(Side::Black)].map(Disc::Back))
    }

    /// Position in [`Disc::all`].
    pub(crate) fn index(self) -> usize {
        match self {
            Disc::Face(piece) => piece.side.index() * 7 + piece.role.index(),
            Disc::Back(None) => 14,
            Disc::Back(Some(side)) => 15 + side.index(),
        }
    }
}

/// Side of the square canvas a disc of `diameter` is drawn on: room for its shadow, and
/// even so that it centres on a whole pixel.
pub(crate) fn disc_canvas(diameter: u32) -> u32 {
    (diameter + diameter / 10 + 2) & !1
}

fn ink(side: Side) -> &'static str {
    match side {
        Side::Red => "#b8231b",
        Side::Black => "#1b1b1b",
    }
}

/// (light, dark, pattern) colours of a face-down disc.
fn back_colours(side: Option<Side>) -> (&'static str, &'static str, &'static str) {
    match side {
        Some(Side::Red) => ("#b52a20", "#6e140e", "#f2b1a8"),
        Some(Side::Black) => ("#3b3b3b", "#111111", "#b4b4b4"),
        None => ("#2f6b5c", "#143a30", "#a8dccb"),
    }
}

/// A disc of `diameter` centred on its canvas (see [`disc_canvas`]). Fills are flat: they
/// keep to few colours, which the palette of the PNG encoder needs.
pub(crate) fn disc(disc: Disc, diameter: u32, style: PieceStyle) -> String {
    let d = f64::from(diameter);
    let c = f64::from(disc_canvas(diameter)) / 2.0;
    let r = d / 2.0 - d * 0.02;
    let mut svg = String::new();
    let _ = write!(
        svg,
        r#"<circle cx="{:.2}" cy="{:.2}" r="{r:.2}" fill="black" fill-opacity="0.3"/>"#,
        c + d * 0.025,
        c + d * 0.045,
    );
    let (edge, face, rim) = match disc {
        Disc::Face(_) => (FACE_SHADE, FACE_LIGHT, FACE_RIM),
        Disc::Back(side) => {
            let (light, dark, _) = back_colours(side);
            (dark, light, dark)
        }
    };
    let _ = write!(
        svg,
        r#"<circle cx="{c}" cy="{c}" r="{r:.2}" fill="{edge}" stroke="{rim}" stroke-width="{:.2}"/><circle cx="{c}" cy="{c}" r="{:.2}" fill="{face}"/>"#,
        d * 0.03,
        r * 0.9,
    );
    match disc {
        Disc::Face(piece) => {
            let _ = write!(
                svg,
                r#"<circle cx="{c}" cy="{c}" r="{:.2}" fill="none" stroke="{}" stroke-width="{:.2}"/>"#,
                r * 0.8,
                ink(piece.side),
                d * 0.03,
            );
            svg.push_str(&glyph(piece, c, d, style));
        }
        Disc::Back(side) => {
            let (_, _, pattern) = back_colours(side);
            let _ = write!(
                svg,
                r#"<circle cx="{c}" cy="{c}" r="{:.2}" fill="none" stroke="{pattern}" stroke-width="{:.2}"/><path d="{}" fill="none" stroke="{pattern}" stroke-width="{:.2}"/><path d="{}" fill="{pattern}"/>"#,
                r * 0.74,
                d * 0.028,
                diamond(c, r * 0.44),
                d * 0.028,
                diamond(c, r * 0.18),
            );
        }
    }
    svg
}

fn diamond(c: f64, r: f64) -> String {
    format!(
        "M{c:.2} {:.2} L{:.2} {c:.2} L{c:.2} {:.2} L{:.2} {c:.2} Z",
        c - r,
        c + r,
        c + r,
        c - r
    )
}

/// The mark of a piece: its traditional character or our symbol for its role.
fn glyph(piece: Piece, c: f64, d: f64, style: PieceStyle) -> String {
    let ink = ink(piece.side);
    match style {
        PieceStyle::Characters => {
            let size = d * 0.56;
            // The font's ideographic em box runs from 0.88 above the baseline to 0.12 below:
            // its middle is 0.38 em above the baseline.
            format!(
                r#"<text x="{c:.2}" y="{:.2}" font-family="{FONT_FAMILY}" font-size="{size:.2}" font-weight="bold" text-anchor="middle" fill="{ink}">{}</text>"#,
                c + size * 0.38,
                character(piece)
            )
        }
        PieceStyle::Symbols => {
            let size = d * 0.74;
            format!(
                r#"<g transform="translate({:.2} {:.2}) scale({:.4})">{}</g>"#,
                c - size / 2.0,
                c - size / 2.0,
                size / 100.0,
                symbols::role(piece.role, ink, FACE_LIGHT)
            )
        }
    }
}

/// The traditional character of a piece: Red and Black write most roles differently.
pub fn character(piece: Piece) -> char {
    match (piece.side, piece.role) {
        (Side::Red, Role::General) => '帥',
        (Side::Red, Role::Advisor) => '仕',
        (Side::Red, Role::Elephant) => '相',
        (Side::Red, Role::Chariot) => '俥',
        (Side::Red, Role::Horse) => '傌',
        (Side::Red, Role::Cannon) => '炮',
        (Side::Red, Role::Soldier) => '兵',
        (Side::Black, Role::General) => '將',
        (Side::Black, Role::Advisor) => '士',
        (Side::Black, Role::Elephant) => '象',
        (Side::Black, Role::Chariot) => '車',
        (Side::Black, Role::Horse) => '馬',
        (Side::Black, Role::Cannon) => '砲',
        (Side::Black, Role::Soldier) => '卒',
    }
}

/// The small face-down disc on a face-up piece of a full view, saying "this one is still
/// covered on the board". `diameter` is the badge's own size.
pub(crate) fn badge(side: Option<Side>, diameter: u32) -> String {
    let c = f64::from(diameter) / 2.0;
    let (light, dark, pattern) = back_colours(side);
    format!(
        r#"<circle cx="{c}" cy="{c}" r="{:.2}" fill="{light}" stroke="white" stroke-width="{:.2}"/><circle cx="{c}" cy="{c}" r="{:.2}" fill="{dark}"/><path d="{}" fill="{pattern}"/>"#,
        c - 1.0,
        c * 0.18,
        c * 0.55,
        diamond(c, c * 0.3),
    )
}

/// The last-move mark: a tinted square the size of one cell.
pub(crate) fn highlight(cell: u32) -> String {
    let s = f64::from(cell);
    let inset = s * 0.04;
    format!(
        r#"<rect x="{inset:.2}" y="{inset:.2}" width="{:.2}" height="{:.2}" rx="{:.2}" fill="{HIGHLIGHT}" fill-opacity="0.38" stroke="{HIGHLIGHT}" stroke-opacity="0.9" stroke-width="{:.2}"/>"#,
        s - 2.0 * inset,
        s - 2.0 * inset,
        s * 0.1,
        (s * 0.05).max(1.0),
    )
}

/// The check mark: a red glow around the general, on a canvas of one cell and a quarter.
pub(crate) fn check(cell: u32) -> String {
    let size = check_canvas(cell);
    let c = f64::from(size) / 2.0;
    format!(
        r#"<defs><radialGradient id="check"><stop offset="0.55" stop-color="{CHECK}" stop-opacity="1"/><stop offset="1" stop-color="{CHECK}" stop-opacity="0"/></radialGradient></defs><circle cx="{c}" cy="{c}" r="{c}" fill="url(#check)"/>"#
    )
}

/// Side of the canvas of the check glow.
pub(crate) fn check_canvas(cell: u32) -> u32 {
    (cell + cell / 4) & !1
}

/// The whole background of a layout: frame, wood, lines, river, palaces and coordinates.
pub(crate) fn board(layout: &Layout) -> String {
    let (w, h) = (f64::from(layout.width), f64::from(layout.height));
    let s = f64::from(layout.cell);
    let b = layout.board;
    let mut svg = format!(r#"<rect width="{w}" height="{h}" fill="{FRAME}"/>"#);
    let _ = write!(
        svg,
        r#"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" rx="{:.1}" fill="{WOOD}" stroke="{WOOD_EDGE}" stroke-width="{:.1}"/>"#,
        f64::from(b.x) + s * 0.06,
        f64::from(b.y) + s * 0.02,
        f64::from(b.width) - s * 0.12,
        f64::from(b.height) - s * 0.04,
        s * 0.08,
        s * 0.04,
    );
    // Lines of odd width sit on half pixels so that they cover whole pixels and stay crisp.
    let lw = f64::from(layout.line_width);
    let nudge = if layout.line_width % 2 == 1 { 0.5 } else { 0.0 };
    let x0 = f64::from(layout.grid_x) + nudge;
    let y0 = f64::from(layout.grid_y) + nudge;
    let mut path = String::new();
    let mut line = |x1: f64, y1: f64, x2: f64, y2: f64| {
        let _ = write!(path, "M{x1:.1} {y1:.1}L{x2:.1} {y2:.1}");
    };
    match layout.shape {
        BoardShape::Points9x10 => {
            for row in 0..10 {
                let y = y0 + f64::from(row) * s;
                line(x0, y, x0 + 8.0 * s, y);
            }
            for column in 0..9 {
                let x = x0 + f64::from(column) * s;
                if column == 0 || column == 8 {
                    line(x, y0, x, y0 + 9.0 * s);
                } else {
                    line(x, y0, x, y0 + 4.0 * s);
                    line(x, y0 + 5.0 * s, x, y0 + 9.0 * s);
                }
            }
            for top in [0.0, 7.0] {
                let (xa, xb) = (x0 + 3.0 * s, x0 + 5.0 * s);
                let (ya, yb) = (y0 + top * s, y0 + (top + 2.0) * s);
                line(xa, ya, xb, yb);
                line(xb, ya, xa, yb);
            }
            for (column, row) in start_marks() {
                position_mark(&mut line, x0, y0, s, column, row);
            }
        }
        BoardShape::Squares8x4 => {
            for row in 0..=4 {
                let y = y0 + f64::from(row) * s;
                line(x0, y, x0 + 8.0 * s, y);
            }
            for column in 0..=8 {
                let x = x0 + f64::from(column) * s;
                line(x, y0, x, y0 + 4.0 * s);
            }
        }
    }
    let _ = write!(
        svg,
        r#"<path d="{path}" fill="none" stroke="{LINE}" stroke-width="{lw}" stroke-linecap="square"/>"#
    );
    let (columns, rows) = match layout.shape {
        BoardShape::Points9x10 => (8.0, 9.0),
        BoardShape::Squares8x4 => (8.0, 4.0),
    };
    let frame_gap = s * 0.07;
    let _ = write!(
        svg,
        r#"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="none" stroke="{LINE}" stroke-width="{:.1}"/>"#,
        x0 - frame_gap,
        y0 - frame_gap,
        columns * s + 2.0 * frame_gap,
        rows * s + 2.0 * frame_gap,
        lw * 1.5,
    );
    if layout.shape == BoardShape::Points9x10 {
        let size = s * 0.5;
        let y = y0 + 4.5 * s + size * 0.38;
        for (column, ch) in [(1.5, '楚'), (2.5, '河'), (5.5, '漢'), (6.5, '界')] {
            let _ = write!(
                svg,
                r#"<text x="{:.1}" y="{y:.1}" font-family="{FONT_FAMILY}" font-size="{size:.1}" text-anchor="middle" fill="{LABEL}">{ch}</text>"#,
                x0 + column * s,
            );
        }
    }
    svg.push_str(&coordinates(layout, x0, y0, s));
    svg
}

/// The points of the cannons and soldiers at the start, marked with small corner ticks.
fn start_marks() -> impl Iterator<Item = (u32, u32)> {
    let soldiers = [0, 2, 4, 6, 8].into_iter().flat_map(|c| [(c, 3), (c, 6)]);
    let cannons = [1, 7].into_iter().flat_map(|c| [(c, 2), (c, 7)]);
    soldiers.chain(cannons)
}

fn position_mark(
    line: &mut impl FnMut(f64, f64, f64, f64),
    x0: f64,
    y0: f64,
    s: f64,
    column: u32,
    row: u32,
) {
    let (x, y) = (x0 + f64::from(column) * s, y0 + f64::from(row) * s);
    let (gap, len) = (s * 0.08, s * 0.2);
    for (dx, dy) in [(-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)] {
        if (column == 0 && dx < 0.0) || (column == 8 && dx > 0.0) {
            continue;
        }
        let (cx, cy) = (x + dx * gap, y + dy * gap);
        line(cx, cy, cx + dx * len, cy);
        line(cx, cy, cx, cy + dy * len);
    }
}

/// File letters under the board and rank numbers on its left, as the bottom player reads
/// them: `a`–`i` and `0`–`9` on the 9 x 10 board, `a`–`h` and `1`–`4` in Banqi.
fn coordinates(layout: &Layout, x0: f64, y0: f64, s: f64) -> String {
    let (files, ranks) = (layout.shape.files(), layout.shape.ranks());
    let (half, first_rank, offset, size) = match layout.shape {
        BoardShape::Points9x10 => (0.0, b'0', s * 0.74, s * 0.3),
        BoardShape::Squares8x4 => (0.5, b'1', s * 0.25, s * 0.27),
    };
    let flipped = layout.orientation == Side::Black;
    let mut svg = String::new();
    let mut label = |x: f64, y: f64, text: char| {
        // Latin letters and digits have their middle about 0.35 em above the baseline.
        let _ = write!(
            svg,
            r#"<text x="{x:.1}" y="{:.1}" font-family="{FONT_FAMILY}" font-size="{size:.1}" text-anchor="middle" fill="{LABEL}">{text}</text>"#,
            y + size * 0.35,
        );
    };
    let bottom = y0 + f64::from(ranks - 1) * s + if half > 0.0 { s } else { 0.0 };
    for file in 0..files {
        let column = if flipped { files - 1 - file } else { file };
        let x = x0 + (f64::from(column) + half) * s;
        label(x, bottom + offset, char::from(b'a' + file));
    }
    let left = x0 - offset;
    for rank in 0..ranks {
        let row = if flipped { rank } else { ranks - 1 - rank };
        let y = y0 + (f64::from(row) + half) * s;
        label(left, y, char::from(first_rank + rank));
    }
    svg
}

/// Wraps fragments in a document of `width` x `height` pixels.
pub(crate) fn document(width: u32, height: u32, body: &str) -> String {
    format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}">{body}</svg>"#
    )
}

/// Parsing options whose font database holds our board font and nothing else.
fn options() -> usvg::Options<'static> {
    static FONTS: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    let fonts = FONTS.get_or_init(|| {
        let mut db = usvg::fontdb::Database::new();
        db.load_font_data(FONT.to_vec());
        Arc::new(db)
    });
    usvg::Options {
        font_family: FONT_FAMILY.to_owned(),
        fontdb: Arc::clone(fonts),
        ..usvg::Options::default()
    }
}

/// Rasterises a document made by [`document`].
pub(crate) fn rasterise(svg: &str) -> Result<tiny_skia::Pixmap, RenderError> {
    rasterise_with(svg, &options())
}

/// Rasterises a document with the fonts of `options`.
pub(crate) fn rasterise_with(
    svg: &str,
    options: &usvg::Options<'_>,
) -> Result<tiny_skia::Pixmap, RenderError> {
    let tree = usvg::Tree::from_str(svg, options).map_err(|e| RenderError::Art(e.to_string()))?;
    let size = tree.size().to_int_size();
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height())
        .ok_or_else(|| RenderError::Art(format!("no room for a {size:?} picture")))?;
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    Ok(pixmap)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_embedded_board_font_is_loaded() {
        let db = options().fontdb;
        let families: Vec<_> = db
            .faces()
            .flat_map(|face| face.families.iter().map(|(name, _)| name.clone()))
            .collect();
        assert_eq!(families, vec![FONT_FAMILY.to_owned()]);
    }

    fn text_pixels(text: char) -> Vec<u8> {
        let body = format!(
            r#"<text x="20" y="30" font-family="{FONT_FAMILY}" font-size="32" text-anchor="middle">{text}</text>"#
        );
        rasterise(&document(40, 40, &body))
            .map(|p| p.data().to_vec())
            .unwrap_or_default()
    }

    #[test]
    fn every_board_character_has_a_glyph_in_the_font() {
        // U+25A1 is not in the subset, so it draws the font's "missing glyph" box.
        let missing = text_pixels('\u{25A1}');
        for ch in "帥仕相俥傌炮兵將士象車馬砲卒楚河漢界abhi0149".chars() {
            let pixels = text_pixels(ch);
            assert!(pixels.iter().any(|&v| v > 0), "{ch} draws nothing");
            assert_ne!(pixels, missing, "{ch} draws the missing-glyph box");
        }
    }

    #[test]
    fn disc_indices_cover_all_seventeen_discs_once() {
        let mut seen = [false; 17];
        for disc in Disc::all() {
            assert!(!seen[disc.index()]);
            seen[disc.index()] = true;
        }
        assert!(seen.iter().all(|s| *s));
    }
}
