//! `stored_verdicts.rs` on PostgreSQL: this binary's name puts its store there
//! (`common::on_postgres`), and it is a binary of its own for the same reason as the sled one
//! (the changed judging rule holds for the whole process).

#[path = "stored_verdicts.rs"]
mod stored_verdicts;
