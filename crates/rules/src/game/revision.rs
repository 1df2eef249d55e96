//! The rules revision: a number this crate bumps whenever a change alters a judgement (a move
//! allowed or refused, a result given or withheld, a reason named), so a stored game can say
//! which rules it was played and judged under.
//!
//! The golden verdicts (`tests/golden_verdicts.rs`, over `tests/golden/`) hold a corpus of
//! finished games with the verdicts this crate gave them at each revision: a judging change
//! that lands without a bump fails there. A bump adds a line to [`REVISIONS`] naming the
//! change, the words a running game's players are told when their game moves on to it.

/// The current rules revision. Bump it (and add a [`REVISIONS`] line and a golden corpus of
/// the new revision) with any change that alters a judgement.
pub const RULES_REVISION: u32 = 2;

/// One revision of the rules and what it changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RevisionNote {
    /// The revision.
    pub revision: u32,
    /// What changed from the one before, as one English sentence.
    pub change: &'static str,
}

/// Every revision, oldest first; the last is [`RULES_REVISION`].
pub const REVISIONS: &[RevisionNote] = &[
    RevisionNote {
        revision: 1,
        change: "The first recorded revision: the repetition judge, the presets' no-progress \
                 limits, the Tencent limit, and a game ending before both sides moved is \
                 aborted.",
    },
    RevisionNote {
        revision: 2,
        change: "Under the pychess rules a time-out is a draw when the opponent cannot mate \
                 (no chariot, horse, cannon or soldier, and in Jieqi no covered piece).",
    },
];

/// The changes a game played under `revision` has not seen, oldest first.
///
/// ```
/// use jieqi_rules::game::{RULES_REVISION, changes_since};
///
/// assert_eq!(changes_since(RULES_REVISION).count(), 0);
/// assert_eq!(changes_since(0).count(), RULES_REVISION as usize);
/// ```
pub fn changes_since(revision: u32) -> impl Iterator<Item = &'static RevisionNote> {
    REVISIONS
        .iter()
        .filter(move |note| note.revision > revision)
}

/// The no-progress limit that judges a game whose rules say `plies` (`0`: none). Always
/// `plies`, except under [`testing::alter_judging`].
pub(crate) fn judged_no_progress(plies: u32) -> u32 {
    #[cfg(feature = "test-hooks")]
    if testing::judging_altered() && plies > 20 {
        return plies - 20;
    }
    plies
}

/// What tests of the other crates need from the rules: a deliberately changed judging rule
/// for tests of what must not change with the rules (a stored verdict, a rating), and a long
/// game that ends nothing. With the `test-hooks` feature only, never in a release build.
#[cfg(feature = "test-hooks")]
pub mod testing {
    use std::collections::HashSet;
    use std::sync::atomic::{AtomicBool, Ordering};

    use crate::game::{Game, GameDeal, Preset, Rules};
    use crate::types::Variant;
    use crate::view::Viewer;

    static ALTERED: AtomicBool = AtomicBool::new(false);

    /// Turns the altered judgement on or off for the whole process: while on, every
    /// no-progress limit above 20 plies is 20 plies shorter (a game that ended on the limit,
    /// or went past the new one, is judged differently, or no longer replays).
    pub fn alter_judging(on: bool) {
        ALTERED.store(on, Ordering::SeqCst);
    }

    pub(crate) fn judging_altered() -> bool {
        ALTERED.load(Ordering::SeqCst)
    }

    /// `plies` plies of a standard Jieqi game dealt `deal` (letters, as
    /// [`GameDeal::from_letters`] reads them) that end nothing: no move gives check, repeats
    /// a position or ends the game. A move that takes a covered piece is played whenever there
    /// is one (each is a private reveal to its captor); the others are chosen by a fixed
    /// pseudo-random sequence. Returns the moves (coordinates) and how many take a covered
    /// piece. The platforms' fast-game tests play it. Panics if the deal cannot be read or
    /// the game runs out of quiet moves: a test's mistake.
    pub fn quiet_game(deal: &str, plies: usize) -> (Vec<String>, usize) {
        let rules = Rules::new(Variant::Jieqi, Preset::Standard);
        let deal = GameDeal::from_letters(Variant::Jieqi, deal).expect("deal");
        let mut game = Game::new(rules, deal).expect("game");
        let mut seen = HashSet::from([game.fen(Viewer::Full)]);
        let mut moves = Vec::new();
        let mut captures = 0;
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        for ply in 0..plies {
            let mut quiet = Vec::new();
            let mut taking = Vec::new();
            for text in game.legal_move_texts() {
                let mut next = game.clone();
                if next.play_text(&text).is_err()
                    || next.outcome().is_some()
                    || next.view(Viewer::Public).check.is_some()
                    || seen.contains(&next.fen(Viewer::Full))
                {
                    continue;
                }
                if next.captured_covered_by(ply).is_some() {
                    taking.push((text, next));
                } else {
                    quiet.push((text, next));
                }
            }
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let (text, next) = if taking.is_empty() {
                assert!(!quiet.is_empty(), "no quiet move at ply {ply}");
                let i = (seed >> 33) as usize % quiet.len();
                quiet.swap_remove(i)
            } else {
                captures += 1;
                taking.swap_remove(0)
            };
            seen.insert(next.fen(Viewer::Full));
            game = next;
            moves.push(text);
        }
        (moves, captures)
    }
}
