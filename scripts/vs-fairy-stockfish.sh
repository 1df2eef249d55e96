#!/bin/sh
# The engine's strength against an engine nobody here wrote: jieqi-bot over UCI against
# Fairy-Stockfish (Debian's `fairy-stockfish` package: Xiangqi, its classical evaluation, no
# network), both at the same fixed time per move, from seeded random 6-ply openings with
# colours swapped in each pair.
#
# Usage (from the repository root, after `cargo build -p jieqi-bot`):
#     sh scripts/vs-fairy-stockfish.sh [GAMES] [MOVETIME_MS] [SKILL] [FSF_SKILL] [path/to/jieqi-bot] [SEED]
# defaults: 100 games, 200 ms, our Skill Level 20 (master), Fairy-Stockfish at full strength
# (Skill Level 20), openings of seed 23, one search thread each. Run it alone on the machine
# (`nice -n 15`): it is timed, so other load changes the result; or, with one thread each,
# run two halves at once with different seeds (other openings), one a core, each engine
# thinking only on its own turn. THREADS=N and FSF_THREADS=N in the environment set each
# side's UCI `Threads` (then run one match at a time: each move may use every core).
#
# CLOCK=1+0 (or 3+2, 10m|30s) in the environment plays on a game clock kept by the match
# instead of a fixed time a move (MOVETIME_MS is then unused): both engines are told their
# clocks (`go wtime … btime …`), and an engine whose time runs out loses on time; the summary
# says how often that happened and the least time left after a move.
#
# Adjudication (that of `jieqi-bot match`): the rules end a game (mate, stalemate, the
# repetition rulings, the preset's no-progress draw); a game still running after 300 plies is
# a draw; an engine answering an illegal move, or none within a minute, loses.
set -eu
GAMES=${1:-100}
MS=${2:-200}
SKILL=${3:-20}
FSF_SKILL=${4:-20}
BIN=${5:-${CARGO_TARGET_DIR:-target}/debug/jieqi-bot}
SEED=${6:-23}
THREADS=${THREADS:-1}
FSF_THREADS=${FSF_THREADS:-1}
FSF=${FAIRY_STOCKFISH:-/usr/games/fairy-stockfish}
if [ -n "${CLOCK:-}" ]; then
    set -- --clock "$CLOCK"
else
    set -- --movetime-ms "$MS"
fi
exec "$BIN" match --variant xiangqi \
    --red "uci:$BIN uci" --red-option "Skill Level=$SKILL" --red-option "Threads=$THREADS" \
    --black "uci:$FSF" --black-option "UCI_Variant=xiangqi" --black-option "Threads=$FSF_THREADS" \
    --black-option "Hash=16" --black-option "Skill Level=$FSF_SKILL" --black-ranks 1-10 \
    "$@" --games "$GAMES" --opening-plies 6 --max-plies 300 --seed "$SEED" --verbose
