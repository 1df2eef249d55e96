//! The player's routes through HTTP: who may act (personal links, Telegram's `initData`),
//! that a move from the board is the chat's move (same rules, refusals, idempotency, posts),
//! and that bad or foreign credentials get 401 and change nothing.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use jieqi_service::personal_link::{PersonalToken, WebSecret};
use jieqi_service::{GameId, MessageKind, Platform, User, UserId};
use serde_json::{Value, json};

use crate::harness::{BOT_TOKEN, HandClock, Sse, Table, WEB_SECRET, deal};

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("after 1970")
        .as_secs()
}

/// A table whose players are Telegram users with numeric ids (as Telegram's are), so a Mini
/// App sign-in can name them.
async fn table() -> Table {
    let mut table = Table::new(
        vec![
            deal(jieqi_rules::Variant::Jieqi, 11),
            deal(jieqi_rules::Variant::Jieqi, 12),
        ],
        ["alice", "bob"],
        |_| {},
    )
    .await;
    table.players = [
        User::new(UserId::new(Platform::Telegram, "1001"), "alice"),
        User::new(UserId::new(Platform::Telegram, "1002"), "bob"),
    ];
    table
}

async fn get(url: &str, authorization: Option<&str>) -> reqwest::Response {
    let mut request = reqwest::Client::new().get(url);
    if let Some(credential) = authorization {
        request = request.header("authorization", credential);
    }
    request.send().await.expect("an answer")
}

async fn json_of(response: reqwest::Response) -> Value {
    serde_json::from_str(&response.text().await.expect("a body")).expect("JSON")
}

async fn act(table: &Table, game: &GameId, authorization: &str, body: Value) -> (u16, Value) {
    let response = reqwest::Client::new()
        .post(table.url(&format!("/g/{game}/me/act")))
        .header("authorization", authorization)
        .header("content-type", "application/json")
        .body(body.to_string())
        .send()
        .await
        .expect("an answer");
    let status = response.status().as_u16();
    let body =
        serde_json::from_str(&response.text().await.unwrap_or_default()).unwrap_or(Value::Null);
    (status, body)
}

async fn revision(table: &Table, game: &GameId) -> u64 {
    table
        .service
        .game_revision(game)
        .await
        .expect("the store")
        .expect("the game")
}

/// Telegram's `initData` for Telegram user `id`, opened from `start_param`'s link.
fn init_data(id: i64, start_param: Option<&str>, auth_date: u64, bot_token: &str) -> String {
    let user = json!({ "id": id, "first_name": "Alice" }).to_string();
    let auth_date = auth_date.to_string();
    let mut fields = vec![
        ("query_id", "AAHdF6IQAAAAAN0XohDhrOrc"),
        ("user", user.as_str()),
        ("auth_date", auth_date.as_str()),
    ];
    if let Some(game) = start_param {
        fields.push(("start_param", game));
    }
    format!("tma {}", jieqi_web::sign_init_data(&fields, bot_token))
}

#[tokio::test]
async fn a_personal_link_opens_the_players_own_page_with_their_moves() {
    let mut table = table().await;
    let game = table.start("jieqi").await;
    let red = table.bearer(&game, 0);
    let page: Value = json_of(get(&table.url(&format!("/g/{game}/me")), Some(&red)).await).await;
    assert_eq!(page["seat"], 0);
    assert_eq!(page["board"]["orientation"], "red");
    assert_eq!(page["points"].as_array().map(Vec::len), Some(90));
    let legal = page["legal"].as_array().expect("moves");
    assert!(legal.iter().any(|c| c["play"] == "h2e2"), "{legal:?}");
    // Black waits: no moves to mark, and their board has Black at the bottom.
    let black = table.bearer(&game, 1);
    let page: Value = json_of(get(&table.url(&format!("/g/{game}/me")), Some(&black)).await).await;
    assert_eq!(page["seat"], 1);
    assert_eq!(page["board"]["orientation"], "black");
    assert_eq!(page["legal"].as_array().map(Vec::len), Some(0));
    let board = get(
        &table.url(&format!("/g/{game}/me/board/0.png?w=360")),
        Some(&black),
    )
    .await;
    assert_eq!(board.status(), 200);
    assert_eq!(
        board.headers()["cache-control"].to_str().expect("text"),
        "private, no-store"
    );
}

