//! The Discord Activity's sign-in and what it lets one do, over HTTP against the fake
//! Discord's OAuth2 routes: a good code signs the Discord user in as the person slash commands
//! know; a code of another application, a code used twice, a token that expired, a forged or
//! lapsed pass, and a user who does not play each get 401 or 403, and nothing changes. The
//! Activity's page keeps the strict policy, framed by Discord's clients only; without the
//! Activity nothing of it answers and the other pages' framing is as before.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use jieqi_discord::ClientSecret;
use jieqi_fake_discord::{ALICE, APP, CAROL, CLIENT_SECRET, FakeDiscord, OTHER_APP};
use serde_json::{Value, json};

use crate::harness::activity::{
    INSTANCE, JsonBody, OnDiscord, Untouched, WEEK, discord, discord_user, games, json_of, pass_of,
    sign_in,
};
use crate::harness::{Table, deal};

fn policy(answer: &reqwest::Response) -> String {
    answer
        .headers()
        .get("content-security-policy")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_discord_user_signs_in_as_the_person_slash_commands_know() {
    let OnDiscord {
        fake, mut table, ..
    } = OnDiscord::new(3).await;
    let game = table.start("jieqi").await;

    let answer = sign_in(&table, &fake.issue_code(APP, ALICE, WEEK)).await;
    assert_eq!(answer.status(), 200);
    assert_eq!(
        answer
            .headers()
            .get("cache-control")
            .and_then(|v| v.to_str().ok()),
        Some("private, no-store")
    );
    let body: Value = json_of(answer).await;
    assert_eq!(body["user"]["id"], ALICE.id.to_string());
    assert_eq!(body["user"]["name"], "alice");
    assert!(body["access_token"].as_str().is_some_and(|t| !t.is_empty()));
    assert!(
        !body.to_string().contains(CLIENT_SECRET),
        "the client secret never reaches the page"
    );
    let pass = body["pass"].as_str().expect("a pass");
    // The exchange and the user went through the adapter's client to Discord's routes.
    let calls = fake.oauth_calls();
    assert!(
        calls.contains(&("POST /oauth2/token".to_owned(), 200)),
        "{calls:?}"
    );
    assert!(
        calls.contains(&("GET /users/@me".to_owned(), 200)),
        "{calls:?}"
    );
    assert!(
        calls.contains(&("GET /activity-instances".to_owned(), 200)),
        "Discord was asked whether she is in the channel's instance: {calls:?}"
    );
    assert_eq!(body["channel"], jieqi_fake_discord::CHANNEL.to_string());

    // Her game is listed first with her personal link's token, which plays as her.
    let listed: Value = json_of(games(&table, pass).await).await;
    assert_eq!(listed["mine"][0]["game"], game.as_str(), "{listed}");
    assert_eq!(listed["mine"][0]["here"], true);
    let token = listed["mine"][0]["token"].as_str().expect("a token");
    let read = table
        .service
        .personal_token(token)
        .expect("a personal token");
    assert_eq!(read.player, table.players[0].id);
    assert_eq!(read.game, game);
    let mine = reqwest::Client::new()
        .get(table.url(&format!("/g/{game}/me")))
        .header("authorization", format!("Bearer {token}"))
        .send()
        .await
        .expect("an answer");
    assert_eq!(mine.status(), 200);
    let mine: Value = json_of(mine).await;
    assert_eq!(mine["seat"], 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn foreign_reused_and_expired_codes_and_bad_passes_get_401_and_change_nothing() {
    let OnDiscord {
        fake, mut table, ..
    } = OnDiscord::new(4).await;
    let game = table.start("jieqi").await;
    let untouched = Untouched::of(&table, &game).await;

    // A code Discord issued for another application: Discord refuses it to our client.
    let foreign = fake.issue_code(OTHER_APP, ALICE, WEEK);
    let answer = sign_in(&table, &foreign).await;
    assert_eq!(answer.status(), 401);
    assert!(answer.headers().contains_key("www-authenticate"));
    assert!(
        fake.oauth_calls()
            .contains(&("POST /oauth2/token".to_owned(), 400)),
        "Discord said invalid_grant: {:?}",
        fake.oauth_calls()
    );

    // A code used twice: the second time it is refused.
    let code = fake.issue_code(APP, ALICE, WEEK);
    assert_eq!(sign_in(&table, &code).await.status(), 200);
    assert_eq!(sign_in(&table, &code).await.status(), 401);

    // A token that expired before the bot read the user with it.
    let expired = fake.issue_code(APP, ALICE, Duration::ZERO);
    assert_eq!(sign_in(&table, &expired).await.status(), 401);
    assert!(
        fake.oauth_calls()
            .contains(&("GET /users/@me".to_owned(), 401)),
        "{:?}",
        fake.oauth_calls()
    );

    // Not a code at all, or not JSON: 400 naming the problem, Discord not asked.
    let asked = fake.oauth_calls().len();
    let answer = sign_in(&table, "<script>").await;
    assert_eq!(answer.status(), 400);
    let answer = reqwest::Client::new()
        .post(table.url("/activity/session"))
        .body("code=abc")
        .send()
        .await
        .expect("an answer");
    assert_eq!(answer.status(), 400);
    let said: Value = json_of(answer).await;
    assert!(
        said["message"].as_str().is_some_and(|m| m.contains("code")),
        "{said}"
    );
    assert_eq!(fake.oauth_calls().len(), asked);

    // A forged pass, a lapsed one, a personal link's token as a pass, and none.
    let alice = table.players[0].clone();
    let good = pass_of(&table, &fake, ALICE).await;
    let forged = format!("{}x", &good[..good.len() - 1]);
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let lapsed = table
        .service
        .activity_pass_issued_at(
            &alice,
            &table.chat,
            &INSTANCE.parse().expect("an instance id"),
            now - 2 * 3600,
        )
        .expect("passes are on");
    let personal = table.bearer(&game, 0)["Bearer ".len()..].to_owned();
    for pass in [forged.as_str(), lapsed.as_str(), personal.as_str(), ""] {
        assert_eq!(games(&table, pass).await.status(), 401, "{pass}");
        let challenge = reqwest::Client::new()
            .post(table.url("/activity/challenge"))
            .header("authorization", format!("Bearer {pass}"))
            .json_body(
                &json!({"channel": jieqi_fake_discord::CHANNEL.to_string(), "opponent": "bot",
                          "name": null, "variant": "jieqi", "key": "k1"}),
            )
            .send()
            .await
            .expect("an answer");
        assert_eq!(challenge.status(), 401, "{pass}");
    }
    // A pass is not a personal link: it plays in no game.
    let act = reqwest::Client::new()
        .post(table.url(&format!("/g/{game}/me/act")))
        .header("authorization", format!("Bearer {good}"))
        .json_body(&json!({"action": "resign", "key": "r1"}))
        .send()
        .await
        .expect("an answer");
    assert_eq!(act.status(), 401);
    untouched.still(&table).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_signed_in_user_who_does_not_play_gets_no_players_rights() {
    let OnDiscord {
        fake, mut table, ..
    } = OnDiscord::new(5).await;
    let game = table.start("jieqi").await;
    let untouched = Untouched::of(&table, &game).await;

    let pass = pass_of(&table, &fake, CAROL).await;
    let listed: Value = json_of(games(&table, &pass).await).await;
    assert_eq!(listed["mine"], json!([]), "{listed}");
    assert_eq!(listed["here"][0]["game"], game.as_str(), "she may watch it");
    assert!(listed["here"][0].get("token").is_none(), "{listed}");
    assert!(!listed.to_string().contains("#t="), "{listed}");

    // Even a valid personal token of hers for that game: 403, the spectators' view only.
    let hers = table
        .service
        .personal_link(&game, &discord_user(CAROL).id)
        .expect("links are on");
    let (_, token) = hers.split_once("#t=").expect("a token");
    let client = reqwest::Client::new();
    let page = client
        .get(table.url(&format!("/g/{game}/me")))
        .header("authorization", format!("Bearer {token}"))
        .send()
        .await
        .expect("an answer");
    assert_eq!(page.status(), 403);
    let act = client
        .post(table.url(&format!("/g/{game}/me/act")))
        .header("authorization", format!("Bearer {token}"))
        .json_body(&json!({"action": "move", "move": "h2e2", "key": "c1"}))
        .send()
        .await
        .expect("an answer");
    assert_eq!(act.status(), 403);
    untouched.still(&table).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_activity_is_framed_by_discords_clients_only_and_off_without_its_secret() {
    let fake = FakeDiscord::start().await;
    let discord = discord(&fake);
    // The policy as production sets it: Discord's own origins.
    let oauth = discord.oauth(ClientSecret::new(CLIENT_SECRET).expect("a secret"));
    let mut table = Table::with_activity(
        vec![deal(jieqi_rules::Variant::Jieqi, 6)],
        ["alice", "bob"],
        |_| {},
        Some(oauth),
    )
    .await;
    let game = table.start("jieqi").await;
    let client = reqwest::Client::new();
    let page = client
        .get(table.url("/activity?frame_id=f&instance_id=i&platform=desktop"))
        .send()
        .await
        .expect("an answer");
    assert_eq!(page.status(), 200);
    let csp = policy(&page);
    assert_eq!(
        csp,
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob:; \
         connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors \
         https://discord.com https://ptb.discord.com https://canary.discord.com \
         https://*.discordsays.com"
    );
    let html = page.text().await.expect("the page");
    assert!(
        html.contains(&format!("data-client-id=\"{APP}\"")),
        "{html}"
    );
    assert!(html.contains("/assets/activity."), "{html}");
    // Discord opens the URL mapping's root with the launch's parameters.
    let root = client
        .get(table.url("/?frame_id=f&instance_id=i&platform=mobile"))
        .send()
        .await
        .expect("an answer");
    assert_eq!(root.status(), 200);
    assert_eq!(policy(&root), csp);
    // A game opened inside the Activity is the game's page: Telegram's and Discord's clients.
    let board = client
        .get(table.url(&format!("/g/{game}")))
        .send()
        .await
        .expect("an answer");
    assert!(
        policy(&board).ends_with(
            "frame-ancestors https://web.telegram.org https://discord.com \
             https://ptb.discord.com https://canary.discord.com https://*.discordsays.com"
        ),
        "{}",
        policy(&board)
    );
    // The bundle is served by its hash, and loads nothing from elsewhere: the SDK's own
    // addresses in it are the origins it accepts messages from, never fetched.
    let script = html
        .split("/assets/activity.")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("the script's name");
    let bundle = client
        .get(table.url(&format!("/assets/activity.{script}")))
        .send()
        .await
        .expect("an answer");
    assert_eq!(bundle.status(), 200);
    assert!(
        bundle
            .headers()
            .get("cache-control")
            .is_some_and(|v| v.to_str().unwrap_or_default().contains("immutable"))
    );

    // Without the secret: no Activity, and the game's page is framed as before.
    let mut plain = Table::new(
        vec![deal(jieqi_rules::Variant::Jieqi, 6)],
        ["a", "b"],
        |_| {},
    )
    .await;
    let game = plain.start("jieqi").await;
    for path in ["/activity", "/?frame_id=f&instance_id=i&platform=desktop"] {
        let answer = client.get(plain.url(path)).send().await.expect("an answer");
        assert_eq!(answer.status(), 404, "{path}");
    }
    let answer = client
        .post(plain.url("/activity/session"))
        .json_body(&json!({"code": "abc"}))
        .send()
        .await
        .expect("an answer");
    assert_eq!(answer.status(), 404);
    let board = client
        .get(plain.url(&format!("/g/{game}")))
        .send()
        .await
        .expect("an answer");
    assert_eq!(
        policy(&board),
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob:; \
         connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors \
         https://web.telegram.org"
    );
}
