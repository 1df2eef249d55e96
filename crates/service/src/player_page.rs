//! A player's own board on the web (`jieqi-web`): the spectators' page built from that
//! player's view, oriented from their side, with the moves they may play now and where each
//! point of the board lies on its picture, so the page can turn a tap into a move.
//!
//! Hidden information: everything here comes from `Viewer::Player(side)` views (the public
//! view plus the covered pieces this player captured) and public texts; the opponent's secrets
//! never enter. Two deals that agree on everything one player knows give that player equal
//! pages (`jieqi-web`'s `tests/it/hidden.rs`).

use jieqi_render::{PieceStyle, RenderOptions};
use jieqi_rules::{CapturedCoveredVisibleTo, Side, Viewer};
use serde::Serialize;

use crate::announce::{move_number, move_text, piece_name};
use crate::context::{Ctx, Sentence, Step};
use crate::game_page::{BoardLook, GamePage, build};
use crate::i18n::Language;
use crate::replay::{LoadedGame, side_of};
use crate::settings::{ChatSettings, Orientation, PersonalSettings, Style};
use crate::store::Seat;

/// The width the points' places are measured on: the widest picture the page asks for, so
/// the fractions are as exact as any picture's pixels.
const MEASURED_WIDTH: u32 = 1440;

/// A game's page as one of its players sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlayerPage {
    /// The page, built from this player's view (their captures named in the move list).
    #[serde(flatten)]
    pub page: GamePage,
    /// The player's seat: 0 (first) or 1.
    pub seat: u8,
    /// The moves this player may play now (none while the opponent is to move).
    pub legal: Vec<PageChoice>,
    /// Where each point of the board is on the pictures, for taps.
    pub points: Vec<PagePoint>,
    /// What this player alone knows: the covered pieces they captured, named.
    pub known: Vec<String>,
    /// True while the opponent offers a draw this player may accept.
    pub draw_offered: bool,
}

/// One move a tap can play: from a point to a point (a Banqi flip: the same point twice).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PageChoice {
    /// The point tapped first (`h2`).
    pub from: String,
    /// The point tapped second (`e2`).
    pub to: String,
    /// The move as `/move` takes it (`h2e2`, Banqi `c3`).
    pub play: String,
}

/// A point of the board on its picture: its centre and its cell's side, in ten-thousandths of
/// the picture's width (`x`, `size`) and height (`y`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PagePoint {
    /// The point as moves name it (`e2`; Banqi `c3`).
    pub name: String,
    /// Centre, from the left.
    pub x: u32,
    /// Centre, from the top.
    pub y: u32,
    /// The cell's side (a tap target).
    pub size: u32,
}

/// How `player`'s own boards look: their side at the bottom unless they chose otherwise, in
/// their piece style or the chat's.
pub(crate) fn player_look(
    chat: &ChatSettings,
    personal: PersonalSettings,
    side: Option<Side>,
) -> (Side, Style) {
    let side = side.unwrap_or(Side::Red);
    (
        personal.orientation.map_or(side, Orientation::side),
        personal.style.unwrap_or(chat.style),
    )
}

/// Builds the page of `loaded` for the player in `seat`, in `language`.
pub(crate) async fn build_player(
    ctx: &Ctx<'_>,
    loaded: &LoadedGame,
    settings: &ChatSettings,
    personal: PersonalSettings,
    language: Language,
    seat: Seat,
) -> Step<PlayerPage> {
    let game = &loaded.game;
    let side = side_of(game, seat);
    // Banqi before the first flip: nobody has a side, and nobody knows more than the public.
    let viewer = side.map_or(Viewer::Public, Viewer::Player);
    let (orientation, style) = player_look(settings, personal, side);
    let look = BoardLook {
        orientation: match orientation {
            Side::Red => "red",
            Side::Black => "black",
        },
        style: match style {
            Style::Characters => "characters",
            Style::Symbols => "symbols",
        },
    };
    let page = build(ctx, loaded, settings, language, viewer, look).await?;
    let running = game.outcome().is_none();
    let to_move = crate::announce::our_seat(game.seat_to_move());
    let legal = if running && to_move == seat {
        game.legal_move_texts()
            .into_iter()
            .filter_map(|play| choice(&play))
            .collect()
    } else {
        Vec::new()
    };
    let view = game.view(viewer);
    let options = RenderOptions {
        width: MEASURED_WIDTH,
        orientation,
        style: match style {
            Style::Characters => PieceStyle::Characters,
            Style::Symbols => PieceStyle::Symbols,
        },
    };
    let points = match jieqi_render::layout(&view, &options) {
        Ok(layout) => points(&layout, view.files, view.ranks),
        Err(_) => Vec::new(),
    };
    let known = match side {
        Some(side) => known_captures(ctx, loaded, settings, language, side),
        None => Vec::new(),
    };
    let draw_offered = running
        && loaded
            .record
            .draw_offer
            .as_ref()
            .is_some_and(|o| o.by != seat);
    Ok(PlayerPage {
        page,
        seat: match seat {
            Seat::First => 0,
            Seat::Second => 1,
        },
        legal,
        points,
        known,
        draw_offered,
    })
}

