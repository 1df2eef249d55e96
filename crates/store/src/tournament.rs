//! A tournament run in a chat (`/tournament`, issue 53): its settings, its players with
//! their round-by-round entries, the games of every round paired so far, and where it
//! stands. The pairing itself is the `jieqi-tournament` crate's; the service turns this
//! record into its event and back, so the store knows nothing of pairing rules.
//!
//! Its own kind of record with its own byte form ([`encode_tournament`],
//! [`decode_tournament`]): one version byte of its own ([`TOURNAMENT_SCHEMA`], apart from
//! the codec's [`crate::codec::SCHEMA_VERSION`]) then postcard, checked as it is read: a
//! record no tournament could reach (an opponent who is not in the event, a game seen
//! differently by its two players, more rounds paired than planned) is refused as corrupt
//! rather than paired from. Sled keeps it under key `t`, PostgreSQL in the `tournaments`
//! table (migration 10); no release before this one reads either, so there is no older
//! shape to write.
//!
//! A change that pairs a round writes the record at its next revision together with the
//! round's games (new, revision 1), so two processes pairing the same round from the same
//! revision cannot both commit: one stands, the other's whole change (games, posts) is
//! refused as a conflict.

use jieqi_rules::Variant;
use serde::{Deserialize, Serialize};

use crate::StoreError;
use crate::UnixTime;
use crate::ids::{ChatId, GameId, TournamentId, User};
use crate::message::OutboxId;
use crate::recipe::variant_name;

/// The byte form's version: the first byte of every stored tournament. Version 4 added the
/// announcement's post; version 3 (before it), version 2 (before the arena's games and end)
/// and version 1 (before the start time and the byes asked for, too) are still read:
/// [`decode_tournament`] gives them none.
pub const TOURNAMENT_SCHEMA: u8 = 4;

/// The longest arena, in minutes (a day).
pub const LONGEST_ARENA: u16 = 1440;

/// The most players a stored tournament may have (a chat's club night is far fewer; the
/// pairing benchmark goes to 500).
pub const MOST_PLAYERS: usize = 1000;

/// The most rounds a stored tournament may have paired (a Swiss's most, or a double round
/// robin of the most players it takes).
pub const MOST_ROUNDS: u8 = 30;

/// How the event is paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TournamentFormat {
    /// A Swiss of this many rounds, paired by the FIDE Dutch system.
    Swiss {
        /// Rounds planned.
        rounds: u8,
    },
    /// Everyone meets everyone, once or twice (`cycles`).
    RoundRobin {
        /// 1 (single) or 2 (double).
        cycles: u8,
    },
    /// For a fixed time, each player paired again as soon as their game ends (lichess's
    /// arena): no rounds, its games kept in [`TournamentRecord::arena_games`].
    Arena {
        /// Its length, 1 to [`LONGEST_ARENA`].
        minutes: u16,
    },
}

impl TournamentFormat {
    /// Rounds planned, for `players` entrants (a round robin's follows from the field).
    pub fn rounds(self, players: usize) -> u8 {
        match self {
            TournamentFormat::Swiss { rounds } => rounds,
            TournamentFormat::RoundRobin { cycles } => {
                let n = players + players % 2;
                u8::try_from(n.saturating_sub(1) * usize::from(cycles)).unwrap_or(u8::MAX)
            }
            TournamentFormat::Arena { .. } => 0,
        }
    }
}

/// Where the event is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TournamentState {
    /// Taking entries; not started.
    Open,
    /// Started: rounds are paired and played.
    Running,
    /// Every round played, the winners named.
    Finished,
    /// Called off by its organiser before it finished.
    Cancelled,
}

impl TournamentState {
    /// Whether the event is over (finished or called off).
    pub fn is_over(self) -> bool {
        matches!(self, TournamentState::Finished | TournamentState::Cancelled)
    }
}

/// A round without a game, as TRF-16 writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum StoredBye {
    /// `U`: the pairing-allocated bye (a win's point).
    PairingAllocated,
    /// `H`: a half point.
    Half,
    /// `F`: a full point given by the organiser.
    Full,
    /// `Z`: nothing (absent, not yet entered, withdrawn).
    Zero,
}

