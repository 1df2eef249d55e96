//! The store reads a record written by any older schema as its current form (the codec's
//! upgrades, `codec.rs`), whichever backend holds it: each test commits a record, plants in
//! its place the bytes each older schema wrote for it, and reads it back through the trait.
//! A backend that reads stored bytes any other way than through the codec, or refuses an old
//! version, fails here by the record's name.
//!
//! Each record kind is one row of the same check (`reads_as_current`): the record, where it
//! is kept, how each older schema wrote it, and how the trait reads it back. Most schemas
//! only lacked fields at the record's end (`Lacked`); the rest are written out.

use std::fmt::Debug;

use serde::Serialize;

use super::fixtures::*;
use super::{Opened, StoredRecord, Subject};
use crate::codec::{SCHEMA_VERSION, encode};
use crate::message::{Answer, Destination, Message, MessageKind};
use crate::records::{BoardMoves, PuzzleStats, StoredReply};
use crate::{AnswerRecord, Change, GameStore, LiveRatings, Verdict};

fn postcard<T: Serialize>(value: &T) -> Vec<u8> {
    postcard::to_allocvec(value).expect("encodable")
}

/// `rest` as schema `version` wrote it.
fn written_by(version: u8, rest: &[u8]) -> Vec<u8> {
    let mut old = vec![version];
    old.extend_from_slice(rest);
    old
}

/// The fields a record's older schemas lacked at its end: up to schema `.0` (and after the
/// row before), the fields whose current bytes are `.1`.
struct Lacked(Vec<(u8, Vec<u8>)>);

impl Lacked {
    /// What schema `version` wrote for a record whose current bytes are `current`: the
    /// current bytes without the fields it lacked, or as they are if it lacked none.
    fn bytes(&self, current: &[u8], version: u8) -> Vec<u8> {
        let Some((_, missing)) = self.0.iter().find(|(up_to, _)| version <= *up_to) else {
            return written_by(version, &current[1..]);
        };
        assert!(
            current.ends_with(missing),
            "the record's last fields are no longer what schema {version} lacked"
        );
        written_by(version, &current[1..current.len() - missing.len()])
    }
}

/// Plants in place of `stored`, for every schema older than the current one, the bytes
/// `old(version)`, and checks that `read` reads `expected` back through the trait.
async fn reads_as_current<T: PartialEq + Debug>(
    subject: &dyn Subject,
    opened: &Opened,
    stored: StoredRecord<'_>,
    old: impl Fn(u8) -> Vec<u8>,
    read: impl AsyncFn(&dyn GameStore) -> T,
    expected: &T,
) {
    for version in 1..SCHEMA_VERSION {
        subject.overwrite(opened, stored, &old(version)).await;
        assert_eq!(
            &read(&*opened.store).await,
            expected,
            "{stored:?} as schema {version} wrote it"
        );
    }
}

/// Commits `change` to a fresh store of `subject`.
async fn committed(subject: &dyn Subject, change: Change) -> Option<Opened> {
    let opened = subject.open().await?;
    opened.store.commit(change).await.expect("committed");
    Some(opened)
}

/// Challenges: schemas 1 to 4 lacked `secret_captures`, schemas 1 to 6 `control`.
pub async fn challenges_of_every_older_schema_read_as_current(subject: &dyn Subject) {
    let record = challenge("c4f7k", 1, 50);
    let change = Change {
        challenges: vec![record.clone()],
        ..Change::default()
    };
    let Some(opened) = committed(subject, change).await else {
        return;
    };
    let current = encode(&record).unwrap();
    let lacked = Lacked(vec![
        (4, postcard(&(false, None::<String>))),
        (6, postcard(&None::<String>)),
    ]);
    let id = &record.id;
    let read = async |store: &dyn GameStore| store.challenge(id).await.unwrap();
    let old = |version: u8| lacked.bytes(&current, version);
    let stored = StoredRecord::Challenge(id);
    reads_as_current(subject, &opened, stored, old, read, &Some(record.clone())).await;
}

/// Chats: schemas 1 to 8 lacked the settings' last two fields (who may create a tournament,
/// the time zone), inside the record; schemas 1 to 3 also `puzzles`, at its end. They read as
/// admins and UTC.
pub async fn chats_of_every_older_schema_read_as_current(subject: &dyn Subject) {
    let record = chat(1);
    let change = Change {
        chats: vec![record.clone()],
        ..Change::default()
    };
    let Some(opened) = committed(subject, change).await else {
        return;
    };
    let s = record.settings;
    let settings = (s.language, s.style, s.orientation, s.notation, s.board);
    let fields = (
        &record.chat,
        record.revision,
        settings,
        &record.games,
        &record.challenges,
        &record.watching,
        &record.players,
        &record.finished,
    );
    let old = |version: u8| {
        let mut rest = postcard(&fields);
        if version >= 4 {
            rest.extend(postcard(&record.puzzles));
        }
        written_by(version, &rest)
    };
    let id = &record.chat;
    let read = async |store: &dyn GameStore| store.chat(id).await.unwrap();
    let stored = StoredRecord::Chat(id);
    reads_as_current(subject, &opened, stored, old, read, &Some(record.clone())).await;
}

