//! "Play in Discord" opens the Activity on that game. A press of the button under a board is
//! answered with `LAUNCH_ACTIVITY` asking for Discord's callback response; the fake Discord
//! opens an Activity instance in the channel (or joins the one running there) and names it in
//! the answer's `resource.activity_instance.id`; the bot remembers instance → game in the
//! store. The fake's host page opened on that instance (its `instance_id`, the SDK's
//! `instanceId`) then shows that game: each player their own board, with what only they know,
//! and anyone else the spectators' board, which never names a captured covered piece.
//!
//! An Activity opened before the launch is written down shows the channel's list and switches
//! to the game when it is; the entry point's instance (no game) keeps its list. Hostile look-ups
//! (an instance Discord does not know, another guild's instance, a launch recorded for a game
//! of another channel) answer with no game of this channel and change nothing.

use std::time::{Duration, Instant};

use fantoccini::Client;
use jieqi_fake_discord::{ALICE, APP, BOB, CAROL, CHANNEL, FakeDiscord, Member, launched_instance};
use jieqi_rules::{Game, GameDeal, Preset, Rules, Side, Variant};
use jieqi_service::ids::ActivityInstanceId;
use jieqi_service::{ChatId, GameId, Platform};
use rand::SeedableRng;
use serde_json::Value;

use crate::browser::{browser, js, until};
use crate::harness::activity::{
    INSTANCE, OnDiscord, Untouched, games, games_in, host_record, json_of, open_host, pass_in,
    pass_of, sign_in_as, three_browsers, until_board,
};
use crate::harness::{Table, deal};
use crate::play_browser::{choose, role_name, text_of, until_moves};

/// A channel of another guild, where carol has the bot's Activity open.
const THEIR_CHANNEL: u64 = CHANNEL + 1000;

