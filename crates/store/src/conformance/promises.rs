//! The promises of [`GameStore`](crate::GameStore) about commits, request keys, records,
//! deadlines, claims and the outbox's lanes, reviews and game news. Each function is one
//! test; a second delivery "process" is a second holder on the same store.

use super::Subject;
use super::fixtures::*;
use crate::ids::Platform;
use crate::{Change, CommitError, Deferral, Due, GameChange, ReviewClaim, ReviewRecord};

/// A change whose record moved on meanwhile lands not at all, not even in part; a skipped
/// revision is refused too.
pub async fn a_change_computed_from_a_stale_revision_is_refused_whole(subject: &dyn Subject) {
    let opened = crate::__open_or_skip!(subject);
    let store = &*opened.store;
    store
        .commit(Change {
            chats: vec![chat(1)],
            ..answered("local:1")
        })
        .await
        .unwrap();
    // Another writer read revision 0 too: its change must not land, not even in part.
    let ids = store.allocate_outbox_ids(1).await.unwrap();
    let stale = Change {
        chats: vec![chat(1)],
        outbox: vec![(ids[0], message("room", "hi"))],
        games: vec![game("g7k2", 1, Some(30))],
        ..answered("local:2")
    };
    assert_eq!(store.commit(stale).await, Err(CommitError::Conflict));
    assert!(store.pending(10).await.unwrap().is_empty());
    assert_eq!(store.answer(&key("local:2")).await.unwrap(), None);
    assert_eq!(store.game(&"g7k2".parse().unwrap()).await.unwrap(), None);
    assert_eq!(store.due(100, 10).await.unwrap(), vec![]);
    // Skipping a revision is refused too; the next one lands.
    let skipping = Change {
        chats: vec![chat(3)],
        ..Change::default()
    };
    assert_eq!(store.commit(skipping).await, Err(CommitError::Conflict));
    store
        .commit(Change {
            chats: vec![chat(2)],
            ..Change::default()
        })
        .await
        .unwrap();
    assert_eq!(store.chat(&room("room")).await.unwrap(), Some(chat(2)));
}

/// Two changes that each create the same record (revision 1): the second is a conflict.
pub async fn a_new_record_whose_id_is_taken_is_a_conflict(subject: &dyn Subject) {
    let opened = crate::__open_or_skip!(subject);
    let store = &*opened.store;
    let create = || Change {
        games: vec![game("g7k2", 1, None)],
        challenges: vec![challenge("c4f7k", 1, 50)],
        ..Change::default()
    };
    store.commit(create()).await.unwrap();
    assert_eq!(store.commit(create()).await, Err(CommitError::Conflict));
    let player = || Change {
        players: vec![player(1)],
        ..Change::default()
    };
    store.commit(player()).await.unwrap();
    assert_eq!(store.commit(player()).await, Err(CommitError::Conflict));
}

/// A request key is answered once: a repeat is refused with the first answer, until the
/// answer is pruned; the first read of a request gets the answer and the chat together.
pub async fn a_request_key_answers_once_until_pruned(subject: &dyn Subject) {
    let opened = crate::__open_or_skip!(subject);
    let store = &*opened.store;
    store.commit(answered("telegram:9")).await.unwrap();
    assert_eq!(
        store.commit(answered("telegram:9")).await,
        Err(CommitError::Duplicate(answer(5)))
    );
    let first = key("telegram:9");
    assert_eq!(store.answer(&first).await.unwrap(), Some(answer(5)));
    assert_eq!(
        store.answer_and_chat(&first, &room("room")).await.unwrap(),
        (Some(answer(5)), None)
    );
    store
        .commit(Change {
            chats: vec![chat(1)],
            ..Change::default()
        })
        .await
        .unwrap();
    assert_eq!(
        store
            .answer_and_chat(&key("telegram:10"), &room("room"))
            .await
            .unwrap(),
        (None, Some(chat(1)))
    );
    assert_eq!(store.prune(5).await.unwrap(), 0);
    assert_eq!(store.prune(6).await.unwrap(), 1);
    assert_eq!(store.answer(&first).await.unwrap(), None);
    store.commit(answered("telegram:9")).await.unwrap();
}

