//! Old boards: each new board in per-move mode greys out the one before it (an edit in the
//! chat's stale-button lane, naming that board and its buttons), and a press on an old
//! board's Draw or Resign is answered with the game as it stands instead of acting.

use super::common;

use common::*;
use jieqi_service::{ButtonAction, DealSource, Destination, MessageKind};

#[tokio::test]
async fn each_new_board_greys_out_the_one_before_and_old_presses_show_the_game() {
    let mut h = Harness::new(DealSource::Seeded(3)).await;
    let (alice, bob) = (user("alice"), user("bob"));
    let chat = group("-100");
    h.start_game(&alice, &bob, &chat, "xiangqi red").await;
    let out = h.deliver().await;
    let first = out
        .iter()
        .find(|e| e.message.kind == MessageKind::Board)
        .expect("the first board");
    let game = first.message.game.clone().expect("its game");
    assert!(
        first
            .message
            .buttons
            .iter()
            .any(|b| b.action == ButtonAction::ResignAt(game.clone(), 0)),
        "{:?}",
        first.message.buttons
    );
    assert!(h.greyed.is_empty(), "nothing is old yet");

    let mut boards = vec![first.id];
    for (who, mv) in [(&alice, "h2e2"), (&bob, "h9g7")] {
        assert!(
            h.say(who, &chat, &format!("/move {mv}"))
                .await
                .replies
                .is_empty()
        );
        let out = h.deliver().await;
        let board = out
            .iter()
            .find(|e| e.message.kind == MessageKind::Board)
            .expect("a board");
        boards.push(board.id);
    }
    // One edit per new board, in the chat's stale-button lane, naming the board before it
    // with the buttons to grey out; no text, no picture.
    assert_eq!(h.greyed.len(), 2, "{:#?}", h.greyed);
    for (edit, board) in h.greyed.iter().zip(&boards) {
        assert_eq!(edit.message.to, Destination::StaleButtons(chat.clone()));
        assert_eq!(edit.message.replaces, Some(*board));
        assert!(edit.message.text.is_empty() && edit.message.image.is_none());
        assert!(
            edit.message
                .buttons
                .iter()
                .any(|b| matches!(b.action, ButtonAction::OfferDrawAt(..)))
        );
    }

    // Draw and Resign pressed under the first board: the game as it stands, nothing done.
    for action in [
        ButtonAction::OfferDrawAt(game.clone(), 0),
        ButtonAction::ResignAt(game.clone(), 1),
    ] {
        let answer = h.press(&alice, &chat, action).await;
        let text = refusal(&answer);
        assert!(text.starts_with("This board is old"), "{text}");
        assert!(text.contains("Last move: 1… "), "{text}");
        assert!(text.contains("alice (Red) to move"), "{text}");
    }
    assert!(
        h.deliver().await.is_empty(),
        "an old board's press changed nothing"
    );
    // Under the newest board the same press acts: a draw is offered.
    let answer = h
        .press(&alice, &chat, ButtonAction::OfferDrawAt(game.clone(), 2))
        .await;
    assert!(answer.replies.is_empty(), "{answer:#?}");
    let out = h.deliver().await;
    assert!(
        out.iter().any(|e| e.message.kind == MessageKind::DrawOffer),
        "{out:#?}"
    );
    // A button from before boards named their ply still acts as it did.
    let answer = h
        .press(&bob, &chat, ButtonAction::OfferDraw(game.clone()))
        .await;
    assert!(answer.replies.is_empty(), "{answer:#?}");
}

#[tokio::test]
async fn old_board_answers_are_in_the_chats_language() {
    let mut h = Harness::new(DealSource::Seeded(4)).await;
    let (alice, bob) = (user("alice"), user("bob"));
    for (lang, old) in [("zh", "这是旧棋盘"), ("vi", "Bàn cờ này đã cũ")] {
        let chat = group(&format!("-{lang}"));
        h.say(&alice, &chat, &format!("/settings language {lang}"))
            .await;
        h.start_game(&alice, &bob, &chat, "xiangqi red").await;
        let game = h
            .deliver()
            .await
            .iter()
            .find_map(|e| e.message.game.clone())
            .expect("a game");
        h.say(&alice, &chat, "/move h2e2").await;
        let answer = h
            .press(&bob, &chat, ButtonAction::ResignAt(game.clone(), 0))
            .await;
        assert!(refusal(&answer).contains(old), "{answer:#?}");
        // The game goes on: end it so the next chat's game is Alice's only one.
        h.say(&alice, &chat, &format!("/resign {game}")).await;
        h.say(&alice, &chat, &format!("/resign {game}")).await;
        h.deliver().await;
    }
}
