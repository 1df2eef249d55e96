//! What an adapter hands the service: one platform event, already turned into typed values.

use std::time::SystemTime;

pub use jieqi_store::message::{ButtonAction, ButtonDecodeError};

use crate::ids::{ChatId, IdempotencyKey, User};

/// One platform event: a command typed, a button pressed.
#[derive(Clone, Debug)]
pub struct Request {
    /// Unique per platform event; a key seen before returns the earlier answer.
    pub key: IdempotencyKey,
    /// Where it happened.
    pub chat: ChatId,
    /// True in a direct-message chat with the bot.
    pub is_private_chat: bool,
    /// True when the sender may change the chat's settings: a chat admin (Discord: Manage
    /// Server; Telegram: a group administrator), or anyone in a private chat or the terminal.
    /// An adapter that must ask the platform (Telegram) asks only for a `/settings` change,
    /// the one request that needs it, and leaves it false for others in groups.
    pub is_admin: bool,
    /// Who sent it.
    pub user: User,
    /// Users the platform resolved for this request (Discord user option, Telegram reply-to
    /// author, resolved `@mentions`).
    pub mentioned: Vec<User>,
    /// What was sent.
    pub input: Input,
    /// When the platform received it: the service's clock for deadlines.
    pub received_at: SystemTime,
}

/// The longest display name the service keeps (platforms allow far more on some surfaces,
/// and a name is repeated in captions and results).
const NAME_LONGEST: usize = 64;

/// True for characters that must never be echoed: control characters (they break lines and
/// terminals) and bidirectional controls (they reorder the text around them).
pub(crate) fn is_unsafe_char(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
        )
}

/// `text` without unsafe characters (whitespace controls become spaces) and at most
/// `longest` characters long, with an ellipsis when cut.
pub(crate) fn clean_text(text: &str, longest: usize) -> String {
    let mut cleaned = String::with_capacity(text.len().min(longest.saturating_mul(4)));
    let mut count = 0;
    for c in text.chars() {
        let c = if c.is_whitespace() && c.is_control() {
            ' '
        } else {
            c
        };
        if is_unsafe_char(c) {
            continue;
        }
        if count == longest {
            cleaned.push('…');
            break;
        }
        cleaned.push(c);
        count += 1;
    }
    cleaned
}

/// The same user with a display name safe to print anywhere.
fn cleaned_user(mut user: User) -> User {
    user.name = clean_text(&user.name, NAME_LONGEST);
    if user.name.trim().is_empty() {
        user.name = user.id.id.chars().take(NAME_LONGEST).collect();
    }
    user
}

impl Request {
    /// The request as the service works with it: names and text without control or
    /// bidirectional characters, names cut short. Done once where a request enters the
    /// service, so every later echo of a name is safe.
    pub(crate) fn cleaned(mut self) -> Request {
        self.user = cleaned_user(self.user);
        self.mentioned = self.mentioned.into_iter().map(cleaned_user).collect();
        if let Input::Text(text) = &mut self.input {
            *text = clean_text(text, usize::MAX);
        }
        self
    }
}

/// The content of a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// A command line: `/move h2e2`, `/challenge @bob jieqi red`, `/start acc_c4f7k`. Telegram's
    /// `/command@BotName` form is accepted.
    Text(String),
    /// A button press, parsed from callback data / custom ids with [`ButtonAction::decode`].
    Button(ButtonAction),
    /// A move tapped on the game's web board (or the Mini App): `/move <game> <play>` with
    /// the network delay the page measured for it, which a live game's clock gives back
    /// within its quota (`jieqi_clock`: at most 1 s a move, whatever the page claims).
    BoardMove {
        /// The game, as the page's address names it.
        game: crate::ids::GameId,
        /// The move as tapped (`h2e2`, Banqi `c3`).
        play: String,
        /// The page's measured round trip to the bot, less the bot's own time.
        lag: std::time::Duration,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cleaning_drops_controls_and_bidi_overrides_and_cuts() {
        assert_eq!(clean_text("a\u{202E}b\u{0007}c\nd", 10), "abc d");
        assert_eq!(clean_text("abcdef", 3), "abc…");
        assert_eq!(clean_text("abc", 3), "abc");
    }
}
