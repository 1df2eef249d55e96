//! How games are shown: pictures from views, captions, results, move records, names of
//! sides, variants and durations, in a chat's language and settings.
//!
//! Everything public here is built from `Viewer::Public` views and texts; private pictures
//! come from the receiving player's own view. Nothing here reads the deal.

use std::time::Duration;

use jieqi_rules::{DrawReason, Game, GameDeal, Outcome, Side, Variant, Viewer, WinReason};

use crate::context::{Ctx, Sentence, Step};
use crate::i18n::Language;
use crate::ids::UserId;
use crate::pictures::{self, Picture};
use crate::replay::LoadedGame;
pub(crate) use crate::replay::{our_seat, seat_of, side_of};
use crate::settings::{ChatSettings, Notation, Orientation, PersonalSettings, UtcOffset};
use crate::store::{Ending, GameRecord, Seat};

/// A person's own picture choices (`PersonalSettings`): those on their player record, else
/// none.
pub(crate) async fn personal_settings(ctx: &Ctx<'_>, user: &UserId) -> Step<PersonalSettings> {
    Ok(ctx
        .player_record_by_id(user)
        .await?
        .map(|player| player.personal)
        .unwrap_or_default())
}

/// The picture of `loaded` as the player of `side` knows it, drawn for that player alone
/// with `chat`'s settings under their own choices.
pub(crate) fn private_picture(
    ctx: &Ctx<'_>,
    personal: PersonalSettings,
    loaded: &LoadedGame,
    side: Side,
    chat: &ChatSettings,
) -> Picture {
    let settings = ChatSettings {
        style: personal.style.unwrap_or(chat.style),
        ..*chat
    };
    pictures::draw(
        loaded,
        Viewer::Player(side),
        personal.orientation.map_or(side, Orientation::side),
        &settings,
        ctx.inner.config.board_width,
    )
}

/// The public picture of a game for a chat with `settings`.
pub(crate) fn public_picture(
    ctx: &Ctx<'_>,
    loaded: &LoadedGame,
    settings: &ChatSettings,
) -> Picture {
    pictures::draw(
        loaded,
        Viewer::Public,
        settings.orientation.side(),
        settings,
        ctx.inner.config.board_width,
    )
}

pub(crate) fn side_key(side: Side) -> &'static str {
    match side {
        Side::Red => "side-red",
        Side::Black => "side-black",
    }
}

pub(crate) fn variant_key(variant: Variant) -> &'static str {
    match variant {
        Variant::Xiangqi => "variant-xiangqi",
        Variant::Jieqi => "variant-jieqi",
        Variant::Banqi => "variant-banqi",
    }
}

/// "alice (Red)", or just "alice" while the colour is unknown (Banqi before the first flip).
pub(crate) fn player_label(
    ctx: &Ctx<'_>,
    lang: Language,
    loaded: &LoadedGame,
    seat: Seat,
) -> String {
    let name = loaded.record.player(seat).name.clone();
    match side_of(&loaded.game, seat) {
        Some(side) => {
            let side = ctx.say_in(lang, &Sentence::new(side_key(side)));
            ctx.say_in(
                lang,
                &Sentence::new("player-with-side")
                    .arg("player", name)
                    .arg("side", side),
            )
        }
        None => name,
    }
}

/// A duration as "24 hours", "2 days", "30 minutes".
pub(crate) fn duration_text(ctx: &Ctx<'_>, lang: Language, seconds: u64) -> String {
    let (key, n) = if seconds >= 86_400 && seconds.is_multiple_of(86_400) {
        ("duration-days", seconds / 86_400)
    } else if seconds >= 3_600 && seconds.is_multiple_of(3_600) {
        ("duration-hours", seconds / 3_600)
    } else if seconds >= 60 {
        ("duration-minutes", seconds / 60)
    } else {
        ("duration-seconds", seconds)
    };
    ctx.say_in(lang, &Sentence::new(key).arg("n", n))
}

