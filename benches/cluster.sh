#!/usr/bin/env bash
# Cluster explore (timely) against the layers engine, side by side in one run (BENCHMARKS.md):
#   benches/cluster.sh [CONFIG...]        default: configs/flip-5x5.toml configs/flip-6x5.toml
#   RUNS=3 benches/cluster.sh             best of 3 wall-clock times per row
# Rows: layers engine with 2 threads; 1 process x 2 timely workers; 2 processes x 1 worker on
# loopback (the time of process 0, the CPU and peak RSS of each process). Every row's
# histogram, farthest board and stats are checked against the first row's.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=target/release/statespace
runs=${RUNS:-1}
configs=("$@")
[ ${#configs[@]} -gt 0 ] || configs=(configs/flip-5x5.toml configs/flip-6x5.toml)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
timed() { # timed OUT ERR CMD...: runs CMD, JSON to OUT, GNU time's line to ERR
  local out=$1 err=$2; shift 2
  /usr/bin/time -f "%e %U %S %M" -o "$err" "$@" --json > "$out"
}
for config in "${configs[@]}"; do
  echo "== $config (best of $runs)"
  printf '%-34s %9s %14s %12s %12s %12s\n' engine wall_s cpu_s peak_rss_MiB engine_MiB bytes/state
  base=""
  for row in layers workers processes; do
    best=""
    for run in $(seq "$runs"); do
      case $row in
        layers) timed "$tmp/a.json" "$tmp/a.time" "$bin" explore "$config" --threads 2
                cp "$tmp/a.time" "$tmp/p0.time"; : > "$tmp/p1.time" ;;
        workers) timed "$tmp/a.json" "$tmp/p0.time" "$bin" explore "$config" --workers 2
                : > "$tmp/p1.time" ;;
        processes)
          printf '127.0.0.1:%s\n127.0.0.1:%s\n' "$(free_port)" "$(free_port)" > "$tmp/hosts"
          timed "$tmp/b.json" "$tmp/p1.time" "$bin" explore "$config" --processes 2 --process 1 --hostfile "$tmp/hosts" &
          one=$!
          timed "$tmp/a.json" "$tmp/p0.time" "$bin" explore "$config" --processes 2 --process 0 --hostfile "$tmp/hosts"
          wait "$one" ;;
      esac
      line=$(python3 - "$tmp/a.json" "$tmp/p0.time" "$tmp/p1.time" "$row" <<'PY'
import json, sys
js = json.load(open(sys.argv[1]))
def t(f):
    text = open(f).read().split()
    return list(map(float, text[-4:])) if text else None
p0, p1 = t(sys.argv[2]), t(sys.argv[3])
procs = [p for p in (p0, p1) if p]
cpu = " + ".join(f"{p[1] + p[2]:.2f}" for p in procs)
rss = " + ".join(f"{p[3] / 1024:.0f}" for p in procs)
c = js.get("cluster")
bps = f"{c['exchanged_bytes'] / js['reachable']:.2f}" if c else "-"
name = {"layers": "layers, 2 threads", "workers": "timely, 1 process x 2 workers",
        "processes": "timely, 2 processes x 1 worker"}[sys.argv[4]]
print(f"{p0[0]:.2f}\t{name:<34} {p0[0]:9.2f} {cpu:>14} {rss:>12} {js['engine_memory_bytes'] / 2**20:12.0f} {bps:>12}")
PY
)
      wall=${line%%$'\t'*}
      if [ -z "$best" ] || python3 -c "import sys; sys.exit(not $wall < ${best%%$'\t'*})"; then best=$line; fi
      python3 - "$tmp/a.json" "$tmp/base.json" <<'PY'
import json, os, sys
js = json.load(open(sys.argv[1]))
keep = lambda j: (j["histogram"], j["example_farthest"], {k: v for k, v in j["stats"].items() if k != "elapsed"})
if os.path.exists(sys.argv[2]):
    assert keep(js) == keep(json.load(open(sys.argv[2]))), "the sweeps differ"
else:
    json.dump(js, open(sys.argv[2], "w"))
PY
    done
    echo "${best#*$'\t'}"
  done
  rm -f "$tmp/base.json"
done
