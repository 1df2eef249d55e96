//! What the store keeps: games, challenges, chats, players, outbox entries and request
//! answers. Plain serde data with a revision each, so any backend can check that a change
//! was computed from the latest version (optimistic concurrency across processes).
//!
//! A game is kept as its rules (variant and preset), players, deal letters, salt, the move
//! list in coordinates with reveal suffixes, and its deadlines; the position is rebuilt by
//! replaying the moves. On disk a game takes its compact form (see `compact.rs`).

use jieqi_rules::Variant;
use jieqi_rules::game::Preset;
use serde::{Deserialize, Serialize};

use crate::ids::{ChallengeId, ChatId, GameId, User, UserId};
use crate::message::{Message, OutboxId};
pub use crate::recipe::ImageRecipe;
use crate::recipe::variant_name;
use crate::settings::{ChatSettings, PersonalSettings};
use crate::speed_ratings::LiveRatings;
pub use crate::speed_ratings::VariantStats;
use jieqi_clock::Speed;

/// The commitment to a deal: lowercase hex of `sha256(deal_letters ‖ salt)`. Shown when a
/// game starts and checked against the deal when it ends; the compact form recomputes it
/// instead of storing it.
pub fn commitment(deal_letters: &str, salt: &str) -> String {
    use sha2::{Digest, Sha256};
    let mut hash = Sha256::new();
    hash.update(deal_letters.as_bytes());
    hash.update(salt.as_bytes());
    hex::encode(hash.finalize())
}

/// Seconds since the Unix epoch: the store's clock unit.
pub type UnixTime = u64;

/// Which player: the one who moves first (Red in Xiangqi and Jieqi; in Banqi whoever flips
/// first) or the other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Seat {
    /// Moves first.
    First,
    /// Moves second.
    Second,
}

impl std::ops::Not for Seat {
    type Output = Seat;
    fn not(self) -> Seat {
        match self {
            Seat::First => Seat::Second,
            Seat::Second => Seat::First,
        }
    }
}

/// How a game ended beyond what its moves decide.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Ending {
    /// The moves ended it (mate, no move, repetition, no progress).
    ByPlay,
    /// That player resigned.
    Resigned(Seat),
    /// Both agreed to a draw.
    DrawAgreed,
    /// That player ran out of time (an abort if fewer than two plies were played).
    TimedOut(Seat),
}

/// A draw offer waiting for the opponent.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct DrawOffer {
    /// Who offered.
    pub by: Seat,
    /// The chat post carrying the accept button (edited when the offer is settled).
    pub post: Option<OutboxId>,
}

/// The latest board post in one chat (home chat or a watcher), so that the next one can edit
/// it (one-message mode) or strip its buttons (one message per move).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct BoardPost {
    /// Which chat.
    pub chat: ChatId,
    /// The outbox entry of the post.
    pub post: OutboxId,
    /// Its caption (repeated when the buttons are stripped).
    pub caption: String,
}

