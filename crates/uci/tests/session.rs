//! Scripted GUI sessions: what a GUI sends, line by line, and what the session answers.

use std::io::Write;
use std::sync::mpsc::{self, Receiver, Sender};
use std::time::{Duration, Instant};

use jieqi_engine::{Budget, Engine, Level};
use jieqi_rules::{Game, GameDeal, GameMove, Preset, Rules, Side, Variant, Viewer};
use jieqi_uci::dialect::{GuiPosition, write_view_fen};
use jieqi_uci::{Flow, Session, Settings, Sink};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Hands each written line to the test as it is written.
struct Lines {
    pending: Vec<u8>,
    out: Sender<String>,
}

impl Write for Lines {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.pending.extend_from_slice(buf);
        while let Some(end) = self.pending.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.pending.drain(..=end).collect();
            let _ = self
                .out
                .send(String::from_utf8_lossy(&line).trim_end().to_owned());
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Generous: only a hang guard, never a timing assertion.
const HANG_GUARD: Duration = Duration::from_secs(30);

struct Gui {
    session: Session,
    answers: Receiver<String>,
}

impl Gui {
    fn new(variant: Variant) -> Gui {
        let (out, answers) = mpsc::channel();
        let sink = Sink::new(Box::new(Lines {
            pending: Vec::new(),
            out,
        }));
        let session = Session::new(sink, Settings { variant, seed: 1 });
        Gui { session, answers }
    }

    fn send(&mut self, line: &str) -> Flow {
        self.session.handle(line)
    }

    /// Answers up to and including the first line starting with `prefix`.
    fn until(&self, prefix: &str) -> Vec<String> {
        let deadline = Instant::now() + HANG_GUARD;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self
                .answers
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("no `{prefix}` after {lines:?}"));
            let done = line.starts_with(prefix);
            lines.push(line);
            if done {
                return lines;
            }
        }
    }

    /// Everything answered so far, without waiting.
    fn drain(&self) -> Vec<String> {
        self.answers.try_iter().collect()
    }
}

fn bestmove(lines: &[String]) -> String {
    lines
        .last()
        .and_then(|l| l.strip_prefix("bestmove "))
        .unwrap_or_else(|| panic!("no bestmove in {lines:?}"))
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .to_owned()
}

#[test]
fn xiangqi_transcript() {
    let mut gui = Gui::new(Variant::Xiangqi);
    gui.send("uci");
    let hello = gui.until("uciok");
    assert!(hello[0].starts_with("id name jieqi-bot"));
    for option in ["Hash", "Threads", "MultiPV", "Skill Level", "UCI_Variant"] {
        assert!(
            hello
                .iter()
                .any(|l| l.starts_with(&format!("option name {option} type"))),
            "{option} in {hello:?}"
        );
    }
    gui.send("isready");
    assert_eq!(gui.until("readyok"), ["readyok"]);
    gui.send("ucinewgame");
    gui.send("position startpos moves h2e2 h9g7");
    gui.send("go depth 3");
    let thinking = gui.until("bestmove");
    let infos: Vec<&String> = thinking
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert!(infos.len() >= 3, "{thinking:?}");
    for info in &infos {
        for word in [" score ", " nodes ", " nps ", " time ", " pv "] {
            assert!(info.contains(word), "{info}");
        }
    }
    assert!(infos.iter().any(|l| l.starts_with("info depth 3 ")));
    let mut pos = GuiPosition::start(Variant::Xiangqi);
    pos.play_all(&["h2e2".to_owned(), "h9g7".to_owned()])
        .expect("moves");
    let best = bestmove(&thinking);
    assert!(
        pos.legal_moves().iter().any(|m| m.to_string() == best),
        "{best}"
    );
    gui.send("setoption name MultiPV value 3");
    gui.send("position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
    gui.send("go nodes 20000");
    let lines = gui.until("bestmove");
    for k in 1..=3 {
        assert!(
            lines.iter().any(|l| l.contains(&format!(" multipv {k} "))),
            "{lines:?}"
        );
    }
    assert_eq!(gui.send("quit"), Flow::Quit);
}

#[test]
fn jieqi_transcript_in_the_pikafish_dialect() {
    let mut gui = Gui::new(Variant::Xiangqi);
    gui.send("uci");
    gui.until("uciok");
    gui.send("setoption name UCI_Variant value jieqi");
    gui.send("isready");
    gui.until("readyok");
    // The start, then a reveal each; Black's also takes a covered piece and names it.
    gui.send("position startpos moves b2b9n h7h0cr");
    gui.send("go nodes 5000");
    let lines = gui.until("bestmove");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth")),
        "{lines:?}"
    );
    let mut pos = GuiPosition::start(Variant::Jieqi);
    pos.play_all(&["b2b9n".to_owned(), "h7h0cr".to_owned()])
        .expect("moves");
    let best = bestmove(&lines);
    assert!(
        pos.legal_moves().iter().any(|m| m.to_string() == best),
        "{best}"
    );
    // JieqiBox's form: the five-field FEN with the pool, and plain moves since.
    gui.send(
        "position fen xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w A2B2N2R2C2P5a2b2n2r2c2p5 0 1",
    );
    gui.send("go movetime 100");
    let lines = gui.until("bestmove");
    let best = bestmove(&lines);
    assert!(
        GuiPosition::start(Variant::Jieqi)
            .legal_moves()
            .iter()
            .any(|m| m.to_string() == best),
        "{best}"
    );
    gui.send("quit");
}

