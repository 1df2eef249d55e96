//! A tournament's start (issue 53): by hand (`/tournament start`) or at a time set when it
//! was created (`at 20:00`, `in 30m`). A time of day is the chat's (`/settings timezone`,
//! UTC unless set), and the event's moments are written on the chat's clocks with its offset
//! (`announce::zoned_clock_text`); the stored start is UTC seconds, as every deadline.
//!
//! Exactly once: an open event's start time is a deadline in the store's index, as a game's
//! is ([`TournamentRecord::due_at`]); the tick of whichever process sees it due starts the
//! event in one change with the record's next revision, round 1's games and its pairings
//! post. Two processes starting it at once both write the record from the same revision, so
//! one change is refused and, read again, finds the event running and does nothing.

use std::time::Duration;

use crate::context::{Ctx, Sentence, Step};
use crate::ids::TournamentId;
use crate::message::{Destination, Message, MessageKind};
use crate::settings::UtcOffset;
use crate::store::tournament::{TournamentFormat, TournamentState};
use crate::store::{TournamentRecord, UnixTime};
use crate::tournament_play::pair_next_round;

/// The latest start a player may set, from now.
pub(crate) const LATEST_START: Duration = Duration::from_secs(7 * 24 * 3600);

/// The earliest delay a player may set (`in 1m`): anything sooner is a manual start.
pub(crate) const EARLIEST_START: Duration = Duration::from_secs(60);

/// When an event starts by itself, as a player typed it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum StartTime {
    /// At the next such time of day on the chat's clocks (`at 20:00`): today there if it is
    /// still to come, else tomorrow.
    At {
        /// 0 to 23.
        hour: u8,
        /// 0 to 59.
        minute: u8,
    },
    /// After this long (`in 30m`, `in 2h`, `in 1h30m`).
    In(Duration),
}

impl StartTime {
    /// `20:00` (or `8:05`) as a time of day; `None` for anything else.
    pub(crate) fn time_of_day(word: &str) -> Option<StartTime> {
        let (h, m) = word.split_once(':')?;
        if h.is_empty() || h.len() > 2 || m.len() != 2 {
            return None;
        }
        if !(h.bytes().chain(m.bytes())).all(|b| b.is_ascii_digit()) {
            return None;
        }
        let (hour, minute): (u8, u8) = (h.parse().ok()?, m.parse().ok()?);
        (hour < 24 && minute < 60).then_some(StartTime::At { hour, minute })
    }

    /// `30m`, `2h`, `1h30m` as a delay within [`EARLIEST_START`] and [`LATEST_START`].
    pub(crate) fn delay(word: &str) -> Option<StartTime> {
        let delay = humantime::parse_duration(word).ok()?;
        (EARLIEST_START..=LATEST_START)
            .contains(&delay)
            .then_some(StartTime::In(delay))
    }

    /// The moment it names, from `now`, a time of day read on the clocks of `zone`.
    pub(crate) fn resolve(self, now: UnixTime, zone: UtcOffset) -> UnixTime {
        match self {
            StartTime::In(delay) => now + delay.as_secs(),
            StartTime::At { hour, minute } => {
                // Local seconds since 1970 in the zone (a zone west of UTC may start before
                // 1970 only for a `now` no clock reads).
                let now_local = i64::try_from(now)
                    .unwrap_or(i64::MAX)
                    .saturating_add(zone.seconds());
                let day = now_local - now_local.rem_euclid(86_400);
                let mut at = day.saturating_add(i64::from(hour) * 3600 + i64::from(minute) * 60);
                if at <= now_local {
                    at = at.saturating_add(86_400);
                }
                u64::try_from(at.saturating_sub(zone.seconds())).unwrap_or(now)
            }
        }
    }
}

/// Why the event cannot start with the players it has, if it cannot: a Swiss needs more
/// players than rounds (nobody meets the same opponent twice), a round robin two.
pub(crate) fn too_few(record: &TournamentRecord) -> Option<Sentence> {
    let n = record.players.iter().filter(|p| !p.withdrawn).count();
    match record.format {
        TournamentFormat::Swiss { rounds } if n <= usize::from(rounds) => Some(
            Sentence::new("refuse-tournament-too-few-swiss")
                .arg("rounds", u64::from(rounds))
                .arg("needed", usize::from(rounds) + 1)
                .arg("count", n),
        ),
        TournamentFormat::RoundRobin { .. } | TournamentFormat::Arena { .. } if n < 2 => {
            Some(Sentence::new("refuse-tournament-too-few").arg("count", n))
        }
        _ => None,
    }
}

