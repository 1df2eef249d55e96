//! A game rebuilt from its stored record: the moves replayed, then the part of the ending the
//! moves do not decide (resignation, agreement, time-out). Below the game logic and the
//! pictures, which both start from a rebuilt game; above the store, whose records it reads.

use jieqi_rules::game::Seat as RulesSeat;
use jieqi_rules::{Game, GameDeal, Rules, Side};

use crate::store::{Ending, GameRecord, Seat, StoreError};

/// A loaded game: its record and the game rebuilt from it.
#[derive(Clone, Debug)]
pub(crate) struct LoadedGame {
    pub record: GameRecord,
    pub game: Game,
}

/// Rebuilds a game by replaying its stored moves and ending.
pub(crate) fn rebuild(record: &GameRecord) -> Result<Game, StoreError> {
    let rules = Rules::new(record.variant, record.preset);
    let corrupt = |e: jieqi_rules::GameError| {
        StoreError::Corrupt(format!("game {} cannot be rebuilt: {e}", record.id))
    };
    let deal = GameDeal::from_letters(record.variant, &record.deal).map_err(corrupt)?;
    let mut game = Game::replay(rules, deal, &record.moves).map_err(corrupt)?;
    apply_ending(record, &mut game);
    Ok(game)
}

/// Replays the part of a game's end that its moves do not decide. A game that ends before
/// both sides have moved is aborted, whatever ended it: it never really began, and one tap
/// on Resign must not hand the opponent a rated win.
pub(crate) fn apply_ending(record: &GameRecord, game: &mut Game) {
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
pub(crate) fn rules_seat(seat: Seat) -> RulesSeat {
    match seat {
        Seat::First => RulesSeat::First,
        Seat::Second => RulesSeat::Second,
    }
}

/// Our seat for the rules crate's.
pub(crate) fn our_seat(seat: RulesSeat) -> Seat {
    match seat {
        RulesSeat::First => Seat::First,
        RulesSeat::Second => Seat::Second,
    }
}

/// The colour `seat` plays, once known.
pub(crate) fn side_of(game: &Game, seat: Seat) -> Option<Side> {
    game.side_of(rules_seat(seat))
}

/// The seat playing `side` (Banqi before the first flip: nobody).
pub(crate) fn seat_of(game: &Game, side: Side) -> Option<Seat> {
    [Seat::First, Seat::Second]
        .into_iter()
        .find(|&seat| side_of(game, seat) == Some(side))
}

/// True once each side has played at least one move.
pub(crate) fn both_have_moved(game: &Game) -> bool {
    game.history_len() >= 2
}
