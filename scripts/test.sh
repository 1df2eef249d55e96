#!/usr/bin/env bash
# The project's test command (README, CI): every crate's tests with cargo-nextest (each test in
# a process of its own, tests of all the binaries side by side; `.config/nextest.toml`; the
# service's scenarios on sled and, in binaries of their own, on PostgreSQL), then the
# documentation's examples (which nextest does not run). Tests that need PostgreSQL read its
# address from TEST_DATABASE_URL; without it they say so and skip, except under CI=true,
# where they fail.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo nextest run --workspace --locked
cargo test --workspace --locked --doc
