//! The PostgreSQL store against a real server (`TEST_DATABASE_URL`; skipped without one,
//! except in CI), in what the store's conformance suite (`tests/conformance.rs`) does not
//! state: what several processes sharing one database are promised (two `PgStore`s on one
//! schema stand for two bot processes), `next_claimable`, leadership, reconnection,
//! migrations. Each test works in a schema of its own, with the records the conformance
//! suite states its promises with (`jieqi_store::conformance::fixtures`).

use std::collections::HashSet;
use std::time::Duration;

use jieqi_store::conformance::fixtures::*;
use jieqi_store::ids::Platform;
use jieqi_store::message::OutboxId;
use jieqi_store::{Change, CommitError, Deferral, Lane};
use jieqi_store::{GameStore, StoreError};
use jieqi_store_pg::PgStore;
use jieqi_store_pg::testing::{TestStore, test_store};

macro_rules! store_or_skip {
    () => {
        match test_store().await {
            Some(store) => store,
            None => return,
        }
    };
}

#[tokio::test]
async fn two_processes_committing_the_same_revision_one_wins() {
    let first = store_or_skip!();
    let second = first.another().await;
    first
        .commit(Change {
            games: vec![game("g7k2", 1, Some(30))],
            ..Change::default()
        })
        .await
        .unwrap();
    for revision in 2..12 {
        // Both processes saw the same revision and each moves; only one move may land.
        let mine = Change {
            games: vec![game("g7k2", revision, Some(30 + revision))],
            durable: true,
            ..Change::default()
        };
        let theirs = Change {
            games: vec![game("g7k2", revision, Some(1000 + revision))],
            durable: true,
            ..Change::default()
        };
        let (a, b) = tokio::join!(first.commit(mine), second.commit(theirs));
        let outcomes = [a, b];
        assert_eq!(
            outcomes.iter().filter(|r| r.is_ok()).count(),
            1,
            "{outcomes:?}"
        );
        assert!(outcomes.contains(&Err(CommitError::Conflict)));
    }
    let stored = first.game(&"g7k2".parse().unwrap()).await.unwrap().unwrap();
    assert_eq!(stored.revision, 11);
    // The same request arriving at both processes is answered once.
    let (a, b) = tokio::join!(
        first.commit(answered("telegram:1")),
        second.commit(answered("telegram:1"))
    );
    let outcomes = [a, b];
    assert!(outcomes.contains(&Ok(())), "{outcomes:?}");
    assert!(outcomes.contains(&Err(CommitError::Duplicate(answer(5)))));
}

#[tokio::test]
async fn a_lane_keeps_commit_order_whichever_process_numbered_its_messages() {
    let first = store_or_skip!();
    let second = first.another().await;
    // Each process numbers from a block of its own: the first's ids are the lower ones.
    let a = first.allocate_outbox_ids(3).await.unwrap();
    let b = second.allocate_outbox_ids(2).await.unwrap();
    assert!(a.windows(2).all(|w| w[0] < w[1]));
    assert!(b[0] < b[1]);
    assert!(a.iter().all(|id| !b.contains(id)));
    assert!(first.allocate_outbox_ids(0).await.unwrap().is_empty());
    // The second process queues first, with its higher id: its message goes first.
    for (store, id, text) in [(&second, b[0], "earlier"), (&first, a[0], "later")] {
        store
            .commit(Change {
                outbox: vec![(id, message("room", text))],
                ..Change::default()
            })
            .await
            .unwrap();
    }
    let head = first.claim(None, &claim("p1", 100, 200), 10).await.unwrap();
    assert_eq!(ids_of(&head), vec![b[0]]);
    first.commit(sent(b[0], Some("m-1"))).await.unwrap();
    let next = first.claim(None, &claim("p1", 101, 200), 10).await.unwrap();
    assert_eq!(ids_of(&next), vec![a[0]]);
    let texts: Vec<String> = first
        .pending(10)
        .await
        .unwrap()
        .into_iter()
        .map(|p| p.entry.message.text)
        .collect();
    assert_eq!(texts, vec!["later".to_owned()]);
    // An id taken already refuses the change.
    let taken = Change {
        outbox: vec![(a[1], message("room", "one"))],
        ..Change::default()
    };
    first.commit(taken.clone()).await.unwrap();
    assert_eq!(first.commit(taken).await, Err(CommitError::Conflict));
}

