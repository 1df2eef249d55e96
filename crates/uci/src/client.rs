//! A client for external UCI engines: start one as a child process, set its options, and ask
//! it for moves. `jieqi-bot match` plays the built-in levels against it through this.
//!
//! Every wait has a deadline, so a silent or crashed engine is an error, never a hang. The
//! engine is told only a position as one side knows it (for Jieqi, the dialect's FEN with the
//! pool of [`write_view_fen`](crate::dialect::write_view_fen)); it is never given the deal.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::thread;
use std::time::{Duration, Instant};

use thiserror::Error;

/// How long an engine may take to answer `uci` and `isready`.
const HANDSHAKE: Duration = Duration::from_secs(20);

/// Why an external engine could not be used.
#[derive(Debug, Error)]
pub enum ClientError {
    /// The program could not be started.
    #[error("could not start the engine `{path}`: {source}")]
    Spawn {
        /// The program.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// Writing to the engine failed (it has probably exited).
    #[error("the engine `{name}` stopped reading its input: {source}")]
    Write {
        /// The engine's name.
        name: String,
        /// Why.
        source: std::io::Error,
    },
    /// The engine did not answer in time, or closed its output.
    #[error("the engine `{name}` did not answer `{waiting_for}` within {} s", .within.as_secs())]
    Silent {
        /// The engine's name.
        name: String,
        /// The answer awaited.
        waiting_for: &'static str,
        /// The deadline.
        within: Duration,
    },
}

/// What an external engine answered to `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The move after `bestmove`, as written (`(none)` when it has none).
    pub bestmove: String,
    /// Nodes of the last `info` line that gave them.
    pub nodes: Option<u64>,
    /// Depth of the last `info` line that gave it.
    pub depth: Option<u32>,
}

/// A running external engine.
#[derive(Debug)]
pub struct ExternalEngine {
    name: String,
    child: Child,
    input: ChildStdin,
    lines: Receiver<String>,
}

impl ExternalEngine {
    /// Starts `program` with `args`, says `uci`, sets `options` (name, value) and waits until
    /// it is ready.
    pub fn start(
        program: &Path,
        args: &[String],
        options: &[(String, String)],
    ) -> Result<ExternalEngine, ClientError> {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|source| ClientError::Spawn {
                path: program.to_owned(),
                source,
            })?;
        let (Some(input), Some(output)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            return Err(ClientError::Spawn {
                path: program.to_owned(),
                source: std::io::Error::other("no pipes to the engine"),
            });
        };
        let (sender, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(output).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let mut engine = ExternalEngine {
            name: program.display().to_string(),
            child,
            input,
            lines,
        };
        engine.send("uci")?;
        engine.wait_for("uciok", HANDSHAKE, |line, name| {
            if let Some(id) = line.strip_prefix("id name ") {
                *name = id.trim().to_owned();
            }
        })?;
        for (name, value) in options {
            engine.send(&format!("setoption name {name} value {value}"))?;
        }
        engine.ready()?;
        Ok(engine)
    }

    /// The name the engine gave (`id name`), or its program.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), ClientError> {
        writeln!(self.input, "{line}")
            .and_then(|()| self.input.flush())
            .map_err(|source| ClientError::Write {
                name: self.name.clone(),
                source,
            })
    }

    /// `ucinewgame`, then waits until it is ready.
    pub fn new_game(&mut self) -> Result<(), ClientError> {
        self.send("ucinewgame")?;
        self.ready()
    }

    fn ready(&mut self) -> Result<(), ClientError> {
        self.send("isready")?;
        self.wait_for("readyok", HANDSHAKE, |_, _| {})
    }

    /// Sets the position to `fen` followed by `moves` (already in the engine's notation; an
    /// engine that knows the moves since the last capture can see repetitions coming) and
    /// sends `go <limits>` (e.g. `nodes 20000` or `movetime 200`); waits at most `within` for
    /// `bestmove`.
    pub fn best_move(
        &mut self,
        fen: &str,
        moves: &[String],
        limits: &str,
        within: Duration,
    ) -> Result<Answer, ClientError> {
        if moves.is_empty() {
            self.send(&format!("position fen {fen}"))?;
        } else {
            self.send(&format!("position fen {fen} moves {}", moves.join(" ")))?;
        }
        self.send(format!("go {limits}").trim_end())?;
        let mut nodes = None;
        let mut depth = None;
        let deadline = Instant::now() + within;
        loop {
            let line = self.next_line(deadline, "bestmove", within)?;
            if let Some(rest) = line.strip_prefix("bestmove") {
                let bestmove = rest
                    .split_whitespace()
                    .next()
                    .unwrap_or("(none)")
                    .to_owned();
                return Ok(Answer {
                    bestmove,
                    nodes,
                    depth,
                });
            }
            if line.starts_with("info") {
                let words: Vec<&str> = line.split_whitespace().collect();
                for pair in words.windows(2) {
                    match pair[0] {
                        "nodes" => nodes = pair[1].parse().ok().or(nodes),
                        "depth" => depth = pair[1].parse().ok().or(depth),
                        _ => {}
                    }
                }
            }
        }
    }

    fn wait_for(
        &mut self,
        answer: &'static str,
        within: Duration,
        mut seen: impl FnMut(&str, &mut String),
    ) -> Result<(), ClientError> {
        let deadline = Instant::now() + within;
        loop {
            let line = self.next_line(deadline, answer, within)?;
            if line.trim() == answer {
                return Ok(());
            }
            seen(&line, &mut self.name);
        }
    }

    fn next_line(
        &mut self,
        deadline: Instant,
        waiting_for: &'static str,
        within: Duration,
    ) -> Result<String, ClientError> {
        let left = deadline.saturating_duration_since(Instant::now());
        // A timeout and a closed output (the engine exited) are the same to the match.
        self.lines
            .recv_timeout(left)
            .map_err(|_| ClientError::Silent {
                name: self.name.clone(),
                waiting_for,
                within,
            })
    }
}

impl Drop for ExternalEngine {
    fn drop(&mut self) {
        let _ = self.send("quit");
        // A polite engine exits at once; one that does not is stopped.
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
