//! The Activity's channel: Discord is asked (`GET /applications/{id}/activity-instances/
//! {instance}`, the bot's token) whether the signed-in user is in the Activity instance the
//! page names, and whether that instance is the bot's and runs in the channel the page names.
//! A user not in it, an instance in another channel, another application's instance and an
//! instance Discord does not know each get 403 and no pass; a pass lists and challenges in its
//! own channel only. Nothing changes in the game or the chat.

use jieqi_fake_discord::{ALICE, APP, CAROL, CHANNEL, OTHER_APP};
use serde_json::{Value, json};

use crate::harness::activity::{
    JsonBody, OnDiscord, Untouched, games, games_in, json_of, pass_of, sign_in_as,
};

/// A channel of the guild where none of this test's people have the Activity open.
const OTHER_CHANNEL: u64 = CHANNEL + 17;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_a_user_discord_shows_in_the_channels_instance_gets_a_pass_for_it() {
    let OnDiscord {
        fake, mut table, ..
    } = OnDiscord::new(5).await;
    let game = table.start("jieqi").await;
    let untouched = Untouched::of(&table, &game).await;

    // alice alone in an instance of this channel; alice in another channel's; alice in
    // another application's instance in this channel.
    fake.open_activity_instance("alice-only", APP, CHANNEL, &[ALICE]);
    fake.open_activity_instance("elsewhere", APP, OTHER_CHANNEL, &[ALICE, CAROL]);
    fake.open_activity_instance("their-app", OTHER_APP, CHANNEL, &[ALICE, CAROL]);
    let refused = [
        ("a user not in the instance", CAROL, "alice-only", CHANNEL),
        (
            "an instance in another channel",
            CAROL,
            "elsewhere",
            CHANNEL,
        ),
        (
            "naming the other channel, not in it",
            CAROL,
            "alice-only",
            OTHER_CHANNEL,
        ),
        (
            "another application's instance",
            CAROL,
            "their-app",
            CHANNEL,
        ),
        (
            "an instance Discord does not know",
            CAROL,
            "never-opened",
            CHANNEL,
        ),
    ];
    for (case, who, instance, channel) in refused {
        let answer = sign_in_as(&table, &fake, who, instance, channel).await;
        assert_eq!(answer.status(), 403, "{case}");
        let body: Value = json_of(answer).await;
        assert_eq!(body["error"], "not-in-channel", "{case}: {body}");
        assert!(body.get("pass").is_none(), "{case}: no pass");
        assert!(body.get("access_token").is_none(), "{case}: no token");
    }
    let asked = fake
        .oauth_calls()
        .iter()
        .filter(|(what, _)| what == "GET /activity-instances")
        .map(|(_, status)| *status)
        .collect::<Vec<_>>();
    assert_eq!(
        asked,
        [200, 200, 200, 404, 404],
        "Discord was asked each time; it knows no other application's instance of ours"
    );

    // An instance id that is not one: 400, and Discord is not asked at all.
    let calls = fake.oauth_calls().len();
    let answer = sign_in_as(&table, &fake, ALICE, "../../users/@me", CHANNEL).await;
    assert_eq!(answer.status(), 400);
    assert_eq!(fake.oauth_calls().len(), calls, "Discord not asked");

    // A pass for this channel lists and challenges here only.
    let pass = pass_of(&table, &fake, ALICE).await;
    assert_eq!(games(&table, &pass).await.status(), 200);
    assert_eq!(games_in(&table, &pass, OTHER_CHANNEL).await.status(), 403);
    let challenge = reqwest::Client::new()
        .post(table.url("/activity/challenge"))
        .header("authorization", format!("Bearer {pass}"))
        .json_body(
            &json!({"channel": OTHER_CHANNEL.to_string(), "opponent": "bot",
                           "name": null, "variant": "jieqi", "key": "k-elsewhere"}),
        )
        .send()
        .await
        .expect("an answer");
    assert_eq!(challenge.status(), 403);
    untouched.still(&table).await;
}
