#!/bin/sh
# Figures of the engine over UCI: time and nodes per move of each level through
# `jieqi-bot uci` (a bare `go`, so each Skill Level plays its own budget), and a small ladder
# in which each level plays the next one up over UCI at reduced nodes (and club plays club, a
# control: the protocol should neither help nor handicap).
#
# Usage (from the repository root, after `cargo build -p jieqi-bot`):
#     sh scripts/uci-figures.sh [path/to/jieqi-bot]
# Each run is bounded (a few minutes on one core). Figures depend on the machine and its load.
set -eu
BIN=${1:-${CARGO_TARGET_DIR:-target}/debug/jieqi-bot}

echo "== per level over UCI (bare go: the level's own budget), Jieqi, vs random"
for skill in 0:novice 8:casual 13:club 20:master; do
    level=${skill#*:}
    plies=40
    [ "$level" = master ] && plies=16
    echo "-- Skill Level ${skill%%:*} ($level)"
    "$BIN" match --variant jieqi --red random --black "uci:$BIN uci" \
        --black-option "Skill Level=${skill%%:*}" --uci-go "" \
        --games 2 --max-plies "$plies" --seed 1 | grep ' uci:jieqi-bot:'
done

echo "== ladder over UCI: each level (in-process) vs the next one up (UCI, go nodes at 2 % of its budget), then club vs club as a control"
for pair in novice:casual:8:160 casual:club:13:2000 club:master:20:60000 club:club:13:2000; do
    low=$(echo "$pair" | cut -d: -f1)
    skill=$(echo "$pair" | cut -d: -f3)
    nodes=$(echo "$pair" | cut -d: -f4)
    "$BIN" match --variant jieqi --red "$low" --black "uci:$BIN uci" \
        --black-option "Skill Level=$skill" --uci-nodes "$nodes" --nodes-scale 0.02 \
        --games 20 --max-plies 200 --seed 7 | grep -v ' took '
done
