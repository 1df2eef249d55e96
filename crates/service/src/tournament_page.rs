//! A tournament's public web page (`/t/<id>`, issue 53): where it stands, its standings with
//! the format's tie-breaks, and every round's pairings with each game's result and the link
//! to its live page. Read-only, built from the stored event as the chat's standings are
//! (`tournament_standings::rows`), so the page and the picture never disagree.
//!
//! Nothing here can depend on a hidden piece: an event stores results, never positions.

use serde::Serialize;

use crate::announce::{time_terms, variant_key};
use crate::context::{Ctx, Sentence};
use crate::error::ServiceError;
use crate::i18n::Language;
use crate::ids::TournamentId;
use crate::service::Service;
use crate::settings::{ChatSettings, UtcOffset};
use crate::store::TournamentRecord;
use crate::store::tournament::{StoredBye, StoredEntry, StoredScore, TournamentState};
use crate::tournament_play::planned_rounds;
use crate::tournament_standings::{headings, rows};

/// A tournament as its web page shows it, in one language.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TournamentPage {
    /// Its id (`t4f7k2`).
    pub tournament: String,
    /// The stored revision it was built from: the page reloads when it changes.
    pub revision: u64,
    /// The language of the texts (`en`, `zh`, `vi`).
    pub language: &'static str,
    /// "Tournament t4f7k2".
    pub title: String,
    /// "Swiss, 5 rounds, Xiangqi, 3+2 clock. Round 2 of 5."
    pub summary: String,
    /// Finished or called off: nothing on the page changes any more.
    pub over: bool,
    /// The tie-breaks' column headings, in the order they decide (`BH-1`, `BH`, ...).
    pub tiebreaks: Vec<&'static str>,
    /// Best first.
    pub standings: Vec<StandingRow>,
    /// Every round paired so far, the newest first.
    pub rounds: Vec<RoundPairings>,
}

/// One row of the standings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StandingRow {
    /// Shared by players equal on everything.
    pub rank: u32,
    /// As they joined.
    pub name: String,
    /// `3.5`.
    pub points: String,
    /// One value a tie-break, in [`TournamentPage::tiebreaks`]' order.
    pub tiebreaks: Vec<String>,
    /// On an arena's streak: the next game counts double.
    pub streak: bool,
}

/// One round's games and byes (an arena's games: one list, round 0).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RoundPairings {
    /// 1-based; 0 for an arena's games, which have no rounds.
    pub round: u8,
    /// By board.
    pub games: Vec<PairedGame>,
    /// "bob has the bye (1 point).", one a player without a game who is still in.
    pub byes: Vec<String>,
}

/// One game of a round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PairedGame {
    /// The board number as the pairings were posted (an arena's: the game's number in
    /// pairing order).
    pub board: u16,
    /// Who moves first (red).
    pub first: String,
    /// The other player.
    pub second: String,
    /// The game's id: its page is `/g/<game>`.
    pub game: String,
    /// `1–0`, `½–½`, `0–1`, or `+–−` / `−–+` for a forfeit; `None` while it is played.
    pub result: Option<&'static str>,
}

/// The result of a game as the first player's score writes it.
fn result_text(score: StoredScore) -> &'static str {
    match score {
        StoredScore::Win => "1–0",
        StoredScore::Draw => "½–½",
        StoredScore::Loss => "0–1",
        StoredScore::ForfeitWin => "+–−",
        StoredScore::ForfeitLoss => "−–+",
    }
}

