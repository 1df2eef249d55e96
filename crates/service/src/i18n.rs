//! Translations: every sentence the bot says comes from `assets/i18n/<lang>.ftl` (Fluent), and
//! the rules course's lessons from `assets/i18n/course/<lang>.ftl`, in the same bundle.
//!
//! English is complete; Chinese (简体) and Vietnamese have the same keys (a test checks the
//! key sets are equal). The files are compiled in, so a deployed binary cannot lose them.

use std::collections::BTreeSet;
use std::fmt;

use std::sync::Mutex;

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};

use unic_langid::LanguageIdentifier;

pub use jieqi_store::language::{Language, ParseLanguageError};

/// Each language's files, loaded into one bundle: the bot's sentences, then the rules
/// course's lessons (`/learn`), kept apart because they are long and change with the course.
const SOURCES: [(Language, &[&str]); 3] = [
    (
        Language::En,
        &[
            include_str!("../../../assets/i18n/en.ftl"),
            include_str!("../../../assets/i18n/course/en.ftl"),
        ],
    ),
    (
        Language::Zh,
        &[
            include_str!("../../../assets/i18n/zh.ftl"),
            include_str!("../../../assets/i18n/course/zh.ftl"),
        ],
    ),
    (
        Language::Vi,
        &[
            include_str!("../../../assets/i18n/vi.ftl"),
            include_str!("../../../assets/i18n/course/vi.ftl"),
        ],
    ),
];

/// Keys asked for that no file had (tests assert this stays empty).
static MISSING: Mutex<BTreeSet<String>> = Mutex::new(BTreeSet::new());

/// Message ids that were asked for but are missing from a translation file.
pub fn missing_keys() -> Vec<String> {
    MISSING
        .lock()
        .map(|set| set.iter().cloned().collect())
        .unwrap_or_default()
}

/// The loaded translation files.
pub struct Translations {
    bundles: Vec<FluentBundle<FluentResource>>,
}

impl fmt::Debug for Translations {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Translations")
            .field("languages", &Language::ALL)
            .finish()
    }
}

impl Default for Translations {
    fn default() -> Self {
        Translations::load()
    }
}

impl Translations {
    /// Loads the compiled-in files. A syntax error in a file drops only the broken entries
    /// (logged); the test suite keeps the files clean.
    pub fn load() -> Translations {
        let bundles = SOURCES
            .iter()
            .map(|(language, sources)| {
                let id: LanguageIdentifier = language.code().parse().unwrap_or_default();
                let mut bundle = FluentBundle::new_concurrent(vec![id]);
                // Chat clients show the isolation marks Fluent adds around arguments as junk.
                bundle.set_use_isolating(false);
                for source in *sources {
                    let resource = match FluentResource::try_new((*source).to_owned()) {
                        Ok(resource) => resource,
                        Err((resource, errors)) => {
                            tracing::error!(%language, ?errors, "translation file has errors");
                            resource
                        }
                    };
                    if let Err(errors) = bundle.add_resource(resource) {
                        tracing::error!(%language, ?errors, "translation file has duplicate keys");
                    }
                }
                bundle
            })
            .collect();
        Translations { bundles }
    }

