//! A process killed while compacting its sled store loses nothing: the test runs itself as a
//! child process that compacts over and over, kills it (SIGKILL) at moments spread over the
//! copy, the switch and the clean-up, and reads every record back after each kill.

use std::io::{BufRead, BufReader};
use std::process::Command;
use std::time::Duration;

use jieqi_service::store::{AnswerRecord, Change, ChatRecord, GameStore, PlayerRecord, RequestKey};
use jieqi_service::{ChatId, Language, Platform, SledStore, User, UserId};

const CHILD: &str = "JIEQI_COMPACTION_CHILD";
const RECORDS: usize = 400;
/// What the child prints as it starts compacting.
const COMPACTING: &str = "compacting";

fn chat(i: usize) -> ChatId {
    ChatId::new(Platform::Telegram, format!("-{i}"))
}

fn player(i: usize) -> User {
    User::new(
        UserId::new(Platform::Telegram, i.to_string()),
        format!("p{i}"),
    )
}

async fn fill(store: &SledStore) {
    for i in 0..RECORDS {
        let mut record = ChatRecord::new(
            chat(i),
            jieqi_service::settings::ChatSettings::for_language(Language::En),
        );
        record.revision = 1;
        let mut stats = PlayerRecord::new(&player(i));
        stats.revision = 1;
        store
            .commit(Change {
                request: Some((
                    RequestKey(format!("telegram:{i}")),
                    AnswerRecord {
                        at: i as u64,
                        replies: Vec::new(),
                    },
                )),
                chats: vec![record],
                players: vec![stats],
                durable: true,
                ..Change::default()
            })
            .await
            .expect("commit");
    }
}

async fn check(store: &SledStore, kill: usize) {
    for i in 0..RECORDS {
        assert!(
            store.chat(&chat(i)).await.unwrap().is_some(),
            "chat {i} after kill {kill}"
        );
        assert!(
            store.player(&player(i).id).await.unwrap().is_some(),
            "player {i} after kill {kill}"
        );
        let answer = store
            .answer(&RequestKey(format!("telegram:{i}")))
            .await
            .unwrap();
        assert_eq!(
            answer.map(|a| a.at),
            Some(i as u64),
            "answer {i} after kill {kill}"
        );
    }
}

/// This test's name as the test harness lists it (inside the `it` binary: `module::name`).
fn this_test() -> String {
    let name = "a_process_killed_while_compacting_loses_nothing";
    match module_path!().split_once("::") {
        Some((_, module)) => format!("{module}::{name}"),
        None => name.to_owned(),
    }
}

#[tokio::test]
async fn a_process_killed_while_compacting_loses_nothing() {
    // Run again as the child by this same test, it compacts until killed.
    if let Some(dir) = std::env::var_os(CHILD) {
        compact_until_killed(std::path::Path::new(&dir));
    }
    let dir = tempfile::tempdir().unwrap();
    {
        let store = SledStore::open(dir.path()).unwrap();
        fill(&store).await;
    }
    let me = std::env::current_exe().unwrap();
    for (kill, after_ms) in [50u64, 150, 300, 500, 800, 1200, 1700, 2500]
        .into_iter()
        .enumerate()
    {
        let mut child = Command::new(&me)
            .args(["--exact", &this_test(), "--nocapture"])
            .env(CHILD, dir.path())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("the child test process");
        // The moments count from the child's first compaction, not from its start: on a busy
        // machine starting a process can take longer than the whole sweep.
        let mut output = BufReader::new(child.stdout.take().expect("the child's output"));
        let mut line = String::new();
        while !line.starts_with(COMPACTING) {
            line.clear();
            let read = output.read_line(&mut line).expect("the child's output");
            assert!(read > 0, "the child ended before compacting");
        }
        std::thread::sleep(Duration::from_millis(after_ms));
        child.kill().expect("kill");
        child.wait().expect("wait");
        let store = SledStore::open(dir.path()).expect("the store opens after the kill");
        check(&store, kill).await;
    }
    // The kills did land among compactions: the live database is no longer the first.
    let current = std::fs::read_to_string(dir.path().join("CURRENT")).unwrap();
    assert_ne!(current.trim(), "gen-1", "the child never compacted");
}

/// The child's part of [`a_process_killed_while_compacting_loses_nothing`]: compacts the store
/// in `dir` over and over until the parent kills it.
fn compact_until_killed(dir: &std::path::Path) -> ! {
    // The parent may still be closing the store: wait for the folder's lock.
    let store = loop {
        match SledStore::open(dir) {
            Ok(store) => break store,
            Err(_) => std::thread::sleep(Duration::from_millis(1)),
        }
    };
    println!("{COMPACTING}");
    loop {
        store.compact().expect("compaction");
    }
}
