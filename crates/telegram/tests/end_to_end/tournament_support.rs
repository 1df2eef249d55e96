//! What the tournament and arena tests share: the hostile player's name and how the service
//! shows it, the public address their links start with, and reading the group's posts.

use crate::fake_bot_api::Post;
use crate::harness::{GROUP, Harness};

pub const PUBLIC_URL: &str = "https://jieqi.example";

/// The hostile player's first name (no username, so the bot calls them by it).
pub const HOSTILE: &str = "<b>Eve</b> *bold* _it_ [x](https://evil.example) \u{202e}reversed\u{202c} & a name far too long to print whole";

/// The hostile name as the service keeps it: the override characters dropped, cut to 64
/// characters with an ellipsis.
pub fn hostile_shown() -> String {
    let kept: String = HOSTILE
        .chars()
        .filter(|c| !matches!(c, '\u{202a}'..='\u{202e}'))
        .collect();
    let mut shown: String = kept.chars().take(64).collect();
    shown.push('…');
    shown
}

/// Makes `players` (id, name; `@name` has that username, any other name is [`HOSTILE`]'s)
/// known to the fake, each having said `/start` to the bot privately, so that their private
/// notices can reach them.
pub async fn introduce(h: &Harness, players: &[(i64, String)]) {
    for (id, name) in players {
        match name.strip_prefix('@') {
            Some(username) => h.fake.add_user(*id, username, Some(username)),
            None => h.fake.add_user(*id, HOSTILE, None),
        }
        h.fake.say(*id, *id, "/start");
        h.post_containing(*id, "Hello").await;
    }
}

/// Nothing went out with markup: the hostile name reached the group as typed (no `<b>`
/// taken for bold), without its right-to-left override.
pub fn assert_hostile_name_is_plain_text(h: &Harness) {
    assert!(
        h.fake
            .calls()
            .iter()
            .all(|c| !c.params.contains_key("parse_mode")),
        "plain text only"
    );
    let group_texts = h.texts_to(GROUP);
    assert!(
        group_texts.iter().any(|t| t.contains("<b>Eve</b> *bold*")),
        "the name shown as typed"
    );
    assert!(
        group_texts.iter().all(|t| !t.contains('\u{202e}')),
        "no right-to-left override"
    );
}

/// The Telegram id of the player called `name`.
pub fn id_of(players: &[(i64, String)], name: &str) -> i64 {
    players
        .iter()
        .find(|(_, n)| n == name)
        .unwrap_or_else(|| panic!("no player called {name:?}"))
        .0
}

/// A PNG's width and height, decoding it whole (so a broken picture fails the test).
pub fn png_size(bytes: &[u8]) -> (u32, u32) {
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let mut reader = decoder.read_info().expect("a PNG header");
    let mut pixels = vec![0; reader.output_buffer_size().expect("a size")];
    let frame = reader.next_frame(&mut pixels).expect("a PNG that decodes");
    (frame.width, frame.height)
}

/// The group's posts whose text contains `needle`.
pub fn posts_with(h: &Harness, needle: &str) -> Vec<Post> {
    h.posts(GROUP)
        .into_iter()
        .filter(|p| p.text.contains(needle))
        .collect()
}
