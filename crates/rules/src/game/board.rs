//! A Xiangqi or Jieqi game on the 9x10 board: the position with full knowledge, the secret
//! deal, the history of plies with what each revealed and captured, and the result.
//!
//! Everything that may leave the server goes through [`super::knowledge`], which reads this
//! game only through [`BoardGame::knowledge`]; that is the one place that decides who knows
//! what, and the deal is passed on only to those entitled to it.

use crate::deal::Deal;
use crate::moves::{Move, MoveRecord};
use crate::outcome::{DrawReason, Outcome, WinReason};
use crate::position::{MoveOptions, Position};
use crate::setup::{Setup, start_role};
use crate::types::{Cell, Piece, Role, Side, Square, Variant};
use crate::view::Viewer;

use super::error::GameError;
use super::knowledge::{Knowledge, KnownCapture, KnownPly};
use super::options::{CapturedCoveredVisibleTo, RepetitionRule, Rules};
use super::repetition::{self, LongForcing, PlyFacts, TENCENT_LIMIT};

/// A Xiangqi or Jieqi game in progress or over.
#[derive(Clone)]
pub(crate) struct BoardGame {
    rules: Rules,
    /// The position the game started from, as everyone knows it (no deal).
    start: Setup,
    /// The true types of the covered pieces (identity for Xiangqi, which has none).
    deal: Deal,
    start_zobrist: u64,
    position: Position,
    /// What each ply did (server knowledge: captured covered pieces by true type).
    records: Vec<MoveRecord>,
    /// What the repetition rules need of each ply, in step with `records`.
    facts: Vec<PlyFacts>,
    /// How many plies had been played after the last capture.
    last_capture_ply: usize,
    outcome: Option<Outcome>,
}

impl BoardGame {
    /// A game at the start position of `rules.variant` (Xiangqi or Jieqi).
    pub(crate) fn new(rules: Rules, deal: Option<Deal>) -> Result<BoardGame, GameError> {
        let setup = match rules.variant {
            Variant::Jieqi => Setup::jieqi_start(),
            _ => Setup::xiangqi_start(),
        };
        BoardGame::from_setup(rules, setup, deal)
    }

    /// A game from `setup` (Xiangqi or Jieqi, as `rules.variant` says) with `deal` for its
    /// covered pieces (`None`: there are none). The captured group of `setup` is public.
    pub(crate) fn from_setup(
        rules: Rules,
        setup: Setup,
        deal: Option<Deal>,
    ) -> Result<BoardGame, GameError> {
        let options = MoveOptions {
            covered_advisor_may_leave_palace: rules.covered_advisor_may_leave_palace,
        };
        let deal = deal.unwrap_or_else(|| Deal::identity(&setup));
        let position = Position::from_setup(setup.clone(), rules.variant, options)
            .map_err(|e| GameError::BadStart(e.to_string()))?;
        let mut game = BoardGame {
            rules,
            start: setup,
            deal,
            start_zobrist: position.zobrist(),
            position,
            records: Vec::new(),
            facts: Vec::new(),
            last_capture_ply: 0,
            outcome: None,
        };
        // A position taken up from a FEN may already be over (no legal move).
        game.outcome = game.judge();
        Ok(game)
    }

    /// The side that moved first in this game (Red, unless it started from a FEN with Black
    /// to move).
    pub(crate) fn first_side(&self) -> Side {
        self.start.side_to_move
    }

    pub(crate) fn side_to_move(&self) -> Side {
        self.position.side_to_move()
    }

    pub(crate) fn ply(&self) -> usize {
        self.records.len()
    }

    pub(crate) fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Whether `side` has a chariot, horse, cannon, soldier or covered piece on the board.
    pub(crate) fn has_attackers(&self, side: Side) -> bool {
        self.position.occupied_cells().any(|(_, cell)| match cell {
            Cell::Piece(piece) => {
                piece.side == side
                    && matches!(
                        piece.role,
                        Role::Chariot | Role::Horse | Role::Cannon | Role::Soldier
                    )
            }
            Cell::Covered(owner) => owner == Some(side),
            Cell::Empty => false,
        })
    }