/// A legal move as typed (`h2e2`, Banqi `c3` or `c3c4`) split into the points it is tapped
/// on; `None` for a text of another shape.
fn choice(play: &str) -> Option<PageChoice> {
    let bytes = play.as_bytes();
    let point = |at: usize| {
        let name = play.get(at..at + 2)?;
        let ok = bytes[at].is_ascii_lowercase() && bytes[at + 1].is_ascii_digit();
        ok.then(|| name.to_owned())
    };
    match bytes.len() {
        2 => {
            let at = point(0)?;
            Some(PageChoice {
                from: at.clone(),
                to: at,
                play: play.to_owned(),
            })
        }
        4 => Some(PageChoice {
            from: point(0)?,
            to: point(2)?,
            play: play.to_owned(),
        }),
        _ => None,
    }
}

/// Every point of a `files` × `ranks` board on a picture laid out as `layout`.
fn points(layout: &jieqi_render::Layout, files: u8, ranks: u8) -> Vec<PagePoint> {
    let (width, height) = (u64::from(layout.width), u64::from(layout.height));
    let scaled = |value: u32, of: u64| u32::try_from(u64::from(value) * 10_000 / of).unwrap_or(0);
    let mut points = Vec::with_capacity(usize::from(files) * usize::from(ranks));
    for rank in 0..ranks {
        for file in 0..files {
            let point = jieqi_rules::Point { file, rank };
            let Some((x, y)) = layout.point_center(point) else {
                continue;
            };
            // Boards of points count ranks from 0 (`e0`), Banqi's squares from 1 (`c1`).
            let rank_name = if ranks == 10 { rank } else { rank + 1 };
            points.push(PagePoint {
                name: format!("{}{}", char::from(b'a' + file), rank_name),
                x: scaled(x, width),
                y: scaled(y, height),
                size: scaled(layout.cell, width),
            });
        }
    }
    points
}

/// "Move 12… Cxe7: the covered piece you captured was a Red chariot.", for each covered piece
/// the player of `side` captured where the rules tell the capturer.
fn known_captures(
    ctx: &Ctx<'_>,
    loaded: &LoadedGame,
    settings: &ChatSettings,
    lang: Language,
    side: Side,
) -> Vec<String> {
    let game = &loaded.game;
    if game.rules().captured_covered_visible_to == CapturedCoveredVisibleTo::Nobody {
        return Vec::new();
    }
    (0..game.history_len())
        .filter_map(|ply| {
            let (capturer, piece) = game.captured_covered_by(ply)?;
            (capturer == side).then(|| {
                let piece = piece_name(ctx, lang, piece);
                ctx.say_in(
                    lang,
                    &Sentence::new("web-known")
                        .arg("number", move_number(ply))
                        .arg(
                            "move",
                            move_text(game, ply, settings.notation, Viewer::Player(side)),
                        )
                        .arg("piece", piece),
                )
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::choice;

    #[test]
    fn moves_split_into_the_points_they_are_tapped_on() {
        let h2e2 = choice("h2e2").expect("a move");
        assert_eq!((h2e2.from.as_str(), h2e2.to.as_str()), ("h2", "e2"));
        let flip = choice("c3").expect("a flip");
        assert_eq!((flip.from.as_str(), flip.to.as_str()), ("c3", "c3"));
        for odd in ["", "h", "h2e", "炮二平五", "H2E2", "h2e2x"] {
            assert!(choice(odd).is_none(), "{odd}");
        }
    }
}
