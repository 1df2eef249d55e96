//! A whole Banqi game through `handle`: flips decide the colours, moves are chosen among the
//! legal ones (captures first) until the game ends, and every message is checked.

use super::common;

use common::*;
use jieqi_service::{DealSource, Destination, MessageKind};
use rand::{Rng, SeedableRng};

#[tokio::test]
async fn banqi_game_played_to_its_end() {
    let mut h = Harness::new(DealSource::Seeded(3)).await;
    let (alice, bob) = (user("alice"), user("bob"));
    let chat = group("-200");
    h.start_game(&alice, &bob, &chat, "banqi black").await;
    let out = h.deliver().await;
    let board = of_kind(&out, MessageKind::Board)[0];
    // Bob moves first (Alice chose black); nobody has a colour before the first flip.
    assert!(board.text.contains("bob to move"), "{}", board.text);
    assert!(
        private_to(&out, &bob)[0]
            .text
            .contains("first flip decides")
    );
    assert!(!private_to(&out, &bob)[0].text.contains("covered piece"));

    let answer = h.say(&bob, &chat, "/move c3c4").await;
    assert!(refusal(&answer).contains("flip"), "{answer:#?}");
    let answer = h.say(&bob, &chat, "/move z9").await;
    assert!(refusal(&answer).contains("c3c4"), "{answer:#?}");
    let answer = h.say(&bob, &chat, "/peek").await;
    assert!(refusal(&answer).contains("first flip"), "{answer:#?}");

    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    let players = [bob.clone(), alice.clone()];
    let mut plies = 0;
    loop {
        let mover = &players[plies % 2];
        let legal = h.service.legal_move_texts(&chat, &mover.id).await;
        let other = &players[(plies + 1) % 2];
        assert!(
            h.service
                .legal_move_texts(&chat, &other.id)
                .await
                .is_empty()
        );
        if legal.is_empty() {
            break;
        }
        // Captures and flips first keep the game short.
        let captures: Vec<&String> = legal.iter().filter(|m| m.len() == 4).collect();
        let choice = if !captures.is_empty() && rng.gen_bool(0.7) {
            captures[rng.gen_range(0..captures.len())].clone()
        } else {
            legal[rng.gen_range(0..legal.len())].clone()
        };
        let answer = h.say(mover, &chat, &format!("/move {choice}")).await;
        plies += 1;
        let out = h.deliver().await;
        if !answer.replies.is_empty() {
            panic!("{choice} refused: {answer:#?}");
        }
        assert!(private_to(&out, &alice).is_empty() && private_to(&out, &bob).is_empty());
        if !of_kind(&out, MessageKind::Result).is_empty() {
            break;
        }
        assert!(plies < 400, "the game should have ended");
    }
    let result = of_kind(&h.delivered, MessageKind::Result);
    assert_eq!(result.len(), 1, "one result");
    assert_eq!(result[0].to, Destination::Chat(chat.clone()));
    assert!(result[0].text.contains("sha256"), "{}", result[0].text);
    assert!(
        h.service
            .legal_move_texts(&chat, &alice.id)
            .await
            .is_empty()
    );
    let metrics = h.service.metrics();
    assert_eq!(metrics.moves as usize, plies);
    assert_eq!(metrics.games_finished, 1);
    eprintln!("banqi game of {plies} plies");
}
