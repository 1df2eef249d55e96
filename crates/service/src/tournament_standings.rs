//! What a tournament shows: its standings as the render crate's picture (rank, name,
//! points, the format's tie-breaks, and a Swiss's round-by-round results), posted after each
//! round and on `/tournament standings`, and a Swiss as a TRF-16 file (`/tournament trf`).
//!
//! Pictures go with their message (the outbox keeps the bytes until delivered): a table has
//! no game to draw a recipe from, as a puzzle has none.

use jieqi_render::{Outcome, RoundCell, StandingsRow, StandingsTable, render_standings};
use jieqi_rules::Side;
use jieqi_tournament::model::{Entry, Score};
use jieqi_tournament::tiebreak::Tiebreak;

use crate::context::{Ctx, Sentence, Step};
use crate::ids::UserId;
use crate::message::{Destination, Image, Message, MessageKind};
use crate::settings::ChatSettings;
use crate::store::TournamentRecord;
use crate::tournament_play::{entries_of, planned_rounds, standings_order, swiss_of};

/// A tie-break's column heading.
pub(crate) fn heading(tiebreak: Tiebreak) -> &'static str {
    match tiebreak {
        Tiebreak::BuchholzCut1 => "BH-1",
        Tiebreak::Buchholz => "BH",
        Tiebreak::SonnebornBerger => "SB",
        Tiebreak::DirectEncounter => "DE",
        Tiebreak::Wins => "W",
    }
}

/// A tie-break's value as shown: quarter points as points (`12.75`), wins as a count.
fn shown_value(tiebreak: Tiebreak, value: u32) -> String {
    if tiebreak == Tiebreak::Wins {
        return value.to_string();
    }
    let whole = value / 4;
    match value % 4 {
        0 => whole.to_string(),
        1 => format!("{whole}.25"),
        2 => format!("{whole}.5"),
        _ => format!("{whole}.75"),
    }
}

/// Half points as points (`3`, `3.5`).
fn shown_points(half_points: u16) -> String {
    jieqi_tournament::model::Points(half_points).to_string()
}

/// The column headings after the points: the format's tie-breaks, or an arena's wins and
/// games.
pub(crate) fn headings(record: &TournamentRecord) -> Vec<&'static str> {
    if record.is_arena() {
        return vec!["W", "G"];
    }
    standings_order(record)
        .iter()
        .map(|&t| heading(t))
        .collect()
}

/// An arena's standings: points (a flame on a streak), then wins and games; equal on all
/// three share a rank.
fn arena_rows(
    record: &TournamentRecord,
    asker: Option<&UserId>,
) -> (Vec<StandingsRow>, Option<usize>) {
    let Some(arena) = crate::arena_play::arena_of(record) else {
        return (Vec::new(), None);
    };
    let order = arena.standings();
    let players = arena.players();
    let key = |i: usize| (players[i].points, players[i].wins, players[i].games);
    let mut rows = Vec::with_capacity(order.len());
    let mut rank = 0;
    for (shown, &i) in order.iter().enumerate() {
        if shown == 0 || key(order[shown - 1]) != key(i) {
            rank = u32::try_from(shown + 1).unwrap_or(u32::MAX);
        }
        rows.push(StandingsRow {
            rank,
            name: record.players[i].user.name.clone(),
            points: players[i].points.to_string(),
            tiebreaks: vec![players[i].wins.to_string(), players[i].games.to_string()],
            rounds: Vec::new(),
            streak: arena.on_fire(i),
        });
    }
    let asker_row = asker.and_then(|user| {
        let i = record.player_index(user)?;
        order.iter().position(|&p| p == i)
    });
    (rows, asker_row)
}

/// The standings as rows of the render crate's table, best first, and the row of `asker`.
pub(crate) fn rows(
    record: &TournamentRecord,
    asker: Option<&UserId>,
) -> (Vec<StandingsRow>, Option<usize>) {
    if record.is_arena() {
        return arena_rows(record, asker);
    }
    let entries = entries_of(record);
    let order = standings_order(record);
    let standings = jieqi_tournament::tiebreak::standings(&entries, order);
    let mut rank_of = vec![0u32; record.players.len()];
    for (shown, s) in standings.iter().enumerate() {
        // Opponents are named by their row's number, which is unique even where ranks tie.
        rank_of[s.player] = u32::try_from(shown + 1).unwrap_or(u32::MAX);
    }
    let rows: Vec<StandingsRow> = standings
        .iter()
        .map(|s| StandingsRow {
            rank: u32::try_from(s.rank).unwrap_or(u32::MAX),
            name: record.players[s.player].user.name.clone(),
            points: shown_points(s.points),
            tiebreaks: order
                .iter()
                .zip(&s.tiebreaks)
                .map(|(&t, &v)| shown_value(t, v))
                .collect(),
            rounds: entries[s.player]
                .iter()
                .map(|e| cell(*e, &rank_of))
                .collect(),
            streak: false,
        })
        .collect();
    let asker_row = asker.and_then(|user| {
        let i = record.player_index(user)?;
        standings.iter().position(|s| s.player == i)
    });
    (rows, asker_row)
}

