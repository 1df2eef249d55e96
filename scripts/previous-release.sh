#!/usr/bin/env bash
# Builds the previous release's bot once and prints its binary's path, for the rolling-upgrade
# test (crates/bot/tests/it/rolling_upgrade.rs), which runs it beside this build on one
# PostgreSQL database. The sources come out of this clone's history (`git archive`, so no
# worktree is registered in a clone that CI throws away) into a folder of their own with
# their own target folder under $HOME/.cache, kept between runs: the second run builds
# nothing.
#
#   JIEQI_PREVIOUS_BOT=$(scripts/previous-release.sh) cargo nextest run -p jieqi-bot rolling
set -euo pipefail
cd "$(dirname "$0")/.."

# The release the fleet upgrades from (deploy/SCALING.md, "Upgrading"): the last commit
# whose records the previous fleet version reads.
release="${JIEQI_PREVIOUS_RELEASE:-f61d864}"
cache="${JIEQI_PREVIOUS_RELEASE_CACHE:-$HOME/.cache/jieqi-bot/previous-release}/$release"
bin="$cache/target/debug/jieqi-bot"

if [[ -x "$bin" && -f "$cache/built" ]]; then
    echo "$bin"
    exit 0
fi

if ! git cat-file -e "$release^{commit}" 2>/dev/null; then
    echo "previous-release.sh: commit $release is not in this clone; fetch the full history (git fetch --unshallow)" >&2
    exit 1
fi

rm -rf "$cache/src"
mkdir -p "$cache/src"
git archive "$release" | tar -x -C "$cache/src"
echo "previous-release.sh: building $release in $cache (once)" >&2
CARGO_TARGET_DIR="$cache/target" cargo build --locked -q -p jieqi-bot \
    --manifest-path "$cache/src/Cargo.toml" >&2
touch "$cache/built"
echo "$bin"
