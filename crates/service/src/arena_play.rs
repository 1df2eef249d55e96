//! An arena in a chat (issue 53, lichess's arena): for a fixed time, each player is paired
//! again as soon as their game ends, never with their last opponent while someone else
//! waits; 2 points a win, 1 a draw, doubled on a streak of two wins; no new pairings in the
//! last stretch; the leader at the end wins. The rules are `jieqi_tournament::arena`; this
//! module turns the stored event ([`TournamentRecord::arena_games`]) into that crate's
//! [`Arena`] and back, starts each pairing as an ordinary game and ends the arena on time.
//!
//! Exactly once: a pairing is made in the change that frees its players (the start, a
//! game's end, a join), together with the record's next revision and the new games, so two
//! processes ending two games at once both write the record from one revision: one change
//! stands, the other is refused as a conflict and recomputed from fresh reads, finding the
//! first's pairings made. The end is a deadline in the store's index
//! ([`TournamentRecord::due_at`]), ended by whichever process ticks first, the same way.
//!
//! Games still running at the end are played out as ordinary games but do not count, as on
//! lichess ("only games that end before time is up count"): the standings are frozen at the
//! end.

use jieqi_clock::TimeControl;
use jieqi_tournament::arena::{Arena, ArenaOutcome, PlayedGame};

use crate::context::{Ctx, Sentence, Step};
use crate::message::{Destination, Message, MessageKind};
use crate::store::tournament::{ArenaGame, StoredScore, TournamentFormat, TournamentState};
use crate::store::{GameRecord, TournamentRecord, UnixTime};

/// The arena's length in minutes (0 for another format).
fn minutes(record: &TournamentRecord) -> u32 {
    match record.format {
        TournamentFormat::Arena { minutes } => u32::from(minutes),
        _ => 0,
    }
}

/// How long before the end no game is paired any more: lichess's rule, half the game's
/// initial time but 30 seconds to 2 minutes (a time per move counts as the initial time),
/// and never more than half the arena.
pub(crate) fn stop_before_end(record: &TournamentRecord) -> u32 {
    let control = record
        .control
        .as_deref()
        .and_then(|c| c.parse::<TimeControl>().ok());
    let initial = match control.map(|c| c.form()) {
        Some(jieqi_clock::Form::Increment { initial, .. }) => initial.as_secs(),
        Some(jieqi_clock::Form::ByoYomi { main, .. }) => main.as_secs(),
        Some(jieqi_clock::Form::PerMove { .. }) | None => record.move_time,
    };
    let stop = (initial / 2).clamp(30, 120);
    u32::try_from(stop).unwrap_or(120).min(minutes(record) * 30)
}

/// The arena's start: its end less its length.
fn started_at(record: &TournamentRecord) -> UnixTime {
    record
        .ends_at
        .unwrap_or(0)
        .saturating_sub(u64::from(minutes(record)) * 60)
}

/// A stored score as the arena counts it: a forfeit is a win for the side that was there
/// and a loss (nothing) for the absent one.
fn outcome_of(score: StoredScore) -> ArenaOutcome {
    match score {
        StoredScore::Win | StoredScore::ForfeitWin => ArenaOutcome::Win,
        StoredScore::Draw => ArenaOutcome::Draw,
        StoredScore::Loss | StoredScore::ForfeitLoss => ArenaOutcome::Loss,
    }
}

/// The stored arena as the tournament crate's [`Arena`]; `None` if it cannot be (the
/// codec refuses such a record, so only a bug gets here).
pub(crate) fn arena_of(record: &TournamentRecord) -> Option<Arena> {
    let games: Vec<PlayedGame> = record
        .arena_games
        .iter()
        .map(|g| PlayedGame {
            white: usize::from(g.first),
            black: usize::from(g.second),
            white_outcome: g.score.map(outcome_of),
        })
        .collect();
    let left: Vec<usize> = (0..record.players.len())
        .filter(|&i| record.players[i].withdrawn)
        .collect();
    match Arena::replay(
        minutes(record),
        stop_before_end(record),
        record.players.len(),
        &left,
        &games,
    ) {
        Ok(arena) => Some(arena),
        Err(error) => {
            tracing::error!(%error, tournament = %record.id, "an arena that cannot be");
            None
        }
    }
}