#[tokio::test]
async fn forged_expired_foreign_and_missing_credentials_get_401_and_change_nothing() {
    let mut table = table().await;
    let game = table.start("jieqi").await;
    // A token for another game (the same players cannot have two games in one chat).
    let other_game: GameId = "zz99".parse().expect("an id");
    let alice = table.players[0].id.clone();
    let other_secret = WebSecret::new(vec![9; 32]).expect("a secret");
    let secret = WebSecret::new(WEB_SECRET.to_vec()).expect("a secret");
    let forged = PersonalToken::new(game.clone(), alice.clone(), now()).sign(&other_secret);
    let expired = PersonalToken {
        game: game.clone(),
        player: alice.clone(),
        expires: now() - 1,
    }
    .sign(&secret);
    let for_other_game = format!(
        "Bearer {}",
        PersonalToken::new(other_game.clone(), alice.clone(), now()).sign(&secret)
    );
    let day = 24 * 60 * 60;
    let credentials = [
        format!("Bearer {forged}"),
        format!("Bearer {expired}"),
        for_other_game,
        "Bearer not-a-token".to_owned(),
        "Basic YWxpY2U6c2VjcmV0".to_owned(),
        // Telegram: another bot's token, a day and a second old, another game's link.
        init_data(1001, Some(game.as_str()), now(), "1:AAother-bot"),
        init_data(1001, Some(game.as_str()), now() - day - 1, BOT_TOKEN),
        init_data(1001, Some(other_game.as_str()), now(), BOT_TOKEN),
        init_data(1001, Some(game.as_str()), now(), BOT_TOKEN).replace("1001", "1002"),
    ];
    let before = revision(&table, &game).await;
    for credential in &credentials {
        for path in ["me", "me/live", "me/board/0.png"] {
            let answer = get(&table.url(&format!("/g/{game}/{path}")), Some(credential)).await;
            assert_eq!(answer.status(), 401, "{path} with {credential}");
        }
        let (status, _) = act(
            &table,
            &game,
            credential,
            json!({"action": "move", "move": "h2e2", "key": "k1"}),
        )
        .await;
        assert_eq!(status, 401, "act with {credential}");
    }
    // No header at all, or the token in a cookie: nobody.
    assert_eq!(
        get(&table.url(&format!("/g/{game}/me")), None)
            .await
            .status(),
        401
    );
    let token = table.bearer(&game, 0);
    let cookie = reqwest::Client::new()
        .get(table.url(&format!("/g/{game}/me")))
        .header("cookie", format!("t={}", &token["Bearer ".len()..]))
        .send()
        .await
        .expect("an answer");
    assert_eq!(cookie.status(), 401);
    assert_eq!(revision(&table, &game).await, before, "nothing changed");
}

#[tokio::test]
async fn a_telegram_mini_app_sign_in_plays_as_that_user_and_others_only_watch() {
    let mut table = table().await;
    let game = table.start("jieqi").await;
    let alice = init_data(1001, Some(game.as_str()), now(), BOT_TOKEN);
    let page: Value = json_of(get(&table.url(&format!("/g/{game}/me")), Some(&alice)).await).await;
    assert_eq!(page["seat"], 0);
    // From a private chat's button the sign-in names no game: it holds for the person.
    let unbound = init_data(1002, None, now(), BOT_TOKEN);
    let page: Value =
        json_of(get(&table.url(&format!("/g/{game}/me")), Some(&unbound)).await).await;
    assert_eq!(page["seat"], 1);
    // Someone who does not play here is told so (and watches as the public).
    let carol = init_data(1003, Some(game.as_str()), now(), BOT_TOKEN);
    let answer = get(&table.url(&format!("/g/{game}/me")), Some(&carol)).await;
    assert_eq!(answer.status(), 403);
    // Every player's route answers them alike, the player's own board too (not "no such
    // position": there is one, it is not theirs).
    for path in ["me/live", "me/board/0.png?w=360"] {
        let answer = get(&table.url(&format!("/g/{game}/{path}")), Some(&carol)).await;
        assert_eq!(answer.status(), 403, "{path}");
    }
    let (status, _) = act(
        &table,
        &game,
        &carol,
        json!({"action": "resign", "key": "c1"}),
    )
    .await;
    assert_eq!(status, 403);
    let (status, answer) = act(
        &table,
        &game,
        &alice,
        json!({"action": "move", "move": "h2e2", "key": "a1"}),
    )
    .await;
    assert_eq!((status, &answer["done"]), (200, &json!(true)), "{answer}");
    let record = table
        .service
        .game_page(&game, None)
        .await
        .expect("store")
        .expect("game");
    assert_eq!(record.moves.len(), 1);
}

