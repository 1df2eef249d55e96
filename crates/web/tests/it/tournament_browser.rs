//! A running tournament's page in a real browser (Chromium through chromedriver): `/t/<id>`
//! shows the round's pairings and the standings, and when a game ends the page shows its
//! result by itself (its script follows the event's revision); an arena's page also shows
//! each new pairing as it is made. A hostile name is text there: no element made of it,
//! nothing run.

use std::time::Duration;

use jieqi_service::{Answer, IdempotencyKey, Input, Request, User};
use serde_json::{Value, json};

use crate::browser::{browser, console_problems, js, until};
use crate::harness::{Table, user};

/// The name a hostile player chose.
const HOSTILE: &str = "<img src=x onerror=alert(1)>**Eve**";
/// How long the page may take to show a result: its script asks every 5 s, on a loaded
/// machine with a debug build.
const FOLLOWS_WITHIN: Duration = Duration::from_secs(60);

/// `who` says `text` in the table's chat as an admin: the service's answer.
async fn send(table: &Table, key: &mut u64, who: &User, text: &str) -> Answer {
    *key += 1;
    table
        .service
        .handle(Request {
            key: IdempotencyKey(format!("tb{key}")),
            chat: table.chat.clone(),
            is_private_chat: false,
            is_admin: true,
            user: who.clone(),
            mentioned: Vec::new(),
            input: Input::Text(text.to_owned()),
            received_at: std::time::SystemTime::now(),
        })
        .await
}

/// [`send`], where any answer (a refusal) fails the test.
async fn say(table: &Table, key: &mut u64, who: &User, text: &str) {
    let answer = send(table, key, who, text).await;
    assert!(answer.replies.is_empty(), "{text}: {answer:#?}");
}

/// ann creates the event with `create`; ann, bob, cy and the hostile name join; ann starts
/// it. Returns the four.
async fn started(table: &Table, key: &mut u64, create: &str) -> Vec<User> {
    let players: Vec<User> = ["ann", "bob", "cy", HOSTILE]
        .into_iter()
        .map(user)
        .collect();
    say(table, key, &players[0], create).await;
    for player in &players {
        say(table, key, player, "/tournament join").await;
    }
    say(table, key, &players[0], "/tournament start").await;
    players
}

