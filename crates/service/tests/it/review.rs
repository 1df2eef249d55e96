//! `/review` through `handle`: the Review button under a result, a review queued and
//! posted in the background with its graph and costly moves, the same review served again
//! from the store, refusals; for every variant.

use super::common;

use common::*;
use jieqi_service::{ButtonAction, DealSource, Destination, MessageKind, User};

/// Plays `plies` moves (each side's first legal move) and has the side to move resign.
pub(crate) async fn short_game(
    h: &mut Harness,
    players: (&User, &User),
    chat: &jieqi_service::ChatId,
    variant: &str,
    plies: usize,
) {
    let (alice, bob) = players;
    h.start_game(alice, bob, chat, &format!("{variant} red"))
        .await;
    for _ in 0..plies {
        let mut moved = false;
        for who in [alice, bob] {
            let legal = h.service.legal_move_texts(chat, &who.id).await;
            if let Some(first) = legal.first() {
                let answer = h.say(who, chat, &format!("/move {first}")).await;
                assert!(answer.replies.is_empty(), "{answer:#?}");
                moved = true;
                break;
            }
        }
        assert!(moved, "somebody is to move");
    }
    h.deliver().await;
    // Whoever is to move resigns (asked once, then confirmed).
    for who in [alice, bob] {
        if !h.service.legal_move_texts(chat, &who.id).await.is_empty() {
            h.say(who, chat, "/resign").await;
            h.say(who, chat, "/resign").await;
            return;
        }
    }
    panic!("nobody could resign");
}

#[tokio::test]
async fn a_review_is_queued_from_the_result_button_posted_and_served_again_for_every_variant() {
    for (i, variant) in ["xiangqi", "jieqi", "banqi"].into_iter().enumerate() {
        let mut h = Harness::new(DealSource::Seeded(40 + i as u64)).await;
        let (alice, bob) = (user("alice"), user("bob"));
        let chat = group("-300");
        short_game(&mut h, (&alice, &bob), &chat, variant, 24).await;
        let out = h.deliver().await;
        let result = of_kind(&out, MessageKind::Result);
        let [result] = &result[..] else {
            panic!("{variant}: one result expected: {out:#?}")
        };
        let Some(button) = result
            .buttons
            .iter()
            .find(|b| matches!(b.action, ButtonAction::Review(_)))
        else {
            panic!("{variant}: a Review button expected: {:?}", result.buttons)
        };
        let ButtonAction::Review(game) = button.action.clone() else {
            panic!("{variant}: a Review button expected")
        };

        // Pressing it queues the review and says so.
        let answer = h.press(&bob, &chat, button.action.clone()).await;
        let [queued] = &answer.replies[..] else {
            panic!("{variant}: {answer:#?}")
        };
        assert!(queued.text.contains("Reviewing game"), "{}", queued.text);
        h.service.reviews_settled().await;
        let posts = h.deliver().await;
        let reviews = of_kind(&posts, MessageKind::Review);
        let summary = reviews.first().expect("a review summary");
        assert_eq!(summary.to, Destination::Chat(chat.clone()));
        assert!(summary.text.contains("accuracy"), "{}", summary.text);
        if variant != "xiangqi" {
            assert!(
                summary.text.contains("count by their odds"),
                "{}",
                summary.text
            );
        }
        let graph = summary.image.as_ref().expect("the graph");
        assert!(graph.file_name.ends_with("-review.png"));
        let decoder = png::Decoder::new(std::io::Cursor::new(&graph.bytes[..]));
        let info = decoder.read_info().expect("a PNG").info().clone();
        assert_eq!((info.width, info.height), (720, 360), "{variant}");
        // `JIEQI_REVIEW_GRAPHS=docs` keeps the graphs to look at (docs/review-graph-*.png).
        if let Ok(dir) = std::env::var("JIEQI_REVIEW_GRAPHS") {
            let path = std::path::Path::new(&dir).join(format!("review-graph-{variant}.png"));
            std::fs::write(path, &graph.bytes).expect("graph written");
        }
        // Costly moves, if any, come with the board as their mover saw it.
        for costly in &reviews[1..] {
            assert!(
                costly.text.contains("the engine preferred"),
                "{}",
                costly.text
            );
            assert!(costly.image.is_some());
        }

        // Asked again: served from the store at once, the same summary.
        let answer = h.say(&alice, &chat, &format!("/review {game}")).await;
        assert!(answer.replies.is_empty(), "{answer:#?}");
        let again = h.deliver().await;
        let again = of_kind(&again, MessageKind::Review);
        assert_eq!(again.len(), reviews.len());
        assert_eq!(again[0].text, summary.text);
        assert_eq!(again[0].image, summary.image);
    }
}

#[tokio::test]
async fn a_running_game_or_an_empty_chat_has_nothing_to_review() {
    let mut h = Harness::new(DealSource::Seeded(7)).await;
    let (alice, bob) = (user("alice"), user("bob"));
    let chat = group("-301");
    let answer = h.say(&alice, &chat, "/review").await;
    assert!(
        refusal(&answer).contains("No game has finished"),
        "{answer:#?}"
    );
    h.start_game(&alice, &bob, &chat, "xiangqi red").await;
    let out = h.deliver().await;
    let game = out
        .iter()
        .find_map(|e| e.message.game.clone())
        .expect("a game");
    let answer = h.say(&alice, &chat, &format!("/review {game}")).await;
    assert!(refusal(&answer).contains("has not finished"), "{answer:#?}");
    let answer = h.say(&alice, &chat, "/review nope!").await;
    assert!(!refusal(&answer).is_empty());
}
