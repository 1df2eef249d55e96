//! Coalescing: boards of one game waiting one after the other in their chat's lane go out as
//! the newest, whose caption names every move; anything else in the lane keeps its place, a
//! game's first board is never skipped, and a crash between the skip and the post loses no
//! move (the covering board is still pending, for whoever takes the lane). On sled, and on
//! PostgreSQL with `JIEQI_TEST_STORE=postgres`.

use super::common;

use std::time::Duration;

use common::*;
use jieqi_service::store::PendingMessage;
use jieqi_service::{DealSource, MessageKind, Platform};

const LEASE: Duration = Duration::from_secs(30);

/// Claims the group lane's head, as a delivery loop does.
async fn head_of(h: &Harness, chat: &jieqi_service::ChatId) -> PendingMessage {
    let claimed = h
        .service
        .claim_pending_for(Platform::Telegram, LEASE, 64)
        .await
        .expect("claim");
    claimed
        .into_iter()
        .find(|p| p.entry.message.to == jieqi_service::Destination::Chat(chat.clone()))
        .expect("the chat's lane has a message")
}

/// Claims the heads of the chat's lanes (its messages about the game, its other messages),
/// lets the newest board stand in for each if it may, and delivers what comes out. Returns
/// it.
async fn deliver_next(h: &Harness, chat: &jieqi_service::ChatId) -> Vec<PendingMessage> {
    let claimed = h
        .service
        .claim_pending_for(Platform::Telegram, LEASE, 64)
        .await
        .expect("claim");
    let mut out = Vec::new();
    for head in claimed
        .into_iter()
        .filter(|p| p.entry.message.to == jieqi_service::Destination::Chat(chat.clone()))
    {
        let sent = match h
            .service
            .coalesce_boards(&head, LEASE)
            .await
            .expect("coalesce")
        {
            Some(covering) => covering,
            None => head,
        };
        h.service
            .delivered(sent.entry.id, Some(format!("msg{}", sent.entry.id.0)))
            .await
            .expect("delivered");
        out.push(sent);
    }
    assert!(!out.is_empty(), "the chat's lanes have a message");
    out
}

/// The undelivered messages of the chat's own lane (an old board's stale-button edit waits
/// in a lane of its own: not here).
async fn chat_lane(h: &Harness, chat: &jieqi_service::ChatId) -> Vec<jieqi_service::OutboxEntry> {
    let mut pending = h.service.pending(1000).await.expect("pending");
    pending.retain(|e| e.message.to == jieqi_service::Destination::Chat(chat.clone()));
    pending
}