fn cell(entry: Entry, rank_of: &[u32]) -> RoundCell {
    match entry {
        Entry::Game {
            opponent,
            colour,
            score,
        } => RoundCell::Game {
            opponent: rank_of.get(opponent).copied().unwrap_or(0),
            side: if colour == jieqi_tournament::model::Colour::White {
                Side::Red
            } else {
                Side::Black
            },
            outcome: match score {
                None => Outcome::Playing,
                Some(Score::Win) => Outcome::Win,
                Some(Score::Draw) => Outcome::Draw,
                Some(Score::Loss) => Outcome::Loss,
                Some(Score::ForfeitWin) => Outcome::ForfeitWin,
                Some(Score::ForfeitLoss) => Outcome::ForfeitLoss,
            },
        },
        Entry::Bye(kind) => RoundCell::Bye {
            half_points: u8::try_from(kind.points().0).unwrap_or(0),
        },
    }
}

/// The standings picture in the chat's language, `asker`'s row highlighted, an arena's end
/// on the chat's clocks; `None` if it could not be drawn (the text says the same).
pub(crate) fn standings_image(
    ctx: &Ctx<'_>,
    record: &TournamentRecord,
    asker: Option<&UserId>,
    settings: ChatSettings,
) -> Option<Image> {
    let lang = settings.language;
    let (rows, asker_row) = rows(record, asker);
    let title = if record.is_arena() {
        ctx.say_in(
            lang,
            &Sentence::new("arena-standings-title")
                .arg("id", record.id.as_str())
                .arg(
                    "state",
                    if record.state.is_over() {
                        "over"
                    } else {
                        "running"
                    },
                )
                .arg("end", arena_end_text(record, settings.zone)),
        )
    } else {
        ctx.say_in(
            lang,
            &Sentence::new("tournament-standings-title")
                .arg("id", record.id.as_str())
                .arg("round", u64::from(record.round))
                .arg("rounds", u64::from(planned_rounds(record))),
        )
    };
    let headings = headings(record);
    let table = StandingsTable {
        title: &title,
        tiebreaks: &headings,
        rounds: usize::from(record.round),
        rows: &rows,
        asker: asker_row,
    };
    match render_standings(&table) {
        Ok(bytes) => Some(Image {
            bytes,
            file_name: format!("{}-{}.png", record.id, record.round),
        }),
        Err(e) => {
            tracing::warn!(error = %e, tournament = %record.id, "standings not drawn");
            None
        }
    }
}

/// The standings as text lines (rank, name, points), for the caption.
pub(crate) fn standings_text(record: &TournamentRecord, most: usize) -> String {
    let (rows, _) = rows(record, None);
    rows.iter()
        .take(most)
        .map(|r| {
            let fire = if r.streak { " 🔥" } else { "" };
            format!("{}. {} {}{fire}", r.rank, r.name, r.points)
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// "Standings after round r of n:" and the top three, in `lang`.
pub(crate) fn standings_after_text(
    ctx: &Ctx<'_>,
    record: &TournamentRecord,
    lang: crate::i18n::Language,
) -> String {
    let mut text = ctx.say_in(
        lang,
        &Sentence::new("tournament-standings-after")
            .arg("round", u64::from(record.round))
            .arg("rounds", u64::from(planned_rounds(record))),
    );
    text.push('\n');
    text.push_str(&standings_text(record, 3));
    text
}

/// An arena's end on the clocks of `zone` (its chat's): "2023-11-15 20:45 UTC+8".
pub(crate) fn arena_end_text(
    record: &TournamentRecord,
    zone: crate::settings::UtcOffset,
) -> String {
    crate::announce::zoned_clock_text(record.ends_at.unwrap_or(0), zone)
}

/// Posts the standings after a round (`asker`'s row highlighted when one asked).
pub(crate) async fn post_standings(
    ctx: &mut Ctx<'_>,
    record: &TournamentRecord,
    asker: Option<&UserId>,
) -> Step {
    let settings = ctx.chat_record(&record.chat).await?.settings;
    let text = standings_after_text(ctx, record, settings.language);
    let image = standings_image(ctx, record, asker, settings);
    ctx.post(
        Message::text(
            Destination::Chat(record.chat.clone()),
            MessageKind::Listing,
            text,
        )
        .with_image(image),
        None,
    )
    .await?;
    Ok(())
}

/// A Swiss as FIDE's TRF-16 exchange file.
pub(crate) fn trf_file(record: &TournamentRecord) -> Image {
    let text = jieqi_tournament::trf::write(
        &swiss_of(record),
        &format!("jieqi-bot tournament {}", record.id),
    );
    Image {
        bytes: text.into_bytes(),
        file_name: format!("{}.trf", record.id),
    }
}
