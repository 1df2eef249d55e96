//! Whatever people type or whatever button data arrives, `handle` answers (a refusal says
//! why) and never panics; a refusal never queues a message.

use super::common;

use common::*;
use jieqi_service::{ButtonAction, DealSource, Input, MessageKind, Platform, User, UserId};
use proptest::prelude::*;

const COMMANDS: [&str; 24] = [
    "challenge",
    "accept",
    "decline",
    "cancel",
    "move",
    "board",
    "resign",
    "draw",
    "games",
    "history",
    "peek",
    "watch",
    "unwatch",
    "rules",
    "help",
    "settings",
    "start",
    "stats",
    "leaderboard",
    "learn",
    "puzzle",
    "rematch",
    "seek",
    "nonsense",
];

fn line() -> impl Strategy<Value = String> {
    let word = prop_oneof![
        "[a-z0-9@#._+=-]{0,12}",
        Just("@bob".to_owned()),
        Just("jieqi".to_owned()),
        Just("h2e2".to_owned()),
        Just("炮二平五".to_owned()),
        Just("restart".to_owned()),
        Just("3".to_owned()),
        "\\PC{0,20}",
    ];
    (
        prop::sample::select(&COMMANDS[..]),
        prop::collection::vec(word, 0..4),
    )
        .prop_map(|(command, words)| format!("/{command} {}", words.join(" ")))
}

/// What a learner might type: the course's own answers, other moves, junk, `/learn` lines.
fn lesson_line() -> impl Strategy<Value = String> {
    let word = prop_oneof![
        prop::sample::select(
            &[
                "b0c2", "h2h9", "c3c4", "c4c9", "e4g6", "d2c3", "e1f1", "e1d1", "b4b9", "b1b9",
                "e1e2", "d2", "c2d2", "c2c3", "f2f3", "a1a4", "a1b1"
            ][..]
        )
        .prop_map(str::to_owned),
        "[a-i][0-9][a-i][0-9]",
        "[a-h][1-4]",
        "\\PC{0,12}",
    ];
    (prop::sample::select(&["move", "m", "learn"][..]), word)
        .prop_map(|(command, word)| format!("/{command} {word}"))
}

/// `/puzzle` and `/move` lines, well-formed and not: variants, daily hours, moves of
/// every notation, junk.
fn puzzle_line() -> impl Strategy<Value = String> {
    let word = prop_oneof![
        Just("daily".to_owned()),
        Just("off".to_owned()),
        Just("jieqi".to_owned()),
        Just("xiangqi".to_owned()),
        Just("banqi".to_owned()),
        "[0-9]{1,3}(:00|h)?",
        "[a-i][0-9][a-i][0-9][a-z=]{0,2}",
        "[a-d][1-8]([a-d][1-8])?",
        Just("炮二平五".to_owned()),
        Just("C2.5".to_owned()),
        "\\PC{0,12}",
    ];
    (
        prop::sample::select(&["puzzle", "puzzle", "move", "move", "m", "stats"][..]),
        prop::collection::vec(word, 0..3),
    )
        .prop_map(|(command, words)| format!("/{command} {}", words.join(" ")))
}

/// `/settings` lines for the chat's tournament settings and `/tournament` lines with start
/// times, well-formed and not: offsets of every form, zone names, junk.
fn tournament_settings_line() -> impl Strategy<Value = String> {
    let value = prop_oneof![
        Just("admins".to_owned()),
        Just("everyone".to_owned()),
        Just("Asia/Shanghai".to_owned()),
        "(UTC|GMT|utc)?[+\\-\u{2212}]?[0-9]{0,4}(:[0-9]{0,3})?",
        "\\PC{0,12}",
    ];
    let settings = (
        prop::sample::select(&["tournaments", "timezone", "zone", "tz", "time-zone"][..]),
        value,
    )
        .prop_map(|(name, value)| format!("/settings {name} {value}"));
    let start = prop_oneof![
        "(at |start |in )?[0-9]{1,2}:[0-9]{1,2}",
        "(at |in )[0-9]{1,3}[mhd]",
        "\\PC{0,8}",
    ];
    let create = (
        prop::sample::select(&["swiss 2", "round-robin", "arena 30", "cancel"][..]),
        start,
    )
        .prop_map(|(what, start)| format!("/tournament {what} {start}"));
    prop_oneof![settings, create]
}

