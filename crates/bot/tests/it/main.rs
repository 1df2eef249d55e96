//! The real binary as a child process: the terminal chat, crashes, refusals, UCI and `match`,
//! several processes on one database (one test binary).

mod common;
mod crash;
mod live_flags;
mod local;
mod multi_process;
mod rolling_upgrade;
mod run;
mod shared_pace;
mod tournament_kills;
mod uci;
mod web_processes;