/// A moment as "2023-11-14 22:13 UTC" (players live in many time zones; UTC says so).
pub(crate) fn clock_text(at: crate::store::UnixTime) -> String {
    zoned_clock_text(at, UtcOffset::UTC)
}

/// A moment on the clocks of `zone`, which it names: "2023-11-15 06:13 UTC+8" (a chat's
/// events, in the chat's time zone, `/settings timezone`).
pub(crate) fn zoned_clock_text(at: crate::store::UnixTime, zone: UtcOffset) -> String {
    let utc = i64::try_from(at).unwrap_or(i64::MAX);
    let local = u64::try_from(utc.saturating_add(zone.seconds())).unwrap_or(0);
    let time = std::time::UNIX_EPOCH + Duration::from_secs(local);
    // "2023-11-14T22:13:20Z"
    let stamp = humantime::format_rfc3339_seconds(time).to_string();
    match (stamp.get(..10), stamp.get(11..16)) {
        (Some(day), Some(minute)) => format!("{day} {minute} {zone}"),
        _ => stamp,
    }
}

/// Time left, rounded down to a unit that reads well: "2 days", "5 hours", "12 minutes".
pub(crate) fn time_left_text(ctx: &Ctx<'_>, lang: Language, seconds: u64) -> String {
    let (key, n) = if seconds >= 2 * 86_400 {
        ("duration-days", seconds / 86_400)
    } else if seconds >= 2 * 3_600 {
        ("duration-hours", seconds / 3_600)
    } else if seconds >= 2 * 60 {
        ("duration-minutes", seconds / 60)
    } else {
        ("duration-seconds", seconds)
    };
    ctx.say_in(lang, &Sentence::new(key).arg("n", n))
}

/// The move of ply `ply` as `viewer` may read it in `notation`, with the coordinates in
/// brackets when the notation is not coordinates (so players can copy them).
pub(crate) fn move_text(game: &Game, ply: usize, notation: Notation, viewer: Viewer) -> String {
    let main = game
        .move_text(ply, notation.move_notation(), viewer)
        .unwrap_or_default();
    if game.variant() == Variant::Banqi || notation == Notation::Coordinates {
        return main;
    }
    let coordinates = game
        .move_text(ply, Notation::Coordinates.move_notation(), viewer)
        .unwrap_or_default();
    if coordinates == main || coordinates.is_empty() {
        main
    } else {
        format!("{main} ({coordinates})")
    }
}

/// The move number as players count it: `12.` for the first seat's move, `12…` for the
/// second's.
pub(crate) fn move_number(ply: usize) -> String {
    let number = ply / 2 + 1;
    if ply.is_multiple_of(2) {
        format!("{number}.")
    } else {
        format!("{number}…")
    }
}

/// The whole record, `1. C2.5 h9g7 2. …`, as `viewer` may read it.
pub(crate) fn record_text(game: &Game, notation: Notation, viewer: Viewer) -> String {
    let mut text = String::new();
    for ply in 0..game.history_len() {
        if ply.is_multiple_of(2) {
            if ply > 0 {
                text.push(' ');
            }
            text.push_str(&format!("{}. ", ply / 2 + 1));
        } else {
            text.push(' ');
        }
        let mv = game
            .move_text(ply, notation.move_notation(), viewer)
            .unwrap_or_default();
        text.push_str(&mv);
    }
    text
}

/// The stored record with reveal suffixes, `1. h2e2 b9c7c …` (only once the deal is public).
pub(crate) fn full_record_text(record: &GameRecord) -> String {
    let mut text = String::new();
    for (ply, mv) in record.moves.iter().enumerate() {
        if ply.is_multiple_of(2) {
            if ply > 0 {
                text.push(' ');
            }
            text.push_str(&format!("{}. ", ply / 2 + 1));
        } else {
            text.push(' ');
        }
        text.push_str(mv);
    }
    text
}

