"""Puzzles written in Python as open as built-in ones (issue 44, item 3): solved from any state,
swept backward from their goals, exported undirected when their moves are invertible, a cut
run warned of; and built-in puzzles given boards as lists. Answers against known figures and a
brute force written here."""

import warnings
from collections import Counter, deque
from pathlib import Path

import pytest

import statespace

ROOT = Path(__file__).resolve().parents[2]
# The 8-puzzle's boards by distance from the goal (181,440 in all, 31 moves at most).
EIGHT_PUZZLE = [1, 2, 4, 8, 16, 20, 39, 62, 116, 152, 286, 396, 748, 1024, 1893, 2512, 4485,
                5638, 9529, 10878, 16993, 17110, 23952, 20224, 24047, 15578, 14560, 6274, 3910,
                760, 221, 2]
# Stacks of n pancakes by the fewest flips that sort them (OEIS A058986).
PANCAKES = {4: [1, 3, 6, 11, 3], 5: [1, 4, 12, 35, 48, 20], 6: [1, 5, 20, 79, 199, 281, 133, 2]}

GOAL = (1, 2, 3, 4, 5, 6, 7, 8, 0)
NEIGHBOURS = [
    [n for n in (c - 3, c + 3, c - 1 if c % 3 else -1, c + 1 if c % 3 < 2 else -1) if 0 <= n < 9]
    for c in range(9)
]


