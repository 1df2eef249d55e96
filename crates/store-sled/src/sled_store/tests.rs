//! The sled store's own promises (the shared ones are the conformance suite's:
//! `tests/conformance.rs`): group flush, the upgrade at open, the review queue across a
//! compaction.

use super::*;
use jieqi_store::conformance::fixtures::{answered, review_request};
use jieqi_store::ids::{Platform, User};
use std::time::Duration;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_commit_dropped_while_it_leads_a_flush_holds_up_no_later_commit() {
    // A delivery lane aborted while its "delivered" mark was being flushed once left every
    // later commit of the process waiting forever (a Telegram test's delivery loop then
    // never stopped). A commit polled once starts a flush, then is dropped during it.
    use std::task::{Context, Waker};
    let store = SledStore::temporary().unwrap();
    let mut dropped_during_a_flush = 0;
    for i in 0..20 {
        let mut dropped = store.commit(answered(&format!("local:dropped-{i}")));
        let polled = dropped
            .as_mut()
            .poll(&mut Context::from_waker(Waker::noop()));
        if polled.is_pending() {
            dropped_during_a_flush += 1;
        }
        drop(dropped);
        let next = store.commit(answered(&format!("local:next-{i}")));
        tokio::time::timeout(Duration::from_secs(20), next)
            .await
            .unwrap_or_else(|_| panic!("round {i}: the next commit waited for a dead flush"))
            .unwrap();
    }
    assert!(
        dropped_during_a_flush > 0,
        "no commit was dropped mid-flush"
    );
}

#[tokio::test]
async fn concurrent_durable_commits_share_flushes_and_all_land() {
    let store = SledStore::temporary().unwrap();
    let mut tasks = Vec::new();
    for i in 0..32 {
        let store = store.clone();
        tasks.push(tokio::spawn(async move {
            store.commit(answered(&format!("local:{i}"))).await
        }));
    }
    for task in tasks {
        task.await.unwrap().unwrap();
    }
    for i in 0..32 {
        assert!(
            store
                .answer(&RequestKey(format!("local:{i}")))
                .await
                .unwrap()
                .is_some()
        );
    }
}

/// A game as schema 2 wrote it (the field order of the old `GameRecord`).
#[derive(serde::Serialize)]
struct SchemaTwoGame {
    id: GameId,
    revision: u64,
    chat: ChatId,
    variant: &'static str,
    preset: &'static str,
    first: User,
    second: User,
    deal: String,
    salt: String,
    commitment: String,
    moves: Vec<String>,
    ending: Option<jieqi_store::Ending>,
    move_time: u64,
    deadline: Option<UnixTime>,
    draw_offer: Option<jieqi_store::DrawOffer>,
    posts: Vec<jieqi_store::BoardPost>,
    watchers: Vec<ChatId>,
    started_at: UnixTime,
    finished_at: Option<UnixTime>,
    engine: Option<jieqi_store::EngineSeat>,
}

#[tokio::test]
async fn a_schema_two_store_is_upgraded_at_open_without_losing_a_game() {
    let dir = tempfile::tempdir().unwrap();
    let deal = "rheaaehrccpppppPPPPPCCRHEAAEHR".to_owned();
    let salt = "00112233445566778899aabbccddeeff".to_owned();
    let old = SchemaTwoGame {
        id: "g7k2".parse().unwrap(),
        revision: 9,
        chat: ChatId::new(Platform::Telegram, "-100"),
        variant: "jieqi",
        preset: "standard",
        first: User::new(UserId::new(Platform::Telegram, "1"), "ann"),
        second: User::new(UserId::new(Platform::Telegram, "2"), "bob"),
        commitment: jieqi_store::commitment(&deal, &salt),
        deal,
        salt,
        moves: vec!["h2e2".into(), "b9c7c".into(), "e2e6".into()],
        ending: None,
        move_time: 86_400,
        deadline: Some(1_700_000_000),
        draw_offer: None,
        posts: Vec::new(),
        watchers: Vec::new(),
        started_at: 1_699_999_000,
        finished_at: None,
        engine: None,
    };
    {
        let db = sled::open(dir.path()).unwrap();
        let tree = db.open_tree("jieqi").unwrap();
        let bytes = postcard::to_extend(&old, vec![2u8]).unwrap();
        tree.insert(game_key(&old.id), bytes).unwrap();
        db.flush().unwrap();
    }
    let store = SledStore::open(dir.path()).unwrap();
    let game = store
        .game(&old.id)
        .await
        .unwrap()
        .expect("the game survived");
    assert_eq!(game.moves, old.moves);
    assert_eq!(game.deal, old.deal);
    assert_eq!(game.salt, old.salt);
    assert_eq!(game.commitment, old.commitment);
    assert_eq!(game.variant, jieqi_rules::Variant::Jieqi);
    assert_eq!(game.revision, 9);
    let raw = store.live().tree.get(game_key(&old.id)).unwrap().unwrap();
    assert_eq!(raw[0], SCHEMA_VERSION, "written back in the current shape");
    assert!(raw.len() < 120, "compact: {} bytes", raw.len());
    drop(store);
    // A second open finds nothing left to do, and a newer store is refused.
    let store = SledStore::open(dir.path()).unwrap();
    assert_eq!(store.migrate().unwrap(), 0);
    store
        .live()
        .tree
        .insert(META_SCHEMA, &[SCHEMA_VERSION + 1])
        .unwrap();
    assert!(matches!(store.migrate(), Err(StoreError::TooNew { .. })));
}

/// A compacted copy starts sled's id counter afresh, which orders the queue: entries queued
/// after a compaction still come after the ones before it. (That the queue keeps its order,
/// refuses a review queued twice and gives each entry once is the conformance suite's.)
#[tokio::test]
async fn the_review_queue_keeps_its_order_across_a_compaction() {
    let dir = tempfile::tempdir().unwrap();
    let queue = |requests: Vec<ReviewRequest>| Change {
        queued_reviews: requests,
        ..Change::default()
    };
    let store = SledStore::open(dir.path()).unwrap();
    store
        .commit(queue(vec![
            review_request("g7k2", "b"),
            review_request("g7k3", "a"),
        ]))
        .await
        .unwrap();
    store.compact().unwrap();
    drop(store);
    let store = SledStore::open(dir.path()).unwrap();
    store
        .commit(queue(vec![review_request("g7k2", "a")]))
        .await
        .unwrap();
    assert_eq!(
        store.queued_reviews(10).await.unwrap(),
        [
            review_request("g7k2", "b"),
            review_request("g7k3", "a"),
            review_request("g7k2", "a")
        ]
    );
}