/// One game. Stored in its compact form (`compact::StoredGame`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    into = "super::compact::StoredGame",
    try_from = "super::compact::StoredGame"
)]
pub struct GameRecord {
    /// Its id.
    pub id: GameId,
    /// 1 when created, +1 per change.
    pub revision: u64,
    /// Where it is played.
    pub chat: ChatId,
    /// Which game.
    #[serde(with = "variant_name")]
    pub variant: Variant,
    /// Rule preset (the full rules are `Rules::new(variant, preset)`).
    #[serde(with = "preset_name")]
    pub preset: Preset,
    /// The player who moves first.
    pub first: User,
    /// The other player.
    pub second: User,
    /// The secret deal (`GameDeal::letters`); empty for Xiangqi.
    pub deal: String,
    /// The secret salt (hex).
    pub salt: String,
    /// `sha256(deal ‖ salt)` in hex, published at the start.
    pub commitment: String,
    /// Every move in coordinates with reveal suffixes (server-only).
    pub moves: Vec<String>,
    /// Set once the game is over.
    pub ending: Option<Ending>,
    /// Seconds allowed per move.
    pub move_time: u64,
    /// When the next timer of the game is due (None once over): the reminder of the player
    /// to move while it is pending (see [`Prompts::times_out_at`]), then their time-out.
    pub deadline: Option<UnixTime>,
    /// A pending draw offer.
    pub draw_offer: Option<DrawOffer>,
    /// The latest board post per chat.
    pub posts: Vec<BoardPost>,
    /// Other chats that follow this game (`/watch`).
    pub watchers: Vec<ChatId>,
    /// When it started.
    pub started_at: UnixTime,
    /// When it ended.
    pub finished_at: Option<UnixTime>,
    /// The built-in engine's seat, level and seed in a game against it (`/play bot`).
    /// Last, so a record of schema 1 reads as a game between people (see `codec`).
    #[serde(default)]
    pub engine: Option<EngineSeat>,
    /// What the game's players and chats were asked or told, and when (resign confirmations,
    /// reminders, unreachable notices, board reposts). Last, with defaults.
    #[serde(default)]
    pub prompts: Prompts,
    /// The rules revision (`jieqi_rules::game::RULES_REVISION`) the game is played and was
    /// judged under. Added by schema 5 (older games read with the revision of the migration
    /// that gave them their verdict).
    #[serde(default)]
    pub rules_revision: u32,
    /// "Nobody sees": a captured covered piece stays unknown to both players until the end
    /// (`secret-captures`). Added by schema 5.
    #[serde(default)]
    pub secret_captures: bool,
    /// The result as it was announced, once the game is over; what everything shown about a
    /// finished game reads. Added by schema 5 (filled in once for older finished games, see
    /// `codec`).
    #[serde(default)]
    pub verdict: Option<super::Verdict>,
    /// A live game's clock (`/challenge @bob 3+2`): the control, each side's time as of its
    /// last move, and whose time runs since which commit; `None` for a game on a time per
    /// move (`move_time`, `deadline`). Added by schema 7, last (older games read with none
    /// and keep their deadlines per move).
    #[serde(default)]
    pub clock: Option<jieqi_clock::Clock>,
}

/// What the bot asked or told around one game and when, so it asks once and says things once.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Prompts {
    /// Resignations waiting for their confirmation: who asked to resign, and when.
    pub resign_asked: Vec<(Seat, UnixTime)>,
    /// When the player to move loses on time, while `GameRecord::deadline` is the earlier
    /// reminder; `None` means the deadline is the time-out itself.
    pub times_out_at: Option<UnixTime>,
    /// When `/board` last posted this game's board, per chat (it is limited per chat).
    pub board_reposts: Vec<(ChatId, UnixTime)>,
    /// Players the chat was told could not be reached privately; cleared for a player when a
    /// private message to them gets through (so it is said once, not per failed message).
    pub unreachable_told: Vec<Seat>,
}

/// The built-in engine as a player of one game.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct EngineSeat {
    /// Where it sits.
    pub seat: Seat,
    /// Its level's name (`novice`, `casual`, `club`, `master`).
    pub level: String,
    /// The seed of its choices, drawn once per game, so a restart resumes the same play.
    pub seed: u64,
}

impl GameRecord {
    /// The full rules of this game: its preset, with the challenge's options.
    pub fn rules(&self) -> jieqi_rules::Rules {
        rules_of(self.variant, self.preset, self.secret_captures)
    }

    /// The user in `seat`.
    pub fn player(&self, seat: Seat) -> &User {
        match seat {
            Seat::First => &self.first,
            Seat::Second => &self.second,
        }
    }

    /// The seat of `user`, if they play in this game.
    pub fn seat_of(&self, user: &UserId) -> Option<Seat> {
        if self.first.id == *user {
            Some(Seat::First)
        } else if self.second.id == *user {
            Some(Seat::Second)
        } else {
            None
        }
    }

    /// True until the game is over.
    pub fn is_active(&self) -> bool {
        self.ending.is_none()
    }

