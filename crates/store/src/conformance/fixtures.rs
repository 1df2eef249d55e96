//! Records and changes the promises are stated with.

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

pub(crate) fn room(name: &str) -> ChatId {
    ChatId::new(Platform::Telegram, name)
}

pub(crate) fn chat(revision: u64) -> ChatRecord {
    let mut record = ChatRecord::new(room("room"), ChatSettings::for_language(Language::En));
    record.revision = revision;
    record
}

pub(crate) fn player(revision: u64) -> PlayerRecord {
    let mut record = PlayerRecord::new(&User::new(UserId::new(Platform::Discord, "1"), "ann"));
    record.revision = revision;
    record
}

pub(crate) fn game(id: &str, revision: u64, deadline: Option<u64>) -> GameRecord {
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

pub(crate) fn challenge(id: &str, revision: u64, expires_at: u64) -> ChallengeRecord {
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

pub(crate) fn message(to: &str, text: &str) -> OutboxRecord {
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

pub(crate) fn answer(at: u64) -> AnswerRecord {
    AnswerRecord {
        at,
        replies: Vec::new(),
    }
}

pub(crate) fn key(key: &str) -> RequestKey {
    RequestKey(key.to_owned())
}

pub(crate) fn answered(request: &str) -> Change {
    Change {
        request: Some((key(request), answer(5))),
        durable: true,
        ..Change::default()
    }
}

pub(crate) fn claim(holder: &str, now: u64, until: u64) -> Claim {
    Claim {
        holder: holder.to_owned(),
        now,
        until,
    }
}

/// Queues the messages (chat, text) in one change, in order; returns their ids.
pub(crate) async fn queue(store: &dyn GameStore, messages: &[(&str, &str)]) -> Vec<OutboxId> {
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

pub(crate) fn ids_of(claimed: &[PendingMessage]) -> Vec<OutboxId> {
    claimed.iter().map(|p| p.entry.id).collect()
}

pub(crate) fn sent(id: OutboxId, platform_ref: Option<&str>) -> Change {
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

pub(crate) fn review_request(game: &str, chat: &str) -> ReviewRequest {
    ReviewRequest {
        game: game.parse().expect("a game id"),
        chat: room(chat),
        asked_at: 1,
    }
}