/// Every kind of record reads back as it was committed.
pub async fn records_read_back_as_committed(subject: &dyn Subject) {
    let opened = crate::__open_or_skip!(subject);
    let store = &*opened.store;
    let mut finished = game("h3m4", 1, None);
    finished.ending = Some(crate::Ending::DrawAgreed);
    finished.finished_at = Some(9);
    store
        .commit(Change {
            games: vec![game("g7k2", 1, Some(30)), finished.clone()],
            challenges: vec![challenge("c4f7k", 1, 20)],
            chats: vec![chat(1), zoned_chat(1)],
            players: vec![player(1)],
            durable: true,
            ..Change::default()
        })
        .await
        .unwrap();
    assert_eq!(
        store.game(&"g7k2".parse().unwrap()).await.unwrap(),
        Some(game("g7k2", 1, Some(30)))
    );
    assert_eq!(
        store.game(&"h3m4".parse().unwrap()).await.unwrap(),
        Some(finished)
    );
    assert_eq!(
        store.challenge(&"c4f7k".parse().unwrap()).await.unwrap(),
        Some(challenge("c4f7k", 1, 20))
    );
    assert_eq!(store.chat(&room("room")).await.unwrap(), Some(chat(1)));
    assert_eq!(
        store.chat(&room("zoned")).await.unwrap(),
        Some(zoned_chat(1))
    );
    assert_eq!(
        store.player(&player(1).user).await.unwrap(),
        Some(player(1))
    );
    assert_eq!(store.game(&"z9z9".parse().unwrap()).await.unwrap(), None);
}

/// Games and challenges come due at their deadline, oldest first and at most as many as
/// asked; a finished game and a removed challenge leave the deadlines, and a challenge is
/// removed only at the revision it still has.
pub async fn deadlines_come_due_oldest_first_and_leave_with_their_record(subject: &dyn Subject) {
    let opened = crate::__open_or_skip!(subject);
    let store = &*opened.store;
    store
        .commit(Change {
            games: vec![game("g7k2", 1, Some(30)), game("h3m4", 1, None)],
            challenges: vec![challenge("c4f7k", 1, 20), challenge("d5g8m", 1, 99)],
            durable: true,
            ..Change::default()
        })
        .await
        .unwrap();
    let g = "g7k2".parse().unwrap();
    assert_eq!(
        store.due(30, 10).await.unwrap(),
        vec![Due::Challenge("c4f7k".parse().unwrap()), Due::Game(g),]
    );
    assert_eq!(store.due(19, 10).await.unwrap(), vec![]);
    assert_eq!(store.due(u64::MAX, 1).await.unwrap().len(), 1);
    store
        .commit(Change {
            games: vec![game("g7k2", 2, None)],
            ..Change::default()
        })
        .await
        .unwrap();
    let removal = |revision| Change {
        removed_challenges: vec![("c4f7k".parse().unwrap(), revision)],
        ..Change::default()
    };
    assert_eq!(store.commit(removal(2)).await, Err(CommitError::Conflict));
    store.commit(removal(1)).await.unwrap();
    assert_eq!(
        store.due(100, 10).await.unwrap(),
        vec![Due::Challenge("d5g8m".parse().unwrap())]
    );
    assert_eq!(
        store.challenge(&"c4f7k".parse().unwrap()).await.unwrap(),
        None
    );
}

/// A claim takes the oldest message of each lane nobody holds, at most as many lanes as
/// asked, oldest first, and of the platform asked for only.
pub async fn a_claim_takes_the_oldest_message_of_each_free_lane(subject: &dyn Subject) {
    let opened = crate::__open_or_skip!(subject);
    let store = &*opened.store;
    let ids = queue(store, &[("a", "a1"), ("a", "a2"), ("b", "b1"), ("c", "c1")]).await;
    assert!(
        store
            .claim(Some(Platform::Discord), &claim("p1", 100, 200), 10)
            .await
            .unwrap()
            .is_empty(),
        "no Discord message waits"
    );
    let first = store.claim(None, &claim("p1", 100, 200), 2).await.unwrap();
    assert_eq!(ids_of(&first), vec![ids[0], ids[2]]);
    assert_eq!(first[0].entry.message.text, "a1");
    assert!(first.iter().all(|m| m.taken_from.is_none()));
    // Another holder gets the lane left, never a second message of a held lane.
    let second = store
        .claim(Some(Platform::Telegram), &claim("p2", 101, 200), 10)
        .await
        .unwrap();
    assert_eq!(ids_of(&second), vec![ids[3]]);
    assert!(
        store
            .claim(None, &claim("p2", 102, 200), 10)
            .await
            .unwrap()
            .is_empty()
    );
}

