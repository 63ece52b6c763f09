"""`statespace.explore` of a puzzle written in Python (issue 44, item 4): its states kept as
compact keys in Rust, made again from them; a `key(state)` hook; Python's own hashing for
states with no key. Every way must count what a plain BFS counts, with Python's equality."""

import gc
import weakref
from collections import Counter, deque

import pytest
from helpers import interrupted

import statespace


def brute_force(puzzle, start=None):
    """(histogram, distance of each state) from the start: a plain BFS with a dict."""
    start = puzzle.start if start is None else start
    seen = {start: 0}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        for _, after in puzzle.successors(state):
            if after not in seen:
                seen[after] = seen[state] + 1
                queue.append(after)
    counts = Counter(seen.values())
    return [counts[d] for d in range(max(counts) + 1)], seen


class Ring:
    """States `value(i)` for i in 0..n (a ring: +1, -1, and a jump of 7)."""

    def __init__(self, n, value, name):
        self.n, self.value, self.name = n, value, name
        self.start = value(0)
        self.index = {value(i): i for i in range(n)}

    def successors(self, state):
        i = self.index[state]
        for step in (1, -1, 7):
            yield step, self.value((i + step) % self.n)

    def is_goal(self, state):
        return False

    def __repr__(self):
        return self.name


RINGS = [
    Ring(200, lambda i: i, "ints"),
    Ring(200, lambda i: i - 100, "negative ints"),
    Ring(200, lambda i: i * 10**12 - 10**14, "ints past 32 bits"),
    Ring(200, lambda i: (i % 7, i // 7), "pairs"),
    Ring(200, lambda i: (i * 1000, -i), "tuples of wider ints"),
    Ring(200, lambda i: tuple(range(i % 5)) + (i,), "tuples of several lengths"),
    Ring(200, lambda i: f"s{i}", "str"),
    Ring(200, lambda i: "é" * (i % 3) + str(i), "non-ASCII str"),
    Ring(200, lambda i: bytes([i % 256, i // 256]), "bytes"),
    Ring(200, lambda i: (), "the empty tuple"),
    # Past -5 and 127 (the ints a tuple's fast path reads from their address, a byte each).
    Ring(200, lambda i: (i - 6, 120 + i % 12, -(i % 3)), "tuples about the byte's edges"),
    # No key: Python's own hashing from the start.
    Ring(200, lambda i: frozenset({i, -i - 1}), "frozensets"),
    Ring(200, lambda i: (i, 0.5), "tuples holding floats"),
    Ring(200, lambda i: ((i, 1), (2, 3)), "nested tuples"),
    # A key at first, none later: the sweep falls back midway.
    Ring(200, lambda i: 2**70 * (i > 30) + i, "ints past 64 bits after 30"),
    Ring(200, lambda i: (i, True) if i > 50 else (i, 2), "a bool after 50"),
]


@pytest.mark.parametrize("ring", RINGS, ids=repr)
def test_every_kind_of_state_counts_as_a_plain_bfs(ring):
    expected, distance = brute_force(ring)
    sweep = statespace.explore(ring)
    assert sweep.histogram == expected and sweep.complete
    assert type(sweep.farthest_state) is type(ring.start)
    assert distance[sweep.farthest_state] == len(expected) - 1
    assert sweep.stats["expanded"] == sweep.reachable
    assert sweep.stats["generated"] == 3 * sweep.reachable
    # Limits hold in every way too.
    assert statespace.explore(ring, max_depth=3).histogram == expected[:4]
    cut, total = [], 0
    for count in expected:
        cut.append(count)
        total += count
        if total > 5:
            break
    assert statespace.explore(ring, max_states=5).histogram == cut


def test_states_equal_in_python_are_one_state_whatever_their_type():
    class Mixed:
        """(a, b) and (a, float(b)) are equal in Python: the same state, met both ways."""

        start = (0, 0)

        def successors(self, state):
            a, b = state
            if a < 20:
                yield "int", (a + 1, int(b))
                yield "float", (a + 1, float(b) + 0.0)
                yield "back", (max(a - 1, 0), b)

        def is_goal(self, state):
            return False

    expected, _ = brute_force(Mixed())
    assert expected == [1] + [1] * 20
    assert statespace.explore(Mixed()).histogram == expected


def test_a_key_hook_identifies_states_that_are_not_hashable():
    class Lists:
        """States are lists (unhashable); `key` makes each a tuple."""

        start = [0, 0]

        def successors(self, state):
            a, b = state
            return [(1, [(a + 1) % 12, b]), (2, [a, (b + a) % 9])]

        def is_goal(self, state):
            return False

        def key(self, state):
            return tuple(state)

    class Tuples(Lists):
        start = (0, 0)
        key = None

        def successors(self, state):
            return [(m, tuple(s)) for m, s in Lists.successors(self, state)]

    expected, _ = brute_force(Tuples())
    sweep = statespace.explore(Lists())
    assert sweep.histogram == expected and isinstance(sweep.farthest_state, list)
    # A key with no encoding falls back to Python's hashing of the keys.
    class FrozenKey(Lists):
        def key(self, state):
            return frozenset(enumerate(state))

    assert statespace.explore(FrozenKey()).histogram == expected

    class BadKey(Lists):
        def key(self, state):
            return state  # a list: unhashable once it must be hashed by Python

    with pytest.raises(TypeError, match="unhashable"):
        statespace.explore(BadKey())


class Tracked:
    """A state counted by weak references."""

    def __init__(self, n):
        self.n = n

    def __hash__(self):
        return hash(self.n)

    def __eq__(self, other):
        return self.n == other.n


@pytest.mark.parametrize("keyed", [False, True])
def test_nothing_is_kept_after_a_sweep(keyed):
    alive = weakref.WeakSet()

    class Counting:
        start = Tracked(0)

        def successors(self, s):
            for step in (1, 3):
                t = Tracked((s.n + step) % 500)
                alive.add(t)
                yield step, t

        def is_goal(self, s):
            return False

    if keyed:
        Counting.key = lambda self, s: s.n
    for limit in [None, 100]:
        sweep = statespace.explore(Counting(), max_states=limit)
        assert sweep.complete == (limit is None)
        assert isinstance(sweep.farthest_state, Tracked)
        del sweep
        gc.collect()
        assert len(alive) == 0


def test_a_successors_answer_may_be_any_iterable_of_pairs():
    from collections import namedtuple

    Pair = namedtuple("Pair", "move state")

    class Shapes:
        start = 0

        def successors(self, n):
            pairs = [("+", (n + 1) % 50), ("-", (n - 1) % 50)]
            named = [Pair(*pair) for pair in pairs]  # a tuple subclass
            return {0: pairs, 1: tuple(pairs), 2: iter(pairs), 3: (p for p in pairs),
                    4: named}[n % 5]

        def is_goal(self, n):
            return False

    assert statespace.explore(Shapes()).histogram == [1] + [2] * 24 + [1]

    class NotPairs(Shapes):
        def successors(self, n):
            return [("+", n + 1, "extra")]

    with pytest.raises(TypeError, match=r"NotPairs.successors\(0\) yielded \('\+', 1, 'extra'\): "
                                        r"not a \(move, state\) pair"):
        statespace.explore(NotPairs())

    class NotIterable(Shapes):
        def successors(self, n):
            return 7

    with pytest.raises(TypeError, match=r"returned 7: not an iterable"):
        statespace.explore(NotIterable())


def test_a_sweep_of_a_python_puzzle_stays_small():
    """The states met are kept as bytes: the sweep's own memory is a small part of what Python
    keeps for each state (a tuple of 8 ints alone is 120 bytes)."""

    class Perms:
        start = tuple(range(8))

        def successors(self, s):
            return [(k, s[k - 1::-1] + s[k:]) for k in range(2, 9)]

        def is_goal(self, s):
            return False

    sweep = statespace.explore(Perms())
    assert sweep.reachable == 40320
    assert sweep.engine_memory_bytes < 40 * 40320, sweep.engine_memory_bytes


def test_ctrl_c_stops_a_sweep_within_a_second():
    out, took = interrupted("""
class Endless:
    start = 1
    def successors(self, n):
        return [("+1", n + 1), ("*2", 2 * n)]
    def is_goal(self, n):
        return False
statespace.explore(Endless(), time_limit=60)
""")
    assert out == "interrupted"
    assert took < 1.0, took
