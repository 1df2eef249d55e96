//! Chat settings are for a group's administrators: the adapter asks Telegram (getChatMember)
//! whether the sender of a `/settings` change administers the group.

use crate::harness::{ALICE, BOB, GROUP, Harness};

#[tokio::test]
async fn only_group_administrators_change_the_groups_settings() {
    let h = Harness::start(61, &[]).await;
    h.fake.make_admin(GROUP, ALICE);

    h.fake.say(BOB, GROUP, "/settings notation coordinates");
    h.post_containing(GROUP, "Only this chat's admins").await;
    h.fake.say(ALICE, GROUP, "/settings notation coordinates");
    let saved = h.post_containing(GROUP, "Saved").await;
    assert!(saved.text.contains("coordinates"), "{}", saved.text);
    let asked: Vec<_> = h
        .fake
        .calls()
        .into_iter()
        .filter(|c| c.method == "getChatMember")
        .collect();
    assert_eq!(asked.len(), 2, "one question per person");

    // Showing the settings asks nothing; a private chat is the person's own.
    h.fake.say(BOB, GROUP, "/settings");
    h.post_containing(GROUP, "Settings of this chat").await;
    h.fake.say(BOB, BOB, "/settings style symbols");
    h.post_containing(BOB, "Saved").await;
    let asked = h
        .fake
        .calls()
        .into_iter()
        .filter(|c| c.method == "getChatMember")
        .count();
    assert_eq!(asked, 2);
}
