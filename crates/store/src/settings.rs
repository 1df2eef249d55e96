//! A chat's presentation choices (`/settings`): language, piece style, board orientation,
//! move notation, whether each move gets a new board message or one message is edited, who
//! may create a tournament there, and the chat's time zone (what a start time typed there
//! means, and how its events' moments are written). Only the chat's admins change them. A
//! person's own choices for the pictures only they see ([`PersonalSettings`]) are theirs,
//! kept on their player record.

use std::fmt;
use std::str::FromStr;

use jieqi_rules::Side;
use jieqi_rules::notation::MoveNotation;
use serde::{Deserialize, Serialize};

use crate::language::Language;
pub use crate::utc_offset::{BadOffset, UtcOffset};

/// Piece pictures.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Style {
    /// Traditional characters (帥仕相俥傌炮兵 / 將士象車馬砲卒).
    #[default]
    Characters,
    /// Symbols for people who do not read the characters.
    Symbols,
}

/// From whose side public boards are drawn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Orientation {
    /// Red at the bottom.
    #[default]
    Red,
    /// Black at the bottom.
    Black,
}

/// How moves are written in captions and records.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Notation {
    /// `h2e2`.
    Coordinates,
    /// `C2.5`.
    Wxf,
    /// `炮二平五`, `马二进三`: simplified characters.
    Chinese,
    /// `炮二平五`, `傌二進三`: traditional characters.
    ChineseTraditional,
}

/// One board message per move, or one message edited after each move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BoardMode {
    /// A new board message after every move (the earlier ones keep their buttons, which act
    /// on the game; the newest loses its own when the game ends).
    #[default]
    PerMove,
    /// One board message, edited after every move.
    Edited,
}

/// Who may create a tournament in the chat (`/tournament swiss|round-robin|arena`).
/// Starting and calling one off stay with its organiser or an admin.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TournamentCreators {
    /// The chat's admins (Discord: Manage Server; Telegram: group administrators).
    #[default]
    Admins,
    /// Any member.
    Everyone,
}

/// A chat's settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ChatSettings {
    /// Language of everything the bot says there.
    pub language: Language,
    /// Piece pictures.
    pub style: Style,
    /// Public board orientation.
    pub orientation: Orientation,
    /// Move notation in captions.
    pub notation: Notation,
    /// Board messages.
    pub board: BoardMode,
    /// Who may create a tournament. Added by codec schema 9 (older chats read as admins).
    pub tournaments: TournamentCreators,
    /// The chat's time zone: what `at 20:00` means there and how its events' moments are
    /// written. Added by codec schema 9 (older chats read as UTC).
    pub zone: UtcOffset,
}

impl ChatSettings {
    /// Defaults for a new chat whose language is `language` (Chinese chats get Chinese
    /// notation). Only a new chat takes its notation from its language: later the two are
    /// separate settings, and changing the language keeps the notation.
    pub fn for_language(language: Language) -> ChatSettings {
        ChatSettings {
            language,
            style: Style::default(),
            orientation: Orientation::default(),
            notation: if language == Language::Zh {
                Notation::Chinese
            } else {
                Notation::Wxf
            },
            board: BoardMode::default(),
            tournaments: TournamentCreators::default(),
            zone: UtcOffset::UTC,
        }
    }

    /// Whether the chat's settings are what a chat had before schema 9 could say more: only
    /// such settings can be written for an older release (`codec::older`).
    pub fn fit_schema_8(&self) -> bool {
        self.tournaments == TournamentCreators::Admins && self.zone == UtcOffset::UTC
    }
}

/// A person's own choices for the pictures only they see (`/peek`, private reveals).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PersonalSettings {
    /// Piece pictures; `None`: the chat's.
    pub style: Option<Style>,
    /// Which side is at the bottom; `None`: their own side.
    pub orientation: Option<Orientation>,
}

impl Orientation {
    /// With `side` at the bottom.
    pub fn of(side: Side) -> Orientation {
        match side {
            Side::Red => Orientation::Red,
            Side::Black => Orientation::Black,
        }
    }

    pub fn side(self) -> Side {
        match self {
            Orientation::Red => Side::Red,
            Orientation::Black => Side::Black,
        }
    }
}

impl Notation {
    pub fn move_notation(self) -> MoveNotation {
        match self {
            Notation::Coordinates => MoveNotation::Coordinates,
            Notation::Wxf => MoveNotation::Wxf,
            Notation::Chinese => MoveNotation::Chinese,
            Notation::ChineseTraditional => MoveNotation::ChineseTraditional,
        }
    }
}

macro_rules! named_choices {
    ($ty:ident { $($variant:ident => [$($name:literal),+]),+ $(,)? }) => {
        impl $ty {
            /// Every choice.
            pub const ALL: &'static [$ty] = &[$($ty::$variant),+];

            /// The name used in `/settings`.
            pub const fn name(self) -> &'static str {
                match self {
                    $($ty::$variant => named_choices!(@first $($name),+)),+
                }
            }
        }

        impl fmt::Display for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }

        impl FromStr for $ty {
            type Err = ();

            fn from_str(s: &str) -> Result<$ty, ()> {
                let s = s.trim().to_lowercase();
                $(if [$($name),+].contains(&s.as_str()) {
                    return Ok($ty::$variant);
                })+
                Err(())
            }
        }
    };
    (@first $first:literal $(, $rest:literal)*) => { $first };
}

named_choices!(Style {
    Characters => ["characters", "chars", "chinese", "traditional"],
    Symbols => ["symbols", "symbol", "icons"],
});
named_choices!(Orientation {
    Red => ["red"],
    Black => ["black"],
});
named_choices!(Notation {
    Coordinates => ["coordinates", "coords", "uci", "iccs"],
    Wxf => ["wxf"],
    Chinese => ["chinese", "zh", "simplified", "zh-hans"],
    ChineseTraditional => ["traditional", "chinese-traditional", "zh-hant"],
});
named_choices!(BoardMode {
    PerMove => ["new", "per-move", "each"],
    Edited => ["edit", "edited", "one"],
});
named_choices!(TournamentCreators {
    Admins => ["admins", "admin", "administrators"],
    Everyone => ["everyone", "anyone", "all", "members"],
});

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_names_round_trip() {
        for style in Style::ALL {
            assert_eq!(style.name().parse::<Style>(), Ok(*style));
        }
        for mode in BoardMode::ALL {
            assert_eq!(mode.name().parse::<BoardMode>(), Ok(*mode));
        }
        for notation in Notation::ALL {
            assert_eq!(notation.name().parse::<Notation>(), Ok(*notation));
        }
        for creators in TournamentCreators::ALL {
            assert_eq!(creators.name().parse(), Ok(*creators));
        }
        assert_eq!("BLACK".parse::<Orientation>(), Ok(Orientation::Black));
        assert!("purple".parse::<Orientation>().is_err());
    }

    #[test]
    fn chinese_chats_default_to_chinese_notation() {
        assert_eq!(
            ChatSettings::for_language(Language::Zh).notation,
            Notation::Chinese
        );
        assert_eq!(
            ChatSettings::for_language(Language::Vi).notation,
            Notation::Wxf
        );
    }

    #[test]
    fn new_chats_leave_tournaments_to_admins_and_keep_utc() {
        let settings = ChatSettings::for_language(Language::Zh);
        assert_eq!(settings.tournaments, TournamentCreators::Admins);
        assert_eq!(settings.zone, UtcOffset::UTC);
        assert!(settings.fit_schema_8());
    }
}
