//! Old boards in a group: once a newer board is posted, the older one loses its Draw and
//! Resign buttons (its keyboard keeps only its links) when the group has room to spare, and
//! a press on an old board's button that was still there is answered with the game as it
//! stands ("this board is old: …") instead of acting. Against the fake enforcing Telegram's
//! limits, with the adapter pacing itself as in production.

use std::time::Duration;

use jieqi_fake_telegram::Post;

use crate::harness::{ALICE, BOB, GROUP, Harness, IDENTITY_DEAL, STEP};

/// The boards in the group (posts with a picture), oldest first.
fn boards(h: &Harness) -> Vec<Post> {
    h.posts(GROUP)
        .into_iter()
        .filter(|p| p.photo.is_some())
        .collect()
}

/// True if `post` still has a button that acts (not a link).
fn has_live_buttons(post: &Post) -> bool {
    post.buttons()
        .iter()
        .any(|(_, target)| target.starts_with("res_") || target.starts_with("drw_"))
}

/// Plays `mv` for `player` and waits for the board naming it.
async fn play(h: &Harness, player: i64, mv: &str, boards_before: usize) {
    h.fake.say(player, GROUP, &format!("/move {mv}"));
    h.fake
        .wait_for("the move's board", STEP, |fake| {
            fake.posts_in(GROUP)
                .iter()
                .filter(|p| p.photo.is_some())
                .count()
                > boards_before
        })
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_old_boards_buttons_go_and_a_press_there_shows_the_game_as_it_stands() {
    let h = Harness::start_paced(41, &[IDENTITY_DEAL]).await;
    h.start_game().await;
    let first = boards(&h).pop().expect("the first board");
    let first_draw = first.button_starting("drw_").expect("a Draw button");
    let first_resign = first.button_starting("res_").expect("a Resign button");
    assert!(first_draw.ends_with("_0"), "{first_draw}");

    for (i, (player, mv)) in [(ALICE, "h2e2"), (BOB, "h9g7"), (ALICE, "h0g2")]
        .into_iter()
        .enumerate()
    {
        play(&h, player, mv, i + 1).await;
    }
    // Every board but the newest loses its buttons; the newest keeps them.
    h.fake
        .wait_for("the old boards' buttons gone", STEP, |fake| {
            let boards: Vec<Post> = fake
                .posts_in(GROUP)
                .into_iter()
                .filter(|p| p.photo.is_some())
                .collect();
            boards.len() == 4
                && boards[..3].iter().all(|b| !has_live_buttons(b))
                && has_live_buttons(&boards[3])
        })
        .await;
    let boards = boards(&h);
    let newest = boards.last().expect("the newest board");
    assert!(
        newest
            .button_starting("drw_")
            .is_some_and(|d| d.ends_with("_3")),
        "{:?}",
        newest.buttons()
    );
    // An old board keeps its caption and picture: only the keyboard changed.
    assert_eq!(boards[0].text, first.text);
    assert_eq!(boards[0].photo, first.photo);
    // The boards were edited only to take their buttons away (the challenge's own edit,
    // "accepted", aside).
    let edits: Vec<_> = h
        .fake
        .calls()
        .into_iter()
        .filter(|c| c.chat() == Some(GROUP) && c.method.starts_with("editMessage"))
        .filter(|c| c.method != "editMessageText")
        .collect();
    assert!(
        edits.iter().all(|c| c.method == "editMessageReplyMarkup"),
        "{:?}",
        edits.iter().map(|c| &c.method).collect::<Vec<_>>()
    );
    assert!(edits.len() >= 3, "{} edits", edits.len());

    // Bob presses Resign and Alice Draw on the first board (a client that had not yet
    // shown the edit): each is told the board is old and how the game stands; nothing
    // happens.
    for (who, data) in [(BOB, &first_resign), (ALICE, &first_draw)] {
        let query = h.fake.press(who, &first, data);
        h.fake
            .wait_for("the answer to a press on an old board", STEP, |fake| {
                fake.calls().iter().any(|c| {
                    c.method == "answerCallbackQuery"
                        && c.str("callback_query_id") == Some(&query)
                        && c.str("text").is_some_and(|t| {
                            t.contains("This board is old")
                                && t.contains("Last move: 2. ")
                                && t.contains("to move")
                        })
                })
            })
            .await;
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let posts = h.posts(GROUP);
    assert!(
        !posts
            .iter()
            .any(|p| p.text.contains("resigned") || p.text.contains("offers a draw")),
        "a press on an old board acted: {:?}",
        posts.iter().map(|p| &p.text).collect::<Vec<_>>()
    );
    // The same press on the newest board acts: Bob is asked to confirm his resignation.
    let resign = newest.button_starting("res_").expect("Resign");
    let query = h.fake.press(BOB, newest, &resign);
    h.fake
        .wait_for("the resignation's confirm question", STEP, |fake| {
            fake.calls().iter().any(|c| {
                c.method == "answerCallbackQuery"
                    && c.str("callback_query_id") == Some(&query)
                    && c.str("text")
                        .is_some_and(|t| t.contains("really want to resign"))
            })
        })
        .await;
    let broken = h.fake.limits_broken();
    assert!(broken.is_empty(), "{broken:#?}");
    assert!(h.fake.throttled().is_empty(), "{:?}", h.fake.throttled());
}
