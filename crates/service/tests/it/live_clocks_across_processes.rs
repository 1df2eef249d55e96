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