    pub(crate) fn set_outcome(&mut self, outcome: Outcome) {
        if self.outcome.is_none() {
            self.outcome = Some(outcome);
        }
    }

    /// Sets or clears the result whatever the position says (a recorded game rebuilt).
    pub(crate) fn impose_outcome(&mut self, outcome: Option<Outcome>) {
        self.outcome = outcome;
    }

    pub(crate) fn record(&self, ply: usize) -> Option<&MoveRecord> {
        self.records.get(ply)
    }

    pub(crate) fn records(&self) -> &[MoveRecord] {
        &self.records
    }

    /// The legal moves now, sorted by (from, to); empty once the game is over.
    pub(crate) fn legal_moves(&self) -> Vec<Move> {
        if self.outcome.is_some() {
            return Vec::new();
        }
        self.moves_allowed()
    }

    /// The moves the rules allow now, the game's result aside: the position's legal moves
    /// less those the Tencent limit forbids.
    fn moves_allowed(&self) -> Vec<Move> {
        let mut moves = self.position.legal_move_vec();
        if self.rules.repetition == RepetitionRule::TencentLimit && self.tencent_pressure() {
            moves.retain(|&mv| self.long_forcing(mv).is_none());
        }
        moves
    }

    /// Plays `mv` if the rules allow it, and updates the result.
    pub(crate) fn play(&mut self, mv: Move) -> Result<MoveRecord, GameError> {
        if let Some(outcome) = self.outcome {
            return Err(GameError::GameOver(outcome));
        }
        if let Some(reason) = self.why_illegal(mv) {
            return Err(GameError::IllegalMove(reason));
        }
        let mover = self.position.side_to_move();
        // Only the Tencent limit needs the chases of every ply; the judge of repeated
        // positions finds those of a repeated cycle when one occurs (see `judge`).
        let before =
            (self.rules.repetition == RepetitionRule::TencentLimit).then(|| self.position.clone());
        let (record, _undo) = self.position.play_with_deal(mv, &self.deal);
        let facts = facts_after(before.as_ref(), &self.position, mv, mover);
        if record.captured.is_some() {
            self.last_capture_ply = self.records.len() + 1;
        }
        self.records.push(record);
        self.facts.push(facts);
        if self.rules.repetition == RepetitionRule::ThirdOccurrenceJudged {
            self.find_cycle_chases();
        }
        self.outcome = self.judge();
        Ok(record)
    }

    /// Why `mv` may not be played now, as a sentence, or `None` if it may.
    pub(crate) fn why_illegal(&self, mv: Move) -> Option<String> {
        if let Some(reason) = self.position.why_illegal(mv) {
            return Some(format!("{mv} cannot be played: {reason}"));
        }
        if self.rules.repetition != RepetitionRule::TencentLimit || !self.tencent_pressure() {
            return None;
        }
        self.long_forcing(mv).map(|forcing| match forcing {
            LongForcing::Check => format!(
                "{mv} cannot be played: it would give check for the {}th turn in a row, and \
                 these rules allow at most {TENCENT_LIMIT}; play a move that does not check",
                TENCENT_LIMIT + 1
            ),
            LongForcing::Chase(target) => format!(
                "{mv} cannot be played: it would chase the piece on {target} for the {}th turn in \
                 a row, and these rules allow at most {TENCENT_LIMIT}; leave that piece alone",
                TENCENT_LIMIT + 1
            ),
        })
    }

    /// Whether the side to move has checked, or chased one piece, `TENCENT_LIMIT` turns in a
    /// row, so that its next move needs the Tencent test. Cheap, so most positions skip it.
    fn tencent_pressure(&self) -> bool {
        let side = self.position.side_to_move();
        let history = &self.facts;
        if repetition::check_run(history, side) >= TENCENT_LIMIT {
            return true;
        }
        let Some(last_own) = history.iter().rposition(|p| p.mover == side) else {
            return false;
        };
        let upto = &history[..=last_own];
        repetition::squares(upto[last_own].chased)
            .any(|t| repetition::chase_run(upto, side, t) >= TENCENT_LIMIT)
    }

