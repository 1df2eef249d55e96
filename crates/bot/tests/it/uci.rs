//! `jieqi-bot uci` through the real binary, as a GUI drives it, and `jieqi-bot match` against
//! the binary as an external UCI engine.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_jieqi-bot");

/// A hang guard only: tests never assert timings.
const HANG_GUARD: Duration = Duration::from_secs(60);

/// `jieqi-bot match ARGS...` to its end; it must succeed. Its standard output.
fn run_match(args: &[&str]) -> String {
    let output = Command::new(BIN)
        .arg("match")
        .args(args)
        .output()
        .expect("match runs");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

struct Engine {
    child: Child,
    input: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start(args: &[&str]) -> Engine {
        let mut child = Command::new(BIN)
            .arg("uci")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the binary starts");
        let input = child.stdin.take().expect("stdin");
        let output = child.stdout.take().expect("stdout");
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(output).lines().map_while(Result::ok) {
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            input,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.input, "{line}").expect("the engine reads");
        self.input.flush().expect("flushed");
    }

    fn until(&self, prefix: &str) -> Vec<String> {
        let deadline = Instant::now() + HANG_GUARD;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self
                .lines
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("no `{prefix}` after {seen:?}"));
            let done = line.starts_with(prefix);
            seen.push(line);
            if done {
                return seen;
            }
        }
    }

    fn quit(mut self) {
        self.send("quit");
        let deadline = Instant::now() + HANG_GUARD;
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                assert!(status.success(), "{status}");
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        panic!("the engine did not quit");
    }
}

fn bestmove(lines: &[String]) -> String {
    lines
        .last()
        .and_then(|l| l.strip_prefix("bestmove "))
        .unwrap_or_else(|| panic!("no bestmove in {lines:?}"))
        .to_owned()
}

/// The sorted legal moves of a FEN, by the binary's own `moves` command.
fn legal_moves(fen: &str, variant: &str) -> Vec<String> {
    let output = Command::new(BIN)
        .args(["moves", "--variant", variant, "--fen", fen])
        .output()
        .expect("moves runs");
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|l| l.trim().to_owned())
        .collect()
}

#[test]
fn a_xiangqi_gui_session_over_the_binary() {
    let mut engine = Engine::start(&[]);
    engine.send("uci");
    let hello = engine.until("uciok");
    assert!(hello.iter().any(|l| l.starts_with("id name jieqi-bot")));
    assert!(
        hello
            .iter()
            .any(|l| l.starts_with("option name Skill Level"))
    );
    engine.send("isready");
    engine.until("readyok");
    engine.send("ucinewgame");
    engine.send("position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves h2e2");
    engine.send("go depth 3");
    let lines = engine.until("bestmove");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info depth 3 ") && l.contains(" pv "))
    );
    let after = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";
    assert!(legal_moves(after, "xiangqi").contains(&bestmove(&lines)));
    engine.send("flip the board");
    assert!(engine.until("info string")[0].contains("unknown command"));
    engine.quit();
}

#[test]
fn a_jieqi_gui_session_in_the_pikafish_dialect() {
    let mut engine = Engine::start(&["--variant", "jieqi"]);
    engine.send("uci");
    engine.until("uciok");
    engine.send("isready");
    engine.until("readyok");
    engine.send(
        "position fen xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w A2B2N2R2C2P5a2b2n2r2c2p5 0 1 moves e3e4r e6e5p",
    );
    engine.send("go nodes 3000");
    let lines = engine.until("bestmove");
    assert!(lines.iter().any(|l| l.starts_with("info depth")));
    // The same position in our own FEN: the legal moves do not depend on the reveals' types
    // beyond the pieces shown.
    let ours = "xxxxkxxxx/9/1x5x1/x1x3x1x/4p4/4R4/X1X3X1X/1X5X1/9/XXXXKXXXX w - - 0 2";
    assert!(legal_moves(ours, "jieqi").contains(&bestmove(&lines)));
    // A reveal without its letter is refused, and said so.
    engine.send("position startpos moves e3e4");
    assert!(engine.until("info string")[0].contains("fifth letter"));
    engine.quit();
}

#[test]
fn stop_answers_an_infinite_search() {
    let mut engine = Engine::start(&["--variant", "jieqi"]);
    engine.send("position startpos");
    engine.send("go infinite");
    engine.until("info depth 2");
    engine.send("isready");
    let meanwhile = engine.until("readyok");
    assert!(meanwhile.iter().all(|l| !l.starts_with("bestmove")));
    engine.send("stop");
    let end = engine.until("bestmove");
    assert!(!bestmove(&end).starts_with("(none)"));
    engine.quit();
}

