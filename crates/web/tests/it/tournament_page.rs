//! A tournament's page, `/t/<id>`, as a browser or a client reads it: where the event
//! stands, its standings, each round's pairings linking the games, results as games end
//! (the revision the page's script follows changes with them), names as text whatever they
//! hold, and ids that are not one answered with a 404 that says so.

use jieqi_service::Answer;
use serde_json::Value;

use crate::harness::Table;

async fn get(url: &str) -> reqwest::Response {
    reqwest::get(url).await.expect("an answer")
}

async fn text(url: &str) -> (u16, String) {
    let answer = get(url).await;
    let status = answer.status().as_u16();
    (status, answer.text().await.expect("a body"))
}

async fn state_of(table: &Table, id: &str) -> Value {
    let (status, body) = text(&table.url(&format!("/t/{id}/state"))).await;
    assert_eq!(status, 200, "{body}");
    serde_json::from_str(&body).expect("the state as JSON")
}

fn refused(answer: &Answer) -> bool {
    !answer.replies.is_empty()
}

/// Both players of `table` in a one-round Swiss started by the first: its id.
async fn a_started_swiss(table: &mut Table) -> String {
    let created = table.say(0, "/tournament swiss 1 xiangqi 1d").await;
    assert!(!refused(&created), "{created:#?}");
    for who in 0..2 {
        let joined = table.say(who, "/tournament join").await;
        assert!(!refused(&joined), "{joined:#?}");
    }
    let started = table.say(0, "/tournament start").await;
    assert!(!refused(&started), "{started:#?}");
    let pending = table.service.pending(1000).await.expect("the outbox");
    pending
        .iter()
        .find_map(|entry| {
            let text = &entry.message.text;
            let at = text.find("Tournament ")? + "Tournament ".len();
            let id: String = text[at..].chars().take(6).collect();
            (id.len() == 6 && id.chars().all(|c| c.is_ascii_alphanumeric())).then_some(id)
        })
        .expect("the tournament was announced with its id")
}

#[tokio::test]
async fn a_tournaments_page_shows_its_pairings_and_standings_and_each_result_as_its_game_ends() {
    let mut table = Table::new(vec![], ["alice", "bob"], |_| {}).await;
    let id = a_started_swiss(&mut table).await;
    let pending = table.service.pending(1000).await.expect("the outbox");
    let link = table.url(&format!("/t/{id}"));
    assert!(
        pending
            .iter()
            .any(|entry| entry.message.text.contains("Round 1 of 1")
                && entry.message.text.contains(&link)),
        "the pairings post links the page: {pending:#?}"
    );

    let (status, page) = text(&table.url(&format!("/t/{id}"))).await;
    assert_eq!(status, 200, "{page}");
    assert!(page.contains(&format!("Tournament {id}")), "{page}");
    assert!(
        page.contains("data-revision=") && page.contains("/assets/tournament."),
        "the page carries what its script follows: {page}"
    );
    assert!(page.contains("Round 1 of 1"), "where it stands: {page}");
    assert!(page.contains("alice") && page.contains("bob"), "{page}");
    assert!(
        page.contains("playing: watch"),
        "the game is being played: {page}"
    );
    assert!(page.contains("This page follows the tournament"), "{page}");

    let state = state_of(&table, &id).await;
    let game = state["rounds"][0]["games"][0]["game"]
        .as_str()
        .expect("round 1's game")
        .to_owned();
    assert!(
        page.contains(&format!("href=\"/g/{game}\"")),
        "the pairing links its game's page: {page}"
    );
    assert_eq!(state["rounds"][0]["games"][0]["result"], Value::Null);
    assert!(
        pending.iter().any(|entry| entry
            .message
            .text
            .contains(&table.url(&format!("/g/{game}")))),
        "the pairings post links the game's live page"
    );
    assert_eq!(state["standings"].as_array().map(Vec::len), Some(2));
    let before = text(&table.url(&format!("/t/{id}/revision"))).await.1;

    // Both move (a game resigned before both moved is a forfeit), then bob resigns: the
    // result shows.
    let alice_red = state["rounds"][0]["games"][0]["first"] == "alice";
    let (red, black) = if alice_red { (0, 1) } else { (1, 0) };
    for (who, typed) in [(red, "/move h2e2"), (black, "/move h7e7")] {
        let moved = table.say(who, typed).await;
        assert!(!refused(&moved), "{typed}: {moved:#?}");
    }
    table.say(1, "/resign").await;
    table.say(1, "/resign").await;
    let after = text(&table.url(&format!("/t/{id}/revision"))).await.1;
    assert_ne!(before, after, "the revision the page follows moved on");
    let state = state_of(&table, &id).await;
    let result = state["rounds"][0]["games"][0]["result"]
        .as_str()
        .expect("a result once the game ended")
        .to_owned();
    assert_eq!(
        result,
        if alice_red { "1–0" } else { "0–1" },
        "bob resigned"
    );
    assert_eq!(
        state["over"],
        Value::Bool(true),
        "one round: it is finished"
    );
    assert_eq!(state["standings"][0]["name"], "alice", "the winner leads");
    assert_eq!(state["standings"][0]["points"], "1");
    let (_, page) = text(&table.url(&format!("/t/{id}"))).await;
    assert!(page.contains(&result), "{page}");
    assert!(page.contains("Finished"), "{page}");
    assert!(
        !page.contains("This page follows the tournament"),
        "a finished event's page follows nothing: {page}"
    );
}

