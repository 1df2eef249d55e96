//! Receiving: the command menu, addressing, forum topics, a crash between handling and
//! confirming, and webhook mode.

use std::time::Duration;

use jieqi_fake_telegram::{Fault, post_to_webhook};
use jieqi_service::Platform;
use jieqi_telegram::{Receiving, TelegramError, WebhookSecret};
use url::Url;

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
    // (While it was in hand, polling may have been handed it again too: that is skipped.)
    let handed_before = h.fake.times_handed_out(bobs_move);
    h.fake.set_confirm_barrier(None);
    h.adapter = Some(h.start_adapter(Receiving::Polling));
    h.fake
        .wait_for("the update confirmed after the restart", STEP, |fake| {
            fake.all_confirmed()
        })
        .await;
    assert!(
        h.fake.times_handed_out(bobs_move) > handed_before,
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

fn free_port() -> u16 {
    let probe = std::net::TcpListener::bind("127.0.0.1:0").expect("probe");
    probe.local_addr().expect("addr").port()
}

fn webhook_on(port: u16, secret: &str) -> (Url, Receiving) {
    let url = Url::parse(&format!("http://127.0.0.1:{port}/telegram/hook")).expect("url");
    let receiving = Receiving::Webhook {
        url: url.clone(),
        listen: format!("127.0.0.1:{port}").parse().expect("addr"),
        secret: WebhookSecret::new(secret).expect("secret"),
    };
    (url, receiving)
}

#[tokio::test]
async fn webhook_mode_checks_the_configured_secret_and_answers_only_after_handling() {
    let mut h = Harness::start(13, &[]).await;
    h.stop_adapter().await;
    let port = free_port();
    let (url, receiving) = webhook_on(port, "Shared_secret-42");
    h.adapter = Some(h.start_adapter(receiving));
    h.fake
        .wait_for("setWebhook", STEP, |fake| fake.webhook().is_some())
        .await;
    let (registered, secret) = h.fake.webhook().expect("webhook");
    assert_eq!(registered, url.as_str());
    assert_eq!(
        secret, "Shared_secret-42",
        "Telegram is given the configured secret"
    );

    let update = h.fake.message_update(ALICE, GROUP, "/help").to_string();
    assert_eq!(post_to_webhook(&url, Some("wrong"), &update).await, 401);
    assert_eq!(post_to_webhook(&url, None, &update).await, 401);
    assert_eq!(
        post_to_webhook(&url, Some("Shared_secret-42"), "{\"update_id\": \"x\"").await,
        400,
        "a body that is not an update is refused"
    );
    assert!(h.posts(GROUP).is_empty(), "nothing was handled");
    assert_eq!(post_to_webhook(&url, Some(&secret), &update).await, 200);
    assert!(
        h.posts(GROUP).iter().any(|p| p.text.contains("/challenge")),
        "the reply was sent before Telegram got its 200"
    );
    // Telegram posting the same update again changes nothing new.
    assert_eq!(post_to_webhook(&url, Some(&secret), &update).await, 200);
    h.stop_adapter().await;
}

#[tokio::test]
async fn two_webhook_processes_accept_the_same_secret() {
    let mut h = Harness::start(14, &[]).await;
    h.stop_adapter().await;
    let (first_url, first) = webhook_on(free_port(), "one-secret-for-all");
    let (second_url, second) = webhook_on(free_port(), "one-secret-for-all");
    let first = h.start_adapter(first);
    let second = h.start_adapter(second);
    for url in [&first_url, &second_url] {
        let update = h.fake.message_update(ALICE, GROUP, "/help").to_string();
        let mut status = 0;
        // The second server may still be starting.
        for _ in 0..100 {
            status = post_to_webhook(url, Some("one-secret-for-all"), &update).await;
            if status != 0 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert_eq!(status, 200, "{url}");
    }
    let helps = h
        .posts(GROUP)
        .iter()
        .filter(|p| p.text.contains("/challenge"))
        .count();
    assert_eq!(helps, 2, "each process handled its update");
    h.adapter = Some(first);
    h.stop_adapter().await;
    h.adapter = Some(second);
    h.stop_adapter().await;
}

/// Telegram answering `setWebhook` with 429 (twice) and then a 502 at start: the adapter waits
/// and asks again, registers, and serves, instead of stopping with a message blaming the URL.
#[tokio::test]
async fn a_busy_or_failing_set_webhook_at_start_is_retried_until_it_registers() {
    let mut h = Harness::start(15, &[]).await;
    h.stop_adapter().await;
    h.fake
        .inject(Fault::too_many_requests("setWebhook", None, 2, 1));
    h.fake
        .inject(Fault::server_error("setWebhook", None, 1, 502));
    let port = free_port();
    let (url, receiving) = webhook_on(port, "Retried_secret-7");
    h.adapter = Some(h.start_adapter(receiving));
    h.fake
        .wait_for("setWebhook", STEP, |fake| fake.webhook().is_some())
        .await;
    let tries: Vec<u16> = h
        .fake
        .calls()
        .iter()
        .filter(|c| c.method == "setWebhook")
        .map(|c| c.status)
        .collect();
    assert_eq!(tries, [429, 429, 502, 200], "asked until it registered");
    let update = h.fake.message_update(ALICE, GROUP, "/help").to_string();
    let mut status = 0;
    // The server listens once the webhook is registered.
    for _ in 0..100 {
        status = post_to_webhook(&url, Some("Retried_secret-7"), &update).await;
        if status != 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(status, 200, "the webhook serves");
    h.stop_adapter().await;
}

/// Telegram's real refusal of the URL stops the start at once, saying what the URL must be.
#[tokio::test]
async fn a_refused_webhook_url_stops_the_start_blaming_the_url() {
    let mut h = Harness::start(16, &[]).await;
    h.stop_adapter().await;
    h.fake.inject(Fault {
        method: "setWebhook".to_owned(),
        chat: None,
        times: 1,
        status: 400,
        body: serde_json::json!({"ok": false, "error_code": 400,
            "description": "Bad Request: bad webhook: HTTPS url must be provided for webhook"}),
        delay: Duration::ZERO,
    });
    let (url, receiving) = webhook_on(free_port(), "Refused_secret-8");
    let adapter = h.start_adapter(receiving);
    let ended = tokio::time::timeout(STEP, adapter.receiver)
        .await
        .expect("the start stops")
        .expect("the receiver ran");
    let error = ended.expect_err("a refused webhook stops the start");
    let said = error.to_string();
    assert!(matches!(error, TelegramError::Webhook { .. }), "{error:?}");
    assert!(
        said.contains(url.as_str()) && said.contains("https"),
        "{said}"
    );
    let tries = h
        .fake
        .calls()
        .iter()
        .filter(|c| c.method == "setWebhook")
        .count();
    assert_eq!(tries, 1, "a refusal is not asked again");
    adapter.shutdown.cancel();
}
