//! One GUI session: the state machine between the lines the GUI sends and the lines the
//! engine answers.
//!
//! The search runs on its own thread, so that `isready` and `stop` are answered while it
//! thinks; `stop` raises the engine's cancel flag, which the search reads every few hundred
//! nodes, and the search answers `bestmove` with the best move found so far. Every line that
//! is not a command the session can act on is answered with `info string <why>` and
//! otherwise ignored: nothing a GUI sends can end the session but `quit` (or the end of its
//! input).

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::Duration;

use jieqi_engine::{Analysis, Engine, Line, Progress, Score};
use jieqi_rules::{GameMove, Move, Variant};

use crate::command::{Command, Go, PositionCommand, Start};
use crate::dialect::GuiPosition;
use crate::limits::{DEFAULT_MOVE_OVERHEAD, budget, level_of_skill};

/// Where the session writes its answers: one line at a time, flushed, shared with the search
/// thread.
#[derive(Clone)]
pub struct Sink(Arc<Mutex<Box<dyn Write + Send>>>);

impl std::fmt::Debug for Sink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Sink")
    }
}

impl Sink {
    /// A sink writing to `out`.
    pub fn new(out: Box<dyn Write + Send>) -> Sink {
        Sink(Arc::new(Mutex::new(out)))
    }

    /// Writes one line. A GUI that went away is no reason to panic: write errors are dropped.
    pub fn say(&self, line: &str) {
        let mut out = match self.0.lock() {
            Ok(out) => out,
            Err(poisoned) => poisoned.into_inner(),
        };
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    }
}

/// How the session starts, before the GUI sets options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// What `position startpos` means, and the game of a FEN without covered pieces
    /// (`UCI_Variant`).
    pub variant: Variant,
    /// Seed of the engine's random choices (below master), for reproducible games.
    pub seed: u64,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            variant: Variant::Xiangqi,
            seed: 1,
        }
    }
}

/// Whether the session goes on after a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next line.
    Continue,
    /// `quit` was read.
    Quit,
}

/// Options the GUI may set.
#[derive(Clone, Copy, Debug)]
struct Options {
    skill: u32,
    lines: usize,
    hash_mib: usize,
    threads: usize,
    variant: Variant,
    /// Time lost around each move outside the search, kept off the clock's share.
    move_overhead: Duration,
}

const MAX_LINES: usize = 16;
const MAX_HASH_MIB: usize = 128;
/// Search threads a GUI may ask for: more than the machine's cores only slows each down.
const MAX_THREADS: usize = 8;
/// The largest `Move Overhead`, in milliseconds.
const MAX_MOVE_OVERHEAD_MS: usize = 5_000;

/// A search in progress.
struct Running {
    handle: JoinHandle<Engine>,
    cancel: Arc<AtomicBool>,
    /// Raised just before the search writes `bestmove`: from then on it is over.
    answered: Arc<AtomicBool>,
}

/// A UCI session.
pub struct Session {
    sink: Sink,
    settings: Settings,
    options: Options,
    position: Result<GuiPosition, String>,
    engine: Option<Engine>,
    running: Option<Running>,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("settings", &self.settings)
            .field("options", &self.options)
            .field("searching", &self.running.is_some())
            .finish()
    }
}

impl Session {
    /// A session answering through `sink`.
    pub fn new(sink: Sink, settings: Settings) -> Session {
        Session {
            sink,
            settings,
            options: Options {
                skill: 20,
                lines: 1,
                hash_mib: 0,
                threads: 1,
                variant: settings.variant,
                move_overhead: DEFAULT_MOVE_OVERHEAD,
            },
            position: Ok(GuiPosition::start(settings.variant)),
            engine: None,
            running: None,
        }
    }

    /// Reads lines from `input` until `quit` or its end, then stops any search. Lines that are
    /// not UTF-8 are answered like any other unreadable line.
    pub fn run(&mut self, mut input: impl BufRead) {
        let mut bytes = Vec::new();
        loop {
            bytes.clear();
            match input.read_until(b'\n', &mut bytes) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            let line = String::from_utf8_lossy(&bytes);
            if self.handle(&line) == Flow::Quit {
                break;
            }
        }
        self.finish_search(true);
    }

    /// Acts on one line from the GUI.
    pub fn handle(&mut self, line: &str) -> Flow {
        let command = match Command::parse(line) {
            Ok(Some(command)) => command,
            Ok(None) => return Flow::Continue,
            Err(error) => {
                self.say_info(&error.to_string());
                return Flow::Continue;
            }
        };
        match command {
            Command::Uci => self.identify(),
            Command::IsReady => self.sink.say("readyok"),
            Command::Debug | Command::PonderHit => {}
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::NewGame => {
                self.finish_search(true);
                self.engine = None;
                self.position = Ok(GuiPosition::start(self.options.variant));
            }
            Command::Position(command) => self.set_position(&command),
            Command::Go(go) => self.go(go),
            Command::Stop => self.finish_search(true),
            Command::Quit => {
                self.finish_search(true);
                return Flow::Quit;
            }
        }
        Flow::Continue
    }

