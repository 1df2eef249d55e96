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
/// and deep-link start parameters), carrying ids only, never anything secret.
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
}

/// Button data that is not ours (or from an older version of the bot).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("this button is not one of mine any more: use the commands instead (/help)")]
pub struct ButtonDecodeError(pub String);

impl ButtonAction {
    /// The compact form for callback data, custom ids and `/start` deep links: `acc_c4f7k`,
    /// `dec_c4f7k`, `res_g7k2`, `rsy_g7k2`, `drw_g7k2`.
    pub fn encode(&self) -> String {
        match self {
            ButtonAction::Accept(id) => format!("acc_{id}"),
            ButtonAction::Decline(id) => format!("dec_{id}"),
            ButtonAction::Resign(id) => format!("res_{id}"),
            ButtonAction::ResignConfirm(id) => format!("rsy_{id}"),
            ButtonAction::OfferDraw(id) => format!("drw_{id}"),
        }
    }

    /// Reads what [`ButtonAction::encode`] wrote.
    pub fn decode(s: &str) -> Result<ButtonAction, ButtonDecodeError> {
        let bad = || ButtonDecodeError(s.chars().take(64).collect());
        let (verb, id) = s.trim().split_once('_').ok_or_else(bad)?;
        match verb {
            "acc" => Ok(ButtonAction::Accept(id.parse().map_err(|_| bad())?)),
            "dec" => Ok(ButtonAction::Decline(id.parse().map_err(|_| bad())?)),
            "res" => Ok(ButtonAction::Resign(id.parse().map_err(|_| bad())?)),
            "rsy" => Ok(ButtonAction::ResignConfirm(id.parse().map_err(|_| bad())?)),
            "drw" => Ok(ButtonAction::OfferDraw(id.parse().map_err(|_| bad())?)),
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
    fn foreign_button_data_is_refused_not_panicked_on() {
        for data in [
            "",
            "acc",
            "acc_",
            "acc_g7k2",
            "res_c4f7k",
            "xyz_g7k2",
            "é_ü",
        ] {
            assert!(ButtonAction::decode(data).is_err(), "{data}");
        }
    }
}
