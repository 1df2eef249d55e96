//! The game facade: one game of Xiangqi, Jieqi or Banqi under fixed [`Rules`], with its deal,
//! history, result, and the views each party may see.
//!
//! A [`Game`] is the server's object: it holds the deal and knows everything. What leaves it
//! for a party goes through [`Game::view`], [`Game::fen`] and [`Game::move_text`] with that
//! party's [`Viewer`]; for Xiangqi and Jieqi these are built from a knowledge step that is
//! handed the deal only for a viewer entitled to it (see `knowledge.rs`).
//!
//! ```
//! use jieqi_rules::notation::MoveNotation;
//! use jieqi_rules::{Game, GameDeal, Preset, Rules, Variant, Viewer};
//!
//! let mut game = Game::new(Rules::new(Variant::Xiangqi, Preset::Standard), GameDeal::None)?;
//! game.play_text("h2e2")?;
//! assert_eq!(game.move_text(0, MoveNotation::Coordinates, Viewer::Public).as_deref(), Some("h2e2"));
//! assert_eq!(game.ply(), 1);
//! # Ok::<(), jieqi_rules::GameError>(())
//! ```

mod board;
mod deal;
mod error;
mod knowledge;
mod options;
mod repetition;
mod revision;

use std::fmt;

use crate::banqi::{Action, ActionRecord, BanqiGame};
use crate::deal::Deal;
use crate::moves::{Move, MoveRecord};
use crate::notation::{self, MoveInputError, MoveNotation};
use crate::outcome::{DrawReason, Outcome, WinReason};
use crate::types::{Piece, Side, Variant};
use crate::view::{View, Viewer};

use board::BoardGame;

pub use deal::GameDeal;
pub use error::GameError;
pub use options::{
    CapturedCoveredVisibleTo, ParsePresetError, ParseVisibilityError, Preset, RepetitionRule, Rules,
};
#[cfg(feature = "test-hooks")]
pub use revision::testing;
pub use revision::{REVISIONS, RULES_REVISION, RevisionNote, changes_since};

/// The two players by turn order: the one who moves first (Red in Xiangqi and Jieqi; in
/// Banqi whoever flips first, whatever colour that shows) and the other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Seat {
    /// Moves first.
    First,
    /// Moves second.
    Second,
}

impl Seat {
    /// The other seat.
    pub const fn other(self) -> Seat {
        match self {
            Seat::First => Seat::Second,
            Seat::Second => Seat::First,
        }
    }
}

/// A move of any of the games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameMove {
    /// A Xiangqi or Jieqi move.
    Board(Move),
    /// A Banqi flip or move.
    Banqi(Action),
}

impl fmt::Display for GameMove {
    /// Coordinates (`h2e2`) or Banqi text (`c3`, `c3c4`), without what the move revealed.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameMove::Board(mv) => mv.fmt(f),
            GameMove::Banqi(action) => action.fmt(f),
        }
    }
}

/// What a played move did, with the server's full knowledge (the true type of a captured
/// covered piece included): not for display to anyone but the server.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PlayedRecord {
    /// A Xiangqi or Jieqi move.
    Board(MoveRecord),
    /// A Banqi action.
    Banqi(ActionRecord),
}

/// A move that was just played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PlayedMove {
    /// The ply it was, 0-based.
    pub index: usize,
    /// The side that played it (in Banqi, the first flip gives the flipper its colour).
    pub mover: Side,
    /// What it did.
    pub record: PlayedRecord,
}

#[derive(Clone)]
enum Inner {
    Board(Box<BoardGame>),
    Banqi(Box<BanqiGame>),
}

/// One game: rules, deal, position, history and result. See the module documentation.
///
/// Its [`fmt::Debug`] output shows only the rules, the ply and the result, never the deal.
#[derive(Clone)]
pub struct Game {
    rules: Rules,
    inner: Inner,
}

impl fmt::Debug for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Game")
            .field("rules", &self.rules)
            .field("ply", &self.ply())
            .field("outcome", &self.outcome())
            .finish_non_exhaustive()
    }
}