    /// Whether the Tencent limit forbids `mv` (a legal move of the position).
    ///
    /// A move that reveals a covered piece is never forbidden: what the revealed piece attacks
    /// depends on the deal, and legality must not (players would learn the deal from which
    /// moves are refused). Such a move cannot belong to a repeating cycle anyway.
    fn long_forcing(&self, mv: Move) -> Option<LongForcing> {
        if matches!(self.position.cell(mv.from), Cell::Covered(_)) {
            return None;
        }
        let mover = self.position.side_to_move();
        let mut after = self.position.clone();
        // The captured piece's true type changes nothing on the board after the move, so the
        // fake type stands in for it and the deal stays out of legality.
        let captured_covered = match after.cell(mv.to) {
            Cell::Covered(Some(side)) => Some(start_role(side, mv.to).unwrap_or(Role::Soldier)),
            _ => None,
        };
        let _undo = after.play_unchecked(mv, None, captured_covered);
        let candidate = facts_after(Some(&self.position), &after, mv, mover);
        repetition::tencent_forbids(&self.facts, &candidate)
    }

    /// If the last ply made its position occur for the third time, works out the chases of
    /// the plies since the first occurrence, the cycle the judge reads.
    ///
    /// Nothing irreversible happens in such a cycle (a capture or a reveal would make the
    /// position differ), so the position at the first occurrence is the current one, and
    /// replaying the cycle's moves from it gives every position of the cycle again.
    fn find_cycle_chases(&mut self) {
        let Some(first) = repetition::cycle_start(self.start_zobrist, &self.facts) else {
            return;
        };
        let mut position = self.position.clone();
        for facts in &mut self.facts[first..] {
            let before = position.clone();
            let _undo = position.play_unchecked(facts.mv, None, None);
            facts.chased = new_chases(&before, &position, facts.mover);
        }
    }

    /// The result after the last ply, if the game is over.
    fn judge(&self) -> Option<Outcome> {
        let side = self.position.side_to_move();
        if self.moves_allowed().is_empty() {
            let reason = if self.position.is_check() {
                WinReason::Checkmate
            } else {
                WinReason::NoLegalMove
            };
            return Some(Outcome::Win {
                winner: !side,
                reason,
            });
        }
        if let Some(outcome) =
            repetition::judge(self.rules.repetition, self.start_zobrist, &self.facts)
        {
            return Some(outcome);
        }
        let quiet = self.records.len() - self.last_capture_ply;
        let limit = super::revision::judged_no_progress(self.rules.no_progress_plies) as usize;
        (limit > 0 && quiet >= limit).then_some(Outcome::Draw(DrawReason::NoProgress))
    }

    /// Whether `viewer` knows the true type of a covered piece captured by `capturer`.
    fn knows_capture(&self, viewer: Viewer, capturer: Side) -> bool {
        if self.knows_deal(viewer) {
            return true;
        }
        match self.rules.captured_covered_visible_to {
            CapturedCoveredVisibleTo::Everyone => true,
            CapturedCoveredVisibleTo::Nobody => false,
            CapturedCoveredVisibleTo::Capturer => viewer == Viewer::Player(capturer),
        }
    }

    /// Whether `viewer` knows the whole deal: the server always, everyone once the game is
    /// over if the rules reveal it then.
    fn knows_deal(&self, viewer: Viewer) -> bool {
        viewer == Viewer::Full || (self.outcome.is_some() && self.rules.reveal_deal_at_end)
    }

