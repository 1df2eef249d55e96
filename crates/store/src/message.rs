//! What the service asks adapters to deliver: messages, their destinations, buttons and
//! pictures, and the outbox entries that carry them.
//!
//! A message is fully prepared here (translated text, rendered picture); an adapter only maps
//! it onto its platform. Public messages are built from public views only.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::ids::{ChallengeId, ChatId, GameId, IdempotencyKey, Platform, TournamentId, UserId};

/// Where a message goes.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Destination {
    /// A chat, seen by everyone in it.
    Chat(ChatId),
    /// A direct message to one user.
    Private(UserId),
    /// An answer to the request itself (only in [`Answer::replies`]): Discord answers the
    /// interaction (ephemeral: only the requester sees it), Telegram replies to their message.
    ReplyToRequester {
        /// Only the requester should see it, where the platform allows.
        ephemeral: bool,
    },
    /// The answer to a request the platform let us give later (a deferred Discord
    /// interaction), delivered through the outbox by whichever process gets to it: the
    /// answer stored under the request's key, or, if the request never went through, this
    /// message (saying so). Its lane is the request's own. Added last: records written
    /// before it read unchanged.
    DeferredReply(DeferredReply),
    /// A board of this chat whose buttons went stale (a newer board is under it): an edit
    /// (`Message::replaces`) that greys out or removes the buttons it lists, sent only when
    /// the chat has room to spare (`Sender::spare`). Its lane is the chat's own stale-button
    /// lane, beside the chat's lane, so it never holds back a board. Added last: records
    /// written before it read unchanged.
    StaleButtons(ChatId),
}

/// A request whose answer is given later through the outbox (see
/// [`Destination::DeferredReply`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct DeferredReply {
    /// Where the request was made: its public replies are posted there.
    pub chat: ChatId,
    /// The request's key: the answer stored under it is the one delivered.
    pub request: IdempotencyKey,
    /// What the platform needs to answer the request, as the adapter wrote it (Discord: the
    /// application id and the interaction's token, valid for 15 minutes).
    pub reply_token: String,
}

impl Destination {
    /// The platform of a chat, private or deferred-reply destination.
    pub fn platform(&self) -> Option<Platform> {
        match self {
            Destination::Chat(chat) => Some(chat.platform),
            Destination::Private(user) => Some(user.platform),
            Destination::DeferredReply(reply) => Some(reply.chat.platform),
            Destination::StaleButtons(chat) => Some(chat.platform),
            Destination::ReplyToRequester { .. } => None,
        }
    }
}

/// A picture to attach.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Image {
    /// PNG or GIF bytes.
    pub bytes: Vec<u8>,
    /// A file name with the right extension (`g7k2-12.png`).
    pub file_name: String,
}

/// A button under a message.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Button {
    /// Translated label.
    pub label: String,
    /// What pressing it does.
    pub action: ButtonAction,
    /// On Telegram, make it a deep link `t.me/<bot>?start=<action.encode()>`, so that pressing
    /// it opens the private chat with the bot (letting it send DMs) and accepts in one step.
    pub deep_link_accept: bool,
}

/// What a message is about (adapters may style kinds differently; tests select by it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MessageKind {
    /// A challenge with Accept / Decline buttons (or an edit of one).
    Challenge,
    /// A public board after a move (or the first board, or a repost).
    Board,
    /// A private message telling a player what a covered piece they captured was.
    Reveal,
    /// The end of a game: final board, result, deal and proof, move record.
    Result,
    /// A private message that a game started and that reveals will come there.
    GameStarted,
    /// A draw offer with its accept button (or an edit of one).
    DrawOffer,
    /// A player's own view (`/peek`).
    Peek,
    /// A move record and FEN, or the GIF of a finished game (`/history`).
    History,
    /// Lists: `/games`, `/stats`, `/leaderboard`.
    Listing,
    /// `/rules`, `/help`, `/settings`, `/start` texts.
    Guide,
    /// A refusal: why a request was not carried out and what to do.
    Refusal,
    /// A short confirmation or status note.
    Notice,
    /// A game's review (`/review`): the summary with its graph, or one costly move.
    Review,
}

/// One message to deliver.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Message {
    /// Where.
    pub to: Destination,
    /// Already translated; names of mentioned users appear in it as their display names.
    pub text: String,
    /// A picture (board PNG, or the game GIF).
    pub image: Option<Image>,
    /// Buttons under it (replacing the earlier post's buttons when this is an edit).
    pub buttons: Vec<Button>,
    /// Users to ping (the player to move, the challenged player).
    pub mentions: Vec<UserId>,
    /// An edit of an earlier post instead of a new one. `image: None` in an edit keeps the
    /// earlier picture; an empty `text` with it keeps the earlier text too (only the buttons
    /// change: a finished game's last board losing its own). See
    /// [`OutboxEntry::replaces_ref`].
    pub replaces: Option<OutboxId>,
    /// What it is about.
    pub kind: MessageKind,
    /// The game it belongs to, if any.
    pub game: Option<GameId>,
}

impl Message {
    /// A plain text message.
    pub fn text(to: Destination, kind: MessageKind, text: impl Into<String>) -> Message {
        Message {
            to,
            text: text.into(),
            image: None,
            buttons: Vec::new(),
            mentions: Vec::new(),
            replaces: None,
            kind,
            game: None,
        }
    }

    /// The same message about a game.
    pub fn about(mut self, game: &GameId) -> Message {
        self.game = Some(game.clone());
        self
    }