/// A game's outcome from one player's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum StoredScore {
    /// Won over the board.
    Win,
    /// Drawn.
    Draw,
    /// Lost over the board.
    Loss,
    /// Won without playing (the opponent never moved).
    ForfeitWin,
    /// Lost without playing.
    ForfeitLoss,
}

impl StoredScore {
    /// The opponent's score of the same game.
    pub fn reversed(self) -> StoredScore {
        match self {
            StoredScore::Win => StoredScore::Loss,
            StoredScore::Loss => StoredScore::Win,
            StoredScore::Draw => StoredScore::Draw,
            StoredScore::ForfeitWin => StoredScore::ForfeitLoss,
            StoredScore::ForfeitLoss => StoredScore::ForfeitWin,
        }
    }
}

/// What one player had in one round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum StoredEntry {
    /// A game against the player at index `opponent`; `score` is `None` while it is played.
    Game {
        /// The opponent's index in [`TournamentRecord::players`].
        opponent: u16,
        /// Whether this player moved first (red).
        first: bool,
        /// The outcome once known.
        score: Option<StoredScore>,
    },
    /// No game this round.
    Bye(StoredBye),
}

/// One entrant.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TournamentPlayer {
    /// Who (their name as they joined; the id is what counts).
    pub user: User,
    /// Their rating in the event's variant when they joined (it orders pairing numbers).
    pub rating: u16,
    /// One entry per round paired so far (a late entry's missed rounds are byes).
    pub entries: Vec<StoredEntry>,
    /// Takes no more pairings.
    pub withdrawn: bool,
}

/// One game of a paired round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TournamentGame {
    /// The round (1-based).
    pub round: u8,
    /// The board within the round (1-based), as the pairings were posted.
    pub board: u16,
    /// The index of the player who moves first.
    pub first: u16,
    /// The index of the other player.
    pub second: u16,
    /// The ordinary game it is played as.
    pub game: GameId,
}

/// One game of an arena, paired when both players were free.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArenaGame {
    /// The index of the player who moves first.
    pub first: u16,
    /// The index of the other player.
    pub second: u16,
    /// The ordinary game it is played as.
    pub game: GameId,
    /// When it was paired.
    pub paired_at: UnixTime,
    /// The first player's score once it ended within the arena; `None` while it is played
    /// (and for good when it ended after the arena's end: such a game does not count).
    pub score: Option<StoredScore>,
}

/// A tournament.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TournamentRecord {
    /// Its id.
    pub id: TournamentId,
    /// 1 when created, +1 per change.
    pub revision: u64,
    /// The chat it is run in (its posts, its games).
    pub chat: ChatId,
    /// Who created it (may start and cancel it).
    pub organiser: User,
    /// When it was created.
    pub created_at: UnixTime,
    /// How it is paired.
    pub format: TournamentFormat,
    /// Which game is played.
    #[serde(with = "variant_name")]
    pub variant: Variant,
    /// Seconds per move for games on a time per move; ignored when `control` is set.
    pub move_time: u64,
    /// A game clock for live games (`3+2`), in its notation; `None` for a time per move.
    pub control: Option<String>,
    /// Whether its games change ratings.
    pub rated: bool,
    /// Where it is.
    pub state: TournamentState,
    /// Everyone who entered, in order of entry.
    pub players: Vec<TournamentPlayer>,
    /// Rounds paired so far.
    pub round: u8,
    /// The games of every round paired so far, by round then board.
    pub games: Vec<TournamentGame>,
    /// The colour of round 1's top board's higher player: whether it moves first (TRF
    /// `XXC`), drawn when the event starts.
    pub first_colour_first: bool,
    /// When it starts by itself (`/tournament swiss ... at 20:00`); `None` for a manual
    /// start only. While it is open, the store's deadline index holds it
    /// ([`TournamentRecord::due_at`]), so whichever process ticks first starts it.
    pub starts_at: Option<UnixTime>,
    /// The players (indices) who asked for a half-point bye in the next round to be paired
    /// (a Swiss; once per player per event, as clubs give it).
    pub byes_asked: Vec<u16>,
    /// An arena's games in the order they were paired (a player's games follow their
    /// order of play, which is what their streak reads).
    pub arena_games: Vec<ArenaGame>,
    /// When a running arena ends (set at its start); the store's deadline index holds it
    /// while it runs, so whichever process ticks first ends it.
    pub ends_at: Option<UnixTime>,
    /// The announcement's post (with the Join and Leave buttons), edited to drop them when
    /// the event is over. `None` for events stored before version 4: theirs keep them (a
    /// press is refused naming the event).
    pub announcement: Option<OutboxId>,
}