/// The page of `record` in `language`, an arena's end on the clocks of `zone` (its chat's).
fn build(
    ctx: &Ctx<'_>,
    record: &TournamentRecord,
    language: Language,
    zone: UtcOffset,
) -> TournamentPage {
    let say = |sentence: &Sentence| ctx.say_in(language, sentence);
    let format = match record.format {
        crate::store::tournament::TournamentFormat::Swiss { rounds } => {
            say(&Sentence::new("tournament-format-swiss").arg("rounds", u64::from(rounds)))
        }
        crate::store::tournament::TournamentFormat::RoundRobin { cycles } => {
            say(&Sentence::new("tournament-format-round-robin").arg("cycles", u64::from(cycles)))
        }
        crate::store::tournament::TournamentFormat::Arena { minutes } => {
            say(&Sentence::new("tournament-format-arena").arg("minutes", u64::from(minutes)))
        }
    };
    let control = record
        .control
        .as_deref()
        .and_then(|c| c.parse::<jieqi_clock::TimeControl>().ok());
    let state = match record.state {
        TournamentState::Open => "open",
        TournamentState::Running if record.is_arena() => "arena",
        TournamentState::Running => "running",
        TournamentState::Finished => "finished",
        TournamentState::Cancelled => "cancelled",
    };
    let summary = say(&Sentence::new("web-tournament-summary")
        .arg("format", format)
        .arg("variant", say(&Sentence::new(variant_key(record.variant))))
        .arg("time", time_terms(ctx, language, record.move_time, control))
        .arg("state", state)
        .arg(
            "end",
            crate::tournament_standings::arena_end_text(record, zone),
        )
        .arg("round", u64::from(record.round))
        .arg("rounds", u64::from(planned_rounds(record)))
        .arg("count", record.players.len()));
    let (table, _) = rows(record, None);
    let standings = table
        .into_iter()
        .map(|row| StandingRow {
            rank: row.rank,
            name: row.name,
            points: row.points,
            tiebreaks: row.tiebreaks,
            streak: row.streak,
        })
        .collect();
    let name_of = |index: u16| {
        record
            .players
            .get(usize::from(index))
            .map_or_else(String::new, |p| p.user.name.clone())
    };
    let mut rounds: Vec<RoundPairings> = Vec::new();
    if record.is_arena() && !record.arena_games.is_empty() {
        // Every pairing as it was made, the newest first.
        let games = record
            .arena_games
            .iter()
            .enumerate()
            .rev()
            .map(|(k, game)| PairedGame {
                board: u16::try_from(k + 1).unwrap_or(u16::MAX),
                first: name_of(game.first),
                second: name_of(game.second),
                game: game.game.to_string(),
                result: game.score.map(result_text),
            })
            .collect();
        rounds.push(RoundPairings {
            round: 0,
            games,
            byes: Vec::new(),
        });
    }
    let rounds = (1..=record.round)
        .rev()
        .map(|round| {
            let r = usize::from(round) - 1;
            let games = record
                .round_games(round)
                .map(|game| PairedGame {
                    board: game.board,
                    first: name_of(game.first),
                    second: name_of(game.second),
                    game: game.game.to_string(),
                    result: record
                        .players
                        .get(usize::from(game.first))
                        .and_then(|p| p.entries.get(r))
                        .and_then(|entry| match entry {
                            StoredEntry::Game { score, .. } => score.map(result_text),
                            StoredEntry::Bye(_) => None,
                        }),
                })
                .collect();
            let byes = record
                .players
                .iter()
                .filter_map(|player| match player.entries.get(r) {
                    Some(StoredEntry::Bye(bye)) if !player.withdrawn => {
                        let key = match bye {
                            StoredBye::PairingAllocated | StoredBye::Full => "tournament-bye-point",
                            StoredBye::Half => "tournament-bye-half",
                            StoredBye::Zero => "tournament-bye-zero",
                        };
                        Some(say(&Sentence::new(key).arg("player", &player.user.name)))
                    }
                    _ => None,
                })
                .collect();
            RoundPairings { round, games, byes }
        })
        .chain(rounds)
        .collect();
    TournamentPage {
        tournament: record.id.to_string(),
        revision: record.revision,
        language: language.code(),
        title: say(&Sentence::new("web-tournament-title").arg("id", record.id.as_str())),
        summary,
        over: record.state.is_over(),
        tiebreaks: headings(record),
        standings,
        rounds,
    }
}

impl Service {
    /// The public page of tournament `id` in `language` (the chat's language if `None`);
    /// `None` if there is no such tournament.
    pub async fn tournament_page(
        &self,
        id: &TournamentId,
        language: Option<Language>,
    ) -> Result<Option<TournamentPage>, ServiceError> {
        let store = &self.inner.store;
        let Some(record) = store.tournament(id).await? else {
            return Ok(None);
        };
        let settings = store
            .chat(&record.chat)
            .await?
            .map(|chat| chat.settings)
            .unwrap_or_else(|| ChatSettings::for_language(self.inner.config.default_language));
        let language = language.unwrap_or(settings.language);
        let ctx = Ctx::for_timer_at(&self.inner, self.inner.config.wall_clock.now());
        Ok(Some(build(&ctx, &record, language, settings.zone)))
    }

    /// The stored revision of tournament `id`; `None` if there is no such tournament. What
    /// the page asks to learn whether to load again.
    pub async fn tournament_revision(
        &self,
        id: &TournamentId,
    ) -> Result<Option<u64>, ServiceError> {
        Ok(self
            .inner
            .store
            .tournament(id)
            .await?
            .map(|record| record.revision))
    }
}
