#!/usr/bin/env python3
"""A Python-defined puzzle swept by the library (`statespace.explore(p)`) against a plain
Python BFS over the same `successors` (a `collections.deque` and a `dict` of distances), side by
side (issue 44, item 4): run by hand, not by CI.

    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install ./python
    /tmp/venv/bin/python python/bench/sweep_vs_bfs.py [--repeat 3] [--only pancakes-9 ...]

Puzzles (each a whole space, swept from its sorted or solved state):

    pancakes-9, pancakes-10   pancake sorting: flip the top k pancakes (362,880 and 3,628,800)
    burnt-7, burnt-8          burnt pancakes: a flip also turns them over (645,120, 10,321,920)
    eight-puzzle              the 8-puzzle, a tuple of 9 (181,440)

Each measurement is a process of its own (`--child`), so that its peak RSS is its own: the same
interpreter, the same imports and the same puzzle classes on both sides; CPU is the process's
(`time.process_time`, every thread: the library's engine runs on a thread of its own) over the
sweep alone, peak RSS the process's (`ru_maxrss`, interpreter and imports included, the same on
both sides). Both sides must find the same histogram. The table gives the best of `--repeat`
runs for CPU and the lowest peak, and the ratios library / BFS (CPU: at most 0.5 wanted; memory:
at most 1).
"""

import argparse
import json
import resource
import subprocess
import sys
import time
from collections import deque


class Pancakes:
    """Pancake sorting: a stack is a tuple of 0..n-1, top first; move k flips the top k."""

    def __init__(self, n):
        self.n = n
        self.start = tuple(range(n))

    def successors(self, stack):
        return [(k, stack[k - 1::-1] + stack[k:]) for k in range(2, self.n + 1)]

    def is_goal(self, stack):
        return stack == self.start


class BurntPancakes:
    """Burnt pancakes: a stack is a tuple of 1..n signed (negative: burnt side up); move k flips
    the top k, turning each over."""

    def __init__(self, n):
        self.n = n
        self.start = tuple(range(1, n + 1))

    def successors(self, stack):
        return [(k, tuple([-p for p in stack[k - 1::-1]]) + stack[k:])
                for k in range(1, self.n + 1)]

    def is_goal(self, stack):
        return stack == self.start


GOAL = (1, 2, 3, 4, 5, 6, 7, 8, 0)
# The cells next to each cell of the 3 x 3 board.
NEIGHBOURS = [
    [n for n in (c - 3, c + 3, c - 1 if c % 3 else -1, c + 1 if c % 3 < 2 else -1) if 0 <= n < 9]
    for c in range(9)
]


class EightPuzzle:
    """The 8-puzzle (as python/bench/eight_puzzle.py): a board is a tuple of 9, 0 the blank; a
    move names the tile that slides into the blank."""

    start = GOAL

    def successors(self, state):
        blank = state.index(0)
        for cell in NEIGHBOURS[blank]:
            board = list(state)
            board[blank], board[cell] = board[cell], 0
            yield state[cell], tuple(board)

    def is_goal(self, state):
        return state == GOAL


PUZZLES = {
    "pancakes-9": (lambda: Pancakes(9), 362880),
    "pancakes-10": (lambda: Pancakes(10), 3628800),
    "burnt-7": (lambda: BurntPancakes(7), 645120),
    "burnt-8": (lambda: BurntPancakes(8), 10321920),
    "eight-puzzle": (EightPuzzle, 181440),
}


def plain_bfs(puzzle):
    """The BFS a person writes: a deque, and a dict from each state met to its distance."""
    seen = {puzzle.start: 0}
    queue = deque([puzzle.start])
    while queue:
        state = queue.popleft()
        d = seen[state] + 1
        for _, after in puzzle.successors(state):
            if after not in seen:
                seen[after] = d
                queue.append(after)
    histogram = [0] * (max(seen.values()) + 1)
    for d in seen.values():
        histogram[d] += 1
    return histogram


def library(puzzle):
    import statespace

    sweep = statespace.explore(puzzle)
    assert sweep.complete, sweep.limit
    return sweep.histogram


def child(name, side):
    """One measurement in this process: prints the histogram, CPU seconds and peak RSS."""
    import statespace  # noqa: F401  (imported on both sides: the same baseline)

    puzzle = PUZZLES[name][0]()
    run = {"bfs": plain_bfs, "library": library}[side]
    cpu = time.process_time()
    histogram = run(puzzle)
    cpu = time.process_time() - cpu
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"histogram": histogram, "cpu": cpu, "peak_mb": peak_mb}))


def measure(name, side):
    out = subprocess.run([sys.executable, __file__, "--child", name, side], check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", nargs="*", choices=list(PUZZLES))
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return
    import statespace

    print(f"Python {sys.version.split()[0]}, statespace {statespace.__version__}, best of "
          f"{args.repeat} (CPU: least; peak RSS: least), each run a process of its own\n")
    print("| puzzle | states | BFS CPU, s | BFS peak, MB | library CPU, s | library peak, MB "
          "| CPU ratio | memory ratio |")
    print("|---|---|---|---|---|---|---|---|")
    for name in args.only or PUZZLES:
        states = PUZZLES[name][1]
        best = {}
        for side in ("bfs", "library"):
            runs = [measure(name, side) for _ in range(args.repeat)]
            for r in runs:
                assert sum(r["histogram"]) == states, (name, side, sum(r["histogram"]))
            best[side] = (min(r["cpu"] for r in runs), min(r["peak_mb"] for r in runs),
                          runs[0]["histogram"])
        assert best["bfs"][2] == best["library"][2], name
        (bc, bm, _), (lc, lm, _) = best["bfs"], best["library"]
        print(f"| {name} | {states:,} | {bc:.2f} | {bm:.0f} | {lc:.2f} | {lm:.0f} "
              f"| {lc / bc:.2f} | {lm / bm:.2f} |", flush=True)


if __name__ == "__main__":
    main()
