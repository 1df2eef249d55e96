//! The evaluation graph of a reviewed game: Red's chance after each move as a filled curve
//! (Red's share above the middle line, Black's below), the costliest moves marked, both
//! players named. Drawn as one SVG in the embedded board font and rasterised per request: a
//! review is posted once, so there is nothing to cache.

use std::fmt::Write;

use jieqi_rules::Side;

use crate::{RenderError, art, compose};

/// The narrowest and widest graph [`render_graph`] draws, in pixels.
pub const GRAPH_WIDTHS: std::ops::RangeInclusive<u32> = 320..=1600;

/// A move to mark on the graph.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GraphMark {
    /// The point it leads to (the point after ply `p` is `p + 1`).
    pub point: usize,
    /// Who played it: the mark takes that side's colour.
    pub mover: Side,
}

/// What the graph shows.
#[derive(Clone, Debug, PartialEq)]
pub struct EvaluationGraph<'a> {
    /// Red's chance, 0.0 (Black wins) to 1.0 (Red wins), before the first move and after
    /// each: at least one point.
    pub points: &'a [f32],
    /// Moves to mark.
    pub marks: &'a [GraphMark],
    /// The line at the top: Red's name (and anything the caller adds, such as accuracy).
    pub red_label: &'a str,
    /// The line at the bottom: Black's name.
    pub black_label: &'a str,
    /// Width in pixels (see [`GRAPH_WIDTHS`]); the height is half of it.
    pub width: u32,
}

const BACKGROUND: &str = "#fbf7ef";
const RED_AREA: &str = "#f3c1b8";
const BLACK_AREA: &str = "#c9ced6";
const CURVE: &str = "#3b2a1a";
const GRID: &str = "#d9cfbf";
const RED_INK: &str = "#b3261e";
const BLACK_INK: &str = "#1f2933";

/// The graph as a PNG.
pub fn render_graph(graph: &EvaluationGraph<'_>) -> Result<Vec<u8>, RenderError> {
    compose::encode_rgb_png(&art::rasterise(&graph_svg(graph)?)?)
}

