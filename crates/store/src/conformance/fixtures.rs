//! Records and changes the promises are stated with, for a backend's own tests too (what the
//! suite does not state), so that they are written once.

use jieqi_rules::Variant;
use jieqi_rules::game::{Preset, RULES_REVISION};

use crate::ids::{ChatId, Platform, User, UserId};
use crate::language::Language;
use crate::message::{Destination, Message, MessageKind, OutboxId};
use crate::settings::ChatSettings;
use crate::{
    AnswerRecord, ChallengeRecord, Change, ChatRecord, Claim, ColourChoice, GameRecord, GameStore,
    OutboxRecord, PendingMessage, PlayerRecord, RequestKey, ReviewRequest, SentRecord, commitment,
};

/// A Telegram chat named `name`.
pub fn room(name: &str) -> ChatId {
    ChatId::new(Platform::Telegram, name)
}

/// The chat `room` at `revision`, in English.
pub fn chat(revision: u64) -> ChatRecord {
    let mut record = ChatRecord::new(room("room"), ChatSettings::for_language(Language::En));
    record.revision = revision;
    record
}

/// The chat `zoned` at `revision`, in Chinese, where everyone creates tournaments and
/// start times are UTC+8: settings only schema 9 holds.
pub fn zoned_chat(revision: u64) -> ChatRecord {
    let mut settings = ChatSettings::for_language(Language::Zh);
    settings.tournaments = crate::settings::TournamentCreators::Everyone;
    settings.zone = "UTC+8".parse().expect("an offset");
    let mut record = ChatRecord::new(room("zoned"), settings);
    record.revision = revision;
    record
}

/// The Discord player ann at `revision`.
pub fn player(revision: u64) -> PlayerRecord {
    let mut record = PlayerRecord::new(&User::new(UserId::new(Platform::Discord, "1"), "ann"));
    record.revision = revision;
    record
}

/// A running Jieqi game of ann and bob in `room`, `revision` moves in, due at `deadline`.
pub fn game(id: &str, revision: u64, deadline: Option<u64>) -> GameRecord {
    let deal = String::new();
    let salt = "00ff".to_owned();
    GameRecord {
        id: id.parse().expect("a game id"),
        revision,
        chat: room("room"),
        variant: Variant::Jieqi,
        preset: Preset::Standard,
        first: User::new(UserId::new(Platform::Telegram, "1"), "ann"),
        second: User::new(UserId::new(Platform::Telegram, "2"), "bob"),
        commitment: commitment(&deal, &salt),
        deal,
        salt,
        moves: vec!["h2e2".to_owned(); revision as usize],
        ending: None,
        move_time: 60,
        deadline,
        draw_offer: None,
        posts: Vec::new(),
        watchers: Vec::new(),
        started_at: 1,
        finished_at: None,
        engine: None,
        prompts: Default::default(),
        rules_revision: RULES_REVISION,
        secret_captures: false,
        verdict: None,
        clock: None,
    }
}

/// An open Xiangqi challenge by ann in `room`, expiring at `expires_at`.
pub fn challenge(id: &str, revision: u64, expires_at: u64) -> ChallengeRecord {
    ChallengeRecord {
        id: id.parse().expect("a challenge id"),
        revision,
        chat: room("room"),
        challenger: User::new(UserId::new(Platform::Telegram, "1"), "ann"),
        challenged: None,
        variant: Variant::Xiangqi,
        preset: Preset::Standard,
        colour: ColourChoice::Random,
        move_time: 60,
        created_at: 1,
        expires_at,
        post: None,
        text: "a challenge".to_owned(),
        secret_captures: false,
        control: None,
    }
}

/// A notice `text` for the chat `to`, as the outbox keeps it.
pub fn message(to: &str, text: &str) -> OutboxRecord {
    OutboxRecord {
        message: Message::text(Destination::Chat(room(to)), MessageKind::Notice, text),
        attempts: 0,
        created_at: 0,
        fallback_chat: None,
        picture: None,
        not_before: 0,
        covers: None,
    }
}

/// An answer with no replies, given at `at`.
pub fn answer(at: u64) -> AnswerRecord {
    AnswerRecord {
        at,
        replies: Vec::new(),
    }
}

/// The request key `key`.
pub fn key(key: &str) -> RequestKey {
    RequestKey(key.to_owned())
}

/// A durable change that answers `request` (with [`answer`]`(5)`) and does nothing else.
pub fn answered(request: &str) -> Change {
    Change {
        request: Some((key(request), answer(5))),
        durable: true,
        ..Change::default()
    }
}

/// `holder`'s claim at `now`, leased until `until`.
pub fn claim(holder: &str, now: u64, until: u64) -> Claim {
    Claim {
        holder: holder.to_owned(),
        now,
        until,
    }
}

/// Queues the messages (chat, text) in one change, in order; returns their ids.
pub async fn queue(store: &dyn GameStore, messages: &[(&str, &str)]) -> Vec<OutboxId> {
    let ids = store
        .allocate_outbox_ids(messages.len())
        .await
        .expect("outbox ids");
    let outbox = ids
        .iter()
        .zip(messages)
        .map(|(id, (to, text))| (*id, message(to, text)))
        .collect();
    store
        .commit(Change {
            outbox,
            ..Change::default()
        })
        .await
        .expect("the messages queued");
    ids
}

/// The ids of the messages claimed.
pub fn ids_of(claimed: &[PendingMessage]) -> Vec<OutboxId> {
    claimed.iter().map(|p| p.entry.id).collect()
}

/// The change that marks `id` delivered (at 10), with the platform's reference if any.
pub fn sent(id: OutboxId, platform_ref: Option<&str>) -> Change {
    Change {
        sent: vec![(
            id,
            SentRecord {
                platform_ref: platform_ref.map(str::to_owned),
                at: 10,
            },
        )],
        ..Change::default()
    }
}

/// A review of `game` asked for in the chat `chat`.
pub fn review_request(game: &str, chat: &str) -> ReviewRequest {
    ReviewRequest {
        game: game.parse().expect("a game id"),
        chat: room(chat),
        asked_at: 1,
    }
}
