//! A Discord interaction's JSON, as the gateway delivers it, read the way the Discord adapter
//! reads it: refused by serde, asking nothing of the service, or turned into the request the
//! service gets, never a panic. A slash command becomes one command line of single-spaced
//! words without control characters. Seeds: `seeds/discord_interaction` (slash commands
//! with options and resolved users, subcommands, buttons, autocompletion).

#![no_main]

use jieqi_service::Input;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(Some(request)) = jieqi_discord::request_from_interaction_json(data) else {
        return;
    };
    if let Input::Text(line) = &request.input {
        assert!(line.starts_with('/'), "{line:?}");
        assert!(!line.chars().any(char::is_control), "{line:?}");
        assert!(!line.contains("  "), "{line:?}");
    }
});
