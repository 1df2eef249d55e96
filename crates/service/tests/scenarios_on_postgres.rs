//! The scenarios of `tests/it/` again, each on PostgreSQL (`TEST_DATABASE_URL`, a fresh schema
//! per scenario) instead of sled: this binary's name puts them there (`common::on_postgres`).
//! A test binary of its own rather than a second pass with `JIEQI_TEST_STORE=postgres`, so
//! that one test run interleaves both stores' scenarios (a PostgreSQL scenario waits on the
//! server while a sled one computes). Without a server they skip, except under `CI=true`.

#[path = "it/main.rs"]
mod scenarios;