/// `next_claimable` (a default `None` elsewhere: only a shared store has lanes that another
/// process holds) names the first time a lane of the platform asked for comes free to the
/// asking process: another process's claim lapsing or a deferral ending, never the end of
/// its own claim. (How claims lapse, are renewed and taken over, and how a deferred lane
/// waits, is the conformance suite's.)
#[tokio::test]
async fn the_next_claimable_time_is_another_process_lapse_or_a_deferral_end() {
    let first = store_or_skip!();
    let second = first.another().await;
    let ids = queue(&*first, &[("a", "a1"), ("b", "b1")]).await;
    first.claim(None, &claim("p1", 100, 200), 10).await.unwrap();
    // p1 fails a1 and defers its lane to 500; p1 dies holding b1, whose claim lapses at 200.
    first
        .commit(Change {
            deferred: vec![(
                ids[0],
                Deferral {
                    attempts: 1,
                    not_before: 500,
                },
            )],
            ..Change::default()
        })
        .await
        .unwrap();
    assert_eq!(
        second
            .next_claimable(None, &claim("p2", 150, 0))
            .await
            .unwrap(),
        Some(200),
        "p1's claim on b1 lapses first"
    );
    assert_eq!(
        first
            .next_claimable(None, &claim("p1", 150, 0))
            .await
            .unwrap(),
        Some(500),
        "p1 does not wait for its own claim"
    );
    assert_eq!(
        second
            .next_claimable(Some(Platform::Discord), &claim("p2", 150, 0))
            .await
            .unwrap(),
        None,
        "no Discord lane waits"
    );
    let taken_over = second
        .claim(None, &claim("p2", 200, 1000), 10)
        .await
        .unwrap();
    assert_eq!(ids_of(&taken_over), vec![ids[1]]);
    assert_eq!(
        second
            .next_claimable(None, &claim("p2", 201, 0))
            .await
            .unwrap(),
        Some(500),
        "p2's own claim is not waited for"
    );
}

#[tokio::test]
async fn concurrent_claims_never_share_a_message_or_a_lane() {
    let first = store_or_skip!();
    let second = first.another().await;
    let lanes = ["a", "b", "c", "d", "e", "f"];
    let mut messages = Vec::new();
    for round in 0..4 {
        for lane in lanes {
            messages.push((lane, if round == 0 { "first" } else { "later" }));
        }
    }
    queue(&*first, &messages).await;
    let mut delivered = 0;
    let mut now = 1000;
    while delivered < messages.len() {
        now += 1;
        let (mine, theirs) = (
            claim("p1", now, now + 10_000),
            claim("p2", now, now + 10_000),
        );
        let (a, b) = tokio::join!(first.claim(None, &mine, 4), second.claim(None, &theirs, 4));
        let claimed: Vec<_> = a.unwrap().into_iter().chain(b.unwrap()).collect();
        let ids: HashSet<OutboxId> = claimed.iter().map(|p| p.entry.id).collect();
        assert_eq!(ids.len(), claimed.len(), "a message claimed twice");
        let lanes: HashSet<Lane> = claimed
            .iter()
            .map(|p| Lane::of_message(&p.entry.message).unwrap())
            .collect();
        assert_eq!(
            lanes.len(),
            claimed.len(),
            "two messages of one lane at once"
        );
        assert!(
            !claimed.is_empty(),
            "nothing claimable with {delivered} delivered"
        );
        for p in &claimed {
            // Both processes deliver what they claimed.
            let store = if delivered % 2 == 0 {
                &first.store
            } else {
                &second
            };
            store.commit(sent(p.entry.id, Some("ref"))).await.unwrap();
            delivered += 1;
        }
    }
    assert!(first.pending(100).await.unwrap().is_empty());
}

