//! Rolling upgrades on PostgreSQL (`fleet.rs`): beside a process of the previous release
//! (f61d864, record codec 4, migrations up to 3) a store of this release serves at once,
//! writes what the older process reads and applies only what it tolerates; once the older
//! process is gone it finalizes the fleet and sweeps old game rows into its own codec.
//! Each test has a database of its own: processes are seen database-wide.

use std::time::{Duration, Instant};

use jieqi_rules::Variant;
use jieqi_store::codec::{SCHEMA_VERSION, decode};
use jieqi_store::conformance::fixtures;
use jieqi_store::ids::{ChatId, Platform};
use jieqi_store::message::{ButtonAction, Destination, Message, MessageKind, OutboxId};
use jieqi_store::{
    BoardMoves, ChallengeRecord, Change, GameRecord, GameStore, OutboxRecord, StoreError,
};
use jieqi_store_pg::PgStore;
use jieqi_store_pg::testing::{
    TestDatabase, previous_release_schema, shorten_fleet_lease, test_database,
};
use tokio_postgres::{Client, NoTls};

fn room() -> ChatId {
    ChatId::new(Platform::Telegram, "-42")
}

/// The suite's running game, as a Xiangqi game of this file's chat (no deal to commit to).
fn game(id: &str, revision: u64) -> GameRecord {
    GameRecord {
        chat: room(),
        variant: Variant::Xiangqi,
        deal: String::new(),
        salt: String::new(),
        commitment: String::new(),
        ..fixtures::game(id, revision, None)
    }
}

async fn client(database: &TestDatabase) -> Client {
    let config: tokio_postgres::Config = database.url().parse().expect("the URL");
    let (client, connection) = config.connect(NoTls).await.expect("the database");
    tokio::spawn(connection);
    client
}

/// A connection named as a process of `release` names it (`jieqi-bot` for the releases
/// before the fleet's names), open until aborted; `busy` runs a query every 300 ms, as a
/// live process's loops do.
async fn process_of_release(
    database: &TestDatabase,
    release: &str,
    busy: bool,
) -> tokio::task::JoinHandle<()> {
    let mut config: tokio_postgres::Config = database.url().parse().expect("the test URL");
    config.application_name(release);
    let (client, connection) = config.connect(NoTls).await.expect("a connection");
    tokio::spawn(async move {
        let driver = tokio::spawn(connection);
        loop {
            if busy {
                let _ = client.simple_query("SELECT 1").await;
            }
            tokio::time::sleep(Duration::from_millis(300)).await;
            if driver.is_finished() {
                return;
            }
        }
    })
}

/// The codec schema byte of each row of `table`'s `record` column, by key.
async fn codecs(client: &Client, sql: &str) -> Vec<(String, i32)> {
    client
        .query(sql, &[])
        .await
        .expect("the rows")
        .iter()
        .map(|row| (row.get(0), row.get(1)))
        .collect()
}

async fn versions(client: &Client, table: &str) -> Vec<i32> {
    client
        .query(
            &format!("SELECT version FROM {table} ORDER BY version"),
            &[],
        )
        .await
        .expect("the versions")
        .iter()
        .map(|row| row.get(0))
        .collect()
}