/// Starts an open arena: its end set, everyone waiting paired.
pub(crate) async fn start(ctx: &mut Ctx<'_>, mut record: TournamentRecord) -> Step {
    record.state = TournamentState::Running;
    record.ends_at = Some(ctx.now + u64::from(minutes(&record)) * 60);
    let settings = ctx.chat_record(&record.chat).await?.settings;
    let lang = settings.language;
    let text = ctx.say_in(
        lang,
        &Sentence::new("arena-started")
            .arg("id", record.id.as_str())
            .arg("minutes", u64::from(minutes(&record)))
            .arg(
                "end",
                crate::tournament_standings::arena_end_text(&record, settings.zone),
            ),
    );
    post(ctx, &record, text, Vec::new()).await?;
    pair_waiting(ctx, &mut record).await?;
    ctx.save_tournament(record);
    Ok(())
}

/// Pairs the players waiting now (not playing, not left), if pairing is still open: each
/// game started as an ordinary game and the new pairings posted, in this change. The
/// caller saves the record.
pub(crate) async fn pair_waiting(ctx: &mut Ctx<'_>, record: &mut TournamentRecord) -> Step {
    if !record.is_arena() || record.state != TournamentState::Running {
        return Ok(());
    }
    let Some(mut arena) = arena_of(record) else {
        return Ok(());
    };
    let elapsed = ctx.now.saturating_sub(started_at(record));
    let now = u32::try_from(elapsed).unwrap_or(u32::MAX);
    let pairs = arena.pair_waiting(now);
    if pairs.is_empty() {
        return Ok(());
    }
    let first_new = record.arena_games.len();
    for (white, black) in pairs {
        let game = crate::tournament_play::start_pairing(ctx, record, white, black).await?;
        record.arena_games.push(ArenaGame {
            first: u16::try_from(white).unwrap_or(u16::MAX),
            second: u16::try_from(black).unwrap_or(u16::MAX),
            game,
            paired_at: ctx.now,
            score: None,
        });
    }
    post_pairings(ctx, record, first_new).await
}

/// The pairings just made (the arena's games from `from` on), once, in the chat.
async fn post_pairings(ctx: &mut Ctx<'_>, record: &TournamentRecord, from: usize) -> Step {
    let lang = ctx.chat_record(&record.chat).await?.settings.language;
    let Some(arena) = arena_of(record) else {
        return Ok(());
    };
    let mut text = ctx.say_in(
        lang,
        &Sentence::new("arena-pairings").arg("id", record.id.as_str()),
    );
    let new = record.arena_games.get(from..).unwrap_or_default();
    for game in new {
        let name = |i: u16| {
            let i = usize::from(i);
            let fire = if arena.on_fire(i) { " 🔥" } else { "" };
            format!("{}{fire}", record.players[i].user.name)
        };
        text.push('\n');
        text.push_str(
            &ctx.say_in(
                lang,
                &Sentence::new("arena-game")
                    .arg("first", name(game.first))
                    .arg("second", name(game.second))
                    .arg("game", game.game.as_str()),
            ),
        );
        if let Some(url) = ctx.inner.config.game_link(&game.game) {
            text.push_str(" · ");
            text.push_str(&url);
        }
    }
    if let Some(url) = ctx.inner.config.tournament_link(&record.id) {
        text.push('\n');
        text.push_str(&ctx.say_in(lang, &Sentence::new("tournament-page").arg("url", url)));
    }
    let mentions = new
        .iter()
        .flat_map(|g| [g.first, g.second])
        .map(|i| record.players[usize::from(i)].user.id.clone())
        .collect();
    post(ctx, record, text, mentions).await
}

/// A public note in the arena's chat, mentioning `mentions`.
async fn post(
    ctx: &mut Ctx<'_>,
    record: &TournamentRecord,
    text: String,
    mentions: Vec<crate::ids::UserId>,
) -> Step {
    ctx.post(
        Message::text(
            Destination::Chat(record.chat.clone()),
            MessageKind::Notice,
            text,
        )
        .with_mentions(mentions),
        None,
    )
    .await?;
    Ok(())
}

