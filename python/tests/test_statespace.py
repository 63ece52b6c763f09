"""The Python bindings against the command line, and their errors, limits and Ctrl-C.

The answers are compared with the `statespace` binary's `--json`: its path comes from
`STATESPACE_BIN`, else `$CARGO_TARGET_DIR` (or `target/`) `/release` or `/debug`; without one
those tests are skipped (`.ci/run` sets `STATESPACE_BIN`, so they run in CI).
"""

import json
import os
import re
import subprocess
import sys
import time
import warnings
from pathlib import Path
from xml.etree import ElementTree

import pytest
from helpers import interrupted, ticks_beside

import statespace

ROOT = Path(__file__).resolve().parents[2]
CONFIGS = sorted(p.name for p in (ROOT / "configs").glob("*.toml"))
# Configs whose start board takes the CLI more than a few seconds (or only reaches a limit);
# tiles-24 builds 486 MiB of pattern databases first (five minutes, then again in Python);
# perm-3x3x3-random builds a 2.3 GiB table (about half an hour) and searches for seconds.
SLOW = {"flip-8x8.toml", "perm-3x3x3-13.toml", "perm-3x3x3-random.toml", "tiles-4x4-pdb.toml",
        "tiles-24.toml"}
# A 15-puzzle board over 50 moves from the goal: IDDFS (no heuristic) runs for hours on it.
HARD_15 = "13 14 15 7\n11 12 9 5\n6 _ 2 1\n4 8 10 3"


def cli_binary():
    if "STATESPACE_BIN" in os.environ:
        return os.environ["STATESPACE_BIN"]
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    for profile in ("release", "debug"):
        if (target / profile / "statespace").exists():
            return str(target / profile / "statespace")
    return None


