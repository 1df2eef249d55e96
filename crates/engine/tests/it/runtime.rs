//! The engine thinks on a blocking thread: the async runtime keeps running meanwhile.

use crate::common;

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use common::picker;
use jieqi_engine::{Budget, Engine, Level};
use jieqi_rules::{Game, GameDeal, Preset, Rules, Side, Variant, Viewer};

fn assert_send<T: Send + 'static>() {}

#[test]
fn engine_is_send_and_static() {
    assert_send::<Engine>();
}

#[tokio::test(flavor = "current_thread")]
async fn thinking_on_a_blocking_thread_leaves_the_runtime_free() {
    let deal = GameDeal::shuffled(Variant::Jieqi, &mut picker(1));
    let game = Game::new(Rules::new(Variant::Jieqi, Preset::Standard), deal).expect("new game");
    let view = game.view(Viewer::Player(Side::Red));
    let legal = game.legal_moves();
    // Time, not nodes, ends this search: it thinks for a good fraction of a second.
    let budget = Budget {
        nodes: u64::MAX / 4,
        movetime: Duration::from_millis(600),
        ..Level::Master.budget()
    };
    let mut engine = Engine::with_budget(Level::Master, budget, 3);

    let ticks = Arc::new(AtomicU32::new(0));
    let ticker = {
        let ticks = Arc::clone(&ticks);
        tokio::spawn(async move {
            let mut interval = tokio::time::interval(Duration::from_millis(5));
            loop {
                interval.tick().await;
                ticks.fetch_add(1, Ordering::Relaxed);
            }
        })
    };
    tokio::task::yield_now().await;
    let before = ticks.load(Ordering::Relaxed);
    let (mv, info) = tokio::task::spawn_blocking(move || {
        let mv = engine.choose(&view, &legal);
        (mv, engine.last_search())
    })
    .await
    .expect("the blocking task finishes");
    let during = ticks.load(Ordering::Relaxed) - before;
    ticker.abort();

    let mv = mv.expect("a move");
    assert!(game.legal_moves().contains(&mv));
    let thought = info.expect("a search ran").elapsed;
    // On this single-threaded runtime the ticker only advances if the engine is off it.
    // Ticks are every 5 ms; ask for a fraction of the ideal count to tolerate a busy machine.
    let expected = (thought.as_millis() / 5 / 4) as u32;
    assert!(
        thought >= Duration::from_millis(100) && during >= expected.max(3),
        "the runtime ticked {during} times while the engine thought for {thought:?}"
    );
}
