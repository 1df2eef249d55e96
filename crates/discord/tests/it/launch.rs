//! Launching the Activity: with it on, every running game's board carries "Play in Discord",
//! and pressing it or invoking the entry point command (`/launch`) is answered with
//! `LAUNCH_ACTIVITY` (interaction response type 12, no data; the fake refuses any other
//! shape). A press asks for Discord's interaction callback response (`with_response=true`),
//! whose activity instance the service then knows as the game's: a second press in the same
//! channel joins the same instance. The entry point names no game. With it off, nothing of it
//! shows.

use crate::harness;

use harness::*;
use jieqi_fake_discord::{CHANNEL, Recorded, callback_type, launched_instance};
use jieqi_service::ServiceConfig;
use jieqi_service::ids::ActivityInstanceId;
use jieqi_service::personal_link::WebSecret;
use jieqi_service::{ChatId, Platform};
use serde_json::json;

async fn start_with_activity(on: bool) -> Bot {
    start_configured(
        |config: &mut ServiceConfig| {
            config.public_url = Some("https://bot.example.org".to_owned());
            config.web_secret = WebSecret::new(vec![42; 32]);
            config.discord_activity = on;
        },
        |config| config.activity = on,
    )
    .await
}

fn registered(log: &[Recorded]) -> Vec<serde_json::Value> {
    log.iter()
        .filter(|r| r.method == "PUT" && r.path.ends_with("/commands"))
        .flat_map(|r| r.json.as_array().cloned().unwrap_or_default())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn play_in_discord_and_the_entry_point_launch_the_activity() {
    let bot = start_with_activity(true).await;
    let log = bot
        .fake
        .wait_for("the commands", |log| !registered(log).is_empty())
        .await;
    let entry = registered(&log)
        .into_iter()
        .find(|c| c["name"] == "launch")
        .expect("the entry point is registered with the commands");
    assert_eq!(entry["type"], 4, "PRIMARY_ENTRY_POINT: {entry}");
    assert_eq!(entry["handler"], 1, "APP_HANDLER: {entry}");

    let board = bot.start_game().await;
    let message = bot.fake.message(board).expect("the first board");
    let button = message["components"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|row| row["components"].as_array().cloned().unwrap_or_default())
        .find(|b| {
            b["custom_id"]
                .as_str()
                .is_some_and(|id| id.starts_with("act_"))
        })
        .unwrap_or_else(|| panic!("a Play in Discord button: {message}"));
    assert_eq!(button["label"], "Play in Discord");
    let launch = button["custom_id"].as_str().unwrap_or_default().to_owned();
    let game = launch.strip_prefix("act_").expect("the game's id");
    let chat = ChatId::new(Platform::Discord, CHANNEL.to_string());

    let mut instances = Vec::new();
    for who in [ALICE, CAROL] {
        let answers = bot.send(&bot.fake.button(who, &launch, board)).await;
        assert_eq!(callback_type(&answers), Some(12), "{answers:?}");
        let callback = answers
            .iter()
            .find(|r| r.path.ends_with("/callback"))
            .expect("a callback");
        assert!(callback.json["data"].is_null(), "{callback:?}");
        assert_eq!(answers.len(), 1, "nothing else is said: {answers:?}");
        // Accepted in its shape (200), asking for Discord's callback response, which names
        // the instance launched.
        let instance: ActivityInstanceId = launched_instance(callback)
            .and_then(|id| id.parse().ok())
            .unwrap_or_else(|| panic!("Discord names the instance: {callback:?}"));
        // Written down right after the answer: every process serving the Activity reads it.
        let started = std::time::Instant::now();
        let launched = loop {
            match bot.service.launched(&instance, &chat).await.expect("store") {
                Some(launched) => break launched,
                None if started.elapsed() < std::time::Duration::from_secs(10) => {
                    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
                }
                None => panic!("the launch of {instance} is remembered"),
            }
        };
        assert_eq!(launched.game.as_str(), game);
        instances.push(instance);
    }
    assert_eq!(
        instances[0], instances[1],
        "the second press joins the instance running in the channel"
    );
    let answers = bot.send(&bot.fake.entry_point(BOB)).await;
    assert_eq!(callback_type(&answers), Some(12), "{answers:?}");
    assert_eq!(answers.len(), 1, "{answers:?}");
    assert_eq!(answers[0].status, 204, "the entry point names no game");
    assert_eq!(answers[0].query, "");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_the_activity_no_board_offers_it_and_no_entry_point_is_registered() {
    let bot = start_with_activity(false).await;
    let log = bot
        .fake
        .wait_for("the commands", |log| !registered(log).is_empty())
        .await;
    assert!(registered(&log).iter().all(|c| c["name"] != "launch"));
    let board = bot.start_game().await;
    let message = bot.fake.message(board).expect("the first board");
    assert!(
        buttons(&message)
            .iter()
            .all(|(id, _)| !id.starts_with("act_")),
        "{message}"
    );
    // A stale button of an earlier configuration is not one of ours any more.
    let game = buttons(&message)
        .into_iter()
        .find_map(|(id, _)| id.strip_prefix("res_").map(str::to_owned))
        .expect("a Resign button");
    let answers = bot
        .send(&bot.fake.button(ALICE, &format!("act_{game}"), board))
        .await;
    assert_eq!(callback_type(&answers), Some(4), "{answers:?}");
    assert_eq!(answers[0].json["data"]["flags"], json!(64), "{answers:?}");
}
