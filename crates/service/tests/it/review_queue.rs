//! The review queue is kept in the store: a review someone was told is queued is posted once,
//! after the process stopped before running it, with the places in the queue still right;
//! on sled (the folder reopened) and on PostgreSQL (`JIEQI_TEST_STORE=postgres`: a new pool
//! on the same schema).

use super::common;
use super::review::short_game;

use common::*;
use jieqi_service::{ChatId, DealSource, GameId, MessageKind, OutboxEntry, User};

/// A finished Xiangqi game of a few plies in `chat`, its id.
async fn finished_game(h: &mut Harness, players: (&User, &User), chat: &ChatId) -> GameId {
    short_game(h, players, chat, "xiangqi", 6).await;
    let out = h.deliver().await;
    let result = of_kind(&out, MessageKind::Result);
    result
        .first()
        .and_then(|m| m.game.clone())
        .expect("a result about the game")
}

/// Asks for `game`'s review in `chat`: the one reply's text.
async fn ask(h: &mut Harness, who: &User, chat: &ChatId, game: &GameId) -> String {
    let answer = h.say(who, chat, &format!("/review {game}")).await;
    let [reply] = &answer.replies[..] else {
        panic!("one reply expected: {answer:#?}")
    };
    reply.text.clone()
}

/// The review summaries among `out`: (chat, game) of each.
fn summaries(out: &[OutboxEntry]) -> Vec<(jieqi_service::Destination, GameId)> {
    of_kind(out, MessageKind::Review)
        .into_iter()
        .filter(|m| m.text.starts_with("Review of game"))
        .map(|m| (m.to.clone(), m.game.clone().expect("about a game")))
        .collect()
}

#[tokio::test]
async fn queued_reviews_survive_a_restart_keep_their_places_and_are_posted_once() {
    let mut h = Harness::new(DealSource::Seeded(61)).await;
    // Nothing runs before the restart: the process stops with both reviews queued.
    h.service.set_review_workers(0);
    let (alice, bob) = (user("alice"), user("bob"));
    let (first_chat, second_chat) = (group("-410"), group("-411"));
    let first = finished_game(&mut h, (&alice, &bob), &first_chat).await;
    let second = finished_game(&mut h, (&alice, &bob), &second_chat).await;

    let told = ask(&mut h, &alice, &first_chat, &first).await;
    assert!(
        told.contains(&format!("Reviewing game {first} now")),
        "{told}"
    );
    let told = ask(&mut h, &bob, &second_chat, &second).await;
    assert!(told.contains("after 1 other review"), "{told}");
    assert!(summaries(&h.deliver().await).is_empty());

    h.restart().await;
    h.service.set_review_workers(0);
    // The places are what they were: the second is still behind the first.
    let told = ask(&mut h, &alice, &second_chat, &second).await;
    assert!(
        told.contains("already being reviewed (1 ahead of it)"),
        "{told}"
    );
    let told = ask(&mut h, &alice, &second_chat, &first).await;
    assert!(told.contains("after 2 other reviews"), "{told}");

    h.service
        .set_review_workers(jieqi_service::DEFAULT_REVIEW_WORKERS);
    h.service.reviews_settled().await;
    let mut posted = summaries(&h.deliver().await);
    posted.sort_by(|a, b| (format!("{:?}", a.0), &a.1).cmp(&(format!("{:?}", b.0), &b.1)));
    let mut expected = vec![
        (
            jieqi_service::Destination::Chat(first_chat.clone()),
            first.clone(),
        ),
        (
            jieqi_service::Destination::Chat(second_chat.clone()),
            second.clone(),
        ),
        (
            jieqi_service::Destination::Chat(second_chat.clone()),
            first.clone(),
        ),
    ];
    expected.sort_by(|a, b| (format!("{:?}", a.0), &a.1).cmp(&(format!("{:?}", b.0), &b.1)));
    assert_eq!(
        posted, expected,
        "each review posted once where it was asked"
    );

    // Another restart finds nothing left to post.
    h.restart().await;
    h.tick().await;
    h.service.reviews_settled().await;
    assert!(summaries(&h.deliver().await).is_empty());
}

#[tokio::test]
async fn the_first_tick_after_a_restart_runs_the_reviews_left_queued() {
    let mut h = Harness::new(DealSource::Seeded(62)).await;
    h.service.set_review_workers(0);
    let (alice, bob) = (user("alice"), user("bob"));
    let chat = group("-412");
    let game = finished_game(&mut h, (&alice, &bob), &chat).await;
    let told = ask(&mut h, &bob, &chat, &game).await;
    assert!(told.contains("now"), "{told}");

    h.restart().await;
    h.tick().await;
    // Nothing else starts it: the tick picked it up.
    let mut posted = Vec::new();
    for _ in 0..600 {
        posted.extend(summaries(&h.deliver().await));
        if !posted.is_empty() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(
        posted,
        vec![(jieqi_service::Destination::Chat(chat.clone()), game.clone())]
    );
    h.service.reviews_settled().await;
    assert!(summaries(&h.deliver().await).is_empty(), "posted once");
    // Asked again: served from the store.
    let answer = h.say(&alice, &chat, &format!("/review {game}")).await;
    assert!(answer.replies.is_empty(), "{answer:#?}");
    assert_eq!(summaries(&h.deliver().await).len(), 1);
}