/// The version 2 byte form: a tournament before the arena.
#[derive(Deserialize)]
struct TournamentRecordV2 {
    id: TournamentId,
    revision: u64,
    chat: ChatId,
    organiser: User,
    created_at: UnixTime,
    format: TournamentFormat,
    #[serde(with = "variant_name")]
    variant: Variant,
    move_time: u64,
    control: Option<String>,
    rated: bool,
    state: TournamentState,
    players: Vec<TournamentPlayer>,
    round: u8,
    games: Vec<TournamentGame>,
    first_colour_first: bool,
    starts_at: Option<UnixTime>,
    byes_asked: Vec<u16>,
}

impl From<TournamentRecordV2> for TournamentRecord {
    fn from(v2: TournamentRecordV2) -> TournamentRecord {
        TournamentRecord {
            id: v2.id,
            revision: v2.revision,
            chat: v2.chat,
            organiser: v2.organiser,
            created_at: v2.created_at,
            format: v2.format,
            variant: v2.variant,
            move_time: v2.move_time,
            control: v2.control,
            rated: v2.rated,
            state: v2.state,
            players: v2.players,
            round: v2.round,
            games: v2.games,
            first_colour_first: v2.first_colour_first,
            starts_at: v2.starts_at,
            byes_asked: v2.byes_asked,
            arena_games: Vec::new(),
            ends_at: None,
            announcement: None,
        }
    }
}

/// The version 1 byte form: a tournament before start times and byes asked for.
#[derive(Deserialize)]
struct TournamentRecordV1 {
    id: TournamentId,
    revision: u64,
    chat: ChatId,
    organiser: User,
    created_at: UnixTime,
    format: TournamentFormat,
    #[serde(with = "variant_name")]
    variant: Variant,
    move_time: u64,
    control: Option<String>,
    rated: bool,
    state: TournamentState,
    players: Vec<TournamentPlayer>,
    round: u8,
    games: Vec<TournamentGame>,
    first_colour_first: bool,
}

impl From<TournamentRecordV1> for TournamentRecord {
    fn from(v1: TournamentRecordV1) -> TournamentRecord {
        TournamentRecord {
            id: v1.id,
            revision: v1.revision,
            chat: v1.chat,
            organiser: v1.organiser,
            created_at: v1.created_at,
            format: v1.format,
            variant: v1.variant,
            move_time: v1.move_time,
            control: v1.control,
            rated: v1.rated,
            state: v1.state,
            players: v1.players,
            round: v1.round,
            games: v1.games,
            first_colour_first: v1.first_colour_first,
            starts_at: None,
            byes_asked: Vec::new(),
            arena_games: Vec::new(),
            ends_at: None,
            announcement: None,
        }
    }
}

impl TournamentRecord {
    /// When the store's deadline index should bring the event to a timer: its start time,
    /// while it is open; a running arena's end.
    pub fn due_at(&self) -> Option<UnixTime> {
        match self.state {
            TournamentState::Open => self.starts_at,
            TournamentState::Running => self.ends_at,
            _ => None,
        }
    }

    /// Whether the event is an arena.
    pub fn is_arena(&self) -> bool {
        matches!(self.format, TournamentFormat::Arena { .. })
    }

    /// The arena game played as `game`.
    pub fn arena_game(&self, game: &GameId) -> Option<&ArenaGame> {
        self.arena_games.iter().find(|g| g.game == *game)
    }

    /// Whether `game` is one of the event's games (of a round, or of the arena).
    pub fn plays(&self, game: &GameId) -> bool {
        self.game(game).is_some() || self.arena_game(game).is_some()
    }

