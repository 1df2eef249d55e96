//! The compact store records decoded from any bytes, in both stores' forms: the codec's
//! bytes (a schema-version byte, then postcard; games in their compact form) as sled keeps
//! them and as PostgreSQL keeps them in its `record` columns, and an outbox row read with its
//! deferral columns (`attempts`, `not_before`) over the record. Any bytes are a record or an
//! error, never a panic; a record read (of any schema) is written in the current schema and
//! reads back the same, as sled's upgrade at open does.
//!
//! Input: the first byte picks the record kind (games, challenges, chats, players, answers,
//! outbox entries, delivered marks, outbox rows), the rest are the stored bytes (an outbox
//! row: 12 bytes of columns first). Seeds: `seeds/store_records`, the records of a played
//! game as `cargo run -p jieqi-service --example store_seeds` writes them.

#![no_main]

use std::fmt::Debug;

use jieqi_service::store::codec::{Record, decode, encode};
use jieqi_service::store::{
    AnswerRecord, ChallengeRecord, ChatRecord, GameRecord, OutboxRecord, PlayerRecord, SentRecord,
};
use libfuzzer_sys::fuzz_target;

/// Reads `bytes`; a record read is written again and reads back as the same record (compared
/// by its bytes: a rating read from noise may be NaN, which equals nothing).
fn round_trip<T: Record + Debug>(bytes: &[u8]) {
    let Ok(record) = decode::<T>(bytes) else {
        return;
    };
    let written = encode(&record).expect("a record read can be written");
    let again = decode::<T>(&written).expect("a record written reads back");
    assert_eq!(
        encode(&again).ok().as_deref(),
        Some(written.as_slice()),
        "{record:?}"
    );
}

fuzz_target!(|data: &[u8]| {
    let Some((kind, bytes)) = data.split_first() else {
        return;
    };
    match kind % 8 {
        0 => round_trip::<GameRecord>(bytes),
        1 => round_trip::<ChallengeRecord>(bytes),
        2 => round_trip::<ChatRecord>(bytes),
        3 => round_trip::<PlayerRecord>(bytes),
        4 => round_trip::<AnswerRecord>(bytes),
        5 => round_trip::<OutboxRecord>(bytes),
        6 => round_trip::<SentRecord>(bytes),
        _ => {
            let Some((columns, record)) = bytes.split_at_checked(12) else {
                return;
            };
            let (attempts, not_before) = columns.split_at(4);
            let attempts = i32::from_le_bytes(attempts.try_into().unwrap_or_default());
            let not_before = i64::from_le_bytes(not_before.try_into().unwrap_or_default());
            if let Ok(row) = jieqi_store_pg::outbox_from_columns(record, attempts, not_before) {
                assert!(row.attempts >= u32::try_from(attempts).unwrap_or(0));
                assert_eq!(row.not_before, u64::try_from(not_before).unwrap_or(0));
            }
        }
    }
});
