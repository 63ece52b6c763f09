#!/usr/bin/env python3
"""Korf's 100 15-puzzle instances solved from Python against the command line's
`solve --boards` on the same boards with the same databases (BENCHMARKS.md, "From Python"):
run by hand, not by CI.

    python3 benches/korf100_boards.py > /tmp/korf100.boards
    target/release/statespace solve configs/tiles-4x4-pdb.toml --boards /tmp/korf100.boards \
        --json --cache-dir target/pdb-cache > /dev/null        # builds the databases once
    /tmp/venv/bin/python python/bench/korf100.py --bin target/release/statespace \
        --boards /tmp/korf100.boards --cache-dir target/pdb-cache [--repeat 3]

Each side is a whole process, timed from outside by its wall clock, alternately, `--repeat`
times: the command line (`solve --boards ... --json`), and Python (`load` the config with the
same cache, `solve_many` the same boards). Both load the 550 MiB of databases from the cache
(warm in the page cache after the first run). The answers must be equal (lengths and paths),
and the lengths must sum to 5305, the published total.
"""

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "configs" / "tiles-4x4-pdb.toml"

PYTHON_SIDE = """
import json, sys, time, statespace
started = time.perf_counter()
puzzle = statespace.load(sys.argv[1], cache=sys.argv[2])
boards = open(sys.argv[3]).read().strip().split("\\n\\n")
answers = puzzle.solve_many(boards)
print(json.dumps({"answers": [[a.moves, a.path, a.stats["elapsed"]] for a in answers],
                  "inside": time.perf_counter() - started}))
"""


def cpu_of_children():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(command):
    """The wall time and the CPU time (user + system) of `command`, and what it printed."""
    started, cpu = time.perf_counter(), cpu_of_children()
    run = subprocess.run(command, capture_output=True, text=True, check=True, cwd=ROOT)
    return time.perf_counter() - started, cpu_of_children() - cpu, run.stdout


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", required=True, help="the statespace binary (release)")
    parser.add_argument("--boards", required=True, help="benches/korf100_boards.py's output")
    parser.add_argument("--cache-dir", required=True, help="the table cache with the databases")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    cli_command = [args.bin, "solve", str(CONFIG), "--boards", args.boards, "--json",
                   "--cache-dir", args.cache_dir]
    python_command = [sys.executable, "-c", PYTHON_SIDE, str(CONFIG), args.cache_dir,
                      args.boards]
    cli_times, python_times, inside, cli_cpu, python_cpu = [], [], [], [], []
    cli_search, python_search = [], []
    for _ in range(args.repeat):
        seconds, cpu, out = timed(cli_command)
        cli_times.append(seconds)
        cli_cpu.append(cpu)
        cli = [json.loads(line) for line in out.splitlines()]
        cli_answers = [[a["moves"], a["path"]] for a in cli]
        cli_search.append(sum(a["stats"]["elapsed"] for a in cli))
        seconds, cpu, out = timed(python_command)
        python_times.append(seconds)
        python_cpu.append(cpu)
        result = json.loads(out)
        inside.append(result["inside"])
        python_answers = [[moves, path] for moves, path, _ in result["answers"]]
        python_search.append(sum(elapsed for _, _, elapsed in result["answers"]))
        assert python_answers == cli_answers, "the answers differ"
        assert sum(moves for moves, _ in cli_answers) == 5305
    cli_best, python_best = min(cli_times), min(python_times)
    # The solves' own time (tables loaded, searches) in the run of the best wall time.
    cli_solves = cli_search[cli_times.index(cli_best)]
    python_solves = python_search[python_times.index(python_best)]
    print(f"{len(cli_answers)} boards, equal answers (lengths summing to 5305), best of "
          f"{args.repeat} alternate runs:\n")
    cli_cpu_best, python_cpu_best = min(cli_cpu), min(python_cpu)
    print("| side | wall (whole process) | CPU, user + system | solves (sum of stats.elapsed, "
          "that run) |")
    print("|---|---|---|---|")
    print(f"| command line `solve --boards --json` | {cli_best:.2f} s | {cli_cpu_best:.2f} s | "
          f"{cli_solves:.2f} s |")
    print(f"| Python `load` + `solve_many` | {python_best:.2f} s "
          f"(inside the interpreter {min(inside):.2f} s) | {python_cpu_best:.2f} s | "
          f"{python_solves:.2f} s |")
    print(f"\noverhead: wall {(python_best - cli_best) / cli_best * 100:+.1f} %, CPU "
          f"{(python_cpu_best - cli_cpu_best) / cli_cpu_best * 100:+.1f} % (all runs: command "
          f"line {', '.join(f'{t:.2f}' for t in cli_times)} s wall, "
          f"{', '.join(f'{t:.2f}' for t in cli_cpu)} s CPU; Python "
          f"{', '.join(f'{t:.2f}' for t in python_times)} s wall, "
          f"{', '.join(f'{t:.2f}' for t in python_cpu)} s CPU)")


if __name__ == "__main__":
    main()