/// `who` resigns `game`: asked, then confirmed (the question is an answer, not a refusal).
async fn resign(table: &Table, key: &mut u64, who: &User, game: &str) {
    for _ in 0..2 {
        send(table, key, who, &format!("/resign {game}")).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_running_tournaments_page_shows_pairings_and_standings_and_follows_a_result() {
    let Some(browser) = browser().await else {
        return;
    };
    let client = &browser.client;
    let table = Table::new(vec![], ["ann", "bob"], |_| {}).await;
    let mut key = 0;
    let players = started(&table, &mut key, "/tournament swiss 2 xiangqi 1d").await;
    let record = stored(&table).await;
    let id = record.id.to_string();

    client
        .goto(&table.url(&format!("/t/{id}")))
        .await
        .expect("the page opens");
    assert_eq!(js(client, &count("#standings tbody tr")).await, json!(4));
    assert_eq!(js(client, &count("#round-1 tbody tr")).await, json!(2));
    assert_eq!(js(client, &count("#round-1 a.playing")).await, json!(2));
    let pairings = js(
        client,
        "return [...document.querySelectorAll('#round-1 tbody tr')].map(r => [...r.cells].slice(1, 3).map(c => c.textContent))",
    )
    .await;
    let mut seated: Vec<String> = pairings
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|pair| pair.as_array().cloned().unwrap_or_default())
        .filter_map(|name| name.as_str().map(str::to_owned))
        .collect();
    seated.sort();
    let mut names: Vec<String> = players.iter().map(|p| p.name.clone()).collect();
    names.sort();
    assert_eq!(seated, names, "the four, each once, as typed: {pairings}");
    assert_eq!(
        js(
            client,
            "return document.querySelectorAll('main img').length"
        )
        .await,
        json!(0),
        "no element made of a name"
    );
    let links = js(
        client,
        "return [...document.querySelectorAll('#round-1 a')].map(a => a.getAttribute('href'))",
    )
    .await;
    for game in record.round_games(1) {
        assert!(
            links
                .as_array()
                .is_some_and(|l| l.contains(&Value::from(format!("/g/{}", game.game)))),
            "{links}"
        );
    }

    // Board 1 ends: Red moves, Black moves, Black resigns (asked, then confirmed).
    let game = record.round_games(1).next().expect("board 1").clone();
    let red = record.players[usize::from(game.first)].user.clone();
    let black = record.players[usize::from(game.second)].user.clone();
    let id_of_game = game.game.as_str();
    say(&table, &mut key, &red, &format!("/move {id_of_game} h2e2")).await;
    say(
        &table,
        &mut key,
        &black,
        &format!("/move {id_of_game} h9g7"),
    )
    .await;
    resign(&table, &mut key, &black, id_of_game).await;
    assert!(
        until(
            client,
            "return document.querySelectorAll('#round-1 a.playing').length === 1",
            FOLLOWS_WITHIN
        )
        .await,
        "the page shows the result by itself"
    );
    let result = js(
        client,
        "return document.querySelector('#round-1 tbody tr td:last-child a').textContent",
    )
    .await;
    assert_eq!(result, json!("1–0"), "Black resigned board 1");
    let leader = js(
        client,
        "return document.querySelector('#standings tbody tr td:nth-child(2)').textContent",
    )
    .await;
    assert_eq!(leader, json!(red.name), "the winner leads the standings");
    assert!(client.get_alert_text().await.is_err(), "no alert ran");
    let problems = console_problems(client).await;
    assert!(problems.is_empty(), "{problems:?}");
}

/// A script counting the page's elements `selector` matches.
fn count(selector: &str) -> String {
    format!("return document.querySelectorAll('{selector}').length")
}

/// The chat's latest event as stored.
async fn stored(table: &Table) -> jieqi_service::store::TournamentRecord {
    table
        .store
        .chat_tournaments(&table.chat)
        .await
        .expect("reads")
        .pop()
        .expect("the tournament")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_arenas_page_shows_each_result_and_each_new_pairing_by_itself() {
    let Some(browser) = browser().await else {
        return;
    };
    let client = &browser.client;
    let table = Table::new(vec![], ["ann", "bob"], |_| {}).await;
    let mut key = 0;
    started(&table, &mut key, "/tournament arena 30 xiangqi 1d").await;
    let record = stored(&table).await;
    assert_eq!(record.arena_games.len(), 2, "the four paired at the start");
    let id = record.id.to_string();

    client
        .goto(&table.url(&format!("/t/{id}")))
        .await
        .expect("the page opens");
    assert_eq!(js(client, &count("#standings tbody tr")).await, json!(4));
    assert_eq!(js(client, &count("#round-0 tbody tr")).await, json!(2));
    assert_eq!(js(client, &count("#round-0 a.playing")).await, json!(2));
    assert_eq!(
        js(
            client,
            "return document.querySelectorAll('main img').length"
        )
        .await,
        json!(0),
        "no element made of a name"
    );

    // The first game ends: Red moves, Black moves, Black resigns (asked, then confirmed).
    let first = record.arena_games[0].clone();
    let red = record.players[usize::from(first.first)].user.clone();
    let black = record.players[usize::from(first.second)].user.clone();
    let game = first.game.as_str();
    say(&table, &mut key, &red, &format!("/move {game} h2e2")).await;
    say(&table, &mut key, &black, &format!("/move {game} h9g7")).await;
    resign(&table, &mut key, &black, game).await;
    assert!(
        until(
            client,
            "return document.querySelectorAll('#round-0 a.playing').length === 1",
            FOLLOWS_WITHIN
        )
        .await,
        "the page shows the result by itself"
    );
    let leader = js(
        client,
        "return [...document.querySelector('#standings tbody tr').cells].slice(1, 3).map(c => c.textContent)",
    )
    .await;
    assert_eq!(
        leader,
        json!([red.name, "2"]),
        "a win is 2 points, and leads"
    );

    // A late entry is paired at once with one of the two who wait (they just met, so they
    // wait for someone else): the page lists the new game, playing, by itself.
    let late = user("dee");
    say(&table, &mut key, &late, "/tournament join").await;
    let record = stored(&table).await;
    assert_eq!(record.arena_games.len(), 3, "the late entry is paired");
    let newest = record.arena_games[2].game.to_string();
    assert!(
        until(
            client,
            &format!(
                "return document.querySelectorAll('#round-0 a.playing').length === 2 \
                 && !!document.querySelector('#round-0 a[href=\"/g/{newest}\"]')"
            ),
            FOLLOWS_WITHIN
        )
        .await,
        "the page lists the new pairing by itself"
    );
    assert_eq!(js(client, &count("#standings tbody tr")).await, json!(5));
    assert!(client.get_alert_text().await.is_err(), "no alert ran");
    let problems = console_problems(client).await;
    assert!(problems.is_empty(), "{problems:?}");
}