/// Delivers every private message (the DMs a game start sends), leaving the chat's lane.
async fn deliver_private(h: &Harness) {
    for entry in h.service.pending(1000).await.expect("pending") {
        if matches!(entry.message.to, jieqi_service::Destination::Private(_)) {
            h.service
                .delivered(entry.id, None)
                .await
                .expect("delivered");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn boards_waiting_in_a_row_go_out_as_the_newest_naming_every_move() {
    let mut h = Harness::new(DealSource::Seeded(3)).await;
    let (alice, bob) = (user("alice"), user("bob"));
    let chat = group("-700");
    h.start_game(&alice, &bob, &chat, "xiangqi red").await;
    deliver_private(&h).await;
    // Two moves, a draw offer, two more moves, while nothing goes out to the chat.
    h.say(&alice, &chat, "/move h2e2").await;
    h.say(&bob, &chat, "/move h9g7").await;
    h.say(&bob, &chat, "/draw").await;
    h.say(&alice, &chat, "/move h0g2").await;
    h.say(&bob, &chat, "/move i9h9").await;

    // Everything the chat's lane holds, delivered one at a time as a delivery loop would.
    let mut sent = Vec::new();
    while !chat_lane(&h, &chat).await.is_empty() {
        sent.extend(deliver_next(&h, &chat).await);
    }
    let boards: Vec<&PendingMessage> = sent
        .iter()
        .filter(|p| p.entry.message.kind == MessageKind::Board)
        .collect();
    let plies: Vec<u32> = boards
        .iter()
        .map(|b| b.picture.as_ref().map_or(99, |p| p.plies))
        .collect();
    // The game's first board goes as it is, though a newer board waited behind it: it tells
    // the game started (and its commitment). The boards after moves 1 and 1… are one post
    // naming both, and so are those after 2 and 2….
    assert_eq!(plies, [0, 2, 4], "{sent:#?}");
    assert!(boards[0].entry.message.text.contains("has started"));
    let text = &boards[1].entry.message.text;
    assert!(
        text.contains("· 1. ") && text.contains("; 1… ") && text.contains("by bob"),
        "{text}"
    );
    assert!(text.contains("alice (Red) to move"), "{text}");
    let text = &boards[2].entry.message.text;
    assert!(text.contains("· 2. ") && text.contains("; 2… "), "{text}");
    assert!(
        !text.contains(" 1. "),
        "moves already told are not told again: {text}"
    );
    // The draw offer kept its place between them: not a board.
    let at = |id| sent.iter().position(|p| p.entry.id == id).unwrap();
    let offer = sent
        .iter()
        .find(|p| p.entry.message.kind == MessageKind::DrawOffer)
        .expect("the draw offer");
    assert!(at(boards[1].entry.id) < at(offer.entry.id));
    assert!(at(offer.entry.id) < at(boards[2].entry.id));
    assert_eq!(h.service.metrics().boards_coalesced, 2);
    // The newest board keeps its buttons (they act on the game) until the game ends.
    assert_eq!(boards[2].entry.message.buttons.len(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crash_between_skipping_and_posting_loses_no_move() {
    let mut h = Harness::new(DealSource::Seeded(4)).await;
    let (alice, bob) = (user("alice"), user("bob"));
    let chat = group("-701");
    h.start_game(&alice, &bob, &chat, "xiangqi red").await;
    h.deliver().await;
    for (who, mv) in [(&alice, "h2e2"), (&bob, "h9g7"), (&alice, "h0g2")] {
        h.say(who, &chat, &format!("/move {mv}")).await;
    }
    // The boards of the three moves wait; the head is claimed and the newest stands in for
    // it, with a claim that lapses soon; then the process dies before posting.
    let lease = Duration::from_millis(300);
    let head = h
        .service
        .claim_pending_for(Platform::Telegram, lease, 64)
        .await
        .expect("claim")
        .into_iter()
        .find(|p| p.entry.message.to == jieqi_service::Destination::Chat(chat.clone()))
        .expect("the head");
    let covering = h
        .service
        .coalesce_boards(&head, lease)
        .await
        .expect("coalesce")
        .expect("the newest board stands in");
    assert_ne!(covering.entry.id, head.entry.id);
    h.restart().await;
    // Claims lapse on the service's clock (PostgreSQL keeps them across the restart).
    h.advance(lease * 2);

    // Whoever takes the lane next delivers the covering board, naming all three moves.
    let pending = chat_lane(&h, &chat).await;
    assert_eq!(pending.len(), 1, "{pending:#?}");
    let next = deliver_next(&h, &chat).await.remove(0);
    assert_eq!(next.entry.id, covering.entry.id);
    let text = &next.entry.message.text;
    for number in ["· 1. ", "; 1… ", "; 2. "] {
        assert!(text.contains(number), "{number:?} in {text}");
    }
    assert!(chat_lane(&h, &chat).await.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_covering_board_that_waits_again_is_covered_in_turn() {
    let mut h = Harness::new(DealSource::Seeded(5)).await;
    let (alice, bob) = (user("alice"), user("bob"));
    let chat = group("-702");
    h.start_game(&alice, &bob, &chat, "xiangqi red").await;
    h.deliver().await;
    h.say(&alice, &chat, "/move h2e2").await;
    h.say(&bob, &chat, "/move h9g7").await;
    let head = head_of(&h, &chat).await;
    let covering = h
        .service
        .coalesce_boards(&head, LEASE)
        .await
        .unwrap()
        .expect("coalesced");
    // Its send fails (the platform's 429): its lane waits, and meanwhile another move comes.
    h.service
        .delivery_failed(covering.entry.id, Duration::ZERO)
        .await
        .unwrap();
    h.say(&alice, &chat, "/move h0g2").await;
    let next = deliver_next(&h, &chat).await.remove(0);
    let text = &next.entry.message.text;
    for number in ["· 1. ", "; 1… ", "; 2. "] {
        assert!(text.contains(number), "{number:?} in {text}");
    }
    assert!(chat_lane(&h, &chat).await.is_empty());
}
