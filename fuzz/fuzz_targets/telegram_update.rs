//! A Telegram update's JSON, as the Bot API sends it by `getUpdates` or to the webhook, read
//! the way the Telegram adapter reads it: refused by serde, ignored, or turned into the
//! request the service gets, never a panic. A request is keyed by the update id and carries
//! a command line (or a button's action) for the service. Seeds: `seeds/telegram_update`
//! (commands, edits, mentions, replies, forum topics, button presses).

#![no_main]

use std::time::{Duration, UNIX_EPOCH};

use jieqi_service::Input;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let now = UNIX_EPOCH + Duration::from_secs(1_700_000_100);
    let Ok(Some(request)) = jieqi_telegram::request_from_update_json(data, "JieqiBot", now) else {
        return;
    };
    assert!(request.received_at <= now, "a request is never from the future");
    if let Input::Text(line) = &request.input {
        assert!(line.starts_with('/'), "only commands are read: {line:?}");
        // The head `/cmd@JieqiBot` loses its addressee; the arguments are the user's own and
        // may name anyone, the bot included (`/challenge @@JieqiBot`, found by this target).
        let head = line.split_whitespace().next().unwrap_or_default();
        assert!(!head.contains('@'), "the addressee is taken off: {line:?}");
    }
});
