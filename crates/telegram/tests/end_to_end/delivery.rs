//! Sending: private chats that refuse the bot, 429s, edits, long texts.

use std::time::Duration;

use jieqi_telegram::Telegram;

use jieqi_service::{
    Button, ButtonAction, ChatId, Destination, Image, Message, MessageKind, OutboxEntry, OutboxId,
    Platform, SendError, UserId,
};

use crate::fake_bot_api::{FakeBotApi, Fault};
use crate::harness::{ALICE, BOB, GROUP, Harness, config, sender_for};

fn group_message(text: &str) -> Message {
    Message::text(
        Destination::Chat(ChatId::new(Platform::Telegram, GROUP.to_string())),
        MessageKind::Notice,
        text,
    )
}

fn entry(id: u64, message: Message, replaces_ref: Option<String>) -> OutboxEntry {
    OutboxEntry {
        id: OutboxId(id),
        message,
        attempts: 0,
        replaces_ref,
    }
}

async fn fake_with_people() -> FakeBotApi {
    let fake = FakeBotApi::start().await;
    fake.add_group(GROUP, "Xiangqi club");
    fake.add_user(ALICE, "Alice", Some("alice"));
    fake.add_user(BOB, "Bob", None);
    fake
}

#[tokio::test]
async fn players_the_bot_cannot_reach_privately_are_named_in_the_group_with_the_fix() {
    let h = Harness::start(11, &[]).await;
    h.fake.block(ALICE);
    h.fake.say(ALICE, GROUP, "/challenge @bob xiangqi");
    // Bob has never written to the bot: @bob is unknown to it, so the challenge is refused
    // with the way to do it instead.
    let refusal = h
        .post_containing(GROUP, "reply to one of their messages")
        .await;
    assert!(refusal.reply_to.is_some(), "a refusal answers the command");
    let bobs_message = h.fake.message_by(BOB, GROUP, "hi");
    h.fake
        .say_full(ALICE, GROUP, "/challenge xiangqi", Some(bobs_message), None);
    h.post_containing(GROUP, "challenges").await;
    h.fake.say(BOB, GROUP, "/accept");
    // Neither player gets the "game started" message: Alice blocked the bot, Bob never
    // started it. The group learns that, and how to fix it, but not what the message said.
    let notice = h.post_containing(GROUP, "could not send @bob").await;
    assert!(
        notice.text.contains("@JieqiTestBot") && notice.text.contains("Start"),
        "{}",
        notice.text
    );
    h.post_containing(GROUP, "could not send @alice").await;
    for text in h.texts_to(GROUP) {
        assert!(
            !text.contains("You play"),
            "private words reached the group: {text}"
        );
    }
    let refused: Vec<_> = h
        .fake
        .calls()
        .into_iter()
        .filter(|c| c.status == 403)
        .collect();
    assert!(
        refused.iter().any(|c| c.chat() == Some(ALICE))
            && refused.iter().any(|c| c.chat() == Some(BOB))
    );
}

#[tokio::test]
async fn refusals_and_429s_become_the_delivery_loops_errors() {
    let fake = fake_with_people().await;
    let sender = sender_for(&fake);
    let private = Message::text(
        Destination::Private(UserId::new(Platform::Telegram, BOB.to_string())),
        MessageKind::Reveal,
        "secret",
    );
    match sender.send(&entry(1, private, None)).await {
        Err(SendError::Undeliverable(reason)) => assert!(reason.contains("initiate"), "{reason}"),
        other => panic!("expected undeliverable, got {other:?}"),
    }
    fake.inject(Fault::too_many_requests("sendMessage", Some(GROUP), 1, 7));
    match sender.send(&entry(2, group_message("hello"), None)).await {
        Err(SendError::Retry { after, .. }) => assert_eq!(after, Some(Duration::from_secs(7))),
        other => panic!("expected a retry, got {other:?}"),
    }
    let sent = sender
        .send(&entry(3, group_message("hello"), None))
        .await
        .expect("sent");
    assert!(sent.is_some_and(|r| r.starts_with(&format!("{GROUP}:"))));
}

