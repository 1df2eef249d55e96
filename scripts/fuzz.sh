#!/bin/sh
# Runs fuzz targets one after another (never side by side: each takes a whole core), each
# for FUZZ_SECONDS (default 600), at low priority, seeded from fuzz/seeds/<target> where
# there is one, and prints per target the executions, the time and the crashes found.
# Findings are left in fuzz/artifacts/<target>/; libFuzzer's whole output in
# fuzz/target/fuzz-logs/<target>.log.
#
#   scripts/fuzz.sh                      # the doors: updates, interactions, command lines, UCI, time controls, records
#   scripts/fuzz.sh fen move_text        # chosen targets
#   FUZZ_SECONDS=60 scripts/fuzz.sh      # a quick pass
#
# Needs cargo-fuzz (`cargo install cargo-fuzz`); works on stable through RUSTC_BOOTSTRAP=1.
set -u
cd "$(dirname "$0")/../fuzz" || exit 1
seconds=${FUZZ_SECONDS:-600}
targets=${*:-telegram_update discord_interaction command_line uci_line time_control store_records}
logs=target/fuzz-logs
mkdir -p "$logs"
RUSTC_BOOTSTRAP=1 nice -n 15 cargo fuzz build -O || exit 1
status=0
for target in $targets; do
    mkdir -p "corpus/$target"
    seeds=""
    [ -d "seeds/$target" ] && seeds="seeds/$target"
    started=$(date +%s)
    # shellcheck disable=SC2086 # no seeds folder: no argument
    RUSTC_BOOTSTRAP=1 nice -n 15 cargo fuzz run -O "$target" "corpus/$target" $seeds -- \
        -max_total_time="$seconds" -print_final_stats=1 >"$logs/$target.log" 2>&1
    code=$?
    took=$(($(date +%s) - started))
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$logs/$target.log" | tail -n 1)
    crashes=$(find "artifacts/$target" -type f 2>/dev/null | wc -l)
    corpus=$(find "corpus/$target" -type f | wc -l)
    echo "$target: ${runs:-?} executions in ${took} s, corpus $corpus inputs, $crashes crash files, exit $code"
    [ "$code" -eq 0 ] && [ "$crashes" -eq 0 ] || status=1
done
exit $status
