//! Receiving: the command menu, addressing, forum topics, a crash between handling and
//! confirming, and webhook mode.

use std::time::Duration;

use jieqi_service::Platform;
use jieqi_telegram::{Receiving, SECRET_HEADER};
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::fake_bot_api::BOT_USERNAME;
use crate::harness::{ALICE, BOB, GROUP, Harness, IDENTITY_DEAL, STEP};

#[tokio::test]
async fn the_menu_is_published_and_only_commands_for_this_bot_are_answered() {
    let h = Harness::start(3, &[]).await;
    h.fake
        .wait_for("the command menu", STEP, |fake| {
            fake.calls().iter().any(|c| c.method == "setMyCommands")
        })
        .await;
    let menu = h
        .fake
        .calls()
        .into_iter()
        .find(|c| c.method == "setMyCommands")
        .expect("menu");
    let commands = menu
        .params
        .get("commands")
        .and_then(|c| c.as_array())
        .cloned()
        .unwrap_or_default();
    let names: Vec<&str> = commands
        .iter()
        .filter_map(|c| c.get("command")?.as_str())
        .collect();
    for expected in [
        "challenge",
        "move",
        "board",
        "resign",
        "draw",
        "peek",
        "help",
    ] {
        assert!(names.contains(&expected), "{names:?}");
    }

    h.fake.say(ALICE, GROUP, "/help@OtherBot");
    h.fake.say(ALICE, GROUP, "just chatting");
    h.fake.say(ALICE, GROUP, &format!("/help@{BOT_USERNAME}"));
    let help = h.post_containing(GROUP, "/challenge").await;
    assert!(help.reply_to.is_some());
    h.fake
        .wait_for("all updates confirmed", STEP, |fake| fake.all_confirmed())
        .await;
    assert_eq!(
        h.posts(GROUP).len(),
        1,
        "only the command for this bot was answered"
    );
}

#[tokio::test]
async fn answers_in_a_forum_topic_stay_in_that_topic() {
    let h = Harness::start(5, &[]).await;
    let bobs_message = h.fake.message_by(BOB, GROUP, "game?");
    h.fake
        .say_full(ALICE, GROUP, "/challenge", Some(bobs_message), Some(77));
    let challenge = h.post_containing(GROUP, "challenges").await;
    assert_eq!(challenge.thread, Some(77));
    h.fake.say_full(ALICE, GROUP, "/move h2e2", None, Some(77));
    let refusal = h.post_containing(GROUP, "No game").await;
    assert_eq!(refusal.thread, Some(77));
}

