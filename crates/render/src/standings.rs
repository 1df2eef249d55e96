//! A tournament's standings as a PNG table: rank, name, points, tie-breaks and, for a
//! Swiss, each round's result; in a large event the top [`TOP_ROWS`] and the asker's own
//! row.
//!
//! Names are shown as players wrote them, in the embedded names font (a subset of Noto
//! Sans CJK: Latin with Vietnamese, Greek, Cyrillic, common Chinese, Japanese and Korean;
//! `scripts/subset-names-font.py`). A name is made safe before it is drawn: control and
//! direction-changing characters are dropped (an RTL override cannot turn the row around),
//! a character the font lacks (an emoji, a rare ideograph) shows as `?`, and a long name
//! is cut to its column with `…`. The table is one SVG rasterised per request, as the
//! evaluation graph is: a few dozen text cells.

use std::fmt::Write as _;
use std::sync::{Arc, OnceLock};

use jieqi_rules::Side;
use resvg::usvg;
use skrifa::MetadataProvider;

use crate::{RenderError, art, compose};

/// The names font: see `scripts/subset-names-font.py`.
static NAMES_FONT: &[u8] = include_bytes!("../../../assets/fonts/jieqi-names-sans.otf");
const NAMES_FAMILY: &str = "Jieqi Names Sans";

/// Rows shown from the top of a large event (the asker's own row is added below them).
pub const TOP_ROWS: usize = 20;

/// How a game of one round went, from the row's player's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Won over the board.
    Win,
    /// Drawn.
    Draw,
    /// Lost over the board.
    Loss,
    /// Won because the opponent did not play.
    ForfeitWin,
    /// Lost by not playing.
    ForfeitLoss,
    /// Still being played.
    Playing,
}

/// One round of one player, as the table shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoundCell {
    /// A game against the player ranked `opponent` in this table, with `side`.
    Game {
        /// The opponent's rank (the number shown in the opponent's row).
        opponent: u32,
        /// The side this player had.
        side: Side,
        /// The result.
        outcome: Outcome,
    },
    /// No game, worth this many half points (2 the pairing-allocated or a full-point bye,
    /// 1 a half-point bye, 0 absent).
    Bye {
        /// Half points.
        half_points: u8,
    },
    /// Not paired yet, or not entered yet.
    Empty,
}

/// One player's row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StandingsRow {
    /// Rank (players equal on everything share one).
    pub rank: u32,
    /// The name as the player wrote it (any text: it is made safe before drawing).
    pub name: String,
    /// Points as written (`5`, `5.5`, or an arena's `24`).
    pub points: String,
    /// The tie-break values, in the order of [`StandingsTable::tiebreaks`].
    pub tiebreaks: Vec<String>,
    /// One cell a round (empty for formats without rounds).
    pub rounds: Vec<RoundCell>,
    /// On a streak (an arena's "fire": the next game counts double): a flame is drawn
    /// before the points.
    pub streak: bool,
}

/// A table to draw: every row in rank order, and whose it is to highlight.
#[derive(Clone, Copy, Debug)]
pub struct StandingsTable<'a> {
    /// Above the table (the event's name and round, say).
    pub title: &'a str,
    /// Tie-break column headings (short: `BH-1`, `BH`, `SB`, `DE`, `W`).
    pub tiebreaks: &'a [&'a str],
    /// Round columns to draw (the rows' `rounds` past it are not shown).
    pub rounds: usize,
    /// Every player, best first.
    pub rows: &'a [StandingsRow],
    /// The asker's row (an index into `rows`): highlighted, and shown below the top rows
    /// when it is not among them.
    pub asker: Option<usize>,
}

/// Which rows are drawn, in order; `None` stands for the gap before the asker's row.
pub fn shown_rows(rows: usize, asker: Option<usize>) -> Vec<Option<usize>> {
    let mut shown: Vec<Option<usize>> = (0..rows.min(TOP_ROWS)).map(Some).collect();
    if let Some(a) = asker.filter(|&a| a >= TOP_ROWS && a < rows) {
        if a > TOP_ROWS {
            shown.push(None);
        }
        shown.push(Some(a));
    }
    shown
}

/// The PNG picture of `table`.
pub fn render_standings(table: &StandingsTable<'_>) -> Result<Vec<u8>, RenderError> {
    compose::encode_rgb_png(&art::rasterise_with(&standings_svg(table), &options())?)
}