#[test]
fn stop_ends_an_infinite_search_with_a_bestmove() {
    let mut gui = Gui::new(Variant::Jieqi);
    gui.send("position startpos");
    gui.send("go infinite");
    // It is thinking: the first iterations come, and isready is answered meanwhile.
    gui.until("info depth 2");
    gui.send("isready");
    let meanwhile = gui.until("readyok");
    assert!(
        meanwhile.iter().all(|l| !l.starts_with("bestmove")),
        "{meanwhile:?}"
    );
    // Without stop it would go on for as long as the machine lasts.
    gui.send("go depth 1");
    assert!(
        gui.until("info string")
            .last()
            .is_some_and(|l| l.contains("still searching"))
    );
    gui.send("stop");
    let end = gui.until("bestmove");
    assert!(!bestmove(&end).is_empty());
    gui.send("stop");
    gui.send("isready");
    assert_eq!(gui.until("readyok"), ["readyok"]);
}

#[test]
fn two_threads_search_until_stop_and_answer_a_legal_move() {
    let mut gui = Gui::new(Variant::Jieqi);
    gui.send("setoption name Threads value 2");
    gui.send("isready");
    // The option is taken: no `info string` refusing it comes before readyok.
    assert_eq!(gui.until("readyok"), ["readyok"]);
    gui.send("position startpos");
    gui.send("go infinite");
    gui.until("info depth 3");
    gui.send("stop");
    let end = gui.until("bestmove");
    let best = bestmove(&end);
    assert!(
        GuiPosition::start(Variant::Jieqi)
            .legal_moves()
            .iter()
            .any(|m| m.to_string() == best),
        "{end:?}"
    );
    gui.send("setoption name Threads value 9");
    assert!(gui.until("info string")[0].contains("up to 8"));
}

#[test]
fn infinite_waits_for_stop_even_when_the_search_ends_by_itself() {
    let mut gui = Gui::new(Variant::Xiangqi);
    // Red mates in one (Re7-d7): the search ends as soon as it sees it.
    gui.send("position fen 3k5/9/4R4/9/9/9/9/9/9/4K4 w - - 0 1");
    gui.send("go infinite");
    gui.send("isready");
    let before = gui.until("readyok");
    assert!(
        before.iter().all(|l| !l.starts_with("bestmove")),
        "{before:?}"
    );
    std::thread::sleep(Duration::from_millis(50));
    assert!(gui.drain().iter().all(|l| !l.starts_with("bestmove")));
    gui.send("stop");
    assert_eq!(bestmove(&gui.until("bestmove")), "e7d7");
}

/// The search lines of `go nodes 20000` from `position`, without the clock's figures (time,
/// nps), which differ from run to run.
fn searched(gui: &mut Gui, position: &str) -> Vec<String> {
    gui.send(position);
    gui.send("go nodes 20000");
    gui.until("bestmove")
        .into_iter()
        .map(|line| {
            let mut words = line.split(' ');
            let mut kept = Vec::new();
            while let Some(word) = words.next() {
                if word == "time" || word == "nps" {
                    words.next();
                } else {
                    kept.push(word);
                }
            }
            kept.join(" ")
        })
        .collect()
}

#[test]
fn clear_hash_forgets_what_the_searches_of_earlier_moves_learnt() {
    let first = "position startpos moves h2e2 h9g7";
    let second = "position startpos moves h2e2 h9g7 h0g2 i9h9";
    let fresh = searched(&mut Gui::new(Variant::Xiangqi), second);

    let mut remembering = Gui::new(Variant::Xiangqi);
    searched(&mut remembering, first);
    let remembered = searched(&mut remembering, second);
    assert_ne!(
        remembered, fresh,
        "the table and history carry over to the next move"
    );

    let mut clearing = Gui::new(Variant::Xiangqi);
    searched(&mut clearing, first);
    clearing.send("setoption name Clear Hash");
    assert_eq!(searched(&mut clearing, second), fresh);
}