    /// How many of `player`'s games were lost by forfeit (never moved).
    pub fn forfeits(&self, player: usize) -> usize {
        self.players.get(player).map_or(0, |p| {
            p.entries
                .iter()
                .filter(|e| {
                    matches!(
                        e,
                        StoredEntry::Game {
                            score: Some(StoredScore::ForfeitLoss),
                            ..
                        }
                    )
                })
                .count()
        })
    }

    /// Whether `player` has had or asked for a half-point bye (`H`) in this event.
    pub fn had_half_bye(&self, player: usize) -> bool {
        let asked = u16::try_from(player).is_ok_and(|i| self.byes_asked.contains(&i));
        asked
            || self
                .players
                .get(player)
                .is_some_and(|p| p.entries.contains(&StoredEntry::Bye(StoredBye::Half)))
    }

    /// The index of `user` among the players.
    pub fn player_index(&self, user: &crate::ids::UserId) -> Option<usize> {
        self.players.iter().position(|p| p.user.id == *user)
    }

    /// The tournament game played as `game`.
    pub fn game(&self, game: &GameId) -> Option<&TournamentGame> {
        self.games.iter().find(|g| g.game == *game)
    }

    /// The games of round `round`.
    pub fn round_games(&self, round: u8) -> impl Iterator<Item = &TournamentGame> {
        self.games.iter().filter(move |g| g.round == round)
    }

    /// Checks that the record is one a tournament can reach; the reason if not.
    pub fn check(&self) -> Result<(), String> {
        let n = self.players.len();
        if n > MOST_PLAYERS {
            return Err(format!("{n} players, more than {MOST_PLAYERS}"));
        }
        if self.round > MOST_ROUNDS {
            return Err(format!("{} rounds paired", self.round));
        }
        if let TournamentFormat::Swiss { rounds } = self.format
            && !(1..=MOST_ROUNDS).contains(&rounds)
        {
            return Err(format!("a Swiss of {rounds} rounds"));
        }
        if let TournamentFormat::RoundRobin { cycles } = self.format
            && !(1..=2).contains(&cycles)
        {
            return Err(format!("a round robin of {cycles} cycles"));
        }
        self.check_arena()?;
        if self.state == TournamentState::Open && self.round != 0 {
            return Err("rounds paired before the start".to_owned());
        }
        if self.round > self.format.rounds(n) {
            return Err(format!(
                "{} rounds paired of {} planned",
                self.round,
                self.format.rounds(n)
            ));
        }
        if let Some(control) = &self.control
            && control.parse::<jieqi_clock::TimeControl>().is_err()
        {
            return Err(format!("`{control}` is not a time control"));
        }
        if let Some(&asker) = self.byes_asked.iter().find(|&&i| usize::from(i) >= n) {
            return Err(format!("a bye asked by player {asker}, not in the event"));
        }
        for (i, player) in self.players.iter().enumerate() {
            if player.entries.len() > usize::from(self.round) {
                return Err(format!("player {i} has more entries than rounds"));
            }
            if self.players[..i]
                .iter()
                .any(|p| p.user.id == player.user.id)
            {
                return Err(format!("player {i} entered twice"));
            }
            for (r, entry) in player.entries.iter().enumerate() {
                let StoredEntry::Game {
                    opponent,
                    first,
                    score,
                } = *entry
                else {
                    continue;
                };
                let o = usize::from(opponent);
                if o == i || o >= n {
                    return Err(format!("player {i} meets player {o} in round {}", r + 1));
                }
                let mirrored = StoredEntry::Game {
                    opponent: u16::try_from(i).unwrap_or(u16::MAX),
                    first: !first,
                    score: score.map(StoredScore::reversed),
                };
                if self.players[o].entries.get(r) != Some(&mirrored) {
                    return Err(format!(
                        "round {}'s game of players {i} and {o} reads differently for each",
                        r + 1
                    ));
                }
            }
        }
        for game in &self.games {
            let (f, s) = (usize::from(game.first), usize::from(game.second));
            if game.round == 0 || game.round > self.round {
                return Err(format!("game {} of round {}", game.game, game.round));
            }
            let r = usize::from(game.round) - 1;
            let expected = StoredEntry::Game {
                opponent: game.second,
                first: true,
                score: None,
            };
            let played = self.players.get(f).and_then(|p| p.entries.get(r)).copied();
            let matches = match played {
                Some(StoredEntry::Game {
                    opponent, first, ..
                }) => {
                    StoredEntry::Game {
                        opponent,
                        first,
                        score: None,
                    } == expected
                }
                _ => false,
            };
            if s >= n || !matches {
                return Err(format!(
                    "game {} is not round {}'s game of players {f} and {s}",
                    game.game, game.round
                ));
            }
        }
        Ok(())
    }
}