async fn until(what: &str, mut done: impl AsyncFnMut() -> bool) {
    let started = Instant::now();
    while !done().await {
        assert!(started.elapsed() < Duration::from_secs(30), "never: {what}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn beside_an_older_process_records_are_written_as_it_reads_them_until_it_is_gone() {
    let Some(database) = test_database().await else {
        return;
    };
    previous_release_schema(&database).await;
    let old = process_of_release(&database, "jieqi-bot", true).await;
    let raw = client(&database).await;
    let store = PgStore::connect(database.url())
        .await
        .expect("served beside the older process, without waiting");
    assert_eq!(store.fleet(), 4, "the previous release's codec");
    // The older process still starts: the schema it checks names nothing newer than 3.
    assert_eq!(versions(&raw, "schema_migrations").await, [1, 2, 3]);
    assert_eq!(
        versions(&raw, "schema_migrations_ahead").await,
        [4, 6, 7, 8, 9, 10, 11]
    );

    let id: jieqi_store::ids::GameId = "g7k2".parse().unwrap();
    let board = OutboxRecord {
        covers: Some(BoardMoves {
            moves: vec!["1. h2e2".to_owned()],
            language: jieqi_store::language::Language::En,
            rest: String::new(),
        }),
        ..OutboxRecord::new(
            Message::text(Destination::Chat(room()), MessageKind::Board, "1. h2e2")
                .about(&id)
                .with_buttons(vec![jieqi_store::message::Button {
                    label: "Resign".to_owned(),
                    action: ButtonAction::ResignAt(id.clone(), 1),
                    deep_link_accept: false,
                }]),
            1,
        )
    };
    store
        .commit(Change {
            games: vec![game("g7k2", 1)],
            outbox: vec![(OutboxId(1), board)],
            ..Change::default()
        })
        .await
        .unwrap();
    assert_eq!(
        codecs(&raw, "SELECT id, get_byte(record, 0) FROM games").await,
        [("g7k2".to_owned(), 4)]
    );
    let rows = raw
        .query("SELECT record FROM outbox", &[])
        .await
        .expect("the outbox");
    let queued: OutboxRecord = decode(rows[0].get::<_, &[u8]>(0)).unwrap();
    assert_eq!(rows[0].get::<_, &[u8]>(0)[0], 4);
    assert_eq!(queued.covers, None);
    assert_eq!(queued.message.buttons[0].action, ButtonAction::Resign(id));
    // What the older process cannot read is refused, naming it.
    let secret = ChallengeRecord {
        chat: room(),
        variant: Variant::Jieqi,
        secret_captures: true,
        ..fixtures::challenge("c4f7k", 1, 50)
    };
    let refused = store
        .commit(Change {
            challenges: vec![secret],
            ..Change::default()
        })
        .await
        .unwrap_err();
    assert!(
        refused
            .to_string()
            .contains("a challenge with secret captures"),
        "{refused}"
    );
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert_eq!(
        store.fleet(),
        4,
        "not finalized while the older one is alive"
    );

    // The older process stops: the fleet is finalized, the game swept into this codec.
    let stopped = Instant::now();
    old.abort();
    until("finalized", async || store.fleet() == SCHEMA_VERSION).await;
    println!(
        "fleet: finalized {:.1} s after the older process stopped",
        stopped.elapsed().as_secs_f64()
    );
    assert_eq!(
        versions(&raw, "schema_migrations").await,
        [1, 2, 3, 4, 6, 7, 8, 9, 10, 11]
    );
    assert!(versions(&raw, "schema_migrations_ahead").await.is_empty());
    until("the game swept", async || {
        codecs(&raw, "SELECT id, get_byte(record, 0) FROM games").await
            == [("g7k2".to_owned(), i32::from(SCHEMA_VERSION))]
    })
    .await;
    assert_eq!(
        store.game(&"g7k2".parse().unwrap()).await.unwrap(),
        Some(game("g7k2", 1))
    );
    // A process of this release starting now is at the new version at once.
    let next = PgStore::connect(database.url()).await.unwrap();
    assert_eq!(next.fleet(), SCHEMA_VERSION);
}

#[tokio::test]
async fn an_older_process_idle_past_its_lease_holds_nothing_back_and_a_busy_one_does() {
    let Some(database) = test_database().await else {
        return;
    };
    shorten_fleet_lease(Duration::from_secs(2));
    previous_release_schema(&database).await;
    // A crashed host's connection lingers, idle.
    let lingering = process_of_release(&database, "jieqi-bot", false).await;
    let busy = process_of_release(&database, "jieqi-bot", true).await;
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let store = PgStore::connect(database.url()).await.unwrap();
    assert_eq!(store.fleet(), 4, "a busy older process is alive");
    busy.abort();
    until("finalized past the idle one's lease", async || {
        store.fleet() == SCHEMA_VERSION
    })
    .await;
    assert!(
        !lingering.is_finished(),
        "the idle connection is still open"
    );
    lingering.abort();
}

#[tokio::test]
async fn a_store_whose_fleet_is_newer_is_refused_naming_both_versions() {
    let Some(database) = test_database().await else {
        return;
    };
    drop(PgStore::connect(database.url()).await.unwrap());
    client(&database)
        .await
        .batch_execute(&format!(
            "UPDATE fleet SET version = {}",
            SCHEMA_VERSION + 1
        ))
        .await
        .unwrap();
    let refused = PgStore::connect(database.url()).await.unwrap_err();
    assert_eq!(
        refused,
        StoreError::TooNew {
            found: u32::from(SCHEMA_VERSION) + 1,
            supported: u32::from(SCHEMA_VERSION)
        }
    );
    assert!(refused.to_string().contains("newer than this bot's"));
}

#[tokio::test]
async fn a_process_of_this_release_or_a_newer_one_holds_nothing_back() {
    let Some(database) = test_database().await else {
        return;
    };
    previous_release_schema(&database).await;
    let same = process_of_release(
        &database,
        &format!("jieqi-bot codec {SCHEMA_VERSION}"),
        true,
    )
    .await;
    let newer = process_of_release(
        &database,
        &format!("jieqi-bot codec {}", SCHEMA_VERSION + 1),
        true,
    )
    .await;
    let store = PgStore::connect(database.url()).await.unwrap();
    assert_eq!(store.fleet(), SCHEMA_VERSION, "finalized at start-up");
    same.abort();
    newer.abort();
}
