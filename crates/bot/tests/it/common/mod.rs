//! Driving the real `jieqi-bot local` binary as a child process: send lines, read what it
//! prints, wait for `[ack N]`.

#![allow(dead_code)] // each test file uses a different part

pub mod procs;

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// How long one line may take (a debug build draws pictures slowly).
pub const LINE_TIMEOUT: Duration = Duration::from_secs(120);

/// A Jieqi game in which every move is deal-independent: each moves a covered piece from its
/// start square as its starting type, to a square from which no piece, whatever it turns out
/// to be, attacks a general. Two are captures of covered pieces (private reveals).
pub const GAME: [(&str, &str); 14] = [
    ("alice", "b2b9"),
    ("bob", "h7h0"),
    ("alice", "a3a4"),
    ("bob", "a6a5"),
    ("alice", "g3g4"),
    ("bob", "c6c5"),
    ("alice", "i3i4"),
    ("bob", "g6g5"),
    ("alice", "c3c4"),
    ("bob", "i6i5"),
    ("alice", "a0a1"),
    ("bob", "a9a8"),
    ("alice", "i0i1"),
    ("bob", "i9i8"),
];

/// The opening and every move of [`GAME`], one line each.
pub fn game_script() -> Vec<String> {
    let mut lines = vec![
        "alice: /challenge @bob jieqi red".to_owned(),
        "bob: /accept".to_owned(),
    ];
    lines.extend(GAME.iter().map(|(who, mv)| format!("{who}: /move {mv}")));
    lines
}

/// A running `jieqi-bot local --ack`.
pub struct Local {
    pub child: Child,
    stdin: Option<ChildStdin>,
    output: Receiver<String>,
    /// Every line printed so far.
    pub printed: Vec<String>,
}

impl Local {
    /// Starts the binary on `data` (pictures in `out`) with extra arguments.
    pub fn start(data: &Path, out: &Path, extra: &[&str]) -> Local {
        let mut command = Command::new(env!("CARGO_BIN_EXE_jieqi-bot"));
        command
            .arg("local")
            .arg("--data")
            .arg(data)
            .arg("--out")
            .arg(out)
            .arg("--ack")
            .args(extra)
            .env_remove("DISCORD_TOKEN")
            .env_remove("TELEGRAM_TOKEN")
            .env_remove("DATA_DIR")
            .env("RUST_LOG", "warn")
            .current_dir(data.parent().unwrap_or(data))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        let mut child = command.spawn().expect("the binary starts");
        let stdout = child.stdout.take().expect("stdout is piped");
        let (sender, output) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Local {
            child,
            stdin,
            output,
            printed: Vec::new(),
        }
    }

    /// Sends lines without waiting.
    pub fn send(&mut self, lines: &[String]) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        for line in lines {
            writeln!(stdin, "{line}").expect("the binary reads its input");
        }
        stdin.flush().expect("the binary reads its input");
    }

    /// Sends one line and returns what was printed up to its `[ack N]`, and N.
    pub fn say(&mut self, line: &str) -> (u64, Vec<String>) {
        self.send(&[line.to_owned()]);
        self.until_ack()
    }

    /// The lines printed up to the next `[ack N]`, and N.
    pub fn until_ack(&mut self) -> (u64, Vec<String>) {
        let mut segment = Vec::new();
        let deadline = Instant::now() + LINE_TIMEOUT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self.output.recv_timeout(left).unwrap_or_else(|error| {
                panic!("no [ack] within {LINE_TIMEOUT:?} ({error}); printed so far: {segment:#?}")
            });
            self.printed.push(line.clone());
            if let Some(n) = ack_number(&line) {
                return (n, segment);
            }
            segment.push(line);
        }
    }

    /// Like [`Local::until_ack`], but `None` if the process ends first.
    pub fn until_ack_or_end(&mut self) -> Option<u64> {
        loop {
            let line = self.next_line(LINE_TIMEOUT).ok()?;
            if let Some(n) = ack_number(&line) {
                return Some(n);
            }
        }
    }

    /// Waits for the next printed line, if one comes within `timeout`.
    pub fn next_line(&mut self, timeout: Duration) -> Result<String, RecvTimeoutError> {
        let line = self.output.recv_timeout(timeout)?;
        self.printed.push(line.clone());
        Ok(line)
    }

    /// Closes the input (end of the script) and waits for the exit, collecting the rest.
    pub fn finish(mut self) -> (ExitStatus, Vec<String>) {
        drop(self.stdin.take());
        self.drain_and_wait()
    }

    /// SIGKILL (on unix), then collects whatever was printed before it.
    pub fn kill(mut self) -> (ExitStatus, Vec<String>) {
        let _ = self.child.kill();
        drop(self.stdin.take());
        self.drain_and_wait()
    }

    /// Waits for the process to stop by itself with its input still open (after a signal).
    pub fn finish_after_signal(mut self) -> (ExitStatus, Vec<String>) {
        let deadline = Instant::now() + LINE_TIMEOUT;
        while self
            .child
            .try_wait()
            .expect("the binary can be waited for")
            .is_none()
        {
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("the binary did not stop within {LINE_TIMEOUT:?} of the signal");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        drop(self.stdin.take());
        self.drain_and_wait()
    }

    fn drain_and_wait(mut self) -> (ExitStatus, Vec<String>) {
        let status = self.child.wait().expect("the binary can be waited for");
        // The reader thread ends at end of file, once the process is gone.
        while let Ok(line) = self.output.recv_timeout(LINE_TIMEOUT) {
            self.printed.push(line);
        }
        (status, self.printed)
    }
}

/// `Some(N)` for an `[ack N]` line.
pub fn ack_number(line: &str) -> Option<u64> {
    line.strip_prefix("[ack ")?.strip_suffix(']')?.parse().ok()
}

/// The lines with this tag (`[chat]`, `[dm alice]`, `[to bob]`).
pub fn tagged<'a>(lines: &'a [String], tag: &str) -> Vec<&'a str> {
    lines
        .iter()
        .filter_map(|line| line.strip_prefix(tag))
        .map(str::trim_start)
        .collect()
}

/// The picture paths printed with this tag.
pub fn pictures<'a>(lines: &'a [String], tag: &str) -> Vec<&'a str> {
    tagged(lines, tag)
        .into_iter()
        .filter_map(|rest| rest.strip_prefix("picture: "))
        .collect()
}