/// Players: schemas 1 and 2 lacked `personal`, schemas 1 to 3 `course` and `puzzle`, schemas
/// 1 to 7 `live` (their ratings are the correspondence ones).
pub async fn players_of_every_older_schema_read_as_current(subject: &dyn Subject) {
    let mut record = player(1);
    record.stats_mut(jieqi_rules::Variant::Jieqi).wins = 4;
    let change = Change {
        players: vec![record.clone()],
        ..Change::default()
    };
    let Some(opened) = committed(subject, change).await else {
        return;
    };
    let current = encode(&record).unwrap();
    let no_live = postcard(&LiveRatings::default());
    let mut since_four = vec![0; 5];
    since_four.extend(postcard(&PuzzleStats::default()));
    since_four.extend(&no_live);
    let mut since_three = vec![0, 0];
    since_three.extend(&since_four);
    let lacked = Lacked(vec![(2, since_three), (3, since_four), (7, no_live)]);
    let id = &record.user;
    let read = async |store: &dyn GameStore| store.player(id).await.unwrap();
    let old = |version: u8| lacked.bytes(&current, version);
    let stored = StoredRecord::Player(id);
    reads_as_current(subject, &opened, stored, old, read, &Some(record.clone())).await;
}

/// Games: schemas 1 and 2 wrote the whole record by name (schema 1 without `engine`),
/// schemas 3 and 4 the compact form without the rules revision, `secret_captures`, the
/// verdict and the clock, schemas 5 and 6 without the clock.
pub async fn games_of_every_older_schema_read_as_current(subject: &dyn Subject) {
    let mut record = game("g7k2", 1, Some(90));
    record.moves = vec!["h2e2".to_owned(), "h7e7".to_owned()];
    let change = Change {
        games: vec![record.clone()],
        ..Change::default()
    };
    let Some(opened) = committed(subject, change).await else {
        return;
    };
    let current = encode(&record).unwrap();
    let r = &record;
    let head = (
        &r.id,
        r.revision,
        &r.chat,
        r.variant.name(),
        r.preset.name(),
        &r.first,
        &r.second,
        &r.deal,
        &r.salt,
        &r.commitment,
    );
    let tail = (
        &r.moves,
        &r.ending,
        r.move_time,
        &r.deadline,
        &r.draw_offer,
        &r.posts,
        &r.watchers,
        r.started_at,
        &r.finished_at,
    );
    let lacked = Lacked(vec![
        (
            4,
            postcard(&(
                r.rules_revision,
                r.secret_captures,
                None::<Verdict>,
                None::<u8>,
            )),
        ),
        (6, postcard(&None::<u8>)),
    ]);
    let old = |version: u8| match version {
        1 => written_by(version, &postcard(&(head, tail))),
        2 => written_by(version, &postcard(&(head, tail, &r.engine))),
        _ => lacked.bytes(&current, version),
    };
    let read = async |store: &dyn GameStore| store.game(&r.id).await.unwrap();
    let stored = StoredRecord::Game(&r.id);
    reads_as_current(subject, &opened, stored, old, read, &Some(record.clone())).await;
}

/// Outbox entries: schemas 1 and 2 had no `not_before` (and no `covers`), schemas 3 to 5 no
/// `covers`. The entry is also pending as it was.
pub async fn outbox_entries_of_every_older_schema_read_as_current(subject: &dyn Subject) {
    let Some(opened) = subject.open().await else {
        return;
    };
    let id = queue(&*opened.store, &[("a", "a1")]).await[0];
    let record = message("a", "a1");
    let current = encode(&record).unwrap();
    let lacked = Lacked(vec![(5, postcard(&None::<BoardMoves>))]);
    let old = |version: u8| match version {
        1 | 2 => written_by(
            version,
            &postcard(&(
                &record.message,
                record.attempts,
                record.created_at,
                &record.fallback_chat,
                &record.picture,
            )),
        ),
        _ => lacked.bytes(&current, version),
    };
    let read = async |store: &dyn GameStore| {
        let pending = store.pending(5).await.unwrap();
        let messages: Vec<Message> = pending.into_iter().map(|p| p.entry.message).collect();
        (store.outbox_record(id).await.unwrap(), messages)
    };
    let expected = (Some(record.clone()), vec![record.message.clone()]);
    reads_as_current(
        subject,
        &opened,
        StoredRecord::Outbox(id),
        old,
        read,
        &expected,
    )
    .await;
}

/// Answers: schemas 1 and 2 kept the replies whole (pictures as bytes, dropped on reading).
pub async fn answers_of_every_older_schema_read_as_current(subject: &dyn Subject) {
    let reply = Message::text(
        Destination::ReplyToRequester { ephemeral: true },
        MessageKind::Notice,
        "done",
    );
    let record = AnswerRecord {
        at: 7,
        replies: vec![StoredReply {
            message: reply.clone(),
            picture: None,
        }],
    };
    let request = key("telegram:77");
    let change = Change {
        request: Some((request.clone(), record.clone())),
        ..Change::default()
    };
    let Some(opened) = committed(subject, change).await else {
        return;
    };
    let current = encode(&record).unwrap();
    let old = |version: u8| match version {
        1 | 2 => written_by(
            version,
            &postcard(&(
                record.at,
                Answer {
                    replies: vec![reply.clone()],
                },
            )),
        ),
        _ => written_by(version, &current[1..]),
    };
    let read = async |store: &dyn GameStore| store.answer(&request).await.unwrap();
    let stored = StoredRecord::Answer(&request);
    reads_as_current(subject, &opened, stored, old, read, &Some(record.clone())).await;
}
