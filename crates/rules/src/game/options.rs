//! The rules a game is played under: one [`Rules`] value per game, chosen from a [`Preset`]
//! and stored with the game, so a game never changes its rules after it starts.
//!
//! The presets are the table of `rules.md` ("Rule presets for Jieqi"). Xiangqi uses the same
//! no-progress and repetition settings (the Jieqi-only options have no effect there); Banqi
//! follows its own ruleset inside [`crate::banqi`], and only `reveal_deal_at_end` and
//! `no_progress_plies` apply to it.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::types::Variant;

/// A named set of rule choices.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Preset {
    /// 120 plies without capture draw; third occurrence judged (perpetual check, then
    /// perpetual chase, loses).
    #[default]
    Standard,
    /// PyChess: 100 plies without capture draw; a covered advisor may leave the palace.
    Pychess,
    /// Tencent: 80 plies without capture draw; checking or chasing the same piece more than six
    /// turns in a row is illegal.
    Tencent,
    /// Vietnam: a position occurring for the sixth time is a draw.
    Vietnam,
}

impl Preset {
    /// Every preset, the default first.
    pub const ALL: [Preset; 4] = [
        Preset::Standard,
        Preset::Pychess,
        Preset::Tencent,
        Preset::Vietnam,
    ];

    /// The lowercase name used in commands and storage: `standard`, `pychess`, `tencent`,
    /// `vietnam`.
    pub const fn name(self) -> &'static str {
        match self {
            Preset::Standard => "standard",
            Preset::Pychess => "pychess",
            Preset::Tencent => "tencent",
            Preset::Vietnam => "vietnam",
        }
    }

    /// One English sentence saying what the preset changes, for help texts.
    pub const fn summary(self) -> &'static str {
        match self {
            Preset::Standard => {
                "120 plies without a capture draw; on the third repetition perpetual check \
                 loses, then perpetual chase loses, otherwise it is a draw."
            }
            Preset::Pychess => {
                "100 plies without a capture draw; a covered advisor may leave the palace; \
                 repetition as in standard."
            }
            Preset::Tencent => {
                "80 plies without a capture draw; checking, or chasing the same piece, more \
                 than 6 turns in a row is not allowed."
            }
            Preset::Vietnam => {
                "120 plies without a capture draw; the sixth occurrence of a position is a draw."
            }
        }
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A preset name that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("`{0}` is not a rule preset: choose standard, pychess, tencent or vietnam")]
pub struct ParsePresetError(pub String);

impl FromStr for Preset {
    type Err = ParsePresetError;

    fn from_str(s: &str) -> Result<Preset, ParsePresetError> {
        let name = s.trim().to_ascii_lowercase();
        Preset::ALL
            .into_iter()
            .find(|p| p.name() == name)
            .ok_or_else(|| ParsePresetError(s.to_owned()))
    }
}

/// Who learns the true type of a covered piece when it is captured.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CapturedCoveredVisibleTo {
    /// Only the player who captured it (told in private). Its owner does not learn it.
    #[default]
    Capturer,
    /// Nobody until the end of the game (and then only with `reveal_deal_at_end`).
    Nobody,
    /// Everyone, at once.
    Everyone,
}

impl CapturedCoveredVisibleTo {
    /// Every choice, the default first.
    pub const ALL: [CapturedCoveredVisibleTo; 3] = [
        CapturedCoveredVisibleTo::Capturer,
        CapturedCoveredVisibleTo::Nobody,
        CapturedCoveredVisibleTo::Everyone,
    ];

    /// The lowercase name used in commands and storage: `capturer`, `nobody`, `everyone`.
    pub const fn name(self) -> &'static str {
        match self {
            CapturedCoveredVisibleTo::Capturer => "capturer",
            CapturedCoveredVisibleTo::Nobody => "nobody",
            CapturedCoveredVisibleTo::Everyone => "everyone",
        }
    }
}

impl fmt::Display for CapturedCoveredVisibleTo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A visibility choice that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error(
    "`{0}` is not a choice for who sees captured covered pieces: choose capturer, nobody or everyone"
)]
pub struct ParseVisibilityError(pub String);

impl FromStr for CapturedCoveredVisibleTo {
    type Err = ParseVisibilityError;

    fn from_str(s: &str) -> Result<CapturedCoveredVisibleTo, ParseVisibilityError> {
        let name = s.trim().to_ascii_lowercase();
        CapturedCoveredVisibleTo::ALL
            .into_iter()
            .find(|v| v.name() == name)
            .ok_or_else(|| ParseVisibilityError(s.to_owned()))
    }
}

