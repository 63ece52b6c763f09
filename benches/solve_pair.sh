#!/bin/bash
# IDA* on two processes of one thread on loopback, for BENCHMARKS.md's "IDA* across processes":
# process 1 in the background, process 0 in front; process 0's answers (JSON Lines) on stdout.
#   benches/solve_pair.sh BIN CONFIG BOARDS
#   /usr/bin/time -f "%e s wall %U s user" benches/solve_pair.sh target/release/statespace \
#     configs/tiles-24.toml b25.txt          # user: both processes
set -euo pipefail
bin=$1 config=$2 boards=$3
hosts=$(mktemp)
trap 'rm -f "$hosts"' EXIT
python3 -c "
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(('127.0.0.1', 0))
print(''.join('127.0.0.1:%d\n' % x.getsockname()[1] for x in s), end='')
" > "$hosts"
cluster=(--json --threads 1 --processes 2 --hostfile "$hosts")
"$bin" solve "$config" --boards "$boards" "${cluster[@]}" --process 1 > /dev/null &
"$bin" solve "$config" --boards "$boards" "${cluster[@]}" --process 0
wait
