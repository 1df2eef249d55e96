//! A live game's clock in play (`/challenge @bob 3+2`): the mover's press, a move that came
//! after its flag, the flag judged, and the clocks as a board shows them. The clock itself
//! (`jieqi-clock`) decides; this module reads it at the request's instant on the shared clock
//! (`Ctx::clock_now`) and turns its answers into the game's records and messages. A move and
//! the flag that races it are two commits of the same game revision, so the store lets
//! exactly one of them stand.

use std::time::Duration;

use jieqi_clock::{Clock, ClockError, Face, TimeControl, Timestamp};

use crate::context::{Ctx, LoadedGame, Sentence, Step};
use crate::i18n::Language;
use crate::lifecycle::{apply_ending, finish_game};
use crate::store::game_clock::{seat_of_side, side_of_seat};
use crate::store::{Ending, GameRecord, Seat};

/// Whether every process sharing the store reads games with clocks and the ratings they end
/// with (a live game is rated in its speed), so that a live game may be started: not while
/// a process of an older release still shares a PostgreSQL store (a rolling upgrade not
/// finalized yet, `jieqi_store::fleet`).
pub(crate) fn fleet_reads_clocks(ctx: &Ctx<'_>) -> bool {
    // Ratings by speed came after clocks (`since::SPEED_RATINGS` > `since::CLOCKS`).
    ctx.inner.store.fleet() >= crate::store::fleet::since::SPEED_RATINGS
}

/// A clock for a new game under `control` whose first side's time runs from now.
pub(crate) fn new_clock(ctx: &Ctx<'_>, control: TimeControl) -> Clock {
    let mut clock = Clock::new(control);
    clock.start(side_of_seat(Seat::First), ctx.clock_now);
    clock
}

/// How long a live game waits for each side's first move: Red's from the start, Black's from
/// Red's first move. A side that lets it pass has the game aborted, unrated (its ending is
/// a time-out before both sides moved, which `replay::apply_ending` turns into an abort).
pub(crate) const FIRST_MOVE_WITHIN: Duration = Duration::from_secs(30);

/// Why a move came too late to stand: the game ends instead.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TooLate {
    /// The seat's clock ran out.
    TimeUp(Seat),
    /// The seat's first move did not come within [`FIRST_MOVE_WITHIN`]: the game is aborted.
    NoFirstMove(Seat),
}

impl TooLate {
    /// The seat that was too late.
    pub(crate) fn seat(self) -> Seat {
        match self {
            TooLate::TimeUp(seat) | TooLate::NoFirstMove(seat) => seat,
        }
    }

    /// What the late mover is told.
    pub(crate) fn refusal(self) -> Sentence {
        match self {
            TooLate::TimeUp(_) => Sentence::new("refuse-time-is-up"),
            TooLate::NoFirstMove(_) => Sentence::new("refuse-first-move-too-late")
                .arg("seconds", FIRST_MOVE_WITHIN.as_secs().to_string()),
        }
    }
}

/// The instant the side to move's first move is due, while one side has not made it.
fn first_move_due(record: &GameRecord, clock: &Clock) -> Option<Timestamp> {
    if record.moves.len() >= 2 {
        return None;
    }
    Some(clock.running()?.since.plus(FIRST_MOVE_WITHIN))
}

/// The instant a live game is next judged if nobody moves: the side to move's flag, or,
/// earlier, the end of the 30 s its first move is due within. Strictly after it the game
/// ends; `None` for a game that ended or has no clock.
pub(crate) fn judgement_deadline(record: &GameRecord) -> Option<Timestamp> {
    if !record.is_active() {
        return None;
    }
    let clock = record.clock.as_ref()?;
    let flag = clock.flag_deadline()?;
    Some(first_move_due(record, clock).map_or(flag, |first| first.min(flag)))
}

