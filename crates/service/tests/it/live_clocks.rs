//! Live games on a game clock (`/challenge @bob 3+2`, `/play bot 3+2`): the server keeps the
//! time. The scenario's clock is the harness's fake one (requests' arrival and the services'
//! wall clock move together), so nothing here waits for real time.

use super::common;

use std::time::Duration;

use common::*;
use jieqi_service::store::{Ending, GameRecord, Verdict};
use jieqi_service::{ChatId, DealSource, GameId, MessageKind};

async fn the_game(h: &Harness, chat: &ChatId) -> GameRecord {
    let record = h.store.chat(chat).await.unwrap().expect("chat stored");
    let id = record
        .games
        .last()
        .or(record.finished.last())
        .expect("a game")
        .clone();
    h.store.game(&id).await.unwrap().expect("game stored")
}

async fn game(h: &Harness, id: &GameId) -> GameRecord {
    h.store.game(id).await.unwrap().expect("game stored")
}

/// A live Xiangqi game between alice (Red) and bob on `control`, its boards delivered.
async fn live_game(h: &mut Harness, control: &str) -> (GameId, ChatId) {
    let chat = group("g1");
    let (alice, bob) = (user("alice"), user("bob"));
    let answer = h
        .start_game(&alice, &bob, &chat, &format!("xiangqi red {control}"))
        .await;
    not_refused(&answer);
    let id = the_game(h, &chat).await.id;
    h.deliver().await;
    (id, chat)
}

#[tokio::test]
async fn a_challenge_with_a_game_clock_starts_a_live_game_showing_both_clocks() {
    let mut h = Harness::new(DealSource::Seeded(1)).await;
    let chat = group("g1");
    let (alice, bob) = (user("alice"), user("bob"));
    h.say_mentioning(
        &alice,
        &chat,
        "/challenge @bob 3+2 xiangqi red",
        vec![bob.clone()],
    )
    .await;
    let posted = h.deliver().await;
    let challenge = of_kind(&posted, MessageKind::Challenge);
    assert!(
        challenge[0].text.contains("3+2 clock"),
        "{}",
        challenge[0].text
    );
    h.say(&bob, &chat, "/accept").await;
    let record = the_game(&h, &chat).await;
    let clock = record.clock.expect("a live game has a clock");
    assert_eq!(clock.control().to_string(), "3+2");
    let boards = h.deliver().await;
    let board = of_kind(&boards, MessageKind::Board);
    assert!(board[0].text.contains("3+2 clock"), "{}", board[0].text);
    assert!(
        board[0].text.contains("⏱ alice 3:00 · bob 3:00"),
        "{}",
        board[0].text
    );
    assert!(!board[0].text.contains("Move by"), "{}", board[0].text);

    // Alice thinks 20 s: her clock is charged and gets the increment; bob's runs.
    h.advance(Duration::from_secs(20));
    h.say(&alice, &chat, "/move h2e2").await;
    let boards = h.deliver().await;
    let board = of_kind(&boards, MessageKind::Board);
    assert!(
        board[0].text.contains("⏱ alice 2:42 · bob 3:00"),
        "{}",
        board[0].text
    );
}

#[tokio::test]
async fn presets_and_byo_yomi_read_as_controls() {
    let mut h = Harness::new(DealSource::Seeded(2)).await;
    for (i, (typed, control)) in [
        ("blitz", "3+2"),
        ("10m|3x30s", "10m|3x30s"),
        ("Rapid", "10+5"),
    ]
    .into_iter()
    .enumerate()
    {
        let chat = group(&format!("g{i}"));
        h.start_game(&user("ann"), &user("ben"), &chat, typed).await;
        let record = the_game(&h, &chat).await;
        assert_eq!(
            record.clock.map(|c| c.control().to_string()),
            Some(control.to_owned()),
            "{typed}"
        );
    }
}

