//! A chat command line with its options (`/challenge @ann xiangqi red 1h tencent`), read as
//! the service reads every platform's text: ignored, understood, or refused with a sentence
//! in each language the bot speaks, never a panic. The refusal repeats the user's words
//! only cut short and cleaned. Seeds: `seeds/command_line` (every command of
//! `docs/chat-surface.md` with its options, and some wrong ones).

#![no_main]

use std::sync::OnceLock;

use jieqi_service::i18n::Translations;
use jieqi_service::{Language, LineReading, read_command_line};
use libfuzzer_sys::fuzz_target;

static TRANSLATIONS: OnceLock<Translations> = OnceLock::new();

fuzz_target!(|text: &str| {
    let translations = TRANSLATIONS.get_or_init(Translations::load);
    for language in Language::ALL {
        if let LineReading::Refused(reason) =
            read_command_line(text, Some("JieqiBot"), translations, language)
        {
            assert!(!reason.is_empty());
            assert!(
                !reason.chars().any(|c| c.is_control() && c != '\n'),
                "{reason:?}"
            );
        }
    }
});