    /// What `viewer` knows of this game. The only way views, FENs and move texts see it.
    pub(crate) fn knowledge(&self, viewer: Viewer) -> Knowledge {
        let plies = self
            .records
            .iter()
            .map(|r| {
                let captured = r.captured.map(|c| {
                    if !c.was_covered || self.knows_capture(viewer, r.mover.side) {
                        KnownCapture::Known(c.piece)
                    } else {
                        KnownCapture::Unknown(c.piece.side)
                    }
                });
                KnownPly {
                    mv: r.mv,
                    mover: r.mover,
                    reveal: r.reveal,
                    captured,
                }
            })
            .collect();
        let board: [Cell; Square::COUNT] = std::array::from_fn(|i| {
            Square::from_index(i).map_or(Cell::Empty, |sq| self.position.cell(sq))
        });
        let deal = self.knows_deal(viewer).then(|| {
            Square::all()
                .filter_map(|sq| match board[sq.index()] {
                    Cell::Covered(Some(side)) => self
                        .deal
                        .role_at(sq)
                        .map(|role| (sq, Piece::new(side, role))),
                    _ => None,
                })
                .collect()
        });
        let check = if self.position.is_check() {
            self.position.general(self.position.side_to_move())
        } else {
            None
        };
        Knowledge {
            viewer,
            variant: self.rules.variant,
            start: self.start.clone(),
            board,
            side_to_move: self.position.side_to_move(),
            halfmove_clock: self.position.halfmove_clock(),
            fullmove_number: self.position.fullmove_number(),
            check,
            plies,
            deal,
        }
    }

    /// Plays a stored move (`h2e2`, or `b9c7c` with the reveal suffix), checking the suffix
    /// against the deal.
    pub(crate) fn play_stored(&mut self, text: &str) -> Result<MoveRecord, GameError> {
        let (mv, suffix) = read_stored(text)?;
        let expected = match self.position.cell(mv.from) {
            Cell::Covered(_) => self.deal.role_at(mv.from),
            _ => None,
        };
        if suffix != expected {
            let sentence = match (expected, suffix) {
                (Some(role), None) => format!(
                    "the move reveals a {role} but the record does not say so (expected `{mv}{}`)",
                    role.lower_char()
                ),
                (None, Some(_)) => {
                    format!("the move reveals nothing, so the record `{text}` should be `{mv}`")
                }
                (Some(role), Some(found)) => format!(
                    "the record says the move reveals a {found} but the deal has a {role} there"
                ),
                (None, None) => String::new(),
            };
            return Err(GameError::RevealMismatch(sentence));
        }
        self.play(mv)
    }
}

/// Reads a stored coordinate move with an optional lowercase reveal suffix.
fn read_stored(text: &str) -> Result<(Move, Option<Role>), GameError> {
    let bad = || {
        GameError::BadRecord(format!(
            "`{text}` is not a stored move: expected two points and an optional revealed piece \
             letter, like `h2e2` or `b9c7c`"
        ))
    };
    let text = text.trim();
    let from = text
        .get(0..2)
        .ok_or_else(bad)?
        .parse::<Square>()
        .map_err(|_| bad())?;
    let to = text
        .get(2..4)
        .ok_or_else(bad)?
        .parse::<Square>()
        .map_err(|_| bad())?;
    let rest = text.get(4..).ok_or_else(bad)?;
    let mut chars = rest.chars();
    let suffix = match (chars.next(), chars.next()) {
        (None, _) => None,
        (Some(c), None) if c.is_ascii_lowercase() => Some(Role::from_char(c).ok_or_else(bad)?),
        _ => return Err(bad()),
    };
    Ok((Move::new(from, to), suffix))
}

/// What the repetition rules need to know about the ply `mv` by `mover` that led from
/// `before` to `after`. Without `before` the ply's chases are left empty, to be found if a
/// judged cycle needs them.
fn facts_after(before: Option<&Position>, after: &Position, mv: Move, mover: Side) -> PlyFacts {
    PlyFacts {
        zobrist: after.zobrist(),
        mover,
        mv,
        gave_check: after.is_check(),
        chased: before.map_or(0, |before| new_chases(before, after, mover)),
    }
}

/// The enemy pieces `mover` chases after its ply from `before` to `after` and did not chase
/// before it. The ply moves no enemy piece, so each stands on the same point in both.
fn new_chases(before: &Position, after: &Position, mover: Side) -> u128 {
    let chased = after.chased_by(mover, u128::MAX);
    if chased == 0 {
        return 0;
    }
    chased & !before.chased_by(mover, chased)
}
