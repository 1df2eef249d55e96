//! An upgrade the way it broke: the previous release (f61d864, record codec 4) runs on a
//! PostgreSQL database, taking a Telegram group's updates by webhook, and this release is
//! started beside it on the same database. Before, the new process migrated the schema and
//! rewrote every game in codec 6 at once, and the old one refused every move of its games
//! ("the store has schema version 6, newer than this bot's 4"). Now the new process waits
//! while the old one is connected: moves and a new game keep going to the old one, none
//! refused; once the old one is stopped the new one takes over, migrates, serves the same
//! games, and every game record is in the new codec.
//!
//! Needs the previous release's binary in `JIEQI_PREVIOUS_BOT` (`scripts/previous-release.sh`
//! builds it once; `scripts/test.sh` sets it) and `TEST_DATABASE_URL`; skipped without them,
//! failing under `CI=true`.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use jieqi_fake_telegram::FakeBotApi;
use jieqi_store_pg::PgStore;
use jieqi_store_pg::testing::test_database;
use tokio_postgres::NoTls;

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

/// The texts the bot posted or answered, anywhere.
fn texts(fake: &FakeBotApi) -> Vec<String> {
    fake.calls().iter().map(|c| c.visible_text()).collect()
}

#[test]
fn a_new_release_started_beside_the_previous_one_stops_none_of_its_games() {
    let Some(previous) = previous_release() else {
        return;
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async move {
        // A database of its own: the new process looks for older processes database-wide.
        let Some(database) = test_database().await else {
            return;
        };
        let fake = FakeBotApi::start().await;
        let (first, second) = (TgGame::new(1), TgGame::new(2));
        first.add_to(&fake);
        second.add_to(&fake);
        let dir = tempfile::tempdir().expect("a folder");
        // Both take the URL as it is: each names its connections after its own release.
        let store_env = env(&[("DATABASE_URL", database.url())]);
        let (old_port, new_port) = (free_port(), free_port());
        let with = |port| {
            let mut all = store_env.clone();
            all.extend(telegram_env(&fake, port));
            all
        };
        let mut old =
            Proc::new("previous-release", dir.path(), with(old_port)).of_binary(&previous);
        let mut new = Proc::new("this-release", dir.path(), with(new_port));
        old.start();
        let to_old = Webhooks::new(&[old_port]);
        first.start(&fake, &to_old).await;
        for ply in 0..4 {
            to_old.post(&first.move_update(&fake, ply)).await;
        }

        // This release starts beside it, and waits.
        new.start();
        let waiting = Instant::now();
        while !new
            .log()
            .contains("processes of an older release are connected")
        {
            assert!(
                waiting.elapsed() < Duration::from_secs(120),
                "the new process never said it waits: {}",
                new.log_tail()
            );
            assert!(new.is_running());
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        // Updates go to either, as behind a load balancer: the waiting one does not answer,
        // so each lands on the old one. Moves in the running game and a new game.
        let to_both = Webhooks::new(&[new_port, old_port]);
        for ply in 4..8 {
            to_both.post(&first.move_update(&fake, ply)).await;
        }
        second.start(&fake, &to_both).await;
        for ply in 0..2 {
            to_both.post(&second.move_update(&fake, ply)).await;
        }
        let refused: Vec<String> = texts(&fake)
            .into_iter()
            .filter(|t| t.contains("went wrong"))
            .collect();
        assert!(refused.is_empty(), "refusals while both ran: {refused:?}");
        assert!(
            !old.log().contains("newer than this bot"),
            "the old process met a record it cannot read: {}",
            old.log_tail()
        );

        // The old one is stopped; the new one takes over and serves the same games.
        let stopped = Instant::now();
        old.terminate();
        for ply in 8..12 {
            to_both.post(&first.move_update(&fake, ply)).await;
        }
        println!(
            "rolling upgrade: the new process took the first update {:.1} s after the old one \
             was told to stop",
            stopped.elapsed().as_secs_f64()
        );
        for ply in 2..4 {
            to_both.post(&second.move_update(&fake, ply)).await;
        }
        let refused: Vec<String> = texts(&fake)
            .into_iter()
            .filter(|t| t.contains("went wrong"))
            .collect();
        assert!(
            refused.is_empty(),
            "refusals after the upgrade: {refused:?}"
        );
        new.terminate();

        // Every move is in its game, and every game record is in the new codec.
        let config: tokio_postgres::Config = database.url().parse().expect("the URL");
        let (client, connection) = config.connect(NoTls).await.expect("the database");
        let driver = tokio::spawn(connection);
        let rows = client
            .query("SELECT id, get_byte(record, 0) FROM games ORDER BY id", &[])
            .await
            .expect("the games");
        assert_eq!(rows.len(), 2, "two games");
        let store = PgStore::connect(database.url()).await.expect("the store");
        let mut plies = Vec::new();
        for row in &rows {
            let (id, codec): (String, i32) = (row.get(0), row.get(1));
            assert_eq!(
                codec,
                i32::from(jieqi_service::store::codec::SCHEMA_VERSION),
                "{id} in the new codec"
            );
            let game = jieqi_service::GameStore::game(&store, &id.parse().expect("an id"))
                .await
                .expect("the store")
                .expect("the game");
            plies.push(game.moves.len());
        }
        plies.sort_unstable();
        assert_eq!(plies, [4, 12], "every move sent is in its game");
        assert!(OPENING.len() >= 12);
        drop(client);
        let _ = driver.await;
        println!(
            "rolling upgrade: 16 moves and 2 games, none refused; the old process's log:\n{}",
            old.log_tail()
        );
    });
}