/// Within a lane messages go in the order they were committed, one at a time: the next
/// is claimed only once the one before it is done with.
pub async fn a_lane_delivers_in_commit_order_one_message_at_a_time(subject: &dyn Subject) {
    let opened = crate::__open_or_skip!(subject);
    let store = &*opened.store;
    let ids = queue(
        store,
        &[
            ("a", "a1"),
            ("b", "b1"),
            ("a", "a2"),
            ("b", "b2"),
            ("c", "c1"),
        ],
    )
    .await;
    // A later commit to lane a, from ids allocated before the ones above were used up.
    let late = queue(store, &[("a", "a3")]).await[0];
    let (a1, b1, a2, b2, c1) = (ids[0], ids[1], ids[2], ids[3], ids[4]);
    let first = store.claim(None, &claim("p1", 100, 200), 10).await.unwrap();
    assert_eq!(ids_of(&first), vec![a1, b1, c1]);
    assert!(
        store
            .claim(None, &claim("p1", 101, 200), 10)
            .await
            .unwrap()
            .is_empty(),
        "nothing more while those are out"
    );
    store.commit(sent(a1, Some("m-1"))).await.unwrap();
    let next = store.claim(None, &claim("p1", 102, 200), 10).await.unwrap();
    assert_eq!(ids_of(&next), vec![a2]);
    store.commit(sent(b1, None)).await.unwrap();
    assert_eq!(
        ids_of(&store.claim(None, &claim("p1", 103, 200), 1).await.unwrap()),
        vec![b2]
    );
    assert_eq!(
        ids_of(&store.pending(10).await.unwrap()),
        vec![a2, b2, c1, late]
    );
    store.commit(sent(a2, None)).await.unwrap();
    assert_eq!(
        ids_of(&store.claim(None, &claim("p1", 104, 200), 10).await.unwrap()),
        vec![late]
    );
    assert_eq!(store.prune(11).await.unwrap(), 1, "the one sent reference");
}

/// A renewed claim holds past its first lease; a claim not renewed lapses and another
/// holder takes it over, told whose it was.
pub async fn a_renewed_claim_is_kept_and_a_lapsed_one_is_taken_over_naming_its_holder(
    subject: &dyn Subject,
) {
    let opened = crate::__open_or_skip!(subject);
    let store = &*opened.store;
    let ids = queue(store, &[("a", "a1"), ("b", "b1")]).await;
    let claimed = store.claim(None, &claim("p1", 100, 110), 10).await.unwrap();
    assert_eq!(ids_of(&claimed), ids);
    // p1 beats for a1 only (it died for b1, say).
    assert_eq!(
        store
            .renew(&claim("p1", 105, 120), &ids[..1])
            .await
            .unwrap(),
        vec![ids[0]]
    );
    assert!(
        store
            .claim(None, &claim("p2", 109, 200), 10)
            .await
            .unwrap()
            .is_empty(),
        "both claims live"
    );
    let taken_over = store.claim(None, &claim("p2", 115, 200), 10).await.unwrap();
    assert_eq!(
        ids_of(&taken_over),
        vec![ids[1]],
        "a1's renewed claim holds"
    );
    assert_eq!(taken_over[0].taken_from.as_deref(), Some("p1"));
    // p1 stops beating: a1 lapses at 120 and p2 takes it.
    let lapsed = store.claim(None, &claim("p2", 121, 200), 10).await.unwrap();
    assert_eq!(ids_of(&lapsed), vec![ids[0]]);
    assert_eq!(lapsed[0].taken_from.as_deref(), Some("p1"));
}

