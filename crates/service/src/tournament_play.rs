//! Tournaments in a chat (issue 53): the stored event ([`TournamentRecord`]) turned into the
//! `jieqi-tournament` crate's Swiss and back, each round paired once and its games started
//! as ordinary games, results recorded as games end, and the event finished with its
//! winners. The commands are `commands/tournament.rs`; the standings picture and the TRF
//! file `tournament_standings.rs`.
//!
//! Exactly once: a round is paired in the same change as the tournament record's next
//! revision, its games (each new, revision 1) and its pairings post. Whichever process sees
//! a round's last game end records that result and pairs the next round in the change that
//! ends the game; two games ending at once in two processes both write the tournament, so
//! one of them is refused as a conflict and recomputed from fresh reads, and then finds the
//! other's result recorded.

use jieqi_clock::TimeControl;
use jieqi_rules::game::Preset;
use jieqi_tournament::model::{ByeKind, Colour, Entry, Score};
use jieqi_tournament::swiss::{Entrant, Swiss, SwissError};

use crate::context::{Ctx, Sentence, Step};
use crate::ids::{GameId, User};
use crate::lifecycle::start_game;
use crate::message::{Destination, Message, MessageKind};
use crate::store::tournament::{
    StoredBye, StoredEntry, StoredScore, TournamentFormat, TournamentGame, TournamentState,
};
use crate::store::{ChallengeRecord, ColourChoice, GameRecord, Seat, TournamentRecord};

/// A stored entry as the tournament crate has it.
pub(crate) fn entry_of(entry: StoredEntry) -> Entry {
    match entry {
        StoredEntry::Game {
            opponent,
            first,
            score,
        } => Entry::Game {
            opponent: usize::from(opponent),
            colour: if first { Colour::White } else { Colour::Black },
            score: score.map(|s| match s {
                StoredScore::Win => Score::Win,
                StoredScore::Draw => Score::Draw,
                StoredScore::Loss => Score::Loss,
                StoredScore::ForfeitWin => Score::ForfeitWin,
                StoredScore::ForfeitLoss => Score::ForfeitLoss,
            }),
        },
        StoredEntry::Bye(bye) => Entry::Bye(match bye {
            StoredBye::PairingAllocated => ByeKind::PairingAllocated,
            StoredBye::Half => ByeKind::Half,
            StoredBye::Full => ByeKind::Full,
            StoredBye::Zero => ByeKind::Zero,
        }),
    }
}

/// An entry of the tournament crate as stored.
fn stored_of(entry: Entry) -> StoredEntry {
    match entry {
        Entry::Game {
            opponent,
            colour,
            score,
        } => StoredEntry::Game {
            opponent: u16::try_from(opponent).unwrap_or(u16::MAX),
            first: colour == Colour::White,
            score: score.map(|s| match s {
                Score::Win => StoredScore::Win,
                Score::Draw => StoredScore::Draw,
                Score::Loss => StoredScore::Loss,
                Score::ForfeitWin => StoredScore::ForfeitWin,
                Score::ForfeitLoss => StoredScore::ForfeitLoss,
            }),
        },
        Entry::Bye(bye) => StoredEntry::Bye(match bye {
            ByeKind::PairingAllocated => StoredBye::PairingAllocated,
            ByeKind::Half => StoredBye::Half,
            ByeKind::Full => StoredBye::Full,
            ByeKind::Zero => StoredBye::Zero,
        }),
    }
}

/// The event as the tournament crate's Swiss (a round robin's entries read the same way
/// for standings).
pub(crate) fn swiss_of(record: &TournamentRecord) -> Swiss {
    let first_colour = if record.first_colour_first {
        Colour::White
    } else {
        Colour::Black
    };
    let entrants = record
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| Entrant {
            name: p.user.name.clone(),
            rating: p.rating,
            entries: p.entries.iter().copied().map(entry_of).collect(),
            withdrawn: p.withdrawn,
            requested_bye: u16::try_from(i)
                .is_ok_and(|i| record.byes_asked.contains(&i))
                .then_some(ByeKind::Half),
        })
        .collect();
    Swiss::from_parts(
        record.format.rounds(record.players.len()),
        first_colour,
        entrants,
    )
}

/// Every player's entries, as the tie-breaks read them.
pub(crate) fn entries_of(record: &TournamentRecord) -> Vec<Vec<Entry>> {
    record
        .players
        .iter()
        .map(|p| p.entries.iter().copied().map(entry_of).collect())
        .collect()
}

