#!/usr/bin/env python3
"""Random-state 3x3x3 scrambles (issue 23, item 3): N scrambles of 25 random face turns (no face
twice in a row), reproducible from a seed, one a line, as `statespace solve --scrambles` reads
them. With --run, solves them with the random-state config (the tables built once, cached),
one at a time under a time limit each, and prints per scramble the optimal length, nodes
generated, nodes a second and the time, then the median.

    python3 benches/cube_random.py --count 10 > /tmp/random10.scr
    python3 benches/cube_random.py --count 10 --run target/release/statespace --time-limit 30m
"""
import argparse
import json
import pathlib
import random
import signal
import statistics
import subprocess
import sys

parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
parser.add_argument("--count", type=int, default=10, help="how many scrambles (default 10)")
parser.add_argument("--seed", type=int, default=23, help="the generator's seed (default 23)")
parser.add_argument("--length", type=int, default=25, help="moves a scramble (default 25)")
parser.add_argument("--run", metavar="STATESPACE", help="solve them with this binary")
parser.add_argument("--config", default=str(pathlib.Path(__file__).resolve().parent.parent
                                             / "configs" / "perm-3x3x3-random.toml"))
parser.add_argument("--time-limit", default="30m", help="per scramble (default 30m)")
parser.add_argument("--cache-dir", help="where the tables are kept (default: statespace's)")
args = parser.parse_args()
# A closed pipe (`| head`) ends the script quietly, as it does a command-line tool.
signal.signal(signal.SIGPIPE, signal.SIG_DFL)
if args.count < 1 or args.length < 1:
    parser.error("--count and --length must be at least 1")

rng = random.Random(args.seed)
scrambles = []
for _ in range(args.count):
    moves, last = [], None
    while len(moves) < args.length:
        face = rng.choice("UDFBLR")
        if face != last:
            moves.append(face + rng.choice(["", "2", "'"]))
            last = face
    scrambles.append(" ".join(moves))

if not args.run:
    print("\n".join(scrambles))
    sys.exit(0)

print("| # | scramble | moves | generated | search s | M nodes/s |")
print("|---|---|---|---|---|---|")
solved_times, times = [], []
for i, scramble in enumerate(scrambles, 1):
    command = [args.run, "solve", args.config, "--scramble", scramble, "--json",
               "--time-limit", args.time_limit]
    if args.cache_dir:
        command += ["--cache-dir", args.cache_dir]
    try:
        run = subprocess.run(command, capture_output=True, text=True)
    except OSError as error:
        sys.exit(f"--run {args.run}: cannot run it: {error.strerror}")
    if not run.stdout.strip():
        sys.exit(f"scramble {i}: no answer (exit {run.returncode}): {run.stderr.strip()}")
    answer = json.loads(run.stdout)
    stats = answer["stats"]
    search = stats["elapsed"] - stats.get("build", 0.0)
    rate = stats["generated"] / search / 1e6 if search > 0 else 0.0
    if answer["outcome"] == "solved":
        moves = str(answer["moves"])
        solved_times.append(search)
        times.append(search)
    else:
        last = stats["iterations"][-1]["threshold"] if stats.get("iterations") else "?"
        moves = f"not within {args.time_limit} (at {last})"
        times.append(float("inf"))
    print(f"| {i} | `{scramble}` | {moves} | {stats['generated']:,} | {search:.1f} | {rate:.2f} |",
          flush=True)

median = statistics.median(times)
median = f"{median:.1f} s" if median != float("inf") else f"beyond {args.time_limit}"
longest = f"{max(solved_times):.1f} s" if solved_times else "-"
print(f"\nsolved {len(solved_times)} of {len(scrambles)}; median search {median} (an unsolved "
      f"scramble counts as beyond the limit); longest solved {longest}")
