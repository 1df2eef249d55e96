//! What a game's web page shows (`jieqi-web`): the players, the move record, whose turn it is
//! and until when, the result and the deal's proof once over, and how to draw its boards, as
//! one small document for one viewer.
//!
//! The spectators' page is built from `Viewer::Public` views, the chat's public texts and, once
//! the game is over, the deal the result post published: two games whose public histories
//! agree give equal pages (`tests/it/web_page.rs`). A player's page (`player_page`) is the
//! same document built from that player's view.

use jieqi_rules::{Game, GameDeal, Side, Viewer};
use serde::Serialize;

use crate::announce::{
    self, deal_piece_lines, game_terms, move_number, move_text, outcome_text, player_label,
    side_key,
};
use crate::context::{Ctx, Sentence, Step};
use crate::i18n::Language;
use crate::lifecycle::{is_engine_seat, times_out_at};
use crate::replay::{LoadedGame, rebuild_at, side_of};
use crate::settings::{ChatSettings, Orientation, Style};
use crate::store::{GameRecord, Seat};

/// A game as its web page shows it to the public, in one language.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GamePage {
    /// The game's id (`g7k2`).
    pub game: String,
    /// The stored revision this page was built from: a live stream's event id.
    pub revision: u64,
    /// The language of the texts (`en`, `zh`, `vi`).
    pub language: &'static str,
    /// `xiangqi`, `jieqi` or `banqi`.
    pub variant: &'static str,
    /// "Jieqi · standard rules · 24 hours per move".
    pub terms: String,
    /// The first seat, then the second.
    pub players: [PagePlayer; 2],
    /// Every move played, in the chat's notation.
    pub moves: Vec<PageMove>,
    /// How the boards are drawn: the chat's choices.
    pub board: BoardLook,
    /// "bob (Black) to move. Check!" while running; the result once over.
    pub status: String,
    /// Which seat is to move (0 or 1) while the game runs.
    pub to_move: Option<u8>,
    /// When the player to move loses on time (Unix seconds), while a game on a time per move
    /// runs.
    pub deadline: Option<u64>,
    /// A live game's clocks as of the server's instant, for the page to count down; `None`
    /// for a game on a time per move.
    pub clocks: Option<PageClocks>,
    /// True once the game is over.
    pub finished: bool,
    /// The commitment to the deal published at the start (hex; empty for Xiangqi).
    pub commitment: String,
    /// The deal and how to check it, once the game is over (none for Xiangqi).
    pub proof: Option<DealProof>,
}

/// Both clocks of a live game as of `server_time`: the page counts the running one down
/// from there, and every event corrects it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PageClocks {
    /// The control as typed (`3+2`, `10m|30s`).
    pub control: String,
    /// Each seat's time left at `server_time`, in milliseconds (the running seat's counted
    /// down to then): its game time, or in byo-yomi the current period's.
    pub left_ms: [u64; 2],
    /// Byo-yomi periods left per seat (0 for other controls).
    pub periods: [u8; 2],
    /// Whether each seat's game time is spent and byo-yomi counts.
    pub byo_yomi: [bool; 2],
    /// A byo-yomi period, in milliseconds (0 for other controls).
    pub period_ms: u64,
    /// Whose clock runs (0 or 1), while the game runs.
    pub running: Option<u8>,
    /// The instant these figures are of: milliseconds since the Unix epoch on the server's
    /// shared clock.
    pub server_time: u64,
}

/// The clocks of a live game as of the context's instant.
fn page_clocks(ctx: &Ctx<'_>, record: &GameRecord) -> Option<PageClocks> {
    use crate::store::game_clock::{seat_of_side, side_of_seat};
    let clock = record.clock.as_ref()?;
    let at = ctx.clock_now;
    let faces = [Seat::First, Seat::Second].map(|seat| clock.face(side_of_seat(seat), at));
    let index = |seat: Seat| match seat {
        Seat::First => 0,
        Seat::Second => 1,
    };
    Some(PageClocks {
        control: clock.control().to_string(),
        left_ms: faces.map(|f| u64::try_from(f.left.as_millis()).unwrap_or(u64::MAX)),
        periods: faces.map(|f| f.periods),
        byo_yomi: faces.map(|f| f.byo_yomi),
        period_ms: match clock.control().form() {
            jieqi_clock::Form::ByoYomi { period, .. } => {
                u64::try_from(period.as_millis()).unwrap_or(u64::MAX)
            }
            _ => 0,
        },
        running: clock.running().map(|r| index(seat_of_side(r.side))),
        server_time: at.as_millis(),
    })
}

/// A player as the page names them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PagePlayer {
    /// Their display name: untrusted text, shown as text only.
    pub name: String,
    /// "Red" or "Black" once known, translated.
    pub side: Option<String>,
    /// `red` or `black` once known.
    pub colour: Option<&'static str>,
    /// Their rating in this variant (rounded), or the engine's level.
    pub rating: String,
}

/// One move of the record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PageMove {
    /// "12." or "12…".
    pub number: String,
    /// The move in the chat's notation, with coordinates in brackets where they differ.
    pub text: String,
}

/// How boards are drawn on the page (the chat's public picture choices).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct BoardLook {
    /// `red` or `black`: the side at the bottom.
    pub orientation: &'static str,
    /// `characters` or `symbols`.
    pub style: &'static str,
}

