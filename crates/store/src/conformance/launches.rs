//! The promise of [`GameStore`](crate::GameStore) about Discord Activity launches: the game a
//! "Play in Discord" button launched an instance on, for every process to read.

use super::Subject;
use super::fixtures::room;
use crate::LaunchRecord;
use crate::ids::ActivityInstanceId;

fn instance(id: &str) -> ActivityInstanceId {
    id.parse().expect("an instance id")
}

fn launched(game: &str, at: u64) -> LaunchRecord {
    LaunchRecord {
        game: game.parse().expect("a game id"),
        chat: room("room"),
        at,
    }
}

/// A launch reads back by its instance, a later launch into the same instance replaces it,
/// another instance is unknown, and pruning forgets launches older than its bound only.
pub async fn an_activity_launch_reads_back_until_replaced_or_pruned(subject: &dyn Subject) {
    let opened = crate::__open_or_skip!(subject);
    let store = &*opened.store;
    let (here, there) = (instance("i-1-gc-1-2"), instance("i-2-gc-1-3"));
    assert_eq!(store.launch(&here).await.unwrap(), None);
    store
        .record_launch(&here, &launched("g7k2", 10))
        .await
        .unwrap();
    assert_eq!(
        store.launch(&here).await.unwrap(),
        Some(launched("g7k2", 10))
    );
    assert_eq!(store.launch(&there).await.unwrap(), None);
    store
        .record_launch(&here, &launched("h3m4", 20))
        .await
        .unwrap();
    store
        .record_launch(&there, &launched("g7k2", 5))
        .await
        .unwrap();
    assert_eq!(
        store.launch(&here).await.unwrap(),
        Some(launched("h3m4", 20))
    );
    store.prune(6).await.unwrap();
    assert_eq!(store.launch(&there).await.unwrap(), None, "older: pruned");
    assert_eq!(
        store.launch(&here).await.unwrap(),
        Some(launched("h3m4", 20)),
        "younger: kept"
    );
}