#[tokio::test]
async fn one_leader_at_a_time_and_the_role_frees_when_the_leader_dies() {
    let first = store_or_skip!();
    let second = first.another().await;
    let leader = first.lead("telegram-polling").await.unwrap().expect("free");
    assert!(second.lead("telegram-polling").await.unwrap().is_none());
    let other_role = second.lead("something-else").await.unwrap();
    assert!(other_role.is_some());
    drop(leader);
    let leader = wait_for_leadership(&second).await;
    assert!(!leader.lost.is_cancelled());
    // The leader's connection is killed: it learns it lost the role, and another takes it.
    kill_connections(&first).await;
    tokio::time::timeout(Duration::from_secs(10), leader.lost.cancelled())
        .await
        .expect("the lost role noticed");
    let _next = wait_for_leadership(&first).await;
}

async fn wait_for_leadership(store: &PgStore) -> jieqi_store::Leadership {
    for _ in 0..50 {
        if let Some(leader) = store.lead("telegram-polling").await.unwrap() {
            return leader;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the role did not become free");
}

/// Ends every connection of the test's stores (the database "going away").
async fn kill_connections(test: &TestStore) {
    test.execute(&format!(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
         WHERE application_name = '{}' AND pid <> pg_backend_pid()",
        test.schema()
    ))
    .await;
}

#[tokio::test]
async fn the_store_reconnects_by_itself_and_keeps_what_it_acknowledged() {
    let store = store_or_skip!();
    store
        .commit(Change {
            chats: vec![chat(1)],
            ..answered("telegram:1")
        })
        .await
        .unwrap();
    kill_connections(&store).await;
    // The next call may fail ("busy, try again") or already succeed...
    match store.chat(&room("room")).await {
        Ok(found) => assert_eq!(found, Some(chat(1))),
        Err(e) => assert!(matches!(e, StoreError::Backend(_)), "{e:?}"),
    }
    // ...and soon calls succeed again, with everything acknowledged kept.
    let mut reconnected = false;
    for _ in 0..50 {
        match store.chat(&room("room")).await {
            Ok(found) => {
                assert_eq!(found, Some(chat(1)));
                reconnected = true;
                break;
            }
            Err(StoreError::Backend(_)) => tokio::time::sleep(Duration::from_millis(100)).await,
            Err(e) => panic!("{e:?}"),
        }
    }
    assert!(reconnected);
    store
        .commit(Change {
            chats: vec![chat(2)],
            ..Change::default()
        })
        .await
        .unwrap();
}

#[tokio::test]
async fn migrations_apply_once_and_a_newer_schema_is_refused() {
    let store = store_or_skip!();
    // Connecting again (another process starting) changes nothing.
    let again = store.another().await;
    drop(again);
    store
        .commit(Change {
            chats: vec![chat(1)],
            ..Change::default()
        })
        .await
        .unwrap();
    let (a, b) = tokio::join!(
        PgStore::connect_in_schema(store.url(), store.schema()),
        PgStore::connect_in_schema(store.url(), store.schema())
    );
    a.unwrap();
    b.unwrap();
    assert_eq!(store.chat(&room("room")).await.unwrap(), Some(chat(1)));
    store
        .execute("INSERT INTO schema_migrations (version) VALUES (999)")
        .await;
    let newer = PgStore::connect_in_schema(store.url(), store.schema()).await;
    assert_eq!(
        newer.unwrap_err(),
        StoreError::TooNew {
            found: 999,
            supported: jieqi_store_pg::SCHEMA_VERSION
        }
    );
}

#[tokio::test]
async fn a_wrong_database_url_says_what_is_wrong() {
    let Err(StoreError::Backend(garbled)) =
        PgStore::connect("postgres://localhost:notaport/test").await
    else {
        panic!("a garbled URL was accepted");
    };
    assert!(garbled.contains("DATABASE_URL"), "{garbled}");
    assert!(
        garbled.contains("not a PostgreSQL connection string"),
        "{garbled}"
    );
    let Err(StoreError::Backend(nobody)) =
        PgStore::connect("postgres://postgres@127.0.0.1:1/test").await
    else {
        panic!("connected to a closed port");
    };
    assert!(nobody.contains("DATABASE_URL"), "{nobody}");
    assert!(nobody.contains("cannot connect"), "{nobody}");
    let Err(StoreError::Backend(schema)) =
        PgStore::connect_in_schema("postgres://postgres@127.0.0.1:1/test", "bad name").await
    else {
        panic!("a bad schema name was accepted");
    };
    assert!(schema.contains("schema name"), "{schema}");
}

/// Of two processes, one claims a game's review at a time: the other is told it is busy
/// while the claim lives (the holder may renew it) and takes it once it lapsed. (A store for
/// one process, sled, never runs one review twice and keeps no such claim; that a review is
/// stored once and then served is the conformance suite's.)
#[tokio::test]
async fn of_two_processes_one_claims_a_review_until_its_claim_lapses() {
    use jieqi_store::ReviewClaim;
    let first = store_or_skip!();
    let second = first.another().await;
    let id: jieqi_store::ids::GameId = "g7k2".parse().unwrap();
    assert_eq!(
        first
            .claim_review(&id, &claim("p1", 100, 200))
            .await
            .unwrap(),
        ReviewClaim::Ours
    );
    assert_eq!(
        second
            .claim_review(&id, &claim("p2", 150, 250))
            .await
            .unwrap(),
        ReviewClaim::Busy
    );
    assert_eq!(
        first
            .claim_review(&id, &claim("p1", 160, 260))
            .await
            .unwrap(),
        ReviewClaim::Ours,
        "the holder may renew its claim"
    );
    assert_eq!(
        second
            .claim_review(&id, &claim("p2", 250, 350))
            .await
            .unwrap(),
        ReviewClaim::Busy,
        "the renewed claim holds past its first lease"
    );
    assert_eq!(
        second
            .claim_review(&id, &claim("p2", 300, 400))
            .await
            .unwrap(),
        ReviewClaim::Ours
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_spend_from_one_budget_and_never_past_it_together() {
    use jieqi_store::{Allowance, Spend};
    let Some(test) = test_store().await else {
        return;
    };
    let (one, two) = (test.another().await, test.another().await);
    let group = Allowance::new("tg:group:-42", 19, Duration::from_secs(60));
    let bot = Allowance::new("tg:bot", 1000, Duration::from_secs(1));
    // Forty posts asked for at once, half by each process: nineteen are spent, whoever asks.
    let mut asks = tokio::task::JoinSet::new();
    for i in 0..40 {
        let store = if i % 2 == 0 { one.clone() } else { two.clone() };
        let allowances = vec![group.clone(), bot.clone()];
        asks.spawn(async move { store.spend(&allowances).await.expect("spend") });
    }
    let mut spent = 0;
    let mut waits = Vec::new();
    while let Some(answer) = asks.join_next().await {
        match answer.expect("a task") {
            Spend::Spent => spent += 1,
            Spend::Wait(wait) => waits.push(wait),
        }
    }
    assert_eq!(spent, 19);
    // The others are told to come back when the first post leaves the window.
    assert!(
        waits
            .iter()
            .all(|w| *w > Duration::from_secs(55) && *w <= Duration::from_secs(60)),
        "{waits:?}"
    );
    // A rate: a burst, then one post an interval, across processes too.
    let beat = Allowance::rate("tg:beat:-42", 2, Duration::from_secs(30));
    assert_eq!(
        one.spend(std::slice::from_ref(&beat)).await.unwrap(),
        Spend::Spent
    );
    assert_eq!(
        two.spend(std::slice::from_ref(&beat)).await.unwrap(),
        Spend::Spent
    );
    assert!(matches!(
        one.spend(std::slice::from_ref(&beat)).await.unwrap(),
        Spend::Wait(_)
    ));
    // A post that may wait keeps room free: none here.
    let spare = Allowance::new("tg:group:-43", 19, Duration::from_secs(60)).keeping_free(18);
    assert_eq!(
        two.spend(std::slice::from_ref(&spare)).await.unwrap(),
        Spend::Spent
    );
    assert!(matches!(one.spend(&[spare]).await.unwrap(), Spend::Wait(_)));
}