/// Starts an open event: `XXC` drawn by the service's coin, round 1 paired and posted.
pub(crate) async fn start(ctx: &mut Ctx<'_>, mut record: TournamentRecord) -> Step {
    record.first_colour_first = ctx.inner.coin();
    pair_next_round(ctx, record).await
}

/// The tick found `id` due: an open event's start time (it starts, once, if it still has
/// the players it needs; otherwise its chat is told why not, and it waits for a manual
/// start) or a running arena's end (`arena_play::end_when_due`).
pub(crate) async fn start_when_due(ctx: &mut Ctx<'_>, id: TournamentId) -> Step {
    let Some(found) = ctx.inner.store.tournament(&id).await? else {
        return Ok(());
    };
    ctx.lock_chat(&found.chat).await;
    // Read again under the lock: another request may have started or cancelled it.
    let Some(mut record) = ctx.inner.store.tournament(&id).await? else {
        return Ok(());
    };
    if record.state == TournamentState::Running && record.is_arena() {
        return crate::arena_play::end_when_due(ctx, record).await;
    }
    if record.state != TournamentState::Open || record.due_at().is_none_or(|at| at > ctx.now) {
        return Ok(());
    }
    let Some(reason) = too_few(&record) else {
        return start(ctx, record).await;
    };
    // Not due again: the organiser starts it by hand or calls it off.
    record.starts_at = None;
    let lang = ctx.chat_record(&record.chat).await?.settings.language;
    let text = ctx.say_in(
        lang,
        &Sentence::new("tournament-not-started")
            .arg("id", record.id.as_str())
            .arg("reason", ctx.say_in(lang, &reason))
            .arg("organiser", &record.organiser.name),
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
    ctx.save_tournament(record);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_time_of_day_is_the_next_one_in_utc() {
        // 2023-11-14 22:13:20 UTC.
        let now = 1_700_000_000;
        let at = |h, m| StartTime::At { hour: h, minute: m }.resolve(now, UtcOffset::UTC);
        assert_eq!(at(23, 0), now - 22 * 3600 - 13 * 60 - 20 + 23 * 3600);
        assert_eq!(
            at(20, 0) - now,
            86_400 - 2 * 3600 - 13 * 60 - 20,
            "tomorrow"
        );
        assert_eq!(
            StartTime::time_of_day("20:00"),
            Some(StartTime::At {
                hour: 20,
                minute: 0
            })
        );
        assert_eq!(
            StartTime::time_of_day("8:05"),
            Some(StartTime::At { hour: 8, minute: 5 })
        );
        for bad in [
            "24:00", "20:60", "20", "20:0", "-1:00", "20:00:00", ":30", "a2:00",
        ] {
            assert_eq!(StartTime::time_of_day(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_time_of_day_is_the_next_one_on_the_chats_clocks() {
        // 2023-11-14 22:13:20 UTC: 2023-11-15 06:13:20 in China, 2023-11-14 18:43:20 at UTC-3:30.
        let now = 1_700_000_000;
        let china = UtcOffset::from_minutes(8 * 60).unwrap();
        let at = |h, m, zone| StartTime::At { hour: h, minute: m }.resolve(now, zone);
        // 20:00 in China is 12:00 UTC, and today's (the 15th's) is still to come there.
        assert_eq!(at(20, 0, china), 1_700_049_600, "2023-11-15 12:00 UTC");
        // 06:00 in China has just gone: tomorrow's, 2023-11-15 22:00 UTC.
        assert_eq!(at(6, 0, china), 1_700_085_600);
        let west = UtcOffset::from_minutes(-210).unwrap();
        // 20:00 at UTC-3:30 is 23:30 UTC the same day, still to come.
        assert_eq!(at(20, 0, west), 1_700_004_600);
        for zone in [china, west, UtcOffset::UTC] {
            for (h, m) in [(0, 0), (12, 30), (23, 59)] {
                let start = at(h, m, zone);
                assert!(start > now && start <= now + 86_400, "{h}:{m} at {zone}");
                assert_eq!(
                    crate::announce::zoned_clock_text(start, zone)[11..16],
                    format!("{h:02}:{m:02}")
                );
            }
        }
    }

    #[test]
    fn a_delay_is_a_minute_to_a_week() {
        assert_eq!(
            StartTime::delay("30m"),
            Some(StartTime::In(Duration::from_secs(1800)))
        );
        assert_eq!(
            StartTime::delay("1h30m"),
            Some(StartTime::In(Duration::from_secs(5400)))
        );
        for bad in ["0m", "30s", "8d", "soon", "-5m"] {
            assert_eq!(StartTime::delay(bad), None, "{bad}");
        }
    }
}