impl Game {
    /// A new game at the start position. The deal must be for `rules.variant`.
    pub fn new(rules: Rules, deal: GameDeal) -> Result<Game, GameError> {
        let inner = match (rules.variant, deal) {
            (Variant::Xiangqi, GameDeal::None) => {
                Inner::Board(Box::new(BoardGame::new(rules.clone(), None)?))
            }
            (Variant::Jieqi, GameDeal::Jieqi(deal)) => {
                Inner::Board(Box::new(BoardGame::new(rules.clone(), Some(deal))?))
            }
            (Variant::Banqi, GameDeal::Banqi(deal)) => {
                let limit = banqi_limit(&rules);
                Inner::Banqi(Box::new(BanqiGame::new(deal).with_no_progress_plies(limit)))
            }
            (variant, deal) => {
                return Err(GameError::DealMismatch {
                    rules: variant,
                    deal: deal.variant(),
                });
            }
        };
        Ok(Game { rules, inner })
    }

    /// A game taken up from a full FEN, for analysis and tests: a Jieqi FEN with covered
    /// pieces must carry the deal as its seventh field (see `notation.md`); the captured group
    /// counts as public. Banqi reads a Banqi FEN (a public one gets a fixed deal). Counting for
    /// the no-progress and repetition rules starts at this position.
    ///
    /// ```
    /// use jieqi_rules::{Game, Outcome, Preset, Rules, Variant, WinReason, Side};
    ///
    /// // Red mates with the second chariot on the back rank.
    /// let rules = Rules::new(Variant::Xiangqi, Preset::Standard);
    /// let mut game = Game::from_fen(rules, "4k4/R8/9/9/9/9/9/9/1R7/5K3 w - - 0 1")?;
    /// game.play_text("b1b9")?;
    /// assert_eq!(game.outcome(), Some(Outcome::Win { winner: Side::Red, reason: WinReason::Checkmate }));
    /// # Ok::<(), jieqi_rules::GameError>(())
    /// ```
    pub fn from_fen(rules: Rules, fen: &str) -> Result<Game, GameError> {
        let inner = match rules.variant {
            Variant::Xiangqi | Variant::Jieqi => {
                let (setup, pieces) = notation::fen::read_full(fen)
                    .map_err(|e| GameError::BadStart(e.to_string()))?;
                let covered = setup
                    .board
                    .iter()
                    .any(|c| matches!(c, crate::types::Cell::Covered(_)));
                let deal = match pieces {
                    Some(pieces) => Some(
                        Deal::from_pieces(&setup, &pieces)
                            .map_err(|e| GameError::BadDeal(e.to_string()))?,
                    ),
                    None if covered => {
                        return Err(GameError::BadStart(
                            "the FEN has covered pieces but no deal: add the seventh field with                              the true type of each covered piece"
                                .to_owned(),
                        ));
                    }
                    None => None,
                };
                Inner::Board(Box::new(BoardGame::from_setup(rules.clone(), setup, deal)?))
            }
            Variant::Banqi => {
                let game =
                    BanqiGame::from_fen(fen).map_err(|e| GameError::BadStart(e.to_string()))?;
                let limit = banqi_limit(&rules);
                Inner::Banqi(Box::new(game.with_no_progress_plies(limit)))
            }
        };
        Ok(Game { rules, inner })
    }

    /// The rules of this game.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Which game it is.
    pub fn variant(&self) -> Variant {
        self.rules.variant
    }

    /// The side to move (also after the end: the side that would have moved). Banqi: `None`
    /// before the first flip has assigned colours.
    pub fn side_to_move(&self) -> Option<Side> {
        match &self.inner {
            Inner::Board(game) => Some(game.side_to_move()),
            Inner::Banqi(game) => game.side_to_move(),
        }
    }

    /// The seat whose turn it is: the turns alternate from [`Seat::First`].
    pub fn seat_to_move(&self) -> Seat {
        if self.ply().is_multiple_of(2) {
            Seat::First
        } else {
            Seat::Second
        }
    }

    /// The colour a seat plays: Red for the first seat in Xiangqi and Jieqi (the side to move
    /// of the FEN for a game taken up from one); in Banqi the colour of the first flip, `None`
    /// before it.
    pub fn side_of(&self, seat: Seat) -> Option<Side> {
        let first = match &self.inner {
            Inner::Board(game) => Some(game.first_side()),
            Inner::Banqi(game) => game.first_player_side(),
        };
        first.map(|side| if seat == Seat::First { side } else { !side })
    }