def cli_json(*args):
    binary = cli_binary()
    if binary is None:
        pytest.skip("no statespace binary: set STATESPACE_BIN or build the CLI")
    run = subprocess.run(
        [binary, *args], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert run.returncode in (0, 3, 4), run.stderr
    return json.loads(run.stdout)


def comparable(answer):
    """An answer without what differs from run to run: the times."""
    answer = dict(answer)
    answer["stats"] = {
        k: v for k, v in answer["stats"].items() if k not in ("elapsed", "build")
    }
    return answer


@pytest.mark.parametrize("name", [c for c in CONFIGS if c not in SLOW])
def test_solve_equals_the_cli(name):
    expected = cli_json("solve", f"configs/{name}", "--json", "--no-cache")
    puzzle = statespace.load(ROOT / "configs" / name, cache=False)
    answer = puzzle.solve()
    assert comparable(answer.to_dict()) == comparable(expected)
    assert answer.moves == expected["moves"]
    assert answer.path == expected["path"]
    assert answer.outcome == expected["outcome"]


@pytest.mark.parametrize("name", ["flip-4x4.toml", "tiles-3x3.toml"])
def test_explore_equals_the_cli(name):
    expected = cli_json("explore", f"configs/{name}", "--json")
    sweep = statespace.load(str(ROOT / "configs" / name)).explore()
    for key in ("reachable", "histogram", "max_distance", "space_size", "complete",
                "direction", "puzzle"):
        assert getattr(sweep, key) == expected[key], key
    assert sweep.example_farthest.count("\n") == expected["example_farthest"].count("\n")


def test_explore_from_start_or_goals_and_a_dict_key():
    """Klotski by keywords (`shapes` a dict, as the config's inline table): explore's direction
    is an argument, as `explore --from`, and a board given to it is the start."""
    board = (ROOT / "configs" / "klotski.toml").read_text().split('board = """\n')[1].split('"""')[0]
    klotski = statespace.Puzzle("blocks", metric="unit", shapes={"V": "2x1", "S": "1x1"},
                                goal="place", piece="B", at=[4, 2], board=board, cache=False)
    forward = klotski.explore(explore_from="start")
    assert (forward.direction, forward.reachable) == ("forward", 25955)
    expected = cli_json("explore", "configs/klotski.toml", "--json", "--from", "start")
    assert (forward.histogram, forward.max_distance) == (expected["histogram"], expected["max_distance"])
    # One soldier moved down: the same component, counted from another board.
    moved = board.replace("VSSV\nS..S", "V.SV\nSS.S")
    assert moved != board
    other = klotski.explore(explore_from="start", board=moved)
    assert other.reachable == 25955 and other.histogram != forward.histogram
    backward = klotski.explore(explore_from="goals")
    assert (backward.direction, backward.reachable) == ("backward", 53954)
    expected = cli_json("explore", "configs/klotski.toml", "--json", "--from", "goals")
    assert backward.histogram == expected["histogram"]
    with pytest.raises(ValueError, match="explore_from"):
        klotski.explore(explore_from="sideways")
    # A board given is a start: swept from it by default, refused with the goals' direction.
    assert klotski.explore(board=moved).histogram == other.histogram
    with pytest.raises(ValueError, match="goals"):
        klotski.explore(explore_from="goals", board=moved)
    eight = statespace.load(ROOT / "configs" / "tiles-3x3.toml", cache=False)
    with pytest.raises(ValueError, match="<board>"):
        eight.explore(board="1 2 3\n4 5")
    with pytest.raises(TypeError, match="shapes.V"):
        statespace.Puzzle("blocks", shapes={"V": object()})


def test_the_8_puzzle_by_keywords_is_the_config():
    config = statespace.load(ROOT / "configs" / "tiles-3x3.toml", cache=False)
    puzzle = statespace.Puzzle("tiles", rows=3, cols=3, goal="ordered", cache=False)
    board = config.start
    assert puzzle.solve(board).path == config.solve().path
    for mode in ("bfs", "table", "astar", "idastar"):
        answer = puzzle.solve(board, mode=mode)
        assert (answer.moves, answer.mode, answer.outcome) == (31, mode, "solved")
    assert puzzle.kind == "tiles"
    assert "auto" in puzzle.modes and puzzle.default_mode == "auto"
    assert puzzle.description == config.description


def test_toml_text_loads():
    text = (ROOT / "configs" / "flip-4x4.toml").read_text()
    puzzle = statespace.load(text)
    assert puzzle.solve().moves == 4
    assert puzzle.toml == text


def test_keys_go_to_their_sections():
    pattern = "bw\nwb\nbw"
    puzzle = statespace.Puzzle(
        "flip", rows=3, cols=2, goal="pattern", target=pattern, mode="iddfs", max_depth=20
    )
    assert puzzle.default_mode == "iddfs"
    assert "[goal]" in puzzle.toml and "[search]" in puzzle.toml
    answer = puzzle.solve("bw\nwb\nbw")
    assert answer.moves == 0 and answer.outcome == "solved"
    tiles = statespace.Puzzle("tiles", rows=3, cols=3, heuristic="manhattan")
    assert tiles.solve("1 2 3\n4 5 6\n_ 7 8", mode="astar").path == ["7 left", "8 left"]


def test_an_unknown_key_raises_naming_it_and_the_known_ones():
    with pytest.raises(ValueError) as error:
        statespace.Puzzle("tiles", rows=3, cols=3, colours="BWG")
    message = str(error.value)
    assert "`colours`" in message
    assert "known: rows, cols" in message and "heuristic" in message


def test_a_bad_value_raises_the_librarys_message():
    with pytest.raises(ValueError, match=r"puzzle\.rows: 1 is out of range"):
        statespace.Puzzle("tiles", rows=1, cols=3)
    with pytest.raises(ValueError, match=r"unknown puzzle kind `tile` \(known: flip, shift"):
        statespace.Puzzle("tile", rows=3)
    with pytest.raises(ValueError, match=r"goal\.kind"):
        statespace.Puzzle("flip", rows=3, cols=3, goal="checkers")
    with pytest.raises(ValueError, match=r"<toml>:3: puzzle\.rows: invalid type"):
        statespace.load('[puzzle]\nkind = "flip"\nrows = "four"\ncols = 4\n')
    with pytest.raises(OSError):
        statespace.load("configs/no-such-config.toml")
    with pytest.raises(TypeError):
        statespace.Puzzle("tiles", rows=3, cols=3, board=object())


def test_a_bad_board_raises():
    puzzle = statespace.Puzzle("tiles", rows=3, cols=3)
    with pytest.raises(ValueError, match=r"<board>:3: .*`9` is not a tile"):
        puzzle.solve("1 2 3\n4 5 6\n7 8 9")
    with pytest.raises(ValueError, match=r"<board>"):
        puzzle.solve("1 2 3\n4 5 6")
    with pytest.raises(ValueError, match=r"<board 2>"):
        puzzle.solve_many(["1 2 3\n4 5 6\n7 _ 8", "1 2"])
    with pytest.raises(ValueError, match=r"start\.board: missing"):
        puzzle.solve()
    with pytest.raises(ValueError, match=r"mode: search mode `algebraic` is not supported"):
        puzzle.solve("1 2 3\n4 5 6\n7 _ 8", mode="algebraic")


def test_unsolvable_and_proofs():
    puzzle = statespace.Puzzle("tiles", rows=3, cols=3)
    answer = puzzle.solve("1 2 3\n4 5 6\n8 7 _")
    assert (answer.solvable, answer.outcome, answer.proof) == (False, "unsolvable", "parity")
    assert answer.moves is None and answer.path == []


def test_solve_many_is_one_solve_per_board():
    puzzle = statespace.Puzzle("flip", rows=4, cols=4, cache=False)
    boards = ["bwwb\nbbwb\nbwwb\nbwww", "bbbb\nbbbb\nbbbb\nbbbb", "wbbb\nbbbb\nbbbb\nbbbb"]
    answers = puzzle.solve_many(boards, mode="bfs")
    assert [a.moves for a in answers] == [4, 0, None]
    assert answers[2].outcome == "unsolvable"
    assert [comparable(a.to_dict()) for a in answers] == [
        comparable(puzzle.solve(b, mode="bfs").to_dict()) for b in boards
    ]


def test_a_time_limit_stops_a_long_search():
    puzzle = statespace.Puzzle("tiles", rows=4, cols=4)
    started = time.monotonic()
    answer = puzzle.solve(HARD_15, mode="iddfs", time_limit=0.5)
    took = time.monotonic() - started
    assert answer.outcome == "limit-reached" and answer.solvable is None
    assert answer.limit == "time limit 500ms reached"
    assert took < 3, took
    words = puzzle.solve(HARD_15, mode="iddfs", time_limit="200ms")
    assert words.limit == "time limit 200ms reached"


def test_depth_and_state_limits():
    puzzle = statespace.load(ROOT / "configs" / "tiles-3x3.toml")
    assert puzzle.solve(mode="bfs", max_depth=10).limit == "depth limit 10 reached"
    assert puzzle.solve(mode="bfs", max_states=1000).limit == "state limit 1000 reached"
    with pytest.raises(ValueError, match="max_states"):
        puzzle.solve(max_states=0)
    sweep = puzzle.explore(max_depth=5)
    assert sweep.histogram == [1, 2, 4, 8, 16, 20] or not sweep.complete


def test_a_time_limit_out_of_range_says_why():
    puzzle = statespace.Puzzle("tiles", rows=3, cols=3)
    board = "1 2 3\n4 5 6\n7 _ 8"
    # Before: "must be a positive duration" for a limit too large to hold.
    too_large = r"time_limit: 1e\+300 seconds is too large \(at most 18446744073709551615 seconds"
    for call in (lambda **k: puzzle.solve(board, **k), lambda **k: statespace.solve(Line(), **k),
                 lambda **k: statespace.Puzzle("tiles", rows=3, cols=3, **k)):
        with pytest.raises(ValueError, match=too_large):
            call(time_limit=1e300)
        with pytest.raises(ValueError, match="time_limit: inf seconds is too large"):
            call(time_limit=float("inf"))
        with pytest.raises(ValueError, match="time_limit: must be a positive duration, not -1"):
            call(time_limit=-1)
    # The largest a config holds in words: written back as seconds, not overflowing milliseconds.
    patient = statespace.Puzzle("tiles", rows=3, cols=3, time_limit=1e17)
    assert 'time_limit = "100000000000000000s"' in patient.toml
    assert patient.solve(board).moves == 1


class Line:
    """0 to 5 in steps of one: a Python puzzle for argument checks."""

    start = 0

    def successors(self, n):
        return [("+1", n + 1)] if n < 5 else []

    def is_goal(self, n):
        return n == 5


def test_an_int_argument_out_of_range_names_it_and_its_range():
    puzzle = statespace.Puzzle("tiles", rows=3, cols=3)
    board = "1 2 3\n4 5 6\n7 _ 8"
    # Before: a bare OverflowError ("can't convert negative int to unsigned").
    depth = re.escape("max_depth: -1 is out of range (allowed: 0 to 4294967295)")
    for call in (lambda **k: puzzle.solve(board, **k), lambda **k: puzzle.explore(**k),
                 lambda **k: puzzle.solve_many([board], **k), lambda **k: statespace.solve(Line(), **k),
                 lambda **k: statespace.explore(Line(), **k)):
        with pytest.raises(ValueError, match=depth):
            call(max_depth=-1)
        with pytest.raises(ValueError, match=re.escape("max_depth: 4294967296 is out of range")):
            call(max_depth=2**32)
        with pytest.raises(ValueError, match=re.escape(
                "max_states: -1 is out of range (allowed: 1 to 18446744073709551615)")):
            call(max_states=-1)
        with pytest.raises(TypeError, match="max_depth: an int, not str"):
            call(max_depth="3")
    assert statespace.solve(Line(), max_depth=5).moves == 5
    for export in (puzzle.export, lambda **k: statespace.export(Line(), **k)):
        with pytest.raises(ValueError, match=re.escape("depth: -1 is out of range (allowed: 0 to")):
            export(depth=-1)
        with pytest.raises(ValueError, match=re.escape("max_states: -1 is out of range (allowed: 1 to 1000000)")):
            export(max_states=-1)
    with pytest.raises(ValueError, match=re.escape("threads: -2 is out of range (allowed: 1 to 1024)")):
        puzzle.explore(threads=-2)
    with pytest.raises(ValueError, match=re.escape("memory: `-1` is not a size")):
        puzzle.solve(board, memory=-1)


def test_one_line_toml_text_is_parsed_not_taken_for_a_path(tmp_path, monkeypatch):
    # Before: "[[[": No such file or directory.
    with pytest.raises(ValueError, match=r"^<toml>:1: unquoted keys cannot be empty"):
        statespace.load("[[[")
    with pytest.raises(ValueError, match=r"^<toml>:1: puzzle: unclosed inline table"):
        statespace.load("puzzle = {")
    flip = statespace.load('puzzle = { kind = "flip", rows = 3, cols = 3 }')
    assert flip.description == "Flip 3 x 3, goal uniform"
    # A one-line str that names a file is that file, whatever it looks like; else a path.
    monkeypatch.chdir(tmp_path)
    (tmp_path / "rows=3.toml").write_text('[puzzle]\nkind = "flip"\nrows = 3\ncols = 3\n')
    assert statespace.load("rows=3.toml").description == flip.description
    with pytest.raises(OSError, match="no-such.toml: No such file"):
        statespace.load("no-such.toml")


def test_the_gil_is_released_while_an_engine_runs():
    puzzle = statespace.Puzzle("tiles", rows=4, cols=4)
    answer, ticks = ticks_beside(lambda: puzzle.solve(HARD_15, mode="iddfs", time_limit=1.0))
    assert answer.outcome == "limit-reached"
    assert ticks > 100, ticks


def test_ctrl_c_raises_keyboard_interrupt_within_a_second():
    out, took = interrupted(f"""
p = statespace.Puzzle("tiles", rows=4, cols=4)
p.solve({HARD_15!r}, mode="iddfs", time_limit=60)
""")
    assert out == "interrupted"
    assert took < 1.0, took


def test_export_is_a_networkx_graph():
    nx = pytest.importorskip("networkx")
    graph = statespace.load(ROOT / "configs" / "flip-3x3.toml").export()
    assert isinstance(graph, nx.Graph) and not graph.is_directed()
    assert graph.number_of_nodes() == 512 and graph.graph["complete"]
    start = graph.nodes[0]
    assert start["start"] and start["depth"] == 0
    goals = [n for n, a in graph.nodes(data=True) if a["goal"]]
    distances = nx.multi_source_dijkstra_path_length(graph, goals)
    assert all(graph.nodes[n]["goal_distance"] == d for n, d in distances.items())
    assert {d["move"] for _, _, d in graph.edges(data=True)} == {
        f"r{r}c{c}" for r in (1, 2, 3) for c in (1, 2, 3)
    }


def test_export_without_networkx_is_node_link(monkeypatch):
    monkeypatch.setitem(sys.modules, "networkx", None)
    data = statespace.load(ROOT / "configs" / "flip-3x3.toml").export(depth=1, max_states=5)
    assert set(data) == {"directed", "multigraph", "graph", "nodes", "links"}
    assert len(data["nodes"]) == 5 and data["graph"]["complete"] is False
    with pytest.raises(ValueError, match="max_states"):
        statespace.load(ROOT / "configs" / "flip-3x3.toml").export(max_states=0)


def test_records_and_puzzles():
    answer = statespace.load(ROOT / "configs" / "flip-4x4.toml").solve()
    assert "moves=4" in repr(answer)
    assert isinstance(answer, statespace.Solution) and isinstance(answer, statespace.Record)
    assert set(dir(answer)) >= {"moves", "path", "boards", "outcome", "stats", "to_dict"}
    with pytest.raises(AttributeError):
        answer.no_such_field
    kinds = {p["kind"]: p for p in statespace.puzzles()}
    assert {c.parent.name for c in (ROOT / "puzzles").glob("*/Cargo.toml")} <= set(kinds)
    assert [k["choices"] for k in kinds["peg"]["puzzle_keys"]] == [["square", "triangle"]]
    assert [k["name"] for k in kinds["tiles"]["puzzle_keys"]] == ["rows", "cols"]
    assert list(kinds) == [p["kind"] for p in cli_json("puzzles", "--json")]


# The pages whose Python blocks are run as written: the README's example, and the guide's page on
# the Python package.
EXAMPLE_PAGES = ("README.md", "docs/python.md")


def python_examples(page):
    """The Python code blocks of `page` (a path from the repository's root), in order."""
    text = (ROOT / page).read_text()
    return re.findall(r"^```python\n(.*?)^```", text, re.S | re.M)


def test_the_docs_have_examples():
    assert len(python_examples("README.md")) >= 1
    assert len(python_examples("docs/python.md")) >= 4


@pytest.mark.parametrize("page", EXAMPLE_PAGES)
def test_the_docs_examples_run_as_written(page, monkeypatch):
    """Each page's blocks in order, in one namespace, as a reader runs them (the drawing needs
    matplotlib: CI installs it; without it that example is skipped)."""
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("MPLBACKEND", "Agg")
    namespace = {}
    for index, example in enumerate(python_examples(page)):
        if "matplotlib" in example:
            pytest.importorskip("matplotlib")
        with warnings.catch_warnings():
            # plt.show() without a display: the figure was drawn, there is nowhere to show it.
            warnings.filterwarnings("ignore", "FigureCanvasAgg is non-interactive")
            exec(compile(example, f"{page} example {index + 1}", "exec"), namespace)


def cli_file(tmp_path, *args):
    """The file the command line writes with `args` (the last is its name under tmp_path)."""
    binary = cli_binary()
    if binary is None:
        pytest.skip("no statespace binary: set STATESPACE_BIN or build the CLI")
    out = tmp_path / args[-1]
    run = subprocess.run([binary, *args[:-1], str(out)], cwd=ROOT, capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    return out.read_text()


def parsed_svg(text):
    """The SVG as XML (it must parse), with its namespace dropped from tags."""
    root = ElementTree.fromstring(text)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    for element in root.iter():
        element.tag = element.tag.split("}")[-1]
    return root


def boards_of(svg):
    return [g for g in svg.iter("g") if g.get("class") == "board"]


@pytest.mark.parametrize("name", ["tiles-3x3.toml", "flip-4x4.toml", "perm-2x2x2-qtm.toml"])
def test_a_solution_draws_as_solve_svg(name, tmp_path):
    expected = cli_file(tmp_path, "solve", f"configs/{name}", "--no-cache", "--svg", "s.svg")
    answer = statespace.load(ROOT / "configs" / name, cache=False).solve()
    assert answer._repr_svg_() == answer.to_svg() == expected
    svg = parsed_svg(answer.to_svg())
    assert len(boards_of(svg)) == answer.moves + 1
    assert f"{answer.moves} move" in svg.find("title").text


def test_a_board_and_a_histogram_draw():
    puzzle = statespace.Puzzle("tiles", rows=3, cols=3)
    picture = puzzle.board_svg("1 2 3\n4 5 6\n7 _ 8")
    assert isinstance(picture, statespace.Svg)
    assert picture._repr_svg_() == str(picture)
    svg = parsed_svg(str(picture))
    assert len(boards_of(svg)) == 1
    labels = [t.text for t in svg.iter("text")]
    assert sorted(labels) == [str(n) for n in range(1, 9)]
    with pytest.raises(ValueError, match="start.board: missing"):
        puzzle.board_svg()
    sweep = puzzle.explore()
    chart = parsed_svg(sweep._repr_svg_())
    bars = [r for r in chart.iter("rect") if r.get("class") == "bar"]
    assert len(bars) == len(sweep.histogram) == 32


def test_a_histogram_draws_as_explore_plot(tmp_path):
    expected = cli_file(tmp_path, "explore", "configs/flip-4x4.toml", "--plot", "p.svg")
    sweep = statespace.load(ROOT / "configs" / "flip-4x4.toml").explore()
    assert sweep.to_svg() == expected


def test_an_undecided_answer_has_no_picture():
    answer = statespace.Puzzle("tiles", rows=4, cols=4).solve(HARD_15, mode="iddfs",
                                                             time_limit=0.2)
    assert answer._repr_svg_() is None
    with pytest.raises(ValueError, match=r"no picture: undecided \(time limit 200ms reached\)"):
        answer.to_svg()
    unsolvable = statespace.Puzzle("tiles", rows=3, cols=3).solve("1 2 3\n4 5 6\n8 7 _")
    assert len(boards_of(parsed_svg(unsolvable.to_svg()))) == 1


def test_a_python_puzzle_draws_in_its_style():
    class Slide:
        board_style = "tiles"
        start = (1, 2, 3, 0)

        def successors(self, s):
            b = s.index(0)
            for c in {0: (1, 2), 1: (0, 3), 2: (0, 3), 3: (1, 2)}[b]:
                t = list(s)
                t[b], t[c] = t[c], 0
                yield f"{s[c]}", tuple(t)

        def is_goal(self, s):
            return s == (0, 3, 2, 1)  # the farthest board: 6 moves

        def board_text(self, s):
            return "\n".join(" ".join(str(x) if x else "_" for x in s[i:i + 2]) for i in (0, 2))

    answer = statespace.solve(Slide())
    svg = parsed_svg(answer._repr_svg_())
    assert len(boards_of(svg)) == answer.moves + 1 == 7
    assert svg.find("title").text == "Slide: 6 moves"
    changed = [r for r in svg.iter("rect") if r.get("class") == "changed"]
    assert len(changed) == 6  # the tile each move slid
    chart = parsed_svg(statespace.explore(Slide())._repr_svg_())
    assert len([r for r in chart.iter("rect") if r.get("class") == "bar"]) == 7

    class Bad(Slide):
        board_style = "hexagons"

    with pytest.raises(ValueError, match="board_style: `hexagons` is not a style"):
        statespace.solve(Bad())


def test_a_scramble_is_solved_where_the_puzzle_reads_scrambles():
    puzzle = statespace.load(ROOT / "configs" / "perm-2x2x2-qtm.toml", cache=False)
    assert puzzle.start == "R U2 F'"
    from_config = puzzle.solve()
    from_argument = puzzle.solve(scramble="R U2 F'")
    assert comparable(from_argument.to_dict()) == comparable(from_config.to_dict())
    assert puzzle.solve(scramble="R").path == ["R'"]
    with pytest.raises(ValueError, match="<scramble>"):
        puzzle.solve(scramble="R Q")
    with pytest.raises(ValueError, match="not both"):
        puzzle.solve("anything", scramble="R")
    tiles = statespace.Puzzle("tiles", rows=3, cols=3)
    with pytest.raises(ValueError, match="takes a \\[start\\] board, not a scramble"):
        tiles.solve(scramble="up")


def test_a_memory_refusal_raises_memory_limit_error():
    puzzle = statespace.load(ROOT / "configs" / "flip-4x4.toml")
    with pytest.raises(statespace.MemoryLimitError) as refused:
        puzzle.export(memory="1KiB")
    assert isinstance(refused.value, MemoryError)
    assert refused.value.budget == 1024 and refused.value.needed > 1024
    message = str(refused.value)
    assert "over the budget of 1.0 KiB" in message and "memory=" in message


def test_the_threads_key_runs_idastar_on_threads_with_the_same_answers():
    board = " 2  3  7  4\n 1  9  8  5\n14 13  _ 12\n 6 11 10 15"
    keys = dict(rows=4, cols=4, heuristic="linear-conflict", mode="idastar", cache=False)
    one = statespace.Puzzle("tiles", **keys).solve(board=board, solutions=3)
    two = statespace.Puzzle("tiles", threads=2, **keys).solve(board=board, solutions=3)
    assert one.moves == two.moves == 30
    assert two.solutions == one.solutions and len(one.solutions) == 3
    with pytest.raises(ValueError, match="search.threads"):
        statespace.Puzzle("tiles", threads=0, **keys).solve(board=board)


def test_solutions_lists_the_first_optimal_ones_as_the_cli_does():
    eight = statespace.load(ROOT / "configs" / "tiles-3x3.toml", cache=False)
    every = eight.solve(solutions=1000)
    assert every.moves == 31 and every.all_optimal and len(every.solutions) == 40
    assert every.solutions[0] == every.path
    assert every.solutions == cli_json("solve", str(ROOT / "configs" / "tiles-3x3.toml"),
                                       "--solutions", "1000", "--json", "--no-cache")["solutions"]
    first = eight.solve(mode="idastar", solutions=3)
    assert first.solutions == every.solutions[:3] and not first.all_optimal
    assert "solutions" not in eight.solve().to_dict()
    with pytest.raises(ValueError, match=re.escape("solutions: 0 is out of range (allowed: 1 to")):
        eight.solve(solutions=0)
    with pytest.raises(ValueError, match="the bfs engine gives one solution"):
        eight.solve(mode="bfs", solutions=2)
