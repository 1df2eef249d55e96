//! What players ran into, played through the service: games that end before both sides have
//! moved, resignation, the time left, ratings, `/move` and `/board` in busy chats, the final
//! move and the proof, unreachable notices, echoes of user text, and wording.

mod common;

use common::*;
use jieqi_service::{DealSource, MessageKind};

/// Alice (Red) and Bob (Black) start a game of `variant` in `-100`.
async fn started(h: &mut Harness, variant: &str) {
    let (alice, bob) = (user("alice"), user("bob"));
    let chat = group("-100");
    h.say_mentioning(
        &alice,
        &chat,
        &format!("/challenge {variant} red @bob"),
        vec![bob.clone()],
    )
    .await;
    let answer = h.say(&bob, &chat, "/accept").await;
    assert!(answer.replies.is_empty(), "{answer:#?}");
    h.deliver().await;
}

async fn unrated(h: &mut Harness, who: &jieqi_service::User) {
    let answer = h.say(who, &group("-100"), "/stats").await;
    assert!(
        answer.replies[0].text.contains("No rated games"),
        "{}",
        answer.replies[0].text
    );
}

#[tokio::test]
async fn a_game_that_ends_before_both_sides_moved_is_aborted_and_unrated() {
    let (alice, bob) = (user("alice"), user("bob"));
    let chat = group("-100");

    // Resigning at ply 0 gives nobody a win.
    let mut h = Harness::new(DealSource::Seeded(1));
    started(&mut h, "jieqi").await;
    h.say(&alice, &chat, "/resign").await;
    h.say(&alice, &chat, "/resign").await;
    let out = h.deliver().await;
    let result = of_kind(&out, MessageKind::Result);
    assert_eq!(result.len(), 1, "{out:#?}");
    assert!(result[0].text.contains("aborted"), "{}", result[0].text);
    assert!(!result[0].text.contains("wins"), "{}", result[0].text);
    unrated(&mut h, &alice).await;
    unrated(&mut h, &bob).await;

    // A draw agreed after one ply: aborted too.
    let mut h = Harness::new(DealSource::Seeded(2));
    started(&mut h, "xiangqi").await;
    h.say(&alice, &chat, "/move h2e2").await;
    h.say(&alice, &chat, "/draw").await;
    h.say(&bob, &chat, "/draw").await;
    let out = h.deliver().await;
    let result = of_kind(&out, MessageKind::Result);
    assert!(result[0].text.contains("aborted"), "{}", result[0].text);
    unrated(&mut h, &bob).await;

    // Once both have moved, resigning is a rated loss.
    let mut h = Harness::new(DealSource::Seeded(3));
    started(&mut h, "xiangqi").await;
    h.say(&alice, &chat, "/move h2e2").await;
    h.say(&bob, &chat, "/move h9g7").await;
    h.say(&bob, &chat, "/resign").await;
    h.say(&bob, &chat, "/resign").await;
    let out = h.deliver().await;
    let result = of_kind(&out, MessageKind::Result);
    assert!(
        result[0].text.contains("alice (Red) wins"),
        "{}",
        result[0].text
    );
}
