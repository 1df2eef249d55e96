//! A live game's clock in play (`/challenge @bob 3+2`): the mover's press, a move that came
//! after its flag, the flag judged, and the clocks as a board shows them. The clock itself
//! (`jieqi-clock`) decides; this module reads it at the request's instant on the shared clock
//! (`Ctx::clock_now`) and turns its answers into the game's records and messages. A move and
//! the flag that races it are two commits of the same game revision, so the store lets
//! exactly one of them stand.

use std::time::Duration;

use jieqi_clock::{Clock, ClockError, Face, TimeControl};

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

/// Charges `mover`'s clock for the move it is making now (`lag`: the network delay measured
/// for it, given back within the clock's quota). `Err(seat)` if that seat's time was up
/// before the move: the caller ends the game on time instead of playing it. A game on a time
/// per move has no clock and is never refused here.
pub(crate) fn press(
    ctx: &Ctx<'_>,
    record: &mut GameRecord,
    mover: Seat,
    lag: Duration,
) -> Result<(), Seat> {
    let Some(clock) = &mut record.clock else {
        return Ok(());
    };
    match clock.press(side_of_seat(mover), ctx.clock_now, lag) {
        Ok(_) => Ok(()),
        Err(ClockError::TimeUp { side }) => Err(seat_of_side(side)),
        // The clock runs for the other seat or not at all: a record the codec would have
        // refused; the move's own checks (whose turn it is) decide.
        Err(ClockError::NotRunning { .. } | ClockError::Impossible(_)) => Ok(()),
    }
}

/// The seat whose flag has fallen at the context's instant, if any.
pub(crate) fn flagged(ctx: &Ctx<'_>, record: &GameRecord) -> Option<Seat> {
    let clock = record.clock.as_ref()?;
    clock.flagged(ctx.clock_now).map(seat_of_side)
}

/// Ends the game: `seat` ran out of time. The clock stops at the context's instant.
pub(crate) async fn end_on_time(ctx: &mut Ctx<'_>, mut loaded: LoadedGame, seat: Seat) -> Step {
    loaded.record.ending = Some(Ending::TimedOut(seat));
    apply_ending(&loaded.record, &mut loaded.game);
    finish_game(ctx, loaded).await
}

/// The deadline index entry of a live game: the process's second at or after its flag, so
/// that the 5 s tick (the net under the flag timer) finds it; `None` once it stops.
pub(crate) fn deadline_of(ctx: &Ctx<'_>, clock: &Clock) -> Option<u64> {
    let deadline = clock.flag_deadline()?;
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
