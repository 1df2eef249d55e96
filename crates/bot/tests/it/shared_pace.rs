//! One pace per chat across processes, through the real binary: a group playing a move a
//! second, its webhook updates spread over two `jieqi-bot run` processes on one PostgreSQL
//! database, against the fake Telegram enforcing Telegram's limits (twenty posts to a group
//! in any minute, a chat's short burst then one a second; 429 with `retry_after` past them).
//! Whichever process posts to the group spends from the group's one budget in the store, so
//! together they keep within its limit: no 429, the group's board at most 10 s behind the
//! game (12 s while processes are killed), at most one call to the group per move. The same with the group's lane moving
//! between the processes (each killed in turn and started again), and the same game on one
//! process for comparison. Figures are printed (`--no-capture`).
//!
//! Needs `TEST_DATABASE_URL` (see `jieqi_store_pg::testing`); skipped without it, except
//! under `CI=true`.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::{Duration, Instant};

use jieqi_fake_telegram::{FakeBotApi, Limits};
use jieqi_rules::game::{Game, GameDeal, Preset, Rules};
use jieqi_rules::{Variant, Viewer};
use jieqi_store_pg::testing::test_store;

use crate::common::procs::free_port;
use crate::multi_process::{TgGame, Webhooks, runtime, start_on_telegram};

/// How far behind the game the group's newest board may be.
const MOST_BEHIND: Duration = Duration::from_secs(10);
/// The same while processes are killed: a board the killed process had claimed waits until
/// its claim lapses (the delivery lease, 6 s, from the last renewal) on top of the group's
/// beat (a board every 4.5 s). A kill just as such a board was due measured 9.8 s, under
/// 10 s only by when the claim had last been renewed.
const MOST_BEHIND_WITH_KILLS: Duration = Duration::from_secs(12);
/// Moves in the game: a minute at one a second.
const PLIES: usize = 60;

/// `plies` legal Xiangqi moves (coordinates) that give no check, end nothing and repeat no
/// position, chosen by a fixed pseudo-random sequence.
fn quiet_xiangqi(plies: usize) -> Vec<String> {
    let rules = Rules::new(Variant::Xiangqi, Preset::Standard);
    let mut game = Game::new(rules, GameDeal::None).expect("a game");
    let mut seen = HashSet::from([game.fen(Viewer::Full)]);
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut moves = Vec::new();
    for ply in 0..plies {
        let quiet: Vec<(String, Game)> = game
            .legal_move_texts()
            .into_iter()
            .filter_map(|text| {
                let mut next = game.clone();
                let fine = next.play_text(&text).is_ok()
                    && next.outcome().is_none()
                    && next.view(Viewer::Public).check.is_none()
                    && !seen.contains(&next.fen(Viewer::Full));
                fine.then_some((text, next))
            })
            .collect();
        assert!(!quiet.is_empty(), "no quiet move at ply {ply}");
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let (text, next) = quiet[usize::try_from(seed >> 33).unwrap_or(0) % quiet.len()].clone();
        seen.insert(next.fen(Viewer::Full));
        game = next;
        moves.push(text);
    }
    moves
}

/// True if `caption` names the move of `ply` ("· 12. …" or "; 12… …").
fn names(caption: &str, ply: usize) -> bool {
    let number = if ply.is_multiple_of(2) {
        format!("{}.", ply / 2 + 1)
    } else {
        format!("{}…", ply / 2 + 1)
    };
    caption.contains(&format!("· {number} ")) || caption.contains(&format!("; {number} "))
}

/// The boards the group got (when each arrived, its caption), in order.
fn boards(fake: &FakeBotApi, group: i64) -> Vec<(Instant, String)> {
    fake.calls()
        .into_iter()
        .filter(|c| c.method == "sendPhoto" && c.chat() == Some(group) && c.status == 200)
        .map(|c| (c.at, c.str("caption").unwrap_or_default().to_owned()))
        .collect()
}

/// Every post to the group and every move, by time from the first move (negative before it):
/// what a refusal is read against.
fn timeline(fake: &FakeBotApi, group: i64, started: Instant) -> String {
    let at = |when: Instant| {
        if when >= started {
            format!("+{:>6} ms", when.duration_since(started).as_millis())
        } else {
            format!("-{:>6} ms", started.duration_since(when).as_millis())
        }
    };
    let mut lines = vec!["the group's posts (arrival, method, status, text's start):".to_owned()];
    for call in fake.calls() {
        if call.chat() == Some(group) && jieqi_fake_telegram::counts_against_limits(&call.method) {
            let start: String = call.visible_text().chars().take(60).collect();
            lines.push(format!(
                "  {} {} {} {start:?}",
                at(call.at),
                call.method,
                call.status
            ));
        }
    }
    lines.join("\n")
}

fn percentile(sorted: &[Duration], p: usize) -> Duration {
    sorted[(sorted.len() * p / 100).min(sorted.len() - 1)]
}

/// Kills during the game: (ply after which, which process), each started again `back`
/// later.
struct Kills {
    at: Vec<(usize, usize)>,
    back: Duration,
}

