//! A game rebuilt from its stored record: the moves replayed, then the part of the ending the
//! moves do not decide (resignation, agreement, time-out). A finished game ends with the
//! verdict stored with it, never one judged again: today's rules may judge its moves
//! otherwise, or refuse one of them, and it still shows what was announced. Below the game
//! logic and the pictures, which both start from a rebuilt game; in the store's layer, whose
//! records it reads and whose upgrades settle older games' verdicts with it.

use jieqi_rules::game::{RULES_REVISION, Seat as RulesSeat};
use jieqi_rules::{Game, GameDeal, Outcome, Side};

use crate::{Ending, GameRecord, Seat, StoreError, Verdict};

/// A loaded game: its record and the game rebuilt from it.
#[derive(Clone, Debug)]
pub struct LoadedGame {
    pub record: GameRecord,
    pub game: Game,
}

/// Rebuilds a game by replaying its stored moves and ending; a finished game ends with its
/// stored verdict.
pub fn rebuild(record: &GameRecord) -> Result<Game, StoreError> {
    rebuild_at(record, record.moves.len(), true)
}

/// The game after its first `plies` moves, ended (with its stored verdict) only if `ended`.
/// A game with a stored verdict is replayed as recorded and is never refused for its moves
/// (see [`Game::replay_as_recorded`]); a running one must replay under today's rules.
pub fn rebuild_at(record: &GameRecord, plies: usize, ended: bool) -> Result<Game, StoreError> {
    let corrupt = |e: jieqi_rules::GameError| {
        StoreError::Corrupt(format!("game {} cannot be rebuilt: {e}", record.id))
    };
    let moves = record.moves.get(..plies).unwrap_or(&record.moves);
    let deal = GameDeal::from_letters(record.variant, &record.deal).map_err(corrupt)?;
    if let Some(verdict) = record.verdict {
        let verdict = ended.then(|| Outcome::from(verdict));
        let (game, replayed) =
            Game::replay_as_recorded(record.rules(), deal, moves, verdict).map_err(corrupt)?;
        if replayed < moves.len() {
            tracing::debug!(
                game = record.id.as_str(),
                replayed,
                "a finished game's moves replay only in part under today's rules: shown as stored"
            );
        }
        return Ok(game);
    }
    let mut game = match Game::replay(record.rules(), deal.clone(), moves) {
        Ok(game) => game,
        Err(e) => {
            // A running game whose moves today's rules refuse cannot go on: it is shown as
            // far as it replays and called off (unrated), never as an error. Its next timer
            // ends it so (see `docs/rules.md`, "Rules revisions").
            tracing::warn!(
                game = record.id.as_str(),
                error = %e,
                "a game's moves no longer replay under today's rules: called off"
            );
            let (game, _) =
                Game::replay_as_recorded(record.rules(), deal, moves, Some(Outcome::Aborted))
                    .map_err(corrupt)?;
            return Ok(game);
        }
    };
    if ended {
        apply_ending(record, &mut game);
    }
    Ok(game)
}

/// Brings a game of an older schema to this one, once, when the store upgrades it: it is
/// played on under the current rules revision, and a finished game gets the verdict it was
/// announced with from the best evidence the record holds. Its stored ending says how a game
/// that was not ended by its moves ended (resignation, agreement, time-out); what its moves
/// decided is judged by replaying them under the rules as they stand at the migration. Where
/// the moves no longer replay and the game ended by them, nothing tells the result: it is
/// kept as aborted (unrated), and the migration says so in the log.
pub fn settle_old_game(record: &mut GameRecord) {
    record.rules_revision = RULES_REVISION;
    if record.ending.is_none() || record.verdict.is_some() {
        return;
    }
    let outcome = match rebuild_at(record, record.moves.len(), true) {
        Ok(game) => game.outcome(),
        Err(_) => None,
    };
    let outcome = outcome.or_else(|| {
        // The moves stop replaying somewhere: the part that replays, then the ending.
        let deal = GameDeal::from_letters(record.variant, &record.deal).ok()?;
        let (mut game, _) =
            Game::replay_as_recorded(record.rules(), deal, &record.moves, None).ok()?;
        game.impose_verdict(None);
        apply_ending(record, &mut game);
        game.outcome()
    });
    record.verdict = Some(Verdict::from(outcome.unwrap_or_else(|| {
        tracing::warn!(
            game = record.id.as_str(),
            "a finished game's moves no longer replay and its result is not recorded: kept as aborted"
        );
        Outcome::Aborted
    })));
}

/// Replays the part of a game's end that its moves do not decide. A game that ends before
/// both sides have moved is aborted, whatever ended it: it never really began, and one tap
/// on Resign must not hand the opponent a rated win.
pub fn apply_ending(record: &GameRecord, game: &mut Game) {
    if record.ending.is_some_and(|e| e != Ending::ByPlay) && !both_have_moved(game) {
        game.abort();
        return;
    }
    match record.ending {
        None | Some(Ending::ByPlay) => {}
        Some(Ending::DrawAgreed) => game.agree_draw(),
        Some(Ending::Resigned(seat)) => match side_of(game, seat) {
            Some(side) => game.resign(side),
            // Banqi before the first flip: no colours yet, nothing was played.
            None => game.abort(),
        },
        Some(Ending::TimedOut(seat)) => match side_of(game, seat) {
            Some(side) => game.time_out(side),
            None => game.abort(),
        },
    }
}

/// The rules crate's seat for ours.
pub fn rules_seat(seat: Seat) -> RulesSeat {
    match seat {
        Seat::First => RulesSeat::First,
        Seat::Second => RulesSeat::Second,
    }
}

/// Our seat for the rules crate's.
pub fn our_seat(seat: RulesSeat) -> Seat {
    match seat {
        RulesSeat::First => Seat::First,
        RulesSeat::Second => Seat::Second,
    }
}

/// The colour `seat` plays, once known.
pub fn side_of(game: &Game, seat: Seat) -> Option<Side> {
    game.side_of(rules_seat(seat))
}

/// The seat playing `side` (Banqi before the first flip: nobody).
pub fn seat_of(game: &Game, side: Side) -> Option<Seat> {
    [Seat::First, Seat::Second]
        .into_iter()
        .find(|&seat| side_of(game, seat) == Some(side))
}

/// True once each side has played at least one move.
pub fn both_have_moved(game: &Game) -> bool {
    game.history_len() >= 2
}