const ROW: f64 = 30.0;
const FONT: f64 = 16.0;
const PAD: f64 = 12.0;
const RANK_W: f64 = 44.0;
const NAME_W: f64 = 250.0;
const POINTS_W: f64 = 56.0;
const TIEBREAK_W: f64 = 58.0;
const ROUND_W: f64 = 54.0;
/// Width units (a Latin letter 1, an ideograph 2) that fit the name column.
const NAME_UNITS: usize = 26;
const TITLE_UNITS: usize = 70;

const BACKGROUND: &str = "#fbf8f1";
const HEADER: &str = "#e9e0cc";
const STRIPE: &str = "#f3eee2";
const HIGHLIGHT: &str = "#ffe58f";
const INK: &str = "#2b2118";
const MUTED: &str = "#7a6a58";
const RED: &str = "#c0392b";
const BLACK: &str = "#222222";
const FLAME: &str = "#e8590c";
const FLAME_CORE: &str = "#fcc419";

/// The table as an SVG document (text in the embedded names font).
pub fn standings_svg(table: &StandingsTable<'_>) -> String {
    let shown = shown_rows(table.rows.len(), table.asker);
    let columns = |x: &mut Vec<f64>| {
        let mut at = PAD;
        for w in [RANK_W, NAME_W, POINTS_W]
            .into_iter()
            .chain(table.tiebreaks.iter().map(|_| TIEBREAK_W))
            .chain((0..table.rounds).map(|_| ROUND_W))
        {
            x.push(at);
            at += w;
        }
        x.push(at);
    };
    let mut x = Vec::new();
    columns(&mut x);
    let width = (x[x.len() - 1] + PAD).ceil();
    let top = PAD + ROW * 1.3;
    let height = (top + ROW * (shown.len() as f64 + 1.0) + PAD).ceil();
    let mut body = String::new();
    let _ = write!(
        body,
        r#"<rect width="{width}" height="{height}" fill="{BACKGROUND}"/>"#
    );
    let text = |body: &mut String, x: f64, y: f64, anchor: &str, fill: &str, s: &str| {
        let _ = write!(
            body,
            r#"<text x="{x:.1}" y="{y:.1}" font-size="{FONT}" text-anchor="{anchor}" fill="{fill}">{s}</text>"#
        );
    };
    let baseline = |row_top: f64| row_top + ROW * 0.68;
    let _ = write!(
        body,
        r#"<text x="{PAD}" y="{:.1}" font-size="{:.1}" fill="{INK}">{}</text>"#,
        PAD + ROW * 0.8,
        FONT * 1.25,
        drawable(table.title, TITLE_UNITS)
    );
    // Header.
    let _ = write!(
        body,
        r#"<rect x="{PAD}" y="{top:.1}" width="{:.1}" height="{ROW}" fill="{HEADER}"/>"#,
        width - 2.0 * PAD
    );
    let y = baseline(top);
    text(&mut body, x[1] - 8.0, y, "end", MUTED, "#");
    text(&mut body, x[1] + 6.0, y, "start", MUTED, "Name");
    text(&mut body, x[3] - 8.0, y, "end", MUTED, "Pts");
    for (k, name) in table.tiebreaks.iter().enumerate() {
        let s = drawable(name, 6);
        text(&mut body, x[4 + k] - 8.0, y, "end", MUTED, &s);
    }
    let first_round = 3 + table.tiebreaks.len();
    for r in 0..table.rounds {
        let centre = (x[first_round + r] + x[first_round + r + 1]) / 2.0;
        text(
            &mut body,
            centre,
            y,
            "middle",
            MUTED,
            &format!("R{}", r + 1),
        );
    }
    for (k, row) in shown.iter().enumerate() {
        let row_top = top + ROW * (k as f64 + 1.0);
        let y = baseline(row_top);
        let Some(i) = *row else {
            text(&mut body, x[1] + 6.0, y, "start", MUTED, "⋯");
            continue;
        };
        let r = &table.rows[i];
        let fill = if table.asker == Some(i) {
            Some(HIGHLIGHT)
        } else if k % 2 == 1 {
            Some(STRIPE)
        } else {
            None
        };
        if let Some(fill) = fill {
            let _ = write!(
                body,
                r#"<rect x="{PAD}" y="{row_top:.1}" width="{:.1}" height="{ROW}" fill="{fill}"/>"#,
                width - 2.0 * PAD
            );
        }
        text(&mut body, x[1] - 8.0, y, "end", INK, &r.rank.to_string());
        text(
            &mut body,
            x[1] + 6.0,
            y,
            "start",
            INK,
            &drawable(&r.name, NAME_UNITS),
        );
        text(
            &mut body,
            x[3] - 8.0,
            y,
            "end",
            INK,
            &drawable(&r.points, 6),
        );
        if r.streak {
            flame(&mut body, x[2] + 12.0, row_top + ROW / 2.0);
        }
        for (k, value) in r.tiebreaks.iter().take(table.tiebreaks.len()).enumerate() {
            text(
                &mut body,
                x[4 + k] - 8.0,
                y,
                "end",
                INK,
                &drawable(value, 6),
            );
        }
        for (k, cell) in r.rounds.iter().take(table.rounds).enumerate() {
            let (left, right) = (x[first_round + k], x[first_round + k + 1]);
            round_cell(&mut body, left, right, row_top, cell);
        }
    }
    art::document(width as u32, height as u32, &body)
}