impl BoardLook {
    /// The look of a chat's public boards.
    pub fn of(settings: &ChatSettings) -> BoardLook {
        BoardLook {
            orientation: match settings.orientation {
                Orientation::Red => "red",
                Orientation::Black => "black",
            },
            style: match settings.style {
                Style::Characters => "characters",
                Style::Symbols => "symbols",
            },
        }
    }
}

/// A finished game's deal, as its result post published it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DealProof {
    /// The deal letters.
    pub deal: String,
    /// The salt (hex).
    pub salt: String,
    /// Each side's hidden pieces, point by point, translated.
    pub pieces: Vec<String>,
    /// How to check the commitment by hand.
    pub how_to_check: String,
}

/// Builds the page of `loaded` in `language` as `viewer` knows it (the public, or one player
/// for their own board), with `settings` the chat's and its boards drawn as `look` says.
pub(crate) async fn build(
    ctx: &Ctx<'_>,
    loaded: &LoadedGame,
    settings: &ChatSettings,
    language: Language,
    viewer: Viewer,
    look: BoardLook,
) -> Step<GamePage> {
    let record = &loaded.record;
    let game = &loaded.game;
    let lang = language;
    let mut players = Vec::with_capacity(2);
    for seat in [Seat::First, Seat::Second] {
        players.push(page_player(ctx, loaded, seat, lang).await?);
    }
    let [first, second]: [PagePlayer; 2] = match players.try_into() {
        Ok(both) => both,
        Err(_) => unreachable!("two seats"),
    };
    let moves = (0..game.history_len())
        .map(|ply| PageMove {
            number: move_number(ply),
            text: move_text(game, ply, settings.notation, viewer),
        })
        .collect();
    let outcome = game.outcome();
    let (status, to_move, deadline) = match outcome {
        Some(outcome) => (outcome_text(ctx, lang, loaded, outcome), None, None),
        None => {
            let seat = announce::our_seat(game.seat_to_move());
            let mut status = ctx.say_in(
                lang,
                &Sentence::new("board-to-move")
                    .arg("player", player_label(ctx, lang, loaded, seat)),
            );
            if game.view(Viewer::Public).check.is_some() {
                status.push(' ');
                status.push_str(&ctx.say_in(lang, &Sentence::new("board-check")));
            }
            let index = match seat {
                Seat::First => 0,
                Seat::Second => 1,
            };
            let deadline = times_out_at(record).filter(|_| record.clock.is_none());
            (status, Some(index), deadline)
        }
    };
    Ok(GamePage {
        game: record.id.to_string(),
        revision: record.revision,
        language: lang.code(),
        variant: record.variant.name(),
        terms: game_terms(ctx, lang, record),
        players: [first, second],
        moves,
        board: look,
        status,
        to_move,
        deadline,
        clocks: page_clocks(ctx, record),
        finished: outcome.is_some(),
        commitment: record.commitment.clone(),
        proof: if outcome.is_some() {
            deal_proof(ctx, lang, record)
        } else {
            None
        },
    })
}

async fn page_player(
    ctx: &Ctx<'_>,
    loaded: &LoadedGame,
    seat: Seat,
    lang: Language,
) -> Step<PagePlayer> {
    let user = loaded.record.player(seat);
    let side = side_of(&loaded.game, seat);
    let rating = if is_engine_seat(&loaded.record, seat) {
        loaded
            .record
            .engine
            .as_ref()
            .map(|engine| engine.level.clone())
            .unwrap_or_default()
    } else {
        match ctx.player_record_by_id(&user.id).await? {
            Some(player) => {
                let rating = player.rating(loaded.record.variant, loaded.record.speed());
                format!("{:.0}", rating.rating)
            }
            None => format!("{:.0}", crate::store::VariantStats::default().rating),
        }
    };
    Ok(PagePlayer {
        name: user.name.clone(),
        side: side.map(|side| ctx.say_in(lang, &Sentence::new(side_key(side)))),
        colour: side.map(|side| match side {
            Side::Red => "red",
            Side::Black => "black",
        }),
        rating,
    })
}

/// The deal of a finished game, square by square, and the command that checks it.
fn deal_proof(ctx: &Ctx<'_>, lang: Language, record: &GameRecord) -> Option<DealProof> {
    if !matches!(
        GameDeal::from_letters(record.variant, &record.deal),
        Ok(GameDeal::Jieqi(_) | GameDeal::Banqi(_))
    ) {
        return None;
    }
    let lines = deal_piece_lines(ctx, lang, record);
    Some(DealProof {
        deal: record.deal.clone(),
        salt: record.salt.clone(),
        pieces: lines,
        how_to_check: ctx.say_in(
            lang,
            &Sentence::new("result-verify")
                .arg("bytes", format!("{}{}", record.deal, record.salt))
                .arg("commitment", &record.commitment),
        ),
    })
}

/// The game of `record` after `ply` moves (`None` past its end): the moves replayed up to
/// there. With `ended`, the finished game's last position with its ending applied (a
/// resignation or time-out reveals the deal to the public); `None` while the game runs or
/// for another ply. So one `(ply, ended)` always names one picture, never changed later.
pub(crate) fn public_position(record: &GameRecord, ply: usize, ended: bool) -> Option<Game> {
    if ply > record.moves.len() || (ended && (record.is_active() || ply != record.moves.len())) {
        return None;
    }
    // As the store rebuilds it: the game's own rules (secret captures), a finished game as
    // recorded with its stored verdict.
    rebuild_at(record, ply, ended).ok()
}