#[tokio::test]
async fn a_bad_time_control_is_refused_naming_the_accepted_forms() {
    let mut h = Harness::new(DealSource::Seeded(3)).await;
    let chat = group("g1");
    let (alice, bob) = (user("alice"), user("bob"));
    for (typed, figure) in [
        ("3+999", "increment"),
        ("10m|2s", "byo-yomi period"),
        ("3+", "not a time"),
    ] {
        let answer = h
            .say_mentioning(
                &alice,
                &chat,
                &format!("/challenge @bob {typed}"),
                vec![bob.clone()],
            )
            .await;
        let text = refusal(&answer);
        assert!(text.contains(figure), "{typed}: {text}");
        for form in ["3+2", "10m|30s", "30m", "blitz"] {
            assert!(text.contains(form), "{typed}: {text}");
        }
    }
    let answer = h.say(&alice, &chat, "/play bot 0+5").await;
    assert!(refusal(&answer).contains("1 to 180"), "{answer:#?}");
    assert!(
        h.store
            .chat(&chat)
            .await
            .unwrap()
            .is_none_or(|c| c.challenges.is_empty())
    );
}

#[tokio::test]
async fn without_a_time_control_a_challenge_stays_a_game_per_move() {
    let mut h = Harness::new(DealSource::Seeded(4)).await;
    let chat = group("g1");
    h.start_game(&user("alice"), &user("bob"), &chat, "xiangqi red 2d")
        .await;
    let record = the_game(&h, &chat).await;
    assert_eq!(record.clock, None);
    assert_eq!(record.move_time, 2 * 86_400);
    let boards = h.deliver().await;
    let board = of_kind(&boards, MessageKind::Board);
    assert!(
        board[0].text.contains("2 days per move"),
        "{}",
        board[0].text
    );
    assert!(board[0].text.contains("Move by"), "{}", board[0].text);
    assert!(!board[0].text.contains('⏱'), "{}", board[0].text);
}

#[tokio::test]
async fn a_move_after_the_flag_is_refused_and_the_game_ends_on_time() {
    let mut h = Harness::new(DealSource::Seeded(5)).await;
    let (id, chat) = live_game(&mut h, "1+0").await;
    let (alice, bob) = (user("alice"), user("bob"));
    h.say(&alice, &chat, "/move h2e2").await;
    h.say(&bob, &chat, "/move h7e7").await;
    h.deliver().await;
    // Alice's minute, and the second of lag grace the clock allows, are gone.
    h.advance(Duration::from_millis(61_001));
    let answer = h.say(&alice, &chat, "/move b0c2").await;
    assert!(refusal(&answer).contains("Time is up"), "{answer:#?}");
    let record = game(&h, &id).await;
    assert_eq!(record.moves.len(), 2, "the late move was not played");
    assert_eq!(
        record.ending,
        Some(Ending::TimedOut(jieqi_service::store::Seat::First))
    );
    assert!(matches!(record.verdict, Some(Verdict::Win { .. })));
    assert_eq!(
        record.clock.and_then(|c| c.running()),
        None,
        "the clock stopped"
    );
    let posted = h.deliver().await;
    let results = of_kind(&posted, MessageKind::Result);
    assert_eq!(results.len(), 1, "the result is posted once: {posted:#?}");
    // The tick that comes after finds nothing left to judge.
    h.advance(Duration::from_secs(5));
    h.tick().await;
    assert!(of_kind(&h.deliver().await, MessageKind::Result).is_empty());
}

#[tokio::test]
async fn a_move_just_before_the_flag_stands() {
    let mut h = Harness::new(DealSource::Seeded(6)).await;
    let (id, chat) = live_game(&mut h, "1+0").await;
    let (alice, bob) = (user("alice"), user("bob"));
    h.say(&alice, &chat, "/move h2e2").await;
    h.say(&bob, &chat, "/move h7e7").await;
    h.advance(Duration::from_millis(59_900));
    let answer = h.say(&alice, &chat, "/move b0c2").await;
    not_refused(&answer);
    let record = game(&h, &id).await;
    assert_eq!(record.moves.len(), 3);
    assert!(record.is_active());
}

