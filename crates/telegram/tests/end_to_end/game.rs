//! A whole Jieqi game in a group: challenge by reply, deep-link accept, moves, private
//! reveals, a stranger's button press, a 429 burst, resignation by button, a stale button.

use std::time::Duration;

use serde_json::Value;

use crate::fake_bot_api::{BOT_USERNAME, Fault};
use crate::harness::{ALICE, BOB, CAROL, GROUP, Harness, IDENTITY_DEAL, STEP};

/// Every move is deal-independent: each moves a covered piece from its start point as its
/// start type, to a point from which nothing, whatever it is, attacks a general. Move 1 (Red's
/// cannon takes the covered piece on b9) and move 2 (Black's cannon takes the covered piece on
/// h0) capture covered pieces.
const GAME: [(i64, &str); 14] = [
    (ALICE, "b2b9"),
    (BOB, "h7h0"),
    (ALICE, "a3a4"),
    (BOB, "a6a5"),
    (ALICE, "g3g4"),
    (BOB, "c6c5"),
    (ALICE, "i3i4"),
    (BOB, "g6g5"),
    (ALICE, "c3c4"),
    (BOB, "i6i5"),
    (ALICE, "a0a1"),
    (BOB, "a9a8"),
    (ALICE, "i0i1"),
    (BOB, "i9i8"),
];

/// The same as the identity deal except for pieces nobody sees before the end: the covered
/// pieces captured on b9 and h0 are swapped with untouched covered pieces of another type.
const OTHER_DEAL: &str = "rehaaehrccpppppPPPPPCCRHEAAHER";

/// What the group and the players saw of one game.
struct Transcript {
    /// Texts (captions, buttons) sent to the group before the game ended.
    group_texts: Vec<String>,
    /// Pictures sent to the group before the game ended.
    group_pictures: Vec<Vec<u8>>,
    /// Pictures the players got privately.
    private_pictures: Vec<Vec<u8>>,
    /// Texts the players got privately.
    private_texts: Vec<String>,
}

fn board_photos(h: &Harness) -> usize {
    h.posts(GROUP).iter().filter(|p| p.photo.is_some()).count()
}

async fn play_game(deal: &str) -> (Harness, Transcript) {
    let h = Harness::start(7, &[deal]).await;
    // Alice has talked to the bot privately before; Bob has not.
    h.fake.say(ALICE, ALICE, "/start");
    h.post_containing(ALICE, "Hello").await;

    // Alice challenges Bob by replying to his message.
    let bobs_message = h.fake.message_by(BOB, GROUP, "anyone up for Jieqi?");
    h.fake.say_full(
        ALICE,
        GROUP,
        "/challenge jieqi red",
        Some(bobs_message),
        None,
    );
    let challenge = h.post_containing(GROUP, "challenges").await;
    assert!(
        challenge.text.contains("@alice") && challenge.text.contains("@bob"),
        "{}",
        challenge.text
    );
    let link = challenge
        .button_starting("https://t.me/")
        .expect("a deep-link Accept button");
    let prefix = format!("https://t.me/{BOT_USERNAME}?start=");
    let token = link
        .strip_prefix(&prefix)
        .expect("a link to the bot's private chat")
        .to_owned();
    assert!(token.starts_with("acc_"), "{token}");
    assert!(
        challenge.button_starting("dec_").is_some(),
        "a Decline button"
    );

    // Bob presses it: Telegram opens his private chat with the bot and sends /start <token>.
    h.fake.say(BOB, BOB, &format!("/start {token}"));
    h.fake
        .wait_for("the first board", STEP, |fake| {
            fake.posts_in(GROUP).iter().any(|p| p.photo.is_some())
        })
        .await;
    h.post_containing(BOB, "has started").await;
    h.post_containing(ALICE, "has started").await;
    // The challenge post lost its buttons.
    h.fake
        .wait_for("the challenge's buttons removed", STEP, |fake| {
            fake.posts_in(GROUP)
                .iter()
                .find(|p| p.message_id == challenge.message_id)
                .is_some_and(|p| p.buttons().is_empty())
        })
        .await;

    for (i, (player, mv)) in GAME.iter().enumerate() {
        let boards = board_photos(&h);
        if i == 4 {
            // Telegram pushes back twice on the next board: it comes late, but it comes, once.
            h.fake
                .inject(Fault::too_many_requests("sendPhoto", Some(GROUP), 2, 1));
        }
        h.fake.say(*player, GROUP, &format!("/move {mv}"));
        h.fake
            .wait_for(&format!("the board after {mv}"), STEP, |_| {
                board_photos(&h) > boards
            })
            .await;
        if i == 5 {
            // Carol, who does not play, presses Resign under the board.
            let board = h
                .posts(GROUP)
                .into_iter()
                .rev()
                .find(|p| p.photo.is_some())
                .expect("board");
            let resign = board.button_starting("res_").expect("a Resign button");
            let query = h.fake.press(CAROL, &board, &resign);
            h.fake
                .wait_for("the answer to Carol", STEP, |fake| {
                    fake.calls().iter().any(|c| {
                        c.method == "answerCallbackQuery"
                            && c.str("callback_query_id") == Some(&query)
                    })
                })
                .await;
            let answer = h
                .fake
                .calls()
                .into_iter()
                .find(|c| {
                    c.method == "answerCallbackQuery" && c.str("callback_query_id") == Some(&query)
                })
                .expect("answer");
            assert_eq!(answer.params.get("show_alert"), Some(&Value::Bool(true)));
            assert!(
                answer
                    .str("text")
                    .is_some_and(|t| t.contains("not a player")),
                "{:?}",
                answer.params
            );
            assert!(
                !h.texts_to(GROUP).iter().any(|t| t.contains("not a player")),
                "the refusal is Carol's alone"
            );
        }
    }
    let throttled = h.fake.calls().iter().filter(|c| c.status == 429).count();
    assert_eq!(throttled, 2, "both 429 answers were met");
    assert_eq!(
        board_photos(&h),
        GAME.len() + 1,
        "one board per move, none lost or doubled"
    );

    let transcript = Transcript {
        // An old board losing its buttons goes when the group has room to spare, at times
        // that vary from run to run; it shows nothing but the remaining links.
        group_texts: h
            .fake
            .calls()
            .iter()
            .filter(|c| c.chat() == Some(GROUP) && c.method != "editMessageReplyMarkup")
            .map(|c| c.visible_text())
            .collect(),
        group_pictures: h.pictures_to(GROUP),
        private_pictures: [ALICE, BOB]
            .iter()
            .flat_map(|p| h.pictures_to(*p))
            .collect(),
        private_texts: [ALICE, BOB].iter().flat_map(|p| h.texts_to(*p)).collect(),
    };

    // Bob resigns with the button under the last board.
    let board = h
        .posts(GROUP)
        .into_iter()
        .rev()
        .find(|p| p.photo.is_some())
        .expect("board");
    let resign = board.button_starting("res_").expect("a Resign button");
    let draw = board.button_starting("drw_").expect("a Draw button");
    h.fake.press(BOB, &board, &resign);
    // Resigning asks once; a second /resign within a minute confirms.
    h.fake.say(BOB, GROUP, "/resign");
    h.post_containing(GROUP, "is over").await;
    // The Draw button of the finished game, pressed late, says the game is over.
    let query = h.fake.press(ALICE, &board, &draw);
    h.fake
        .wait_for("the answer to the stale button", STEP, |fake| {
            fake.calls().iter().any(|c| {
                c.method == "answerCallbackQuery"
                    && c.str("callback_query_id") == Some(&query)
                    && c.str("text").is_some_and(|t| t.contains("already over"))
            })
        })
        .await;
    (h, transcript)
}

