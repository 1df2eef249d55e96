//! A finished Xiangqi or Jieqi game as PGN, the record other Xiangqi programs read
//! (`/history` attaches it).
//!
//! The Chinese chess convention (XQStudio, the xqbase collections): the seven tag roster
//! with `Red` and `Black` in place of White and Black, `[Game "Chinese Chess"]`, the start
//! position in `FEN` (with `N`/`B` for horse and elephant, as those programs write it),
//! `[Format "ICCS"]`, and moves in ICCS coordinates, `H2-E2`, files `A`–`I` from Red's left,
//! ranks `0`–`9` from Red's side. Results `1-0` (Red won), `0-1`, `1/2-1/2`.
//!
//! Jieqi adds `[Variant "jieqi"]` as PyChess names its variants, the covered start
//! position (`X`/`x`) in `FEN`, and the deal in a `Deal` tag: the true type of each covered
//! piece in FEN reading order, exactly the letters hashed for the game's commitment (see
//! `docs/notation.md`). A move that turned a piece face up carries what it showed after
//! `=`, in the mover's case (`H2-H9=R`, `I9-H9=r`), as our WXF does. Banqi has no PGN
//! convention and gets none.

use std::fmt::Write;

use jieqi_rules::{Game, Outcome, Side, Variant};

use crate::replay::side_of;
use crate::store::{GameRecord, Seat};

/// Xiangqi's start in the FEN letters other programs use.
const XIANGQI_START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
/// Jieqi's start: every piece but the generals covered.
const JIEQI_START: &str = "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w - - 0 1";

/// The PGN of `record`, whose moves `game` has played; `None` for Banqi. A tournament
/// game's `event` (its name and round, 0 for an arena's) fills the `Event` and `Round` tags.
pub(crate) fn pgn(record: &GameRecord, game: &Game, event: Option<(String, u8)>) -> Option<String> {
    let start = match record.variant {
        Variant::Xiangqi => XIANGQI_START,
        Variant::Jieqi => JIEQI_START,
        Variant::Banqi => return None,
    };
    let name = |side: Side| {
        [Seat::First, Seat::Second]
            .into_iter()
            .find(|seat| side_of(game, *seat) == Some(side))
            .map_or_else(|| "?".to_owned(), |seat| record.player(seat).name.clone())
    };
    let result = match game.outcome() {
        Some(Outcome::Win {
            winner: Side::Red, ..
        }) => "1-0",
        Some(Outcome::Win {
            winner: Side::Black,
            ..
        }) => "0-1",
        Some(Outcome::Draw(_)) => "1/2-1/2",
        Some(Outcome::Aborted) | None => "*",
    };
    let mut tags = vec![
        ("Game", "Chinese Chess".to_owned()),
        (
            "Event",
            event
                .as_ref()
                .map_or_else(|| format!("jieqi-bot game {}", record.id), |e| e.0.clone()),
        ),
        ("Site", "jieqi-bot".to_owned()),
        (
            "Date",
            date(record.finished_at.unwrap_or(record.started_at)),
        ),
        (
            "Round",
            // An arena has no rounds (round 0): `-`, as lichess writes its arena games.
            event
                .filter(|e| e.1 > 0)
                .map_or_else(|| "-".to_owned(), |e| e.1.to_string()),
        ),
        ("Red", name(Side::Red)),
        ("Black", name(Side::Black)),
        ("Result", result.to_owned()),
    ];
    if record.variant == Variant::Jieqi {
        tags.push(("Variant", "jieqi".to_owned()));
    }
    tags.push(("FEN", start.to_owned()));
    if record.variant == Variant::Jieqi {
        tags.push(("Deal", record.deal.clone()));
    }
    tags.push(("Format", "ICCS".to_owned()));

    let mut out = String::new();
    for (tag, value) in tags {
        let _ = writeln!(out, "[{tag} \"{}\"]", escaped(&value));
    }
    out.push('\n');
    let mut line = String::new();
    for (ply, text) in record.moves.iter().enumerate() {
        let mut token = String::new();
        if ply % 2 == 0 {
            let _ = write!(token, "{}. ", ply / 2 + 1);
        }
        token.push_str(&iccs(text, ply % 2 == 0));
        push_token(&mut out, &mut line, &token);
    }
    push_token(&mut out, &mut line, result);
    out.push_str(&line);
    out.push('\n');
    Some(out)
}

/// `h2e2` as `H2-E2`, and `h2h9r` (a reveal) as `H2-H9=R` for Red, `=r` for Black.
fn iccs(stored: &str, red: bool) -> String {
    let (squares, reveal) = stored.split_at(stored.len().min(4));
    let mut out = String::with_capacity(8);
    for (i, c) in squares.chars().enumerate() {
        if i == 2 {
            out.push('-');
        }
        out.push(c.to_ascii_uppercase());
    }
    if let Some(c) = reveal.chars().next() {
        out.push('=');
        out.push(if red {
            c.to_ascii_uppercase()
        } else {
            c.to_ascii_lowercase()
        });
    }
    out
}

/// Adds `token` to the movetext, starting a new line before 80 characters.
fn push_token(out: &mut String, line: &mut String, token: &str) {
    if !line.is_empty() && line.len() + 1 + token.len() > 79 {
        out.push_str(line);
        out.push('\n');
        line.clear();
    }
    if !line.is_empty() {
        line.push(' ');
    }
    line.push_str(token);
}

/// A tag value with `\` and `"` escaped, as PGN asks, and no line breaks.
fn escaped(value: &str) -> String {
    value
        .chars()
        .filter(|c| !c.is_control())
        .flat_map(|c| match c {
            '\\' | '"' => vec!['\\', c],
            c => vec![c],
        })
        .collect()
}

/// `YYYY.MM.DD` of a Unix time (UTC).
fn date(at: crate::store::UnixTime) -> String {
    let stamp = humantime::format_rfc3339_seconds(
        std::time::UNIX_EPOCH + std::time::Duration::from_secs(at),
    );
    stamp
        .to_string()
        .get(..10)
        .map_or_else(|| "????.??.??".to_owned(), |d| d.replace('-', "."))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_written_in_iccs_with_reveals_in_the_movers_case() {
        assert_eq!(iccs("h2e2", true), "H2-E2");
        assert_eq!(iccs("h2h9r", true), "H2-H9=R");
        assert_eq!(iccs("i9h9c", false), "I9-H9=c");
    }

    #[test]
    fn tag_values_are_escaped_and_dates_written_with_dots() {
        assert_eq!(escaped("a \"b\" \\ c\n"), "a \\\"b\\\" \\\\ c");
        assert_eq!(date(0), "1970.01.01");
        assert_eq!(date(1_764_547_200), "2025.12.01");
    }
}
