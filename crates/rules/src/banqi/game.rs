//! A whole Banqi game: the position, its deal, the actions played, the draw counters and the
//! result. This is what the service stores and replays.

use super::action::{Action, ActionRecord};
use super::deal::{BanqiDeal, BanqiDealError};
use super::error::BanqiError;
use super::fen::BanqiFenError;
use super::position::{BanqiPosition, BanqiUndo, RepetitionKey};
use crate::outcome::{DrawReason, Outcome, WinReason};
use crate::types::Side;

/// Plies without a flip or a capture after which the game is drawn.
pub const NO_PROGRESS_PLIES: u32 = 40;

/// How many times the same position (board, face-down set, side to move) must occur for a
/// draw by repetition.
pub const REPETITION_OCCURRENCES: usize = 3;

/// A Banqi game: position, deal, history, draw counters and outcome.
///
/// ```
/// use jieqi_rules::banqi::{BanqiDeal, BanqiGame};
/// use jieqi_rules::{Side, Viewer};
///
/// let mut game = BanqiGame::new(BanqiDeal::fixed());
/// assert_eq!(game.side_to_move(), None); // nobody has a colour yet
/// let record = game.play(game.parse_action("b4")?)?;
/// assert_eq!(record.to_string(), "b4=p"); // a Black piece came up: the first player is Black
/// assert_eq!(game.first_player_side(), Some(Side::Black));
/// assert_eq!(game.side_to_move(), Some(Side::Red));
/// assert_eq!(game.fen(Viewer::Public), "?p??????/????????/????????/???????? w 0 2");
/// # Ok::<(), jieqi_rules::banqi::BanqiError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BanqiGame {
    position: BanqiPosition,
    deal: BanqiDeal,
    history: Vec<ActionRecord>,
    undos: Vec<BanqiUndo>,
    /// `keys[i]` is the repetition key after `i` plies of this game.
    keys: Vec<RepetitionKey>,
    first_player: Option<Side>,
    outcome: Option<Outcome>,
    no_progress_plies: u32,
}

impl BanqiGame {
    /// A new game from the start, every piece face down, with `deal` under them.
    pub fn new(deal: BanqiDeal) -> BanqiGame {
        let position = BanqiPosition::start();
        BanqiGame {
            keys: vec![position.repetition_key()],
            position,
            deal,
            history: Vec::new(),
            undos: Vec::new(),
            first_player: None,
            outcome: None,
            no_progress_plies: NO_PROGRESS_PLIES,
        }
    }

    /// A game continuing from `position` with `deal` under its face-down squares. The
    /// deal must fit ([`BanqiDeal::fits`]). If colours are already assigned, who moved first
    /// is unknown ([`BanqiGame::first_player_side`] is `None`). A position that is already
    /// over (no legal action, or the no-progress count reached) gets its outcome at once.
    pub fn from_position(
        position: BanqiPosition,
        deal: BanqiDeal,
    ) -> Result<BanqiGame, BanqiDealError> {
        if !deal.fits(&position) {
            return Err(BanqiDealError::DoesNotFit);
        }
        let mut game = BanqiGame {
            keys: vec![position.repetition_key()],
            position,
            deal,
            history: Vec::new(),
            undos: Vec::new(),
            first_player: None,
            outcome: None,
            no_progress_plies: NO_PROGRESS_PLIES,
        };
        game.outcome = game.judged_outcome();
        Ok(game)
    }

    /// A game from a public or full Banqi FEN. A full FEN's deal is used; a public FEN gets
    /// [`BanqiDeal::fixed_for`] the position (for analysis: it is not anyone's secret).
    ///
    /// ```
    /// use jieqi_rules::banqi::BanqiGame;
    ///
    /// let game = BanqiGame::from_fen("????????/????????/????????/???????? - 0 1")?;
    /// assert_eq!(game.legal_action_texts().len(), 32);
    /// # Ok::<(), jieqi_rules::banqi::BanqiFenError>(())
    /// ```
    pub fn from_fen(fen: &str) -> Result<BanqiGame, BanqiFenError> {
        let (position, deal) = BanqiPosition::from_full_fen(fen)?;
        let deal = deal.unwrap_or_else(|| BanqiDeal::fixed_for(&position));
        Ok(BanqiGame::from_position(position, deal)?)
    }

    /// The same game with another no-progress limit (plies without flip or capture; the
    /// default is [`NO_PROGRESS_PLIES`]; `u32::MAX` turns the rule off). The current
    /// position is judged again, unless the game already ended for another reason.
    pub fn with_no_progress_plies(mut self, plies: u32) -> BanqiGame {
        self.no_progress_plies = plies;
        if matches!(
            self.outcome,
            None | Some(Outcome::Draw(DrawReason::NoProgress))
        ) {
            self.outcome = self.judged_outcome();
        }
        self
    }

    /// The current public position.
    pub fn position(&self) -> &BanqiPosition {
        &self.position
    }

    /// The deal: server-only while the game runs.
    pub fn deal(&self) -> &BanqiDeal {
        &self.deal
    }

    /// Whose turn it is; `None` before the first flip has assigned colours.
    pub fn side_to_move(&self) -> Option<Side> {
        self.position.side_to_move()
    }

    /// The colour of the player who moved first, once the first flip has shown it (the
    /// colour that came up). `None` before that, and for a game taken up from a position
    /// whose colours were already assigned.
    pub fn first_player_side(&self) -> Option<Side> {
        self.first_player
    }