/// Charges `mover`'s clock for the move it is making now (`lag`: the network delay measured
/// for it, given back within the clock's quota). `Err` if that seat's time was up before the
/// move, or its first move came too late: the caller ends the game on time instead of
/// playing it. A game on a time per move has no clock and is never refused here.
pub(crate) fn press(
    ctx: &Ctx<'_>,
    record: &mut GameRecord,
    mover: Seat,
    lag: Duration,
) -> Result<(), TooLate> {
    let Some(clock) = &record.clock else {
        return Ok(());
    };
    let runs_for_mover = clock
        .running()
        .is_some_and(|r| r.side == side_of_seat(mover));
    if runs_for_mover
        && first_move_due(record, clock).is_some_and(|due| ctx.clock_now > due)
        && clock.flagged(ctx.clock_now).is_none()
    {
        return Err(TooLate::NoFirstMove(mover));
    }
    let Some(clock) = &mut record.clock else {
        return Ok(());
    };
    match clock.press(side_of_seat(mover), ctx.clock_now, lag) {
        Ok(_) => Ok(()),
        Err(ClockError::TimeUp { side }) => Err(TooLate::TimeUp(seat_of_side(side))),
        // The clock runs for the other seat or not at all: a record the codec would have
        // refused; the move's own checks (whose turn it is) decide.
        Err(ClockError::NotRunning { .. } | ClockError::Impossible(_)) => Ok(()),
    }
}

/// The seat whose flag has fallen at the context's instant, or whose first move is overdue
/// (the game is then aborted), if any.
pub(crate) fn flagged(ctx: &Ctx<'_>, record: &GameRecord) -> Option<Seat> {
    let clock = record.clock.as_ref()?;
    if let Some(side) = clock.flagged(ctx.clock_now) {
        return Some(seat_of_side(side));
    }
    let running = clock.running()?;
    first_move_due(record, clock)
        .filter(|due| ctx.clock_now > *due)
        .map(|_| seat_of_side(running.side))
}

/// Ends the game: `seat` ran out of time (before both sides moved, that aborts it). The
/// clock stops at the context's instant.
pub(crate) async fn end_on_time(ctx: &mut Ctx<'_>, mut loaded: LoadedGame, seat: Seat) -> Step {
    loaded.record.ending = Some(Ending::TimedOut(seat));
    apply_ending(&loaded.record, &mut loaded.game);
    finish_game(ctx, loaded).await
}

/// The deadline index entry of a live game: the process's second at or after its
/// [`judgement_deadline`], so that the 5 s tick (the net under the flag timer) finds it;
/// `None` once it stops.
pub(crate) fn deadline_of(ctx: &Ctx<'_>, record: &GameRecord) -> Option<u64> {
    let deadline = judgement_deadline(record)?;
    Some(ctx.inner.shared_clock.process_second_after(deadline))
}

/// `m:ss` (or `h:mm:ss`), with tenths under ten seconds: what a clock face shows.
pub(crate) fn face_text(face: Face) -> String {
    let millis = face.left.as_millis();
    let secs = face.left.as_secs();
    let mut text = if secs < 10 && !face.byo_yomi {
        format!("0:0{}.{}", secs, (millis % 1_000) / 100)
    } else if secs >= 3_600 {
        format!("{}:{:02}:{:02}", secs / 3_600, secs % 3_600 / 60, secs % 60)
    } else {
        format!("{}:{:02}", secs / 60, secs % 60)
    };
    if face.byo_yomi {
        text.push_str(&format!(" ×{}", face.periods));
    }
    text
}

/// "⏱ alice 2:41 · bob 3:00": both clocks as of the context's instant, the side to move's
/// still running; `None` for a game without a clock.
pub(crate) fn clocks_line(ctx: &Ctx<'_>, lang: Language, loaded: &LoadedGame) -> Option<String> {
    let clock = loaded.record.clock.as_ref()?;
    let face = |seat: Seat| face_text(clock.face(side_of_seat(seat), ctx.clock_now));
    Some(
        ctx.say_in(
            lang,
            &Sentence::new("board-clocks")
                .arg("first", loaded.record.first.name.clone())
                .arg("first-time", face(Seat::First))
                .arg("second", loaded.record.second.name.clone())
                .arg("second-time", face(Seat::Second)),
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faces_show_minutes_and_tenths_under_ten_seconds() {
        let face = |ms: u64, byo: bool, periods: u8| Face {
            left: Duration::from_millis(ms),
            periods,
            byo_yomi: byo,
        };
        assert_eq!(face_text(face(161_000, false, 0)), "2:41");
        assert_eq!(face_text(face(9_450, false, 0)), "0:09.4");
        assert_eq!(face_text(face(3_723_000, false, 0)), "1:02:03");
        assert_eq!(face_text(face(25_000, true, 3)), "0:25 ×3");
    }
}