/// Rounds the event plans.
pub(crate) fn planned_rounds(record: &TournamentRecord) -> u8 {
    record.format.rounds(record.players.len())
}

/// Whether every game of the round being played has its result.
fn round_complete(record: &TournamentRecord) -> bool {
    let r = usize::from(record.round);
    r > 0
        && record.players.iter().all(|p| {
            !matches!(
                p.entries.get(r - 1),
                Some(StoredEntry::Game { score: None, .. })
            )
        })
}

/// The board a round robin's round gives, by the Berger tables, as Swiss-style boards.
fn round_robin_boards(
    record: &TournamentRecord,
    round: u8,
) -> Result<Vec<jieqi_tournament::swiss::Board>, Sentence> {
    let TournamentFormat::RoundRobin { cycles } = record.format else {
        return Err(Sentence::new("tournament-no-pairing"));
    };
    let table = jieqi_tournament::round_robin::RoundRobin::new(record.players.len(), cycles)
        .map_err(|_| Sentence::new("tournament-no-pairing"))?;
    let games = table
        .round(usize::from(round))
        .map_err(|_| Sentence::new("tournament-no-pairing"))?;
    Ok(games
        .games
        .iter()
        .map(|&(white, black)| jieqi_tournament::swiss::Board { white, black })
        .collect())
}

/// Pairs the next round: byes recorded, each game started once as an ordinary game, the
/// pairings posted once, all in this request's change. A round that cannot be paired
/// (too few players left, no legal pairing) ends the event there, saying why.
pub(crate) async fn pair_next_round(ctx: &mut Ctx<'_>, mut record: TournamentRecord) -> Step {
    let round = record.round + 1;
    let boards = match record.format {
        TournamentFormat::Swiss { .. } => {
            let mut swiss = swiss_of(&record);
            match swiss.pair_next_round() {
                Ok(boards) => {
                    for (player, entrant) in record.players.iter_mut().zip(swiss.entrants()) {
                        player.entries = entrant.entries.iter().copied().map(stored_of).collect();
                    }
                    // The byes asked for were given (`H`) in this round.
                    record.byes_asked.clear();
                    boards
                }
                Err(e) => {
                    let why = match e {
                        SwissError::TooFewPlayers => "too-few",
                        SwissError::NoLegalPairing { .. } => "no-legal-pairing",
                        _ => "other",
                    };
                    return finish(
                        ctx,
                        record,
                        Some(Sentence::new("tournament-stopped").arg("reason", why)),
                    )
                    .await;
                }
            }
        }
        // An arena has no rounds: its start pairs everyone waiting.
        TournamentFormat::Arena { .. } => return crate::arena_play::start(ctx, record).await,
        TournamentFormat::RoundRobin { .. } => {
            let boards = round_robin_boards(&record, round)?;
            for (i, player) in record.players.iter_mut().enumerate() {
                let entry = match boards.iter().find(|b| b.white == i || b.black == i) {
                    Some(b) if b.white == i => StoredEntry::Game {
                        opponent: u16::try_from(b.black).unwrap_or(u16::MAX),
                        first: true,
                        score: None,
                    },
                    Some(b) => StoredEntry::Game {
                        opponent: u16::try_from(b.white).unwrap_or(u16::MAX),
                        first: false,
                        score: None,
                    },
                    // The round off of an odd field: nothing scored, as clubs count it.
                    None => StoredEntry::Bye(StoredBye::Zero),
                };
                player.entries.push(entry);
            }
            boards
        }
    };
    record.round = round;
    record.state = TournamentState::Running;
    for (k, board) in boards.iter().enumerate() {
        let game = start_pairing(ctx, &record, board.white, board.black).await?;
        record.games.push(TournamentGame {
            round,
            board: u16::try_from(k + 1).unwrap_or(u16::MAX),
            first: u16::try_from(board.white).unwrap_or(u16::MAX),
            second: u16::try_from(board.black).unwrap_or(u16::MAX),
            game,
        });
    }
    post_pairings(ctx, &record).await?;
    ctx.save_tournament(record);
    Ok(())
}