impl TournamentRecord {
    /// The arena's own fields: none outside an arena; in one, no rounds, an end once it
    /// started, and games no arena could pair refused (a player in two games at once, a
    /// player meeting themself or someone outside it, games paired out of order or after
    /// the end).
    fn check_arena(&self) -> Result<(), String> {
        let TournamentFormat::Arena { minutes } = self.format else {
            if !self.arena_games.is_empty() || self.ends_at.is_some() {
                return Err("arena games outside an arena".to_owned());
            }
            return Ok(());
        };
        if !(1..=LONGEST_ARENA).contains(&minutes) {
            return Err(format!("an arena of {minutes} minutes"));
        }
        if self.round != 0 || !self.games.is_empty() || !self.byes_asked.is_empty() {
            return Err("rounds in an arena".to_owned());
        }
        if self.players.iter().any(|p| !p.entries.is_empty()) {
            return Err("round entries in an arena".to_owned());
        }
        match (self.state, self.ends_at) {
            (TournamentState::Open, Some(_)) => {
                return Err("an open arena with an end".to_owned());
            }
            (TournamentState::Running | TournamentState::Finished, None) => {
                return Err("a started arena without an end".to_owned());
            }
            _ => {}
        }
        if self.state == TournamentState::Open && !self.arena_games.is_empty() {
            return Err("arena games before the start".to_owned());
        }
        let n = self.players.len();
        let mut playing = vec![false; n];
        let mut last_paired = 0;
        for game in &self.arena_games {
            let (f, s) = (usize::from(game.first), usize::from(game.second));
            if f == s || f >= n || s >= n {
                return Err(format!("arena game {} of players {f} and {s}", game.game));
            }
            if let Some(&busy) = [f, s].iter().find(|&&p| playing[p]) {
                return Err(format!(
                    "player {busy} paired in game {} while still playing",
                    game.game
                ));
            }
            if game.paired_at < last_paired || self.ends_at.is_some_and(|end| game.paired_at > end)
            {
                return Err(format!("arena game {} paired out of time", game.game));
            }
            last_paired = game.paired_at;
            if game.score.is_none() {
                playing[f] = true;
                playing[s] = true;
            }
        }
        Ok(())
    }
}

/// The stored bytes of `record`: [`TOURNAMENT_SCHEMA`], then postcard.
pub fn encode_tournament(record: &TournamentRecord) -> Result<Vec<u8>, StoreError> {
    record
        .check()
        .map_err(|why| StoreError::Corrupt(format!("tournament {}: {why}", record.id)))?;
    postcard::to_extend(record, vec![TOURNAMENT_SCHEMA])
        .map_err(|e| StoreError::Corrupt(format!("cannot encode a tournament: {e}")))
}