#[tokio::test]
async fn edits_change_the_earlier_post_and_a_vanished_post_is_sent_anew() {
    let fake = fake_with_people().await;
    let sender = sender_for(&fake);
    let challenge = ButtonAction::Decline("c4f7k".parse().expect("id"));
    let first = group_message("Challenge!").with_buttons(vec![Button {
        label: "Decline".to_owned(),
        action: challenge,
        deep_link_accept: false,
    }]);
    let posted = sender
        .send(&entry(1, first, None))
        .await
        .expect("sent")
        .expect("ref");
    let edit = group_message("Challenge! Declined by Bob.").replacing(Some(OutboxId(1)));
    let edited = sender
        .send(&entry(2, edit.clone(), Some(posted.clone())))
        .await
        .expect("edited");
    assert_eq!(edited, Some(posted));
    let posts = fake.posts_in(GROUP);
    assert_eq!(posts.len(), 1, "edited in place");
    assert_eq!(posts[0].text, "Challenge! Declined by Bob.");
    assert!(posts[0].buttons().is_empty(), "the stale buttons are gone");
    // The same edit again changes nothing and is not an error ("message is not modified").
    sender
        .send(&entry(3, edit.clone(), fake_ref(&posts[0])))
        .await
        .expect("no-op edit");
    // An edit of a post Telegram no longer has is posted as a new message.
    let gone = format!("{GROUP}:99999:t");
    sender
        .send(&entry(4, edit, Some(gone)))
        .await
        .expect("sent anew");
    assert_eq!(fake.posts_in(GROUP).len(), 2);
}

fn fake_ref(post: &crate::fake_bot_api::Post) -> Option<String> {
    Some(format!(
        "{}:{}:{}",
        post.chat,
        post.message_id,
        if post.photo.is_some() { 'p' } else { 't' }
    ))
}

#[tokio::test]
async fn long_texts_are_split_and_a_picture_keeps_its_bytes() {
    let fake = fake_with_people().await;
    let sender = sender_for(&fake);
    let record: String = (1..=600).map(|i| format!("{i}. h2e2 h7e7\n")).collect();
    sender
        .send(&entry(1, group_message(&record), None))
        .await
        .expect("sent");
    let posts = fake.posts_in(GROUP);
    assert!(posts.len() >= 2, "split into {} messages", posts.len());
    assert!(posts.iter().all(|p| p.text.encode_utf16().count() <= 4096));
    assert_eq!(
        posts
            .iter()
            .map(|p| p.text.as_str())
            .collect::<Vec<_>>()
            .join("\n"),
        record.trim_end()
    );

    let picture = vec![0x89, b'P', b'N', b'G', 1, 2, 3, 4];
    let board = group_message("Game g7k2 · 1. h2e2").with_image(Some(Image {
        bytes: picture.clone(),
        file_name: "g7k2-1.png".to_owned(),
    }));
    let sent = sender
        .send(&entry(2, board, None))
        .await
        .expect("sent")
        .expect("ref");
    assert!(sent.ends_with(":p"));
    let photo = fake.posts_in(GROUP).into_iter().last().expect("photo");
    assert_eq!(photo.photo.as_deref(), Some(picture.as_slice()));
    assert_eq!(photo.text, "Game g7k2 · 1. h2e2");

    // A caption too long for Telegram goes below the picture as its own message.
    let long_caption = group_message(&"x".repeat(1500)).with_image(Some(Image {
        bytes: picture,
        file_name: "g7k2-2.png".to_owned(),
    }));
    sender
        .send(&entry(3, long_caption, None))
        .await
        .expect("sent");
    let posts = fake.posts_in(GROUP);
    let [.., photo, text] = posts.as_slice() else {
        panic!("two posts")
    };
    assert!(photo.photo.is_some() && photo.text.is_empty());
    assert_eq!(text.text.len(), 1500);
}

#[tokio::test]
async fn messages_to_one_chat_keep_to_the_per_chat_rate() {
    let fake = fake_with_people().await;
    let mut config = config(&fake);
    config.limits.per_chat_per_second = 1;
    let sender = Telegram::new(config).sender();
    for i in 0..5 {
        let note = group_message(&format!("note {i}"));
        sender.send(&entry(i, note, None)).await.expect("sent");
    }
    let times: Vec<_> = fake
        .calls()
        .into_iter()
        .filter(|c| c.method == "sendMessage")
        .map(|c| c.at)
        .collect();
    assert_eq!(times.len(), 5);
    // A short burst of three goes at once, then about one a second: the fifth cannot leave
    // before about two seconds after the first.
    assert!(times[2].duration_since(times[0]) < Duration::from_millis(1000));
    let span = times[4].duration_since(times[0]);
    assert!(
        span >= Duration::from_millis(1900),
        "five messages in {span:?}"
    );
}
