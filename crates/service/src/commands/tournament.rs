//! `/tournament`: a tournament run in this chat (issue 53), one at a time per chat.
//!
//! - `/tournament swiss [<rounds> [rounds]] [variant] [time] [at 20:00 | in 30m]
//!   [unrated]`, `/tournament round-robin [double] [variant] [time] [...]`: creates one
//!   (chat admins, or anyone once `/settings tournaments everyone`), announced with Join and
//!   Leave buttons. Defaults: 5 rounds, Jieqi, the default time per move, a manual start,
//!   rated in the games' speed. A time of day is the chat's (`/settings timezone`,
//!   `tournament_start.rs`).
//! - `/tournament arena [<minutes>] [variant] [time] [...]`: an arena of 1 to 1440 minutes
//!   (default 60, on a 3+2 clock unless a time is named; `arena_play.rs`).
//! - `join`, `leave` (before the start; after it, `withdraw`), `start` (its organiser or an
//!   admin: pairs round 1), `standings`, `withdraw`, `bye` (a Swiss's half-point bye for the
//!   next round, once), `trf` (a Swiss as TRF-16), `cancel` (its organiser or an admin,
//!   before it is over). Without a word: where it stands.

use std::time::Duration;

use jieqi_clock::TimeControl;
use jieqi_rules::Variant;

use super::challenge::{Time, is_time, read_time};
use crate::announce::{time_terms, variant_key};
use crate::context::{Ctx, Sentence, Step, refuse};
use crate::ids::TournamentId;
use crate::message::{Button, Destination, Message, MessageKind};
use crate::request::ButtonAction;
use crate::settings::TournamentCreators;
use crate::store::TournamentRecord;
use crate::store::tournament::{
    MOST_PLAYERS, StoredBye, StoredEntry, TournamentFormat, TournamentPlayer, TournamentState,
};
use crate::tournament_play::{in_another_event, planned_rounds};
use crate::tournament_start::{LATEST_START, StartTime};

const USAGE: &str = "/tournament swiss 5 rounds 3+2 at 20:00 · arena 60 3+2 in 30m · join · leave · \
     start · standings · bye · withdraw · trf · cancel";

/// Rounds of a Swiss when none are named.
const DEFAULT_ROUNDS: u8 = 5;

/// An arena's length when none is named.
const DEFAULT_ARENA_MINUTES: u16 = 60;

/// An arena's game clock when no time is named: quick games are what an arena is for (the
/// same default as `/seek`).
const DEFAULT_ARENA_CLOCK: &str = "3+2";

/// The three formats `/tournament` creates.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Swiss,
    RoundRobin,
    Arena,
}

#[derive(Debug)]
pub(crate) enum TournamentCmd {
    Status,
    Create {
        format: TournamentFormat,
        variant: Variant,
        move_time: Option<Duration>,
        control: Option<TimeControl>,
        start: Option<StartTime>,
        rated: bool,
    },
    /// `join`, or the Join button of that event's announcement.
    Join(Option<TournamentId>),
    /// `leave`, or the Leave button of that event's announcement.
    Leave(Option<TournamentId>),
    Bye,
    Start,
    Standings,
    Withdraw,
    Trf,
    Cancel,
}

