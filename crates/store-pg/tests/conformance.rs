//! The store's conformance suite (`jieqi_store::conformance`) on PostgreSQL: one test per
//! promise of the `GameStore` trait, each in a schema of its own (`TEST_DATABASE_URL`;
//! without one the tests pass untested, except under `CI=true`, where they fail).

use std::sync::Arc;

use async_trait::async_trait;
use jieqi_store::conformance::{Opened, StoredRecord, Subject};
use jieqi_store::conformance_tests;
use jieqi_store_pg::testing::{TestStore, test_store};

struct Postgres;

#[async_trait]
impl Subject for Postgres {
    async fn open(&self) -> Option<Opened> {
        let test = test_store().await?;
        Some(Opened {
            store: Arc::new(test.another().await),
            keep: Box::new(test),
        })
    }

    async fn overwrite(&self, opened: &Opened, record: StoredRecord<'_>, bytes: &[u8]) {
        let test = opened
            .keep
            .downcast_ref::<TestStore>()
            .expect("a test schema");
        let quoted = |text: &str| format!("'{}'", text.replace('\'', "''"));
        let (table, column, key) = match record {
            StoredRecord::Game(id) => ("games", "id", quoted(id.as_str())),
            StoredRecord::Challenge(id) => ("challenges", "id", quoted(id.as_str())),
            StoredRecord::Chat(chat) => ("chats", "id", quoted(&chat.to_string())),
            StoredRecord::Player(user) => ("players", "id", quoted(&user.to_string())),
            StoredRecord::Outbox(id) => ("outbox", "id", id.0.to_string()),
            StoredRecord::Answer(request) => ("answers", "key", quoted(&request.0)),
        };
        let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        let rows = test
            .query_u64(&format!(
                "WITH changed AS (UPDATE {table} SET record = '\\x{hex}'::bytea \
                 WHERE {column} = {key} RETURNING 1) SELECT count(*) FROM changed"
            ))
            .await;
        assert_eq!(rows, 1, "one {table} row rewritten");
    }
}

conformance_tests!(Postgres);
