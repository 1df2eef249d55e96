#!/usr/bin/env bash
# The project's test command (README, CI): every crate's tests, then the service's scenario
# tests a second time on PostgreSQL. Tests that need PostgreSQL read its address from
# TEST_DATABASE_URL; without it they say so and skip, except under CI=true, where they fail.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo test --workspace --locked
JIEQI_TEST_STORE=postgres cargo test --workspace --locked --test scenarios --test stored_verdicts