/// A holder whose claim was taken over does not get it back by renewing; the new holder
/// renews it; a holder claiming its own lapsed claim again takes nothing over.
pub async fn a_claim_taken_over_is_not_renewed_by_its_old_holder(subject: &dyn Subject) {
    let opened = crate::__open_or_skip!(subject);
    let store = &*opened.store;
    let ids = queue(store, &[("a", "a1")]).await;
    let first = store.claim(None, &claim("p1", 100, 110), 5).await.unwrap();
    assert_eq!(ids_of(&first), ids);
    let taken = store.claim(None, &claim("p2", 110, 200), 5).await.unwrap();
    assert_eq!(taken[0].taken_from.as_deref(), Some("p1"));
    assert!(
        store
            .renew(&claim("p1", 111, 300), &ids)
            .await
            .unwrap()
            .is_empty()
    );
    assert_eq!(
        store.renew(&claim("p2", 111, 300), &ids).await.unwrap(),
        ids
    );
    assert!(
        store
            .claim(None, &claim("p1", 250, 400), 5)
            .await
            .unwrap()
            .is_empty(),
        "the renewed claim holds until 300"
    );
    let again = store.claim(None, &claim("p2", 300, 400), 5).await.unwrap();
    assert_eq!(ids_of(&again), ids);
    assert_eq!(again[0].taken_from, None);
}

/// A message that failed a round defers its lane until the time given, keeps its attempt
/// count, and leaves no holder behind.
pub async fn a_deferred_lane_waits_until_its_time(subject: &dyn Subject) {
    let opened = crate::__open_or_skip!(subject);
    let store = &*opened.store;
    let ids = queue(store, &[("a", "a1"), ("a", "a2"), ("b", "b1")]).await;
    // p1 holds b1 past the deferral's end.
    let claimed = store
        .claim(None, &claim("p1", 100, 1000), 10)
        .await
        .unwrap();
    assert_eq!(ids_of(&claimed), vec![ids[0], ids[2]]);
    store
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
        store.outbox_record(ids[0]).await.unwrap().unwrap().attempts,
        1
    );
    assert!(
        store
            .claim(None, &claim("p2", 499, 900), 10)
            .await
            .unwrap()
            .is_empty(),
        "lane a waits, and a2 behind a1 with it"
    );
    let retried = store.claim(None, &claim("p2", 500, 900), 10).await.unwrap();
    assert_eq!(ids_of(&retried), vec![ids[0]]);
    assert_eq!(retried[0].entry.attempts, 1);
    assert_eq!(retried[0].taken_from, None, "a deferral leaves no holder");
}

/// A chat's messages about one game are a lane of their own beside the chat's: a board of
/// one game waiting for its time holds back neither the chat's other messages nor another
/// game's, the game's later messages wait behind it in order, and hastening it frees its lane.
pub async fn a_chats_messages_about_one_game_are_a_lane_of_their_own(subject: &dyn Subject) {
    let opened = crate::__open_or_skip!(subject);
    let store = &*opened.store;
    let about = |text: &str, game: &str, not_before: u64| {
        let mut record = message("room", text);
        record.message.game = Some(game.parse().expect("a game id"));
        record.not_before = not_before;
        record
    };
    let ids = store.allocate_outbox_ids(5).await.unwrap();
    let records = [
        about("g7k2's board, due at 500", "g7k2", 500),
        about("g7k2's result", "g7k2", 0),
        message("room", "an answer about no game"),
        about("h3m4's board", "h3m4", 0),
        about("g7k2's record", "g7k2", 0),
    ];
    store
        .commit(Change {
            outbox: ids.iter().copied().zip(records).collect(),
            ..Change::default()
        })
        .await
        .unwrap();
    let (board, result, answer, other, record) = (ids[0], ids[1], ids[2], ids[3], ids[4]);
    let first = store.claim(None, &claim("p1", 100, 200), 10).await.unwrap();
    assert_eq!(
        ids_of(&first),
        vec![answer, other],
        "the waiting board holds back only its own game"
    );
    store.commit(sent(answer, None)).await.unwrap();
    store.commit(sent(other, None)).await.unwrap();
    assert!(
        store
            .claim(None, &claim("p1", 101, 200), 10)
            .await
            .unwrap()
            .is_empty(),
        "the game's result waits behind its board"
    );
    store
        .commit(Change {
            hastened: vec![board],
            ..Change::default()
        })
        .await
        .unwrap();
    let hastened = store.claim(None, &claim("p1", 102, 200), 10).await.unwrap();
    assert_eq!(ids_of(&hastened), vec![board]);
    store.commit(sent(board, None)).await.unwrap();
    let next = store.claim(None, &claim("p1", 103, 200), 10).await.unwrap();
    assert_eq!(ids_of(&next), vec![result]);
    assert_eq!(
        store
            .lane_from(result, 10)
            .await
            .unwrap()
            .into_iter()
            .map(|(id, _)| id)
            .collect::<Vec<_>>(),
        vec![result, record],
        "the game's lane, in order"
    );
}

