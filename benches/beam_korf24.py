#!/usr/bin/env python3
"""Beam search on Korf & Felner's 50 random 24-puzzle instances (benches/korf24.txt): the length
`statespace solve --mode beam` finds for each, beside the published optimal length, and the
time per board. Every path is replayed by the solver's own checks before it is printed; this
script also checks that no length is below the optimum (that would be a wrong answer).

    python3 benches/beam_korf24.py BIN [--config configs/tiles-24.toml] [--width N] [--ids 10,38]

BIN is the statespace binary (target/release/statespace). The config's pattern databases are
built (about 5 minutes, 486 MiB on disk) or mapped from the cache before the first board; the
per-board times are the search's alone (`stats.elapsed`). Prints a Markdown table and a summary
line; exits 1 if any answer is shorter than the optimum or is not a solved path.
"""
import argparse
import json
import pathlib
import subprocess
import sys
import time

here = pathlib.Path(__file__).resolve().parent
parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
parser.add_argument("bin", help="the statespace binary")
parser.add_argument("--config", default=str(here.parent / "configs" / "tiles-24.toml"))
parser.add_argument("--width", type=int, help="--beam-width (default: the solver's)")
parser.add_argument("--ids", help="these instances (comma-separated ids)")
args = parser.parse_args()

optimal = {}
for line in (here / "korf24.txt").read_text().splitlines():
    if line.strip() and not line.startswith("#"):
        words = line.split()
        optimal[int(words[0])] = int(words[1])
ids = [int(i) for i in args.ids.split(",")] if args.ids else sorted(optimal)
boards = subprocess.run(
    [sys.executable, str(here / "korf24_boards.py"), "--ids", ",".join(map(str, ids))],
    check=True, capture_output=True, text=True).stdout

command = [args.bin, "solve", args.config, "--mode", "beam", "--boards", "-", "--json"]
if args.width:
    command += ["--beam-width", str(args.width)]
started = time.monotonic()
run = subprocess.run(command, input=boards, capture_output=True, text=True)
wall = time.monotonic() - started
answers = [json.loads(line) for line in run.stdout.splitlines() if line.strip()]
if len(answers) != len(ids):
    sys.exit(f"{len(answers)} answers for {len(ids)} boards; stderr: {run.stderr}")

print("| instance | optimal | beam | beam / optimal | search time |")
print("|---|---|---|---|---|")
wrong, total_found, total_optimal, slowest = 0, 0, 0, 0.0
for i, answer in zip(ids, answers):
    found = answer.get("moves")
    seconds = answer["stats"]["elapsed"]
    slowest = max(slowest, seconds)
    if answer["outcome"] != "solved" or answer.get("optimal") is not False or found < optimal[i]:
        wrong += 1
        print(f"| {i} | {optimal[i]} | WRONG: {answer['outcome']} {found} | | {seconds:.2f} s |")
        continue
    total_found += found
    total_optimal += optimal[i]
    print(f"| {i} | {optimal[i]} | {found} | {found / optimal[i]:.2f} | {seconds:.2f} s |")
print(f"\n{len(ids) - wrong} of {len(ids)} solved; moves {total_found} against the optimal "
      f"{total_optimal} ({total_found / max(total_optimal, 1):.3f}); slowest board {slowest:.2f} s; "
      f"the whole run {wall:.1f} s wall (tables included)")
sys.exit(1 if wrong else 0)
