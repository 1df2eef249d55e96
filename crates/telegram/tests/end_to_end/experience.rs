//! What players see: a GIF that plays, the whole command menu in every language, words of
//! the adapter's own in the player's language, an edited `/move`, the private-chat check of a
//! challenger, and `/peek`'s confirmation only after the view went out.

use jieqi_service::i18n::Translations;
use jieqi_service::{
    ChatId, Destination, Image, Language, Message, MessageKind, OutboxEntry, OutboxId, Platform,
};
use serde_json::Value;

use crate::harness::{ALICE, BOB, CAROL, GROUP, Harness, OTHER_GROUP, STEP, sender_for};

fn photos(h: &Harness) -> usize {
    h.posts(GROUP).iter().filter(|p| p.photo.is_some()).count()
}

#[tokio::test]
async fn a_finished_games_gif_plays_as_an_animation() {
    let h = Harness::start(31, &[]).await;
    let sender = sender_for(&h.fake);
    let to_group = |text: &str, file_name: &str| {
        Message::text(
            Destination::Chat(ChatId::new(Platform::Telegram, GROUP.to_string())),
            MessageKind::History,
            text,
        )
        .with_image(Some(Image {
            bytes: b"GIF89a-frames".to_vec(),
            file_name: file_name.to_owned(),
        }))
    };
    let entry = |id, message| OutboxEntry {
        id: OutboxId(id),
        message,
        attempts: 0,
        replaces_ref: None,
    };
    let sent = sender
        .send(&entry(1, to_group("Game g7k2, move by move", "g7k2.gif")))
        .await
        .expect("sent");
    assert!(sent.is_some());
    let calls = h.fake.calls();
    assert!(
        calls
            .iter()
            .any(|c| c.method == "sendAnimation" && c.status == 200),
        "a GIF goes out with sendAnimation"
    );
    assert!(!calls.iter().any(|c| c.method == "sendPhoto"));
    let post = h.posts(GROUP).pop().expect("posted");
    assert!(post.animation);
    assert_eq!(post.photo.as_deref(), Some(b"GIF89a-frames".as_slice()));
    assert_eq!(post.text, "Game g7k2, move by move");

    // A PNG board stays a photo.
    sender
        .send(&entry(2, to_group("Game g7k2 · 1. h2e2", "g7k2-1.PNG")))
        .await
        .expect("sent");
    assert!(h.fake.calls().iter().any(|c| c.method == "sendPhoto"));
    assert!(!h.posts(GROUP).pop().expect("posted").animation);
}

#[tokio::test]
async fn the_menu_lists_every_command_of_the_service_in_every_language() {
    let h = Harness::start(32, &[]).await;
    h.fake
        .wait_for("three menus", STEP, |fake| {
            fake.calls()
                .iter()
                .filter(|c| c.method == "setMyCommands" && c.status == 200)
                .count()
                == 3
        })
        .await;
    for language in Language::ALL {
        let code = (language != Language::En).then(|| language.code());
        let call = h
            .fake
            .calls()
            .into_iter()
            .find(|c| c.method == "setMyCommands" && c.str("language_code") == code)
            .unwrap_or_else(|| panic!("no menu for {language}"));
        let published: Vec<(String, String)> = call
            .params
            .get("commands")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .map(|c| {
                let field = |k: &str| c.get(k).and_then(Value::as_str).unwrap_or_default();
                (field("command").to_owned(), field("description").to_owned())
            })
            .collect();
        let wanted: Vec<(String, String)> = h
            .service
            .command_menu(language)
            .into_iter()
            .map(|(name, description)| (name.to_owned(), description))
            .collect();
        assert_eq!(published, wanted, "{language}");
        assert!(
            published.iter().any(|(name, _)| name == "play"),
            "{language}: /play is in the menu"
        );
    }
}