impl TournamentCmd {
    pub(crate) fn parse(args: &[&str]) -> Result<TournamentCmd, Sentence> {
        let Some((first, rest)) = args.split_first() else {
            return Ok(TournamentCmd::Status);
        };
        let word = first.to_lowercase();
        let simple = match word.as_str() {
            "join" => Some(TournamentCmd::Join(None)),
            "leave" => Some(TournamentCmd::Leave(None)),
            "bye" => Some(TournamentCmd::Bye),
            "start" => Some(TournamentCmd::Start),
            "standings" | "table" => Some(TournamentCmd::Standings),
            "withdraw" => Some(TournamentCmd::Withdraw),
            "trf" => Some(TournamentCmd::Trf),
            "cancel" => Some(TournamentCmd::Cancel),
            "status" | "info" => Some(TournamentCmd::Status),
            _ => None,
        };
        if let Some(command) = simple {
            if !rest.is_empty() {
                return Err(Sentence::new("refuse-usage").arg("usage", USAGE));
            }
            return Ok(command);
        }
        let kind = match word.as_str() {
            "swiss" => Kind::Swiss,
            "round-robin" | "roundrobin" | "rr" => Kind::RoundRobin,
            "arena" => Kind::Arena,
            _ => {
                return Err(Sentence::new("refuse-tournament-word")
                    .arg("word", super::shown(first))
                    .arg("usage", USAGE));
            }
        };
        let round_robin = kind == Kind::RoundRobin;
        let mut rounds: Option<u8> = None;
        let mut minutes: Option<u16> = None;
        let mut double = false;
        let mut variant = None;
        let (mut move_time, mut control) = (None, None);
        let (mut start, mut rated) = (None, true);
        let mut words = rest.iter();
        while let Some(arg) = words.next() {
            let word = arg.to_lowercase();
            if matches!(word.as_str(), "rounds" | "round" | "r") && kind == Kind::Swiss
                || matches!(word.as_str(), "minutes" | "minute" | "min") && kind == Kind::Arena
            {
                continue;
            } else if word == "unrated" || word == "rated" {
                rated = word == "rated";
            } else if let Some(at) = StartTime::time_of_day(&word) {
                start = Some(at);
            } else if matches!(word.as_str(), "at" | "start" | "starts" | "in") {
                // `at 20:00`, `start 20:00`, `in 30m`, `start in 30m`.
                let mut next = words.next().map(|w| w.to_lowercase()).unwrap_or_default();
                let mut delay = word == "in";
                if next == "in" || next == "at" {
                    delay = next == "in";
                    next = words.next().map(|w| w.to_lowercase()).unwrap_or_default();
                }
                let read = if delay {
                    StartTime::delay(&next)
                } else {
                    StartTime::time_of_day(&next).or_else(|| StartTime::delay(&next))
                };
                start = Some(read.ok_or_else(|| {
                    Sentence::new("refuse-tournament-start-time")
                        .arg("time", super::shown(&format!("{word} {next}")))
                        .arg("days", LATEST_START.as_secs() / 86_400)
                })?);
            } else if round_robin && word == "double" {
                double = true;
            } else if round_robin && word == "single" {
                double = false;
            } else if let Ok(v) = word.parse::<Variant>() {
                variant = Some(v);
            } else if kind == Kind::Arena
                && minutes.is_none()
                && !word.is_empty()
                && word.bytes().all(|b| b.is_ascii_digit())
            {
                let longest = crate::store::tournament::LONGEST_ARENA;
                let n: u32 = word.parse().unwrap_or(u32::MAX);
                if !(1..=u32::from(longest)).contains(&n) {
                    return Err(Sentence::new("refuse-arena-minutes")
                        .arg("minutes", super::shown(arg))
                        .arg("max", u64::from(longest)));
                }
                minutes = Some(u16::try_from(n).unwrap_or(longest));
            } else if kind == Kind::Swiss
                && rounds.is_none()
                && !word.is_empty()
                && word.bytes().all(|b| b.is_ascii_digit())
            {
                let max = crate::store::tournament::MOST_ROUNDS;
                let n: u32 = word.parse().unwrap_or(u32::MAX);
                if !(1..=u32::from(max)).contains(&n) {
                    return Err(Sentence::new("refuse-tournament-rounds")
                        .arg("rounds", super::shown(arg))
                        .arg("max", u64::from(max)));
                }
                rounds = Some(u8::try_from(n).unwrap_or(max));
            } else if is_time(&word) {
                match read_time(arg)? {
                    Time::PerMove(time) => move_time = Some(time),
                    Time::Live(clock) => control = Some(clock),
                }
            } else {
                return Err(Sentence::new("refuse-tournament-option")
                    .arg("option", super::shown(arg))
                    .arg("usage", USAGE));
            }
        }
        let format = match kind {
            Kind::RoundRobin => TournamentFormat::RoundRobin {
                cycles: if double { 2 } else { 1 },
            },
            Kind::Swiss => TournamentFormat::Swiss {
                rounds: rounds.unwrap_or(DEFAULT_ROUNDS),
            },
            Kind::Arena => {
                if move_time.is_none() && control.is_none() {
                    control = DEFAULT_ARENA_CLOCK.parse().ok();
                }
                TournamentFormat::Arena {
                    minutes: minutes.unwrap_or(DEFAULT_ARENA_MINUTES),
                }
            }
        };
        Ok(TournamentCmd::Create {
            format,
            variant: variant.unwrap_or(Variant::Jieqi),
            move_time,
            control,
            start,
            rated,
        })
    }

