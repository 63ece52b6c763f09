#!/usr/bin/env python3
"""The 8-puzzle's whole space (181,440 boards) swept four ways, side by side in one run
(BENCHMARKS.md, "From Python"): run by hand, not by CI.

    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install networkx ./python
    /tmp/venv/bin/python python/bench/eight_puzzle.py [--repeat 3]

(a) the built-in tiles plugin: `Puzzle("tiles", rows=3, cols=3).explore()` (the library's
    bitset sweep, backward from the goal);
(b) the same puzzle written in Python: `statespace.explore(EightPuzzle())` (the library's
    `forward_hashed` sweep over the adapter, forward from the goal: the same histogram, since
    every move is undone by its opposite);
(c) a plain Python BFS over the same successor function (collections.deque and a set);
(d) networkx: the graph built from the same successor function (timed apart), then
    `single_source_shortest_path_length` (its BFS).

Every run's histogram is checked against (c)'s, and the best of `--repeat` runs is printed: wall
and CPU seconds (the process's CPU, every thread: steadier than the wall clock on a shared
machine), and CPU microseconds per board.
"""

import argparse
import sys
import time
from collections import deque

import statespace

GOAL = (1, 2, 3, 4, 5, 6, 7, 8, 0)
# The cells next to each cell of the 3 x 3 board.
NEIGHBOURS = [
    [n for n in (c - 3, c + 3, c - 1 if c % 3 else -1, c + 1 if c % 3 < 2 else -1) if 0 <= n < 9]
    for c in range(9)
]


def successors(state):
    """(move, board) for each tile next to the blank: the tile slides into the blank."""
    blank = state.index(0)
    for cell in NEIGHBOURS[blank]:
        board = list(state)
        board[blank], board[cell] = board[cell], 0
        yield state[cell], tuple(board)


class EightPuzzle:
    """The 8-puzzle in Python: a board is a tuple of 9 (0 the blank); a move names the tile."""

    start = GOAL

    def successors(self, state):
        return successors(state)

    def is_goal(self, state):
        return state == GOAL


def builtin():
    sweep = statespace.Puzzle("tiles", rows=3, cols=3).explore()
    return sweep.histogram


def defined():
    return statespace.explore(EightPuzzle()).histogram


def plain_bfs():
    """Layer by layer: the queue holds one layer when the count is taken."""
    seen = {GOAL}
    queue = deque([GOAL])
    layers = []
    while queue:
        layers.append(len(queue))
        for _ in range(len(queue)):
            state = queue.popleft()
            for _, board in successors(state):
                if board not in seen:
                    seen.add(board)
                    queue.append(board)
    return layers


def networkx_graph():
    import networkx as nx

    graph = nx.Graph()
    seen = {GOAL}
    queue = deque([GOAL])
    while queue:
        state = queue.popleft()
        for _, board in successors(state):
            graph.add_edge(state, board)
            if board not in seen:
                seen.add(board)
                queue.append(board)
    return graph


def networkx_bfs(graph):
    import networkx as nx

    return histogram(nx.single_source_shortest_path_length(graph, GOAL).values())


def histogram(depths):
    counts = {}
    for d in depths:
        counts[d] = counts.get(d, 0) + 1
    return [counts[d] for d in range(max(counts) + 1)]


def best(run, repeat):
    """The best wall time and the best CPU time (the process's, every thread) of `repeat`
    runs, and the last run's result."""
    times, cpu = [], []
    for _ in range(repeat):
        started, cpu_started = time.perf_counter(), time.process_time()
        result = run()
        times.append(time.perf_counter() - started)
        cpu.append(time.process_time() - cpu_started)
    return (min(times), min(cpu)), result


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    rows = []
    seconds, expected = best(plain_bfs, args.repeat)
    assert sum(expected) == 181440 and len(expected) == 32, expected
    results = [("(c) plain Python BFS (deque + set)", seconds, expected)]
    results.append(("(a) built-in tiles plugin", *best(builtin, args.repeat)))
    results.append(("(b) Python-defined puzzle, library sweep", *best(defined, args.repeat)))
    try:
        seconds, graph = best(networkx_graph, args.repeat)
        results.append(("(d) networkx: building the graph", seconds, None))
        results.append(("(d) networkx: its BFS", *best(lambda: networkx_bfs(graph), args.repeat)))
    except ImportError:
        print("networkx is not installed: (d) left out", file=sys.stderr)
    for name, (seconds, cpu), found in results:
        assert found is None or found == expected, (name, found)
        rows.append(f"| {name} | {seconds:.3f} | {cpu:.3f} | {cpu / 181440 * 1e6:.2f} |")
    print(f"Python {sys.version.split()[0]}, statespace {statespace.__version__}, "
          f"best of {args.repeat}; every histogram equal to the plain BFS's (181,440 boards, "
          f"31 moves deep)\n")
    print("| sweep | wall, s | CPU, s | CPU per board, us |")
    print("|---|---|---|---|")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