#[tokio::test]
async fn a_move_from_the_board_is_the_chats_move_and_a_repeat_plays_it_once() {
    let mut table = table().await;
    let game = table.start("jieqi").await;
    let red = table.bearer(&game, 0);
    let posts_before = table.service.pending(1000).await.expect("outbox").len();
    let before = revision(&table, &game).await;
    let body = json!({"action": "move", "move": "h2e2", "key": "7-h2e2"});
    let (status, first) = act(&table, &game, &red, body.clone()).await;
    assert_eq!((status, &first["done"]), (200, &json!(true)), "{first}");
    // A double tap, or the browser retrying: the same key, the same answer, no second move.
    let (status, mut again) = act(&table, &game, &red, body).await;
    assert_eq!(status, 200);
    // The same answer; only the bot's own time on it (`server_ms`) is the new request's.
    again["server_ms"] = first["server_ms"].clone();
    assert_eq!(first, again);
    assert_eq!(revision(&table, &game).await, before + 1);
    let page = table
        .service
        .game_page(&game, None)
        .await
        .expect("store")
        .expect("game");
    assert_eq!(page.moves.len(), 1);
    // The chat gets its board post, as for a typed /move.
    let pending = table.service.pending(1000).await.expect("outbox");
    let boards = pending[posts_before..]
        .iter()
        // A new board; the earlier one is edited to drop its buttons.
        .filter(|entry| {
            entry.message.kind == MessageKind::Board && entry.message.replaces.is_none()
        })
        .count();
    assert_eq!(boards, 1, "one board post for one move");
}