/// An edit names the platform's reference of the post it replaces, once that was sent.
pub async fn an_edit_carries_the_reference_of_the_post_it_replaces(subject: &dyn Subject) {
    let opened = crate::__open_or_skip!(subject);
    let store = &*opened.store;
    let post = queue(store, &[("a", "board")]).await[0];
    store.commit(sent(post, Some("tg-77"))).await.unwrap();
    let ids = store.allocate_outbox_ids(1).await.unwrap();
    let mut edit = message("a", "board, edited");
    edit.message.replaces = Some(post);
    store
        .commit(Change {
            outbox: vec![(ids[0], edit.clone())],
            ..Change::default()
        })
        .await
        .unwrap();
    assert_eq!(store.outbox_record(ids[0]).await.unwrap(), Some(edit));
    let claimed = store.claim(None, &claim("p", 1, 2), 5).await.unwrap();
    assert_eq!(claimed[0].entry.replaces_ref.as_deref(), Some("tg-77"));
    assert_eq!(
        store.pending(5).await.unwrap()[0]
            .entry
            .replaces_ref
            .as_deref(),
        Some("tg-77")
    );
}

/// Outbox ids are fresh and increasing, across allocations.
pub async fn outbox_ids_increase(subject: &dyn Subject) {
    let opened = crate::__open_or_skip!(subject);
    let store = &*opened.store;
    let mut all = store.allocate_outbox_ids(3).await.unwrap();
    all.extend(store.allocate_outbox_ids(70).await.unwrap());
    all.extend(store.allocate_outbox_ids(1).await.unwrap());
    assert_eq!(all.len(), 74);
    assert!(all.windows(2).all(|w| w[0] < w[1]), "{all:?}");
}

/// The review queue keeps the order reviews were queued in; the same review queued twice
/// is a conflict; an entry is taken off once.
pub async fn the_review_queue_keeps_its_order_and_each_entry_is_taken_once(subject: &dyn Subject) {
    let opened = crate::__open_or_skip!(subject);
    let store = &*opened.store;
    let queue = |requests: Vec<_>| Change {
        queued_reviews: requests,
        ..Change::default()
    };
    let dequeue = |request| Change {
        dequeued_reviews: vec![request],
        ..Change::default()
    };
    store
        .commit(queue(vec![review_request("g7k2", "b")]))
        .await
        .unwrap();
    store
        .commit(queue(vec![review_request("g7k3", "a")]))
        .await
        .unwrap();
    store
        .commit(queue(vec![review_request("g7k2", "a")]))
        .await
        .unwrap();
    let queued = store.queued_reviews(10).await.unwrap();
    assert_eq!(
        queued,
        [
            review_request("g7k2", "b"),
            review_request("g7k3", "a"),
            review_request("g7k2", "a")
        ]
    );
    assert_eq!(store.queued_reviews(1).await.unwrap(), queued[..1]);
    assert_eq!(
        store.commit(queue(vec![review_request("g7k3", "a")])).await,
        Err(CommitError::Conflict)
    );
    store
        .commit(dequeue(review_request("g7k3", "a")))
        .await
        .unwrap();
    assert_eq!(
        store.commit(dequeue(review_request("g7k3", "a"))).await,
        Err(CommitError::Conflict)
    );
    assert_eq!(
        store.queued_reviews(10).await.unwrap(),
        [review_request("g7k2", "b"), review_request("g7k2", "a")]
    );
}

