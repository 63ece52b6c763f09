"""Puzzles written in Python, searched by the library's engines (statespace.solve, explore,
export): answers against a brute force written here, errors raised in callbacks, limits,
Ctrl-C, and nothing kept after a run."""

import gc
import subprocess
import sys
import time
import weakref
from collections import deque

import pytest
from helpers import interrupted, ticks_beside

import statespace

ENGINES = ["bfs", "iddfs", "astar", "idastar", "auto"]


class Jugs:
    """Two jugs; fill, empty or pour one into the other until one holds `target` litres."""

    def __init__(self, a=3, b=5, target=4, start=(0, 0)):
        self.capacity, self.target, self.start = (a, b), target, start

    def successors(self, state):
        a, b = state
        A, B = self.capacity
        yield "fill A", (A, b)
        yield "fill B", (a, B)
        yield "empty A", (0, b)
        yield "empty B", (a, 0)
        pour = min(a, B - b)
        yield "pour A into B", (a - pour, b + pour)
        pour = min(b, A - a)
        yield "pour B into A", (a + pour, b - pour)

    def is_goal(self, state):
        return self.target in state

    def heuristic(self, state):
        return 0 if self.is_goal(state) else 1


class Slide:
    """A 2 x 3 sliding puzzle: a state is a tuple of 6 (0 the blank); moves name the tile."""

    board_style = "tiles"
    goal = (1, 2, 3, 4, 5, 0)

    def __init__(self, start):
        self.start = start

    def successors(self, state):
        blank = state.index(0)
        row, col = divmod(blank, 3)
        for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
            if 0 <= r < 2 and 0 <= c < 3:
                cell = 3 * r + c
                after = list(state)
                after[blank], after[cell] = after[cell], 0
                yield f"move {state[cell]}", tuple(after)

    def is_goal(self, state):
        return state == self.goal

    def heuristic(self, state):
        """Manhattan distance: admissible."""
        total = 0
        for cell, tile in enumerate(state):
            if tile:
                home = self.goal.index(tile)
                total += abs(cell // 3 - home // 3) + abs(cell % 3 - home % 3)
        return total

    def board_text(self, state):
        rows = [state[:3], state[3:]]
        return "\n".join(" ".join(str(t) if t else "_" for t in row) for row in rows)


def distances(puzzle):
    """Every reachable state's fewest moves from the start, by a plain BFS."""
    seen = {puzzle.start: 0}
    queue = deque([puzzle.start])
    while queue:
        state = queue.popleft()
        for _, after in puzzle.successors(state):
            if after not in seen:
                seen[after] = seen[state] + 1
                queue.append(after)
    return seen


def fewest_moves(puzzle):
    """The fewest moves to a goal, or None: the brute force every engine must equal."""
    goals = [d for s, d in distances(puzzle).items() if puzzle.is_goal(s)]
    return min(goals) if goals else None


def replay(puzzle, path):
    """The states `path` (the user's move objects) passes through, played from the start."""
    state, states = puzzle.start, []
    for move in path:
        state = dict(puzzle.successors(state))[move]
        states.append(state)
    return states


def slide_starts():
    """Every 2 x 3 board the goal reaches, one in 20 (18 boards, distances 0 to 21)."""
    reached = distances(Slide(Slide.goal))
    return sorted(reached, key=lambda s: (reached[s], s))[::20]


PUZZLES = [Jugs(), Jugs(3, 5, 1), Jugs(4, 9, 6), Jugs(2, 7, 5, start=(2, 7))] + [
    Slide(start) for start in slide_starts()
]


@pytest.mark.parametrize("puzzle", PUZZLES, ids=lambda p: f"{type(p).__name__}{p.start}")
def test_every_engine_equals_a_brute_force(puzzle):
    expected = fewest_moves(puzzle)
    for mode in ENGINES:
        answer = statespace.solve(puzzle, mode=mode)
        assert answer.moves == expected, mode
        assert answer.outcome == "solved" and answer.solvable
        assert answer.mode == {"auto": "astar"}.get(mode, mode)
        states = replay(puzzle, answer.path)
        assert answer.states == states
        assert puzzle.is_goal(states[-1] if states else puzzle.start)
        text = getattr(puzzle, "board_text", repr)
        assert answer.boards == [text(s) for s in states]
        assert answer.start == text(puzzle.start)
        assert answer.stats["expanded"] >= len(states)
    assert statespace.solve(puzzle).to_dict()["auto"] is True


def test_unsolvable_is_proven_where_the_engine_proves_it():
    never = Jugs(3, 6, 4)  # every amount is a multiple of 3
    for mode in ["bfs", "astar"]:
        answer = statespace.solve(never, mode=mode)
        assert (answer.outcome, answer.solvable, answer.moves) == ("unsolvable", False, None)
        assert answer.path == [] and answer.states == []
    # Depth-first engines search a tree with cycles; their transposition table (it holds the
    # current branch: a branch that comes back to a state on it stops there) lets an iteration
    # run out of nodes before its bound, which proves the start unsolvable.
    for mode in ["iddfs", "idastar"]:
        answer = statespace.solve(never, mode=mode, max_depth=50)
        assert (answer.outcome, answer.solvable, answer.moves) == ("unsolvable", False, None)


@pytest.mark.parametrize("puzzle", PUZZLES[:4] + [Slide(Slide.goal)], ids=str)
def test_explore_equals_a_brute_force(puzzle):
    reached = distances(puzzle)
    histogram = [0] * (max(reached.values()) + 1)
    for d in reached.values():
        histogram[d] += 1
    sweep = statespace.explore(puzzle)
    assert sweep.histogram == histogram
    assert sweep.reachable == len(reached) and sweep.complete
    assert sweep.direction == "forward" and sweep.space_size is None
    assert reached[sweep.farthest_state] == len(histogram) - 1
    text = getattr(puzzle, "board_text", repr)
    assert sweep.example_farthest == text(sweep.farthest_state)
    limited = statespace.explore(puzzle, max_depth=2)
    assert limited.histogram == histogram[:3]
    assert limited.complete == (len(histogram) <= 3)


def test_states_and_moves_may_be_any_hashable_value():
    class Words:
        """Words over {a, b} of up to 4 letters; a move appends a letter (a frozenset label)."""

        start = ""

        def successors(self, word):
            if len(word) < 4:
                for letter in "ab":
                    yield frozenset({letter, len(word)}), word + letter

        def is_goal(self, word):
            return word == "abba"

    answer = statespace.solve(Words())
    assert answer.states == ["a", "ab", "abb", "abba"]
    assert answer.path == [frozenset({"a", 0}), frozenset({"b", 1}), frozenset({"b", 2}),
                           frozenset({"a", 3})]
    assert answer.boards == ["'a'", "'ab'", "'abb'", "'abba'"]

    class Unhashable(Words):
        start = ["a"]

    with pytest.raises(TypeError, match="unhashable"):
        statespace.solve(Unhashable())


class Boom(Exception):
    pass


class Faulty:
    """Counts up and doubles without end; `fault` names the callback that fails, at state 40."""

    start = 1

    def __init__(self, fault=None, value=None):
        self.fault, self.value = fault, value

    def successors(self, n):
        if self.fault == "successors" and n == 40:
            raise Boom("successors")
        if self.fault == "not iterable":
            return 7
        if self.fault == "not pairs" and n == 40:
            return [("+1", n + 1, "extra")]
        return [("+1", n + 1), ("*2", 2 * n)]

    def is_goal(self, n):
        if self.fault == "is_goal" and n == 40:
            raise Boom("is_goal")
        return False

    def heuristic(self, n):
        if self.fault == "heuristic" and n == 40:
            if self.value is not None:
                return self.value
            raise Boom("heuristic")
        return 0

    def board_text(self, n):
        if self.fault == "board_text":
            return n
        return str(n)


@pytest.mark.parametrize("mode", ["bfs", "iddfs", "astar", "idastar"])
@pytest.mark.parametrize("fault", ["successors", "is_goal", "heuristic"])
def test_an_exception_in_a_callback_propagates_as_itself(fault, mode):
    if fault == "heuristic" and mode in ("bfs", "iddfs"):
        pytest.skip("no estimate asked")
    started = time.monotonic()
    with pytest.raises(Boom, match=fault) as raised:
        statespace.solve(Faulty(fault), mode=mode, time_limit=30)
    assert time.monotonic() - started < 1
    # The traceback reaches into the callback that raised.
    assert raised.traceback[-1].name == fault


@pytest.mark.parametrize(
    "fault, value, error, message",
    [
        ("not iterable", None, TypeError, r"Faulty.successors\(1\) returned 7: not an iterable"),
        ("not pairs", None, TypeError, r"yielded \('\+1', 41, 'extra'\): not a \(move, state\)"),
        ("heuristic", -1, ValueError, r"Faulty.heuristic\(40\) returned -1: not a lower bound"),
        ("heuristic", 1.5, TypeError, r"Faulty.heuristic\(40\) returned 1.5: not an int"),
        ("heuristic", 2**40, ValueError, r"below 2\^32"),
    ],
)
def test_an_answer_of_the_wrong_type_raises(fault, value, error, message):
    with pytest.raises(error, match=message):
        statespace.solve(Faulty(fault, value), mode="astar", time_limit=30)


def test_board_text_must_be_a_str_and_a_puzzle_needs_its_methods():
    with pytest.raises(TypeError, match=r"Faulty.board_text\(1\) returned 1: not a str"):
        statespace.solve(Faulty("board_text"), max_depth=1)

    class NoSuccessors:
        start = 0

        def is_goal(self, state):
            return True

    with pytest.raises(TypeError, match="NoSuccessors has no successors"):
        statespace.solve(NoSuccessors())
    no_start = type("NoStart", (), {"successors": lambda s, n: [], "is_goal": lambda s, n: True})
    with pytest.raises(TypeError, match="NoStart has no `start`"):
        statespace.solve(no_start())
    with pytest.raises(ValueError, match=r"mode: search mode `table` is not supported .*"
                                         r"\(supported: bfs, iddfs, astar, idastar, beam, auto\)"):
        statespace.solve(Jugs(), mode="table")
    no_heuristic = type("Plain", (), {"start": 0, "successors": lambda s, n: [],
                                      "is_goal": lambda s, n: n == 0})()
    with pytest.raises(ValueError, match=r"\(supported: bfs, iddfs, beam, auto\)"):
        statespace.solve(no_heuristic, mode="astar")
    # A start given as a method is called.
    class Method(Jugs):
        def __init__(self):
            super().__init__()
            del self.start  # the method below, not the instance's attribute

        def start(self):
            return (3, 0)

    assert statespace.solve(Method()).moves == fewest_moves(Jugs(start=(3, 0))) == 7


@pytest.mark.parametrize("mode", ["bfs", "iddfs", "astar", "idastar"])
def test_a_time_limit_stops_a_python_puzzle_within_a_second(mode):
    started = time.monotonic()
    answer = statespace.solve(Faulty(), mode=mode, time_limit=0.3)
    took = time.monotonic() - started
    assert answer.outcome == "limit-reached" and answer.limit == "time limit 300ms reached"
    assert took < 1.3, took
    sweep = statespace.explore(Faulty(), time_limit=0.3)
    assert sweep.limit == "time limit 300ms reached" and not sweep.complete
    assert sum(sweep.histogram) == sweep.reachable


def test_slow_callbacks_still_stop_on_time():
    class Slow(Faulty):
        def successors(self, n):
            time.sleep(0.02)
            return super().successors(n)

    for mode in ["bfs", "iddfs"]:
        started = time.monotonic()
        answer = statespace.solve(Slow(), mode=mode, time_limit=0.3)
        assert answer.limit == "time limit 300ms reached"
        assert time.monotonic() - started < 1.3


@pytest.mark.parametrize("hook", ["sys.setprofile", "sys.settrace"])
def test_runs_under_a_profiler_or_a_tracer(hook):
    """cProfile, coverage and debuggers install such a hook. A run once left the interpreter
    told an exception was pending in its engine's thread (gone by then); under a hook the
    caller then looped for ever at its next line of Python."""
    code = f"""
import sys, time, statespace
class Count:
    start = 0
    def successors(self, n):
        return [("+1", n + 1)] if n < 5 else []
    def is_goal(self, n):
        return n == 5
class Endless(Count):
    def successors(self, n):
        return [("+1", n + 1), ("*2", 2 * n)]
    def is_goal(self, n):
        return False
calls = []
{hook}(lambda *args: calls.append(1) and None)
print(statespace.solve(Count()).moves, statespace.explore(Count()).histogram)
print(statespace.solve(Endless(), mode="bfs", time_limit=0.2).outcome)
print(statespace.solve(Count(), mode="iddfs").moves)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split("\n")[:3] == ["5 [1, 1, 1, 1, 1, 1]", "limit-reached", "5"]


class Stuck:
    """A puzzle whose `successors` never returns in time: `hold` says how it holds the engine.
    `ended` records how each call ended (the exception's name), when it did."""

    start = 0

    def __init__(self, hold):
        self.hold, self.ended = hold, []

    def successors(self, n):
        if self.hold == "pass":
            while True:  # the loop (Python 3.11 raises its exception past `try`)
                pass
        try:
            if self.hold == "loop":
                while True:
                    n += 1
            time.sleep(5)
            return [("+1", n + 1)]
        except BaseException as e:
            self.ended.append(type(e).__name__)
            raise

    def is_goal(self, n):
        return False


@pytest.mark.parametrize("hold", ["pass", "loop", "sleep"])
def test_a_callback_that_never_returns_still_stops_at_the_time_limit(hold):
    # Before: a loop ran on past any limit, and a sleep answered after its 5 s.
    for run in (statespace.solve, statespace.explore):
        puzzle = Stuck(hold)
        started = time.monotonic()
        answer = run(puzzle, time_limit=1)
        took = time.monotonic() - started
        assert answer.limit == "time limit 1s reached", answer.limit
        assert 1 <= took < 3, took
        if run is statespace.solve:
            assert answer.outcome == "limit-reached" and answer.moves is None
        else:
            # The start's layer was complete before its expansion stuck.
            assert answer.histogram == [1] and answer.reachable == 1 and not answer.complete
        if hold == "loop":
            # Python code is interrupted, not left running: the callback ended before the answer,
            # by an exception `except Exception` lets through.
            assert puzzle.ended == ["SearchStopped"]
            assert not issubclass(statespace.SearchStopped, Exception)
        if hold == "sleep":
            # C code is not: the answer came without waiting for it.
            assert puzzle.ended == []


def test_state_and_memory_limits_are_answers():
    answer = statespace.solve(Faulty(), mode="bfs", max_states=1000)
    assert answer.limit == "state limit 1000 reached"
    answer = statespace.solve(Faulty(), mode="bfs", memory="64KiB")
    assert answer.outcome == "limit-reached" and "over the budget of 64.0 KiB" in answer.limit
    with pytest.raises(statespace.MemoryLimitError) as refused:
        statespace.export(Jugs(), memory="1KiB")
    assert isinstance(refused.value, MemoryError)
    assert refused.value.needed > refused.value.budget == 1024
    assert "over the budget of 1.0 KiB (raise it with memory=)" in str(refused.value)


def test_other_threads_run_while_a_python_puzzle_is_searched():
    answer, ticks = ticks_beside(lambda: statespace.solve(Faulty(), mode="bfs", time_limit=1.0))
    assert answer.outcome == "limit-reached"
    assert ticks > 100, ticks


def test_ctrl_c_stops_a_python_defined_search_within_a_second():
    out, took = interrupted("""
class Endless:
    start = 1
    def successors(self, n):
        return [("+1", n + 1), ("*2", 2 * n)]
    def is_goal(self, n):
        return False
statespace.solve(Endless(), mode="iddfs", time_limit=60)
""")
    assert out == "interrupted"
    assert took < 1.0, took


@pytest.mark.parametrize("hold", ["while True: pass", "time.sleep(60)"])
def test_ctrl_c_interrupts_a_callback_that_never_returns(hold):
    # Before: the interpreter waited for the callback (two Ctrl-C ignored under `pass`).
    out, took = interrupted(f"""
import time
class Stuck:
    start = 0
    def successors(self, n):
        {hold}
    def is_goal(self, n):
        return False
statespace.solve(Stuck(), time_limit=60)
""")
    assert out == "interrupted"
    assert took < 1.0, took


class Tracked:
    """A state whose objects are counted by weak references."""

    def __init__(self, n):
        self.n = n

    def __hash__(self):
        return hash(self.n)

    def __eq__(self, other):
        return self.n == other.n

    def __repr__(self):
        return f"T{self.n}"


def test_nothing_is_kept_after_a_run():
    alive = weakref.WeakSet()

    class Counting:
        start = Tracked(0)

        def successors(self, s):
            for step in (1, 3):
                t = Tracked((s.n + step) % 50)
                alive.add(t)
                yield step, t

        def is_goal(self, s):
            if s.n == 49 and self.fail:
                raise Boom("late")
            return s.n == 49

    puzzle = Counting()
    for fail in (False, True):
        puzzle.fail = fail
        for run in (lambda: statespace.solve(puzzle).moves,
                    lambda: statespace.explore(puzzle).reachable,
                    lambda: statespace.export(puzzle).number_of_nodes()):
            try:
                run()
            except Boom:
                assert fail
            gc.collect()
            assert len(alive) == 0, list(alive)


def test_export_of_a_python_puzzle():
    nx = pytest.importorskip("networkx")
    puzzle = Jugs()
    graph = statespace.export(puzzle)
    assert isinstance(graph, nx.DiGraph) and graph.graph["complete"]
    reached = distances(puzzle)
    assert set(graph.nodes) == set(reached)
    for state, data in graph.nodes(data=True):
        assert data["depth"] == reached[state] and data["board"] == repr(state)
        assert data["goal"] == puzzle.is_goal(state)
    assert graph.nodes[puzzle.start]["start"]
    assert graph.nodes[puzzle.start]["goal_distance"] == fewest_moves(puzzle)
    path = nx.shortest_path(graph, puzzle.start, (3, 4))
    assert len(path) - 1 == statespace.solve(puzzle).moves
    moves = {d["move"] for _, _, d in graph.edges(data=True)}
    assert moves == {m for m, _ in puzzle.successors((1, 1))}
    cut = statespace.export(puzzle, depth=1)
    assert cut.number_of_nodes() == len({puzzle.start} | {s for _, s in puzzle.successors(puzzle.start)})
    assert not cut.graph["complete"]


def test_export_of_a_python_puzzle_without_networkx(monkeypatch):
    monkeypatch.setitem(sys.modules, "networkx", None)
    data = statespace.export(Jugs(), max_states=3)
    assert [n["state"] for n in data["nodes"]] == [(0, 0), (3, 0), (0, 5)]
    assert [n["id"] for n in data["nodes"]] == [0, 1, 2]
    assert {link["move"] for link in data["links"]} >= {"fill A", "fill B"}
    with pytest.raises(ValueError, match="max_states"):
        statespace.export(Jugs(), max_states=0)


def test_a_built_in_puzzle_goes_through_the_same_functions():
    puzzle = statespace.Puzzle("tiles", rows=2, cols=3, board="1 2 3\n4 _ 5")
    assert statespace.solve(puzzle).path == ["5 left"]
    assert statespace.solve(puzzle, mode="bfs").mode == "bfs"
    assert statespace.explore(puzzle).reachable == 360
    assert statespace.export(puzzle, depth=1).number_of_nodes() == 4
