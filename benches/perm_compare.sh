#!/usr/bin/env bash
# The `perm` bench before and after a change, side by side in one run: REV (default main) is
# exported into a temporary directory and its bench built there (its own target directory);
# this checkout's bench is built as it is. Then the two run alternately, RUNS times each (default
# 3), on the same scrambles with the same warm database cache, and the table shows each one's
# fastest total of IDA*'s CPU seconds over the scrambles, and the instructions of one whole run
# (valgrind --tool=callgrind: every thread, loading the databases included).
#
#   benches/perm_compare.sh                       # main against this checkout, 3x3x3
#   RUNS=5 benches/perm_compare.sh main -- --lengths 12 --count 2
#
# Needs cargo, git and valgrind. BASE_DIR=DIR keeps the base build between runs.
set -euo pipefail
cd "$(dirname "$0")/.."
rev=${1:-main}
shift || true
[[ ${1:-} == -- ]] && shift
args=("$@")
[[ ${#args[@]} -gt 0 ]] || args=(--lengths 12 --count 3)
runs=${RUNS:-3}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
base=${BASE_DIR:-$out/base}
mkdir -p "$base"
if [[ ! -f $base/Cargo.toml ]]; then
    git archive "$rev" | tar -x -C "$base"
fi

# bench DIR: builds the perm bench in DIR and prints its executable's path.
bench() {
    (cd "$1" && cargo bench --bench perm --no-run --message-format=json 2>/dev/null) |
        sed -n 's/.*"executable":"\([^"]*perm-[^"]*\)".*/\1/p' | tail -n 1
}
before=$(bench "$base")
after=$(bench .)
cache="$out/cache"
# Build the databases once (both read the same cache: the patterns' fingerprints do not
# depend on the state's width).
"$after" --cache "$cache" --count 0 >/dev/null

# cpu BIN: the sum of the scrambles' CPU seconds of one run.
cpu() {
    "$1" --cache "$cache" "${args[@]}" | sed -n 's/.*(\([0-9.]*\) s CPU)$/\1/p' | awk '{s += $1} END {printf "%.3f", s}'
}
best_before="" best_after=""
for _ in $(seq "$runs"); do
    b=$(cpu "$before") a=$(cpu "$after")
    if [[ -z $best_before ]] || awk "BEGIN{exit !($b < $best_before)}"; then best_before=$b; fi
    if [[ -z $best_after ]] || awk "BEGIN{exit !($a < $best_after)}"; then best_after=$a; fi
done
instructions() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" --cache "$cache" "${args[@]}" 2>&1 >/dev/null |
        sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
i_before=$(instructions "$before") i_after=$(instructions "$after")
echo "perm bench ${args[*]}: $rev ($(git rev-parse --short "$rev")) against $(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo '+changes'); best of $runs runs"
echo
echo "| build | IDA* CPU seconds (sum) | instructions (callgrind) |"
echo "|---|---:|---:|"
echo "| before: $rev | $best_before | $(printf "%'d" "$i_before") |"
echo "| after: this checkout | $best_after | $(printf "%'d" "$i_after") |"
