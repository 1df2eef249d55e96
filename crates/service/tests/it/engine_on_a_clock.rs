//! The engine on its own clock in a live chat game (`/play bot master 1+0`). The scenario's
//! clock runs in real time here, so the engine's thinking is charged to its clock as a
//! player's is: from the commit of the human's move to its own.

use super::common;

use std::time::{Duration, Instant};

use common::*;
use jieqi_service::store::{Ending, GameRecord, Seat};
use jieqi_service::{ChatId, DealSource, GameId};

/// Far longer than a whole bullet game of the engine's, even on a busy machine.
const PATIENCE: Duration = Duration::from_secs(180);

async fn record(h: &Harness, id: &GameId) -> GameRecord {
    h.store.game(id).await.unwrap().expect("game stored")
}

async fn the_game(h: &Harness, chat: &ChatId) -> GameId {
    let chat = h.store.chat(chat).await.unwrap().expect("chat stored");
    chat.games.first().expect("a game").clone()
}

/// Waits until the game has more than `plies` moves or is over.
async fn wait_for_reply(h: &Harness, id: &GameId, plies: usize) -> GameRecord {
    let start = Instant::now();
    loop {
        let game = record(h, id).await;
        if game.moves.len() > plies || !game.is_active() {
            return game;
        }
        assert!(start.elapsed() < PATIENCE, "the engine did not move");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

/// The engine's game time after its move (its clock stands while the human's runs).
fn engine_time(game: &GameRecord) -> Duration {
    game.clock.as_ref().expect("a live game").parts().black.main
}

#[tokio::test]
async fn the_master_engine_never_loses_on_time_at_bullet_even_with_seconds_left() {
    let mut h = Harness::new(DealSource::Seeded(31)).await;
    h.run_in_real_time();
    let alice = user("alice");
    let chat = group("-900");
    let answer = h.say(&alice, &chat, "/play bot master red 1+0").await;
    assert!(answer.replies.is_empty(), "{answer:#?}");
    let id = the_game(&h, &chat).await;
    let mut times = Vec::new();
    for turn in 0..50usize {
        let legal = h.service.legal_move_texts(&chat, &alice.id).await;
        if legal.is_empty() {
            break;
        }
        let mine = &legal[(turn * 7 + 3) % legal.len()];
        let answer = h.say(&alice, &chat, &format!("/move {mine}")).await;
        assert!(answer.replies.is_empty(), "{answer:#?}");
        let played = record(&h, &id).await.moves.len();
        if turn == 1 {
            // The engine is thinking on nearly a minute (its first move took about 2 s, this
            // one takes as long): take 44 s of it at once, so that it plays the rest of the
            // game on its last dozen seconds. Not fewer: every move is also charged what the
            // service spends outside the search (reading the game, waiting for a core,
            // committing), which no time manager can save. On PostgreSQL in a CI run at a load
            // of 10 on 2 cores that was about 250 ms a move (a CI run on 2026-12-06: 18 moves
            // from 4.24 s, each search allowed at most 131 ms), so 4 s covered 16 moves, not 48.
            h.advance(Duration::from_secs(44));
        }
        let game = wait_for_reply(&h, &id, played).await;
        if !game.is_active() {
            break;
        }
        times.push(engine_time(&game));
        h.deliver().await;
    }
    let game = record(&h, &id).await;
    let shown: Vec<String> = times
        .iter()
        .map(|t| format!("{:.2}", t.as_secs_f64()))
        .collect();
    println!(
        "engine at 1+0: {} moves, ending {:?}, its clock after each move (s): {}",
        times.len(),
        game.ending,
        shown.join(" ")
    );
    assert_ne!(
        game.ending,
        Some(Ending::TimedOut(Seat::Second)),
        "the engine lost on time"
    );
    assert!(
        times.len() >= 10 || !game.is_active(),
        "the game went on long enough to tell"
    );
    assert!(
        times.get(1).is_some_and(|t| *t < Duration::from_secs(16)),
        "the engine played on its last seconds: {shown:?}"
    );
    // Its time only ever went down (no increment), and never to nothing.
    assert!(times.windows(2).all(|w| w[1] <= w[0]), "{shown:?}");
    assert!(times.iter().all(|t| !t.is_zero()), "{shown:?}");
}
