//! The rules course through the chat: `/learn` starts and resumes it, `/move` answers the
//! open lesson (after any game of the caller's in the chat), progress survives restarts, and
//! the lessons speak the chat's language.

use super::common;

use common::*;
use jieqi_course::{COURSE, Solution};
use jieqi_service::{Answer, DealSource, Input, MessageKind, Platform, User, UserId};

/// The solving move of every turn of the course, in order (a flip for "any flip").
fn solutions() -> Vec<&'static str> {
    COURSE
        .iter()
        .flat_map(|lesson| lesson.steps)
        .flat_map(|step| step.turns)
        .map(|turn| match turn.solution {
            Solution::Moves(moves) => moves[0],
            Solution::AnyFlip => "d2",
        })
        .collect()
}

fn texts(answer: &Answer) -> String {
    answer
        .replies
        .iter()
        .map(|r| r.text.as_str())
        .collect::<Vec<_>>()
        .join("\n---\n")
}

/// Asserts the answer carries no refusal and every reply has its board picture.
fn accepted(answer: &Answer) {
    assert!(
        answer
            .replies
            .iter()
            .all(|r| r.kind != MessageKind::Refusal),
        "refused: {}",
        texts(answer)
    );
}

#[tokio::test]
async fn a_newcomer_goes_through_the_whole_course_by_its_solving_moves_and_finishes() {
    let mut h = Harness::new(DealSource::Seeded(1)).await;
    let (ann, chat) = (user("ann"), group("-900"));
    let start = h.say(&ann, &chat, "/learn").await;
    accepted(&start);
    assert!(
        texts(&start).contains("Welcome to the Jieqi course"),
        "{}",
        texts(&start)
    );
    assert!(texts(&start).contains("Lesson 1/10"), "{}", texts(&start));
    assert!(start.replies[0].image.is_some(), "the lesson has its board");
    let moves = solutions();
    for (i, mv) in moves.iter().enumerate() {
        let answer = h.say(&ann, &chat, &format!("/move {mv}")).await;
        accepted(&answer);
        assert!(
            answer.replies[0].text.starts_with('✅'),
            "{mv}: {}",
            texts(&answer)
        );
        assert!(
            answer
                .replies
                .iter()
                .all(|r| r.image.is_some() || i + 1 == moves.len()),
            "{mv}: a reply without its board"
        );
    }
    let last = h.say(&ann, &chat, "/learn").await;
    assert!(
        texts(&last).contains("finished the course already"),
        "{}",
        texts(&last)
    );
    // The course is closed: /move is about games again.
    let after = h.say(&ann, &chat, "/move h2e2").await;
    assert!(
        refusal(&after).contains("No game of yours"),
        "{}",
        texts(&after)
    );
    assert!(
        h.deliver().await.is_empty(),
        "the course posts nothing to the chat"
    );
    assert!(
        jieqi_service::i18n::missing_keys().is_empty(),
        "{:?}",
        jieqi_service::i18n::missing_keys()
    );
}

#[tokio::test]
async fn a_wrong_move_gets_the_hint_and_an_illegal_one_the_reason_and_both_may_try_again() {
    let mut h = Harness::new(DealSource::Seeded(2)).await;
    let (ann, chat) = (user("ann"), group("-901"));
    h.say(&ann, &chat, "/learn").await;
    let wrong = h.say(&ann, &chat, "/move e0d0").await;
    let hint = refusal(&wrong);
    assert!(
        hint.contains("Not this one") && hint.contains("/move b0c2"),
        "{hint}"
    );
    let illegal = h.say(&ann, &chat, "/move b0b1").await;
    assert!(
        refusal(&illegal).contains("not allowed"),
        "{}",
        refusal(&illegal)
    );
    let unreadable = h.say(&ann, &chat, "/move hello").await;
    assert!(
        refusal(&unreadable).contains("cannot read"),
        "{}",
        refusal(&unreadable)
    );
    // WXF for the same jump is the right answer.
    let right = h.say(&ann, &chat, "/move H8+7").await;
    accepted(&right);
    assert!(
        texts(&right).contains("really a chariot"),
        "{}",
        texts(&right)
    );
}

#[tokio::test]
async fn progress_survives_a_restart_and_learn_resumes_at_the_step_left() {
    let mut h = Harness::new(DealSource::Seeded(3)).await;
    let (ann, chat) = (user("ann"), group("-902"));
    h.say(&ann, &chat, "/learn").await;
    accepted(&h.say(&ann, &chat, "/move b0c2").await);
    h.restart().await;
    let resumed = h.say(&ann, &chat, "/learn").await;
    accepted(&resumed);
    let text = texts(&resumed);
    assert!(text.contains("Welcome back"), "{text}");
    assert!(
        text.contains("(step 2/2)") && text.contains("cannon's point"),
        "{text}"
    );
    accepted(&h.say(&ann, &chat, "/move h2h9").await);
    // In the middle of a step: the revealed chariot is still there after a restart.
    accepted(&h.say(&ann, &chat, "/move c3c4").await);
    h.restart().await;
    let used = h.say(&ann, &chat, "/move c4c9").await;
    accepted(&used);
    assert!(texts(&used).contains("Lesson 2 done"), "{}", texts(&used));
}