    fn say_info(&self, text: &str) {
        // One line per message, whatever the message holds.
        let text = text.replace(['\n', '\r'], " ");
        self.sink.say(&format!("info string {text}"));
    }

    fn identify(&self) {
        self.sink
            .say(concat!("id name jieqi-bot ", env!("CARGO_PKG_VERSION")));
        self.sink.say("id author the jieqi-bot developers");
        self.sink.say(&format!(
            "option name Hash type spin default 0 min 0 max {MAX_HASH_MIB}"
        ));
        self.sink.say(&format!(
            "option name Threads type spin default 1 min 1 max {MAX_THREADS}"
        ));
        self.sink.say(&format!(
            "option name MultiPV type spin default 1 min 1 max {MAX_LINES}"
        ));
        self.sink
            .say("option name Skill Level type spin default 20 min 0 max 20");
        self.sink.say(&format!(
            "option name UCI_Variant type combo default {} var xiangqi var jieqi",
            self.settings.variant.to_string().to_ascii_lowercase()
        ));
        self.sink.say(&format!(
            "option name Move Overhead type spin default {} min 0 max {MAX_MOVE_OVERHEAD_MS}",
            DEFAULT_MOVE_OVERHEAD.as_millis()
        ));
        self.sink.say("option name Clear Hash type button");
        self.sink.say("uciok");
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let number = |max: usize| -> Result<usize, String> {
            value
                .and_then(|v| v.trim().parse::<usize>().ok())
                .filter(|n| *n <= max)
                .ok_or_else(|| {
                    format!(
                        "option {name}: `{}` is not a whole number up to {max}",
                        crate::command::shorten(value.unwrap_or(""))
                    )
                })
        };
        let outcome = match name.to_ascii_lowercase().as_str() {
            "hash" => number(MAX_HASH_MIB).map(|n| self.options.hash_mib = n),
            "threads" => number(MAX_THREADS).map(|n| self.options.threads = n.max(1)),
            "multipv" => number(MAX_LINES).map(|n| self.options.lines = n.max(1)),
            "skill level" => number(20).map(|n| self.options.skill = n as u32),
            "move overhead" => number(MAX_MOVE_OVERHEAD_MS)
                .map(|n| self.options.move_overhead = Duration::from_millis(n as u64)),
            "uci_variant" => match value.map(|v| v.trim().to_ascii_lowercase()).as_deref() {
                Some("xiangqi") => {
                    self.options.variant = Variant::Xiangqi;
                    Ok(())
                }
                Some("jieqi") => {
                    self.options.variant = Variant::Jieqi;
                    Ok(())
                }
                _ => Err("option UCI_Variant: choose xiangqi or jieqi".to_owned()),
            },
            // The engine keeps its table and move history from move to move within a game;
            // this forgets them, as `ucinewgame` does.
            "clear hash" => {
                if self.searching() {
                    Err(
                        "option Clear Hash: the engine is still searching; send stop first"
                            .to_owned(),
                    )
                } else {
                    self.finish_search(false);
                    self.engine = None;
                    Ok(())
                }
            }
            _ => Err(format!(
                "no option named `{}`: the options are Hash, Threads, MultiPV, Skill Level, UCI_Variant, Move Overhead and Clear Hash",
                crate::command::shorten(name)
            )),
        };
        if let Err(problem) = outcome {
            self.say_info(&problem);
        }
    }

    fn set_position(&mut self, command: &PositionCommand) {
        let start = match &command.start {
            Start::StartPos => Ok(GuiPosition::start(self.options.variant)),
            Start::Fen(fen) => GuiPosition::from_fen(fen, self.options.variant),
        };
        let position = start.and_then(|mut pos| pos.play_all(&command.moves).map(|()| pos));
        self.position = position.map_err(|error| error.to_string());
        if let Err(problem) = &self.position {
            self.say_info(&format!("position ignored, {problem}"));
        }
    }

    /// Waits for the search thread, raising its cancel flag first if `cancel`.
    fn finish_search(&mut self, cancel: bool) {
        let Some(running) = self.running.take() else {
            return;
        };
        if cancel {
            running.cancel.store(true, Ordering::Relaxed);
        }
        running.handle.thread().unpark();
        match running.handle.join() {
            Ok(engine) => self.engine = Some(engine),
            Err(_) => {
                self.engine = None;
                self.say_info("the search failed; the engine starts afresh");
            }
        }
    }

    /// Whether a search is running that has not yet answered `bestmove`.
    fn searching(&self) -> bool {
        self.running
            .as_ref()
            .is_some_and(|running| !running.answered.load(Ordering::Acquire))
    }