/// The graph as an SVG document (text in the embedded board font).
pub fn graph_svg(graph: &EvaluationGraph<'_>) -> Result<String, RenderError> {
    if !GRAPH_WIDTHS.contains(&graph.width) {
        return Err(RenderError::Width { width: graph.width });
    }
    if graph.points.is_empty() {
        return Err(RenderError::NoFrames);
    }
    let width = graph.width;
    let height = width / 2;
    let w = f64::from(width);
    let h = f64::from(height);
    let font = w / 30.0;
    let (left, right) = (w * 0.06, w * 0.03);
    let (top, bottom) = (font * 1.9, font * 2.9);
    let plot_w = w - left - right;
    let plot_h = h - top - bottom;
    let middle = top + plot_h / 2.0;
    let last = graph.points.len().saturating_sub(1).max(1) as f64;
    let x_of = |i: usize| left + plot_w * i as f64 / last;
    let y_of = |p: f32| top + plot_h * (1.0 - f64::from(p.clamp(0.0, 1.0)));

    let mut body = String::new();
    let _ = write!(
        body,
        r#"<rect width="{w}" height="{h}" fill="{BACKGROUND}"/><rect x="{left:.1}" y="{top:.1}" width="{plot_w:.1}" height="{:.1}" fill="{BLACK_AREA}"/>"#,
        plot_h
    );
    // Red's share: the area between the bottom of the plot and the curve, drawn over the
    // grey; what stays grey above the curve is Black's.
    let mut area = format!("M{left:.1},{:.1}", top + plot_h);
    for (i, p) in graph.points.iter().enumerate() {
        let _ = write!(area, " L{:.1},{:.1}", x_of(i), y_of(*p));
    }
    let _ = write!(
        area,
        " L{:.1},{:.1} Z",
        x_of(graph.points.len() - 1),
        top + plot_h
    );
    let _ = write!(body, r#"<path d="{area}" fill="{RED_AREA}"/>"#);
    // Move numbers every ten moves (twenty plies), and the even line.
    let plies = graph.points.len() - 1;
    let mut ply = 20;
    while ply <= plies {
        let x = x_of(ply);
        let _ = write!(
            body,
            r#"<line x1="{x:.1}" y1="{top:.1}" x2="{x:.1}" y2="{:.1}" stroke="{GRID}" stroke-width="1"/><text x="{x:.1}" y="{:.1}" font-family="{}" font-size="{:.1}" text-anchor="middle" fill="{BLACK_INK}">{}</text>"#,
            top + plot_h,
            top + plot_h + font * 1.1,
            art::FONT_FAMILY,
            font * 0.8,
            ply / 2
        );
        ply += 20;
    }
    let _ = write!(
        body,
        r#"<line x1="{left:.1}" y1="{middle:.1}" x2="{:.1}" y2="{middle:.1}" stroke="{CURVE}" stroke-width="1" stroke-dasharray="4 4"/>"#,
        left + plot_w
    );
    let mut curve = String::new();
    for (i, p) in graph.points.iter().enumerate() {
        let _ = write!(
            curve,
            "{}{:.1},{:.1}",
            if i == 0 { "M" } else { " L" },
            x_of(i),
            y_of(*p)
        );
    }
    let stroke = (w / 400.0).max(1.5);
    let _ = write!(
        body,
        r#"<path d="{curve}" fill="none" stroke="{CURVE}" stroke-width="{stroke:.1}" stroke-linejoin="round"/>"#
    );
    let radius = font * 0.42;
    for mark in graph.marks {
        let Some(p) = graph.points.get(mark.point) else {
            continue;
        };
        let ink = match mark.mover {
            Side::Red => RED_INK,
            Side::Black => BLACK_INK,
        };
        let _ = write!(
            body,
            r#"<circle cx="{:.1}" cy="{:.1}" r="{radius:.1}" fill="{ink}" stroke="{BACKGROUND}" stroke-width="{:.1}"/>"#,
            x_of(mark.point),
            y_of(*p),
            radius * 0.35
        );
    }
    let label = |y: f64, ink: &str, text: &str| {
        format!(
            r#"<text x="{left:.1}" y="{y:.1}" font-family="{}" font-size="{font:.1}" fill="{ink}">{}</text>"#,
            art::FONT_FAMILY,
            drawable(text)
        )
    };
    body.push_str(&label(top - font * 0.5, RED_INK, graph.red_label));
    body.push_str(&label(h - font * 0.45, BLACK_INK, graph.black_label));
    Ok(art::document(width, height, &body))
}

/// `text` escaped for SVG, with characters the embedded font has no glyph for (it holds
/// ASCII and the board's characters only) shown as `?` rather than as empty boxes.
fn drawable(text: &str) -> String {
    const BOARD: &str = "帥仕相俥傌炮兵將士象車馬砲卒楚河漢界·–—";
    let mut out = String::with_capacity(text.len());
    for c in text.chars().take(60) {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            ' '..='~' => out.push(c),
            c if BOARD.contains(c) => out.push(c),
            _ => out.push('?'),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_escaped_and_unknown_letters_shown_as_question_marks() {
        assert_eq!(drawable("a<b>&\"c\""), "a&lt;b&gt;&amp;&quot;c&quot;");
        assert_eq!(drawable("Nguyễn 帥"), "Nguy?n 帥");
    }

    #[test]
    fn an_empty_graph_or_a_bad_width_is_refused() {
        let graph = EvaluationGraph {
            points: &[],
            marks: &[],
            red_label: "",
            black_label: "",
            width: 720,
        };
        assert!(render_graph(&graph).is_err());
        let graph = EvaluationGraph {
            points: &[0.5],
            width: 10,
            ..graph
        };
        assert!(matches!(
            render_graph(&graph),
            Err(RenderError::Width { .. })
        ));
    }
}
