//! A chat's tournament settings (issue 53): who may create a tournament (`/settings
//! tournaments admins|everyone`) and the chat's time zone (`/settings timezone UTC+8`), what
//! a start time typed there means and how its events' moments are written.

use std::time::Duration;

use super::common;

use common::*;
use jieqi_service::DealSource;
use jieqi_service::settings::{TournamentCreators, UtcOffset};
use jieqi_service::store::tournament::TournamentState;

#[tokio::test]
async fn a_member_creates_a_tournament_only_once_an_admin_lets_everyone() {
    let mut h = Harness::new(DealSource::Seeded(90)).await;
    let chat = group("club");
    let (admin, mia, ned) = (user("admin"), user("mia"), user("ned"));
    h.non_admins.extend([mia.id.clone(), ned.id.clone()]);

    // By default only admins create, whichever format; the refusal says how that changes.
    for create in [
        "/tournament swiss 3",
        "/tournament round-robin",
        "/tournament arena 30",
    ] {
        let refused = refusal(&h.say(&mia, &chat, create).await).to_owned();
        assert!(
            refused.contains("Only this chat's admins can create")
                && refused.contains("/settings tournaments everyone"),
            "{create}: {refused}"
        );
    }
    // The setting is the admins' to change, as every chat setting.
    assert!(
        refusal(&h.say(&mia, &chat, "/settings tournaments everyone").await)
            .contains("Only this chat's admins")
    );
    let bad = h.say(&admin, &chat, "/settings tournaments mods").await;
    assert!(
        refusal(&bad).contains("“mods” is not a choice for tournaments: choose admins, everyone"),
        "{bad:#?}"
    );
    let saved = h.say(&admin, &chat, "/settings tournaments everyone").await;
    assert!(
        saved.replies[0].text.starts_with("Saved")
            && saved.replies[0]
                .text
                .contains("tournaments created by everyone"),
        "{saved:#?}"
    );
    let stored_chat = h.store.chat(&chat).await.unwrap().expect("the chat");
    assert_eq!(
        stored_chat.settings.tournaments,
        TournamentCreators::Everyone
    );

    // Now a member creates, and is its organiser: starts and calls it off; another member,
    // neither organiser nor admin, does neither.
    not_refused(&h.say(&mia, &chat, "/tournament swiss 1").await);
    assert_eq!(stored(&h, &chat).await.organiser.id, mia.id);
    for player in [&mia, &ned] {
        not_refused(&h.say(player, &chat, "/tournament join").await);
    }
    for word in ["start", "cancel"] {
        let refused = h.say(&ned, &chat, &format!("/tournament {word}")).await;
        assert!(refusal(&refused).contains("mia"), "{word}: {refused:#?}");
    }
    not_refused(&h.say(&mia, &chat, "/tournament cancel").await);
    assert_eq!(stored(&h, &chat).await.state, TournamentState::Cancelled);

    // Back to admins: the member is refused again.
    not_refused(&h.say(&admin, &chat, "/settings tournaments admins").await);
    assert!(
        refusal(&h.say(&ned, &chat, "/tournament arena 30").await)
            .contains("Only this chat's admins can create")
    );
}