    /// The same message with a picture.
    pub fn with_image(mut self, image: Option<Image>) -> Message {
        self.image = image;
        self
    }

    /// The same message with buttons.
    pub fn with_buttons(mut self, buttons: Vec<Button>) -> Message {
        self.buttons = buttons;
        self
    }

    /// The same message pinging these users.
    pub fn with_mentions(mut self, mentions: Vec<UserId>) -> Message {
        self.mentions = mentions;
        self
    }

    /// The same message as an edit of an earlier post.
    pub fn replacing(mut self, earlier: Option<OutboxId>) -> Message {
        self.replaces = earlier;
        self
    }
}

/// What [`crate::Service::handle`] returns: replies for the requester only (refusals, acks,
/// `/peek` on Discord). Everything else goes through the outbox.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Answer {
    /// The replies, in order.
    pub replies: Vec<Message>,
}

impl Answer {
    /// An answer with one reply.
    pub fn reply(message: Message) -> Answer {
        Answer {
            replies: vec![message],
        }
    }
}

/// The id of an outbox entry: increasing in the order entries were created.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct OutboxId(pub u64);

impl std::fmt::Display for OutboxId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// A message waiting in the outbox.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutboxEntry {
    /// Its id; report it back with [`crate::Service::delivered`].
    pub id: OutboxId,
    /// What to deliver.
    pub message: Message,
    /// How many delivery rounds failed so far.
    pub attempts: u32,
    /// For an edit: the platform reference of the post it replaces, as the adapter reported
    /// it to [`crate::Service::delivered`]. `None` for an edit whose earlier post never got
    /// through: send it as a new message then.
    pub replaces_ref: Option<String>,
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
    /// Open the game's board inside Discord as the bot's Activity ("Play in Discord"): the
    /// Discord adapter answers the press itself with `LAUNCH_ACTIVITY`; it never reaches the
    /// service's commands. Last, so records written before it read the same.
    PlayInDiscord(GameId),
    /// Resign that game, pressed under the board after this many plies: a press under an
    /// older board is answered with the game as it stands instead (the board is old). After
    /// the others, so records written before it read the same.
    ResignAt(GameId, u32),
    /// Offer a draw in that game (or accept the offer), pressed under the board after this
    /// many plies; as [`ButtonAction::ResignAt`].
    OfferDrawAt(GameId, u32),
    /// A rematch of that finished game, colours swapped, the same terms (under its result).
    /// After the others, so records written before it read the same; an older fleet's messages leave it
    /// off (`fleet::older_message`).
    Rematch(GameId),
    /// Join that tournament (`/tournament join`), pressed under its announcement. After the
    /// others (`Rematch` too), so records written before it read the same.
    JoinTournament(TournamentId),
    /// Leave that tournament (`/tournament leave`: before its start out of the list, after
    /// it no more pairings), pressed under its announcement.
    LeaveTournament(TournamentId),
}

/// Button data that is not ours (or from an older version of the bot).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("this button is not one of mine any more: use the commands instead (/help)")]
pub struct ButtonDecodeError(pub String);

impl ButtonAction {
    /// The compact form for callback data, custom ids and `/start` deep links: `acc_c4f7k`,
    /// `dec_c4f7k`, `res_g7k2`, `rsy_g7k2`, `drw_g7k2`, `rev_g7k2`, `ply_g7k2`, `act_g7k2`,
    /// `rem_g7k2`; a board's buttons with the board's ply after the game, `res_g7k2_14`,
    /// `drw_g7k2_14`; a tournament's `tjn_t4f7k2` (join) and `tlv_t4f7k2` (leave); a link's
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
            ButtonAction::PlayInDiscord(id) => format!("act_{id}"),
            ButtonAction::Rematch(id) => format!("rem_{id}"),
            ButtonAction::ResignAt(id, ply) => format!("res_{id}_{ply}"),
            ButtonAction::OfferDrawAt(id, ply) => format!("drw_{id}_{ply}"),
            ButtonAction::JoinTournament(id) => format!("tjn_{id}"),
            ButtonAction::LeaveTournament(id) => format!("tlv_{id}"),
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
            "act" => Ok(ButtonAction::PlayInDiscord(id.parse().map_err(|_| bad())?)),
            "rem" => Ok(ButtonAction::Rematch(id.parse().map_err(|_| bad())?)),
            "tjn" => Ok(ButtonAction::JoinTournament(id.parse().map_err(|_| bad())?)),
            "tlv" => Ok(ButtonAction::LeaveTournament(
                id.parse().map_err(|_| bad())?,
            )),
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
            ButtonAction::PlayInDiscord("g7k2".parse().unwrap()),
            ButtonAction::ResignAt("g7k2".parse().unwrap(), 0),
            ButtonAction::OfferDrawAt("g7k2".parse().unwrap(), 4_294_967_295),
            ButtonAction::Rematch("g7k2".parse().unwrap()),
            ButtonAction::JoinTournament("t4f7k2".parse().unwrap()),
            ButtonAction::LeaveTournament("t4f7k2".parse().unwrap()),
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
            "res_g7k2_",
            "res_g7k2_x",
            "res_g7k2_-1",
            "res_g7k2_+3",
            "res_g7k2_4294967296",
            "acc_c4f7k_3",
            "drw_c4f7k_3",
            "rem_c4f7k",
            "rem_g7k2_3",
            "tjn_g7k2",
            "tlv_",
            "tjn_t4f7k2_3",
            "res_g7k2_3_4",
            "é_ü",
        ] {
            assert!(ButtonAction::decode(data).is_err(), "{data}");
        }
    }
}
