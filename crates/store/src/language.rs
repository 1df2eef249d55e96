//! The languages the bot speaks: what a chat's settings and a board's caption record. The
//! sentences themselves (Fluent bundles) are the service's `i18n`.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// A language the bot speaks.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub enum Language {
    /// English.
    #[default]
    En,
    /// Simplified Chinese.
    Zh,
    /// Vietnamese.
    Vi,
}

impl Language {
    /// Every language.
    pub const ALL: [Language; 3] = [Language::En, Language::Zh, Language::Vi];

    /// The code used in `/settings language <code>`: `en`, `zh`, `vi`.
    pub const fn code(self) -> &'static str {
        match self {
            Language::En => "en",
            Language::Zh => "zh",
            Language::Vi => "vi",
        }
    }

    /// The language of a client's language tag (`vi`, `zh-hans`, `zh_CN`, `en-US`), if we
    /// speak it.
    pub fn from_tag(tag: &str) -> Option<Language> {
        let primary = tag
            .trim()
            .split(['-', '_'])
            .next()
            .unwrap_or_default()
            .to_ascii_lowercase();
        Language::ALL.into_iter().find(|l| l.code() == primary)
    }

    /// The language's place in [`Language::ALL`].
    pub fn index(self) -> usize {
        match self {
            Language::En => 0,
            Language::Zh => 1,
            Language::Vi => 2,
        }
    }
}

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// A language code we do not speak.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("`{0}` is not a language I speak: choose en, zh or vi")]
pub struct ParseLanguageError(pub String);

impl FromStr for Language {
    type Err = ParseLanguageError;

    fn from_str(s: &str) -> Result<Language, ParseLanguageError> {
        Language::from_tag(s).ok_or_else(|| ParseLanguageError(s.to_owned()))
    }
}