    /// Every chat that shows this game's boards: its own first, then watchers.
    pub fn audience(&self) -> impl Iterator<Item = &ChatId> {
        std::iter::once(&self.chat).chain(self.watchers.iter())
    }

    /// The speed the game is rated in: its control's for a live game, correspondence for a
    /// game on a time per move.
    pub fn speed(&self) -> Speed {
        self.clock
            .as_ref()
            .map_or(Speed::Correspondence, |clock| clock.control().speed())
    }
}

/// The challenge option of the "nobody sees" reading (`/challenge`, `/play`, and shown with
/// the preset).
pub const SECRET_CAPTURES: &str = "secret-captures";

/// The rules of `preset` for `variant`, with "nobody sees" if `secret_captures`.
pub fn rules_of(variant: Variant, preset: Preset, secret_captures: bool) -> jieqi_rules::Rules {
    let mut rules = jieqi_rules::Rules::new(variant, preset);
    if secret_captures {
        rules.captured_covered_visible_to = jieqi_rules::CapturedCoveredVisibleTo::Nobody;
    }
    rules
}

/// The challenger's colour choice.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ColourChoice {
    /// Challenger plays Red (moves first; in Banqi: flips first).
    Red,
    /// Challenger plays Black.
    Black,
    /// Decided by a coin toss when the challenge is accepted.
    #[default]
    Random,
}

/// An open challenge.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChallengeRecord {
    /// Its id.
    pub id: ChallengeId,
    /// 1 when created, +1 per change.
    pub revision: u64,
    /// Where it was posted.
    pub chat: ChatId,
    /// Who challenged.
    pub challenger: User,
    /// Who may accept: one person, or anyone (`None`).
    pub challenged: Option<User>,
    /// Which game.
    #[serde(with = "variant_name")]
    pub variant: Variant,
    /// Rule preset.
    #[serde(with = "preset_name")]
    pub preset: Preset,
    /// The challenger's colour.
    pub colour: ColourChoice,
    /// Seconds per move.
    pub move_time: u64,
    /// When it was posted.
    pub created_at: UnixTime,
    /// When it lapses.
    pub expires_at: UnixTime,
    /// The chat post with its buttons.
    pub post: Option<OutboxId>,
    /// Its text (repeated when the buttons are removed).
    pub text: String,
    /// "Nobody sees" (`secret-captures`): nobody learns a captured covered piece until the
    /// end. Added by schema 5.
    pub secret_captures: bool,
    /// A game clock (`3+2`, `10m|30s`) instead of the time per move: the game is played live.
    /// Added by schema 7, last (older challenges read with none).
    #[serde(with = "control_text")]
    pub control: Option<jieqi_clock::TimeControl>,
}

/// A chat: its settings and what is going on in it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatRecord {
    /// Which chat.
    pub chat: ChatId,
    /// 1 when created, +1 per change.
    pub revision: u64,
    /// Its settings.
    pub settings: ChatSettings,
    /// Games being played here.
    pub games: Vec<GameId>,
    /// Open challenges posted here.
    pub challenges: Vec<ChallengeId>,
    /// Games of other chats this chat follows.
    pub watching: Vec<GameId>,
    /// Everyone who finished a rated game here (the leaderboard).
    pub players: Vec<UserId>,
    /// Recently finished games here, newest last (for `/history`).
    pub finished: Vec<GameId>,
    /// The puzzle open here and the daily-puzzle schedule. Last, so older records read with
    /// none (see `codec`).
    pub puzzles: ChatPuzzles,
}

impl ChatRecord {
    /// A chat seen for the first time.
    pub fn new(chat: ChatId, settings: ChatSettings) -> ChatRecord {
        ChatRecord {
            chat,
            revision: 0,
            settings,
            games: Vec::new(),
            challenges: Vec::new(),
            watching: Vec::new(),
            players: Vec::new(),
            finished: Vec::new(),
            puzzles: ChatPuzzles::default(),
        }
    }
}