    /// Plies played so far.
    pub fn ply(&self) -> usize {
        self.history_len()
    }

    /// Plies in the history (the same as [`Game::ply`]).
    pub fn history_len(&self) -> usize {
        match &self.inner {
            Inner::Board(game) => game.ply(),
            Inner::Banqi(game) => game.history().len(),
        }
    }

    /// The legal moves, sorted; empty once the game is over.
    pub fn legal_moves(&self) -> Vec<GameMove> {
        match &self.inner {
            Inner::Board(game) => game
                .legal_moves()
                .into_iter()
                .map(GameMove::Board)
                .collect(),
            Inner::Banqi(game) if game.outcome().is_none() => game
                .legal_actions()
                .into_iter()
                .map(GameMove::Banqi)
                .collect(),
            Inner::Banqi(_) => Vec::new(),
        }
    }

    /// The legal moves as a player types them (coordinates; Banqi `c3` / `c3c4`), sorted
    /// alphabetically for autocompletion.
    pub fn legal_move_texts(&self) -> Vec<String> {
        let mut texts: Vec<String> = self.legal_moves().iter().map(|m| m.to_string()).collect();
        texts.sort();
        texts
    }

    /// Reads a move typed by the player to move: coordinates, WXF or Chinese for Xiangqi and
    /// Jieqi, squares for Banqi. A well-formed move that is not allowed gets an error that says
    /// why. Reading uses only public knowledge, so errors never hint at the deal.
    pub fn parse_move(&self, text: &str) -> Result<GameMove, GameError> {
        if let Some(outcome) = self.outcome() {
            return Err(GameError::GameOver(outcome));
        }
        match &self.inner {
            Inner::Board(game) => {
                let public = game.knowledge(Viewer::Public).setup();
                let legal = game.legal_moves();
                match notation::parse_move(&public, &legal, text) {
                    Ok(parsed) if parsed.reveal.is_some() => {
                        Err(GameError::RevealTyped(parsed.mv.to_string()))
                    }
                    Ok(parsed) => Ok(GameMove::Board(parsed.mv)),
                    Err(MoveInputError::NotLegal(mv)) => Err(GameError::IllegalMove(
                        game.why_illegal(mv)
                            .unwrap_or_else(|| format!("{mv} cannot be played now")),
                    )),
                    Err(e) => Err(GameError::BadInput(e)),
                }
            }
            Inner::Banqi(game) => Ok(GameMove::Banqi(game.parse_action(text)?)),
        }
    }

    /// Plays a move and updates the result (no legal move, repetition, no progress).
    pub fn play(&mut self, mv: GameMove) -> Result<PlayedMove, GameError> {
        if let Some(outcome) = self.outcome() {
            return Err(GameError::GameOver(outcome));
        }
        let index = self.ply();
        match (&mut self.inner, mv) {
            (Inner::Board(game), GameMove::Board(mv)) => {
                let mover = game.side_to_move();
                let record = game.play(mv)?;
                Ok(PlayedMove {
                    index,
                    mover,
                    record: PlayedRecord::Board(record),
                })
            }
            (Inner::Banqi(game), GameMove::Banqi(action)) => {
                let record = game.play(action)?;
                Ok(PlayedMove {
                    index,
                    mover: record.mover,
                    record: PlayedRecord::Banqi(record),
                })
            }
            (_, mv) => Err(GameError::WrongGame {
                mv: mv.to_string(),
                variant: self.rules.variant,
            }),
        }
    }

    /// Reads and plays a typed move (see [`Game::parse_move`]).
    pub fn play_text(&mut self, text: &str) -> Result<PlayedMove, GameError> {
        let mv = self.parse_move(text)?;
        self.play(mv)
    }

    /// The text of ply `ply` (0-based) as `viewer` may read it. A reveal of the moved piece is
    /// public (`b9c7c`, `h8+7=c`); the type of a captured covered piece is never part of a
    /// move's text. Banqi has one notation (`c3=R`, `c3c4`) whatever `notation` says.
    pub fn move_text(&self, ply: usize, notation: MoveNotation, viewer: Viewer) -> Option<String> {
        match &self.inner {
            Inner::Board(game) => game.knowledge(viewer).move_text(ply, notation),
            Inner::Banqi(game) => game.history().get(ply).map(|r| r.to_string()),
        }
    }

