//! What an adapter hands the service: one platform event, already turned into typed values.

use std::fmt;
use std::str::FromStr;
use std::time::SystemTime;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::ids::{ChallengeId, ChatId, GameId, IdempotencyKey, User};

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

impl User {
    /// The same user with a display name safe to print anywhere.
    fn cleaned(mut self) -> User {
        self.name = clean_text(&self.name, NAME_LONGEST);
        if self.name.trim().is_empty() {
            self.name = self.id.id.chars().take(NAME_LONGEST).collect();
        }
        self
    }
}

impl Request {
    /// The request as the service works with it: names and text without control or
    /// bidirectional characters, names cut short. Done once where a request enters the
    /// service, so every later echo of a name is safe.
    pub(crate) fn cleaned(mut self) -> Request {
        self.user = self.user.cleaned();
        self.mentioned = self.mentioned.into_iter().map(User::cleaned).collect();
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
}

/// What a button does. Encoded into at most 64 bytes of `[a-z0-9_]` (Telegram callback data
/// and deep-link start parameters), carrying ids only, never anything secret; except
/// [`ButtonAction::Link`], which opens a page and never comes back to the bot.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ButtonAction {
    /// Accept that challenge.
    Accept(ChallengeId),
    /// Decline that challenge.
    Decline(ChallengeId),
    /// Resign that game (asks for a confirmation first).
    Resign(GameId),
    /// Yes, resign that game: the confirmation a first Resign asks for.
    ResignConfirm(GameId),
    /// Offer a draw in that game, or accept the opponent's offer.
    OfferDraw(GameId),
    /// Review that finished game (`/review`).
    Review(GameId),
    /// Open this web address (the game's live page): a link button, never pressed back to
    /// the bot. After the others, so records written before it read the same.
    Link(String),
    /// Ask for a personal link to play that game on its web board (Discord): answered
    /// privately to the player who pressed it.
    PlayOnBoard(GameId),
    /// Open this web address inside Telegram as a Mini App (a `web_app` button, allowed in
    /// private chats only); elsewhere a plain link.
    App(String),
    /// Resign that game, pressed under the board after this many plies: a press under an
    /// older board is answered with the game as it stands instead (the board is old). After
    /// the others, so records written before it read the same.
    ResignAt(GameId, u32),
    /// Offer a draw in that game (or accept the offer), pressed under the board after this
    /// many plies; as [`ButtonAction::ResignAt`].
    OfferDrawAt(GameId, u32),
}

/// Button data that is not ours (or from an older version of the bot).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("this button is not one of mine any more: use the commands instead (/help)")]
pub struct ButtonDecodeError(pub String);

impl ButtonAction {
    /// The compact form for callback data, custom ids and `/start` deep links: `acc_c4f7k`,
    /// `dec_c4f7k`, `res_g7k2`, `rsy_g7k2`, `drw_g7k2`, `rev_g7k2`, `ply_g7k2`; a board's
    /// buttons with the board's ply after the game, `res_g7k2_14`, `drw_g7k2_14`; a link's
    /// address.
    pub fn encode(&self) -> String {
        match self {
            ButtonAction::Accept(id) => format!("acc_{id}"),
            ButtonAction::Decline(id) => format!("dec_{id}"),
            ButtonAction::Resign(id) => format!("res_{id}"),
            ButtonAction::ResignConfirm(id) => format!("rsy_{id}"),
            ButtonAction::OfferDraw(id) => format!("drw_{id}"),
            ButtonAction::Review(id) => format!("rev_{id}"),
            ButtonAction::PlayOnBoard(id) => format!("ply_{id}"),
            ButtonAction::ResignAt(id, ply) => format!("res_{id}_{ply}"),
            ButtonAction::OfferDrawAt(id, ply) => format!("drw_{id}_{ply}"),
            ButtonAction::Link(url) | ButtonAction::App(url) => url.clone(),
        }
    }