#[tokio::test]
async fn a_crash_after_a_move_neither_loses_nor_doubles_it() {
    let mut h = Harness::start(9, &[IDENTITY_DEAL]).await;
    h.fake.say(ALICE, ALICE, "/start");
    h.fake.say(BOB, BOB, "/start");
    let bobs_message = h.fake.message_by(BOB, GROUP, "play?");
    h.fake
        .say_full(ALICE, GROUP, "/challenge red", Some(bobs_message), None);
    h.post_containing(GROUP, "challenges").await;
    h.fake.say(BOB, GROUP, "/accept");
    let photos = |h: &Harness| h.posts(GROUP).iter().filter(|p| p.photo.is_some()).count();
    h.fake
        .wait_for("the first board", STEP, |_| photos(&h) == 1)
        .await;
    h.fake.say(ALICE, GROUP, "/move h2e2");
    h.fake
        .wait_for("the board after h2e2", STEP, |_| photos(&h) == 2)
        .await;

    // Bob's move is handled, but the bot dies before its next getUpdates confirms it.
    h.fake.set_confirm_barrier(Some(h.fake.next_update_id()));
    let bobs_move = h.fake.say(BOB, GROUP, "/move h9g7");
    h.fake
        .wait_for("the board after h9g7", STEP, |_| photos(&h) == 3)
        .await;
    // (Its board is out and marked delivered: a crash before that mark would rightly send
    // it again, which is not what this test is about.)
    let drained_by = tokio::time::Instant::now() + STEP;
    while !h
        .service
        .pending_for(Platform::Telegram, 8)
        .await
        .is_ok_and(|p| p.is_empty())
    {
        assert!(
            tokio::time::Instant::now() < drained_by,
            "the outbox drained"
        );
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    h.crash_adapter().await;
    assert!(
        !h.fake.all_confirmed(),
        "the move's update was never confirmed"
    );
    let posts_before = h.posts(GROUP).len();

    // A new process: Telegram hands the update over again; the service has seen its key.
    h.fake.set_confirm_barrier(None);
    h.adapter = Some(h.start_adapter(Receiving::Polling));
    h.fake
        .wait_for("the update confirmed after the restart", STEP, |fake| {
            fake.all_confirmed()
        })
        .await;
    assert_eq!(
        h.fake.times_handed_out(bobs_move),
        2,
        "Telegram handed the move over again"
    );
    h.fake.say(ALICE, GROUP, "/move b0c2");
    h.fake
        .wait_for("the board after b0c2", STEP, |_| photos(&h) == 4)
        .await;
    let texts = h.texts_to(GROUP);
    assert!(
        !texts
            .iter()
            .any(|t| t.contains("not your turn") || t.contains("Not your turn")),
        "the repeated move was not played twice"
    );
    assert_eq!(
        h.posts(GROUP).len(),
        posts_before + 1,
        "nothing was posted twice: only the new board"
    );
    h.stop_adapter().await;
}

#[tokio::test]
async fn webhook_mode_answers_telegram_only_after_handling_the_update() {
    let h = Harness::start(13, &[]).await;
    let mut h = h;
    h.stop_adapter().await;
    let port = {
        let probe = std::net::TcpListener::bind("127.0.0.1:0").expect("probe");
        probe.local_addr().expect("addr").port()
    };
    let url = url::Url::parse(&format!("http://127.0.0.1:{port}/telegram/hook")).expect("url");
    let listen = format!("127.0.0.1:{port}").parse().expect("addr");
    h.adapter = Some(h.start_adapter(Receiving::Webhook {
        url: url.clone(),
        listen,
    }));
    h.fake
        .wait_for("setWebhook", STEP, |fake| fake.webhook().is_some())
        .await;
    let (registered, secret) = h.fake.webhook().expect("webhook");
    assert_eq!(registered, url.as_str());
    assert!(secret.len() >= 32);

    let update = json!({"update_id": 5000, "message": {
        "message_id": 1, "date": 1_700_000_000,
        "chat": {"id": GROUP, "type": "supergroup", "title": "Xiangqi club"},
        "from": {"id": ALICE, "is_bot": false, "first_name": "Alice", "username": "alice"},
        "text": "/help"
    }});
    assert_eq!(post_update(port, &update, "wrong").await, 401);
    assert!(h.posts(GROUP).is_empty());
    assert_eq!(post_update(port, &update, &secret).await, 200);
    assert!(
        h.posts(GROUP).iter().any(|p| p.text.contains("/challenge")),
        "the reply was sent before Telegram got its 200"
    );
    // Telegram posting the same update again changes nothing new.
    assert_eq!(post_update(port, &update, &secret).await, 200);
    h.stop_adapter().await;
}

/// Posts `update` to the webhook as Telegram would; the HTTP status.
async fn post_update(port: u16, update: &serde_json::Value, secret: &str) -> u16 {
    let body = update.to_string();
    let request = format!(
        "POST /telegram/hook HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n\
         {SECRET_HEADER}: {secret}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let mut stream = tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .expect("connect");
    stream.write_all(request.as_bytes()).await.expect("write");
    let mut response = String::new();
    tokio::time::timeout(
        Duration::from_secs(120),
        stream.read_to_string(&mut response),
    )
    .await
    .expect("answered in time")
    .expect("read");
    response
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or(0)
}
