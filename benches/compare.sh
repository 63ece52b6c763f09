#!/usr/bin/env bash
# Whole-space BFS over Flip ROWS x COLS (default 5 x 5), every engine in its own process so that
# each peak memory (max RSS, from /usr/bin/time) is its own: the layers engine word at a time and
# per state, on one thread and on all; the pathfinding crate's bfs_reach; the C baselines.
# Each is run RUNS times (default 3); the table shows the fastest run and its memory.
#
#   benches/compare.sh            # 5 x 5
#   RUNS=5 benches/compare.sh 4 6
#
# Needs cargo, gcc and GNU time (/usr/bin/time; Debian: apt-get install time).
set -euo pipefail
cd "$(dirname "$0")/.."
rows=${1:-5} cols=${2:-5} runs=${RUNS:-3}
threads=$(nproc)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

cargo build --release --quiet --example flip_whole_space
gcc -O2 -o "$out/flip_levels" benches/c/flip_levels.c
gcc -O2 -o "$out/flip_fifo" benches/c/flip_fifo.c
example=target/release/examples/flip_whole_space

# best NAME COMMAND...: runs COMMAND $runs times; prints "NAME|seconds|max_rss_kib" of the fastest.
best() {
    local name=$1; shift
    local best_s="" best_kib=""
    for _ in $(seq "$runs"); do
        /usr/bin/time -f "%e %M" -o "$out/time" "$@" >/dev/null
        read -r s kib <"$out/time"
        if [[ -z $best_s ]] || awk "BEGIN{exit !($s < $best_s)}"; then best_s=$s best_kib=$kib; fi
    done
    echo "$name|$best_s|$best_kib"
}

{
    best "layers word-at-a-time, 1 thread" "$example" word "$rows" "$cols" 1
    best "layers word-at-a-time, $threads threads" "$example" word "$rows" "$cols" "$threads"
    best "layers per-state, 1 thread" "$example" per-state "$rows" "$cols" 1
    best "layers per-state, $threads threads" "$example" per-state "$rows" "$cols" "$threads"
    best "C level-synchronous (flip_levels.c)" "$out/flip_levels" "$rows" "$cols"
    best "C FIFO (flip_fifo.c)" "$out/flip_fifo" "$rows" "$cols"
    best "pathfinding bfs_reach" "$example" pathfinding "$rows" "$cols"
} >"$out/rows"

reachable=$("$example" word "$rows" "$cols" 1 | awk '{print $4}')
echo "Flip $rows x $cols, $reachable reachable states; $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)); best of $runs runs"
echo
echo "| engine | seconds | states/s | peak RSS |"
echo "|---|---:|---:|---:|"
while IFS='|' read -r name s kib; do
    rate=$(awk "BEGIN{printf \"%.1f M\", $reachable / $s / 1e6}")
    mib=$(awk "BEGIN{printf \"%.1f MiB\", $kib / 1024}")
    echo "| $name | $s | $rate | $mib |"
done <"$out/rows"
