//! Live games' flags across real processes: two `jieqi-bot run` processes on one PostgreSQL
//! database against the fake Telegram (webhooks). The process that made a live game's last
//! move is killed with SIGKILL with 3 s left on the mover's clock, and the other ends the game
//! on time, once, at the flag (it armed its own timer from the database's news of that move);
//! and moves sent to one process just before or after the flag, with both processes' timers
//! judging it, end the game or play the move, never both.
//!
//! Figures are printed (`--no-capture`): how long after the flag the game was ended (seen by
//! polling the database every 10 ms) and the result posted. Needs `TEST_DATABASE_URL` (see
//! `jieqi_store_pg::testing`); skipped without it, except under `CI=true`.

use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use jieqi_fake_telegram::FakeBotApi;
use jieqi_service::store::{Ending, GameRecord, Seat};
use jieqi_service::{GameId, GameStore};
use jieqi_store_pg::testing::test_store;

use crate::common::procs::free_port;
use crate::multi_process::{HANG, TgGame, Webhooks, runtime, start_on_telegram};

/// The live games' control: no game time, one byo-yomi period of 10 s (and the second of
/// lag grace the clock adds), so a flag falls 11 s after the opponent's move.
const CONTROL: &str = "0s|10s";
/// The most a process's measured offset from the database's clock may be off by (half the
/// longest round trip it trusts).
const OFFSET_ERROR: Duration = Duration::from_millis(250);
/// What the result of a game lost on time says (English, the chats' default).
const ON_TIME: &str = "ran out of time";

/// Red challenges Black to a live Xiangqi game on [`CONTROL`], Black accepts, and both make
/// their first move: all through `hooks`. Returns the game's id.
async fn start_live_game(
    game: &TgGame,
    fake: &FakeBotApi,
    hooks: &Webhooks,
    store: &dyn GameStore,
) -> GameId {
    hooks
        .post(&fake.message_update(game.red, game.red, "/start"))
        .await;
    hooks
        .post(&fake.message_update(game.black, game.black, "/start"))
        .await;
    let mut challenge = fake.message_update(
        game.red,
        game.group,
        &format!("/challenge xiangqi red {CONTROL}"),
    );
    challenge["message"]["reply_to_message"] = fake.message_by(game.black, game.group, "play?");
    hooks.post(&challenge).await;
    hooks
        .post(&fake.message_update(game.black, game.group, "/accept"))
        .await;
    for ply in 0..2 {
        hooks.post(&game.move_update(fake, ply)).await;
    }
    let chat =
        jieqi_service::ChatId::new(jieqi_service::Platform::Telegram, game.group.to_string());
    let record = store.chat(&chat).await.expect("reads").expect("the chat");
    let [id] = record.games.as_slice() else {
        panic!("one game in {chat}: {:?}", record.games);
    };
    id.clone()
}

async fn game_record(store: &dyn GameStore, id: &GameId) -> GameRecord {
    store.game(id).await.expect("reads").expect("the game")
}

/// The instant Red's flag falls after, on the database's clock (this machine's).
fn red_flag(record: &GameRecord) -> SystemTime {
    let clock = record.clock.expect("a live game");
    let running = clock.running().expect("running");
    assert_eq!(running.side, jieqi_clock::Side::Red, "Red to move");
    UNIX_EPOCH + Duration::from_millis(clock.flag_deadline().expect("running").as_millis())
}