    /// Plies played in this game.
    pub fn ply(&self) -> usize {
        self.history.len()
    }

    /// Every legal action, sorted as [`BanqiPosition::legal_actions`]; none once the game
    /// is over.
    pub fn legal_actions(&self) -> Vec<Action> {
        if self.outcome.is_some() {
            return Vec::new();
        }
        self.position.legal_actions()
    }

    /// The legal actions as text (`c3`, `c3c4`), sorted as strings: for autocompletion and
    /// the command line.
    pub fn legal_action_texts(&self) -> Vec<String> {
        let mut texts: Vec<String> = self.legal_actions().iter().map(|a| a.to_string()).collect();
        texts.sort_unstable();
        texts
    }

    /// Why `action` cannot be played now, or `None` when it can.
    pub fn why_illegal(&self, action: Action) -> Option<BanqiError> {
        match self.outcome {
            Some(outcome) => Some(BanqiError::GameOver(outcome)),
            None => self.position.why_illegal(action),
        }
    }

    /// Reads what a player typed (`c3`, `c3c4`) and checks it is legal now, explaining why
    /// not.
    pub fn parse_action(&self, text: &str) -> Result<Action, BanqiError> {
        if let Some(outcome) = self.outcome {
            return Err(BanqiError::GameOver(outcome));
        }
        let action: Action = text.parse()?;
        match self.position.why_illegal(action) {
            Some(reason) => Err(reason),
            None => Ok(action),
        }
    }

    /// Plays `action` if legal, then judges the game: the side left with no legal action
    /// loses; the third occurrence of a position or the no-progress limit draws.
    pub fn play(&mut self, action: Action) -> Result<ActionRecord, BanqiError> {
        if let Some(reason) = self.why_illegal(action) {
            return Err(reason);
        }
        let colourless = self.position.side_to_move().is_none();
        let (record, undo) = self.position.play_unchecked(action, &self.deal);
        if colourless {
            self.first_player = Some(record.mover);
        }
        self.history.push(record);
        self.undos.push(undo);
        self.keys.push(self.position.repetition_key());
        self.outcome = self.judged_outcome();
        Ok(record)
    }

    /// [`BanqiGame::parse_action`] then [`BanqiGame::play`].
    pub fn play_text(&mut self, text: &str) -> Result<ActionRecord, BanqiError> {
        let action = self.parse_action(text)?;
        self.play(action)
    }

    /// Plays an action from a stored record (`c3=R` or `c3c4`, as [`ActionRecord`] writes
    /// it), checking that a flip's piece is what the deal has there: replaying a game
    /// against the wrong deal fails instead of silently changing history.
    pub fn play_record(&mut self, text: &str) -> Result<ActionRecord, BanqiError> {
        let (action, flipped) = Action::parse_record(text)?;
        if let (Action::Flip(square), Some(piece)) = (action, flipped)
            && self.position.is_legal(action)
            && self.deal.piece_at(square) != piece
        {
            return Err(BanqiError::RecordDoesNotMatchDeal(square));
        }
        self.play(action)
    }

    /// Takes back the last action and judges the position again (a result set with
    /// [`BanqiGame::set_outcome`] is cleared too). `None` when nothing was played.
    pub fn undo(&mut self) -> Option<ActionRecord> {
        let record = self.history.pop()?;
        let undo = self.undos.pop()?;
        self.keys.pop();
        self.position.undo(undo);
        if self.position.side_to_move().is_none() {
            self.first_player = None;
        }
        self.outcome = self.judged_outcome();
        Some(record)
    }

    /// The result, once there is one.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Ends the game for a reason the board does not know: resignation, agreed draw,
    /// time-out, abort (decided by the service).
    pub fn set_outcome(&mut self, outcome: Outcome) {
        self.outcome = Some(outcome);
    }

    /// Sets or clears the result whatever the position says (a recorded game rebuilt).
    pub(crate) fn impose_outcome(&mut self, outcome: Option<Outcome>) {
        self.outcome = outcome;
    }

    /// The actions played, in order.
    pub fn history(&self) -> &[ActionRecord] {
        &self.history
    }

    /// How many times the current position (board, face-down set, side to move) has occurred
    /// in this game, counting now.
    pub fn repetition_count(&self) -> usize {
        let Some(current) = self.keys.last() else {
            return 0;
        };
        // A flip or a capture cannot be undone by play, so no position before the last one
        // can come back: only the plies since then need comparing.
        let window = self.position.plies_since_progress() as usize + 1;
        self.keys
            .iter()
            .rev()
            .take(window)
            .filter(|key| *key == current)
            .count()
    }

    /// The result the rules give the current position, ignoring one set from outside.
    fn judged_outcome(&self) -> Option<Outcome> {
        let side = self.position.side_to_move()?;
        if !self.position.has_legal_action() {
            return Some(Outcome::Win {
                winner: !side,
                reason: WinReason::NoLegalMove,
            });
        }
        if self.repetition_count() >= REPETITION_OCCURRENCES {
            return Some(Outcome::Draw(DrawReason::Repetition));
        }
        if self.position.plies_since_progress() >= self.no_progress_plies {
            return Some(Outcome::Draw(DrawReason::NoProgress));
        }
        None
    }
}