#[test]
fn a_level_plays_the_binary_over_uci_and_the_records_are_written() {
    let records = tempfile::tempdir().expect("a folder");
    let stdout = run_match(&[
        "--variant",
        "jieqi",
        "--red",
        "casual",
        "--black",
        &format!("uci:{BIN} uci --seed 5"),
        "--black-option",
        "Skill Level=20",
        "--uci-nodes",
        "1500",
        "--games",
        "2",
        "--max-plies",
        "40",
        "--records",
        &records.path().display().to_string(),
    ]);
    assert!(
        stdout.contains("casual vs uci:jieqi-bot (jieqi, 2 games"),
        "{stdout}"
    );
    for game in ["game-001.txt", "game-002.txt"] {
        let record = std::fs::read_to_string(records.path().join(game)).expect("a record");
        assert!(record.contains("[Variant \"jieqi\"]"), "{record}");
        assert!(record.contains("[Result \""), "{record}");
        assert!(record.lines().any(|l| l.starts_with("1. ")), "{record}");
    }
    // Colours are swapped per deal.
    let first = std::fs::read_to_string(records.path().join("game-001.txt")).expect("record");
    let second = std::fs::read_to_string(records.path().join("game-002.txt")).expect("record");
    assert!(first.contains("[Red \"casual\"]") && second.contains("[Black \"casual\"]"));
}

/// `--sprt`: a match whose games settle the question early stops there, says which
/// hypothesis it accepted, and counts only the games it played.
#[test]
fn a_match_under_sprt_stops_once_the_games_settle_it() {
    let stdout = run_match(&[
        "--variant",
        "xiangqi",
        "--red",
        "club",
        "--black",
        "random",
        "--nodes-scale",
        "0.1",
        "--games",
        "200",
        "--max-plies",
        "200",
        "--sprt",
        "0,50",
    ]);
    let sprt = stdout
        .lines()
        .find(|l| l.starts_with("SPRT +0/+50 Elo: "))
        .unwrap_or_else(|| panic!("no SPRT line in {stdout}"));
    assert!(sprt.contains("H1 accepted"), "{sprt}");
    // Club beats a random mover nearly every game, so a handful of pairs settle it.
    let played: u32 = stdout
        .split_once("(xiangqi, ")
        .and_then(|(_, rest)| rest.split_once(" games"))
        .and_then(|(n, _)| n.parse().ok())
        .unwrap_or_else(|| panic!("no game count in {stdout}"));
    assert!(
        played.is_multiple_of(2) && played < 40,
        "{played} games: {stdout}"
    );
    let pairs = format!("{} pairs", played / 2);
    assert!(sprt.contains(&pairs), "{sprt}");
}

/// A malformed `--sprt` is refused before any game, naming what is wrong.
#[test]
fn a_match_refuses_hypotheses_out_of_order() {
    let output = Command::new(BIN)
        .args([
            "match", "--red", "random", "--black", "random", "--sprt", "10,0",
        ])
        .output()
        .expect("match runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert!(stderr.contains("ELO0 must be below ELO1"), "{stderr}");
    assert!(output.stdout.is_empty());
}

/// `jieqi-bot match ... | head`: the reader takes one line and closes the pipe; the match
/// stops at its next line, quietly and successfully, instead of panicking.
#[test]
fn a_match_whose_reader_closes_the_pipe_stops_quietly() {
    let mut child = Command::new(BIN)
        .args([
            "match",
            "--red",
            "random",
            "--black",
            "random",
            "--games",
            // Far more lines than a pipe holds, so the match is still writing when the
            // reader goes.
            "20000",
            "--max-plies",
            "4",
            "--verbose",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("match runs");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let mut first = String::new();
    stdout.read_line(&mut first).expect("a line");
    assert!(first.starts_with("game"), "{first}");
    drop(stdout);
    let output = child.wait_with_output().expect("the match ends");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{:?}: {stderr}", output.status);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(!stderr.contains("error"), "{stderr}");
}

#[test]
fn a_xiangqi_match_tells_the_engine_its_moves_and_opens_each_pair_alike() {
    let records = tempfile::tempdir().expect("a folder");
    run_match(&[
        "--variant",
        "xiangqi",
        "--red",
        &format!("uci:{BIN} uci"),
        "--black",
        "novice",
        "--uci-nodes",
        "800",
        "--games",
        "2",
        "--opening-plies",
        "4",
        "--max-plies",
        "30",
        "--records",
        &records.path().display().to_string(),
    ]);
    let opening = |game: &str| -> Vec<String> {
        let record = std::fs::read_to_string(records.path().join(game)).expect("a record");
        // The engine was told the start and the moves; had it misread them it would have
        // answered a move the game refuses and lost by it.
        assert!(!record.contains("illegal move"), "{record}");
        record
            .lines()
            .filter(|l| l.starts_with("1. ") || l.starts_with("2. "))
            .map(str::to_owned)
            .collect()
    };
    let first = opening("game-001.txt");
    assert_eq!(first.len(), 2, "{first:?}");
    assert_eq!(first, opening("game-002.txt"));
}