/// Text with a good share of what must never come back: controls, bidi overrides, length.
fn hostile(longest: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            any::<char>(),
            Just('\u{202E}'),
            Just('\u{2066}'),
            Just('\u{200F}'),
            Just('\u{0007}'),
            Just('\u{001B}'),
            Just('\n'),
            Just('x'),
        ],
        0..longest,
    )
    .prop_map(|chars| chars.into_iter().collect())
}

fn unsafe_char(c: char) -> bool {
    (c.is_control() && c != '\n')
        || matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn echoes_of_user_text_are_bounded_and_free_of_control_and_bidi_characters(
        name in hostile(3000),
        junk in hostile(3000),
    ) {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(async {
            let mut h = Harness::new(DealSource::Seeded(32)).await;
            let alice = User::new(UserId::new(Platform::Telegram, "alice"), name.clone());
            let bob = User::new(UserId::new(Platform::Telegram, "bob"), format!("{junk}bob"));
            let (chat, other) = (group("-802"), group("-803"));
            let mut texts = Vec::new();
            let script = [
                (&alice, &chat, format!("/challenge xiangqi {junk}")),
                (&alice, &chat, "/challenge xiangqi red".to_owned()),
                (&bob, &chat, "/accept".to_owned()),
                (&alice, &chat, format!("/move {junk}")),
                (&alice, &chat, format!("/move h2e2 {junk}")),
                (&bob, &chat, format!("/history {junk}")),
                (&bob, &other, format!("/watch {junk}")),
                (&bob, &chat, format!("/board {junk}")),
                (&bob, &chat, "/board".to_owned()),
                (&bob, &chat, format!("/stats {junk}")),
                (&alice, &chat, "/games".to_owned()),
                (&alice, &chat, format!("/{junk}")),
            ];
            for (who, at, text) in script {
                let answer = h.say_mentioning(who, at, &text, vec![bob.clone()]).await;
                texts.extend(answer.replies.into_iter().map(|r| r.text));
                texts.extend(h.deliver().await.into_iter().map(|e| e.message.text));
            }
            for text in &texts {
                prop_assert!(!text.chars().any(unsafe_char), "{text:?}");
                prop_assert!(text.chars().count() <= 4096, "{} characters", text.chars().count());
            }
            Ok(())
        })?;
    }

    #[test]
    fn any_command_line_gets_an_answer_and_refusals_change_nothing(lines in prop::collection::vec(line(), 1..8)) {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(async {
            let mut h = Harness::new(DealSource::Seeded(30)).await;
            let (alice, bob) = (user("alice"), user("bob"));
            let chat = group("-800");
            h.say_mentioning(&alice, &chat, "/challenge @bob xiangqi", vec![bob.clone()]).await;
            h.say(&bob, &chat, "/accept").await;
            h.deliver().await;
            for (i, text) in lines.iter().enumerate() {
                let who = if i % 2 == 0 { &alice } else { &bob };
                let answer = h.say_mentioning(who, &chat, text, vec![bob.clone()]).await;
                let out = h.deliver().await;
                if answer.replies.iter().any(|r| r.kind == MessageKind::Refusal) {
                    prop_assert!(out.is_empty(), "{text}: a refusal queued {out:#?}");
                    prop_assert!(answer.replies.iter().all(|r| !r.text.is_empty()));
                }
            }
            Ok(())
        })?;
    }

    #[test]
    fn any_move_or_learn_line_in_a_lesson_gets_an_answer_and_refusals_change_nothing(
        lesson in 1..=jieqi_course::COURSE.len(),
        lines in prop::collection::vec(lesson_line(), 1..10),
    ) {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(async {
            let mut h = Harness::new(DealSource::Seeded(33)).await;
            let (carol, chat) = (user("carol"), group("-804"));
            let opened = h.say(&carol, &chat, &format!("/learn {lesson}")).await;
            prop_assert!(opened.replies.iter().all(|r| r.kind != MessageKind::Refusal));
            for text in &lines {
                let answer = h.say(&carol, &chat, text).await;
                prop_assert!(!answer.replies.is_empty(), "{text}: no answer");
                prop_assert!(answer.replies.iter().all(|r| !r.text.is_empty()));
                prop_assert!(h.deliver().await.is_empty(), "{text}: the course posted to the chat");
            }
            Ok(())
        })?;
    }

    #[test]
    fn no_puzzle_or_move_line_panics_and_refusals_change_nothing(
        lines in prop::collection::vec(puzzle_line(), 1..10),
    ) {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(async {
            let mut h = Harness::new(DealSource::Seeded(33)).await;
            let (alice, bob) = (user("alice"), user("bob"));
            let (chat, dm) = (group("-804"), group("dm-alice"));
            h.non_admins.push(bob.id.clone());
            for (i, text) in lines.iter().enumerate() {
                let (who, at) = match i % 3 {
                    0 => (&alice, &chat),
                    1 => (&bob, &chat),
                    _ => (&alice, &dm),
                };
                let answer = h.say(who, at, text).await;
                let out = h.deliver().await;
                if answer.replies.iter().any(|r| r.kind == MessageKind::Refusal) {
                    prop_assert!(out.is_empty(), "{text}: a refusal queued {out:#?}");
                    prop_assert!(answer.replies.iter().all(|r| !r.text.is_empty()));
                }
                // What the clock brings (a daily puzzle falling due) is posted
                // here, so it is never taken for the next line's doing.
                h.advance(std::time::Duration::from_secs(7 * 3600));
                h.tick().await;
                h.deliver().await;
            }
            Ok(())
        })?;
    }

    #[test]
    fn no_tournament_settings_or_start_time_line_panics_and_refusals_change_nothing(
        lines in prop::collection::vec(tournament_settings_line(), 1..10),
    ) {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(async {
            let mut h = Harness::new(DealSource::Seeded(34)).await;
            let (alice, bob) = (user("alice"), user("bob"));
            let chat = group("-805");
            h.non_admins.push(bob.id.clone());
            for (i, text) in lines.iter().enumerate() {
                let who = if i % 2 == 0 { &alice } else { &bob };
                let before = h.store.chat(&chat).await.unwrap().map(|c| c.settings);
                let answer = h.say(who, &chat, text).await;
                prop_assert!(answer.replies.iter().all(|r| !r.text.is_empty()));
                let out = h.deliver().await;
                if answer.replies.iter().any(|r| r.kind == MessageKind::Refusal) {
                    prop_assert!(out.is_empty(), "{text}: a refusal queued {out:#?}");
                    let after = h.store.chat(&chat).await.unwrap().map(|c| c.settings);
                    prop_assert_eq!(before, after, "{}: a refusal changed the settings", text);
                } else if text.starts_with("/settings") {
                    prop_assert!(!answer.replies.is_empty(), "{text}: no answer");
                }
            }
            Ok(())
        })?;
    }

    #[test]
    fn foreign_button_data_never_reaches_the_service_as_an_action(data in "\\PC{0,80}") {
        if let Ok(action) = ButtonAction::decode(&data) {
            // Only our own encodings decode, and they decode to themselves.
            prop_assert_eq!(ButtonAction::decode(&action.encode()), Ok(action));
        }
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(async {
            let mut h = Harness::new(DealSource::Seeded(31)).await;
            let action = ButtonAction::Resign("zzzz".parse().unwrap());
            let request = h.request(&user("eve"), &group("-801"), Input::Button(action), vec![]);
            let answer = h.service.handle(request).await;
            prop_assert_eq!(answer.replies.len(), 1);
            Ok(())
        })?;
    }
}