    pub(crate) async fn apply(&self, ctx: &mut Ctx<'_>) -> Step {
        let request = ctx.req()?;
        if request.is_private_chat {
            return refuse(Sentence::new("refuse-tournament-private"));
        }
        ctx.lock_chat(&request.chat).await;
        let current = ctx.chat_tournament(&request.chat).await?;
        if let TournamentCmd::Create {
            format,
            variant,
            move_time,
            control,
            start,
            rated,
        } = self
        {
            let settings = ctx.settings();
            if !request.is_admin && settings.tournaments == TournamentCreators::Admins {
                return refuse(Sentence::new("refuse-tournament-admins"));
            }
            if let Some(open) = current {
                return refuse(
                    Sentence::new("refuse-tournament-exists").arg("id", open.id.as_str()),
                );
            }
            if control.is_some() && !crate::live_clock::fleet_reads_clocks(ctx) {
                return refuse(Sentence::new("refuse-clock-not-yet"));
            }
            let default = ctx.inner.config.default_move_time;
            let mut record = TournamentRecord {
                id: ctx.inner.tournament_id(),
                revision: 0,
                chat: request.chat.clone(),
                organiser: request.user.clone(),
                created_at: ctx.now,
                format: *format,
                variant: *variant,
                move_time: crate::announce::seconds(move_time.unwrap_or(default)),
                control: control.map(|c| c.to_string()),
                rated: *rated,
                state: TournamentState::Open,
                players: Vec::new(),
                round: 0,
                games: Vec::new(),
                first_colour_first: true,
                starts_at: start.map(|s| s.resolve(ctx.now, settings.zone)),
                byes_asked: Vec::new(),
                arena_games: Vec::new(),
                ends_at: None,
                announcement: None,
            };
            let lang = ctx.lang();
            let text = ctx.say_in(
                lang,
                &Sentence::new("tournament-created")
                    .arg("id", record.id.as_str())
                    .arg("organiser", &record.organiser.name)
                    .arg("format", format_text(ctx, &record))
                    .arg(
                        "variant",
                        ctx.say_in(lang, &Sentence::new(variant_key(*variant))),
                    )
                    .arg("time", time_terms(ctx, lang, record.move_time, *control)),
            );
            let text = format!("{text}\n{}", when_text(ctx, lang, &record));
            let buttons = vec![
                Button {
                    label: ctx.say_in(lang, &Sentence::new("button-tournament-join")),
                    action: ButtonAction::JoinTournament(record.id.clone()),
                    deep_link_accept: false,
                },
                Button {
                    label: ctx.say_in(lang, &Sentence::new("button-tournament-leave")),
                    action: ButtonAction::LeaveTournament(record.id.clone()),
                    deep_link_accept: false,
                },
            ];
            let post = ctx
                .post(
                    Message::text(
                        Destination::Chat(request.chat.clone()),
                        MessageKind::Notice,
                        text,
                    )
                    .with_buttons(buttons),
                    None,
                )
                .await?;
            record.announcement = Some(post);
            ctx.save_tournament(record);
            return Ok(());
        }
        // Without an event going on, the chat's latest one (finished or called off) still
        // shows its standings and its TRF file.
        let latest = match current {
            Some(record) => Some(record),
            None => ctx.inner.store.chat_tournaments(&request.chat).await?.pop(),
        };
        let Some(mut record) = latest else {
            return refuse(Sentence::new("refuse-no-tournament").arg("usage", USAGE));
        };
        // A button names its event: one of an event that is over (or of another chat) acts
        // on nothing else.
        if let TournamentCmd::Join(Some(id)) | TournamentCmd::Leave(Some(id)) = self
            && *id != record.id
        {
            return refuse(Sentence::new("refuse-tournament-over").arg("id", id.as_str()));
        }
        let changes = !matches!(
            self,
            TournamentCmd::Status | TournamentCmd::Standings | TournamentCmd::Trf
        );
        if changes && record.state.is_over() {
            return refuse(Sentence::new("refuse-tournament-over").arg("id", record.id.as_str()));
        }
        let user = request.user.clone();
        let lang = ctx.lang();
        let me = record.player_index(&user.id);
        let organiser = record.organiser.id == user.id || request.is_admin;
        match self {
            TournamentCmd::Create { .. } => Ok(()),
            TournamentCmd::Status => {
                let mut text = status_text(ctx, &record);
                if record.state == TournamentState::Open {
                    text.push('\n');
                    text.push_str(&when_text(ctx, lang, &record));
                }
                ctx.reply(Message::text(
                    Destination::ReplyToRequester { ephemeral: false },
                    MessageKind::Listing,
                    text,
                ));
                Ok(())
            }
            TournamentCmd::Join(_) => {
                if me.is_some_and(|i| !record.players[i].withdrawn) {
                    return refuse(Sentence::new("refuse-tournament-joined"));
                }
                let arena = record.is_arena();
                if me.is_some() && !arena {
                    return refuse(Sentence::new("refuse-tournament-withdrawn"));
                }
                let too_late = match record.format {
                    TournamentFormat::Swiss { .. } => record.round >= planned_rounds(&record),
                    TournamentFormat::RoundRobin { .. } => true,
                    TournamentFormat::Arena { .. } => {
                        record.ends_at.is_some_and(|end| end <= ctx.now)
                    }
                };
                if record.state == TournamentState::Running && too_late {
                    return refuse(Sentence::new(if arena {
                        "refuse-arena-over"
                    } else {
                        "refuse-tournament-too-late"
                    }));
                }
                if let Some(i) = me {
                    // An arena takes back a player who left (lichess's "join" again): paired
                    // from now on, their results kept.
                    if let Some(other) = in_another_event(ctx, &user, &record.id).await? {
                        return refuse(
                            Sentence::new("refuse-tournament-elsewhere")
                                .arg("id", other.id.as_str()),
                        );
                    }
                    record.players[i].withdrawn = false;
                    let text =
                        ctx.say_in(lang, &Sentence::new("arena-back").arg("player", &user.name));
                    announce(ctx, &record, text).await?;
                    crate::arena_play::pair_waiting(ctx, &mut record).await?;
                    ctx.save_tournament(record);
                    return Ok(());
                }
                if record.players.len() >= max_players(&record) {
                    return refuse(
                        Sentence::new("refuse-tournament-full").arg("max", max_players(&record)),
                    );
                }
                if let Some(other) = in_another_event(ctx, &user, &record.id).await? {
                    return refuse(
                        Sentence::new("refuse-tournament-elsewhere").arg("id", other.id.as_str()),
                    );
                }
                let rating = ctx.player_record(&user).await?.stats(record.variant).rating;
                record.players.push(TournamentPlayer {
                    user: user.clone(),
                    rating: rating.round().clamp(0.0, f64::from(u16::MAX)) as u16,
                    // A late entry gets nothing for the rounds missed.
                    entries: vec![StoredEntry::Bye(StoredBye::Zero); usize::from(record.round)],
                    withdrawn: false,
                });
                let count = record.players.len();
                let key = if record.state != TournamentState::Running {
                    "tournament-joined"
                } else if arena {
                    "arena-joined"
                } else {
                    "tournament-joined-late"
                };
                let text = ctx.say_in(
                    lang,
                    &Sentence::new(key)
                        .arg("player", &user.name)
                        .arg("count", count)
                        .arg("round", u64::from(record.round + 1)),
                );
                announce(ctx, &record, text).await?;
                // An arena pairs a newcomer at once with whoever waits.
                crate::arena_play::pair_waiting(ctx, &mut record).await?;
                ctx.save_tournament(record);
                Ok(())
            }
            TournamentCmd::Leave(_) | TournamentCmd::Withdraw => {
                let Some(i) = me.filter(|&i| !record.players[i].withdrawn) else {
                    return refuse(Sentence::new("refuse-tournament-not-in"));
                };
                if record.state == TournamentState::Open {
                    record.players.remove(i);
                    // Indices after it move down by one; so do the byes they asked for.
                    let gone = u16::try_from(i).unwrap_or(u16::MAX);
                    record.byes_asked.retain(|&b| b != gone);
                    for b in &mut record.byes_asked {
                        if *b > gone {
                            *b -= 1;
                        }
                    }
                } else if matches!(record.format, TournamentFormat::RoundRobin { .. }) {
                    return refuse(Sentence::new("refuse-tournament-round-robin-withdraw"));
                } else {
                    record.players[i].withdrawn = true;
                }
                let text = ctx.say_in(
                    lang,
                    &Sentence::new("tournament-left").arg("player", &user.name),
                );
                announce(ctx, &record, text).await?;
                ctx.save_tournament(record);
                Ok(())
            }
            TournamentCmd::Start => {
                if !organiser {
                    return refuse(
                        Sentence::new("refuse-tournament-organiser")
                            .arg("organiser", &record.organiser.name),
                    );
                }
                if record.state != TournamentState::Open {
                    return refuse(Sentence::new("refuse-tournament-started"));
                }
                if let Some(reason) = crate::tournament_start::too_few(&record) {
                    return refuse(reason);
                }
                crate::tournament_start::start(ctx, record).await
            }
            TournamentCmd::Bye => {
                let Some(i) = me.filter(|&i| !record.players[i].withdrawn) else {
                    return refuse(Sentence::new("refuse-tournament-not-in"));
                };
                if !matches!(record.format, TournamentFormat::Swiss { .. }) {
                    return refuse(Sentence::new("refuse-tournament-bye-swiss"));
                }
                if record.had_half_bye(i) {
                    return refuse(Sentence::new("refuse-tournament-bye-twice"));
                }
                if record.round >= planned_rounds(&record) {
                    return refuse(Sentence::new("refuse-tournament-bye-late"));
                }
                record.byes_asked.push(u16::try_from(i).unwrap_or(u16::MAX));
                let text = ctx.say_in(
                    lang,
                    &Sentence::new("tournament-bye-asked")
                        .arg("player", &user.name)
                        .arg("round", u64::from(record.round + 1)),
                );
                announce(ctx, &record, text).await?;
                ctx.save_tournament(record);
                Ok(())
            }
            TournamentCmd::Standings => {
                // A finished event's final post carries the picture, and nothing changes
                // after it: the text alone points there. (A running event's picture is
                // drawn anew: results come in, and each asker's own row is highlighted.)
                let unchanged = record.state == TournamentState::Finished;
                let image = if unchanged {
                    None
                } else {
                    crate::tournament_standings::standings_image(
                        ctx,
                        &record,
                        Some(&user.id),
                        ctx.settings(),
                    )
                };
                let key = match (unchanged, record.is_arena()) {
                    (true, false) => "tournament-standings-final",
                    (false, false) => "tournament-standings-now",
                    (true, true) => "arena-standings-final",
                    // No end yet: the arena has not started.
                    (false, true) if record.ends_at.is_none() => "arena-standings-open",
                    (false, true) => "arena-standings-now",
                };
                let mut text = ctx.say_in(
                    lang,
                    &Sentence::new(key)
                        .arg("round", u64::from(record.round))
                        .arg("rounds", u64::from(planned_rounds(&record)))
                        .arg("end", end_text(ctx, &record)),
                );
                text.push('\n');
                text.push_str(&crate::tournament_standings::standings_text(&record, 3));
                ctx.reply(
                    Message::text(
                        Destination::ReplyToRequester { ephemeral: false },
                        MessageKind::Listing,
                        text,
                    )
                    .with_image(image),
                );
                Ok(())
            }
            TournamentCmd::Trf => {
                if !matches!(record.format, TournamentFormat::Swiss { .. }) {
                    return refuse(Sentence::new("refuse-tournament-trf-swiss"));
                }
                let file = crate::tournament_standings::trf_file(&record);
                let text = ctx.say_in(
                    lang,
                    &Sentence::new("tournament-trf").arg("id", record.id.as_str()),
                );
                ctx.reply(
                    Message::text(
                        Destination::ReplyToRequester { ephemeral: false },
                        MessageKind::History,
                        text,
                    )
                    .with_image(Some(file)),
                );
                Ok(())
            }
            TournamentCmd::Cancel => {
                if !organiser {
                    return refuse(
                        Sentence::new("refuse-tournament-organiser")
                            .arg("organiser", &record.organiser.name),
                    );
                }
                record.state = TournamentState::Cancelled;
                crate::tournament_play::close_announcement(ctx, &record).await?;
                let text = ctx.say_in(
                    lang,
                    &Sentence::new("tournament-cancelled")
                        .arg("id", record.id.as_str())
                        .arg("player", &user.name),
                );
                announce(ctx, &record, text).await?;
                ctx.save_tournament(record);
                Ok(())
            }
        }
    }
}

