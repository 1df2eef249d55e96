//! The shipped puzzles (`assets/puzzles/*.txt.gz`, built into the binary so every process and
//! every test has the same set without a path to configure), and the reserved store keys the
//! puzzles use: one record per puzzle for its learned rating, one for the daily schedule.

use std::sync::OnceLock;

use jieqi_puzzles::PuzzleSet;

use crate::ids::{ChatId, Platform, UserId};

const FILES: [&[u8]; 3] = [
    include_bytes!("../../../assets/puzzles/banqi.txt.gz"),
    include_bytes!("../../../assets/puzzles/jieqi.txt.gz"),
    include_bytes!("../../../assets/puzzles/xiangqi.txt.gz"),
];

/// The shipped set, read once per process (a few milliseconds).
pub(crate) fn shipped() -> &'static PuzzleSet {
    static SET: OnceLock<PuzzleSet> = OnceLock::new();
    SET.get_or_init(|| {
        let mut puzzles = Vec::new();
        for bytes in FILES {
            match PuzzleSet::from_bytes(bytes) {
                Ok(set) => puzzles.extend(set.puzzles().iter().cloned()),
                // The files are checked by the puzzles crate's tests; a bad one only leaves
                // its variant without puzzles, and `/puzzle` says there are none.
                Err(error) => tracing::error!(%error, "a shipped puzzle file cannot be read"),
            }
        }
        PuzzleSet::new(puzzles)
    })
}

/// The player record that keeps a puzzle's own rating as solvers teach it (a puzzle is rated
/// like an opponent). The `~` cannot begin a platform's user id.
pub(crate) fn puzzle_rater(puzzle_id: &str) -> UserId {
    UserId::new(Platform::Local, format!("~puzzle:{puzzle_id}"))
}

/// The chat record that holds the daily-puzzle schedule of every chat.
pub(crate) fn schedule_chat() -> ChatId {
    ChatId::new(Platform::Local, "~daily-puzzles")
}

/// Who opens a daily puzzle: the schedule, not a person.
pub(crate) fn schedule_user() -> UserId {
    UserId::new(Platform::Local, "~daily-puzzles")
}
