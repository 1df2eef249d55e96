//! Live games judged by more than one process: a move and the flag racing on two processes
//! of one store end the game once or play the move once, never both; and a process whose
//! wall clock is fast reads the store's clock and never ends a game early.

use super::common;

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use common::*;
use jieqi_service::store::{Ending, Seat};
use jieqi_service::{DealSource, MessageKind, WallClock};

/// The flag of Red's clock in a 1+0 game once both sides made their first move at the same
/// instant: Red's minute and the second of lag grace the clock allows.
const RED_FLAG_AFTER: Duration = Duration::from_secs(61);

#[tokio::test]
async fn a_move_racing_the_flag_on_another_process_stands_or_falls_exactly_once() {
    let mut h = Harness::new(DealSource::Seeded(11)).await;
    let other = h.another_process(None).await;
    let (alice, bob) = (user("alice"), user("bob"));
    let (mut stood, mut fell) = (0, 0);
    for round in 0..24i64 {
        let chat = group(&format!("race{round}"));
        h.start_game(&alice, &bob, &chat, "xiangqi red 1+0").await;
        h.say(&alice, &chat, "/move h2e2").await;
        h.say(&bob, &chat, "/move h7e7").await;
        let id = h.store.chat(&chat).await.unwrap().unwrap().games[0].clone();
        let flag = h.now + RED_FLAG_AFTER;
        // The move arrives from 600 ms before the flag to 500 ms after it; the other process
        // judges the flag 1 ms after it, at the same moment.
        let arrival = Duration::from_millis(u64::try_from((round % 12 - 6).abs() * 100).unwrap());
        let late = round % 12 >= 6;
        h.set_now(if late { flag + arrival } else { flag - arrival });
        let request = h.request(
            &alice,
            &chat,
            jieqi_service::Input::Text("/move b0c2".to_owned()),
            Vec::new(),
        );
        let (answer, ()) = tokio::join!(
            h.service.handle(request),
            other.tick(flag + Duration::from_millis(1))
        );
        let record = h.store.game(&id).await.unwrap().unwrap();
        let results = of_kind(&h.deliver().await, MessageKind::Result).len();
        if record.is_active() {
            assert!(
                !late || round % 12 == 6,
                "round {round}: a move after the flag stood"
            );
            assert_eq!(record.moves.len(), 3, "round {round}");
            assert!(
                answer
                    .replies
                    .iter()
                    .all(|r| r.kind != MessageKind::Refusal)
            );
            assert_eq!(results, 0, "round {round}");
            stood += 1;
        } else {
            assert_eq!(
                record.ending,
                Some(Ending::TimedOut(Seat::First)),
                "round {round}"
            );
            assert_eq!(
                record.moves.len(),
                2,
                "round {round}: the move and the flag both stood"
            );
            assert!(!refusal(&answer).is_empty(), "round {round}");
            assert_eq!(
                results, 1,
                "round {round}: the result was posted {results} times"
            );
            fell += 1;
        }
        h.advance(Duration::from_secs(120));
    }
    // Every move that came after the flag fell (5 a cycle at least), and the rest decided.
    assert!(
        fell >= 10,
        "{stood} moves stood, {fell} games ended on time"
    );
    assert_eq!(stood + fell, 24);
}

