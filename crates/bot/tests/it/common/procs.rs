//! Real `jieqi-bot run` processes for the operations tests: started with a given
//! environment (and nothing else of the caller's), killed with SIGKILL, started again,
//! stopped with SIGTERM. Each process's stderr is appended to a log file of its own.

use std::fs::OpenOptions;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// Every configuration key `run` reads: removed from the inherited environment so that only
/// what a test sets counts.
pub const KEYS: &[&str] = &[
    "DISCORD_TOKEN",
    "TELEGRAM_TOKEN",
    "DATA_DIR",
    "DATABASE_URL",
    "DATABASE_SCHEMA",
    "DATABASE_CONNECTIONS",
    "DISCORD_API_URL",
    "TELEGRAM_API_URL",
    "DISCORD_GUILD_ID",
    "DISCORD_SHARDS",
    "DISCORD_SHARD_COUNT",
    "TELEGRAM_WEBHOOK_URL",
    "TELEGRAM_WEBHOOK_ADDR",
    "TELEGRAM_WEBHOOK_SECRET",
    "HTTP_ADDR",
    "PUBLIC_URL",
    "WEB_ADDR",
    "WEB_STREAMS_PER_ADDRESS",
    "WEB_SECRET",
    "TELEGRAM_MINI_APP",
    "DISCORD_CLIENT_SECRET",
    "RUST_LOG",
    "CHALLENGE_EXPIRY",
    "DEFAULT_MOVE_TIME",
    "DEFAULT_LANGUAGE",
    "LIVE_BOARD_INTERVAL",
];

/// PostgreSQL connections each test process keeps (`DATABASE_CONNECTIONS`) unless its test
/// says otherwise. Tests of several processes run beside each other and beside the scenario
/// tests on one server of 100 connections; at the default 16 a CI run reached the limit,
/// and a process refused a connection answered a move "busy" and sent a board unpaced.
const TEST_CONNECTIONS: &str = "6";

/// A free port of 127.0.0.1 (free when asked; the process binds it soon after).
///
/// Never the same port twice in one test process: the port is free again as soon as the probe
/// closes, and the system handed the same one out for two of a test's addresses before either
/// process bound it (one process then could not listen, and the other served both).
pub fn free_port() -> u16 {
    static HANDED_OUT: std::sync::Mutex<Vec<u16>> = std::sync::Mutex::new(Vec::new());
    let mut handed_out = HANDED_OUT.lock().unwrap_or_else(|e| e.into_inner());
    loop {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|listener| listener.local_addr())
            .map(|addr| addr.port())
            .expect("a free port on 127.0.0.1");
        if !handed_out.contains(&port) {
            handed_out.push(port);
            return port;
        }
    }
}

/// `jieqi-bot run` with an environment of its own, in `dir` (no `jieqi-bot.toml` there).
pub fn run_command(dir: &Path, env: &[(String, String)]) -> Command {
    run_command_of(Path::new(env!("CARGO_BIN_EXE_jieqi-bot")), dir, env)
}

/// [`run_command`] of another build of the bot (a previous release).
pub fn run_command_of(binary: &Path, dir: &Path, env: &[(String, String)]) -> Command {
    let mut command = Command::new(binary);
    command.arg("run").current_dir(dir);
    for key in KEYS {
        command.env_remove(key);
    }
    command.env("DATABASE_CONNECTIONS", TEST_CONNECTIONS);
    command.envs(env.iter().map(|(k, v)| (k.as_str(), v.as_str())));
    command
}

/// One bot process that a test kills and starts again.
pub struct Proc {
    pub name: String,
    dir: PathBuf,
    env: Vec<(String, String)>,
    /// Another build than this one's (a previous release), if set.
    binary: Option<PathBuf>,
    child: Option<Child>,
    /// How often it was started.
    pub starts: usize,
}

impl Proc {
    pub fn new(name: &str, dir: &Path, env: Vec<(String, String)>) -> Proc {
        Proc {
            name: name.to_owned(),
            dir: dir.to_path_buf(),
            env,
            binary: None,
            child: None,
            starts: 0,
        }
    }

    /// The same process, run from another build of the bot (a previous release's binary).
    pub fn of_binary(mut self, binary: &Path) -> Proc {
        self.binary = Some(binary.to_path_buf());
        self
    }

    /// Where its stderr goes.
    pub fn log_path(&self) -> PathBuf {
        self.dir.join(format!("{}.log", self.name))
    }

    pub fn start(&mut self) {
        assert!(self.child.is_none(), "{} is already running", self.name);
        let log = OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.log_path())
            .expect("a log file");
        let mut command = match &self.binary {
            Some(binary) => run_command_of(binary, &self.dir, &self.env),
            None => run_command(&self.dir, &self.env),
        };
        let child = command
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("the binary starts");
        self.child = Some(child);
        self.starts += 1;
    }

    /// Its process id while it runs.
    pub fn pid(&self) -> Option<u32> {
        self.child.as_ref().map(Child::id)
    }

    /// Its whole log.
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.log_path()).unwrap_or_default()
    }

    pub fn is_running(&self) -> bool {
        self.child.is_some()
    }

    /// Its exit status, if it has stopped by itself (then it is reaped and no longer runs).
    pub fn exited(&mut self) -> Option<ExitStatus> {
        let status = self.child.as_mut()?.try_wait().ok()??;
        self.child = None;
        Some(status)
    }

    /// SIGKILL (what `Child::kill` sends on Unix), and reaps it.
    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// SIGTERM, then waits for it to stop (SIGKILL after a minute). Its exit status.
    pub fn terminate(&mut self) -> Option<ExitStatus> {
        let mut child = self.child.take()?;
        let _ = Command::new("kill")
            .arg("-TERM")
            .arg(child.id().to_string())
            .status();
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            if let Ok(Some(status)) = child.try_wait() {
                return Some(status);
            }
            if Instant::now() > deadline {
                let _ = child.kill();
                return child.wait().ok();
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The end of its log, for failure messages.
    pub fn log_tail(&self) -> String {
        let text = std::fs::read_to_string(self.log_path()).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len().saturating_sub(30)..].join("\n")
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        self.kill();
    }
}