class EightPuzzle:
    """The 8-puzzle: a tuple of 9, 0 the blank; a move names the tile that slides."""

    start = GOAL
    invertible = True
    goals = [GOAL]
    board_style = "tiles"

    def successors(self, state):
        blank = state.index(0)
        for cell in NEIGHBOURS[blank]:
            board = list(state)
            board[blank], board[cell] = board[cell], 0
            yield state[cell], tuple(board)

    def is_goal(self, state):
        return state == GOAL

    def heuristic(self, state):
        return sum(abs(c // 3 - (t - 1) // 3) + abs(c % 3 - (t - 1) % 3)
                   for c, t in enumerate(state) if t)


class Pancakes:
    """Pancake sorting; `burnt`: a flip also turns the pancakes over (negative: burnt side up).
    Every flip undoes itself."""

    invertible = True

    def __init__(self, n, burnt=False):
        self.n, self.burnt = n, burnt
        self.start = tuple(range(1, n + 1))

    def goals(self):
        return [self.start]

    def successors(self, stack):
        for k in range(1 if self.burnt else 2, self.n + 1):
            top = stack[k - 1::-1]
            if self.burnt:
                top = tuple(-p for p in top)
            yield k, top + stack[k:]

    def is_goal(self, stack):
        return stack == self.start


class Jugs:
    """Two jugs of 3 and 5 litres: emptying one cannot be undone."""

    start = (0, 0)

    def successors(self, state):
        a, b = state
        yield "fill A", (3, b)
        yield "fill B", (a, 5)
        yield "empty A", (0, b)
        yield "empty B", (a, 0)
        pour = min(a, 5 - b)
        yield "pour A into B", (a - pour, b + pour)
        pour = min(b, 3 - a)
        yield "pour B into A", (a + pour, b - pour)

    def is_goal(self, state):
        return 4 in state


def histogram(puzzle, sources):
    """The states reached from `sources` counted by distance: a plain BFS."""
    seen = {s: 0 for s in sources}
    queue = deque(seen)
    while queue:
        state = queue.popleft()
        for _, after in puzzle.successors(state):
            if after not in seen:
                seen[after] = seen[state] + 1
                queue.append(after)
    counts = Counter(seen.values())
    return [counts[d] for d in range(max(counts) + 1)]


def test_solve_from_a_board_of_a_python_puzzle():
    hardest = (8, 6, 7, 2, 5, 4, 3, 0, 1)
    answer = statespace.solve(EightPuzzle(), board=hardest)
    assert (answer.moves, answer.mode, answer.optimal) == (31, "astar", True)
    assert answer.start == repr(hardest) and answer.states[-1] == GOAL
    # Jugs from 3 litres in A: 7 moves (a brute force: test_defined.py), BFS and IDDFS alike.
    for mode in ["bfs", "iddfs"]:
        assert statespace.solve(Jugs(), mode=mode, board=(3, 0)).moves == 7
    assert statespace.solve(Jugs(), board=(0, 4)).moves == 0
    # The start is unchanged: the board is one run's.
    assert statespace.solve(Jugs()).moves == 6
    # A board as the built-in puzzle takes it, through the same function.
    tiles = statespace.Puzzle("tiles", rows=3, cols=3)
    assert statespace.solve(tiles, board="8 6 7\n2 5 4\n3 _ 1").moves == 31


def test_explore_from_the_goals_of_an_invertible_puzzle():
    sweep = statespace.explore(EightPuzzle(), explore_from="goals")
    assert sweep.histogram == EIGHT_PUZZLE and sweep.direction == "backward"
    assert sweep.complete and sweep.reachable == 181440
    assert sweep.histogram == statespace.Puzzle("tiles", rows=3, cols=3).explore().histogram
    assert sweep.farthest_state in {(8, 6, 7, 2, 5, 4, 3, 0, 1), (6, 4, 7, 8, 5, 0, 3, 2, 1)}
    for n, expected in PANCAKES.items():
        assert statespace.explore(Pancakes(n), explore_from="goals").histogram == expected
    # Burnt pancakes: 2^n n! stacks; the burnt pancake numbers 4, 6 and 8 for n = 2, 3, 4.
    for n, most in [(2, 4), (3, 6), (4, 8)]:
        burnt = Pancakes(n, burnt=True)
        sweep = statespace.explore(burnt, explore_from="goals")
        assert sweep.histogram == histogram(burnt, [burnt.start])
        assert sweep.reachable == 2**n * [1, 1, 2, 6, 24][n] and sweep.max_distance == most
    # From the start is the default, and the same on an invertible puzzle with one goal.
    assert statespace.explore(Pancakes(5)).direction == "forward"
    assert statespace.explore(Pancakes(5), explore_from="start").histogram == PANCAKES[5]


def test_several_goals_are_swept_from_at_once():
    class EitherEnd(Pancakes):
        def goals(self):
            return [self.start, self.start[::-1], self.start]  # a repeat counts once

    puzzle = EitherEnd(5)
    sweep = statespace.explore(puzzle, explore_from="goals")
    assert sweep.histogram[0] == 2
    assert sweep.histogram == histogram(puzzle, [puzzle.start, puzzle.start[::-1]])


def test_goals_need_an_invertible_puzzle_with_goals():
    message = r"explore_from=\"goals\": Jugs needs `invertible = True` and `goals`"
    with pytest.raises(ValueError, match=message):
        statespace.explore(Jugs(), explore_from="goals")

    class NoGoals(Pancakes):
        goals = None

    with pytest.raises(ValueError, match="NoGoals needs `invertible = True` and `goals`"):
        statespace.explore(NoGoals(4), explore_from="goals")

    class NotSaidInvertible(Pancakes):
        invertible = False

    with pytest.raises(ValueError, match="NotSaidInvertible needs"):
        statespace.explore(NotSaidInvertible(4), explore_from="goals")

    class Empty(Pancakes):
        goals = []

    with pytest.raises(ValueError, match="Empty.goals: no goal state"):
        statespace.explore(Empty(4), explore_from="goals")
    with pytest.raises(ValueError, match="explore_from"):
        statespace.explore(Pancakes(4), explore_from="sideways")
    with pytest.raises(ValueError, match="takes none"):
        statespace.explore(Pancakes(4), explore_from="goals", board=(2, 1, 3, 4))

    class Word(Pancakes):
        invertible = "yes"

    with pytest.raises(TypeError, match="Word.invertible: True or False"):
        statespace.explore(Word(4))


def test_explore_from_a_board():
    sweep = statespace.explore(Jugs(), board=(3, 0))
    assert sweep.histogram == histogram(Jugs(), [(3, 0)]) != histogram(Jugs(), [(0, 0)])
    assert sweep.direction == "forward" and sweep.farthest_state != (3, 0)
    # A board of a built-in puzzle, through the same function.
    tiles = statespace.Puzzle("tiles", rows=2, cols=3)
    assert statespace.explore(tiles, board="1 2 3\n4 _ 5").reachable == 360


def test_an_invertible_puzzle_exports_an_undirected_graph():
    nx = pytest.importorskip("networkx")
    graph = statespace.export(Pancakes(4))
    assert type(graph) is nx.Graph and graph.graph["complete"]
    # 24 stacks, 3 flips each, every flip its own inverse: 36 edges.
    assert (graph.number_of_nodes(), graph.number_of_edges()) == (24, 36)
    start = (1, 2, 3, 4)
    lengths = nx.single_source_shortest_path_length(graph, start)
    assert Counter(lengths.values()) == Counter(dict(enumerate(PANCAKES[4])))
    assert graph.nodes[(4, 3, 2, 1)]["goal_distance"] == 1
    # Not invertible: directed, as before (a multigraph: "empty A" and "empty B" both keep
    # (0, 0)).
    assert statespace.export(Jugs()).is_directed()
    # From a board.
    graph = statespace.export(Pancakes(4), board=(4, 3, 2, 1), depth=1)
    assert graph.nodes[(4, 3, 2, 1)]["start"] and graph.number_of_nodes() == 4


def test_a_cut_run_warns_and_says_so():
    with pytest.warns(statespace.LimitWarning, match=r"explore stopped early \(state limit 10 "
                                                      r"reached\): the result counts the 3 layers"):
        sweep = statespace.explore(Pancakes(6), max_states=10)
    assert not sweep.complete and sweep.limit == "state limit 10 reached"
    with pytest.warns(statespace.LimitWarning, match=r"depth limit 2 reached"):
        sweep = statespace.explore(Pancakes(6), max_depth=2)
    assert sweep.histogram == PANCAKES[6][:3] and not sweep.complete
    with pytest.warns(statespace.LimitWarning, match=r"over the budget of 1.0 KiB \(raise it "
                                                      r"with memory=\)"):
        sweep = statespace.explore(Pancakes(6), memory="1KiB")
    assert not sweep.complete and "over the budget" in sweep.limit
    with pytest.warns(statespace.LimitWarning, match=r"time limit 100ms reached"):
        statespace.explore(EndlessCounter(), time_limit=0.1)
    with pytest.warns(statespace.LimitWarning, match=r"export cut \(depth limit 1 reached\) at "
                                                      r"4 states"):
        graph = statespace.export(Pancakes(4), depth=1)
    if isinstance(graph, dict):
        assert not graph["graph"]["complete"]
    else:
        assert not graph.graph["complete"]
    with pytest.warns(statespace.LimitWarning, match=r"state limit 5 reached"):
        statespace.export(Pancakes(4), max_states=5)
    tiles = statespace.Puzzle("tiles", rows=3, cols=3)
    with pytest.warns(statespace.LimitWarning, match=r"explore stopped early \(depth limit 3"):
        assert not tiles.explore(max_depth=3).complete
    with pytest.warns(statespace.LimitWarning, match=r"export cut"):
        tiles.export(board="1 2 3\n4 5 6\n7 8 _", depth=1)
    assert issubclass(statespace.LimitWarning, UserWarning)
    # A whole run warns of nothing; a depth limit the sweep ends at is no cut.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert statespace.explore(Pancakes(5)).complete
        assert statespace.explore(Pancakes(5), max_depth=5).complete
        statespace.export(Pancakes(4))
        tiles.explore()


class EndlessCounter:
    start = 0

    def successors(self, n):
        return [("+1", n + 1), ("*2", 2 * n + 2)]

    def is_goal(self, n):
        return False


def test_a_built_in_puzzle_takes_a_board_as_lists():
    tiles = statespace.Puzzle("tiles", rows=3, cols=3)
    text = tiles.solve("8 6 7\n2 5 4\n3 _ 1")
    for board in ([[8, 6, 7], [2, 5, 4], [3, 0, 1]], ((8, 6, 7), (2, 5, 4), (3, 0, 1)),
                  (8, 6, 7, 2, 5, 4, 3, 0, 1), [8, 6, 7, 2, 5, 4, 3, "_", 1],
                  ["8 6 7", "2 5 4", "3 _ 1"]):
        answer = tiles.solve(board)
        assert (answer.moves, answer.path, answer.start) == (31, text.path, text.start), board
    assert [a.moves for a in tiles.solve_many([[1, 2, 3, 4, 5, 6, 7, 0, 8], "1 2 3\n4 5 6\n7 8 _"])] == [1, 0]
    assert tiles.explore(board=[[1, 2, 3], [4, 5, 6], [7, 8, 0]], max_depth=1).histogram == [1, 2]
    flip = statespace.Puzzle("flip", rows=4, cols=4, goal="uniform")
    expected = flip.solve("bwwb\nbbwb\nbwwb\nbwww")  # POJ 1753's sample: 4 presses
    assert expected.moves == 4
    for board in ([list("bwwb"), list("bbwb"), list("bwwb"), list("bwww")],
                  ["bwwb", "bbwb", "bwwb", "bwww"], list("BWWBBBWBBWWBBWWW"),
                  [[c == "b" for c in row] for row in ("bwwb", "bbwb", "bwwb", "bwww")]):
        answer = flip.solve(board)
        assert (answer.moves, answer.start) == (4, expected.start), board


def test_a_bad_board_list_raises_one_clear_line():
    tiles = statespace.Puzzle("tiles", rows=3, cols=3)
    cases = [
        ([[1, 2, 3], [4, 5, 6], [7, 8, "x"]], r"board: row 3, column 3: 'x' is not a tile \(an int, "
                                              r"0 for the blank\)"),
        ([[1, 2, 3], [4, 5, 6], [7, 8, True]], r"row 3, column 3: True is not a tile"),
        ([[1, 2, 3], [4, 5, 6], [7, 8, -1]], r"row 3, column 3: -1 is not a tile"),
        ([1, 2, 3, 4, 5, 6, 7, 8], r"board: 8 cells do not fill rows of 3"),
        ([], r"board: an empty list"),
        ([[1, 2, 3], 4], r"board: row 2: 4 is not a row"),
        ([[1, 2, 3], [4, 5, 6], [7, 8, 8]], r"<board>:3: tile 8 appears twice"),
        ([[1, 2, 3], [4, 5, 6], [7, 0]], r"<board>:3: expected 3 tiles in the row, found 2"),
        (42, r"board: board text \(a str\) or a list of rows, not int"),
    ]
    for board, message in cases:
        with pytest.raises(ValueError, match=message) as raised:
            tiles.solve(board)
        assert "\n" not in str(raised.value)
    flip = statespace.Puzzle("flip", rows=2, cols=2)
    with pytest.raises(ValueError, match=r"row 1, column 2: 'x' is not a cell \(\"b\" or \"w\""):
        flip.solve([["b", "x"], ["w", "w"]])
    with pytest.raises(ValueError, match=r"row 2, column 1: 1 is not a cell"):
        flip.solve([[True, False], [1, 0]])
    shift = statespace.load(ROOT / "configs" / "shift-3x5.toml")
    with pytest.raises(ValueError, match=r"a list is read for `tiles` and `flip` boards; give a "
                                         r"`shift` board as text"):
        shift.solve([[1, 2], [3, 4]])
