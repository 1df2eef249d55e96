//! One chat's trouble (a 429, a server error) holds back only that chat: replies and board
//! posts to other chats go out meanwhile.

use std::time::{Duration, Instant};

use crate::fake_bot_api::Fault;
use crate::harness::{ALICE, BOB, CAROL, GROUP, Harness, OTHER_GROUP, STEP};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chat_in_trouble_does_not_hold_back_another_chats_replies() {
    let h = Harness::start(21, &[]).await;
    // How long a reply takes when nothing is wrong.
    let started = Instant::now();
    h.fake.say(BOB, OTHER_GROUP, "/help");
    h.post_containing(OTHER_GROUP, "/challenge").await;
    let unhindered = started.elapsed();

    // The group's replies meet a server error (after which teloxide sleeps 10 s inside that
    // request) and then a 429 asking for 3 s more.
    h.fake
        .inject(Fault::server_error("sendMessage", Some(GROUP), 1, 502));
    h.fake
        .inject(Fault::too_many_requests("sendMessage", Some(GROUP), 1, 3));
    h.fake.say(ALICE, GROUP, "/help");
    h.fake
        .wait_for("the server error", STEP, |fake| {
            fake.calls().iter().any(|c| c.status == 502)
        })
        .await;
    let started = Instant::now();
    h.fake.say(BOB, OTHER_GROUP, "/help");
    h.fake
        .wait_for("the other group's second reply", STEP, |fake| {
            fake.posts_in(OTHER_GROUP).len() == 2
        })
        .await;
    let hindered = started.elapsed();
    assert!(
        h.posts(GROUP).is_empty(),
        "the other group was answered only after the group in trouble \
         ({hindered:?}, {unhindered:?} without trouble)"
    );
    // The group in trouble gets its reply in the end, once.
    h.post_containing(GROUP, "/challenge").await;
    assert_eq!(h.posts(GROUP).len(), 1);
    assert!(h.fake.duplicates().iter().all(|p| p.chat != GROUP));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chat_in_trouble_does_not_hold_back_another_chats_outbox() {
    let h = Harness::start(22, &[]).await;
    // How long a challenge post takes when nothing is wrong.
    let started = Instant::now();
    let bobs = h.fake.message_by(BOB, OTHER_GROUP, "hi");
    h.fake
        .say_full(ALICE, OTHER_GROUP, "/challenge", Some(bobs), None);
    h.post_containing(OTHER_GROUP, "challenges").await;
    let unhindered = started.elapsed();

    // Every post to the group meets a server error, then 429s asking for 30 s.
    h.fake.inject(Fault::server_error("*", Some(GROUP), 1, 500));
    h.fake
        .inject(Fault::too_many_requests("*", Some(GROUP), 3, 30));
    let carols = h.fake.message_by(CAROL, GROUP, "hi");
    h.fake
        .say_full(ALICE, GROUP, "/challenge", Some(carols), None);
    h.fake
        .wait_for("the server error", STEP, |fake| {
            fake.calls().iter().any(|c| c.status == 500)
        })
        .await;
    let started = Instant::now();
    let alices = h.fake.message_by(ALICE, OTHER_GROUP, "and you?");
    h.fake
        .say_full(BOB, OTHER_GROUP, "/challenge", Some(alices), None);
    h.fake
        .wait_for("the other group's second challenge", STEP, |fake| {
            fake.posts_in(OTHER_GROUP)
                .iter()
                .filter(|p| p.text.contains("challenges"))
                .count()
                == 2
        })
        .await;
    let hindered = started.elapsed();
    assert!(
        h.posts(GROUP).is_empty(),
        "the other group's post waited for the group in trouble \
         ({hindered:?}, {unhindered:?} without trouble)"
    );
    assert!(
        hindered < Duration::from_secs(40),
        "{hindered:?}: not delivered while the group was still blocked"
    );
}
