//! Restarts: the store closed and reopened mid-game loses nothing, deadlines keep working,
//! and messages not yet delivered are still in the outbox; nor does compacting the store.

use super::common;

use std::time::Duration;

use common::*;
use jieqi_service::{DealSource, Input, MessageKind};

#[tokio::test]
async fn a_game_survives_closing_and_reopening_the_store() {
    let mut h = Harness::new(DealSource::Scripted {
        seed: 2,
        deals: vec![IDENTITY_DEAL.to_owned()],
    })
    .await;
    let (alice, bob) = (user("alice"), user("bob"));
    let chat = group("-400");
    h.say_mentioning(&alice, &chat, "/challenge @bob red 1h", vec![bob.clone()])
        .await;
    h.say(&bob, &chat, "/accept").await;
    h.say(&alice, &chat, "/move h2e2").await;
    h.deliver().await;
    h.say(&bob, &chat, "/move h9g7").await;
    // Not delivered before the "crash".
    let undelivered = h.service.pending(100).await.unwrap();
    assert!(!undelivered.is_empty());

    h.restart().await;
    assert_eq!(
        h.service.pending(100).await.unwrap(),
        undelivered,
        "the outbox survived"
    );
    h.deliver().await;
    // The game goes on where it was: Red to move, the moves replayed.
    let answer = h.say(&bob, &chat, "/move g7e6").await;
    assert!(refusal(&answer).contains("not your turn"));
    let answer = h.say(&alice, &chat, "/move b2c2").await;
    assert!(answer.replies.is_empty(), "{answer:#?}");
    let answer = h.say(&alice, &chat, "/history").await;
    assert!(
        answer.replies[0].text.contains("C2.5"),
        "{}",
        answer.replies[0].text
    );

    // The deadline was stored: an hour without Black moving loses (after two plies).
    h.advance(Duration::from_secs(3600));
    h.restart().await;
    h.tick().await;
    let out = h.deliver().await;
    let result = of_kind(&out, MessageKind::Result);
    assert_eq!(result.len(), 1, "{out:#?}");
    assert!(
        result[0]
            .text
            .contains("alice (Red) wins: the opponent ran out of time"),
        "{}",
        result[0].text
    );
}

#[tokio::test]
async fn time_outs_abort_early_games_and_challenges_expire() {
    let mut h = Harness::new(DealSource::Seeded(4)).await;
    let (alice, bob, carol) = (user("alice"), user("bob"), user("carol"));
    let chat = group("-401");

    // An open challenge nobody takes expires after the default hour.
    h.say(&carol, &chat, "/challenge xiangqi").await;
    h.advance(Duration::from_secs(59 * 60));
    h.tick().await;
    let posted = h.deliver().await;
    assert_eq!(posted.len(), 1, "still open after 59 minutes");
    h.advance(Duration::from_secs(60));
    let answer = h.say(&alice, &chat, "/accept").await;
    assert!(
        refusal(&answer).contains("no open challenge"),
        "{answer:#?}"
    );
    h.tick().await;
    let out = h.deliver().await;
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].message.replaces, Some(posted[0].id));
    assert!(out[0].message.buttons.is_empty());
    assert!(
        out[0].message.text.contains("expired"),
        "{}",
        out[0].message.text
    );

    // A game abandoned after one ply is aborted, not lost; it is not rated.
    h.say_mentioning(&alice, &chat, "/challenge @bob red 30m", vec![bob.clone()])
        .await;
    h.say(&bob, &chat, "/accept").await;
    h.say(&alice, &chat, "/move h2e2").await;
    h.advance(Duration::from_secs(29 * 60));
    h.tick().await;
    h.deliver().await;
    assert!(of_kind(&h.delivered, MessageKind::Result).is_empty());
    h.advance(Duration::from_secs(60));
    h.tick().await;
    let out = h.deliver().await;
    let result = of_kind(&out, MessageKind::Result);
    assert!(result[0].text.contains("aborted"), "{}", result[0].text);
    let answer = h.say(&alice, &chat, "/stats").await;
    assert!(
        answer.replies[0].text.contains("No rated games"),
        "{}",
        answer.replies[0].text
    );
    // Ticking again changes nothing.
    h.tick().await;
    assert!(h.deliver().await.is_empty());
}

#[tokio::test]
async fn games_answers_and_the_outbox_survive_compaction() {
    let mut h = Harness::new(DealSource::Scripted {
        seed: 2,
        deals: vec![IDENTITY_DEAL.to_owned(), IDENTITY_DEAL.to_owned()],
    })
    .await;
    let (alice, bob) = (user("alice"), user("bob"));
    let chat = group("-402");
    h.say_mentioning(&alice, &chat, "/challenge @bob red", vec![bob.clone()])
        .await;
    h.say(&bob, &chat, "/accept").await;
    h.say(&alice, &chat, "/move h2e2").await;
    h.say(&bob, &chat, "/move h9g7").await;
    h.say(&alice, &chat, "/resign").await;
    h.say(&alice, &chat, "/resign").await;
    h.deliver().await;
    // A second game, running, with a message not yet delivered.
    h.say_mentioning(&bob, &chat, "/challenge @alice red", vec![alice.clone()])
        .await;
    h.say(&alice, &chat, "/accept").await;
    h.deliver().await;
    h.say(&bob, &chat, "/move h2e2").await;
    let undelivered = h.service.pending(100).await.unwrap();
    assert!(!undelivered.is_empty());
    let history_before = h.say(&alice, &chat, "/history").await;
    let repeated = h.request(&alice, &chat, Input::Text("/stats".into()), Vec::new());
    let first_answer = h.service.handle(repeated.clone()).await;

    h.restart_compacted().await;
    assert_eq!(h.service.pending(100).await.unwrap(), undelivered);
    assert_eq!(
        h.service.handle(repeated).await,
        first_answer,
        "a repeated request gets the answer stored before compaction"
    );
    assert_eq!(h.say(&alice, &chat, "/history").await, history_before);
    let answer = h.say(&alice, &chat, "/move h9g7").await;
    assert!(
        answer.replies.is_empty(),
        "the running game goes on: {answer:#?}"
    );
}