/// A chat's puzzles: the one open here, the daily puzzle's hour, and (only in the
/// schedule record, see [`DailySlot`]) when each chat's next daily puzzle is due.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatPuzzles {
    /// The puzzle being solved here.
    pub open: Option<OpenPuzzle>,
    /// The puzzle that was open here last, once it is over: a late `/move` is told so.
    pub ended: Option<String>,
    /// Ids of the puzzles this chat had lately, oldest first: its daily puzzle skips them.
    pub seen: Vec<String>,
    /// The hour (UTC) of the chat's daily puzzle (`/puzzle daily 18`), if it gets one.
    pub daily_hour: Option<u8>,
    /// Every chat with a daily puzzle and when its next one is due. Kept only in the one
    /// schedule record (the service's reserved chat), so a timer finds the due chats with one
    /// read; its revision check posts each daily puzzle once, whichever process gets there.
    pub schedule: Vec<DailySlot>,
}

/// A puzzle being solved in a chat. Only ids and moves: the puzzle itself comes from the
/// shipped set, and the line is played again to rebuild the position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpenPuzzle {
    /// The puzzle's id in the shipped set.
    pub id: String,
    /// The moves played so far, both sides, in record notation (`b9c7c`, reveals included).
    pub line: Vec<String>,
    /// Who opened it (rated against it in a private chat; a group solves together).
    pub opened_by: UserId,
    /// When it was opened.
    pub opened_at: UnixTime,
    /// People whose answer was wrong: they cannot answer this puzzle again.
    pub failed: Vec<UserId>,
    /// Posted by the daily schedule rather than asked for.
    pub daily: bool,
}

/// One chat's daily puzzle in the schedule record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DailySlot {
    /// The chat.
    pub chat: ChatId,
    /// When its next daily puzzle is due.
    pub next_at: UnixTime,
}

/// A player: their games in progress and ratings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerRecord {
    /// Who.
    pub user: UserId,
    /// 1 when created, +1 per change.
    pub revision: u64,
    /// Last display name seen.
    pub name: String,
    /// Games in progress anywhere.
    pub games: Vec<GameId>,
    /// Correspondence ratings (games on a time per move, and every game before live ones):
    /// Xiangqi, Jieqi, Banqi (in `Variant::ALL` order). See `speed_ratings`.
    pub stats: [VariantStats; 3],
    /// Their own choices for the pictures only they see (`/settings my-style`, ...).
    pub personal: PersonalSettings,
    /// Where they are in the rules course (`/learn`). Added by schema 4 (records of older
    /// schemas read with no course started, see `codec`).
    pub course: CourseProgress,
    /// Their puzzle rating, streaks and the puzzles they saw lately. Added by schema 4, last
    /// (older records read with a fresh rating, see `codec`).
    pub puzzle: PuzzleStats,
    /// Ratings in the live speeds (bullet, blitz, rapid, classical), per variant, for those
    /// they have rated games in. Added by schema 8, last (older records read with none).
    pub live: LiveRatings,
}

/// A person's place in the rules course: the lesson, the step, and the moves played in the
/// step (their solving moves and the scripted replies); the course crate rebuilds the rest.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct CourseProgress {
    /// The lesson's index in the course (the number of lessons once finished).
    pub lesson: u32,
    /// The step's index in the lesson.
    pub step: u32,
    /// The moves played in the step, as the rules print them (`c3c4`, Banqi `a4`).
    pub moves: Vec<String>,
    /// Whether `/move` answers the course (started or resumed, not paused or finished).
    pub open: bool,
    /// Whether they ever started it.
    pub started: bool,
}

/// A person's puzzle rating (Glicko-2, apart from game ratings; `wins` counts puzzles
/// solved and `losses` puzzles failed), streaks, and the puzzles they saw lately.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PuzzleStats {
    /// The rating, with solved and failed counts.
    pub rating: VariantStats,
    /// Puzzles solved in a row, up to now.
    pub streak: u32,
    /// The longest streak so far.
    pub best_streak: u32,
    /// Ids of the puzzles they saw lately, oldest first (at most [`PuzzleStats::REMEMBERED`]):
    /// `/puzzle` offers none of these.
    pub seen: Vec<String>,
}

