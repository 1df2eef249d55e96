//! What the service asks adapters to deliver: messages, their destinations, buttons and
//! pictures, and the outbox entries that carry them.
//!
//! A message is fully prepared here (translated text, rendered picture); an adapter only maps
//! it onto its platform. Public messages are built from public views only.

use serde::{Deserialize, Serialize};

use crate::ids::{ChatId, GameId, IdempotencyKey, Platform, UserId};
use crate::request::ButtonAction;

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
