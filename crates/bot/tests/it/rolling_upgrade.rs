//! An upgrade the way it broke: the previous release (f61d864, record codec 4) runs on a
//! PostgreSQL database, taking Telegram groups' updates by webhook, and this release is
//! started beside it on the same database. Before, the new process migrated the schema and
//! rewrote every game in its codec at once, and the old one refused every move of its games
//! ("the store has schema version 6, newer than this bot's 4"). Now the new process serves
//! at once, writing records in the fleet's codec 4: moves and new games go to both, none
//! refused; once the old one is killed the new one finalizes the fleet, its games are
//! rewritten in this release's codec and read back, and an old process started after that is refused,
//! naming the versions. A crash of the new process while it finalizes leaves every game
//! readable, and the next start finishes the rewrite.
//!
//! Needs the previous release's binary in `JIEQI_PREVIOUS_BOT` (`scripts/previous-release.sh`
//! builds it once; `scripts/test.sh` sets it) and `TEST_DATABASE_URL`; skipped without them,
//! failing under `CI=true`.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use jieqi_fake_telegram::FakeBotApi;
use jieqi_rules::Variant;
use jieqi_rules::game::Preset;
use jieqi_service::store::codec::{SCHEMA_VERSION, decode};
use jieqi_service::store::{Change, Ending, GameRecord, Seat};
use jieqi_service::{ChatId, GameStore, Platform, User, UserId};
use jieqi_store_pg::PgStore;
use jieqi_store_pg::testing::{TestDatabase, previous_release_schema, test_database};
use tokio_postgres::{Client, NoTls};

use crate::common::procs::{Proc, free_port};
use crate::multi_process::{OPENING, TgGame, Webhooks, env, telegram_env};

/// The previous release's binary, or `None` (the test returns) outside CI.
fn previous_release() -> Option<PathBuf> {
    let in_ci = std::env::var("CI").is_ok_and(|v| v == "true");
    match std::env::var_os("JIEQI_PREVIOUS_BOT").map(PathBuf::from) {
        Some(path) if path.is_file() => Some(path),
        other => {
            assert!(
                !in_ci,
                "JIEQI_PREVIOUS_BOT ({other:?}) names no binary: CI must run the rolling \
                 upgrade (scripts/previous-release.sh builds it)"
            );
            eprintln!("skipping: JIEQI_PREVIOUS_BOT names no binary (scripts/previous-release.sh)");
            None
        }
    }
}

/// The texts the bot posted or answered, anywhere, that say something went wrong.
fn refusals(fake: &FakeBotApi) -> Vec<String> {
    fake.calls()
        .iter()
        .map(|c| c.visible_text())
        .filter(|t| t.contains("went wrong"))
        .collect()
}

async fn client(database: &TestDatabase) -> Client {
    let config: tokio_postgres::Config = database.url().parse().expect("the URL");
    let (client, connection) = config.connect(NoTls).await.expect("the database");
    tokio::spawn(connection);
    client
}

/// Every game row: its id, the codec schema it is written in, and whether it reads back.
async fn game_rows(client: &Client) -> Vec<(String, i32, Option<GameRecord>)> {
    client
        .query("SELECT id, record FROM games ORDER BY id", &[])
        .await
        .expect("the games")
        .iter()
        .map(|row| {
            let bytes: &[u8] = row.get(1);
            (
                row.get(0),
                i32::from(bytes[0]),
                decode::<GameRecord>(bytes).ok(),
            )
        })
        .collect()
}

fn codecs_of(rows: &[(String, i32, Option<GameRecord>)]) -> Vec<i32> {
    let mut codecs: Vec<i32> = rows.iter().map(|(_, codec, _)| *codec).collect();
    codecs.dedup();
    codecs
}