    fn go(&mut self, go: Go) {
        if self.searching() {
            self.say_info("go ignored: the engine is still searching; send stop first");
            return;
        }
        self.finish_search(false);
        for word in &go.ignored {
            self.say_info(&format!("go: `{word}` is not supported and was ignored"));
        }
        let position = match &self.position {
            Ok(position) => position.clone(),
            Err(problem) => {
                self.say_info(&format!("no position to search ({problem})"));
                self.sink.say("bestmove (none)");
                return;
            }
        };
        let legal = position.legal_moves();
        if legal.is_empty() {
            self.sink.say("info depth 0 score mate 0");
            self.sink.say("bestmove (none)");
            return;
        }
        let level = level_of_skill(self.options.skill);
        let budget = budget(
            &go,
            level,
            position.side_to_move(),
            self.options.move_overhead,
        );
        let mut engine = match self.engine.take() {
            Some(engine) if engine.level() == level => engine,
            _ => Engine::new(level, self.settings.seed),
        };
        engine.set_budget(budget);
        let cancel = Arc::new(AtomicBool::new(false));
        let answered = Arc::new(AtomicBool::new(false));
        let search = Search {
            sink: self.sink.clone(),
            cancel: cancel.clone(),
            answered: answered.clone(),
            infinite: go.infinite,
            lines: self.options.lines,
            table_mib: (self.options.hash_mib > 0).then_some(self.options.hash_mib),
            threads: self.options.threads,
        };
        let view = position.view();
        let spawned = thread::Builder::new()
            .name("search".to_owned())
            .spawn(move || search.run(engine, &view, &legal));
        match spawned {
            Ok(handle) => {
                self.running = Some(Running {
                    handle,
                    cancel,
                    answered,
                })
            }
            Err(error) => {
                self.say_info(&format!("could not start the search: {error}"));
                self.sink.say("bestmove (none)");
            }
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        self.finish_search(true);
    }
}

/// What the search thread needs.
struct Search {
    sink: Sink,
    cancel: Arc<AtomicBool>,
    answered: Arc<AtomicBool>,
    infinite: bool,
    lines: usize,
    table_mib: Option<usize>,
    threads: usize,
}

impl Search {
    fn run(self, mut engine: Engine, view: &jieqi_rules::View, legal: &[GameMove]) -> Engine {
        let mut last: Option<Progress> = None;
        let sink = self.sink.clone();
        let mut report = |progress: &Progress| {
            for (i, line) in progress.lines.iter().enumerate() {
                sink.say(&info_line(progress, i + 1, line));
            }
            last = Some(progress.clone());
        };
        let chosen = engine.analyse(
            view,
            legal,
            Analysis {
                cancel: Some(self.cancel.clone()),
                lines: self.lines,
                table_mib: self.table_mib,
                threads: self.threads,
                on_iteration: Some(&mut report),
            },
        );
        if self.infinite {
            // `go infinite` answers only after `stop`, even if the search ended by itself.
            while !self.cancel.load(Ordering::Relaxed) {
                thread::park();
            }
        }
        self.answered.store(true, Ordering::Release);
        match chosen {
            Ok(GameMove::Board(mv)) => {
                // The search's last word: all the nodes it spent, and the line it played
                // (the last iteration's, if that is where the move came from).
                if let Some(info) = engine.last_search() {
                    let pv = last
                        .as_ref()
                        .and_then(|p| p.lines.first())
                        .filter(|l| l.pv.first() == Some(&mv))
                        .map_or_else(|| vec![mv], |l| l.pv.clone());
                    let progress = Progress {
                        depth: info.depth,
                        nodes: info.nodes,
                        elapsed: info.elapsed,
                        lines: vec![Line {
                            score: Score::from_value(info.score),
                            pv,
                        }],
                    };
                    self.sink.say(&info_line(&progress, 1, &progress.lines[0]));
                }
                self.sink.say(&format!("bestmove {mv}"));
            }
            Ok(GameMove::Banqi(_)) | Err(_) => self.sink.say("bestmove (none)"),
        }
        engine
    }
}

/// `info depth … multipv … score … nodes … nps … time … pv …`.
pub fn info_line(progress: &Progress, multipv: usize, line: &Line) -> String {
    let millis = progress.elapsed.as_millis();
    let nps = u128::from(progress.nodes) * 1000 / millis.max(1);
    let score = match line.score {
        Score::Centi(cp) => format!("cp {cp}"),
        // Plies to moves, as UCI counts them: mate in 3 plies is mate in 2 moves.
        Score::Mate(plies) if plies > 0 => format!("mate {}", (plies + 1) / 2),
        Score::Mate(plies) => format!("mate {}", plies / 2),
    };
    let pv: Vec<String> = line.pv.iter().map(Move::to_string).collect();
    format!(
        "info depth {} multipv {multipv} score {score} nodes {} nps {nps} time {millis} pv {}",
        progress.depth,
        progress.nodes,
        pv.join(" ")
    )
}