impl PuzzleStats {
    /// How many recent puzzles are remembered: enough not to repeat one for weeks of daily
    /// solving, few enough to keep the player record small.
    pub const REMEMBERED: usize = 200;

    /// Remembers that they saw puzzle `id`.
    pub fn saw(&mut self, id: &str) {
        if self.seen.iter().any(|s| s == id) {
            return;
        }
        self.seen.push(id.to_owned());
        let extra = self.seen.len().saturating_sub(Self::REMEMBERED);
        self.seen.drain(..extra);
    }

    /// Counts a solve or a failure in the streaks.
    pub fn count(&mut self, solved: bool) {
        if solved {
            self.streak += 1;
            self.best_streak = self.best_streak.max(self.streak);
        } else {
            self.streak = 0;
        }
    }
}

impl PlayerRecord {
    /// A player seen for the first time.
    pub fn new(user: &User) -> PlayerRecord {
        PlayerRecord {
            user: user.id.clone(),
            revision: 0,
            name: user.name.clone(),
            games: Vec::new(),
            stats: [VariantStats::default(); 3],
            personal: PersonalSettings::default(),
            course: CourseProgress::default(),
            puzzle: PuzzleStats::default(),
            live: Default::default(),
        }
    }

    /// Their correspondence stats in `variant` (`rating` gives any speed's).
    pub fn stats(&self, variant: Variant) -> &VariantStats {
        &self.stats[variant_index(variant)]
    }

    /// Their correspondence stats in `variant`, to change.
    pub fn stats_mut(&mut self, variant: Variant) -> &mut VariantStats {
        &mut self.stats[variant_index(variant)]
    }

    /// Their rating and record in `variant` at `speed` (a fresh rating where they have no
    /// rated game): correspondence is [`PlayerRecord::stats`], the live speeds
    /// [`PlayerRecord::live`] (`speed_ratings`).
    pub fn rating(&self, variant: Variant, speed: Speed) -> VariantStats {
        match speed {
            Speed::Correspondence => *self.stats(variant),
            live => self.live.get(variant, live).unwrap_or_default(),
        }
    }

    /// Their rating in `variant` at `speed`, to change (kept from now on).
    pub fn rating_mut(&mut self, variant: Variant, speed: Speed) -> &mut VariantStats {
        match speed {
            Speed::Correspondence => self.stats_mut(variant),
            live => self.live.entry(variant, live),
        }
    }

    /// The speeds they have rated games in, in `variant`, fastest first, with their ratings.
    pub fn speeds_played(&self, variant: Variant) -> Vec<(Speed, VariantStats)> {
        Speed::ALL
            .into_iter()
            .map(|speed| (speed, self.rating(variant, speed)))
            .filter(|(_, stats)| stats.games() > 0)
            .collect()
    }
}

fn variant_index(variant: Variant) -> usize {
    match variant {
        Variant::Xiangqi => 0,
        Variant::Jieqi => 1,
        Variant::Banqi => 2,
    }
}

impl OutboxRecord {
    /// `message` entering the outbox at `created_at`: not tried yet, due at once, with no
    /// picture, no chat to tell if it cannot be delivered, and naming no moves.
    pub fn new(message: Message, created_at: UnixTime) -> Self {
        OutboxRecord {
            message,
            attempts: 0,
            created_at,
            fallback_chat: None,
            picture: None,
            not_before: 0,
            covers: None,
        }
    }
}

/// A message in the outbox, as stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutboxRecord {
    /// What to deliver.
    pub message: Message,
    /// Failed delivery rounds so far.
    pub attempts: u32,
    /// When it was written.
    pub created_at: UnixTime,
    /// The chat to tell if a private message cannot be delivered.
    pub fallback_chat: Option<ChatId>,
    /// How to draw the message's picture (the bytes are not stored).
    pub picture: Option<crate::recipe::PictureSpec>,
    /// Its lane is not tried again before this time (after a failed round).
    pub not_before: super::UnixMillis,
    /// For a board posted after moves: the moves it names, so that a newer board of the same
    /// game waiting behind it in its lane can stand in for it (`outbox.rs`, "coalescing").
    /// Last, so that older records read with `None` (schema 6).
    pub covers: Option<BoardMoves>,
}

