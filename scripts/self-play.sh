#!/bin/sh
# A search change is kept only if it gains: two builds of jieqi-bot play each other over UCI
# at a fixed node count per move (so the machine's load cannot change the result), in
# Xiangqi from seeded random 6-ply openings and in Jieqi from seeded deals, colours swapped in
# each pair. The summary line gives W/D/L for NEW and an Elo estimate with its 95 % interval.
#
# Usage: sh scripts/self-play.sh NEW_BINARY OLD_BINARY [GAMES] [NODES]
# (copy each build out of the target folder first; defaults: 60 games a variant, 10000 nodes).
set -eu
NEW=$1
OLD=$2
GAMES=${3:-60}
NODES=${4:-10000}
for variant in xiangqi jieqi; do
    "$NEW" match --variant "$variant" --red "uci:$NEW uci" --black "uci:$OLD uci" \
        --uci-go "nodes $NODES" --games "$GAMES" --opening-plies 6 --max-plies 300 --seed 11
done