#[tokio::test]
async fn the_tick_ends_a_live_game_on_time_once_the_flag_is_down_and_not_before() {
    let mut h = Harness::new(DealSource::Seeded(7)).await;
    let (id, chat) = live_game(&mut h, "1+0").await;
    let (alice, bob) = (user("alice"), user("bob"));
    h.say(&alice, &chat, "/move h2e2").await;
    h.advance(Duration::from_secs(3));
    h.say(&bob, &chat, "/move h7e7").await;
    h.deliver().await;
    // Alice's deadline: her 60 s and up to 1 s of lag grace. The tick 61 s on sees the game
    // due (its second has come) and leaves it: the flag falls strictly after the deadline.
    h.advance(Duration::from_secs(61));
    h.tick().await;
    assert!(game(&h, &id).await.is_active(), "not before the flag");
    h.advance(Duration::from_millis(1));
    h.tick().await;
    let record = game(&h, &id).await;
    assert_eq!(
        record.ending,
        Some(Ending::TimedOut(jieqi_service::store::Seat::First))
    );
    let results = of_kind(&h.deliver().await, MessageKind::Result).len();
    assert_eq!(results, 1);
}

#[tokio::test]
async fn play_bot_takes_a_game_clock() {
    let mut h = Harness::new(DealSource::Seeded(8)).await;
    let chat = group("g1");
    let answer = h
        .say(&user("alice"), &chat, "/play bot novice xiangqi red 3+2")
        .await;
    not_refused(&answer);
    let record = the_game(&h, &chat).await;
    assert_eq!(
        record.clock.map(|c| c.control().to_string()),
        Some("3+2".to_owned())
    );
    let boards = h.deliver().await;
    assert!(
        of_kind(&boards, MessageKind::Board)[0]
            .text
            .contains("⏱ alice 3:00"),
        "{boards:#?}"
    );
}

#[tokio::test]
async fn the_web_page_state_carries_both_clocks_as_of_the_servers_instant() {
    let mut h = Harness::new(DealSource::Seeded(9)).await;
    let (id, chat) = live_game(&mut h, "3+2").await;
    h.advance(Duration::from_secs(20));
    h.say(&user("alice"), &chat, "/move h2e2").await;
    h.advance(Duration::from_millis(7_500));
    let page = h
        .service
        .game_page(&id, None)
        .await
        .unwrap()
        .expect("a page");
    let clocks = page.clocks.expect("a live game's page has clocks");
    assert_eq!(clocks.control, "3+2");
    // Alice: 180 s - 20 s + 2 s; bob's clock has run 7.5 s since her move.
    assert_eq!(clocks.left_ms, [162_000, 172_500]);
    assert_eq!(clocks.running, Some(1));
    let now = h
        .now
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis();
    assert_eq!(u128::from(clocks.server_time), now);
    assert_eq!(page.deadline, None, "a live game has no deadline per move");
}

/// A player's ratings as stored (every variant and speed): what a rated game changes.
async fn stats(h: &Harness, who: &jieqi_service::User) -> String {
    let record = h
        .store
        .player(&who.id)
        .await
        .unwrap()
        .expect("player stored");
    format!("{:?} {:?}", record.stats, record.live)
}

#[tokio::test]
async fn a_live_game_whose_red_does_not_move_within_30_s_is_aborted_unrated() {
    let mut h = Harness::new(DealSource::Seeded(20)).await;
    let (alice, bob) = (user("alice"), user("bob"));
    let (id, _chat) = live_game(&mut h, "3+2").await;
    let before = (stats(&h, &alice).await, stats(&h, &bob).await);
    // 30 s after the start, to the millisecond, the first move is still in time: the tick
    // (whose index entry is that second) leaves the game.
    h.advance(Duration::from_secs(30));
    h.tick().await;
    assert!(game(&h, &id).await.is_active(), "aborted before its 30 s");
    h.advance(Duration::from_millis(1));
    h.tick().await;
    let record = game(&h, &id).await;
    assert_eq!(
        record.ending,
        Some(Ending::TimedOut(jieqi_service::store::Seat::First))
    );
    assert_eq!(record.verdict, Some(Verdict::Aborted));
    assert_eq!(
        record.clock.and_then(|c| c.running()),
        None,
        "the clock stopped"
    );
    let posted = h.deliver().await;
    let results = of_kind(&posted, MessageKind::Result);
    assert_eq!(results.len(), 1, "the result is posted once: {posted:#?}");
    assert!(
        results[0]
            .text
            .contains("aborted: alice (Red) did not make a first move in time. It is not rated."),
        "{}",
        results[0].text
    );
    assert_eq!(
        (stats(&h, &alice).await, stats(&h, &bob).await),
        before,
        "an aborted game changes no rating"
    );
}