/// The moves a board post names in its caption, and what its caption says after them: a
/// newer board that stands in for older ones names all their moves (`board-moves`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardMoves {
    /// Each move as the chat reads it ("12. C2.5 (h2e2) by alice"), oldest first.
    pub moves: Vec<String>,
    /// The chat's language when the board was queued (it joins the moves).
    pub language: crate::language::Language,
    /// The caption after the line that names the moves (who is to move, the deadline),
    /// with its leading line break; empty if nothing follows.
    pub rest: String,
}

/// What is remembered of a delivered message: its platform reference, for later edits.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SentRecord {
    /// The adapter's reference (message id), if it gave one.
    pub platform_ref: Option<String>,
    /// When it was delivered (or given up).
    pub at: UnixTime,
}

/// The answer given to a request, kept so a repeated request gets it again. Pictures are
/// kept as recipes, never as bytes: a repeat draws them again (the same game gives the same
/// picture).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnswerRecord {
    /// When the request was handled.
    pub at: UnixTime,
    /// What was answered, in order.
    pub replies: Vec<StoredReply>,
}

/// One reply of a stored answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredReply {
    /// The reply without its picture.
    pub message: Message,
    /// How to draw its picture again.
    pub picture: Option<ImageRecipe>,
}

/// A finished game's review (`/review`), computed once and served again. Its own kind of
/// record (store key `v` in sled, the `reviews` table in PostgreSQL), written once.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReviewRecord {
    /// The game reviewed.
    pub game: GameId,
    /// When the review was finished.
    pub at: UnixTime,
    /// The review.
    pub review: jieqi_review::GameReview,
}

/// A review asked for and not yet posted: an entry of the review queue, which is kept in the
/// store (sled keys `q`/`Q`, the PostgreSQL table `review_requests`) so that a process that
/// stops loses none of the reviews it told someone were queued. The store keeps entries in
/// the order they were queued; one per game and chat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReviewRequest {
    /// The finished game to review.
    pub game: GameId,
    /// The chat to post the review in.
    pub chat: ChatId,
    /// When it was asked for.
    pub asked_at: UnixTime,
}

impl ReviewRequest {
    /// Whether `other` asks for the same review (the same game, in the same chat).
    pub fn same_as(&self, other: &ReviewRequest) -> bool {
        self.game == other.game && self.chat == other.chat
    }
}

/// What a Discord Activity instance shows: the game whose "Play in Discord" button launched it
/// (Discord's `LAUNCH_ACTIVITY` answer names the instance it opened, or joined if one was
/// running in the channel). Its own kind of record, by instance (sled key `a`, the PostgreSQL
/// table `activity_launches`); a later launch into the same instance replaces it, and it is
/// forgotten with old request answers ([`crate::GameStore::prune`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LaunchRecord {
    /// The game launched.
    pub game: GameId,
    /// The channel the button was pressed in (the game's, and the instance's).
    pub chat: ChatId,
    /// When it was launched.
    pub at: UnixTime,
}

/// A time control in its notation (`3+2`), read back by the same parser: a stored text that
/// is not a control is refused.
mod control_text {
    use jieqi_clock::TimeControl;
    use serde::{Deserialize, Deserializer, Serialize, Serializer, de::Error};

    pub fn serialize<S: Serializer>(
        control: &Option<TimeControl>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        control.map(|c| c.to_string()).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<TimeControl>, D::Error> {
        Option::<String>::deserialize(d)?
            .map(|text| text.parse().map_err(D::Error::custom))
            .transpose()
    }
}

mod preset_name {
    use jieqi_rules::game::Preset;
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    pub fn serialize<S: Serializer>(p: &Preset, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(p.name())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Preset, D::Error> {
        let name = String::deserialize(d)?;
        name.parse().map_err(D::Error::custom)
    }
}