#[test]
fn malformed_and_unknown_lines_are_answered_and_ignored() {
    let mut gui = Gui::new(Variant::Xiangqi);
    for line in [
        "xyzzy",
        "go depth many",
        "setoption name Hash value lots",
        "setoption name Threads value 99",
        "setoption name Colour value blue",
        "setoption name UCI_Variant value banqi",
        "position",
        "position fen 9/9/9 w - - 0 1",
        "position startpos moves h2e2 h2e2",
        "position fen xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w A2B2N2R2C2P4a2b2n2r2c2p5 0 1",
        "position fen xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w A2B2N2R2C2P5a2b2n2r2c2p5 0 1 moves e3e4",
    ] {
        assert_eq!(gui.send(line), Flow::Continue, "{line}");
        let answer = gui.until("info string");
        assert_eq!(answer.len(), 1, "{line}: {answer:?}");
    }
    // The last position was refused: go says so, and still answers bestmove.
    gui.send("go depth 1");
    let lines = gui.until("bestmove");
    assert_eq!(lines.last().map(String::as_str), Some("bestmove (none)"));
    // A good position afterwards works as ever.
    gui.send("position startpos");
    gui.send("go depth 2");
    assert_ne!(bestmove(&gui.until("bestmove")), "(none)");
    // A mated side has no move.
    gui.send("position fen 3k5/3R5/3R5/9/9/9/9/9/9/4K4 b - - 0 1");
    gui.send("go depth 3");
    assert_eq!(bestmove(&gui.until("bestmove")), "(none)");
}

/// The same engine, level and node budget choose the same move over UCI as in-process, along
/// seeded games of both kinds; for Jieqi the session is told only the mover's own view.
#[test]
fn fixed_nodes_over_uci_choose_the_in_process_move() {
    const NODES: u64 = 4_000;
    for (variant, skill, level) in [
        (Variant::Xiangqi, 20, Level::Master),
        (Variant::Jieqi, 20, Level::Master),
        (Variant::Jieqi, 13, Level::Club),
    ] {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let deal = GameDeal::shuffled(variant, &mut |n| rng.gen_range(0..n.max(1)));
        let mut game = Game::new(Rules::new(variant, Preset::Standard), deal).expect("game");
        let mut gui = Gui::new(variant);
        gui.send(&format!("setoption name Skill Level value {skill}"));
        for _ in 0..12 {
            if game.outcome().is_some() {
                break;
            }
            let side: Side = game.side_to_move().expect("side");
            let view = game.view(Viewer::Player(side));
            let legal = game.legal_moves();
            let budget = Budget {
                nodes: NODES,
                movetime: jieqi_uci::limits::UNLIMITED_TIME,
                ..level.budget()
            };
            let mut engine = Engine::with_budget(level, budget, 1);
            let expected = engine.choose(&view, &legal).expect("a move");
            gui.send("ucinewgame");
            gui.send(&format!("position fen {}", write_view_fen(&view)));
            gui.send(&format!("go nodes {NODES}"));
            let answer = bestmove(&gui.until("bestmove"));
            assert_eq!(answer, expected.to_string(), "{variant} ply {}", game.ply());
            // Play on with a random move, to see many kinds of position.
            let next: GameMove = legal[rng.gen_range(0..legal.len())];
            game.play(next).expect("legal");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Whatever a GUI sends, the session goes on (and answers `isready`).
    #[test]
    fn random_lines_never_break_the_session(
        lines in proptest::collection::vec(
            prop_oneof![
                "\\PC{0,40}",
                "(position|go|setoption|uci|isready|stop|ucinewgame|debug) [a-z0-9 /=-]{0,30}",
                "position (startpos|fen [xXkK1-9/]{1,30} [wb] [A-Za-z0-9-]{0,12} [0-9] [0-9]) moves( [a-i][0-9][a-i][0-9][a-zA-Z]{0,2}){0,4}",
                "go (depth [0-3]|nodes [0-9]{1,3}|movetime [0-9]{1,2})",
            ],
            1..8,
        )
    ) {
        let mut gui = Gui::new(Variant::Xiangqi);
        for line in &lines {
            prop_assert_eq!(gui.send(line), Flow::Continue);
        }
        gui.send("stop");
        gui.send("isready");
        gui.until("readyok");
    }
}

#[test]
fn a_byo_yomi_clock_and_a_move_overhead_are_understood() {
    let mut gui = Gui::new(Variant::Xiangqi);
    gui.send("uci");
    let hello = gui.until("uciok");
    assert!(
        hello.iter().any(
            |l| l.starts_with("option name Move Overhead type spin default 100 min 0 max 5000")
        ),
        "{hello:?}"
    );
    gui.send("setoption name Move Overhead value 30");
    gui.send("setoption name Move Overhead value 5001");
    gui.send("isready");
    let answers = gui.until("readyok");
    assert_eq!(
        answers,
        [
            "info string option Move Overhead: `5001` is not a whole number up to 5000",
            "readyok"
        ]
    );
    gui.send("position startpos");
    gui.send("go wtime 0 btime 0 byoyomi 300");
    let lines = gui.until("bestmove");
    assert!(
        !lines.iter().any(|l| l.starts_with("info string")),
        "{lines:?}"
    );
    let best = bestmove(&lines);
    assert!(
        GuiPosition::start(Variant::Xiangqi)
            .legal_moves()
            .iter()
            .any(|m| m.to_string() == best),
        "{best}"
    );
    gui.send("quit");
}