/// On PostgreSQL only: sled's process is the store's only clock, so it has no other clock
/// to be wrong against.
#[tokio::test]
async fn a_process_whose_clock_is_2_s_fast_never_ends_a_game_early() {
    if !on_postgres() {
        return;
    }
    let mut h = Harness::new(DealSource::Seeded(12)).await;
    let fast = h
        .another_process(Some(WallClock::new(|| {
            SystemTime::now() + Duration::from_secs(2)
        })))
        .await;
    let offset = fast
        .measure_clock()
        .await
        .unwrap()
        .expect("PostgreSQL has a clock");
    assert!((-2_500..=-1_500).contains(&offset), "measured {offset} ms");
    let (alice, bob) = (user("alice"), user("bob"));
    let chat = group("g1");
    // The scenario's own process reads the right time (the database's, on this machine).
    h.set_now(SystemTime::now());
    h.start_game(&alice, &bob, &chat, "xiangqi red 0s|5s").await;
    h.set_now(SystemTime::now());
    h.say(&alice, &chat, "/move h2e2").await;
    h.set_now(SystemTime::now());
    h.say(&bob, &chat, "/move h7e7").await;
    let id = h.store.chat(&chat).await.unwrap().unwrap().games[0].clone();
    let record = h.store.game(&id).await.unwrap().unwrap();
    let deadline = record.clock.unwrap().flag_deadline().unwrap();
    let deadline = UNIX_EPOCH + Duration::from_millis(deadline.as_millis());
    // The fast process's tick, which takes the game as due two seconds early, every 200 ms
    // until just before the flag: the game stays on.
    while SystemTime::now() + Duration::from_millis(150) < deadline {
        fast.tick(SystemTime::now() + Duration::from_secs(2)).await;
        let record = h.store.game(&id).await.unwrap().unwrap();
        assert!(
            record.is_active(),
            "ended before the flag by a process 2 s fast"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let after = deadline
        .duration_since(SystemTime::now())
        .unwrap_or_default();
    tokio::time::sleep(after + Duration::from_millis(300)).await;
    fast.tick(SystemTime::now() + Duration::from_secs(2)).await;
    let record = h.store.game(&id).await.unwrap().unwrap();
    assert_eq!(record.ending, Some(Ending::TimedOut(Seat::First)));
}

/// Polls `check` every 10 ms until it holds or `within` passes; whether it held.
async fn eventually(within: Duration, mut check: impl AsyncFnMut() -> bool) -> bool {
    let until = std::time::Instant::now() + within;
    while std::time::Instant::now() < until {
        if check().await {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    check().await
}

/// `who` says `text` in `chat` to process `on`, at this instant of the real clock.
async fn say_on(
    h: &mut Harness,
    on: &jieqi_service::Service,
    who: &jieqi_service::User,
    chat: &jieqi_service::ChatId,
    text: &str,
    mentioned: Vec<jieqi_service::User>,
) -> jieqi_service::Answer {
    h.set_now(SystemTime::now());
    let request = h.request(
        who,
        chat,
        jieqi_service::Input::Text(text.to_owned()),
        mentioned,
    );
    on.handle(request).await
}

#[tokio::test]
async fn every_process_arms_a_live_games_flag_timer_from_the_news_of_each_commit() {
    let mut h = Harness::new(DealSource::Seeded(13)).await;
    let listener = h.another_process(None).await;
    let following = tokio::spawn({
        let listener = listener.clone();
        async move { listener.follow_flags().await }
    });
    let (alice, bob) = (user("alice"), user("bob"));
    let chat = group("g1");
    h.start_game(&alice, &bob, &chat, "xiangqi red 3+2").await;
    let id = h.store.chat(&chat).await.unwrap().unwrap().games[0].clone();
    // The game's start was committed by the scenario's process: the other one heard of it.
    assert!(
        eventually(Duration::from_secs(10), async || listener
            .has_flag_timer(&id))
        .await,
        "the other process armed no timer for the new live game"
    );
    assert_eq!(listener.flag_timers(), 1);
    h.say(&alice, &chat, "/move h2e2").await;
    h.say(&bob, &chat, "/resign").await;
    h.say(&bob, &chat, "/resign").await;
    let record = h.store.game(&id).await.unwrap().unwrap();
    assert!(!record.is_active(), "{:?}", record.ending);
    assert!(
        eventually(Duration::from_secs(10), async || !listener
            .has_flag_timer(&id))
        .await,
        "the other process kept a timer for a game that ended"
    );
    // A game without a clock arms nothing anywhere.
    h.start_game(&alice, &bob, &group("g2"), "xiangqi red 1d")
        .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(listener.flag_timers(), 0);
    assert_eq!(h.service.flag_timers(), 0);
    following.abort();
}

/// The process that made the last move goes away (its timers with it); another process,
/// which only heard the news of that move, ends the game at the flag: no tick runs here.
#[tokio::test]
async fn the_flag_falls_on_another_process_when_the_one_that_made_the_move_is_gone() {
    let mut h = Harness::new(DealSource::Seeded(14)).await;
    let holder = h.another_process(Some(WallClock::system())).await;
    let other = h.another_process(Some(WallClock::system())).await;
    for process in [&holder, &other] {
        process.measure_clock().await.unwrap();
    }
    let following = tokio::spawn({
        let other = other.clone();
        async move { other.follow_flags().await }
    });
    let (alice, bob) = (user("alice"), user("bob"));
    let chat = group("g1");
    say_on(
        &mut h,
        &holder,
        &alice,
        &chat,
        "/challenge @bob xiangqi red 0s|5s",
        vec![bob.clone()],
    )
    .await;
    say_on(&mut h, &holder, &bob, &chat, "/accept", Vec::new()).await;
    say_on(&mut h, &holder, &alice, &chat, "/move h2e2", Vec::new()).await;
    say_on(&mut h, &holder, &bob, &chat, "/move h7e7", Vec::new()).await;
    let id = h.store.chat(&chat).await.unwrap().unwrap().games[0].clone();
    let record = h.store.game(&id).await.unwrap().unwrap();
    assert!(record.is_active());
    let deadline = record.clock.unwrap().flag_deadline().unwrap();
    assert!(
        eventually(Duration::from_secs(5), async || other.has_flag_timer(&id)).await,
        "the other process armed no timer from the news"
    );
    assert!(holder.has_flag_timer(&id));
    drop(holder);
    let ended = eventually(Duration::from_secs(20), async || {
        !h.store.game(&id).await.unwrap().unwrap().is_active()
    })
    .await;
    let at = SystemTime::now();
    assert!(ended, "nobody ended the game");
    let deadline = UNIX_EPOCH + Duration::from_millis(deadline.as_millis());
    let late = at.duration_since(deadline).unwrap_or_default();
    let early = deadline.duration_since(at).unwrap_or_default();
    println!("flag judged by the other process: {late:?} after the deadline");
    assert!(early.is_zero(), "ended {early:?} before the flag");
    // A generous bound (loaded machines): the tick, the only other way, is not running.
    assert!(
        late < Duration::from_secs(4),
        "ended {late:?} after the flag"
    );
    let record = h.store.game(&id).await.unwrap().unwrap();
    assert_eq!(record.ending, Some(Ending::TimedOut(Seat::First)));
    let results = of_kind(&h.deliver().await, MessageKind::Result).len();
    assert_eq!(results, 1, "the result was posted {results} times");
    following.abort();
}