fn without_commitments(text: &str) -> String {
    // The commitment is public but depends on the deal (that is its point): mask it.
    let mut out = String::new();
    let mut run = String::new();
    for c in text.chars().chain(std::iter::once(' ')) {
        if c.is_ascii_hexdigit() {
            run.push(c);
            continue;
        }
        out.push_str(if run.len() == 64 {
            "<commitment>"
        } else {
            &run
        });
        run.clear();
        out.push(c);
    }
    out.pop();
    out
}

/// `text` with each move's deadline ("Move by 2026-12-03 02:42 UTC") masked: it follows the
/// clock, not the deal, and the two games compared below are played a little apart (a minute
/// turning between them changed one, in a full run of the suite).
fn without_deadlines(text: &str) -> String {
    const BY: &str = "Move by ";
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find(BY) {
        let after = &rest[at + BY.len()..];
        let Some(end) = after.find(" UTC") else { break };
        out.push_str(&rest[..at + BY.len()]);
        out.push_str("<deadline>");
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_game_reveals_captured_pieces_only_to_their_captor() {
    let (h, seen) = tokio::time::timeout(Duration::from_secs(900), play_game(IDENTITY_DEAL))
        .await
        .expect("the game ends in time");

    // Alice took Black's covered horse on b9: she alone learns it, privately, with a picture.
    let alice_reveal = h.post_containing(ALICE, "you captured").await;
    assert!(alice_reveal.text.contains("horse"), "{}", alice_reveal.text);
    assert!(alice_reveal.photo.is_some());
    let bob_reveal = h.post_containing(BOB, "you captured").await;
    assert!(bob_reveal.text.contains("horse"), "{}", bob_reveal.text);
    for text in &seen.group_texts {
        let lower = text.to_lowercase();
        assert!(
            !lower.contains("horse") && !lower.contains("you captured"),
            "the group read: {text}"
        );
    }
    for private in &seen.private_pictures {
        assert!(
            !seen.group_pictures.contains(private),
            "a private picture reached the group"
        );
    }
    assert!(
        seen.private_texts
            .iter()
            .any(|t| t.contains("you captured"))
    );

    // Another deal that differs only in what was captured covered gives the group exactly
    // the same pictures and words.
    let (_, other) = tokio::time::timeout(Duration::from_secs(900), play_game(OTHER_DEAL))
        .await
        .expect("the second game ends in time");
    assert!(
        other.private_texts.iter().any(|t| t.contains("elephant")),
        "the captors see the other deal"
    );
    assert_eq!(seen.group_pictures.len(), other.group_pictures.len());
    for (i, (a, b)) in seen
        .group_pictures
        .iter()
        .zip(&other.group_pictures)
        .enumerate()
    {
        assert!(a == b, "group picture {i} depends on the hidden deal");
    }
    let masked = |texts: &[String]| {
        texts
            .iter()
            .map(|t| without_deadlines(&without_commitments(t)))
            .collect::<Vec<_>>()
    };
    // The same words, and each game's own posts in the same order. A chat's messages about a
    // game are a delivery lane of their own beside the chat's (the challenge post and its
    // "accepted" edit), so how the two lanes interleave is the network's doing, not the deal's.
    let sorted = |texts: &[String]| {
        let mut texts = masked(texts);
        texts.sort();
        texts
    };
    assert_eq!(sorted(&seen.group_texts), sorted(&other.group_texts));
    let game_posts = |texts: &[String]| {
        masked(texts)
            .into_iter()
            .filter(|t| t.starts_with("Game "))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        game_posts(&seen.group_texts),
        game_posts(&other.group_texts)
    );
}
