//! Helpers for the puzzle scenarios: the shipped set (for the solutions the tests play), the
//! puzzle a post announces, and moves as typed.

use jieqi_puzzles::{Puzzle, PuzzleSet};
use jieqi_service::{ChatId, MessageKind, OutboxEntry, User};

use super::{Harness, group};

/// The shipped puzzles, read the way the test's own checks need them (the solution).
pub fn shipped() -> PuzzleSet {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/puzzles");
    PuzzleSet::from_dir(&dir).expect("the shipped puzzles")
}

pub fn dm(name: &str) -> ChatId {
    group(&format!("dm-{name}"))
}

/// A stored move as typed: `b9c7c` -> `b9c7`, Banqi `c3=R` -> `c3`.
pub fn typed(puzzle: &Puzzle, stored: &str) -> String {
    match puzzle.variant {
        jieqi_rules::Variant::Banqi => stored.split('=').next().unwrap_or(stored).to_owned(),
        _ => stored.get(..4).unwrap_or(stored).to_owned(),
    }
}

/// The puzzle a board post announces ("Puzzle x1234abcd (...").
pub fn posted_puzzle<'s>(set: &'s PuzzleSet, entries: &[OutboxEntry]) -> &'s Puzzle {
    let post = entries
        .iter()
        .map(|e| &e.message)
        .rfind(|m| m.kind == MessageKind::Board && m.image.is_some())
        .expect("a puzzle board was posted");
    post.text
        .split_whitespace()
        .find_map(|w| set.get(w.trim_matches(|c: char| !c.is_ascii_alphanumeric())))
        .unwrap_or_else(|| panic!("no puzzle id in {:?}", post.text))
}

/// `who` asks for a puzzle in `chat` with `text` (`/puzzle xiangqi`): the puzzle posted.
pub async fn ask<'s>(
    h: &mut Harness,
    set: &'s PuzzleSet,
    who: &User,
    chat: &ChatId,
    text: &str,
) -> &'s Puzzle {
    h.say(who, chat, text).await;
    posted_puzzle(set, &h.deliver().await)
}
