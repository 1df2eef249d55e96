//! With the web page on (`PUBLIC_URL`), every public board and the result link the game's
//! live page, and `/games` and `/watch` give the links; without it, nothing links anywhere.

use super::common;

use common::*;
use jieqi_service::{ButtonAction, DealSource, Destination, MessageKind};

const BASE: &str = "https://bot.example.org";

fn links(h: &Harness, kind: MessageKind) -> Vec<(String, String)> {
    h.delivered
        .iter()
        .filter(|e| e.message.kind == kind && matches!(e.message.to, Destination::Chat(_)))
        .flat_map(|e| e.message.buttons.iter())
        .filter_map(|b| match &b.action {
            ButtonAction::Link(url) => Some((b.label.clone(), url.clone())),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn boards_results_and_listings_link_the_games_live_page() {
    let mut h = Harness::new(DealSource::Seeded(21)).await;
    h.config.public_url = Some(BASE.to_owned());
    h.restart().await;
    let (alice, bob) = (user("alice"), user("bob"));
    let (chat, other) = (group("-701"), group("-702"));
    h.start_game(&alice, &bob, &chat, "xiangqi red").await;
    h.deliver().await;
    let game = h
        .delivered
        .iter()
        .find_map(|e| e.message.game.clone())
        .expect("a game");
    let page = format!("{BASE}/g/{game}");
    let boards = links(&h, MessageKind::Board);
    assert!(!boards.is_empty());
    assert!(
        boards
            .iter()
            .all(|(label, url)| label == "Watch live" && *url == page),
        "{boards:?}"
    );

    let listing = h.say(&alice, &chat, "/games").await;
    assert!(listing.replies[0].text.contains(&page), "{listing:?}");
    let watching = h.say(&bob, &other, &format!("/watch {game}")).await;
    assert!(
        watching.replies[0]
            .buttons
            .iter()
            .any(|b| b.action == ButtonAction::Link(page.clone())),
        "{watching:?}"
    );

    h.say(&alice, &chat, "/move h2e2").await;
    h.deliver().await;
    let watched: Vec<_> = h
        .delivered
        .iter()
        .filter(|e| {
            e.message.kind == MessageKind::Board && e.message.to == Destination::Chat(other.clone())
        })
        .collect();
    assert!(!watched.is_empty(), "the watching chat got the board");
    assert!(watched.iter().all(|e| {
        e.message
            .buttons
            .iter()
            .any(|b| b.action == ButtonAction::Link(page.clone()))
    }));

    h.say(&bob, &chat, "/resign").await;
    h.say(&bob, &chat, "/resign").await;
    h.deliver().await;
    let results = links(&h, MessageKind::Result);
    assert!(
        results.contains(&("Replay".to_owned(), page.clone())),
        "{results:?}"
    );
}

#[tokio::test]
async fn without_a_public_url_nothing_links_to_a_page() {
    let mut h = Harness::new(DealSource::Seeded(22)).await;
    let (alice, bob) = (user("alice"), user("bob"));
    let chat = group("-703");
    h.start_game(&alice, &bob, &chat, "jieqi red").await;
    h.say(&alice, &chat, "/move h2e2").await;
    h.deliver().await;
    assert!(links(&h, MessageKind::Board).is_empty());
    let listing = h.say(&alice, &chat, "/games").await;
    assert!(!listing.replies[0].text.contains("/g/"), "{listing:?}");
}