    /// True for a Resign button (whether or not it names its board): adapters put it on a
    /// row of its own.
    pub fn is_resign(&self) -> bool {
        matches!(self, ButtonAction::Resign(_) | ButtonAction::ResignAt(..))
    }

    /// Reads what [`ButtonAction::encode`] wrote.
    pub fn decode(s: &str) -> Result<ButtonAction, ButtonDecodeError> {
        let bad = || ButtonDecodeError(s.chars().take(64).collect());
        let (verb, id) = s.trim().split_once('_').ok_or_else(bad)?;
        if let Some((game, ply)) = id.split_once('_') {
            let game = game.parse().map_err(|_| bad())?;
            if !ply.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad());
            }
            let ply = ply.parse().map_err(|_| bad())?;
            return match verb {
                "res" => Ok(ButtonAction::ResignAt(game, ply)),
                "drw" => Ok(ButtonAction::OfferDrawAt(game, ply)),
                _ => Err(bad()),
            };
        }
        match verb {
            "acc" => Ok(ButtonAction::Accept(id.parse().map_err(|_| bad())?)),
            "dec" => Ok(ButtonAction::Decline(id.parse().map_err(|_| bad())?)),
            "res" => Ok(ButtonAction::Resign(id.parse().map_err(|_| bad())?)),
            "rsy" => Ok(ButtonAction::ResignConfirm(id.parse().map_err(|_| bad())?)),
            "drw" => Ok(ButtonAction::OfferDraw(id.parse().map_err(|_| bad())?)),
            "rev" => Ok(ButtonAction::Review(id.parse().map_err(|_| bad())?)),
            "ply" => Ok(ButtonAction::PlayOnBoard(id.parse().map_err(|_| bad())?)),
            _ => Err(bad()),
        }
    }
}

impl fmt::Display for ButtonAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.encode())
    }
}

impl FromStr for ButtonAction {
    type Err = ButtonDecodeError;

    fn from_str(s: &str) -> Result<ButtonAction, ButtonDecodeError> {
        ButtonAction::decode(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn button_actions_round_trip_in_deep_link_safe_letters() {
        let actions = [
            ButtonAction::Accept("c4f7k".parse().unwrap()),
            ButtonAction::Decline("c4f7k".parse().unwrap()),
            ButtonAction::Resign("g7k2".parse().unwrap()),
            ButtonAction::ResignConfirm("g7k2".parse().unwrap()),
            ButtonAction::OfferDraw("g7k2".parse().unwrap()),
            ButtonAction::Review("g7k2".parse().unwrap()),
            ButtonAction::PlayOnBoard("g7k2".parse().unwrap()),
            ButtonAction::ResignAt("g7k2".parse().unwrap(), 0),
            ButtonAction::OfferDrawAt("g7k2".parse().unwrap(), 4_294_967_295),
        ];
        for action in actions {
            let data = action.encode();
            assert!(data.len() <= 64);
            assert!(
                data.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
            );
            assert_eq!(ButtonAction::decode(&data), Ok(action));
        }
    }

    #[test]
    fn cleaning_drops_controls_and_bidi_overrides_and_cuts() {
        assert_eq!(clean_text("a\u{202E}b\u{0007}c\nd", 10), "abc d");
        assert_eq!(clean_text("abcdef", 3), "abc…");
        assert_eq!(clean_text("abc", 3), "abc");
    }

    #[test]
    fn foreign_button_data_is_refused_not_panicked_on() {
        for data in [
            "",
            "acc",
            "acc_",
            "acc_g7k2",
            "res_c4f7k",
            "xyz_g7k2",
            "é_ü",
            "res_g7k2_",
            "res_g7k2_x",
            "res_g7k2_-1",
            "res_g7k2_4294967296",
            "acc_c4f7k_3",
            "drw_c4f7k_3",
            "res_g7k2_3_4",
            "res_g7k2_+3",
        ] {
            assert!(ButtonAction::decode(data).is_err(), "{data}");
        }
    }
}
