"""The Python module of examples/python-plugin: a Rust plugin of our own (the Tower of Hanoi)
used from Python beside the built-in puzzles, with the same API and the same checks."""

import pytest

import statespace_hanoi as statespace


def hanoi(discs, board=None):
    text = f'[puzzle]\nkind = "hanoi"\ndiscs = {discs}\n'
    if board is not None:
        text += f'[start]\nboard = "{board}"\n'
    return statespace.load(text)


def test_the_plugin_is_listed_beside_the_built_in_puzzles():
    kinds = {p["kind"] for p in statespace.puzzles()}
    assert "hanoi" in kinds
    assert {"tiles", "flip", "perm"} <= kinds


@pytest.mark.parametrize("discs", [1, 2, 3, 4, 5, 6])
def test_every_engine_moves_the_tower_in_2_to_the_n_minus_1(discs):
    p = hanoi(discs, " ".join(["1"] * discs))
    assert "hanoi" in p.description.lower() or "Hanoi" in p.description
    for mode in p.modes:
        s = p.solve(mode=mode)
        assert s.outcome == "solved", (mode, s.limit)
        assert s.moves == 2**discs - 1, mode
        assert s.boards[-1] == " ".join(["3"] * discs)


def test_a_board_given_to_solve_and_the_whole_space_explored():
    p = hanoi(4)
    assert p.solve("1 3 3 3").moves == 1
    e = p.explore()
    assert e.complete
    assert e.reachable == 3**4
    assert sum(e.histogram) == 81
    assert e.max_distance == 15


def test_bad_input_is_the_plugins_own_one_line_error():
    with pytest.raises(ValueError, match="discs"):
        hanoi(0)
    with pytest.raises(ValueError, match="not a peg"):
        hanoi(3).solve("1 4 1")


def test_the_built_in_puzzles_still_answer():
    p = statespace.Puzzle("tiles", rows=3, cols=3)
    assert p.solve("1 2 3\n4 5 6\n7 _ 8").path == ["8 left"]