/// A game's review is stored once and served from then on.
pub async fn a_review_is_stored_once(subject: &dyn Subject) {
    let opened = crate::__open_or_skip!(subject);
    let store = &*opened.store;
    let review = ReviewRecord {
        game: "g7k2".parse().unwrap(),
        at: 1,
        review: jieqi_review::GameReview {
            moves: Vec::new(),
            last: jieqi_review::Eval::Centi(0),
            nodes_per_search: 1,
        },
    };
    let id = review.game.clone();
    assert_eq!(store.review(&id).await.unwrap(), None);
    assert_eq!(
        store
            .claim_review(&id, &claim("p1", 100, 200))
            .await
            .unwrap(),
        ReviewClaim::Ours
    );
    let stored = || Change {
        reviews: vec![review.clone()],
        ..Change::default()
    };
    store.commit(stored()).await.unwrap();
    assert_eq!(store.commit(stored()).await, Err(CommitError::Conflict));
    assert_eq!(store.review(&id).await.unwrap(), Some(review.clone()));
    assert_eq!(
        store
            .claim_review(&id, &claim("p2", 300, 400))
            .await
            .unwrap(),
        ReviewClaim::Done(Box::new(review))
    );
}

/// Followers of game news hear every game revision committed, in commit order, and nothing
/// of a refused change.
pub async fn game_news_comes_in_commit_order(subject: &dyn Subject) {
    let opened = crate::__open_or_skip!(subject);
    let store = &*opened.store;
    let mut news = store.game_changes();
    // A shared store may start listening a moment after the first follower: commit a warm-up
    // game until its news comes back, so that what follows is all heard.
    let warm_up: crate::ids::GameId = "w2w2".parse().unwrap();
    let mut listening = false;
    for revision in 1..=40 {
        store
            .commit(Change {
                games: vec![game("w2w2", revision, None)],
                ..Change::default()
            })
            .await
            .unwrap();
        let wait = std::time::Duration::from_millis(250);
        while let Ok(Ok(heard)) = tokio::time::timeout(wait, news.recv()).await {
            if heard == GameChange::Revised(warm_up.clone(), revision) {
                listening = true;
                break;
            }
        }
        if listening {
            break;
        }
    }
    assert!(listening, "no news of a committed game within 10 s");
    for revision in 1..=3 {
        store
            .commit(Change {
                games: vec![game("g7k2", revision, None), game("h3m4", revision, None)],
                ..Change::default()
            })
            .await
            .unwrap();
    }
    assert_eq!(
        store
            .commit(Change {
                games: vec![game("g7k2", 3, None)],
                ..Change::default()
            })
            .await,
        Err(CommitError::Conflict)
    );
    store
        .commit(Change {
            games: vec![game("g7k2", 4, None)],
            ..Change::default()
        })
        .await
        .unwrap();
    let (g, h) = ("g7k2".parse().unwrap(), "h3m4".parse().unwrap());
    let mut heard = Vec::new();
    while heard.len() < 7 {
        let next = tokio::time::timeout(std::time::Duration::from_secs(10), news.recv())
            .await
            .expect("news within 10 s")
            .expect("a follower that keeps up misses nothing");
        assert_ne!(next, GameChange::MaybeMissed, "{heard:?}");
        heard.push(next);
    }
    // Within a game in revision order; across the games of one commit in either order.
    let of = |id: &crate::ids::GameId| -> Vec<u64> {
        heard
            .iter()
            .filter_map(|c| match c {
                GameChange::Revised(game, revision) if game == id => Some(*revision),
                _ => None,
            })
            .collect()
    };
    assert_eq!(of(&g), vec![1, 2, 3, 4], "{heard:?}");
    assert_eq!(of(&h), vec![1, 2, 3], "{heard:?}");
    let position = |id: &crate::ids::GameId, revision: u64| {
        heard
            .iter()
            .position(|c| *c == GameChange::Revised(id.clone(), revision))
            .unwrap()
    };
    for revision in 1..3 {
        assert!(
            position(&h, revision) < position(&g, revision + 1),
            "{heard:?}"
        );
    }
}