/// The newest post in the fake's channel that carries `game`'s "Play in Discord".
async fn board_with_launch(fake: &FakeDiscord, game: &GameId) -> u64 {
    let button = format!("act_{game}");
    let started = Instant::now();
    loop {
        let post = fake
            .created_in(CHANNEL)
            .into_iter()
            .rev()
            .find(|m| m.json.to_string().contains(&button));
        if let Some(post) = post {
            return post.id;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the board with Play in Discord reaches the channel"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// `who` presses "Play in Discord" under `game`'s board; the instance Discord launched.
async fn press_play_in_discord(fake: &FakeDiscord, who: Member, game: &GameId) -> String {
    let board = board_with_launch(fake, game).await;
    let before = fake.log().len();
    fake.dispatch(&fake.button(who, &format!("act_{game}"), board));
    let log = fake
        .wait_for("the launch's answer", |log| {
            log.iter()
                .skip(before)
                .any(|r| r.path.ends_with("/callback"))
        })
        .await;
    let callback = log
        .iter()
        .skip(before)
        .find(|r| r.path.ends_with("/callback"))
        .expect("a callback");
    assert_eq!(callback.json["type"], 12, "LAUNCH_ACTIVITY: {callback:?}");
    // The interaction callback response, asked for and in Discord's shape.
    let instance = launched_instance(callback)
        .unwrap_or_else(|| panic!("the launched instance is named: {callback:?}"));
    assert_eq!(
        callback.response["interaction"]["activity_instance_id"], instance,
        "{callback:?}"
    );
    instance
}

/// Waits until the service knows `instance` as `game`'s.
async fn until_launched(table: &Table, instance: &str, game: &GameId) {
    let instance: ActivityInstanceId = instance.parse().expect("an instance id");
    let started = Instant::now();
    loop {
        let launched = table
            .service
            .launched(&instance, &table.chat)
            .await
            .expect("store");
        if launched.is_some_and(|l| l.game == *game) {
            return;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the launch is written down"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Plays the seeded game through the chat until a covered piece is taken: who took it
/// (0 alice, Red; 1 bob) and its name as the capturer's page says it.
async fn play_until_a_covered_capture(table: &mut Table, seed: u64) -> (usize, String, usize) {
    let letters = deal(Variant::Jieqi, seed);
    let mut shadow = Game::new(
        Rules::new(Variant::Jieqi, Preset::Standard),
        GameDeal::from_letters(Variant::Jieqi, &letters).expect("a deal"),
    )
    .expect("a game");
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    for ply in 0..60 {
        let text = choose(&shadow, &mut rng);
        table.play(ply, &text).await;
        shadow.play_text(&text).expect("legal");
        assert!(shadow.outcome().is_none(), "the game goes on");
        if let Some((capturer, piece)) = shadow.captured_covered_by(ply) {
            let side = if piece.side == Side::Red {
                "Red"
            } else {
                "Black"
            };
            let by = usize::from(capturer == Side::Black);
            return (by, format!("{side} {}", role_name(piece.role)), ply + 1);
        }
    }
    panic!("no covered piece taken in 60 plies of seed {seed}");
}

async fn known_lines(client: &Client) -> Value {
    js(
        client,
        "const k = document.getElementById('known'); return k ? k.querySelectorAll('p').length : 0",
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn play_in_discord_opens_that_game_as_each_players_view_and_the_public_view() {
    let Some(browsers) = three_browsers().await else {
        return;
    };
    let [alice, bob, carol] = browsers.each_ref().map(|b| &b.client);
    let mut on = OnDiscord::run(41).await;
    // A covered piece taken before anyone opens the Activity: the capturer knows what.
    let game = on.table.start("jieqi").await;
    let (capturer, piece, plies) = play_until_a_covered_capture(&mut on.table, 41).await;
    let (fake, table) = (&on.fake, &on.table);

    let instance = press_play_in_discord(fake, ALICE, &game).await;
    until_launched(table, &instance, &game).await;

    let clients = [alice, bob, carol];
    for (client, who, platform) in [
        (alice, ALICE, "mobile"),
        (bob, BOB, "mobile"),
        (carol, CAROL, "desktop"),
    ] {
        open_host(client, fake, &table.base, who, &instance, platform).await;
    }
    until_board(alice, Some(&game), "player").await;
    until_board(bob, Some(&game), "player").await;
    until_board(carol, Some(&game), "spectator").await;
    for client in clients {
        until_moves(client, plies).await;
    }
    let players = [alice, bob];
    assert!(
        until(
            players[capturer],
            "return document.getElementById('known').querySelectorAll('p').length === 1",
            Duration::from_secs(10)
        )
        .await,
        "the capturer's Activity lists what they took"
    );
    let known = text_of(players[capturer], "known").await;
    assert!(known.contains(&piece), "{piece} in {known}");
    assert_eq!(
        known_lines(players[1 - capturer]).await,
        Value::from(0),
        "the opponent does not learn it"
    );
    assert_eq!(known_lines(carol).await, Value::from(0), "nor does carol");
    let seen = js(
        carol,
        "return document.body.innerText + ' ' + location.hash",
    )
    .await;
    let seen = seen.as_str().unwrap_or_default();
    assert!(
        !seen.contains("the covered piece you captured") && !seen.contains("#t="),
        "carol watches as the public: {seen}"
    );
    for client in clients {
        let record = host_record(client).await;
        assert_eq!(record["problems"], Value::Array(vec![]), "{record}");
    }
    on.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_activity_opened_before_its_launch_is_written_shows_the_list_then_the_game() {
    let Some(alice_browser) = browser().await else {
        return;
    };
    let alice = &alice_browser.client;
    let mut on = OnDiscord::run(43).await;
    let game = on.table.start("jieqi").await;
    let (fake, table) = (&on.fake, &on.table);

    // Alice has the Activity open in the channel before anyone pressed the button (opened
    // from the entry point, or quicker than the bot's store): her list, her game in it.
    fake.open_activity_instance("i-early", APP, CHANNEL, &[]);
    open_host(alice, fake, &table.base, ALICE, "i-early", "mobile").await;
    assert!(
        until(
            alice,
            &format!("return document.getElementById('activity').dataset.state === 'lobby' && !!document.querySelector(\"#mine [data-game='{game}']\")"),
            Duration::from_secs(15)
        )
        .await,
        "the list, with her game: {}",
        js(alice, "return document.body.innerText").await
    );
    assert_eq!(
        js(alice, "return location.pathname").await,
        Value::from("/activity"),
        "no launch written down: the list stays"
    );

    // Bob presses the board's button: Discord joins the instance running in the channel, the
    // bot writes the launch down, and alice's Activity switches to her board of that game.
    let instance = press_play_in_discord(fake, BOB, &game).await;
    assert_eq!(instance, "i-early", "the running instance is joined");
    until_board(alice, Some(&game), "player").await;
    on.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_and_foreign_instances_learn_no_launched_game() {
    let OnDiscord {
        fake, mut table, ..
    } = OnDiscord::new(45).await;
    let game = table.start("jieqi").await;
    let here: ActivityInstanceId = INSTANCE.parse().expect("an instance id");
    let theirs: ActivityInstanceId = "their-guild".parse().expect("an instance id");
    let their_chat = ChatId::new(Platform::Discord, THEIR_CHANNEL.to_string());
    assert!(
        table
            .service
            .record_launch(&here, &game, &table.chat)
            .await
            .expect("store"),
        "a launch of a game of its channel is written down"
    );
    let untouched = Untouched::of(&table, &game).await;

    // The launched instance: alice, who plays, gets her token; carol, who does not, none.
    let listed: Value = json_of(games(&table, &pass_of(&table, &fake, ALICE).await).await).await;
    assert_eq!(listed["launched"]["game"], game.as_str(), "{listed}");
    assert!(listed["launched"]["token"].is_string(), "{listed}");
    let listed: Value = json_of(games(&table, &pass_of(&table, &fake, CAROL).await).await).await;
    assert_eq!(listed["launched"]["game"], game.as_str(), "{listed}");
    assert!(listed["launched"].get("token").is_none(), "{listed}");

    // An instance Discord does not know: no pass, and nothing of the game.
    let answer = sign_in_as(&table, &fake, CAROL, "never-opened", CHANNEL).await;
    assert_eq!(answer.status(), 403);
    let body = answer.text().await.expect("a body");
    assert!(!body.contains(game.as_str()), "{body}");

    // Another guild's instance: carol's pass there lists no launched game, even once a
    // launch naming this channel's game is written down for that instance.
    fake.open_activity_instance(theirs.as_str(), APP, THEIR_CHANNEL, &[CAROL]);
    let pass = pass_in(&table, &fake, CAROL, theirs.as_str(), THEIR_CHANNEL).await;
    let listed = games_in(&table, &pass, THEIR_CHANNEL).await;
    assert_eq!(listed.status(), 200);
    let listed: Value = json_of(listed).await;
    assert_eq!(listed["launched"], Value::Null, "{listed}");
    assert!(!listed.to_string().contains(game.as_str()), "{listed}");
    assert!(
        !table
            .service
            .record_launch(&theirs, &game, &their_chat)
            .await
            .expect("store"),
        "a button of this channel's game pressed there launches nothing of it"
    );
    table
        .service
        .record_launch(&theirs, &game, &table.chat)
        .await
        .expect("store");
    let listed: Value = json_of(games_in(&table, &pass, THEIR_CHANNEL).await).await;
    assert_eq!(listed["launched"], Value::Null, "{listed}");
    assert!(!listed.to_string().contains(game.as_str()), "{listed}");
    // Nor can that pass ask in this channel.
    assert_eq!(games(&table, &pass).await.status(), 403);
    untouched.still(&table).await;
}
