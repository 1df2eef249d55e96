//! The promises of [`GameStore`](crate::GameStore) about tournaments: a tournament reads back
//! as committed (by id, by chat, among those not over), and each round is paired once: of two
//! processes pairing the same round from the same revision, one stands and the other's whole
//! change (its games, its posts) is refused.

use super::Subject;
use super::fixtures::{game, message, room};
use crate::tournament::{TournamentRecord, TournamentState, example};
use crate::{Change, CommitError};

/// `example` before its start: open, nobody paired, at `revision`.
fn open(id: &str, revision: u64) -> TournamentRecord {
    let mut record = example(id, revision, ["g7k2", "h3m4"]);
    record.state = TournamentState::Open;
    record.round = 0;
    record.games.clear();
    for player in &mut record.players {
        player.entries.clear();
    }
    record
}

/// A tournament reads back as committed, by its id and among its chat's (oldest first); it
/// is among the unfinished ones until it is over; another chat has none.
pub async fn a_tournament_reads_back_by_id_by_chat_and_while_unfinished(subject: &dyn Subject) {
    let opened = crate::__open_or_skip!(subject);
    let store = &*opened.store;
    let first = open("t4f7k2", 1);
    let mut second = open("t9b3c4", 1);
    second.created_at = first.created_at + 5;
    // The announcement's post, kept to edit its buttons off at the end.
    second.announcement = Some(crate::message::OutboxId(41));
    store
        .commit(Change {
            tournaments: vec![second.clone(), first.clone()],
            ..Change::default()
        })
        .await
        .unwrap();
    assert_eq!(
        store.tournament(&first.id).await.unwrap(),
        Some(first.clone())
    );
    assert_eq!(
        store.tournament(&"t2222x".parse().unwrap()).await.unwrap(),
        None
    );
    assert_eq!(
        store.chat_tournaments(&room("room")).await.unwrap(),
        vec![first.clone(), second.clone()]
    );
    assert_eq!(
        store.chat_tournaments(&room("elsewhere")).await.unwrap(),
        vec![]
    );
    let mut finished = example("t4f7k2", 2, ["g7k2", "h3m4"]);
    finished.state = TournamentState::Finished;
    store
        .commit(Change {
            tournaments: vec![finished.clone()],
            ..Change::default()
        })
        .await
        .unwrap();
    assert_eq!(store.unfinished_tournaments().await.unwrap(), vec![second]);
    assert_eq!(
        store.chat_tournaments(&room("room")).await.unwrap()[0],
        finished
    );
}

/// Two processes pair round 1 from the same revision at once, each with its own games and
/// pairings post: one change stands whole, the other is refused whole (none of its games or
/// posts exist); a later change from the stale revision is refused too.
pub async fn a_round_is_paired_once_whichever_process_pairs_it(subject: &dyn Subject) {
    let opened = crate::__open_or_skip!(subject);
    let store = &*opened.store;
    store
        .commit(Change {
            tournaments: vec![open("t4f7k2", 1)],
            ..Change::default()
        })
        .await
        .unwrap();
    let ids = store.allocate_outbox_ids(2).await.unwrap();
    let pairing = |games: [&str; 2], post| Change {
        tournaments: vec![example("t4f7k2", 2, games)],
        games: games.iter().map(|g| game(g, 1, None)).collect(),
        outbox: vec![(post, message("room", "round 1"))],
        durable: true,
        ..Change::default()
    };
    let (a, b) = tokio::join!(
        store.commit(pairing(["g7k2", "h3m4"], ids[0])),
        store.commit(pairing(["j5n6", "k7p8"], ids[1])),
    );
    let (won, lost) = match (&a, &b) {
        (Ok(()), Err(CommitError::Conflict)) => (["g7k2", "h3m4"], ["j5n6", "k7p8"]),
        (Err(CommitError::Conflict), Ok(())) => (["j5n6", "k7p8"], ["g7k2", "h3m4"]),
        other => panic!("one pairing stands and one is refused, not {other:?}"),
    };
    assert_eq!(
        store.tournament(&"t4f7k2".parse().unwrap()).await.unwrap(),
        Some(example("t4f7k2", 2, won))
    );
    for id in won {
        assert!(store.game(&id.parse().unwrap()).await.unwrap().is_some());
    }
    for id in lost {
        assert_eq!(store.game(&id.parse().unwrap()).await.unwrap(), None);
    }
    assert_eq!(
        store.pending(10).await.unwrap().len(),
        1,
        "one pairings post"
    );
    let stale = Change {
        tournaments: vec![example("t4f7k2", 2, ["m2q3", "r4s5"])],
        ..Change::default()
    };
    assert_eq!(store.commit(stale).await, Err(CommitError::Conflict));
}

/// An open tournament with a start time is due at that time, not before; once a change
/// starts it (round 1 paired), it is due no more.
pub async fn an_open_tournament_is_due_at_its_start_time_until_it_starts(subject: &dyn Subject) {
    let opened = crate::__open_or_skip!(subject);
    let store = &*opened.store;
    let mut waiting = open("t4f7k2", 1);
    waiting.starts_at = Some(5_000);
    store
        .commit(Change {
            tournaments: vec![waiting],
            ..Change::default()
        })
        .await
        .unwrap();
    assert_eq!(store.due(4_999, 10).await.unwrap(), vec![]);
    let id: crate::ids::TournamentId = "t4f7k2".parse().unwrap();
    assert_eq!(
        store.due(5_000, 10).await.unwrap(),
        vec![crate::Due::Tournament(id.clone())]
    );
    let mut started = example("t4f7k2", 2, ["g7k2", "h3m4"]);
    started.starts_at = Some(5_000);
    store
        .commit(Change {
            tournaments: vec![started],
            games: ["g7k2", "h3m4"].iter().map(|g| game(g, 1, None)).collect(),
            ..Change::default()
        })
        .await
        .unwrap();
    let due = store.due(6_000, 10).await.unwrap();
    assert!(
        !due.contains(&crate::Due::Tournament(id)),
        "started, so not due: {due:?}"
    );
}

/// A running arena is due at its end, not before (whichever process ticks then ends it);
/// once a change finishes it, it is due no more.
pub async fn a_running_arena_is_due_at_its_end_until_it_finishes(subject: &dyn Subject) {
    let opened = crate::__open_or_skip!(subject);
    let store = &*opened.store;
    let running = crate::tournament::arena_example("t4f7k2", 1, ["g7k2", "h3m4"]);
    let end = running.ends_at.expect("an end");
    store
        .commit(Change {
            tournaments: vec![running.clone()],
            games: ["g7k2", "h3m4"].iter().map(|g| game(g, 1, None)).collect(),
            ..Change::default()
        })
        .await
        .unwrap();
    let id = running.id.clone();
    assert_eq!(
        store.tournament(&id).await.unwrap().as_ref(),
        Some(&running),
        "reads back as committed"
    );
    assert_eq!(store.due(end - 1, 10).await.unwrap(), vec![]);
    assert_eq!(
        store.due(end, 10).await.unwrap(),
        vec![crate::Due::Tournament(id.clone())]
    );
    let mut finished = running;
    finished.revision = 2;
    finished.state = TournamentState::Finished;
    store
        .commit(Change {
            tournaments: vec![finished],
            ..Change::default()
        })
        .await
        .unwrap();
    let due = store.due(end + 100, 10).await.unwrap();
    assert!(
        !due.contains(&crate::Due::Tournament(id)),
        "finished, so not due: {due:?}"
    );
}