/// Plays the fast game on `processes` processes sharing one database, the updates spread
/// over their webhooks in turn; returns false if the test was skipped (no database).
async fn fast_game(processes: usize, kills: Kills, label: &str) -> bool {
    let Some(store) = test_store().await else {
        return false;
    };
    let moves = quiet_xiangqi(PLIES);
    let telegram = FakeBotApi::start().await;
    let game = TgGame::new(77);
    game.add_to(&telegram);
    let dir = tempfile::tempdir().expect("a temporary folder");
    let ports: Vec<u16> = (0..processes).map(|_| free_port()).collect();
    let mut procs = start_on_telegram("process", &telegram, &store, dir.path(), &ports);
    let hooks = Arc::new(Webhooks::new(&ports));
    telegram.enforce_limits(Limits::telegram());
    game.start(&telegram, &hooks).await;
    telegram
        .wait_for("the first board", HANG_FOR_START, |fake| {
            fake.posts_in(game.group).iter().any(|p| p.photo.is_some())
        })
        .await;
    let calls_before = telegram.calls().len();

    let started = tokio::time::Instant::now();
    let mut committed = Vec::with_capacity(moves.len());
    let mut down: Vec<(usize, Instant)> = Vec::new();
    for (ply, mv) in moves.iter().enumerate() {
        tokio::time::sleep_until(started + Duration::from_secs(ply as u64)).await;
        for &(after, victim) in &kills.at {
            if after == ply {
                procs[victim].kill();
                println!("{label}: process-{victim} killed before ply {ply}");
                down.push((victim, Instant::now()));
            }
        }
        down.retain(|&(victim, at)| {
            if at.elapsed() >= kills.back {
                procs[victim].start();
                println!("{label}: process-{victim} started again before ply {ply}");
                false
            } else {
                true
            }
        });
        let who = if ply.is_multiple_of(2) {
            game.red
        } else {
            game.black
        };
        hooks
            .post(&telegram.message_update(who, game.group, &format!("/move {mv}")))
            .await;
        committed.push(Instant::now());
    }
    let last = moves.len() - 1;
    telegram
        .wait_for("the board of the last move", HANG_FOR_START, |fake| {
            boards(fake, game.group)
                .iter()
                .any(|(_, caption)| names(caption, last))
        })
        .await;
    let boards = boards(&telegram, game.group);
    let lags: Vec<Duration> = committed
        .iter()
        .enumerate()
        .map(|(ply, at)| {
            let (arrived, _) = boards
                .iter()
                .find(|(_, caption)| names(caption, ply))
                .unwrap_or_else(|| panic!("no board named the move of ply {ply}"));
            arrived.saturating_duration_since(*at)
        })
        .collect();
    let during: Vec<_> = telegram.calls()[calls_before..]
        .iter()
        .filter(|c| c.chat() == Some(game.group))
        .cloned()
        .collect();
    let mut sorted = lags.clone();
    sorted.sort();
    let took = committed[last].saturating_duration_since(committed[0]);
    println!(
        "{label}: {} moves in {took:?} on {processes} process(es); {} calls to the group \
         ({:.2} a move; {} boards), {} refused for a limit; lag from a move to the first \
         board naming it: p50 {:?}, p99 {:?}, max {:?}",
        moves.len(),
        during.len(),
        during.len() as f64 / moves.len() as f64,
        boards.len(),
        telegram.throttled().len(),
        percentile(&sorted, 50),
        percentile(&sorted, 99),
        sorted[sorted.len() - 1],
    );
    let tenths: Vec<u128> = lags.iter().map(|lag| lag.as_millis() / 100).collect();
    println!("{label}: lag by move, in tenths of a second: {tenths:?}");
    for proc in &mut procs {
        proc.terminate();
    }
    assert!(
        telegram.throttled().is_empty(),
        "{label}: Telegram refused posts: {:?}\n{}",
        telegram.throttled(),
        timeline(&telegram, game.group, started.into_std())
    );
    let broken = telegram.limits_broken();
    assert!(broken.is_empty(), "{label}: {broken:#?}");
    let most_behind = if kills.at.is_empty() {
        MOST_BEHIND
    } else {
        MOST_BEHIND_WITH_KILLS
    };
    assert!(
        sorted[sorted.len() - 1] <= most_behind,
        "{label}: a board came {:?} after its move (lags by ply: {lags:?})",
        sorted[sorted.len() - 1]
    );
    assert!(
        during.len() <= moves.len(),
        "{label}: {} calls to the group for {} moves",
        during.len(),
        moves.len()
    );
    true
}

/// How long the start of a game (processes starting, the first board) may take.
const HANG_FOR_START: Duration = Duration::from_secs(120);

#[test]
fn a_fast_game_on_two_processes_keeps_within_the_groups_limit() {
    runtime().block_on(async {
        let kills = Kills {
            at: Vec::new(),
            back: Duration::ZERO,
        };
        fast_game(2, kills, "two processes").await;
    });
}

#[test]
fn a_fast_game_whose_lane_moves_between_processes_keeps_within_the_groups_limit() {
    runtime().block_on(async {
        // Each process killed in turn mid-game and started again 3 s later: the group's lane
        // moves to the other when the killed one's claim lapses.
        let kills = Kills {
            at: vec![(12, 0), (27, 1), (42, 0)],
            back: Duration::from_secs(3),
        };
        fast_game(2, kills, "two processes, kills").await;
    });
}

#[test]
fn a_fast_game_on_one_process_keeps_within_the_groups_limit() {
    runtime().block_on(async {
        let kills = Kills {
            at: Vec::new(),
            back: Duration::ZERO,
        };
        fast_game(1, kills, "one process").await;
    });
}
