#!/usr/bin/env bash
# Builds the Discord Activity's script, assets/web/activity.js: crates/web/activity/src/
# bundled with Discord's Embedded App SDK by esbuild, both at the versions package-lock.json
# locks (npm ci installs exactly those, with no install scripts run).
#
#   scripts/build-activity.sh          rebuild assets/web/activity.js
#   scripts/build-activity.sh --check  fail if the committed file differs from a rebuild (CI)
#
# Needs node and npm (node 20, npm 10 or later) and the npm registry, for npm ci.
set -euo pipefail
cd "$(dirname "$0")/.."

folder=crates/web/activity
target=assets/web/activity.js
check=false
case "${1:-}" in
    --check) check=true ;;
    "") ;;
    *) echo "usage: $0 [--check]" >&2; exit 2 ;;
esac

(cd "$folder" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)

out="$(mktemp)"
trap 'rm -f "$out"' EXIT
# Deterministic: the same sources and locked versions give the same bytes. No source map;
# minified (about a third of the size): the sources it comes from are the review.
"$folder/node_modules/.bin/esbuild" "$folder/src/activity.js" \
    --bundle --format=esm --target=es2020 --platform=browser \
    --minify --charset=utf8 --legal-comments=eof --log-level=warning \
    --outfile="$out" --allow-overwrite

if $check; then
    if cmp -s "$out" "$target"; then
        echo "$target is what $folder builds"
    else
        echo "$target is not what $folder builds: run scripts/build-activity.sh and commit it" >&2
        diff <(head -c 2000 "$target") <(head -c 2000 "$out") >&2 || true
        exit 1
    fi
else
    cp "$out" "$target"
    echo "built $target ($(wc -c <"$target") bytes)"
fi