/// The most players the event takes.
fn max_players(record: &TournamentRecord) -> usize {
    match record.format {
        TournamentFormat::Swiss { .. } | TournamentFormat::Arena { .. } => MOST_PLAYERS,
        TournamentFormat::RoundRobin { .. } => jieqi_tournament::round_robin::MAX_PLAYERS,
    }
}

/// A public note in the tournament's chat.
async fn announce(ctx: &mut Ctx<'_>, record: &TournamentRecord, text: String) -> Step {
    ctx.post(
        Message::text(
            Destination::Chat(record.chat.clone()),
            MessageKind::Notice,
            text,
        ),
        None,
    )
    .await?;
    Ok(())
}

/// "Swiss, 5 rounds" or "round robin, double".
fn format_text(ctx: &Ctx<'_>, record: &TournamentRecord) -> String {
    let lang = ctx.lang();
    match record.format {
        TournamentFormat::Swiss { rounds } => ctx.say_in(
            lang,
            &Sentence::new("tournament-format-swiss").arg("rounds", u64::from(rounds)),
        ),
        TournamentFormat::RoundRobin { cycles } => ctx.say_in(
            lang,
            &Sentence::new("tournament-format-round-robin").arg("cycles", u64::from(cycles)),
        ),
        TournamentFormat::Arena { minutes } => ctx.say_in(
            lang,
            &Sentence::new("tournament-format-arena").arg("minutes", u64::from(minutes)),
        ),
    }
}