#[tokio::test]
async fn blacks_first_move_is_due_30_s_after_reds() {
    let mut h = Harness::new(DealSource::Seeded(21)).await;
    let (id, chat) = live_game(&mut h, "1+0").await;
    let alice = user("alice");
    // Red's first move late in its 30 s: Black's 30 s run from it, not from the start.
    h.advance(Duration::from_secs(25));
    h.say(&alice, &chat, "/move h2e2").await;
    h.deliver().await;
    h.advance(Duration::from_secs(29));
    h.tick().await;
    assert!(game(&h, &id).await.is_active());
    h.advance(Duration::from_millis(1_001));
    h.tick().await;
    let record = game(&h, &id).await;
    assert_eq!(
        record.ending,
        Some(Ending::TimedOut(jieqi_service::store::Seat::Second))
    );
    assert_eq!(record.verdict, Some(Verdict::Aborted));
    let results = of_kind(&h.deliver().await, MessageKind::Result)
        .into_iter()
        .map(|m| m.text.clone())
        .collect::<Vec<_>>();
    assert_eq!(results.len(), 1);
    assert!(
        results[0].contains("bob (Black) did not make a first move in time"),
        "{}",
        results[0]
    );
}

#[tokio::test]
async fn a_first_move_after_its_30_s_is_refused_and_the_game_is_aborted() {
    let mut h = Harness::new(DealSource::Seeded(22)).await;
    let (id, chat) = live_game(&mut h, "1+0").await;
    let alice = user("alice");
    // Well within Red's minute on the clock, but past the 30 s of the first move.
    h.advance(Duration::from_millis(30_001));
    let answer = h.say(&alice, &chat, "/move h2e2").await;
    assert!(
        refusal(&answer).contains("first move within 30 seconds"),
        "{answer:#?}"
    );
    let record = game(&h, &id).await;
    assert!(record.moves.is_empty(), "the late move was not played");
    assert_eq!(record.verdict, Some(Verdict::Aborted));
    assert_eq!(of_kind(&h.deliver().await, MessageKind::Result).len(), 1);
}

#[tokio::test]
async fn after_both_first_moves_only_the_clock_limits_a_move() {
    let mut h = Harness::new(DealSource::Seeded(23)).await;
    let (id, chat) = live_game(&mut h, "1+0").await;
    let (alice, bob) = (user("alice"), user("bob"));
    h.advance(Duration::from_secs(29));
    h.say(&alice, &chat, "/move h2e2").await;
    h.advance(Duration::from_secs(29));
    h.say(&bob, &chat, "/move h7e7").await;
    // Red's second move 45 s on: past 30 s, within the 31 s left on her clock.
    h.advance(Duration::from_secs(30));
    h.tick().await;
    assert!(game(&h, &id).await.is_active());
    h.advance(Duration::from_secs(1));
    let answer = h.say(&alice, &chat, "/move b0c2").await;
    not_refused(&answer);
    let record = game(&h, &id).await;
    assert_eq!(record.moves.len(), 3);
    assert!(record.is_active());
}

#[tokio::test]
async fn the_first_move_abort_is_told_in_chinese_and_vietnamese() {
    for (lang, said) in [
        ("zh", "未在时限内走出第一步"),
        ("vi", "không đi nước đầu tiên kịp giờ"),
    ] {
        let mut h = Harness::new(DealSource::Seeded(24)).await;
        let chat = group("g1");
        h.say(&user("alice"), &chat, &format!("/settings language {lang}"))
            .await;
        let (id, _) = live_game(&mut h, "3+2").await;
        h.advance(Duration::from_millis(30_001));
        h.tick().await;
        assert_eq!(game(&h, &id).await.verdict, Some(Verdict::Aborted));
        let results = of_kind(&h.deliver().await, MessageKind::Result)
            .into_iter()
            .map(|m| m.text.clone())
            .collect::<Vec<_>>();
        assert_eq!(results.len(), 1, "{lang}");
        assert!(results[0].contains(said), "{lang}: {}", results[0]);
    }
}