#[tokio::test]
async fn a_repeated_update_is_answered_once_with_the_same_pictures() {
    let mut h = Harness::new(DealSource::Seeded(4)).await;
    let (ann, chat) = (user("ann"), group("-903"));
    h.say(&ann, &chat, "/learn").await;
    let request = h.request(&ann, &chat, Input::Text("/move b0c2".to_owned()), vec![]);
    let first = h.service.handle(request.clone()).await;
    accepted(&first);
    let again = h.service.handle(request).await;
    assert_eq!(
        again, first,
        "the same answer, drawn again from its recipes"
    );
    // The step moved on once: the next step's move is the right answer now.
    accepted(&h.say(&ann, &chat, "/move h2h9").await);
}

#[tokio::test]
async fn the_lessons_speak_the_chats_language() {
    let mut h = Harness::new(DealSource::Seeded(5)).await;
    let (ann, chat) = (user("ann"), group("-904"));
    h.say(&ann, &chat, "/settings language zh").await;
    let zh = h.say(&ann, &chat, "/learn").await;
    accepted(&zh);
    assert!(texts(&zh).contains("暗子"), "{}", texts(&zh));
    let hint = h.say(&ann, &chat, "/move e0d0").await;
    assert!(refusal(&hint).contains("马"), "{}", refusal(&hint));
    let mut vi_user = User::new(UserId::new(Platform::Telegram, "van"), "Văn");
    vi_user.language = Some("vi".to_owned());
    let dm = group("dm-van");
    let vi = h.say(&vi_user, &dm, "/learn").await;
    accepted(&vi);
    assert!(texts(&vi).contains("Bài 1/10"), "{}", texts(&vi));
    let done = h.say(&vi_user, &dm, "/move b0c2").await;
    assert!(texts(&done).contains("Xe"), "{}", texts(&done));
    assert!(
        jieqi_service::i18n::missing_keys().is_empty(),
        "{:?}",
        jieqi_service::i18n::missing_keys()
    );
}

#[tokio::test]
async fn a_game_in_the_chat_takes_the_move_before_the_lesson() {
    let mut h = Harness::new(DealSource::Seeded(6)).await;
    let (ann, bob) = (user("ann"), user("bob"));
    let (chat, quiet) = (group("-905"), group("-906"));
    h.say(&ann, &quiet, "/learn").await;
    h.start_game(&ann, &bob, &chat, "xiangqi red").await;
    h.deliver().await;
    let played = h.say(&ann, &chat, "/move h2e2").await;
    accepted(&played);
    assert!(
        to_chat(&h.deliver().await, &chat)
            .iter()
            .any(|m| m.kind == MessageKind::Board),
        "the move went to the game"
    );
    // Where ann has no game, the lesson takes it.
    let lesson = h.say(&ann, &quiet, "/move b0c2").await;
    accepted(&lesson);
    assert!(
        texts(&lesson).contains("really a chariot"),
        "{}",
        texts(&lesson)
    );
}

#[tokio::test]
async fn learn_opens_lessons_by_number_lists_them_and_pauses() {
    let mut h = Harness::new(DealSource::Seeded(7)).await;
    let (ann, chat) = (user("ann"), group("-907"));
    let not_started = h.say(&ann, &chat, "/learn stop").await;
    assert!(
        texts(&not_started).contains("not started"),
        "{}",
        texts(&not_started)
    );
    let banqi = h.say(&ann, &chat, "/learn 10").await;
    accepted(&banqi);
    assert!(texts(&banqi).contains("Lesson 10/10"), "{}", texts(&banqi));
    let list = h.say(&ann, &chat, "/learn list").await;
    assert!(texts(&list).contains("▶ 10."), "{}", texts(&list));
    assert!(refusal(&h.say(&ann, &chat, "/learn 11").await).contains("no lesson 11"));
    h.say(&ann, &chat, "/learn stop").await;
    let paused = h.say(&ann, &chat, "/move a1a4").await;
    assert!(
        refusal(&paused).contains("No game of yours"),
        "{}",
        texts(&paused)
    );
    let restarted = h.say(&ann, &chat, "/learn restart").await;
    assert!(
        texts(&restarted).contains("Lesson 1/10"),
        "{}",
        texts(&restarted)
    );
    accepted(&h.say(&ann, &chat, "/move b0c2").await);
}

#[tokio::test]
async fn discord_autocomplete_offers_the_lessons_moves_when_there_is_no_game() {
    let mut h = Harness::new(DealSource::Seeded(8)).await;
    let (ann, chat) = (user("ann"), group("-908"));
    assert!(h.service.legal_move_texts(&chat, &ann.id).await.is_empty());
    h.say(&ann, &chat, "/learn 4").await;
    // The flying-general lesson has exactly one legal move.
    assert_eq!(
        h.service.legal_move_texts(&chat, &ann.id).await,
        vec!["e1f1".to_owned()]
    );
}