/// How repeated positions end a Xiangqi or Jieqi game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RepetitionRule {
    /// On the third occurrence of a position the cycle since its first occurrence is judged
    /// as the Asian rules judge it: the side that checked with every move of the cycle loses;
    /// else the side that chased one piece with every move loses (a chase is a new, legal
    /// attack on an unprotected piece, or on a chariot by a horse or cannon; generals and
    /// soldiers chase freely); else (both or neither) it is a draw.
    #[default]
    ThirdOccurrenceJudged,
    /// The sixth occurrence of a position is a draw; nobody is blamed.
    SixthOccurrenceDraw,
    /// Checking, or chasing the same piece, more than six of one's turns in a row is illegal;
    /// repetition itself never ends the game (the no-progress limit does).
    TencentLimit,
}

/// Every rule choice a game is played under. Build it with [`Rules::new`] and change single
/// fields if a game wants to depart from its preset.
///
/// ```
/// use jieqi_rules::{CapturedCoveredVisibleTo, Preset, Rules, Variant};
///
/// let rules = Rules::new(Variant::Jieqi, Preset::Pychess);
/// assert_eq!(rules.no_progress_plies, 100);
/// assert!(rules.covered_advisor_may_leave_palace);
/// assert_eq!(rules.captured_covered_visible_to, CapturedCoveredVisibleTo::Capturer);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Which game.
    pub variant: Variant,
    /// The preset the other fields came from (kept for display; the fields decide).
    pub preset: Preset,
    /// Who learns the true type of a captured covered piece (Jieqi).
    pub captured_covered_visible_to: CapturedCoveredVisibleTo,
    /// Whether the whole deal is shown publicly once the game ends (Jieqi and Banqi).
    pub reveal_deal_at_end: bool,
    /// Whether a covered advisor may step out of the palace (Jieqi; one online reading).
    pub covered_advisor_may_leave_palace: bool,
    /// Plies without a capture that end the game as a draw; `0` means no limit. In Banqi a
    /// flip counts as progress too (its own rule: 40 plies).
    pub no_progress_plies: u32,
    /// How repeated positions are judged (Xiangqi and Jieqi; Banqi draws on a threefold
    /// repetition of its own).
    pub repetition: RepetitionRule,
    /// Whether a time-out is a draw, not a loss, when the opponent cannot mate: has no piece
    /// that could ever cross the river and attack (no chariot, horse, cannon or soldier; in
    /// Jieqi no covered piece either, which may turn out to be any of them). `pychess` in
    /// Xiangqi and Jieqi, as lichess-style servers score it; the competition rules score
    /// every time-out a loss (`docs/rules.md`).
    pub timeout_draws_without_mating_material: bool,
}

impl Rules {
    /// The rules of `preset` for `variant`.
    pub fn new(variant: Variant, preset: Preset) -> Rules {
        let (no_progress_plies, repetition) = match preset {
            Preset::Standard | Preset::Pychess => {
                let plies = if preset == Preset::Pychess { 100 } else { 120 };
                (plies, RepetitionRule::ThirdOccurrenceJudged)
            }
            Preset::Tencent => (80, RepetitionRule::TencentLimit),
            Preset::Vietnam => (120, RepetitionRule::SixthOccurrenceDraw),
        };
        Rules {
            variant,
            preset,
            captured_covered_visible_to: CapturedCoveredVisibleTo::Capturer,
            reveal_deal_at_end: true,
            covered_advisor_may_leave_palace: preset == Preset::Pychess,
            no_progress_plies: if variant == Variant::Banqi {
                40
            } else {
                no_progress_plies
            },
            repetition,
            timeout_draws_without_mating_material: preset == Preset::Pychess
                && variant != Variant::Banqi,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preset_names_round_trip() {
        for preset in Preset::ALL {
            assert_eq!(preset.to_string().parse::<Preset>(), Ok(preset));
        }
        assert_eq!(" Tencent ".parse::<Preset>(), Ok(Preset::Tencent));
        assert!("wxf".parse::<Preset>().is_err());
    }

    #[test]
    fn visibility_names_round_trip() {
        for v in CapturedCoveredVisibleTo::ALL {
            assert_eq!(v.to_string().parse::<CapturedCoveredVisibleTo>(), Ok(v));
        }
        assert!("owner".parse::<CapturedCoveredVisibleTo>().is_err());
    }

    #[test]
    fn banqi_counts_forty_plies_in_every_preset() {
        for preset in Preset::ALL {
            assert_eq!(Rules::new(Variant::Banqi, preset).no_progress_plies, 40);
        }
    }
}
