//! What players ran into, played through the service: games that end before both sides have
//! moved, resignation, the time left, ratings, `/move` and `/board` in busy chats, the final
//! move and the proof, unreachable notices, echoes of user text, and wording.

use super::common;

use common::*;
use std::time::Duration;

use jieqi_service::{ButtonAction, DealSource, Destination, MessageKind};

/// Alice (Red) and Bob (Black) start a game of `variant` in `-100`.
async fn started(h: &mut Harness, variant: &str) {
    let (alice, bob) = (user("alice"), user("bob"));
    let chat = group("-100");
    let answer = h
        .start_game(&alice, &bob, &chat, &format!("{variant} red"))
        .await;
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
    let mut h = Harness::new(DealSource::Seeded(1)).await;
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
    let mut h = Harness::new(DealSource::Seeded(2)).await;
    started(&mut h, "xiangqi").await;
    h.say(&alice, &chat, "/move h2e2").await;
    h.say(&alice, &chat, "/draw").await;
    h.say(&bob, &chat, "/draw").await;
    let out = h.deliver().await;
    let result = of_kind(&out, MessageKind::Result);
    assert!(result[0].text.contains("aborted"), "{}", result[0].text);
    unrated(&mut h, &bob).await;

    // Once both have moved, resigning is a rated loss.
    let mut h = Harness::new(DealSource::Seeded(3)).await;
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

#[tokio::test]
async fn resigning_asks_once_and_a_second_resign_within_a_minute_confirms() {
    let (alice, bob) = (user("alice"), user("bob"));
    let chat = group("-100");
    let mut h = Harness::new(DealSource::Seeded(4)).await;
    started(&mut h, "xiangqi").await;
    h.say(&alice, &chat, "/move h2e2").await;
    h.say(&bob, &chat, "/move h9g7").await;
    h.deliver().await;

    // The first /resign only asks, privately, with a confirm button.
    let answer = h.say(&bob, &chat, "/resign").await;
    assert_eq!(answer.replies.len(), 1, "{answer:#?}");
    let ask = &answer.replies[0];
    assert_eq!(ask.to, Destination::ReplyToRequester { ephemeral: true });
    assert!(ask.text.contains("within a minute"), "{}", ask.text);
    let game = ask.game.clone().expect("about the game");
    assert_eq!(ask.buttons.len(), 1);
    assert_eq!(
        ask.buttons[0].action,
        ButtonAction::ResignConfirm(game.clone())
    );
    assert!(h.deliver().await.is_empty(), "nothing public yet");

    // Too late: a second /resign after the minute asks again.
    h.advance(Duration::from_secs(61));
    let answer = h.say(&bob, &chat, "/resign").await;
    assert!(answer.replies[0].text.contains("within a minute"));
    assert!(of_kind(&h.deliver().await, MessageKind::Result).is_empty());

    // The opponent cannot confirm it for him.
    let answer = h.say(&alice, &chat, "/resign").await;
    assert!(answer.replies[0].text.contains("within a minute"));

    // Within the minute, the second /resign resigns.
    h.advance(Duration::from_secs(30));
    let answer = h.say(&bob, &chat, "/resign").await;
    assert!(answer.replies.is_empty(), "{answer:#?}");
    let out = h.deliver().await;
    let result = of_kind(&out, MessageKind::Result);
    assert!(
        result[0].text.contains("alice (Red) wins"),
        "{}",
        result[0].text
    );
}

#[tokio::test]
async fn boards_show_the_deadline_and_the_mover_is_reminded_once_when_a_tenth_is_left() {
    let (alice, bob) = (user("alice"), user("bob"));
    let chat = group("-100");
    let mut h = Harness::new(DealSource::Seeded(5)).await;
    h.start_game(&alice, &bob, &chat, "xiangqi red 30m").await;
    let out = h.deliver().await;
    // T0 is 2023-11-14 22:13:20 UTC.
    let first = of_kind(&out, MessageKind::Board)[0];
    assert!(
        first
            .text
            .contains("Move by 2023-11-14 22:43 UTC (30 minutes left)"),
        "{}",
        first.text
    );
    h.say(&alice, &chat, "/move h2e2").await;
    h.advance(Duration::from_secs(60));
    h.say(&bob, &chat, "/move h9g7").await;
    let out = h.deliver().await;
    let board = *of_kind(&out, MessageKind::Board).last().expect("a board");
    assert!(
        board.text.contains("Move by 2023-11-14 22:44 UTC"),
        "{}",
        board.text
    );

    // /board says how long is left.
    h.advance(Duration::from_secs(10 * 60));
    h.say(&bob, &chat, "/board").await;
    let out = h.deliver().await;
    let board = of_kind(&out, MessageKind::Board)[0];
    assert!(board.text.contains("(20 minutes left)"), "{}", board.text);

    // At 27 of 30 minutes, Alice is mentioned in the chat, once.
    h.advance(Duration::from_secs(16 * 60));
    h.tick().await;
    assert!(h.deliver().await.is_empty());
    h.advance(Duration::from_secs(60));
    h.tick().await;
    let out = h.deliver().await;
    assert_eq!(out.len(), 1, "{out:#?}");
    let reminder = &out[0].message;
    assert_eq!(reminder.to, Destination::Chat(chat.clone()));
    assert_eq!(reminder.mentions, vec![alice.id.clone()]);
    assert!(
        reminder
            .text
            .contains("3 minutes left, until 2023-11-14 22:44 UTC"),
        "{}",
        reminder.text
    );
    h.advance(Duration::from_secs(60));
    h.tick().await;
    assert!(h.deliver().await.is_empty(), "one reminder per move");

    // Then the time-out itself.
    h.advance(Duration::from_secs(2 * 60));
    h.tick().await;
    let out = h.deliver().await;
    let result = of_kind(&out, MessageKind::Result);
    assert!(
        result[0]
            .text
            .contains("bob (Black) wins: the opponent ran out of time"),
        "{}",
        result[0].text
    );
}

#[tokio::test]
async fn the_end_of_a_rated_game_shows_both_new_ratings_and_the_change() {
    let (alice, bob) = (user("alice"), user("bob"));
    let chat = group("-100");
    let mut h = Harness::new(DealSource::Seeded(6)).await;
    started(&mut h, "xiangqi").await;
    h.say(&alice, &chat, "/move h2e2").await;
    h.say(&bob, &chat, "/move h9g7").await;
    h.say(&bob, &chat, "/resign").await;
    h.say(&bob, &chat, "/resign").await;
    let out = h.deliver().await;
    let result = of_kind(&out, MessageKind::Result)[0];
    assert!(
        result
            .text
            .contains("New ratings: alice 1662 (+162), bob 1338 (−162)."),
        "{}",
        result.text
    );

    // An aborted game shows none.
    let mut h = Harness::new(DealSource::Seeded(7)).await;
    started(&mut h, "xiangqi").await;
    h.say(&alice, &chat, "/resign").await;
    h.say(&alice, &chat, "/resign").await;
    let out = h.deliver().await;
    let result = of_kind(&out, MessageKind::Result)[0];
    assert!(!result.text.contains("ratings"), "{}", result.text);
}

#[tokio::test]
async fn move_picks_the_only_game_where_the_caller_is_to_move_and_names_extra_words() {
    let (alice, bob, carol) = (user("alice"), user("bob"), user("carol"));
    let chat = group("-100");
    let mut h = Harness::new(DealSource::Seeded(8)).await;
    for opponent in [&bob, &carol] {
        let answer = h.start_game(&alice, opponent, &chat, "xiangqi red").await;
        assert!(answer.replies.is_empty(), "{answer:#?}");
    }
    // Alice is to move in both: she must say which.
    let answer = h.say(&alice, &chat, "/move h2e2").await;
    assert!(refusal(&answer).contains("several games"), "{answer:#?}");
    let games: Vec<String> = h
        .deliver()
        .await
        .iter()
        .filter_map(|e| e.message.game.as_ref().map(|g| g.as_str().to_owned()))
        .collect();
    let with_bob = games[0].clone();
    let answer = h
        .say(&alice, &chat, &format!("/move {with_bob} h2e2"))
        .await;
    assert!(answer.replies.is_empty(), "{answer:#?}");
    // Now she is to move only against Carol: no id needed.
    let answer = h.say(&alice, &chat, "/move h2e2").await;
    assert!(answer.replies.is_empty(), "{answer:#?}");
    let out = h.deliver().await;
    let board = *of_kind(&out, MessageKind::Board).last().expect("a board");
    assert!(board.text.contains("carol"), "{}", board.text);
    assert_ne!(
        board.game.as_ref().map(|g| g.as_str()),
        Some(with_bob.as_str())
    );

    // Words after a whole move are named as extra, not read as a game id.
    let answer = h.say(&bob, &chat, "/move h9g7 extra words").await;
    let text = refusal(&answer);
    assert!(text.contains("“extra words”"), "{text}");
    assert!(!text.contains("There is no game"), "{text}");
    let answer = h.say(&bob, &chat, "/move h9g7 please").await;
    assert!(refusal(&answer).contains("“please”"), "{answer:#?}");
}

#[tokio::test]
async fn board_reposts_the_public_board_to_the_chat_at_most_every_30_seconds() {
    let (alice, carol) = (user("alice"), user("carol"));
    let chat = group("-100");
    let mut h = Harness::new(DealSource::Seeded(9)).await;
    started(&mut h, "jieqi").await;
    h.say(&alice, &chat, "/move h2e2").await;
    h.deliver().await;

    // Anyone may ask; the board goes to the chat, with its picture, not only to the asker.
    let answer = h.say(&carol, &chat, "/board").await;
    assert!(answer.replies.is_empty(), "{answer:#?}");
    let out = h.deliver().await;
    let boards = to_chat(&out, &chat);
    assert_eq!(boards.len(), 1, "{out:#?}");
    assert_eq!(boards[0].kind, MessageKind::Board);
    assert!(boards[0].image.is_some());

    // Again within 30 s: refused privately, saying when.
    h.advance(Duration::from_secs(20));
    let answer = h.say(&alice, &chat, "/board").await;
    assert!(refusal(&answer).contains("10 seconds"), "{answer:#?}");
    assert!(h.deliver().await.is_empty());
    // Another chat has its own limit.
    let answer = h
        .say(
            &carol,
            &group("-200"),
            &format!("/board {}", boards[0].game.as_ref().unwrap()),
        )
        .await;
    assert!(answer.replies.is_empty(), "{answer:#?}");
    assert_eq!(to_chat(&h.deliver().await, &group("-200")).len(), 1);

    h.advance(Duration::from_secs(10));
    let answer = h.say(&alice, &chat, "/board").await;
    assert!(answer.replies.is_empty(), "{answer:#?}");
    assert_eq!(to_chat(&h.deliver().await, &chat).len(), 1);
}

#[tokio::test]
async fn the_game_over_post_names_the_final_move() {
    let (alice, bob) = (user("alice"), user("bob"));
    let chat = group("-100");
    let mut h = Harness::new(DealSource::Seeded(10)).await;
    started(&mut h, "xiangqi").await;
    for (who, text) in [
        (&alice, "/move C2+3"),
        (&bob, "/move b7a7"),
        (&alice, "/move 炮二平七"),
        (&bob, "/move f9e8"),
        (&alice, "/move c5c9"),
    ] {
        let answer = h.say(who, &chat, text).await;
        assert!(answer.replies.is_empty(), "{text}: {answer:#?}");
    }
    let out = h.deliver().await;
    let result = of_kind(&out, MessageKind::Result)[0];
    assert!(result.text.contains("wins: checkmate"), "{}", result.text);
    assert!(
        result.text.contains("Last move: 3. C7+4 (c5c9)"),
        "{}",
        result.text
    );
}

#[tokio::test]
async fn the_proof_lists_every_covered_piece_by_square_and_says_how_to_verify() {
    let (alice, bob) = (user("alice"), user("bob"));
    let chat = group("-100");
    let mut h = Harness::new(DealSource::Scripted {
        seed: 11,
        deals: vec![IDENTITY_DEAL.to_owned()],
    })
    .await;
    started(&mut h, "jieqi").await;
    h.say(&alice, &chat, "/move h2e2").await;
    h.say(&bob, &chat, "/move h9g7").await;
    h.say(&bob, &chat, "/resign").await;
    h.say(&bob, &chat, "/resign").await;
    let out = h.deliver().await;
    let result = &of_kind(&out, MessageKind::Result)[0].text;
    // Each covered piece's point and what it really was (the identity deal: as it looks).
    assert!(
        result.contains("Red: a0 chariot, b0 horse, c0 elephant, d0 advisor"),
        "{result}"
    );
    assert!(result.contains("h2 cannon"), "{result}");
    assert!(result.contains("Black: a9 chariot, b9 horse"), "{result}");
    // Exactly which bytes are hashed, and a command that checks them.
    let salt = result
        .split("salt ")
        .nth(1)
        .and_then(|rest| rest.split(|c: char| !c.is_ascii_hexdigit()).next())
        .expect("salt");
    let commitment = jieqi_service::fairness::commitment(IDENTITY_DEAL, salt);
    let command = format!("printf %s '{IDENTITY_DEAL}{salt}' | sha256sum");
    assert!(result.contains(&command), "{result}");
    assert!(
        result.contains(&format!("must print {commitment}")),
        "{result}"
    );
}

/// Delivers everything pending, except private messages to `closed`: those fail for good.
async fn deliver_with_closed_dms(
    h: &mut Harness,
    closed: &jieqi_service::User,
) -> Vec<jieqi_service::OutboxEntry> {
    let mut all = Vec::new();
    // Notices about failures are queued while delivering: go round until nothing is left.
    loop {
        let pending = h.service.pending(1000).await.expect("pending");
        if pending.is_empty() {
            return all;
        }
        for entry in &pending {
            if entry.message.to == Destination::Private(closed.id.clone()) {
                h.service
                    .undeliverable(entry.id)
                    .await
                    .expect("undeliverable");
            } else {
                h.service
                    .delivered(entry.id, None)
                    .await
                    .expect("delivered");
                all.push(entry.clone());
            }
        }
    }
}

#[tokio::test]
async fn the_unreachable_notice_is_said_once_per_game_and_player_until_a_dm_gets_through() {
    let (alice, bob) = (user("alice"), user("bob"));
    let chat = group("-100");
    let mut h = Harness::new(DealSource::Seeded(12)).await;
    h.start_game(&alice, &bob, &chat, "jieqi red").await;
    let notices = |out: &[jieqi_service::OutboxEntry]| {
        out.iter()
            .filter(|e| e.message.text.contains("could not send"))
            .count()
    };
    // The game-started DM fails: one notice.
    let out = deliver_with_closed_dms(&mut h, &alice).await;
    assert_eq!(notices(&out), 1, "{out:#?}");
    // Three more failed DMs (/peek sends one each): no more notices.
    for _ in 0..3 {
        h.say(&alice, &chat, "/peek").await;
        let out = deliver_with_closed_dms(&mut h, &alice).await;
        assert_eq!(notices(&out), 0, "{out:#?}");
    }
    // A DM gets through: the next failure is told again.
    h.say(&alice, &chat, "/peek").await;
    h.deliver().await;
    h.say(&alice, &chat, "/peek").await;
    let out = deliver_with_closed_dms(&mut h, &alice).await;
    assert_eq!(notices(&out), 1, "{out:#?}");
}

#[tokio::test]
async fn wording_counts_articles_and_challenge_refusals_say_what_is_meant() {
    let (alice, bob, carol) = (user("alice"), user("bob"), user("carol"));
    let chat = group("-100");
    let mut h = Harness::new(DealSource::Seeded(13)).await;

    // A Banqi challenge: the first flip decides colours, not a coin.
    h.say_mentioning(&alice, &chat, "/challenge banqi @bob", vec![bob.clone()])
        .await;
    let out = h.deliver().await;
    let post = &of_kind(&out, MessageKind::Challenge)[0].text;
    assert!(post.contains("the first flip decides colours"), "{post}");
    assert!(!post.contains("colours by coin toss"), "{post}");

    // A second challenge to Bob, for another variant: the refusal says what is open.
    let answer = h
        .say_mentioning(&alice, &chat, "/challenge xiangqi @bob", vec![bob.clone()])
        .await;
    let text = refusal(&answer);
    assert!(text.contains("You already challenged bob here"), "{text}");
    assert!(text.contains("Banqi"), "{text}");

    // Accepting your own challenge says so, and how to withdraw it.
    let answer = h.say(&alice, &chat, "/accept").await;
    assert!(
        refusal(&answer).contains("your own challenge"),
        "{answer:#?}"
    );

    // With several challenges open, the example is one a player can send.
    h.say(&carol, &chat, "/challenge xiangqi @bob").await;
    h.say_mentioning(&carol, &chat, "/challenge xiangqi @bob", vec![bob.clone()])
        .await;
    let answer = h.say(&bob, &chat, "/accept").await;
    let text = refusal(&answer).to_owned();
    let example = text
        .split("for example ")
        .nth(1)
        .expect("an example")
        .trim_end_matches('.');
    let id = example
        .strip_prefix("/accept ")
        .expect("an /accept example");
    assert!(
        id.len() == 5 && id.chars().all(|c| c.is_ascii_alphanumeric()),
        "{text}"
    );
    let answer = h.say(&bob, &chat, example).await;
    assert!(answer.replies.is_empty(), "{example}: {answer:#?}");
    h.deliver().await;

    // A Xiangqi game gets no Jieqi reveal hint.
    let mut h = Harness::new(DealSource::Seeded(14)).await;
    started(&mut h, "xiangqi").await;
    let answer = h.say(&alice, &chat, "/move h2e2c").await;
    let text = refusal(&answer);
    assert!(!text.contains("revealed"), "{text}");
    assert!(text.contains("In Xiangqi nothing is covered"), "{text}");
    let answer = h.say(&alice, &chat, "/move h2e2xy").await;
    assert!(!refusal(&answer).contains("revealed"), "{answer:#?}");
    h.say(&alice, &chat, "/move h2e2").await;
    let answer = h.say(&alice, &chat, "/games").await;
    let listing = &answer.replies[0].text;
    assert!(listing.contains("1 ply,"), "{listing}");
}