/// An arena game ended with `first_score` for the player who moved first: scored, and its
/// two players (now free) paired with whoever else waits, in the change that ends the
/// game. A forfeit's absent player is withdrawn at once (lichess withdraws a player who
/// does not start their game), told privately, and may join again.
pub(crate) async fn game_over(
    ctx: &mut Ctx<'_>,
    mut record: TournamentRecord,
    game: &GameRecord,
    first_score: StoredScore,
) -> Step {
    let Some(index) = record.arena_games.iter().position(|g| g.game == game.id) else {
        return Ok(());
    };
    let played = record.arena_games[index].clone();
    // A game that ends after the arena's end does not count (the tick may not have
    // finished the arena yet): the standings were frozen then.
    if played.score.is_some() || record.ends_at.is_some_and(|end| ctx.now >= end) {
        return Ok(());
    }
    record.arena_games[index].score = Some(first_score);
    let absent = match first_score {
        StoredScore::ForfeitLoss => Some(usize::from(played.first)),
        StoredScore::ForfeitWin => Some(usize::from(played.second)),
        _ => None,
    };
    if let Some(absent) = absent {
        crate::tournament_play::forfeited(ctx, &mut record, absent, game).await?;
    }
    pair_waiting(ctx, &mut record).await?;
    ctx.save_tournament(record);
    Ok(())
}

/// The tick found a running arena's end due: it finishes, once (the other processes'
/// changes are refused as conflicts and, read again, find it finished), with the final
/// standings; games still running are played out but do not count.
pub(crate) async fn end_when_due(ctx: &mut Ctx<'_>, record: TournamentRecord) -> Step {
    if record.state != TournamentState::Running || record.ends_at.is_none_or(|at| at > ctx.now) {
        return Ok(());
    }
    let running = record
        .arena_games
        .iter()
        .filter(|g| g.score.is_none())
        .count();
    let early = (running > 0).then(|| Sentence::new("arena-ended-playing").arg("count", running));
    crate::tournament_play::finish(ctx, record, early).await
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::ids::{ChatId, Platform, User, UserId};
    use crate::store::tournament::TournamentPlayer;

    /// An arena started at 1000 in which ann (first) beat bob and now plays cy.
    fn arena(minutes: u16, control: Option<&str>, move_time: u64) -> TournamentRecord {
        let player = |n: &str| TournamentPlayer {
            user: User::new(UserId::new(Platform::Telegram, n), n),
            rating: 1500,
            entries: Vec::new(),
            withdrawn: false,
        };
        let game = |first, second, game: &str, score| ArenaGame {
            first,
            second,
            game: game.parse().expect("a game id"),
            paired_at: 1_000,
            score,
        };
        TournamentRecord {
            id: "t4f7k2".parse().expect("an id"),
            revision: 1,
            chat: ChatId::new(Platform::Telegram, "room"),
            organiser: player("ann").user,
            created_at: 900,
            format: TournamentFormat::Arena { minutes },
            variant: jieqi_rules::Variant::Jieqi,
            move_time,
            control: control.map(str::to_owned),
            rated: true,
            state: TournamentState::Running,
            players: vec![player("ann"), player("bob"), player("cy")],
            round: 0,
            games: Vec::new(),
            first_colour_first: true,
            starts_at: None,
            byes_asked: Vec::new(),
            arena_games: vec![
                game(0, 1, "g7k2", Some(StoredScore::Win)),
                game(2, 0, "h3m4", None),
            ],
            ends_at: Some(1_000 + u64::from(minutes) * 60),
            announcement: None,
        }
    }

    #[test]
    fn pairing_stops_half_a_games_initial_time_before_the_end_within_lichesss_bounds() {
        assert_eq!(stop_before_end(&arena(60, Some("3+2"), 0)), 90);
        assert_eq!(stop_before_end(&arena(60, Some("1+0"), 0)), 30);
        assert_eq!(stop_before_end(&arena(60, Some("10+5"), 0)), 120);
        assert_eq!(stop_before_end(&arena(600, None, 86_400)), 120);
        // A one-minute arena still pairs for its first half.
        assert_eq!(stop_before_end(&arena(1, Some("10+5"), 0)), 30);
    }

    #[test]
    fn a_forfeit_counts_as_a_win_for_the_side_that_was_there() {
        assert_eq!(outcome_of(StoredScore::ForfeitWin), ArenaOutcome::Win);
        assert_eq!(outcome_of(StoredScore::ForfeitLoss), ArenaOutcome::Loss);
        let record = arena(10, Some("3+2"), 0);
        let arena = arena_of(&record).expect("an arena");
        assert_eq!(arena.players()[0].points, 2);
        assert!(arena.players()[0].playing);
        assert_eq!(started_at(&record), 1_000);
    }
}