/// Polls the game every 10 ms until it ended (or `HANG`): the instant it was seen ended.
async fn ended_at(store: &dyn GameStore, id: &GameId) -> SystemTime {
    let give_up = Instant::now() + HANG;
    loop {
        if !game_record(store, id).await.is_active() {
            return SystemTime::now();
        }
        assert!(Instant::now() < give_up, "{id} never ended");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// The result posts in `group` that tell a loss on time, with when each arrived.
fn results_on_time(fake: &FakeBotApi, group: i64) -> Vec<Instant> {
    fake.posts_in(group)
        .into_iter()
        // The result ("Game … is over. … wins: the opponent ran out of time."), not a
        // refusal that quotes it to a move made after it.
        .filter(|post| post.text.contains(" is over.\n") && post.text.contains(ON_TIME))
        .map(|post| post.at)
        .collect()
}

/// `late` as signed milliseconds (negative: early).
fn after(at: SystemTime, deadline: SystemTime) -> i128 {
    match at.duration_since(deadline) {
        Ok(late) => i128::try_from(late.as_millis()).unwrap_or(i128::MAX),
        Err(early) => -i128::try_from(early.duration().as_millis()).unwrap_or(i128::MAX),
    }
}

#[test]
fn a_live_games_flag_falls_on_time_on_the_other_process_when_its_holder_is_killed() {
    runtime().block_on(async {
        let Some(schema) = test_store().await else {
            return;
        };
        let store = schema.another().await;
        const ROUNDS: i64 = 5;
        let telegram = FakeBotApi::start().await;
        let dir = tempfile::tempdir().expect("a temporary folder");
        let ports = [free_port(), free_port()];
        let mut procs = start_on_telegram("process", &telegram, &schema, dir.path(), &ports);
        // Every request of a game goes to the holder: it makes the moves, so its timer is
        // the one a living holder would judge the flag with.
        let holder_hooks = Webhooks::new(&ports[..1]);
        let (mut ended_late, mut posted_late) = (Vec::new(), Vec::new());
        for round in 0..ROUNDS {
            let game = TgGame::new(500 + round);
            game.add_to(&telegram);
            let id = start_live_game(&game, &telegram, &holder_hooks, &store).await;
            let flag = red_flag(&game_record(&store, &id).await);
            // Red thinks; with 3 s left on her clock the process that holds the game dies.
            let kill_at = flag - Duration::from_secs(3);
            if let Ok(wait) = kill_at.duration_since(SystemTime::now()) {
                tokio::time::sleep(wait).await;
            }
            let left = flag.duration_since(SystemTime::now()).unwrap_or_default();
            procs[0].kill();
            let (ended, reference) = (
                ended_at(&store, &id).await,
                (Instant::now(), SystemTime::now()),
            );
            let record = game_record(&store, &id).await;
            assert_eq!(record.ending, Some(Ending::TimedOut(Seat::First)), "{id}");
            assert_eq!(
                record.moves.len(),
                2,
                "{id}: no move was played after the kill"
            );
            let late = after(ended, flag);
            assert!(late >= 0, "{id}: the game ended {late} ms before the flag");
            // The result, posted by the surviving process once the killed one's claims on
            // the group's messages lapsed; exactly once.
            let give_up = Instant::now() + HANG;
            while results_on_time(&telegram, game.group).is_empty() {
                assert!(Instant::now() < give_up, "{id}: no result posted");
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            tokio::time::sleep(Duration::from_secs(3)).await;
            let results = results_on_time(&telegram, game.group);
            assert_eq!(
                results.len(),
                1,
                "{id}: the result was posted {} times",
                results.len()
            );
            // The post's instant on the wall clock, by the pair of readings taken together.
            let posted = if results[0] >= reference.0 {
                reference.1 + results[0].duration_since(reference.0)
            } else {
                reference.1 - reference.0.duration_since(results[0])
            };
            let posted = after(posted, flag);
            println!(
                "round {round}: killed the holder with {:.2} s left; the other process ended \
                 the game {late} ms after the flag, its result posted {posted} ms after it",
                left.as_secs_f64()
            );
            ended_late.push(late);
            posted_late.push(posted);
            procs[0].start();
        }
        ended_late.sort_unstable();
        posted_late.sort_unstable();
        println!(
            "flag judged by the surviving process, ms after the flag over {ROUNDS} kills: \
             ended {ended_late:?}, result posted {posted_late:?}"
        );
        // Generous (a loaded machine): without a timer of its own the survivor's 5 s tick
        // would be the only judge, up to 5 s late.
        let worst = ended_late.last().copied().unwrap_or_default();
        assert!(
            worst < 2_500,
            "a game ended {worst} ms after the flag: {ended_late:?}\n{}",
            procs[1].log_tail()
        );
    });
}

/// Red's allowance: her 10 s period from Black's move. A typed move measures no network
/// lag, so one timed after it is too late, though the flag (with the lag grace a move could
/// have earned) falls a second later. Telegram times a message by its `date`, in whole
/// seconds, so a move may be timed up to a second before it reached the bot: around the
/// allowance and the flag the move or the flag may win, and the race only has to end with
/// exactly one of them standing.
fn red_allowance(record: &GameRecord) -> SystemTime {
    let clock = record.clock.expect("a live game");
    let since = clock.running().expect("running").since;
    UNIX_EPOCH + Duration::from_millis(since.as_millis()) + Duration::from_secs(10)
}

#[test]
fn moves_racing_the_flag_across_two_processes_stand_or_fall_exactly_once() {
    runtime().block_on(async {
        let Some(schema) = test_store().await else {
            return;
        };
        // When the racing move is sent, from Red's allowance: around it (where the move's
        // own check decides) and around the flag a second later (where both processes'
        // timers judge it at the same moment).
        const OFFSETS_MS: [i64; 16] = [
            -600, -300, -150, -60, -20, 20, 60, 150, 700, 950, 990, 1_010, 1_050, 1_200, 2_300,
            2_600,
        ];
        let telegram = Arc::new(FakeBotApi::start().await);
        let store = Arc::new(schema.another().await);
        let dir = tempfile::tempdir().expect("a temporary folder");
        let ports = [free_port(), free_port()];
        let _procs = start_on_telegram("racer", &telegram, &schema, dir.path(), &ports);
        let mut games = tokio::task::JoinSet::new();
        for (n, offset) in OFFSETS_MS.into_iter().enumerate() {
            let (telegram, store) = (telegram.clone(), store.clone());
            games.spawn(async move {
                let game = TgGame::new(600 + i64::try_from(n).unwrap_or(0));
                game.add_to(&telegram);
                // The game is played on one process and the racing move sent to the other;
                // both have a timer for the flag.
                let (home, away) = (n % 2, 1 - n % 2);
                let home = Webhooks::new(&ports[home..=home]);
                let away = Webhooks::new(&ports[away..=away]);
                let id = start_live_game(&game, &telegram, &home, store.as_ref()).await;
                let record = game_record(store.as_ref(), &id).await;
                let (allowance, flag) = (red_allowance(&record), red_flag(&record));
                let send_at = if offset < 0 {
                    allowance - Duration::from_millis(offset.unsigned_abs())
                } else {
                    allowance + Duration::from_millis(offset.unsigned_abs())
                };
                if let Ok(wait) = send_at.duration_since(SystemTime::now()) {
                    tokio::time::sleep(wait).await;
                }
                let sent = SystemTime::now();
                away.post(&game.move_update(&telegram, 2)).await;
                // Past the flag, whatever happened, and the result delivered.
                tokio::time::sleep(Duration::from_secs(5)).await;
                (n, offset, id, allowance, flag, sent, game.group)
            });
        }
        let (mut stood, mut fell) = (0, 0);
        while let Some(done) = games.join_next().await {
            let (n, offset, id, allowance, flag, sent, group) = done.expect("a race was run");
            let record = game_record(store.as_ref(), &id).await;
            let outcome = if record.is_active() {
                assert_eq!(record.moves.len(), 3, "race {n}: the move stood");
                // Timed by its date, at or before it was sent: a move sent a second after
                // the flag is timed after it (the flag's timers judged it long before). Each
                // process reads the database's clock through a measured offset, off by at
                // most half a trusted round trip.
                assert!(
                    sent < flag + Duration::from_secs(1) + OFFSET_ERROR,
                    "race {n}: a move sent {} ms after the flag stood",
                    after(sent, flag)
                );
                stood += 1;
                "the move stood"
            } else {
                assert_eq!(
                    record.ending,
                    Some(Ending::TimedOut(Seat::First)),
                    "race {n}"
                );
                assert_eq!(
                    record.moves.len(),
                    2,
                    "race {n}: the move and the flag both stood"
                );
                // A move timed before the allowance is in time (its date is never after
                // the instant it was sent).
                assert!(
                    allowance <= sent + OFFSET_ERROR,
                    "race {n}: the game ended though the move was sent {} ms before the allowance",
                    -after(sent, allowance)
                );
                let give_up = Instant::now() + HANG;
                while results_on_time(&telegram, group).is_empty() {
                    assert!(Instant::now() < give_up, "race {n}: no result posted");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
                fell += 1;
                "the game ended on time"
            };
            println!(
                "race {n}: move sent {:+} ms from the allowance ({:+} ms from the flag): {outcome}",
                after(sent, allowance),
                after(sent, flag)
            );
            let _ = offset;
        }
        // Any second post of a result would have come by now.
        tokio::time::sleep(Duration::from_secs(2)).await;
        for n in 0..OFFSETS_MS.len() {
            let group = TgGame::new(600 + i64::try_from(n).unwrap_or(0)).group;
            let results = results_on_time(&telegram, group).len();
            let posts: Vec<String> = telegram
                .posts_in(group)
                .into_iter()
                .map(|post| format!("[{}] {}", post.message_id, post.text))
                .collect();
            assert!(
                results <= 1,
                "race {n}: the result was posted {results} times:\n{}",
                posts.join("\n")
            );
        }
        println!("races: {stood} moves stood, {fell} games ended on time");
        assert_eq!(stood + fell, OFFSETS_MS.len());
        assert!(
            fell >= 2,
            "every move sent a second after the flag falls: {stood} stood, {fell} fell"
        );
    });
}
