//! `/settings`: the notation is a setting of its own, apart from the language; only a chat's
//! admins change the chat's settings, and a person's own picture choices are theirs.

use super::common;

use common::*;
use jieqi_service::pictures::{PictureSpec, PictureViewer};
use jieqi_service::settings::{Orientation, Style};
use jieqi_service::{DealSource, Destination, MessageKind};

#[tokio::test]
async fn switching_language_keeps_the_notation() {
    let mut h = Harness::new(DealSource::Seeded(40)).await;
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
    let mut h = Harness::new(DealSource::Seeded(41)).await;
    let (alice, bob) = (user("alice"), user("bob"));
    let chat = group("-902");
    let answer = h.say(&alice, &chat, "/settings notation traditional").await;
    assert!(
        answer.replies[0].text.contains("traditional"),
        "{answer:#?}"
    );
    h.start_game(&alice, &bob, &chat, "xiangqi red").await;
    h.deliver().await;
    h.say(&alice, &chat, "/move h0g2").await;
    let out = h.deliver().await;
    let board = of_kind(&out, MessageKind::Board)
        .into_iter()
        .find(|m| m.replaces.is_none())
        .expect("a new board");
    assert!(board.text.contains("傌二進三"), "{}", board.text);
}

#[tokio::test]
async fn only_admins_change_a_chats_settings() {
    let mut h = Harness::new(DealSource::Seeded(42)).await;
    let (admin, member) = (user("admin"), user("member"));
    h.non_admins.push(member.id.clone());
    let chat = group("-903");
    for change in [
        "/settings language vi",
        "/settings style symbols",
        "/settings orientation black",
        "/settings notation coordinates",
        "/settings board edit",
    ] {
        let answer = h.say(&member, &chat, change).await;
        assert!(
            refusal(&answer).contains("Only this chat's admins"),
            "{change}: {answer:#?}"
        );
    }
    // Anyone may look; nothing changed.
    let answer = h.say(&member, &chat, "/settings").await;
    let text = &answer.replies[0].text;
    assert!(
        text.contains("language en") && text.contains("wxf"),
        "{text}"
    );
    let answer = h.say(&admin, &chat, "/settings notation coordinates").await;
    assert!(answer.replies[0].text.starts_with("Saved"), "{answer:#?}");
    // In a private chat everyone is the admin of their own settings.
    let answer = h
        .say(&member, &group("dm-member"), "/settings style symbols")
        .await;
    assert!(answer.replies[0].text.starts_with("Saved"), "{answer:#?}");
}

/// The recipe of the picture of the latest pending private view for `user`; then delivers
/// everything.
async fn private_picture(h: &mut Harness, user: &jieqi_service::User) -> PictureSpec {
    let pending = h.service.pending(1000).await.expect("pending");
    let entry = pending
        .iter()
        .rev()
        .find(|e| {
            e.message.kind == MessageKind::Peek
                && e.message.to == Destination::Private(user.id.clone())
        })
        .expect("a private view");
    let record = h
        .store
        .outbox_record(entry.id)
        .await
        .expect("the outbox")
        .expect("its record");
    h.deliver().await;
    record.picture.expect("a picture")
}

#[tokio::test]
async fn a_persons_own_style_and_orientation_apply_to_their_private_pictures() {
    let mut h = Harness::new(DealSource::Seeded(43)).await;
    let (alice, bob) = (user("alice"), user("bob"));
    h.non_admins.push(bob.id.clone());
    let chat = group("-904");
    // Bob is no admin, but his own pictures are his to choose.
    let answer = h.say(&bob, &chat, "/settings my-style symbols").await;
    assert_eq!(answer.replies[0].kind, MessageKind::Guide, "{answer:#?}");
    assert!(answer.replies[0].text.contains("symbols"), "{answer:#?}");
    assert!(matches!(
        answer.replies[0].to,
        Destination::ReplyToRequester { ephemeral: true }
    ));
    h.say(&bob, &chat, "/settings my-orientation red").await;
    let answer = h.say(&bob, &chat, "/settings my-style crayons").await;
    assert!(
        refusal(&answer).contains("characters, symbols, chat"),
        "{answer:#?}"
    );

    h.start_game(&alice, &bob, &chat, "jieqi red").await;
    h.deliver().await;
    h.say(&bob, &chat, "/peek").await;
    let bobs = private_picture(&mut h, &bob).await;
    assert_eq!(bobs.viewer, PictureViewer::Black);
    assert_eq!(
        (bobs.style, bobs.orientation),
        (Style::Symbols, Orientation::Red)
    );
    // Alice chose nothing: the chat's style, from her own side.
    h.say(&alice, &chat, "/peek").await;
    let alices = private_picture(&mut h, &alice).await;
    assert_eq!(
        (alices.style, alices.orientation),
        (Style::Characters, Orientation::Red)
    );

    // Back to the chat's style and his own side.
    h.say(&bob, &chat, "/settings my-style chat").await;
    h.say(&bob, &chat, "/settings my-orientation own").await;
    h.say(&bob, &chat, "/peek").await;
    let bobs = private_picture(&mut h, &bob).await;
    assert_eq!(
        (bobs.style, bobs.orientation),
        (Style::Characters, Orientation::Black)
    );
}