#[tokio::test]
async fn a_move_out_of_turn_is_refused_with_the_chats_reason_and_changes_nothing() {
    let mut table = table().await;
    let game = table.start("jieqi").await;
    let black = table.bearer(&game, 1);
    let before = revision(&table, &game).await;
    let (status, answer) = act(
        &table,
        &game,
        &black,
        json!({"action": "move", "move": "h7e7", "key": "x"}),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(answer["done"], false);
    let reason = answer["refused"].as_str().expect("a reason");
    assert!(reason.contains("not your turn"), "{reason}");
    assert_eq!(revision(&table, &game).await, before);
    // Bad bodies name the problem.
    for body in [
        json!({"action": "move", "key": "x"}),
        json!({"action": "dance", "key": "x"}),
        json!({"action": "move", "move": "h2e2 extra words", "key": "x"}),
        json!({"action": "move", "move": "h2e2", "key": "no spaces allowed"}),
        json!({"action": "move", "move": "h2e2", "key": "x", "more": 1}),
    ] {
        let (status, answer) = act(&table, &game, &black, body.clone()).await;
        assert_eq!(status, 400, "{body}: {answer}");
        assert!(answer["message"].as_str().is_some_and(|m| !m.is_empty()));
    }
    assert_eq!(revision(&table, &game).await, before);
}

#[tokio::test]
async fn resigning_from_the_board_ends_the_game() {
    let mut table = table().await;
    let game = table.start("jieqi").await;
    let black = table.bearer(&game, 1);
    let (status, answer) = act(
        &table,
        &game,
        &black,
        json!({"action": "resign", "key": "r1"}),
    )
    .await;
    assert_eq!((status, &answer["done"]), (200, &json!(true)), "{answer}");
    let page = table
        .service
        .game_page(&game, None)
        .await
        .expect("store")
        .expect("game");
    assert!(page.finished);
}

/// From a finished game's page each player may ask for the rematch, as the chat's Rematch
/// button does: the first is told the offer waits for the other, whose press starts it and
/// sends them to their own page of the new game, where they play the other colour; the
/// first player's next press there follows to it too.
#[tokio::test]
async fn a_rematch_from_the_finished_games_page_waits_for_the_other_then_follows_to_the_new_game() {
    let mut table = table().await;
    let game = table.start("jieqi").await;
    let (red, black) = (table.bearer(&game, 0), table.bearer(&game, 1));
    let (_, answer) = act(
        &table,
        &game,
        &black,
        json!({"action": "resign", "key": "r1"}),
    )
    .await;
    assert_eq!(answer["done"], json!(true), "{answer}");

    let (status, answer) = act(
        &table,
        &game,
        &red,
        json!({"action": "rematch", "key": "again"}),
    )
    .await;
    assert_eq!((status, &answer["done"]), (200, &json!(true)), "{answer}");
    assert!(answer["next"].is_null(), "{answer}");
    assert!(
        answer["said"][0]
            .as_str()
            .is_some_and(|said| said.contains("rematch offer to bob")),
        "{answer}"
    );

    let (status, answer) = act(
        &table,
        &game,
        &black,
        json!({"action": "rematch", "key": "again"}),
    )
    .await;
    assert_eq!((status, &answer["done"]), (200, &json!(true)), "{answer}");
    let rematch: GameId = answer["game"]
        .as_str()
        .and_then(|id| id.parse().ok())
        .expect("the new game");
    assert_ne!(rematch, game);
    let next = answer["next"].as_str().expect("the page to follow");
    let (page, token) = next.split_once("#t=").expect("a personal link");
    assert_eq!(page, table.url(&format!("/g/{rematch}")));
    let mine = json_of(
        get(
            &table.url(&format!("/g/{rematch}/me")),
            Some(&format!("Bearer {token}")),
        )
        .await,
    )
    .await;
    assert_eq!(mine["seat"], 0, "bob plays Red in the rematch: {mine}");
    assert_eq!(mine["finished"], json!(false), "{mine}");

    let (_, answer) = act(
        &table,
        &game,
        &red,
        json!({"action": "rematch", "key": "again"}),
    )
    .await;
    assert_eq!(answer["game"].as_str(), Some(rematch.as_str()), "{answer}");
}

/// After the end a personal link still shows its player the finished game from their side
/// (their page shows the end and the deal, which are public by then), until it expires; what
/// it can no longer do is act: the game's end ends its moves, draws and resignations.
#[tokio::test]
async fn after_the_end_a_personal_link_shows_the_finished_game_and_acts_no_more() {
    let mut table = table().await;
    let game = table.start("jieqi").await;
    let (red, black) = (table.bearer(&game, 0), table.bearer(&game, 1));
    let (_, answer) = act(
        &table,
        &game,
        &black,
        json!({"action": "resign", "key": "r1"}),
    )
    .await;
    assert_eq!(answer["done"], json!(true), "{answer}");
    let page = get(&table.url(&format!("/g/{game}/me")), Some(&red)).await;
    assert_eq!(page.status(), 200);
    let page = json_of(page).await;
    assert_eq!(page["seat"], 0);
    assert_eq!(page["finished"], json!(true), "{page}");
    assert_eq!(page["legal"].as_array().map(Vec::len), Some(0), "{page}");
    let board = get(
        &table.url(&format!("/g/{game}/me/board/0.png?w=360&end=1")),
        Some(&red),
    )
    .await;
    assert_eq!(board.status(), 200);
    let before = revision(&table, &game).await;
    for (n, body) in [
        json!({"action": "move", "move": "h2e2", "key": "late-move"}),
        json!({"action": "draw", "key": "late-draw"}),
        json!({"action": "resign", "key": "late-resign"}),
    ]
    .into_iter()
    .enumerate()
    {
        let (status, answer) = act(&table, &game, &red, body).await;
        assert_eq!(
            (status, &answer["done"]),
            (200, &json!(false)),
            "{n}: {answer}"
        );
        let reason = answer["refused"].as_str().unwrap_or_default();
        assert!(!reason.is_empty(), "{n}: a refusal says why: {answer}");
    }
    assert_eq!(revision(&table, &game).await, before, "nothing changed");
}

#[tokio::test]
async fn a_players_stream_carries_their_page_after_each_move() {
    let mut table = table().await;
    let game = table.start("jieqi").await;
    let red = table.bearer(&game, 0);
    let mut stream =
        Sse::of(Sse::open_as(&table.url(&format!("/g/{game}/me/live")), None, Some(&red)).await);
    let first = stream.next(Duration::from_secs(5)).await.expect("the page");
    let first: Value = serde_json::from_str(&first.data).expect("JSON");
    assert_eq!(first["seat"], 0);
    table.play(0, "h2e2").await;
    let next = stream
        .next(Duration::from_secs(5))
        .await
        .expect("the next page");
    let next: Value = serde_json::from_str(&next.data).expect("JSON");
    assert_eq!(next["moves"].as_array().map(Vec::len), Some(1));
    assert_eq!(
        next["legal"].as_array().map(Vec::len),
        Some(0),
        "black to move now"
    );
}

#[tokio::test]
async fn a_person_sending_actions_too_fast_is_slowed_down() {
    let mut table = table().await;
    let game = table.start("jieqi").await;
    let black = table.bearer(&game, 1);
    let mut statuses = Vec::new();
    for i in 0..20 {
        let (status, _) = act(
            &table,
            &game,
            &black,
            json!({"action": "move", "move": "h7e7", "key": format!("k{i}")}),
        )
        .await;
        statuses.push(status);
    }
    assert!(statuses.contains(&429), "{statuses:?}");
    // Someone else is not slowed by it.
    let red = table.bearer(&game, 0);
    let (status, _) = act(
        &table,
        &game,
        &red,
        json!({"action": "move", "move": "h2e2", "key": "r"}),
    )
    .await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn the_mini_apps_address_opens_the_game_named_by_its_start_parameter() {
    let table = table().await;
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("a client");
    let answer = client
        .get(table.url("/app?tgWebAppStartParam=g7k2"))
        .send()
        .await
        .expect("an answer");
    assert_eq!(answer.status(), 303);
    assert_eq!(answer.headers()["location"], "/g/g7k2");
    let answer = client
        .get(table.url("/app?tgWebAppStartParam=%3Cscript%3E"))
        .send()
        .await
        .expect("an answer");
    assert_eq!(answer.status(), 404);
}

/// A live game's clocks as the public state gives them: each seat's time left, in ms.
async fn clocks_left(table: &Table, game: &GameId) -> [u64; 2] {
    let state = json_of(get(&table.url(&format!("/g/{game}/state")), None).await).await;
    let left = &state["clocks"]["left_ms"];
    [0, 1].map(|seat| {
        left[seat]
            .as_u64()
            .unwrap_or_else(|| panic!("clocks: {state}"))
    })
}

#[tokio::test]
async fn a_moves_measured_lag_is_given_back_within_the_clocks_bounds_and_a_wild_one_refused() {
    // At 3+2 a move gets back at most 1 s, and the quota starts at three of those.
    let clock = HandClock::at(1_800_000_000_000);
    let mut table = Table::on_hand_clock(
        vec![deal(jieqi_rules::Variant::Xiangqi, 11)],
        ["alice", "bob"],
        clock.clone(),
    )
    .await;
    let game = table.start("xiangqi 3+2").await;
    let (red, black) = (table.bearer(&game, 0), table.bearer(&game, 1));
    assert_eq!(clocks_left(&table, &game).await, [180_000, 180_000]);

    // Red thinks 5 s and the page says its network took 300 ms of the trip: charged 4.7 s,
    // then the increment.
    clock.advance(Duration::from_secs(5));
    let body = json!({"action": "move", "move": "h2e2", "lag_ms": 300, "key": "1-h2e2"});
    let (status, answer) = act(&table, &game, &red, body).await;
    assert_eq!((status, &answer["done"]), (200, &json!(true)), "{answer}");
    assert!(
        answer["server_ms"].is_u64(),
        "the bot's own time is told: {answer}"
    );
    assert_eq!(clocks_left(&table, &game).await, [177_300, 180_000]);

    // A figure no network takes is a wrong page: refused, naming the field, nothing played.
    clock.advance(Duration::from_secs(5));
    for lag in [json!(60_000), json!(-1), json!("300")] {
        let body = json!({"action": "move", "move": "h7e7", "lag_ms": lag, "key": "2-h7e7"});
        let (status, answer) = act(&table, &game, &black, body.clone()).await;
        assert_eq!(status, 400, "{body}: {answer}");
        let message = answer["message"].as_str().unwrap_or_default();
        assert!(message.contains("lag_ms"), "{body}: {message}");
    }
    // A claim of 5 s gets back 1 s, the most any move gets.
    let body = json!({"action": "move", "move": "h7e7", "lag_ms": 5000, "key": "2-h7e7"});
    let (status, answer) = act(&table, &game, &black, body).await;
    assert_eq!((status, &answer["done"]), (200, &json!(true)), "{answer}");
    assert_eq!(clocks_left(&table, &game).await, [177_300, 178_000]);

    // A move without a measurement (the chat's, or a page that has none yet) gets nothing.
    clock.advance(Duration::from_secs(3));
    let body = json!({"action": "move", "move": "b2c2", "key": "3-b2c2"});
    let (status, answer) = act(&table, &game, &red, body).await;
    assert_eq!((status, &answer["done"]), (200, &json!(true)), "{answer}");
    assert_eq!(clocks_left(&table, &game).await, [176_300, 178_000]);
}
