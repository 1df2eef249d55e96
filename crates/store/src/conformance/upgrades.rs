//! The store reads a record written by any older schema as its current form (the codec's
//! upgrades, `codec.rs`), whichever backend holds it: each test commits a record, plants in
//! its place the bytes each older schema wrote for it, and reads it back through the trait.
//! A backend that reads stored bytes any other way than through the codec, or refuses an old
//! version, fails here by the record's name.

use serde::Serialize;

use super::fixtures::*;
use super::{Opened, StoredRecord, Subject};
use crate::codec::{SCHEMA_VERSION, encode};
use crate::message::{Answer, Destination, Message, MessageKind};
use crate::records::{BoardMoves, ChatPuzzles, PuzzleStats, StoredReply};
use crate::{AnswerRecord, Change, Verdict};

fn postcard<T: Serialize>(value: &T) -> Vec<u8> {
    postcard::to_allocvec(value).expect("encodable")
}

/// The bytes schema `version` wrote for a record whose current bytes are `current`, when
/// that schema's shape lacked the fields whose bytes end `current` (`missing`).
fn without(current: &[u8], version: u8, missing: &[u8]) -> Vec<u8> {
    assert!(
        current.ends_with(missing),
        "the record's last fields are no longer what schema {version} lacked"
    );
    let mut old = vec![version];
    old.extend_from_slice(&current[1..current.len() - missing.len()]);
    old
}

/// `rest` as schema `version` wrote it.
fn written_by(version: u8, rest: &[u8]) -> Vec<u8> {
    let mut old = vec![version];
    old.extend_from_slice(rest);
    old
}

async fn plant(subject: &dyn Subject, opened: &Opened, record: StoredRecord<'_>, bytes: &[u8]) {
    subject.overwrite(opened, record, bytes).await;
}

/// Challenges: schemas 1 to 4 lacked `secret_captures`, schemas 1 to 6 `control`.
pub async fn challenges_of_every_older_schema_read_as_current(subject: &dyn Subject) {
    let opened = crate::__open_or_skip!(subject);
    let record = challenge("c4f7k", 1, 50);
    opened
        .store
        .commit(Change {
            challenges: vec![record.clone()],
            ..Change::default()
        })
        .await
        .unwrap();
    let current = encode(&record).unwrap();
    for version in 1..SCHEMA_VERSION {
        let old = match version {
            1..=4 => without(&current, version, &postcard(&(false, None::<String>))),
            5 | 6 => without(&current, version, &postcard(&None::<String>)),
            _ => written_by(version, &current[1..]),
        };
        plant(subject, &opened, StoredRecord::Challenge(&record.id), &old).await;
        assert_eq!(
            opened.store.challenge(&record.id).await.unwrap(),
            Some(record.clone()),
            "a challenge of schema {version}"
        );
    }
}

/// Chats: schemas 1 to 3 lacked `puzzles`.
pub async fn chats_of_every_older_schema_read_as_current(subject: &dyn Subject) {
    let opened = crate::__open_or_skip!(subject);
    let record = chat(1);
    opened
        .store
        .commit(Change {
            chats: vec![record.clone()],
            ..Change::default()
        })
        .await
        .unwrap();
    let current = encode(&record).unwrap();
    for version in 1..SCHEMA_VERSION {
        let old = if version <= 3 {
            without(&current, version, &postcard(&ChatPuzzles::default()))
        } else {
            written_by(version, &current[1..])
        };
        plant(subject, &opened, StoredRecord::Chat(&record.chat), &old).await;
        assert_eq!(
            opened.store.chat(&record.chat).await.unwrap(),
            Some(record.clone()),
            "a chat of schema {version}"
        );
    }
}

