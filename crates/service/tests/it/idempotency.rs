//! Every request delivered twice: the second time returns the same answer and changes
//! nothing (no new outbox entries, no new moves).

use super::common;

use common::*;
use jieqi_service::{ButtonAction, DealSource, Input, MessageKind};

#[tokio::test]
async fn every_request_delivered_twice_changes_nothing_the_second_time() {
    let mut h = Harness::new(DealSource::Seeded(11)).await;
    let (alice, bob, carol) = (user("alice"), user("bob"), user("carol"));
    let chat = group("-300");
    let other = group("-301");

    let mut script: Vec<(
        jieqi_service::User,
        jieqi_service::ChatId,
        Input,
        Vec<jieqi_service::User>,
    )> = vec![
        (
            alice.clone(),
            chat.clone(),
            Input::Text("/challenge @bob jieqi".into()),
            vec![bob.clone()],
        ),
        (
            bob.clone(),
            chat.clone(),
            Input::Text("/accept".into()),
            vec![],
        ),
    ];
    let text = |s: &str| Input::Text(s.to_owned());
    script.push((carol.clone(), chat.clone(), text("/board"), vec![]));
    script.push((
        carol.clone(),
        other.clone(),
        text("/settings language vi"),
        vec![],
    ));
    script.push((carol.clone(), chat.clone(), text("/games"), vec![]));
    script.push((carol.clone(), chat.clone(), text("/move h2e2"), vec![]));

    let mut game = None;
    let mut first_mover = None;
    for (who, chat_id, input, mentioned) in script {
        let request = h.request(&who, &chat_id, input, mentioned);
        let answer = h.service.handle(request.clone()).await;
        let out = h.deliver().await;
        let again = h.service.handle(request).await;
        assert_eq!(answer, again, "a repeat gets the same answer");
        assert!(h.deliver().await.is_empty(), "a repeat queues nothing");
        if let Some(board) = of_kind(&out, MessageKind::Board).first() {
            game = board.game.clone();
            first_mover = board.mentions.first().cloned();
        }
    }
    let game = game.expect("a game started");
    let first_mover = first_mover.expect("someone to move");
    let (mover, waiter) = if first_mover == alice.id {
        (alice.clone(), bob.clone())
    } else {
        (bob.clone(), alice.clone())
    };

    // Moves, refusals and buttons, each twice.
    let steps = [
        (mover.clone(), text("/move h2e2")),
        (mover.clone(), text("/move h9g7")),
        (waiter.clone(), text("/move h9g7")),
        (mover.clone(), text("/draw")),
        (
            waiter.clone(),
            Input::Button(ButtonAction::OfferDraw(game.clone())),
        ),
    ];
    for (who, input) in steps {
        let request = h.request(&who, &chat, input, vec![]);
        let answer = h.service.handle(request.clone()).await;
        let out = h.deliver().await;
        let moves_before = h.service.metrics().moves;
        let again = h.service.handle(request).await;
        assert_eq!(answer, again);
        assert!(
            h.deliver().await.is_empty(),
            "repeat of {:?} queued messages",
            out.first().map(|e| &e.message.text)
        );
        assert_eq!(h.service.metrics().moves, moves_before);
    }
    // The draw was agreed exactly once.
    assert_eq!(of_kind(&h.delivered, MessageKind::Result).len(), 1);
    assert_eq!(h.service.metrics().games_finished, 1);

    // The same key after a restart is still known.
    let request = h.request(&carol, &chat, text("/challenge"), vec![]);
    let answer = h.service.handle(request.clone()).await;
    h.deliver().await;
    h.restart().await;
    assert_eq!(h.service.handle(request).await, answer);
    assert!(h.deliver().await.is_empty());
}