#[tokio::test]
async fn at_20_00_in_a_utc_plus_8_chat_starts_at_12_00_utc_and_is_announced_at_20_00_utc_plus_8() {
    let mut h = Harness::new(DealSource::Seeded(91)).await;
    let chat = group("shanghai");
    let ming = user("ming");

    // A chat that never set them: admins create, start times are UTC.
    let shown = h.say(&ming, &chat, "/settings").await;
    assert!(
        shown.replies[0]
            .text
            .contains("tournaments created by admins, time zone UTC."),
        "{shown:#?}"
    );

    // Zone names and offsets no place uses are refused with the forms that work, and
    // change nothing.
    for bad in ["Asia/Shanghai", "UTC+15", "8", "UTC+8:3", "+٨"] {
        let answer = h
            .say(&ming, &chat, &format!("/settings timezone {bad}"))
            .await;
        let refused = refusal(&answer);
        assert!(
            refused.contains("is not a time zone I can read")
                && refused.contains("between UTC-12 and UTC+14")
                && refused.contains("UTC+8, +7, UTC+05:30, UTC-3:30 or UTC"),
            "{bad}: {refused}"
        );
    }
    let saved = h.say(&ming, &chat, "/settings timezone +08:00").await;
    assert!(
        saved.replies[0].text.contains("time zone UTC+8."),
        "{saved:#?}"
    );

    // The scenario's clock is 2023-11-14 22:13:20 UTC, 2023-11-15 06:13:20 in China: 20:00
    // there is today's, 12:00 UTC.
    not_refused(&h.say(&ming, &chat, "/tournament swiss 2 at 20:00").await);
    let record = stored(&h, &chat).await;
    assert_eq!(T0, 1_700_000_000);
    let noon_utc = 1_700_049_600; // 2023-11-15 12:00:00 UTC
    assert_eq!(record.starts_at, Some(noon_utc));
    h.deliver().await;
    let announced = notices_with(&h, &chat, "starts by itself at");
    assert_eq!(announced.len(), 1);
    assert!(
        announced[0]
            .text
            .contains("It starts by itself at 2023-11-15 20:00 UTC+8 (in 13 hours)"),
        "{}",
        announced[0].text
    );
    let status = h.say(&ming, &chat, "/tournament").await;
    assert!(
        status.replies[0].text.contains("2023-11-15 20:00 UTC+8"),
        "{status:#?}"
    );

    // In Chinese and Vietnamese the same moment, on the same clocks.
    h.say(&ming, &chat, "/tournament cancel").await;
    for (language, words) in [
        ("zh", "将于 2023-11-15 20:00 UTC+8（13 小时后）自动开始"),
        (
            "vi",
            "Giải tự bắt đầu lúc 2023-11-15 20:00 UTC+8 (sau 13 giờ)",
        ),
    ] {
        h.say(&ming, &chat, &format!("/settings language {language}"))
            .await;
        not_refused(&h.say(&ming, &chat, "/tournament swiss 2 at 20:00").await);
        assert_eq!(stored(&h, &chat).await.starts_at, Some(noon_utc));
        h.deliver().await;
        assert_eq!(notices_with(&h, &chat, words).len(), 1, "{language}");
        h.say(&ming, &chat, "/tournament cancel").await;
    }
}

#[tokio::test]
async fn an_arenas_end_is_written_on_the_chats_clocks_and_its_start_time_is_theirs() {
    let mut h = Harness::new(DealSource::Seeded(92)).await;
    let chat = group("hanoi");
    let (lan, minh) = (user("lan"), user("minh"));
    not_refused(&h.say(&lan, &chat, "/settings timezone UTC+7").await);

    // 05:13:20 in Hanoi: 20:00 there is 13:00 UTC today.
    not_refused(
        &h.say(&lan, &chat, "/tournament arena 45 xiangqi at 20:00")
            .await,
    );
    let one_pm_utc = 1_700_053_200; // 2023-11-15 13:00:00 UTC
    assert_eq!(stored(&h, &chat).await.starts_at, Some(one_pm_utc));
    for player in [&lan, &minh] {
        not_refused(&h.say(player, &chat, "/tournament join").await);
    }
    h.advance(Duration::from_secs(one_pm_utc - T0));
    h.tick().await;
    h.deliver().await;
    assert_eq!(stored(&h, &chat).await.state, TournamentState::Running);
    let started = notices_with(&h, &chat, "has started: 45 minutes");
    assert_eq!(started.len(), 1, "{:#?}", to_chat(&h.delivered, &chat));
    assert!(
        started[0]
            .text
            .contains("45 minutes, until 2023-11-15 20:45 UTC+7"),
        "{}",
        started[0].text
    );
    let standings = h.say(&minh, &chat, "/tournament standings").await;
    assert!(
        standings.replies[0].text.contains("2023-11-15 20:45 UTC+7"),
        "{standings:#?}"
    );
    // Stored in UTC, as every deadline.
    assert_eq!(stored(&h, &chat).await.ends_at, Some(one_pm_utc + 45 * 60));
    let zone = h
        .store
        .chat(&chat)
        .await
        .unwrap()
        .expect("chat")
        .settings
        .zone;
    assert_eq!(zone, UtcOffset::from_minutes(7 * 60).unwrap());
}