/// Players: schemas 1 and 2 lacked `personal`, schemas 1 to 3 `course` and `puzzle`.
pub async fn players_of_every_older_schema_read_as_current(subject: &dyn Subject) {
    let opened = crate::__open_or_skip!(subject);
    let record = player(1);
    opened
        .store
        .commit(Change {
            players: vec![record.clone()],
            ..Change::default()
        })
        .await
        .unwrap();
    let current = encode(&record).unwrap();
    let mut since_four = vec![0; 5];
    since_four.extend(postcard(&PuzzleStats::default()));
    let mut since_three = vec![0, 0];
    since_three.extend(&since_four);
    for version in 1..SCHEMA_VERSION {
        let old = match version {
            1 | 2 => without(&current, version, &since_three),
            3 => without(&current, version, &since_four),
            _ => written_by(version, &current[1..]),
        };
        plant(subject, &opened, StoredRecord::Player(&record.user), &old).await;
        assert_eq!(
            opened.store.player(&record.user).await.unwrap(),
            Some(record.clone()),
            "a player of schema {version}"
        );
    }
}

/// Games: schemas 1 and 2 wrote the whole record by name (schema 1 without `engine`),
/// schemas 3 and 4 the compact form without the rules revision, `secret_captures`, the
/// verdict and the clock, schemas 5 and 6 without the clock.
pub async fn games_of_every_older_schema_read_as_current(subject: &dyn Subject) {
    let opened = crate::__open_or_skip!(subject);
    let mut record = game("g7k2", 1, Some(90));
    record.moves = vec!["h2e2".to_owned(), "h7e7".to_owned()];
    opened
        .store
        .commit(Change {
            games: vec![record.clone()],
            ..Change::default()
        })
        .await
        .unwrap();
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
    for version in 1..SCHEMA_VERSION {
        let old = match version {
            1 => written_by(version, &postcard(&(head, tail))),
            2 => written_by(version, &postcard(&(head, tail, &r.engine))),
            3 | 4 => without(
                &current,
                version,
                &postcard(&(
                    r.rules_revision,
                    r.secret_captures,
                    None::<Verdict>,
                    None::<u8>,
                )),
            ),
            5 | 6 => without(&current, version, &postcard(&None::<u8>)),
            _ => written_by(version, &current[1..]),
        };
        plant(subject, &opened, StoredRecord::Game(&record.id), &old).await;
        assert_eq!(
            opened.store.game(&record.id).await.unwrap(),
            Some(record.clone()),
            "a game of schema {version}"
        );
    }
}

/// Outbox entries: schemas 1 and 2 had no `not_before` (and no `covers`), schemas 3 to 5 no
/// `covers`.
pub async fn outbox_entries_of_every_older_schema_read_as_current(subject: &dyn Subject) {
    let opened = crate::__open_or_skip!(subject);
    let id = queue(&*opened.store, &[("a", "a1")]).await[0];
    let record = message("a", "a1");
    let current = encode(&record).unwrap();
    for version in 1..SCHEMA_VERSION {
        let old = match version {
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
            3..=5 => without(&current, version, &postcard(&None::<BoardMoves>)),
            _ => written_by(version, &current[1..]),
        };
        plant(subject, &opened, StoredRecord::Outbox(id), &old).await;
        assert_eq!(
            opened.store.outbox_record(id).await.unwrap(),
            Some(record.clone()),
            "an outbox entry of schema {version}"
        );
        let pending = opened.store.pending(5).await.unwrap();
        assert_eq!(pending.len(), 1);
        assert_eq!(pending[0].entry.message, record.message, "schema {version}");
    }
}

/// Answers: schemas 1 and 2 kept the replies whole (pictures as bytes, dropped on reading).
pub async fn answers_of_every_older_schema_read_as_current(subject: &dyn Subject) {
    let opened = crate::__open_or_skip!(subject);
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
    opened
        .store
        .commit(Change {
            request: Some((request.clone(), record.clone())),
            ..Change::default()
        })
        .await
        .unwrap();
    let current = encode(&record).unwrap();
    for version in 1..SCHEMA_VERSION {
        let old = match version {
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
        plant(subject, &opened, StoredRecord::Answer(&request), &old).await;
        assert_eq!(
            opened.store.answer(&request).await.unwrap(),
            Some(record.clone()),
            "an answer of schema {version}"
        );
    }
}
