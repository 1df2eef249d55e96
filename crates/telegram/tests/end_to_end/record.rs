//! The record other programs read: `/history <id>` of a finished Xiangqi game sends its PGN as
//! a document (`sendDocument`, multipart with the file's name), through the real teloxide
//! client to the fake Bot API.

use crate::harness::{ALICE, BOB, GROUP, Harness, IDENTITY_DEAL, STEP};

fn board_photos(h: &Harness) -> usize {
    h.posts(GROUP).iter().filter(|p| p.photo.is_some()).count()
}

/// Alice (Red) and Bob play two moves of Xiangqi and Bob resigns; the game's id.
async fn finished_xiangqi_game(h: &Harness) -> String {
    h.fake.say(ALICE, ALICE, "/start");
    h.fake.say(BOB, BOB, "/start");
    let bobs_message = h.fake.message_by(BOB, GROUP, "xiangqi?");
    h.fake.say_full(
        ALICE,
        GROUP,
        "/challenge xiangqi red",
        Some(bobs_message),
        None,
    );
    h.post_containing(GROUP, "challenges").await;
    h.fake.say(BOB, GROUP, "/accept");
    h.fake
        .wait_for("the first board", STEP, |_| board_photos(h) > 0)
        .await;
    for (player, mv) in [(ALICE, "h2e2"), (BOB, "h9g7")] {
        let boards = board_photos(h);
        h.fake.say(player, GROUP, &format!("/move {mv}"));
        h.fake
            .wait_for(&format!("the board after {mv}"), STEP, |_| {
                board_photos(h) > boards
            })
            .await;
    }
    h.fake.say(BOB, GROUP, "/resign");
    h.post_containing(GROUP, "really want to resign").await;
    h.fake.say(BOB, GROUP, "/resign");
    let result = h.post_containing(GROUP, "is over").await;
    result
        .text
        .split_once("Game ")
        .and_then(|(_, rest)| rest.split_once(" is over"))
        .map(|(id, _)| id.to_owned())
        .expect("the result names the game")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn history_of_a_finished_game_sends_its_pgn_as_a_document() {
    let h = Harness::start(9, &[IDENTITY_DEAL]).await;
    let game = finished_xiangqi_game(&h).await;

    h.fake.say(ALICE, GROUP, &format!("/history {game}"));
    h.fake
        .wait_for("the PGN document", STEP, |fake| {
            fake.posts_in(GROUP).iter().any(|p| p.document.is_some())
        })
        .await;
    let posts = h.posts(GROUP);
    let [post] = &posts
        .iter()
        .filter(|p| p.document.is_some())
        .collect::<Vec<_>>()[..]
    else {
        panic!("one document expected: {posts:#?}")
    };
    let document = post.document.as_ref().expect("a document");
    assert_eq!(document.file_name, format!("{game}.pgn"));
    assert!(post.text.contains(&game), "captioned: {}", post.text);
    let pgn = String::from_utf8(document.bytes.clone()).expect("PGN is text");
    assert!(pgn.starts_with("[Game \"Chinese Chess\"]\n"), "{pgn}");
    let tag = |name: &str| {
        pgn.lines()
            .find_map(|line| line.strip_prefix(&format!("[{name} \"")))
            .unwrap_or_else(|| panic!("a {name} tag in {pgn}"))
            .to_owned()
    };
    assert!(tag("Red").contains("lice"), "{pgn}");
    assert!(tag("Black").contains("ob"), "{pgn}");
    assert_eq!(tag("Result"), "1-0\"]");
    assert_eq!(tag("Format"), "ICCS\"]");
    assert!(pgn.contains("1. H2-E2 H9-G7"), "{pgn}");
    assert!(pgn.trim_end().ends_with("1-0"), "{pgn}");
    // Sent once, as a document: no photo or message carries the file.
    let sends: Vec<_> = h
        .fake
        .calls()
        .into_iter()
        .filter(|c| c.files.iter().any(|f| f.file_name.ends_with(".pgn")))
        .collect();
    assert_eq!(sends.len(), 1, "{sends:#?}");
    assert_eq!(sends[0].method, "sendDocument");
    assert_eq!(sends[0].status, 200);
    // The `document` field names its file part (`attach://<part>`, as teloxide writes it).
    assert_eq!(
        sends[0].str("document"),
        Some(format!("attach://{}", document.field).as_str())
    );
}
