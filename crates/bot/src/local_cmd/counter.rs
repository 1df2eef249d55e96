//! The persistent line counter of `jieqi-bot local`. Line number `n` becomes the request's
//! idempotency key, so a line sent again with the same number (after a crash) changes
//! nothing twice, while new lines never reuse a number of an earlier session.
//!
//! The file holds two numbers: the next free line number and the number the last run
//! started at (for `--resume`). A number is reserved on disk, flushed, *before* its line is
//! handled: were it reserved after, a crash between the service's durable write and the
//! counter's would hand the same number to the next new line, which the service would then
//! take for a repeat and ignore.

use std::fs::{self, File};
use std::io::Write;
use std::num::NonZeroU64;
use std::path::{Path, PathBuf};

/// The counter file inside the data folder.
const FILE_NAME: &str = "local-lines";

/// Where the numbering of this run starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Start {
    /// After every line ever read in this data folder (a new session).
    Fresh,
    /// Where the previous run started (the same script again, after a crash).
    Resume,
    /// At this number (a client that tracks acknowledgements).
    At(NonZeroU64),
}

/// The counter could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum CounterError {
    #[error("cannot {doing} the line counter {} ({source}); check that the data folder is writable", path.display())]
    Io {
        doing: &'static str,
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(
        "the line counter {} is damaged (expected two numbers); delete it to number lines from 1 \
         (only do that with a fresh data folder, or old lines may be taken for repeats)",
        .0.display()
    )]
    Damaged(PathBuf),
}

/// The counter, as on disk.
#[derive(Debug)]
pub struct LineCounter {
    path: PathBuf,
    next: u64,
    run_start: u64,
}

impl LineCounter {
    /// Reads the counter of `data_dir` (1 and 1 if there is none yet).
    pub fn open(data_dir: &Path) -> Result<LineCounter, CounterError> {
        let path = data_dir.join(FILE_NAME);
        let text = match fs::read_to_string(&path) {
            Ok(text) => text,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => "1 1".to_owned(),
            Err(source) => {
                return Err(CounterError::Io {
                    doing: "read",
                    path,
                    source,
                });
            }
        };
        let numbers: Vec<u64> = text
            .split_whitespace()
            .map(str::parse)
            .collect::<Result<_, _>>()
            .map_err(|_| CounterError::Damaged(path.clone()))?;
        match numbers.as_slice() {
            &[next, run_start] if next >= 1 && run_start >= 1 && run_start <= next => {
                Ok(LineCounter {
                    path,
                    next,
                    run_start,
                })
            }
            _ => Err(CounterError::Damaged(path)),
        }
    }

    /// Chooses the first number of this run and records it as the run's start.
    pub fn start_run(&mut self, start: Start) -> Result<u64, CounterError> {
        let first = match start {
            Start::Fresh => self.next,
            Start::Resume => self.run_start,
            Start::At(n) => n.get(),
        };
        self.run_start = first;
        self.next = self.next.max(first);
        self.save()?;
        Ok(first)
    }

    /// Reserves `n` (durably) before its line is handled.
    pub fn reserve(&mut self, n: u64) -> Result<(), CounterError> {
        if n < self.next {
            return Ok(());
        }
        self.next = n.saturating_add(1);
        self.save()
    }

    /// The next number a fresh run would start at.
    #[cfg(test)]
    pub fn next(&self) -> u64 {
        self.next
    }

    /// Writes a new file and renames it over the old one, so a crash leaves one or the other.
    fn save(&self) -> Result<(), CounterError> {
        let io = |doing, source| CounterError::Io {
            doing,
            path: self.path.clone(),
            source,
        };
        let temporary = self.path.with_extension("new");
        let mut file = File::create(&temporary).map_err(|e| io("write", e))?;
        writeln!(file, "{} {}", self.next, self.run_start).map_err(|e| io("write", e))?;
        file.sync_all().map_err(|e| io("flush", e))?;
        fs::rename(&temporary, &self.path).map_err(|e| io("replace", e))?;
        if let Some(dir) = self.path.parent() {
            // Make the rename itself durable; not every platform can open a folder.
            if let Ok(dir) = File::open(dir) {
                let _ = dir.sync_all();
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counter(dir: &Path) -> LineCounter {
        LineCounter::open(dir).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn a_new_folder_numbers_from_one() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let mut lines = counter(dir.path());
        assert_eq!(lines.start_run(Start::Fresh).ok(), Some(1));
    }

    #[test]
    fn a_fresh_run_continues_after_every_reserved_line() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let mut lines = counter(dir.path());
        let first = lines.start_run(Start::Fresh).unwrap_or_default();
        for n in first..first + 3 {
            lines.reserve(n).unwrap_or_else(|e| panic!("{e}"));
        }
        let mut again = counter(dir.path());
        assert_eq!(again.start_run(Start::Fresh).ok(), Some(4));
    }

    #[test]
    fn resume_starts_where_the_previous_run_started() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let mut lines = counter(dir.path());
        lines
            .start_run(Start::Fresh)
            .unwrap_or_else(|e| panic!("{e}"));
        lines.reserve(1).unwrap_or_else(|e| panic!("{e}"));
        lines.reserve(2).unwrap_or_else(|e| panic!("{e}"));
        let mut second = counter(dir.path());
        assert_eq!(second.start_run(Start::Fresh).ok(), Some(3));
        second.reserve(3).unwrap_or_else(|e| panic!("{e}"));
        let mut third = counter(dir.path());
        assert_eq!(third.start_run(Start::Resume).ok(), Some(3));
        assert_eq!(third.next(), 4);
    }

    #[test]
    fn an_explicit_start_never_moves_the_next_number_back() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let mut lines = counter(dir.path());
        lines
            .start_run(Start::Fresh)
            .unwrap_or_else(|e| panic!("{e}"));
        lines.reserve(9).unwrap_or_else(|e| panic!("{e}"));
        let at = NonZeroU64::new(5).unwrap_or(NonZeroU64::MIN);
        assert_eq!(lines.start_run(Start::At(at)).ok(), Some(5));
        assert_eq!(counter(dir.path()).next(), 10);
    }

    #[test]
    fn a_damaged_counter_is_reported_not_reset() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        fs::write(dir.path().join(FILE_NAME), "seven").unwrap_or_else(|e| panic!("{e}"));
        let error = LineCounter::open(dir.path())
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(error.contains("damaged"), "{error}");
    }
}