/// The streak's flame centred at (`cx`, `cy`), drawn as paths: the names font has no emoji.
fn flame(body: &mut String, cx: f64, cy: f64) {
    let _ = write!(
        body,
        r#"<g transform="translate({cx:.1} {cy:.1})"><path d="M0,-10 C5,-4 7,-1 7,3 A7,7 0 0 1 -7,3 C-7,-1 -4,-3 -2,-7 C-1,-4 0,-3 1,-2 C2,-5 1,-8 0,-10 Z" fill="{FLAME}"/><path d="M0,-2 C3,1 4,3 3.5,5 A3.5,3.5 0 0 1 -3.5,5 C-4,3 -2,1 0,-2 Z" fill="{FLAME_CORE}"/></g>"#
    );
}

/// One round's result: a disc of the side played, then `+12`, `=12` or `−12` (a forfeit
/// with `f`; a game being played as a ring and `12`); byes as `bye`, `½` and `–`.
fn round_cell(body: &mut String, left: f64, right: f64, row_top: f64, cell: &RoundCell) {
    let y = row_top + ROW * 0.68;
    match *cell {
        RoundCell::Game {
            opponent,
            side,
            outcome,
        } => {
            let rim = match side {
                Side::Red => RED,
                Side::Black => BLACK,
            };
            // A game being played: a ring, and the opponent's number alone.
            let (disc, ink) = if outcome == Outcome::Playing {
                ("none", MUTED)
            } else {
                (rim, INK)
            };
            let _ = write!(
                body,
                r#"<circle cx="{:.1}" cy="{:.1}" r="4" fill="{disc}" stroke="{rim}"/>"#,
                left + 9.0,
                row_top + ROW / 2.0
            );
            let (sign, suffix) = match outcome {
                Outcome::Win => ("+", ""),
                Outcome::Draw => ("=", ""),
                Outcome::Loss => ("−", ""),
                Outcome::ForfeitWin => ("+", "f"),
                Outcome::ForfeitLoss => ("−", "f"),
                Outcome::Playing => ("", ""),
            };
            let _ = write!(
                body,
                r#"<text x="{:.1}" y="{y:.1}" font-size="{:.1}" text-anchor="end" fill="{ink}">{sign}{opponent}{suffix}</text>"#,
                right - 6.0,
                FONT * 0.9
            );
        }
        RoundCell::Bye { half_points } => {
            let label = match half_points {
                0 => "–",
                1 => "½",
                _ => "bye",
            };
            let _ = write!(
                body,
                r#"<text x="{:.1}" y="{y:.1}" font-size="{:.1}" text-anchor="end" fill="{MUTED}">{label}</text>"#,
                right - 6.0,
                FONT * 0.9
            );
        }
        RoundCell::Empty => {}
    }
}

/// Whether the names font has a glyph for `c`.
fn has_glyph(c: char) -> bool {
    static FONT: OnceLock<Option<skrifa::FontRef<'static>>> = OnceLock::new();
    FONT.get_or_init(|| skrifa::FontRef::new(NAMES_FONT).ok())
        .as_ref()
        .is_some_and(|f| f.charmap().map(c).is_some())
}

/// Characters that change the direction or shape of text without being drawn: an RTL
/// override would turn the rest of the row around.
fn invisible(c: char) -> bool {
    matches!(c,
        '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{206F}'
        | '\u{061C}' | '\u{FEFF}' | '\u{FE00}'..='\u{FE0F}' | '\u{E0000}'..='\u{E007F}'
        | '\u{00AD}')
        || c.is_control()
}

