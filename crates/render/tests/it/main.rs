//! Pictures through the public API: decoded pixels of boards and GIF frames (one test binary).

#[path = "../common/mod.rs"]
mod common;

mod animation;
mod pictures;
mod standings;