/// "alice (Red) wins: checkmate." / "Draw: agreed by both players." / "Aborted: …".
pub(crate) fn outcome_text(
    ctx: &Ctx<'_>,
    lang: Language,
    loaded: &LoadedGame,
    outcome: Outcome,
) -> String {
    match outcome {
        Outcome::Win { winner, reason } => {
            let reason_key = match reason {
                WinReason::Checkmate => "reason-checkmate",
                WinReason::NoLegalMove => "reason-no-legal-move",
                WinReason::Resignation => "reason-resignation",
                WinReason::Timeout => "reason-timeout",
                WinReason::PerpetualCheck => "reason-perpetual-check",
                WinReason::PerpetualChase => "reason-perpetual-chase",
            };
            let winner_label = match seat_of(&loaded.game, winner) {
                Some(seat) => player_label(ctx, lang, loaded, seat),
                None => ctx.say_in(lang, &Sentence::new(side_key(winner))),
            };
            ctx.say_in(
                lang,
                &Sentence::new("result-win")
                    .arg("winner", winner_label)
                    .arg("reason", ctx.say_in(lang, &Sentence::new(reason_key))),
            )
        }
        Outcome::Draw(reason) => {
            let reason_key = match reason {
                DrawReason::Agreement => "reason-agreement",
                DrawReason::NoProgress => "reason-no-progress",
                DrawReason::Repetition => "reason-repetition",
                DrawReason::TimeoutWithoutMatingMaterial => "reason-timeout-cannot-mate",
            };
            ctx.say_in(
                lang,
                &Sentence::new("result-draw")
                    .arg("reason", ctx.say_in(lang, &Sentence::new(reason_key))),
            )
        }
        // Called off after both moved: only a rules change does that (see `replay.rs`).
        Outcome::Aborted if crate::replay::both_have_moved(&loaded.game) => {
            ctx.say_in(lang, &Sentence::new("result-aborted-rules"))
        }
        // A live game whose side to move let its first move's 30 s (or its clock) run out.
        Outcome::Aborted => match (&loaded.record.clock, loaded.record.ending) {
            (Some(_), Some(Ending::TimedOut(seat))) => ctx.say_in(
                lang,
                &Sentence::new("result-aborted-no-first-move")
                    .arg("player", player_label(ctx, lang, loaded, seat)),
            ),
            _ => ctx.say_in(lang, &Sentence::new("result-aborted")),
        },
    }
}

/// The proof of a finished game's deal, once it is public: the deal and salt, every covered
/// piece's point and identity (so nobody has to decode the letters), and exactly how to check
/// the commitment (which bytes are hashed, and a shell command that does it).
pub(crate) fn deal_proof(ctx: &Ctx<'_>, lang: Language, record: &GameRecord) -> String {
    let mut text = ctx.say_in(
        lang,
        &Sentence::new("result-proof")
            .arg("deal", &record.deal)
            .arg("salt", &record.salt),
    );
    for line in deal_piece_lines(ctx, lang, record) {
        text.push('\n');
        text.push_str(&line);
    }
    text.push('\n');
    text.push_str(
        &ctx.say_in(
            lang,
            &Sentence::new("result-verify")
                .arg("bytes", format!("{}{}", record.deal, record.salt))
                .arg("commitment", &record.commitment),
        ),
    );
    text
}