/// The pairings of the round just paired, once, in the tournament's chat.
async fn post_pairings(ctx: &mut Ctx<'_>, record: &TournamentRecord) -> Step {
    let lang = ctx.chat_record(&record.chat).await?.settings.language;
    let mut text = ctx.say_in(
        lang,
        &Sentence::new("tournament-pairings")
            .arg("round", u64::from(record.round))
            .arg("rounds", u64::from(planned_rounds(record))),
    );
    for game in record.round_games(record.round) {
        text.push('\n');
        text.push_str(
            &ctx.say_in(
                lang,
                &Sentence::new("tournament-board")
                    .arg("board", u64::from(game.board))
                    .arg("first", &record.players[usize::from(game.first)].user.name)
                    .arg(
                        "second",
                        &record.players[usize::from(game.second)].user.name,
                    )
                    .arg("game", game.game.as_str()),
            ),
        );
        // Each game's live page, where the chat can watch it (the chat posts no picture a
        // move of a live game).
        if let Some(url) = ctx.inner.config.game_link(&game.game) {
            text.push_str(" · ");
            text.push_str(&url);
        }
    }
    let r = usize::from(record.round) - 1;
    for player in &record.players {
        if let Some(StoredEntry::Bye(bye)) = player.entries.get(r)
            && !player.withdrawn
        {
            let key = match bye {
                StoredBye::PairingAllocated | StoredBye::Full => "tournament-bye-point",
                StoredBye::Half => "tournament-bye-half",
                StoredBye::Zero => "tournament-bye-zero",
            };
            text.push('\n');
            text.push_str(&ctx.say_in(lang, &Sentence::new(key).arg("player", &player.user.name)));
        }
    }
    if let Some(url) = ctx.inner.config.tournament_link(&record.id) {
        text.push('\n');
        text.push_str(&ctx.say_in(lang, &Sentence::new("tournament-page").arg("url", url)));
    }
    let mentions = record
        .round_games(record.round)
        .flat_map(|g| [g.first, g.second])
        .map(|i| record.players[usize::from(i)].user.id.clone())
        .collect();
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

/// The tournament `game` is played in, if any: the chat's event not over whose games
/// include it.
pub(crate) async fn tournament_of(
    ctx: &Ctx<'_>,
    game: &GameRecord,
) -> Step<Option<TournamentRecord>> {
    Ok(ctx
        .chat_tournament(&game.chat)
        .await?
        .filter(|t| t.plays(&game.id)))
}

/// A tournament game ended with `first_score` for the player who moved first: the result
/// is recorded, and if it was the round's last the next round is paired (or the event
/// finished), all in the change that ends the game.
pub(crate) async fn game_over(
    ctx: &mut Ctx<'_>,
    game: &GameRecord,
    first_score: StoredScore,
) -> Step {
    let Some(mut record) = tournament_of(ctx, game).await? else {
        return Ok(());
    };
    if record.is_arena() {
        return crate::arena_play::game_over(ctx, record, game, first_score).await;
    }
    let Some(played) = record.game(&game.id).cloned() else {
        return Ok(());
    };
    let r = usize::from(played.round) - 1;
    let (f, s) = (usize::from(played.first), usize::from(played.second));
    let recorded = |entry: Option<&StoredEntry>| {
        matches!(entry, Some(StoredEntry::Game { score: Some(_), .. }))
    };
    if recorded(record.players[f].entries.get(r)) {
        return Ok(());
    }
    if let Some(entry) = record.players[f].entries.get_mut(r) {
        *entry = StoredEntry::Game {
            opponent: played.second,
            first: true,
            score: Some(first_score),
        };
    }
    if let Some(entry) = record.players[s].entries.get_mut(r) {
        *entry = StoredEntry::Game {
            opponent: played.first,
            first: false,
            score: Some(first_score.reversed()),
        };
    }
    let absent = match first_score {
        StoredScore::ForfeitLoss => Some(f),
        StoredScore::ForfeitWin => Some(s),
        _ => None,
    };
    if let Some(absent) = absent {
        forfeited(ctx, &mut record, absent, game).await?;
    }
    if !round_complete(&record) || played.round != record.round {
        ctx.save_tournament(record);
        return Ok(());
    }
    if record.round >= planned_rounds(&record) {
        // The last round's standings are the final post's: one post, one picture.
        return finish(ctx, record, None).await;
    }
    crate::tournament_standings::post_standings(ctx, &record, None).await?;
    pair_next_round(ctx, record).await
}

/// How many forfeits withdraw a player from a Swiss (the "withdrawn after two").
pub(crate) const FORFEITS_WITHDRAW: usize = 2;

/// `absent` lost `game` by forfeit (never made a first move): the chat is told, and after
/// [`FORFEITS_WITHDRAW`] of them a Swiss takes no more pairings for them, which they are
/// told privately; an arena withdraws them at the first (lichess's rule: whoever does not
/// start a game is withdrawn; they may join again). A round robin's pairings are fixed, so
/// there the forfeits only count.
pub(crate) async fn forfeited(
    ctx: &mut Ctx<'_>,
    record: &mut TournamentRecord,
    absent: usize,
    game: &GameRecord,
) -> Step {
    let lang = ctx.chat_record(&record.chat).await?.settings.language;
    let player = record.players[absent].user.clone();
    let count = if record.is_arena() {
        let me = u16::try_from(absent).unwrap_or(u16::MAX);
        record
            .arena_games
            .iter()
            .filter(|g| {
                (g.first == me && g.score == Some(StoredScore::ForfeitLoss))
                    || (g.second == me && g.score == Some(StoredScore::ForfeitWin))
            })
            .count()
    } else {
        record.forfeits(absent)
    };
    let text = ctx.say_in(
        lang,
        &Sentence::new("tournament-forfeit")
            .arg("player", &player.name)
            .arg("game", game.id.as_str())
            .arg("count", count),
    );
    ctx.post(
        Message::text(
            Destination::Chat(record.chat.clone()),
            MessageKind::Notice,
            text,
        ),
        None,
    )
    .await?;
    let withdraws = match record.format {
        TournamentFormat::Swiss { .. } => count >= FORFEITS_WITHDRAW,
        TournamentFormat::Arena { .. } => true,
        TournamentFormat::RoundRobin { .. } => false,
    };
    if withdraws && !record.players[absent].withdrawn {
        record.players[absent].withdrawn = true;
        let private = Ctx::lang_of(&player, lang);
        let notice = if record.is_arena() {
            Sentence::new("arena-withdrawn-absent")
                .arg("id", record.id.as_str())
                .arg("game", game.id.as_str())
        } else {
            Sentence::new("tournament-withdrawn-absent")
                .arg("id", record.id.as_str())
                .arg("count", count)
        };
        let text = ctx.say_in(private, &notice);
        ctx.post(
            Message::text(
                Destination::Private(player.id.clone()),
                MessageKind::Notice,
                text,
            ),
            None,
        )
        .await?;
    }
    Ok(())
}

/// The seat that forfeits a game ended before both sides moved (timed out, or resigned,
/// without a first move), if it did.
pub(crate) fn forfeiting_seat(
    loaded: &crate::context::LoadedGame,
    outcome: jieqi_rules::Outcome,
) -> Option<Seat> {
    if !matches!(outcome, jieqi_rules::Outcome::Aborted)
        || crate::replay::both_have_moved(&loaded.game)
    {
        return None;
    }
    match loaded.record.ending {
        Some(crate::store::Ending::TimedOut(seat) | crate::store::Ending::Resigned(seat)) => {
            Some(seat)
        }
        _ => None,
    }
}

/// The score of the player who moved first in a finished game: by its result, and for a
/// game that ended before both had moved (aborted), a forfeit against whoever did not play
/// (timed out or resigned without moving).
pub(crate) fn first_score(record: &GameRecord, winner: Option<Option<Seat>>) -> StoredScore {
    match winner {
        Some(Some(Seat::First)) => StoredScore::Win,
        Some(Some(Seat::Second)) => StoredScore::Loss,
        Some(None) => StoredScore::Draw,
        None => match record.ending {
            Some(crate::store::Ending::TimedOut(Seat::Second))
            | Some(crate::store::Ending::Resigned(Seat::Second)) => StoredScore::ForfeitWin,
            Some(crate::store::Ending::DrawAgreed) => StoredScore::Draw,
            _ => StoredScore::ForfeitLoss,
        },
    }
}

/// Starts the game of a pairing: an ordinary game, as if `white` had challenged `black` to
/// play red, so the same board posts, private notices, reveals, review and PGN as any game,
/// on the event's variant and time.
pub(crate) async fn start_pairing(
    ctx: &mut Ctx<'_>,
    record: &TournamentRecord,
    white: usize,
    black: usize,
) -> Step<GameId> {
    let second = record.players[black].user.clone();
    let terms = ChallengeRecord {
        id: ctx.inner.challenge_id(),
        revision: 0,
        chat: record.chat.clone(),
        challenger: record.players[white].user.clone(),
        challenged: Some(second.clone()),
        variant: record.variant,
        preset: Preset::Standard,
        colour: ColourChoice::Red,
        move_time: record.move_time,
        created_at: ctx.now,
        expires_at: ctx.now,
        post: None,
        text: String::new(),
        secret_captures: false,
        control: record
            .control
            .as_deref()
            .and_then(|c| c.parse::<TimeControl>().ok()),
    };
    start_game(ctx, &terms, &second, None).await
}

/// Edits the Join and Leave buttons off the announcement of an event now over (a press
/// would only be refused); its text stays as delivered. An event stored without its
/// announcement's post (before tournament version 4) keeps them.
pub(crate) async fn close_announcement(ctx: &mut Ctx<'_>, record: &TournamentRecord) -> Step {
    let Some(post) = record.announcement else {
        return Ok(());
    };
    // An edit of only the buttons waits for a fleet that reads it.
    if !crate::board_buttons::button_edits_allowed(ctx) {
        return Ok(());
    }
    let edit = Message::text(
        Destination::Chat(record.chat.clone()),
        MessageKind::Notice,
        String::new(),
    )
    .replacing(Some(post));
    ctx.post(edit, None).await?;
    Ok(())
}

/// Ends the event: the final standings with the winners named (and why it stopped early,
/// if it did).
pub(crate) async fn finish(
    ctx: &mut Ctx<'_>,
    mut record: TournamentRecord,
    early: Option<Sentence>,
) -> Step {
    record.state = TournamentState::Finished;
    close_announcement(ctx, &record).await?;
    let settings = ctx.chat_record(&record.chat).await?.settings;
    let lang = settings.language;
    let (rows, _) = crate::tournament_standings::rows(&record, None);
    // An arena in which no game ended in time has everyone level on nothing: nobody won it.
    let nothing_counted = record.is_arena() && record.arena_games.iter().all(|g| g.score.is_none());
    let winners: Vec<String> = rows
        .iter()
        .filter(|row| row.rank == 1 && !nothing_counted)
        .map(|row| row.name.clone())
        .collect();
    let mut text = String::new();
    let stopped_early = early.is_some();
    if let Some(early) = early {
        text.push_str(&ctx.say_in(lang, &early));
        text.push('\n');
    }
    text.push_str(
        &ctx.say_in(
            lang,
            &Sentence::new("tournament-finished")
                .arg("winners", winners.join(", "))
                .arg("count", winners.len()),
        ),
    );
    // After the last round (not after a stop, whose round's standings were just posted) the
    // final post is also that round's standings, rather than a second post with the same
    // picture.
    if !stopped_early && !record.is_arena() {
        text.push('\n');
        text.push_str(&crate::tournament_standings::standings_after_text(
            ctx, &record, lang,
        ));
    }
    let image = crate::tournament_standings::standings_image(ctx, &record, None, settings);
    ctx.post(
        Message::text(
            Destination::Chat(record.chat.clone()),
            MessageKind::Notice,
            text,
        )
        .with_image(image),
        None,
    )
    .await?;
    ctx.save_tournament(record);
    Ok(())
}

/// The tie-break order of the event's format.
pub(crate) fn standings_order(
    record: &TournamentRecord,
) -> &'static [jieqi_tournament::tiebreak::Tiebreak] {
    match record.format {
        TournamentFormat::Swiss { .. } => &jieqi_tournament::tiebreak::SWISS,
        TournamentFormat::RoundRobin { .. } => &jieqi_tournament::tiebreak::ROUND_ROBIN,
        // Points, then wins, then fewer games (`arena_play`'s own columns).
        TournamentFormat::Arena { .. } => &[],
    }
}

/// Whether `user` plays in an event not over other than `except` (a player takes part in
/// one tournament at a time, so never plays two tournament games at once).
pub(crate) async fn in_another_event(
    ctx: &Ctx<'_>,
    user: &User,
    except: &crate::ids::TournamentId,
) -> Step<Option<TournamentRecord>> {
    Ok(ctx
        .inner
        .store
        .unfinished_tournaments()
        .await?
        .into_iter()
        .find(|t| {
            t.id != *except
                && t.player_index(&user.id)
                    .is_some_and(|i| !t.players[i].withdrawn)
        }))
}