/// Where the event stands: format, game, time, state, players.
fn status_text(ctx: &Ctx<'_>, record: &TournamentRecord) -> String {
    let lang = ctx.lang();
    let control = record
        .control
        .as_deref()
        .and_then(|c| c.parse::<TimeControl>().ok());
    let state = match record.state {
        TournamentState::Open => "open",
        TournamentState::Running if record.is_arena() => "arena",
        TournamentState::Running => "running",
        TournamentState::Finished => "finished",
        TournamentState::Cancelled => "cancelled",
    };
    let players: Vec<String> = record
        .players
        .iter()
        .map(|p| {
            if p.withdrawn {
                format!("{} (–)", p.user.name)
            } else {
                p.user.name.clone()
            }
        })
        .collect();
    ctx.say_in(
        lang,
        &Sentence::new("tournament-status")
            .arg("id", record.id.as_str())
            .arg("format", format_text(ctx, record))
            .arg(
                "variant",
                ctx.say_in(lang, &Sentence::new(variant_key(record.variant))),
            )
            .arg("time", time_terms(ctx, lang, record.move_time, control))
            .arg("state", state)
            .arg("end", end_text(ctx, record))
            .arg("round", u64::from(record.round))
            .arg("rounds", u64::from(planned_rounds(record)))
            .arg("count", record.players.len())
            .arg("players", players.join(", ")),
    )
}

/// An arena's end on the chat's clocks: "2023-11-15 20:45 UTC+8".
fn end_text(ctx: &Ctx<'_>, record: &TournamentRecord) -> String {
    crate::tournament_standings::arena_end_text(record, ctx.settings().zone)
}

/// "It starts by itself at 2023-11-15 20:00 UTC+8 (in 21 hours); rated." or "... by hand
/// ..., unrated."
fn when_text(ctx: &Ctx<'_>, lang: crate::i18n::Language, record: &TournamentRecord) -> String {
    let rated = if record.rated { "rated" } else { "unrated" };
    match record.starts_at {
        Some(at) => ctx.say_in(
            lang,
            &Sentence::new("tournament-starts-at")
                .arg(
                    "at",
                    crate::announce::zoned_clock_text(at, ctx.settings().zone),
                )
                .arg(
                    "left",
                    crate::announce::time_left_text(ctx, lang, at.saturating_sub(ctx.now)),
                )
                .arg("rated", rated),
        ),
        None => ctx.say_in(
            lang,
            &Sentence::new("tournament-starts-by-hand")
                .arg("organiser", &record.organiser.name)
                .arg("rated", rated),
        ),
    }
}