#[tokio::test]
async fn a_button_that_is_not_ours_is_explained_in_the_pressers_language() {
    let h = Harness::start(33, &[]).await;
    h.fake.set_language(CAROL, "vi");
    h.fake.say(ALICE, GROUP, "/help");
    let help = h.post_containing(GROUP, "/challenge").await;
    let query = h.fake.press(CAROL, &help, "vote_42");
    h.fake
        .wait_for("the answer to Carol", STEP, |fake| {
            fake.calls().iter().any(|c| {
                c.method == "answerCallbackQuery" && c.str("callback_query_id") == Some(&query)
            })
        })
        .await;
    let answer = h
        .fake
        .calls()
        .into_iter()
        .find(|c| c.method == "answerCallbackQuery" && c.str("callback_query_id") == Some(&query))
        .expect("answer");
    let translations = Translations::load();
    let vietnamese = translations.text(Language::Vi, "button-not-ours", &[]);
    assert_ne!(
        vietnamese,
        translations.text(Language::En, "button-not-ours", &[])
    );
    assert_eq!(answer.str("text"), Some(vietnamese.as_str()));
    assert_eq!(answer.params.get("show_alert"), Some(&Value::Bool(true)));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_edited_move_is_played() {
    let h = Harness::start(34, &[crate::harness::IDENTITY_DEAL]).await;
    h.start_game().await;
    let typo = h.fake.say(ALICE, GROUP, "/move h2x2");
    h.post_containing(GROUP, "h2x2").await;
    assert_eq!(photos(&h), 1, "the typo played nothing");
    h.fake.edit(typo, "/move h2e2");
    h.fake
        .wait_for("the board after the corrected move", STEP, |_| {
            photos(&h) == 2
        })
        .await;
    let board = h
        .posts(GROUP)
        .into_iter()
        .rev()
        .find(|p| p.photo.is_some())
        .expect("board");
    assert!(
        board.text.contains("h2e2") || board.text.contains("炮"),
        "{}",
        board.text
    );
}

#[tokio::test]
async fn a_challenger_the_bot_cannot_write_to_is_told_before_the_game_starts() {
    let h = Harness::start(35, &[]).await;
    // Alice never opened the private chat with the bot.
    let bobs = h.fake.message_by(BOB, GROUP, "a game?");
    h.fake
        .say_full(ALICE, GROUP, "/challenge", Some(bobs), None);
    h.post_containing(GROUP, "challenges").await;
    let warning = h.post_containing(GROUP, "could not send @alice").await;
    assert!(
        warning.text.contains("@JieqiTestBot") && warning.reply_to.is_some(),
        "{}",
        warning.text
    );
    assert!(
        h.posts(ALICE).is_empty(),
        "the check itself showed Alice nothing"
    );
    assert!(
        h.fake
            .calls()
            .iter()
            .any(|c| c.method == "sendChatAction" && c.chat() == Some(ALICE))
    );

    // Once she has, a challenge draws no warning.
    h.fake.say(ALICE, ALICE, "/start");
    h.post_containing(ALICE, "Hello").await;
    let carols = h.fake.message_by(CAROL, OTHER_GROUP, "hi");
    h.fake
        .say_full(ALICE, OTHER_GROUP, "/challenge", Some(carols), None);
    h.post_containing(OTHER_GROUP, "challenges").await;
    h.fake
        .wait_for("the second check", STEP, |fake| {
            fake.calls()
                .iter()
                .filter(|c| c.method == "sendChatAction" && c.status == 200)
                .count()
                == 1
        })
        .await;
    h.fake
        .wait_for("all updates confirmed", STEP, |fake| fake.all_confirmed())
        .await;
    assert!(
        !h.posts(OTHER_GROUP)
            .iter()
            .any(|p| p.text.contains("could not send")),
        "no warning for a reachable challenger"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn peek_says_the_view_was_sent_only_after_it_was() {
    let h = Harness::start(36, &[crate::harness::IDENTITY_DEAL]).await;
    h.start_game().await;
    let sent_note = Translations::load().text(Language::En, "peek-sent-privately", &[]);

    h.fake.say(BOB, GROUP, "/peek");
    let view = h.post_containing(BOB, "Your view").await;
    let note = h.post_containing(GROUP, &sent_note).await;
    assert!(note.reply_to.is_some(), "it answers Bob's /peek");
    assert!(note.at >= view.at, "the note came after the view");

    // Alice blocked the bot: her view cannot go out, so she is not told it did.
    h.fake.block(ALICE);
    h.fake.say(ALICE, GROUP, "/peek");
    h.post_containing(GROUP, "could not send @alice").await;
    h.fake
        .wait_for("all updates confirmed", STEP, |fake| fake.all_confirmed())
        .await;
    let notes = h
        .posts(GROUP)
        .iter()
        .filter(|p| p.text.contains(&sent_note))
        .count();
    assert_eq!(notes, 1, "only Bob was told his view was sent");
}