/// Waits until `log` of `process` holds `line` (a hang guard, not a timing check).
async fn said(process: &Proc, line: &str) {
    let started = Instant::now();
    while !process.log().contains(line) {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "{} never said “{line}”: {}",
            process.name,
            process.log_tail()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime")
}

/// This release's log lines the test waits for (`jieqi_store_pg`, at info).
const NEW_LOG: (&str, &str) = ("RUST_LOG", "warn,jieqi_store_pg=info");
const SERVES_BESIDE: &str = "serves beside them";
const FINALIZED: &str = "the fleet is finalized";
const REWRITTEN: &str = "game records rewritten";

#[test]
fn the_previous_release_and_this_one_serve_side_by_side_and_the_new_format_is_taken_up_after() {
    let Some(previous) = previous_release() else {
        return;
    };
    runtime().block_on(async move {
        // A database of its own: the processes' releases are seen database-wide.
        let Some(database) = test_database().await else {
            return;
        };
        let fake = FakeBotApi::start().await;
        let games = [TgGame::new(1), TgGame::new(2), TgGame::new(3)];
        for game in &games {
            game.add_to(&fake);
        }
        let [first, second, third] = games;
        let dir = tempfile::tempdir().expect("a folder");
        // Both take the URL as it is: each names its connections after its own release.
        let store_env = env(&[("DATABASE_URL", database.url())]);
        let (old_port, new_port) = (free_port(), free_port());
        let with = |port, log: Option<(&str, &str)>| {
            let mut all = store_env.clone();
            all.extend(telegram_env(&fake, port));
            all.extend(log.map(|pair| env(&[pair])).unwrap_or_default());
            all
        };
        let mut old =
            Proc::new("previous-release", dir.path(), with(old_port, None)).of_binary(&previous);
        let mut new = Proc::new("this-release", dir.path(), with(new_port, Some(NEW_LOG)));
        old.start();
        let (to_old, to_new) = (Webhooks::new(&[old_port]), Webhooks::new(&[new_port]));
        first.start(&fake, &to_old).await;
        for ply in 0..4 {
            to_old.post(&first.move_update(&fake, ply)).await;
        }

        // This release starts beside it and serves at once, in the fleet's codec.
        new.start();
        said(&new, SERVES_BESIDE).await;
        let to_both = Webhooks::new(&[new_port, old_port]);
        for ply in 4..8 {
            to_both.post(&first.move_update(&fake, ply)).await;
        }
        // A game started on each, and moves in both sent to both in turn.
        second.start(&fake, &to_new).await;
        third.start(&fake, &to_old).await;
        for ply in 0..4 {
            to_both.post(&second.move_update(&fake, ply)).await;
            to_both.post(&third.move_update(&fake, ply)).await;
        }
        let raw = client(&database).await;
        let rows = game_rows(&raw).await;
        assert_eq!(rows.len(), 3, "three games");
        assert_eq!(codecs_of(&rows), [4], "every game in the fleet's codec");
        assert!(
            refusals(&fake).is_empty(),
            "refusals while both ran: {:?}",
            refusals(&fake)
        );
        assert!(
            !old.log().contains("newer than this bot"),
            "the old process met a record it cannot read: {}",
            old.log_tail()
        );
        assert!(
            !new.log().contains(FINALIZED),
            "finalized beside the old process"
        );

        // The old one is killed; the new one finalizes and serves the same games.
        let killed = Instant::now();
        old.kill();
        for ply in 8..12 {
            to_both.post(&first.move_update(&fake, ply)).await;
        }
        for ply in 4..6 {
            to_both.post(&second.move_update(&fake, ply)).await;
        }
        said(&new, FINALIZED).await;
        println!(
            "rolling upgrade: finalized {:.1} s after the old process was killed",
            killed.elapsed().as_secs_f64()
        );
        let started = Instant::now();
        let rows = loop {
            let rows = game_rows(&raw).await;
            if codecs_of(&rows) == [i32::from(SCHEMA_VERSION)] {
                break rows;
            }
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "games left in the old codec: {:?}",
                codecs_of(&rows)
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        };
        let mut plies: Vec<usize> = rows
            .iter()
            .map(|(id, _, game)| {
                game.as_ref()
                    .unwrap_or_else(|| panic!("{id} reads"))
                    .moves
                    .len()
            })
            .collect();
        plies.sort_unstable();
        assert_eq!(plies, [4, 6, 12], "every move sent is in its game");
        assert!(OPENING.len() >= 12);
        assert!(
            refusals(&fake).is_empty(),
            "refusals after the upgrade: {:?}",
            refusals(&fake)
        );

        // An old process started now is refused, naming the versions, and stops.
        let mut late = Proc::new("previous-release-late", dir.path(), with(free_port(), None))
            .of_binary(&previous);
        late.start();
        let started = Instant::now();
        let status = loop {
            if let Some(status) = late.exited() {
                break status;
            }
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "the old release started on a finalized store: {}",
                late.log_tail()
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        };
        assert!(!status.success());
        let refused = late.log();
        assert!(
            refused.contains("newer than this bot's 3"),
            "refused without naming the versions: {refused}"
        );
        new.terminate();
        println!(
            "rolling upgrade: 22 moves and 3 games (one started on each release), none refused; \
             the old release after finalization: {}",
            refused.lines().last().unwrap_or_default()
        );
    });
}

/// A finished Xiangqi game of `plies` moves, Black resigned.
fn finished_game(n: usize, plies: usize) -> GameRecord {
    const LETTERS: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";
    let id: String = (0..4)
        .map(|place| char::from(LETTERS[n / LETTERS.len().pow(place) % LETTERS.len()]))
        .collect();
    GameRecord {
        id: id.parse().expect("a game id"),
        revision: 1,
        chat: ChatId::new(Platform::Telegram, "-1009"),
        variant: Variant::Xiangqi,
        preset: Preset::Standard,
        first: User::new(UserId::new(Platform::Telegram, "1"), "ann"),
        second: User::new(UserId::new(Platform::Telegram, "2"), "bob"),
        deal: String::new(),
        salt: "00ff".to_owned(),
        commitment: jieqi_service::store::commitment("", "00ff"),
        moves: OPENING[..plies].iter().map(|m| (*m).to_owned()).collect(),
        ending: Some(Ending::Resigned(Seat::Second)),
        move_time: 60,
        deadline: None,
        draw_offer: None,
        posts: Vec::new(),
        watchers: Vec::new(),
        started_at: 1,
        finished_at: Some(2),
        engine: None,
        prompts: Default::default(),
        rules_revision: jieqi_rules::game::RULES_REVISION,
        secret_captures: false,
        verdict: None,
        clock: None,
    }
}

#[test]
fn a_crash_of_the_new_process_while_it_finalizes_leaves_every_game_readable() {
    const GAMES: usize = 4000;
    runtime().block_on(async move {
        let Some(database) = test_database().await else {
            return;
        };
        // Games written in the previous release's codec, as a process of this release does
        // beside an old process (a connection named as one stands for it).
        previous_release_schema(&database).await;
        let mut config: tokio_postgres::Config = database.url().parse().expect("the URL");
        config.application_name("jieqi-bot");
        let (old, connection) = config.connect(NoTls).await.expect("a connection");
        let old_driver = tokio::spawn(connection);
        let beside = PgStore::connect(database.url()).await.expect("the store");
        assert_eq!(beside.fleet(), 4);
        let games: Vec<GameRecord> = (0..GAMES).map(|n| finished_game(n, 2 + n % 10)).collect();
        for chunk in games.chunks(500) {
            beside
                .commit(Change {
                    games: chunk.to_vec(),
                    ..Change::default()
                })
                .await
                .expect("the games");
        }
        drop(beside);
        // Its own fleet task ends with it before the old process goes (it looks every 2 s).
        tokio::time::sleep(Duration::from_millis(2500)).await;
        drop(old);
        let _ = old_driver.await;
        let raw = client(&database).await;
        assert_eq!(codecs_of(&game_rows(&raw).await), [4]);

        let fake = FakeBotApi::start().await;
        let dir = tempfile::tempdir().expect("a folder");
        let mut environment = env(&[("DATABASE_URL", database.url())]);
        environment.extend(telegram_env(&fake, free_port()));
        environment.extend(env(&[NEW_LOG]));
        let mut new = Proc::new("this-release", dir.path(), environment);
        // Killed right after the finalization, after a first batch of the sweep, and at
        // start-up; then left to finish.
        let kills: [(&str, Option<&str>); 3] = [
            ("after the finalization", Some(FINALIZED)),
            ("after a first batch of the sweep", Some(REWRITTEN)),
            ("at start-up", None),
        ];
        let mut report = Vec::new();
        for (when, line) in kills {
            new.start();
            let seen = new.log().matches(line.unwrap_or("\u{0}")).count();
            match line {
                Some(line) => {
                    let started = Instant::now();
                    while new.log().matches(line).count() <= seen {
                        assert!(
                            started.elapsed() < Duration::from_secs(120),
                            "never: {line}"
                        );
                        tokio::time::sleep(Duration::from_millis(5)).await;
                    }
                }
                None => tokio::time::sleep(Duration::from_millis(300)).await,
            }
            new.kill();
            let rows = game_rows(&raw).await;
            let unreadable: Vec<&String> = rows
                .iter()
                .filter(|(_, _, game)| game.is_none())
                .map(|(id, _, _)| id)
                .collect();
            assert!(
                unreadable.is_empty(),
                "unreadable after a kill {when}: {unreadable:?}"
            );
            let old_rows = rows.iter().filter(|(_, codec, _)| *codec == 4).count();
            report.push(format!(
                "{when}: {old_rows} of {GAMES} games still in codec 4"
            ));
        }
        new.start();
        let started = Instant::now();
        let rows = loop {
            let rows = game_rows(&raw).await;
            if codecs_of(&rows) == [i32::from(SCHEMA_VERSION)] {
                break rows;
            }
            assert!(
                started.elapsed() < Duration::from_secs(120),
                "the sweep never finished"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        };
        new.terminate();
        assert_eq!(rows.len(), GAMES);
        for (id, _, read) in &rows {
            let read = read.as_ref().unwrap_or_else(|| panic!("{id} reads"));
            let written = games
                .iter()
                .find(|g| g.id.as_str() == id)
                .expect("a game written");
            assert_eq!(read.moves, written.moves, "{id}");
            assert!(read.verdict.is_some(), "{id} has its verdict stored");
        }
        println!(
            "finalization crashes: {}; then all {GAMES} in codec {SCHEMA_VERSION}",
            report.join("; ")
        );
    });
}