/// A finished game's hidden pieces, one line per side ("Red: a0 Chariot, ..."), each side
/// from its own back rank forward: what the result post and the web page publish.
pub(crate) fn deal_piece_lines(ctx: &Ctx<'_>, lang: Language, record: &GameRecord) -> Vec<String> {
    let mut lines = Vec::new();
    let pieces: Vec<(String, jieqi_rules::Piece)> =
        match GameDeal::from_letters(record.variant, &record.deal) {
            Ok(GameDeal::Jieqi(deal)) => deal
                .pieces()
                .into_iter()
                .map(|(square, piece)| (square.to_string(), piece))
                .collect(),
            Ok(GameDeal::Banqi(deal)) => deal
                .pieces()
                .into_iter()
                .map(|(square, piece)| (square.to_string(), piece))
                .collect(),
            Ok(GameDeal::None) | Err(_) => Vec::new(),
        };
    for side in [Side::Red, Side::Black] {
        let mut own: Vec<&(String, jieqi_rules::Piece)> = pieces
            .iter()
            .filter(|(_, piece)| piece.side == side)
            .collect();
        // Each side from its own back rank forward, file a first ("a0", then "a9").
        own.sort_by_key(|(square, _)| {
            let (file, rank) = (square.as_bytes().first(), square.as_bytes().get(1));
            let rank = rank.copied().unwrap_or_default();
            let rank = if side == Side::Red {
                rank
            } else {
                u8::MAX - rank
            };
            (rank, file)
        });
        let listed: Vec<String> = own
            .into_iter()
            .map(|(square, piece)| {
                let role = ctx.say_in(lang, &Sentence::new(role_key(piece.role)));
                format!("{square} {role}")
            })
            .collect();
        if listed.is_empty() {
            continue;
        }
        lines.push(
            ctx.say_in(
                lang,
                &Sentence::new("result-deal-pieces")
                    .arg("side", ctx.say_in(lang, &Sentence::new(side_key(side))))
                    .arg("pieces", listed.join(", ")),
            ),
        );
    }
    lines
}

/// "Jieqi · standard rules · 24 hours per move".
pub(crate) fn game_terms(ctx: &Ctx<'_>, lang: Language, record: &GameRecord) -> String {
    ctx.say_in(
        lang,
        &Sentence::new("game-terms")
            .arg(
                "variant",
                ctx.say_in(lang, &Sentence::new(variant_key(record.variant))),
            )
            .arg("preset", preset_text(record.preset, record.secret_captures))
            .arg(
                "time",
                time_terms(
                    ctx,
                    lang,
                    record.move_time,
                    record.clock.as_ref().map(jieqi_clock::Clock::control),
                ),
            ),
    )
}

/// A game's time as its terms name it: "3+2 clock" for a live game, else "1 day per move".
pub(crate) fn time_terms(
    ctx: &Ctx<'_>,
    lang: Language,
    move_time: u64,
    control: Option<jieqi_clock::TimeControl>,
) -> String {
    match control.filter(jieqi_clock::TimeControl::is_live) {
        Some(control) => ctx.say_in(
            lang,
            &Sentence::new("time-clock").arg("control", control.to_string()),
        ),
        None => ctx.say_in(
            lang,
            &Sentence::new("time-per-move").arg("time", duration_text(ctx, lang, move_time)),
        ),
    }
}

/// The preset with the challenge's options, as typed: `standard`, `tencent secret-captures`.
pub(crate) fn preset_text(preset: jieqi_rules::game::Preset, secret_captures: bool) -> String {
    if secret_captures {
        format!(
            "{} {}",
            preset.name(),
            crate::store::records::SECRET_CAPTURES
        )
    } else {
        preset.name().to_owned()
    }
}

/// Seconds in a duration, at least one.
pub(crate) fn seconds(duration: Duration) -> u64 {
    duration.as_secs().max(1)
}

/// "Red chariot": a piece's side and role, in `lang`.
pub(crate) fn piece_name(ctx: &Ctx<'_>, lang: Language, piece: jieqi_rules::Piece) -> String {
    ctx.say_in(
        lang,
        &Sentence::new("piece-name")
            .arg(
                "side",
                ctx.say_in(lang, &Sentence::new(side_key(piece.side))),
            )
            .arg(
                "role",
                ctx.say_in(lang, &Sentence::new(role_key(piece.role))),
            ),
    )
}

/// The translation key of a piece's name.
pub(crate) fn role_key(role: jieqi_rules::Role) -> &'static str {
    use jieqi_rules::Role;
    match role {
        Role::General => "role-general",
        Role::Advisor => "role-advisor",
        Role::Elephant => "role-elephant",
        Role::Chariot => "role-chariot",
        Role::Cannon => "role-cannon",
        Role::Horse => "role-horse",
        Role::Soldier => "role-soldier",
    }
}
