//! A whole Xiangqi game through `handle`: challenge, accept, moves, refusals, checkmate,
//! ratings; and every message checked for who gets it.

use super::common;

use common::*;
use jieqi_service::{ButtonAction, DealSource, Destination, MessageKind};

#[tokio::test]
async fn xiangqi_game_from_challenge_to_checkmate() {
    let mut h = Harness::new(DealSource::Seeded(1)).await;
    let (alice, bob, carol) = (user("alice"), user("bob"), user("carol"));
    let chat = group("-100");

    // The challenge: public, with Accept (a deep link on Telegram) and Decline.
    let answer = h
        .say_mentioning(
            &alice,
            &chat,
            "/challenge @bob xiangqi red 2d",
            vec![bob.clone()],
        )
        .await;
    assert!(answer.replies.is_empty(), "{answer:#?}");
    let out = h.deliver().await;
    assert_eq!(out.len(), 1);
    let challenge = &out[0].message;
    assert_eq!(challenge.kind, MessageKind::Challenge);
    assert_eq!(challenge.to, Destination::Chat(chat.clone()));
    assert_eq!(challenge.mentions, vec![bob.id.clone()]);
    assert!(
        challenge.text.contains("alice challenges bob to Xiangqi"),
        "{}",
        challenge.text
    );
    assert!(
        challenge.text.contains("2 days per move"),
        "{}",
        challenge.text
    );
    let [accept, decline] = &challenge.buttons[..] else {
        panic!("two buttons expected: {:?}", challenge.buttons)
    };
    assert!(accept.deep_link_accept && !decline.deep_link_accept);
    let ButtonAction::Accept(challenge_id) = accept.action.clone() else {
        panic!("accept button")
    };

    // Carol may not take a challenge addressed to Bob.
    let answer = h.press(&carol, &chat, accept.action.clone()).await;
    assert!(refusal(&answer).contains("for bob"), "{answer:#?}");
    assert!(h.deliver().await.is_empty());

    // Bob accepts: the post loses its buttons, the first board goes up, both get a DM.
    let answer = h
        .press(&bob, &chat, ButtonAction::Accept(challenge_id))
        .await;
    assert!(answer.replies.is_empty(), "{answer:#?}");
    let out = h.deliver().await;
    let edit = of_kind(&out, MessageKind::Challenge);
    assert_eq!(edit.len(), 1);
    assert_eq!(edit[0].replaces, Some(out_id(&h, 0)));
    assert!(edit[0].buttons.is_empty());
    let boards = of_kind(&out, MessageKind::Board);
    assert_eq!(boards.len(), 1);
    let first_board = boards[0];
    assert!(first_board.image.is_some());
    assert!(
        first_board.text.contains("alice (Red) against bob (Black)"),
        "{}",
        first_board.text
    );
    assert!(
        first_board.text.contains("alice (Red) to move"),
        "{}",
        first_board.text
    );
    // Xiangqi has no deal, so no commitment.
    assert!(!first_board.text.contains("sha256"));
    assert_eq!(first_board.mentions, vec![alice.id.clone()]);
    let game = first_board.game.clone().expect("board names its game");
    assert_eq!(private_to(&out, &alice).len(), 1);
    assert_eq!(private_to(&out, &bob).len(), 1);
    assert!(private_to(&out, &alice)[0].text.contains("You play Red"));
    assert!(private_to(&out, &bob)[0].text.contains("You play Black"));
    assert_eq!(out.len(), 4);

    // Refusals: out of turn, a non-player, nonsense, an illegal move.
    let answer = h.say(&bob, &chat, "/move h9g7").await;
    assert!(refusal(&answer).contains("not your turn"), "{answer:#?}");
    let answer = h.say(&carol, &chat, "/move h2e2").await;
    assert!(refusal(&answer).contains("not a player"), "{answer:#?}");
    let answer = h
        .press(&carol, &chat, ButtonAction::Resign(game.clone()))
        .await;
    assert!(refusal(&answer).contains("not a player"), "{answer:#?}");
    let answer = h
        .press(&carol, &chat, ButtonAction::OfferDraw(game.clone()))
        .await;
    assert!(refusal(&answer).contains("not a player"), "{answer:#?}");
    let answer = h.say(&alice, &chat, "/move hello").await;
    assert!(refusal(&answer).contains("h2e2"), "{answer:#?}");
    let answer = h.say(&alice, &chat, "/move e0e2").await;
    assert!(
        refusal(&answer).starts_with("That move is not allowed"),
        "{answer:#?}"
    );
    assert!(h.deliver().await.is_empty(), "refusals change nothing");

    // The game: WXF, Chinese and coordinates are all read.
    for (who, text) in [
        (&alice, "/move C2+3"),
        (&bob, "/move b7a7"),
        (&alice, "/move 炮二平七"),
        (&bob, "/move f9e8"),
    ] {
        let answer = h.say(who, &chat, text).await;
        assert!(answer.replies.is_empty(), "{text}: {answer:#?}");
        let out = h.deliver().await;
        let boards = of_kind(&out, MessageKind::Board);
        // One new board, nothing else: the previous one keeps its buttons (they act on the
        // game), so a move costs one post.
        assert_eq!(boards.len(), 1, "{out:#?}");
        assert!(boards[0].replaces.is_none() && boards[0].image.is_some());
        assert_eq!(boards[0].buttons.len(), 2);
    }
    let answer = h.say(&alice, &chat, "/move c5c9").await;
    assert!(answer.replies.is_empty(), "{answer:#?}");
    let out = h.deliver().await;
    // The last board loses its buttons and keeps its caption: an edit with no text.
    let stripped = of_kind(&out, MessageKind::Board);
    assert_eq!(stripped.len(), 1, "{out:#?}");
    assert!(stripped[0].replaces.is_some() && stripped[0].text.is_empty());
    assert!(stripped[0].buttons.is_empty() && stripped[0].image.is_none());
    let result = of_kind(&out, MessageKind::Result);
    assert_eq!(result.len(), 1);
    assert!(
        result[0].text.contains("alice (Red) wins: checkmate"),
        "{}",
        result[0].text
    );
    assert!(result[0].image.is_some());
    let record = of_kind(&out, MessageKind::History);
    assert_eq!(record.len(), 1);
    // Xiangqi has no deal to reveal: the record is in the chat's notation (WXF by default).
    assert!(
        record[0].text.contains("1. C2+3 c2.1 2. C2.7 a6+5 3. C7+4"),
        "{}",
        record[0].text
    );

    // After the end: moves are refused, ratings moved.
    let answer = h.say(&bob, &chat, "/move e9f9").await;
    assert!(refusal(&answer).contains("No game of yours"), "{answer:#?}");
    let answer = h.say(&alice, &chat, "/stats").await;
    let stats = &answer.replies[0].text;
    assert!(stats.contains("Xiangqi, Correspondence: 1662"), "{stats}");
    assert!(stats.contains("1 won, 0 lost"), "{stats}");
    let answer = h.say(&carol, &chat, "/leaderboard xiangqi").await;
    let table = &answer.replies[0].text;
    let (a, b) = (table.find("alice").unwrap(), table.find("bob").unwrap());
    assert!(a < b, "{table}");
    let metrics = h.service.metrics();
    assert_eq!(
        (metrics.games_started, metrics.games_finished, metrics.moves),
        (1, 1, 5)
    );
    assert!(
        jieqi_service::i18n::missing_keys().is_empty(),
        "{:?}",
        jieqi_service::i18n::missing_keys()
    );
}

fn out_id(h: &Harness, index: usize) -> jieqi_service::OutboxId {
    h.delivered[index].id
}