/// Columns a character takes: 2 for ideographs, kana, Hangul and full-width forms.
fn units(c: char) -> usize {
    match c {
        '\u{1100}'..='\u{115F}'
        | '\u{2E80}'..='\u{A4CF}'
        | '\u{AC00}'..='\u{D7A3}'
        | '\u{F900}'..='\u{FAFF}'
        | '\u{FE30}'..='\u{FE4F}'
        | '\u{FF00}'..='\u{FF60}'
        | '\u{FFE0}'..='\u{FFE6}' => 2,
        '\u{0300}'..='\u{036F}' => 0,
        _ => 1,
    }
}

/// `text` made safe to draw: invisible and control characters dropped, spaces collapsed,
/// characters the font lacks as `?`, cut to `max_units` with `…`, escaped for SVG.
pub fn drawable(text: &str, max_units: usize) -> String {
    let mut clean: Vec<char> = Vec::new();
    for c in text.chars() {
        if c.is_whitespace() {
            if clean.last().is_some_and(|&l| l != ' ') {
                clean.push(' ');
            }
        } else if invisible(c) {
            continue;
        } else if has_glyph(c) {
            clean.push(c);
        } else {
            clean.push('?');
        }
        if clean.len() > max_units * 2 + 2 {
            break;
        }
    }
    while clean.last() == Some(&' ') {
        clean.pop();
    }
    if clean.is_empty() {
        clean.push('?');
    }
    let total: usize = clean.iter().map(|&c| units(c)).sum();
    if total > max_units {
        let mut used = 0;
        let mut keep = 0;
        for (k, &c) in clean.iter().enumerate() {
            if used + units(c) > max_units.saturating_sub(1) {
                break;
            }
            used += units(c);
            keep = k + 1;
        }
        clean.truncate(keep);
        clean.push('…');
    }
    let mut out = String::with_capacity(clean.len());
    for c in clean {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

/// Parsing options whose font database holds the names font and nothing else.
fn options() -> usvg::Options<'static> {
    static FONTS: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    let fonts = FONTS.get_or_init(|| {
        let mut db = usvg::fontdb::Database::new();
        db.load_font_data(NAMES_FONT.to_vec());
        Arc::new(db)
    });
    usvg::Options {
        font_family: NAMES_FAMILY.to_owned(),
        fontdb: Arc::clone(fonts),
        ..usvg::Options::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cjk_and_vietnamese_names_have_glyphs() {
        for name in [
            "王天一",
            "許銀川",
            "Nguyễn Thành Bảo",
            "김민준",
            "さくら",
            "Đặng",
        ] {
            assert!(name.chars().all(|c| c == ' ' || has_glyph(c)), "{name}");
            assert_eq!(drawable(name, NAME_UNITS), name);
        }
    }

    #[test]
    fn direction_marks_and_control_characters_are_dropped() {
        assert_eq!(drawable("a\u{202E}bc\u{200F}d", 20), "abcd");
        assert_eq!(drawable("x\u{0007}y\u{0000}\nz", 20), "xy z");
        assert_eq!(drawable("\u{202E}\u{200B}", 20), "?");
    }

    #[test]
    fn letters_the_font_lacks_show_as_question_marks() {
        assert_eq!(drawable("Ana 🐉🎉", 20), "Ana ??");
        assert_eq!(drawable("שלום", 20), "????");
    }

    #[test]
    fn long_names_are_cut_with_an_ellipsis_by_width() {
        let cut = drawable(&"W".repeat(200), 10);
        assert_eq!(cut, format!("{}…", "W".repeat(9)));
        // Ideographs take two columns each.
        assert_eq!(drawable("王天一王天一王天一", 10), "王天一王…");
    }

    #[test]
    fn markup_in_a_name_is_escaped() {
        assert_eq!(drawable("<b>&\"'", 20), "&lt;b&gt;&amp;&quot;&apos;");
    }

    #[test]
    fn a_large_event_shows_the_top_twenty_and_the_askers_row() {
        let shown = shown_rows(500, Some(377));
        assert_eq!(shown.len(), TOP_ROWS + 2);
        assert_eq!(shown[TOP_ROWS], None);
        assert_eq!(shown[TOP_ROWS + 1], Some(377));
        assert_eq!(shown_rows(500, Some(3)).len(), TOP_ROWS);
        assert_eq!(
            shown_rows(500, Some(TOP_ROWS)).last(),
            Some(&Some(TOP_ROWS))
        );
        assert_eq!(shown_rows(8, None).len(), 8);
    }
}