/// A tournament from its stored bytes, checked ([`TournamentRecord::check`]).
pub fn decode_tournament(bytes: &[u8]) -> Result<TournamentRecord, StoreError> {
    let unreadable =
        |e: postcard::Error| StoreError::Corrupt(format!("cannot decode a tournament: {e}"));
    match bytes.split_first() {
        Some((&version @ (1..=TOURNAMENT_SCHEMA), rest)) => {
            let record: TournamentRecord = match version {
                1 => postcard::from_bytes::<TournamentRecordV1>(rest)
                    .map_err(unreadable)?
                    .into(),
                2 => postcard::from_bytes::<TournamentRecordV2>(rest)
                    .map_err(unreadable)?
                    .into(),
                3 => {
                    // Version 3 lacks only the announcement, last: a zero byte reads as none.
                    let mut bytes = rest.to_vec();
                    bytes.push(0);
                    postcard::from_bytes(&bytes).map_err(unreadable)?
                }
                _ => postcard::from_bytes(rest).map_err(unreadable)?,
            };
            record.check().map_err(|why| {
                StoreError::Corrupt(format!("tournament {} cannot be: {why}", record.id))
            })?;
            Ok(record)
        }
        Some((&version, _)) if version > TOURNAMENT_SCHEMA => Err(StoreError::TooNew {
            found: u32::from(version),
            supported: u32::from(TOURNAMENT_SCHEMA),
        }),
        Some((version, _)) => Err(StoreError::Corrupt(format!(
            "a tournament of unknown version {version}"
        ))),
        None => Err(StoreError::Corrupt("an empty tournament".to_owned())),
    }
}

/// A Swiss of 3 rounds in `room` with four players (ann, bob, cy, di), round 1 paired at
/// `revision`: ann (first) against cy in `games[0]`, di (first) against bob in `games[1]`.
/// For the store's tests.
#[cfg(any(test, feature = "conformance"))]
pub fn example(id: &str, revision: u64, games: [&str; 2]) -> TournamentRecord {
    use crate::ids::{Platform, UserId};
    let player = |n: usize, name: &str, rating: u16, entry: StoredEntry| TournamentPlayer {
        user: User::new(UserId::new(Platform::Telegram, n.to_string()), name),
        rating,
        entries: vec![entry],
        withdrawn: false,
    };
    let game = |opponent: u16, first: bool| StoredEntry::Game {
        opponent,
        first,
        score: None,
    };
    TournamentRecord {
        id: id.parse().expect("a tournament id"),
        revision,
        chat: ChatId::new(Platform::Telegram, "room"),
        organiser: User::new(UserId::new(Platform::Telegram, "1"), "ann"),
        created_at: 100,
        format: TournamentFormat::Swiss { rounds: 3 },
        variant: Variant::Jieqi,
        move_time: 86_400,
        control: Some("3+2".to_owned()),
        rated: true,
        state: TournamentState::Running,
        players: vec![
            player(1, "ann", 1600, game(2, true)),
            player(2, "bob", 1550, game(3, false)),
            player(3, "cy", 1500, game(0, false)),
            player(4, "di", 1450, game(1, true)),
        ],
        round: 1,
        games: vec![
            TournamentGame {
                round: 1,
                board: 1,
                first: 0,
                second: 2,
                game: games[0].parse().expect("a game id"),
            },
            TournamentGame {
                round: 1,
                board: 2,
                first: 3,
                second: 1,
                game: games[1].parse().expect("a game id"),
            },
        ],
        first_colour_first: true,
        starts_at: None,
        byes_asked: Vec::new(),
        arena_games: Vec::new(),
        ends_at: None,
        announcement: None,
    }
}

/// A 10-minute arena in `room` started at 1000 with three players (ann, bob, cy): ann
/// (first) beat bob in `games[0]`, then ann and cy play `games[1]`, bob waiting. For the
/// store's tests.
#[cfg(any(test, feature = "conformance"))]
pub fn arena_example(id: &str, revision: u64, games: [&str; 2]) -> TournamentRecord {
    let mut record = example(id, revision, games);
    record.format = TournamentFormat::Arena { minutes: 10 };
    record.players.truncate(3);
    for player in &mut record.players {
        player.entries.clear();
    }
    record.round = 0;
    record.games.clear();
    record.ends_at = Some(1_600);
    record.arena_games = vec![
        ArenaGame {
            first: 0,
            second: 1,
            game: games[0].parse().expect("a game id"),
            paired_at: 1_000,
            score: Some(StoredScore::Win),
        },
        ArenaGame {
            first: 2,
            second: 0,
            game: games[1].parse().expect("a game id"),
            paired_at: 1_100,
            score: None,
        },
    ];
    record
}

#[cfg(test)]
mod tests;