    /// If ply `ply` captured a covered piece: who captured it and what it truly was. Server
    /// knowledge: tell it only to those the rules let know it.
    pub fn captured_covered_by(&self, ply: usize) -> Option<(Side, Piece)> {
        match &self.inner {
            Inner::Board(game) => {
                let record = game.record(ply)?;
                let captured = record.captured.filter(|c| c.was_covered)?;
                Some((record.mover.side, captured.piece))
            }
            Inner::Banqi(_) => None,
        }
    }

    /// The result, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        match &self.inner {
            Inner::Board(game) => game.outcome(),
            Inner::Banqi(game) => game.outcome(),
        }
    }

    /// Ends the game with a result from outside the board; does nothing if it is over.
    fn finish(&mut self, outcome: Outcome) {
        if self.outcome().is_some() {
            return;
        }
        match &mut self.inner {
            Inner::Board(game) => game.set_outcome(outcome),
            Inner::Banqi(game) => game.set_outcome(outcome),
        }
    }

    /// `loser` resigns.
    pub fn resign(&mut self, loser: Side) {
        self.finish(Outcome::Win {
            winner: !loser,
            reason: WinReason::Resignation,
        });
    }

    /// Both players agree to a draw.
    pub fn agree_draw(&mut self) {
        self.finish(Outcome::Draw(DrawReason::Agreement));
    }

    /// `loser` ran out of time. Before two plies have been played the game is aborted
    /// instead: it never really began. Under rules that draw a time-out against a side that
    /// cannot mate ([`Rules::timeout_draws_without_mating_material`]) and with an opponent
    /// that cannot ([`Game::can_mate`]), it is a draw.
    pub fn time_out(&mut self, loser: Side) {
        if self.ply() < 2 {
            self.finish(Outcome::Aborted);
        } else if self.rules.timeout_draws_without_mating_material && !self.can_mate(!loser) {
            self.finish(Outcome::Draw(DrawReason::TimeoutWithoutMatingMaterial));
        } else {
            self.finish(Outcome::Win {
                winner: !loser,
                reason: WinReason::Timeout,
            });
        }
    }

    /// Whether `side` has a piece that could ever cross the river and attack: a chariot,
    /// horse, cannon or soldier, or (Jieqi) a covered piece, which may turn out to be any of
    /// them. A general with advisors and elephants cannot mate. Banqi has no river and
    /// no mate: any piece left counts.
    pub fn can_mate(&self, side: Side) -> bool {
        match &self.inner {
            Inner::Board(game) => game.has_attackers(side),
            Inner::Banqi(_) => true,
        }
    }

    /// Calls the game off.
    pub fn abort(&mut self) {
        self.finish(Outcome::Aborted);
    }

    /// Whether the whole deal is public now (the game is over and the rules reveal it).
    fn deal_is_public(&self) -> bool {
        self.outcome().is_some() && self.rules.reveal_deal_at_end
    }

    /// What `viewer` may see. Once the game is over with `reveal_deal_at_end`, every view
    /// carries the whole deal (`deal` is `Some`) and names every captured piece.
    pub fn view(&self, viewer: Viewer) -> View {
        match &self.inner {
            Inner::Board(game) => game.knowledge(viewer).view(),
            Inner::Banqi(game) if self.deal_is_public() => View {
                viewer,
                ..game.view(Viewer::Full)
            },
            Inner::Banqi(game) => game.view(viewer),
        }
    }

    /// The FEN of what `viewer` knows. A full FEN (and a public one once the deal is revealed)
    /// carries the deal as a seventh field.
    pub fn fen(&self, viewer: Viewer) -> String {
        match &self.inner {
            Inner::Board(game) => game.knowledge(viewer).fen(),
            Inner::Banqi(game) if self.deal_is_public() => game.fen(Viewer::Full),
            Inner::Banqi(game) => game.fen(viewer),
        }
    }

    /// Rebuilds a game from its stored record (see [`Game::move_record_texts`]): each reveal
    /// suffix must agree with the deal.
    pub fn replay(rules: Rules, deal: GameDeal, moves: &[String]) -> Result<Game, GameError> {
        let mut game = Game::new(rules, deal)?;
        for (i, text) in moves.iter().enumerate() {
            game.play_stored(text).map_err(|reason| GameError::Replay {
                number: i + 1,
                text: text.clone(),
                reason: Box::new(reason),
            })?;
        }
        Ok(game)
    }

    /// Rebuilds a game as it was recorded, whatever today's rules judge: the stored moves are
    /// replayed without stopping where today's judge would end the game, up to the first one
    /// today's rules refuse, and the game ends with `verdict`, the result given when it was
    /// played (`None`: it has none, it is running). Returns the game and how many of `moves`
    /// it holds (all of them unless the rules changed since). Views, FENs and move texts read
    /// the replayed part.
    ///
    /// ```
    /// use jieqi_rules::{DrawReason, Game, GameDeal, Outcome, Preset, Rules, Variant};
    ///
    /// let rules = Rules::new(Variant::Xiangqi, Preset::Standard);
    /// let moves = ["h2e2".to_owned(), "zz".to_owned()];
    /// let verdict = Outcome::Draw(DrawReason::Agreement);
    /// let (game, replayed) =
    ///     Game::replay_as_recorded(rules, GameDeal::None, &moves, Some(verdict))?;
    /// assert_eq!((game.outcome(), replayed), (Some(verdict), 1));
    /// # Ok::<(), jieqi_rules::GameError>(())
    /// ```
    pub fn replay_as_recorded(
        rules: Rules,
        deal: GameDeal,
        moves: &[String],
        verdict: Option<Outcome>,
    ) -> Result<(Game, usize), GameError> {
        let mut game = Game::new(rules, deal)?;
        let mut replayed = 0;
        for text in moves {
            if game.play_recorded(text).is_err() {
                break;
            }
            replayed += 1;
        }
        game.impose_verdict(verdict);
        Ok((game, replayed))
    }

    /// Plays a stored move (see [`Game::move_record_texts`]) as it was recorded: a result
    /// today's judge gave the position before it is set aside, since the game went on when it
    /// was played. The move itself must still be allowed.
    pub fn play_recorded(&mut self, text: &str) -> Result<(), GameError> {
        self.impose_verdict(None);
        self.play_stored(text)
    }

    /// Sets the result as it was recorded (or clears it: `None`), whatever the position says.
    /// For a stored game rebuilt by [`Game::play_recorded`]; a game in play gets its result
    /// from its moves and from [`Game::resign`], [`Game::agree_draw`], [`Game::time_out`] and
    /// [`Game::abort`].
    pub fn impose_verdict(&mut self, verdict: Option<Outcome>) {
        match &mut self.inner {
            Inner::Board(game) => game.impose_outcome(verdict),
            Inner::Banqi(game) => game.impose_outcome(verdict),
        }
    }

    fn play_stored(&mut self, text: &str) -> Result<(), GameError> {
        if let Some(outcome) = self.outcome() {
            return Err(GameError::GameOver(outcome));
        }
        match &mut self.inner {
            Inner::Board(game) => game.play_stored(text).map(|_| ()),
            Inner::Banqi(game) => {
                let record = game.play_record(text)?;
                // A stored flip must say what it showed, as `move_record_texts` writes it.
                if record.to_string() != text.trim() {
                    return Err(GameError::RevealMismatch(format!(
                        "the record says `{}` but the deal makes it `{record}`",
                        text.trim()
                    )));
                }
                Ok(())
            }
        }
    }

    /// The moves as stored: full coordinates with reveal suffixes (`b9c7c`), Banqi flips with
    /// what they showed (`c3=R`). They name reveals only, never a captured covered piece, but
    /// they are the store's format, not a display.
    pub fn move_record_texts(&self) -> Vec<String> {
        match &self.inner {
            Inner::Board(game) => game
                .records()
                .iter()
                .map(|r| match r.reveal {
                    Some(role) => format!("{}{}", r.mv, role.lower_char()),
                    None => r.mv.to_string(),
                })
                .collect(),
            Inner::Banqi(game) => game.history().iter().map(|r| r.to_string()).collect(),
        }
    }
}

/// The Banqi no-progress limit of `rules` (`0`: none).
fn banqi_limit(rules: &Rules) -> u32 {
    match revision::judged_no_progress(rules.no_progress_plies) {
        0 => u32::MAX,
        plies => plies,
    }
}
