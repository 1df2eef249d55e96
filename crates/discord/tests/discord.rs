//! The adapter end to end: the real serenity client, the real service, and a fake Discord on
//! 127.0.0.1 (see `fake_discord`). Every test starts its own fake, service and bot.

mod fake_discord;
mod harness;

use std::sync::Arc;
use std::time::Duration;

use fake_discord::{CHANNEL, FakeDiscord, GUILD, Recorded, Seen};
use harness::*;
use jieqi_discord::{Discord, DiscordConfig, DiscordError};
use jieqi_service::{Service, ServiceConfig, SledStore};
use serde_json::json;
use tokio_util::sync::CancellationToken;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_covered_capture_is_told_to_the_capturer_alone_through_a_whole_game() {
    let bot = start().await;
    let first_board = bot.start_game().await;
    let log = bot.fake.log();
    let first = channel_posts(&log)
        .into_iter()
        .find(|r| message_id(r) == first_board)
        .expect("first board");
    // The board is an attachment shown in an embed, pinging Alice (Red, to move).
    let (_, file_name, bytes) = first.files.first().expect("the board picture");
    assert!(is_png(bytes));
    assert_eq!(
        first.json["embeds"][0]["image"]["url"],
        format!("attachment://{file_name}")
    );
    assert!(
        first.json["content"]
            .as_str()
            .unwrap_or_default()
            .contains(&format!("<@{}>", ALICE.id))
    );
    assert_eq!(
        first.json["allowed_mentions"]["users"],
        json!([ALICE.id.to_string()])
    );

    // Alice's covered "cannon" on h2 takes Black's covered piece on h9.
    let answers = bot.play(ALICE, "h2h9").await;
    assert!(
        answers.iter().all(|r| r.seen == Seen::Nobody),
        "a good move leaves no answer behind: {answers:?}"
    );
    bot.play(BOB, "i9h9").await;

    // Carol presses Resign under the board: refused, to her alone.
    let board = bot.latest_board();
    let resign = bot
        .fake
        .message(board)
        .map(|m| buttons(&m))
        .unwrap_or_default()
        .into_iter()
        .find(|(id, _)| id.starts_with("res_"))
        .expect("Resign")
        .0;
    let answers = bot.send(&bot.fake.button(CAROL, &resign, board)).await;
    let shown: Vec<&Recorded> = answers.iter().filter(|r| r.seen != Seen::Nobody).collect();
    assert_eq!(shown.len(), 1, "{answers:?}");
    assert_eq!(shown[0].seen, Seen::Ephemeral(CAROL.id));
    assert!(
        shown[0].text().contains("not a player"),
        "{}",
        shown[0].text()
    );

    // Alice peeks: deferred (a picture to render), then written, ephemerally.
    let peek = bot.command(ALICE, "peek", json!([]));
    let answers = bot.send(&peek).await;
    assert_eq!(callback_type(&answers), Some(5));
    let written = answers
        .iter()
        .find(|r| r.method == "PATCH")
        .expect("the deferred answer written");
    assert_eq!(written.seen, Seen::Ephemeral(ALICE.id));
    assert!(is_png(&written.files.first().expect("Alice's view").2));

    // Bob resigns with the button; the game ends and every stale button is disabled.
    let answers = bot.send(&bot.fake.button(BOB, &resign, board)).await;
    assert!(
        answers.iter().all(|r| r.seen == Seen::Nobody),
        "{answers:?}"
    );
    bot.delivered().await;
    let log = bot.fake.log();
    let result = channel_posts(&log)
        .into_iter()
        .find(|r| r.text().contains("is over"))
        .expect("the result in the channel")
        .text();
    assert!(result.contains("resigned"), "{result}");
    let mut greyed = 0;
    for post in channel_posts(&log) {
        let stored = bot.fake.message(message_id(post)).expect("stored");
        for (id, disabled) in buttons(&stored) {
            if id.starts_with("res_") || id.starts_with("drw_") {
                assert!(disabled, "a stale {id} button is still live: {stored}");
                greyed += 1;
            }
        }
    }
    assert_eq!(greyed, 6, "three boards, each with two buttons, greyed out");

    // What each party saw. Alice alone was told what she captured, with her own picture.
    let channel = seen_by(&log, &Seen::Channel(CHANNEL));
    let alice_dms = seen_by(&log, &Seen::Direct(ALICE.id));
    let bob_dms = seen_by(&log, &Seen::Direct(BOB.id));
    let alice_private = [alice_dms.clone(), seen_by(&log, &Seen::Ephemeral(ALICE.id))].concat();
    assert!(
        alice_dms
            .iter()
            .any(|r| r.text().contains("Black cannon") && !r.files.is_empty()),
        "{alice_dms:?}"
    );
    for record in channel.iter().chain(&bob_dms) {
        assert!(
            !record.text().to_lowercase().contains("cannon"),
            "{}",
            record.text()
        );
    }
    let public_pictures = pictures(&channel);
    assert!(
        public_pictures.len() >= 3,
        "boards after the start and each move"
    );
    for private in pictures(&alice_private) {
        assert!(is_png(&private));
        assert!(
            !public_pictures.contains(&private),
            "a private picture reached the channel"
        );
    }
    // Nothing went to a route the fake does not know.
    assert!(log.iter().all(|r| r.status != 404), "{log:?}");
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn move_autocompletion_offers_the_callers_legal_moves_on_their_turn() {
    let bot = start().await;
    bot.start_game().await;
    let answers = bot.send(&bot.fake.autocomplete(ALICE, "H2")).await;
    assert_eq!(callback_type(&answers), Some(8));
    let choices: Vec<String> = answers[0].json["data"]["choices"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| c["value"].as_str().map(str::to_owned))
        .collect();
    assert!(choices.contains(&"h2h9".to_owned()), "{choices:?}");
    assert!(choices.iter().all(|m| m.starts_with("h2")), "{choices:?}");
    let everything = bot.send(&bot.fake.autocomplete(ALICE, "")).await;
    let offered = everything[0].json["data"]["choices"]
        .as_array()
        .map_or(0, Vec::len);
    assert!((2..=25).contains(&offered), "{offered}");
    // Not Bob's turn, and Carol has no game: nothing to offer.
    for who in [BOB, CAROL] {
        let answers = bot.send(&bot.fake.autocomplete(who, "")).await;
        assert_eq!(answers[0].json["data"]["choices"], json!([]), "{who:?}");
    }
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn closed_dms_are_reported_in_the_channel_and_peek_still_works() {
    let bot = start().await;
    bot.fake.close_dms(BOB.id);
    bot.start_game().await;
    let log = bot
        .fake
        .wait_for("the channel told about Bob's DMs", |log| {
            channel_posts(log)
                .iter()
                .any(|r| r.text().contains("could not send"))
        })
        .await;
    let refused: Vec<&Recorded> = log
        .iter()
        .filter(|r| r.status == 403 && r.response["code"] == json!(50007))
        .collect();
    assert_eq!(refused.len(), 1, "one DM to Bob was refused");
    let notice = channel_posts(&log)
        .into_iter()
        .find(|r| r.text().contains("could not send"))
        .expect("notice")
        .text();
    assert!(notice.contains(&format!("<@{}>", BOB.id)), "{notice}");
    assert!(
        notice.contains("direct messages"),
        "says how to fix it: {notice}"
    );
    // Never what the DM said.
    assert!(
        refused[0].text().contains("You play"),
        "{}",
        refused[0].text()
    );
    assert!(!notice.contains("You play"), "{notice}");
    // Alice's DMs work as usual.
    assert!(!seen_by(&log, &Seen::Direct(ALICE.id)).is_empty());

    let peek = bot.command(BOB, "peek", json!([]));
    let answers = bot.send(&peek).await;
    let written = answers
        .iter()
        .find(|r| r.method == "PATCH")
        .expect("Bob's view");
    assert_eq!(written.seen, Seen::Ephemeral(BOB.id));
    assert!(is_png(&written.files.first().expect("picture").2));
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_interaction_delivered_twice_is_answered_once() {
    let bot = start().await;
    let challenge = bot.challenge_command(ALICE, BOB);
    bot.send(&challenge).await;
    bot.delivered().await;
    // Discord delivers the same interaction again (say, after a gateway resume).
    let token = challenge["token"].as_str().expect("token").to_owned();
    let again = challenge.clone();
    bot.fake.dispatch(&again);
    let log = bot
        .fake
        .wait_for("Discord to refuse the second answer", |log| {
            log.iter()
                .any(|r| r.path.ends_with("/callback") && r.response["code"] == json!(40060))
        })
        .await;
    bot.delivered().await;
    let challenges = channel_posts(&log)
        .into_iter()
        .filter(|r| {
            buttons(&r.json)
                .iter()
                .any(|(id, _)| id.starts_with("acc_"))
        })
        .count();
    assert_eq!(challenges, 1);
    let callbacks: Vec<&Recorded> = log
        .iter()
        .filter(|r| r.path.contains(&token) && r.path.ends_with("/callback"))
        .collect();
    assert_eq!(
        callbacks.iter().filter(|r| r.status < 300).count(),
        1,
        "{callbacks:?}"
    );
    // Nothing was written after the refused second answer.
    let after = log
        .iter()
        .skip_while(|r| r.response["code"] != json!(40060))
        .skip(1)
        .filter(|r| r.path.contains(&token))
        .count();
    assert_eq!(after, 0);
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rate_limits_and_server_errors_are_retried_without_duplicates() {
    let bot = start().await;
    bot.fake.fail_callbacks(1);
    bot.fake.throttle_posts(2);
    bot.challenge(ALICE, BOB).await;
    let log = bot.fake.log();
    assert_eq!(log.iter().filter(|r| r.status == 502).count(), 1);
    assert_eq!(log.iter().filter(|r| r.status == 429).count(), 2);
    assert_eq!(
        channel_posts(&log).len(),
        1,
        "the challenge was posted once"
    );
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn commands_are_registered_with_typed_options_and_pictures_are_deferred() {
    let bot = start().await;
    let log = bot.fake.log();
    let registration = log
        .iter()
        .find(|r| r.method == "PUT")
        .expect("registration");
    assert!(
        registration
            .path
            .ends_with(&format!("/guilds/{GUILD}/commands")),
        "{}",
        registration.path
    );
    let commands = registration.json.as_array().expect("a bulk overwrite");
    let named = |name: &str| {
        commands
            .iter()
            .find(|c| c["name"] == name)
            .unwrap_or_else(|| panic!("/{name} is registered"))
    };
    let move_option = &named("move")["options"][0];
    assert_eq!(move_option["autocomplete"], true);
    let variant = named("challenge")["options"]
        .as_array()
        .and_then(|o| o.iter().find(|o| o["name"] == "variant"))
        .expect("variant option");
    let values: Vec<&str> = variant["choices"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| c["value"].as_str())
        .collect();
    assert_eq!(values, ["jieqi", "xiangqi", "banqi"]);
    assert_eq!(named("challenge")["options"][0]["type"], 6, "a user option");

    // /rules answers with a picture for everyone: deferred publicly, then written with it.
    let rules = bot.command(
        CAROL,
        "rules",
        json!([{"name": "variant", "type": 3, "value": "jieqi"}]),
    );
    let answers = bot.send(&rules).await;
    assert_eq!(callback_type(&answers), Some(5));
    let written = answers
        .iter()
        .find(|r| r.method == "PATCH")
        .expect("written");
    assert_eq!(written.seen, Seen::Channel(CHANNEL));
    let (field, name, bytes) = written.files.first().expect("a picture");
    assert_eq!(field, "files[0]");
    assert!(is_png(bytes));
    assert_eq!(
        written.json["embeds"][0]["image"]["url"],
        format!("attachment://{name}")
    );

    // The gateway session is kept alive.
    for _ in 0..100 {
        if bot.fake.heartbeats() > 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(
        bot.fake.heartbeats() > 0,
        "heartbeats were sent and acknowledged"
    );
    assert_eq!(bot.fake.identifies(), 1);
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_token_stops_the_adapter_with_a_sentence_naming_it() {
    let fake = FakeDiscord::start().await;
    let service = Service::open_with_store(
        Arc::new(SledStore::temporary().expect("store")),
        ServiceConfig::default(),
    )
    .expect("service");
    let mut config = DiscordConfig::new("a-revoked-token");
    config.api_url = Some(fake.http_url.parse().expect("url"));
    let discord = Discord::new(config);
    let stopped = tokio::time::timeout(
        Duration::from_secs(20),
        discord.run(service, CancellationToken::new()),
    )
    .await
    .expect("the adapter gives up");
    let error = stopped.expect_err("a refused token is an error");
    assert!(matches!(error, DiscordError::BadToken), "{error:?}");
    assert!(error.to_string().contains("DISCORD_TOKEN"), "{error}");
    assert!(fake.log().iter().all(|r| r.status == 401));
}