    /// The message `id` in `language`, with `args` filled in. Falls back to English, then to
    /// the id itself (and records the id in [`missing_keys`]).
    pub fn text(&self, language: Language, id: &str, args: &[(&str, Arg<'_>)]) -> String {
        let fluent_args = (!args.is_empty()).then(|| {
            let mut fa = FluentArgs::new();
            for (name, value) in args {
                fa.set(*name, value.to_fluent());
            }
            fa
        });
        for lang in [language, Language::En] {
            let Some(bundle) = self.bundles.get(lang.index()) else {
                continue;
            };
            let Some(pattern) = bundle.get_message(id).and_then(|m| m.value()) else {
                continue;
            };
            let mut errors = Vec::new();
            let text = bundle.format_pattern(pattern, fluent_args.as_ref(), &mut errors);
            if !errors.is_empty() {
                tracing::warn!(id, %lang, ?errors, "translation has unresolved arguments");
                if let Ok(mut missing) = MISSING.lock() {
                    missing.insert(format!("{lang}:{id} (arguments)"));
                }
            }
            if lang != language
                && let Ok(mut missing) = MISSING.lock()
            {
                missing.insert(format!("{language}:{id}"));
            }
            return text.into_owned();
        }
        if let Ok(mut missing) = MISSING.lock() {
            missing.insert(id.to_owned());
        }
        id.to_owned()
    }

    /// The ids of every message in `language`'s file.
    pub fn keys(language: Language) -> BTreeSet<String> {
        let sources = SOURCES
            .iter()
            .find(|(l, _)| *l == language)
            .map(|(_, s)| *s)
            .unwrap_or_default();
        let mut keys = BTreeSet::new();
        for source in sources {
            let resource = match FluentResource::try_new((*source).to_owned()) {
                Ok(r) => r,
                Err((r, _)) => r,
            };
            keys.extend(resource.entries().filter_map(|entry| match entry {
                fluent_syntax::ast::Entry::Message(m) => Some(m.id.name.to_owned()),
                _ => None,
            }));
        }
        keys
    }
}

/// An argument of a translated message.
#[derive(Clone, Copy, Debug)]
pub enum Arg<'a> {
    /// Text (names, moves, ids).
    Str(&'a str),
    /// A number (selects plural forms).
    Num(i64),
}

impl Arg<'_> {
    fn to_fluent(self) -> FluentValue<'static> {
        match self {
            Arg::Str(s) => FluentValue::from(s.to_owned()),
            Arg::Num(n) => FluentValue::from(n),
        }
    }
}

impl<'a> From<&'a str> for Arg<'a> {
    fn from(s: &'a str) -> Arg<'a> {
        Arg::Str(s)
    }
}

impl<'a> From<&'a String> for Arg<'a> {
    fn from(s: &'a String) -> Arg<'a> {
        Arg::Str(s)
    }
}

impl From<i64> for Arg<'_> {
    fn from(n: i64) -> Self {
        Arg::Num(n)
    }
}

impl From<usize> for Arg<'_> {
    fn from(n: usize) -> Self {
        Arg::Num(i64::try_from(n).unwrap_or(i64::MAX))
    }
}

impl From<u32> for Arg<'_> {
    fn from(n: u32) -> Self {
        Arg::Num(i64::from(n))
    }
}

impl From<u64> for Arg<'_> {
    fn from(n: u64) -> Self {
        Arg::Num(i64::try_from(n).unwrap_or(i64::MAX))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_language_has_exactly_the_english_keys() {
        let english = Translations::keys(Language::En);
        assert!(english.len() > 50, "en.ftl looks empty");
        for language in [Language::Zh, Language::Vi] {
            let keys = Translations::keys(language);
            let missing: Vec<_> = english.difference(&keys).collect();
            let extra: Vec<_> = keys.difference(&english).collect();
            assert!(
                missing.is_empty() && extra.is_empty(),
                "{language}: missing {missing:?}, extra {extra:?}"
            );
        }
    }

    #[test]
    fn translation_files_parse_without_errors() {
        for (language, sources) in SOURCES {
            for source in sources {
                assert!(
                    FluentResource::try_new((*source).to_owned()).is_ok(),
                    "a {language} translation file has syntax errors"
                );
            }
        }
    }

    #[test]
    fn client_language_tags_map_to_our_languages() {
        assert_eq!(Language::from_tag("vi"), Some(Language::Vi));
        assert_eq!(Language::from_tag("zh-hans"), Some(Language::Zh));
        assert_eq!(Language::from_tag("zh_CN"), Some(Language::Zh));
        assert_eq!(Language::from_tag("en-US"), Some(Language::En));
        assert_eq!(Language::from_tag("de"), None);
        assert_eq!(Language::from_tag(""), None);
    }

    #[test]
    fn arguments_are_filled_in_without_isolation_marks() {
        let translations = Translations::load();
        let text = translations.text(
            Language::En,
            "refuse-not-your-turn",
            &[("player", Arg::Str("bob"))],
        );
        assert!(text.contains("bob"), "{text}");
        assert!(!text.contains('\u{2068}'));
    }
}