#[tokio::test]
async fn a_name_full_of_markup_is_text_on_the_tournament_page() {
    let hostile = "<img src=x onerror=alert(1)>\"'&";
    let mut table = Table::new(vec![], [hostile, "bob"], |_| {}).await;
    let id = a_started_swiss(&mut table).await;
    let (status, page) = text(&table.url(&format!("/t/{id}"))).await;
    assert_eq!(status, 200);
    assert!(!page.contains("<img src=x"), "{page}");
    assert!(
        page.contains("&lt;img src=x onerror=alert(1)&gt;&quot;&#39;&amp;"),
        "{page}"
    );
}

#[tokio::test]
async fn an_unknown_or_malformed_tournament_id_is_a_404_that_says_so() {
    let table = Table::new(vec![], ["alice", "bob"], |_| {}).await;
    for (path, says) in [
        ("/t/zzzzzz", "There is no tournament zzzzzz"),
        ("/t/zzzzzz/state", "There is no tournament zzzzzz"),
        ("/t/zzzzzz/revision", "There is no tournament zzzzzz"),
        ("/t/g7k2", "is not a tournament id"),
        ("/t/%3Cscript%3E", "is not a tournament id"),
        ("/t/..%2F..%2Fetc", "is not a tournament id"),
    ] {
        let (status, body) = text(&table.url(path)).await;
        assert_eq!(status, 404, "{path}: {body}");
        assert!(body.contains(says), "{path}: {body}");
        assert!(!body.contains("<script>"), "{path}: {body}");
    }
}

#[tokio::test]
async fn an_arenas_page_lists_its_games_as_paired_with_names_as_text() {
    let hostile = "<script>alert(1)</script>";
    let mut table = Table::new(vec![], [hostile, "bob"], |_| {}).await;
    let created = table.say(0, "/tournament arena 30 xiangqi 1d").await;
    assert!(!refused(&created), "{created:#?}");
    for who in 0..2 {
        let joined = table.say(who, "/tournament join").await;
        assert!(!refused(&joined), "{joined:#?}");
    }
    let started = table.say(0, "/tournament start").await;
    assert!(!refused(&started), "{started:#?}");
    let pending = table.service.pending(1000).await.expect("the outbox");
    let id = pending
        .iter()
        .find_map(|entry| {
            let text = &entry.message.text;
            let at = text.find("Arena ")? + "Arena ".len();
            let id: String = text[at..].chars().take(6).collect();
            (id.len() == 6 && id.chars().all(|c| c.is_ascii_alphanumeric())).then_some(id)
        })
        .expect("the arena's start names it");
    let state = state_of(&table, &id).await;
    assert_eq!(state["tiebreaks"], serde_json::json!(["W", "G"]));
    let game = state["rounds"][0]["games"][0]["game"]
        .as_str()
        .expect("the arena's first game")
        .to_owned();
    let (status, page) = text(&table.url(&format!("/t/{id}"))).await;
    assert_eq!(status, 200, "{page}");
    assert!(page.contains("arena of 30 minutes"), "{page}");
    assert!(page.contains("Arena running until"), "{page}");
    assert!(page.contains("<h3>Games</h3>"), "{page}");
    assert!(page.contains(&format!("href=\"/g/{game}\"")), "{page}");
    assert!(!page.contains("<script>alert"), "{page}");
    assert!(
        page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
        "{page}"
    );
}
