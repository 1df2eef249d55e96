//! Crash safety of `jieqi-bot local`, the way a client sees it: the process is killed with
//! SIGKILL at seeded random points of a scripted Jieqi game and started again; the client
//! resends every line it did not see acknowledged (or, like a person re-running a script,
//! the whole script with `--resume`). At the end every acknowledged move is in the game
//! exactly once and nothing is left undelivered.

use crate::common;

use std::collections::BTreeSet;
use std::time::Duration;

use common::{GAME, Local, ack_number, game_script};
use jieqi_service::{Service, ServiceConfig};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Crashes per game at most, so that every game ends.
const MAX_CRASHES: usize = 4;
/// No line printed for this long: the process is idle. A line it is still working on comes
/// within milliseconds; on a very loaded machine the kill may land a little earlier, which is
/// still a point of the sweep.
const IDLE: Duration = Duration::from_secs(2);

/// How the client resends after a crash.
#[derive(Debug, Clone, Copy)]
enum Resend {
    /// From the first line it did not see acknowledged, numbered as before.
    FromLastAck,
    /// The whole script again with `--resume`.
    WholeScript,
}

struct Outcome {
    printed: Vec<String>,
    crashes: usize,
    data: std::path::PathBuf,
    _root: tempfile::TempDir,
}

fn play_with_crashes(seed: u64, resend: Resend) -> Outcome {
    let root = tempfile::tempdir().expect("a temporary folder");
    let data = root.path().join("data");
    let out = root.path().join("out");
    let script = game_script();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut acknowledged = 0usize;
    let mut printed = Vec::new();
    let mut crashes = 0;
    while acknowledged < script.len() {
        let (extra, lines, first) = match resend {
            Resend::WholeScript if crashes > 0 => (vec!["--resume".to_owned()], &script[..], 1),
            _ => (
                vec!["--first-line".to_owned(), (acknowledged + 1).to_string()],
                &script[acknowledged..],
                acknowledged + 1,
            ),
        };
        let extra: Vec<&str> = extra.iter().map(String::as_str).collect();
        let mut bot = Local::start(&data, &out, &extra);
        bot.send(lines);
        let (status, run) = if crashes < MAX_CRASHES && rng.gen_bool(0.8) {
            crashes += 1;
            // Kill after a few acknowledgements and then a few printed lines: at start-up,
            // while a line is being handled, or after its durable write while its messages
            // are printed but before its acknowledgement (the window a resend must survive).
            let acks = rng.gen_range(0..=5);
            let then_lines = rng.gen_range(0..4);
            // Once every line sent is acknowledged the process prints nothing more until it
            // is sent more: waiting longer for an acknowledgement or a line would only wait
            // out a timeout (two minutes a time, most of this test's run before), so the kill
            // comes at the same point, the process idle, as soon as that is clear.
            let acks = acks.min(lines.len());
            let reached = (0..acks).all(|_| bot.until_ack_or_end().is_some())
                && (0..then_lines).all(|_| bot.next_line(IDLE).is_ok());
            if reached && then_lines == 0 {
                // Somewhere in the handling of the next line (its durable write included).
                std::thread::sleep(Duration::from_millis(rng.gen_range(0..200)));
            }
            bot.kill()
        } else {
            let (status, run) = bot.finish();
            assert!(
                status.success(),
                "seed {seed}: a run to the end exits cleanly: {status}"
            );
            (status, run)
        };
        let acks: Vec<usize> = run
            .iter()
            .filter_map(|line| ack_number(line))
            .map(|n| n as usize)
            .collect();
        let expected: Vec<usize> = (first..first + acks.len()).collect();
        assert_eq!(
            acks, expected,
            "seed {seed}: acknowledgements come in line order ({status})"
        );
        if let Some(&last) = acks.last() {
            acknowledged = acknowledged.max(last);
        }
        printed.extend(run);
    }
    // The process may have been killed after its last acknowledgement; whatever it had not
    // marked delivered is owed once it is back.
    let bot = Local::start(&data, &out, &[]);
    let (status, run) = bot.finish();
    assert!(
        status.success(),
        "seed {seed}: the last start exits cleanly: {status}"
    );
    printed.extend(run);
    Outcome {
        printed,
        crashes,
        data,
        _root: root,
    }
}

/// The outbox ids of the pictures printed with `tag` (file names start with the id).
fn picture_ids(printed: &[String], tag: &str) -> BTreeSet<u64> {
    common::pictures(printed, tag)
        .into_iter()
        .filter_map(|path| {
            let name = std::path::Path::new(path).file_name()?.to_str()?;
            name.split_once('-')?.0.parse().ok()
        })
        .collect()
}

fn check(seed: u64, resend: Resend) {
    let outcome = play_with_crashes(seed, resend);
    let printed = &outcome.printed;
    // Every line of the script succeeds the first time it is handled, and a line handled
    // again with its old number gets the earlier (empty) answer: a refusal ("not your
    // turn", "no piece there") means a line was carried out as new a second time.
    let refusals: Vec<&String> = printed
        .iter()
        .filter(|line| line.starts_with("[to "))
        .collect();
    assert!(
        refusals.is_empty(),
        "seed {seed} ({resend:?}): a resent line was handled as new: {refusals:#?}"
    );
    // One board for the start and one per move: a lost move would leave one out, a move or
    // challenge handled twice would add one. Repeated prints of one message (delivered at
    // least once) share their outbox id.
    let boards = picture_ids(printed, "[chat]");
    assert_eq!(
        boards.len(),
        1 + GAME.len(),
        "seed {seed} ({resend:?}, {} crashes): every move is posted, none twice: {boards:?}",
        outcome.crashes
    );
    // The two captures of covered pieces: each player privately sees their one capture.
    assert_eq!(
        picture_ids(printed, "[dm alice]").len(),
        1,
        "seed {seed}: alice's reveal"
    );
    assert_eq!(
        picture_ids(printed, "[dm bob]").len(),
        1,
        "seed {seed}: bob's reveal"
    );

    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        let service = Service::open(ServiceConfig {
            data_dir: outcome.data.clone(),
            ..ServiceConfig::default()
        })
        .expect("the store opens after the crashes");
        let pending = service.pending(16).await.expect("the outbox is readable");
        assert!(
            pending.is_empty(),
            "seed {seed}: everything was delivered: {pending:?}"
        );
        service.shutdown().await.expect("the store flushes");
    });
}

#[test]
fn killed_at_random_points_and_resent_from_the_last_acknowledgement_nothing_is_lost_or_doubled() {
    for seed in [11, 12, 13] {
        check(seed, Resend::FromLastAck);
    }
}

#[test]
fn killed_at_random_points_and_replayed_whole_with_resume_nothing_is_lost_or_doubled() {
    for seed in [21, 22] {
        check(seed, Resend::WholeScript);
    }
}
