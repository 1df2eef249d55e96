//! `/settings`: the notation is a setting of its own, apart from the language.

mod common;

use common::*;
use jieqi_service::{DealSource, MessageKind};

#[tokio::test]
async fn switching_language_keeps_the_notation() {
    let mut h = Harness::new(DealSource::Seeded(40));
    let mut ming = user("ming");
    ming.language = Some("zh".to_owned());
    let chat = group("-900");
    // A new chat takes its notation from its language once...
    let answer = h.say(&ming, &chat, "/settings").await;
    assert!(answer.replies[0].text.contains("chinese"), "{answer:#?}");
    // ...and after that the two are separate choices.
    let answer = h.say(&ming, &chat, "/settings notation coordinates").await;
    assert!(
        answer.replies[0].text.contains("coordinates"),
        "{answer:#?}"
    );
    for language in ["en", "vi", "zh"] {
        let answer = h
            .say(&ming, &chat, &format!("/settings language {language}"))
            .await;
        let text = &answer.replies[0].text;
        assert!(text.contains("coordinates"), "{language}: {text}");
    }

    let english = group("-901");
    let alice = user("alice");
    h.say(&alice, &english, "/settings language zh").await;
    let answer = h.say(&alice, &english, "/settings").await;
    assert!(answer.replies[0].text.contains("wxf"), "{answer:#?}");
}

#[tokio::test]
async fn traditional_chinese_notation_is_a_choice_of_its_own() {
    let mut h = Harness::new(DealSource::Seeded(41));
    let (alice, bob) = (user("alice"), user("bob"));
    let chat = group("-902");
    let answer = h.say(&alice, &chat, "/settings notation traditional").await;
    assert!(
        answer.replies[0].text.contains("traditional"),
        "{answer:#?}"
    );
    h.say_mentioning(
        &alice,
        &chat,
        "/challenge @bob xiangqi red",
        vec![bob.clone()],
    )
    .await;
    h.say(&bob, &chat, "/accept").await;
    h.deliver().await;
    h.say(&alice, &chat, "/move h0g2").await;
    let out = h.deliver().await;
    let board = of_kind(&out, MessageKind::Board)
        .into_iter()
        .find(|m| m.replaces.is_none())
        .expect("a new board");
    assert!(board.text.contains("傌二進三"), "{}", board.text);
}
