"""statespace: exact state-space search for puzzles, from Python.

The built-in puzzles (Flip, Shift, sliding tiles, permutation puzzles) and the library's engines
(bfs, iddfs, table, astar, idastar, and each puzzle's own), configured as a TOML config is and
answering with the fields of the command line's ``--json``.
"""

import os
from typing import Any, Literal, Optional, Union

__version__: str

Duration = Union[float, int, str]
"""Seconds (a number) or humantime words: ``"500ms"``, ``"30s"``, ``"1m 30s"``."""

Size = Union[int, str]
"""Bytes (an int) or words: ``"512MiB"``, ``"4GiB"``."""

Cache = Union[bool, str, os.PathLike[str]]
"""Where distance tables are kept between runs: ``True`` the command line's default directory
(``$XDG_CACHE_HOME/statespace``, else ``~/.cache/statespace``), ``False`` none, or a
directory."""

def load(source: Union[str, os.PathLike[str]], *, cache: Cache = True) -> Puzzle:
    """A puzzle from a config file's path, or from TOML text (a str with a newline in it).

    Raises ``ValueError`` with the library's one-line message (file, line, key) for a bad
    config, ``OSError`` for a file that cannot be read.
    """

def puzzles() -> list[dict[str, Any]]:
    """Every built-in puzzle kind: its summary, ``puzzle_keys``, ``goals``, ``goal_keys``,
    ``heuristics``, ``heuristic_keys`` and an example config (as ``statespace puzzles --json``)."""

class Puzzle:
    """A configured puzzle: its size, goal, heuristic and default search settings.

    ``Puzzle(kind, **keys)`` writes the config a user would and parses it with the library, so
    the checks are exactly a config's. Each key goes to the section the puzzle declares it in:
    ``[puzzle]`` (``rows``, ``cols``, ...), ``[goal]`` (``goal="pattern"`` is its kind,
    ``target=...``), ``[heuristic]`` (``heuristic="manhattan"`` is its kind, ``groups=...``),
    ``[search]`` (``mode``, ``max_depth``, ``max_states``, ``time_limit``, ``memory``,
    ``threads``, ``explore_from``) or ``[start]`` (``board``, ``scramble``). An unknown key raises ``ValueError``
    naming it and the known ones; a bad value raises ``ValueError`` with the library's message.

    >>> p = Puzzle("tiles", rows=3, cols=3)
    >>> p.solve("1 2 3\\n4 5 6\\n7 _ 8").path
    ['8 left']
    """

    def __init__(self, kind: str, *, cache: Cache = True, **keys: Any) -> None: ...
    @property
    def kind(self) -> str:
        """The ``[puzzle] kind``."""
    @property
    def description(self) -> str:
        """One line naming the puzzle: ``Sliding tiles 3 x 3, goal ordered``."""
    @property
    def modes(self) -> list[str]:
        """The modes this puzzle runs, ``auto`` last."""
    @property
    def default_mode(self) -> str:
        """The mode ``solve`` runs when given none: the config's ``[search] mode``, else ``auto``."""
    @property
    def toml(self) -> str:
        """The config's TOML text (for ``Puzzle(...)``, the text written from its arguments)."""
    @property
    def start(self) -> Optional[str]:
        """The config's ``[start]`` board (or scramble) text, or None."""
    def solve(
        self,
        board: Optional[str] = None,
        mode: Optional[str] = None,
        time_limit: Optional[Duration] = None,
        max_depth: Optional[int] = None,
        max_states: Optional[int] = None,
        memory: Optional[Size] = None,
    ) -> Solution:
        """Solves ``board`` (board text; the config's start board when None) with ``mode``.

        The limits override the config's ``[search]`` keys. A limit that stops the search is an
        answer (``outcome == "limit-reached"``), not an exception. Raises ``ValueError`` for a
        board that does not parse or a mode the puzzle does not run, and ``KeyboardInterrupt``
        on Ctrl-C (the engine stops first). The GIL is released while the engine runs.
        """
    def solve_many(
        self,
        boards: list[str],
        mode: Optional[str] = None,
        time_limit: Optional[Duration] = None,
        max_depth: Optional[int] = None,
        max_states: Optional[int] = None,
        memory: Optional[Size] = None,
    ) -> list[Solution]:
        """Solves every board with one setup (tables and pattern databases built once), as
        ``solve --boards``; the time limit counts per board. A board that does not parse raises
        ``ValueError`` naming it (``<board 3>:2: ...``)."""
    def explore(
        self,
        threads: Optional[int] = None,
        time_limit: Optional[Duration] = None,
        max_depth: Optional[int] = None,
        max_states: Optional[int] = None,
        memory: Optional[Size] = None,
    ) -> Exploration:
        """Sweeps every state that can reach the goal and counts them by distance, as
        ``explore --json``. A limit stops it with what was found so far (``complete`` False)."""
    def export(
        self,
        depth: Optional[int] = None,
        max_states: int = 10000,
        board: Optional[str] = None,
        memory: Optional[Size] = None,
    ) -> Any:
        """The state graph around ``board`` (the start board when None): the breadth-first
        neighbourhood of at most ``max_states`` states (1 to 1,000,000) and ``depth`` moves.

        With networkx installed, a ``networkx.Graph`` (``DiGraph`` when moves are not
        invertible; ``Multi...`` when two moves join the same two states): node ids in BFS order
        (0 is the start), node attributes ``board``, ``depth``, ``goal_distance`` (None when
        unknown), ``goal``, ``start``; edge attribute ``move``; graph attributes ``complete``
        and ``cut``. Without networkx, the same as a node-link dict (``nodes``, ``links``)."""

class Record:
    """The fields of a ``--json`` object as attributes, and ``to_dict()``."""

    def to_dict(self) -> dict[str, Any]:
        """Every field, as a new dict (what ``--json`` prints)."""
    def __getattr__(self, name: str) -> Any: ...

class Solution(Record):
    """The answer to one board: the fields of ``statespace solve --json``."""

    solvable: Optional[bool]
    """True, False (proven), or None when a limit stopped the run."""
    moves: Optional[int]
    """The fewest moves, or None."""
    path: list[str]
    """The move labels, in order."""
    boards: list[str]
    """The board after each move, as text."""
    start: str
    """The start board as text."""
    mode: str
    """The engine that ran."""
    outcome: Literal["solved", "unsolvable", "limit-reached"]
    limit: Optional[str]
    """Which limit stopped the run (``time limit 1s reached``), or None."""
    proof: Optional[str]
    """The invariant that proved the start unsolvable without a search (``parity``), or None."""
    stats: dict[str, Any]
    """``expanded``, ``generated``, ``visited``, ``peak_frontier``, ``depth``, ``elapsed``
    (seconds), and ``build`` when tables were built or loaded."""

class Exploration(Record):
    """A whole-space sweep: the fields of ``statespace explore --json``."""

    puzzle: str
    direction: Literal["backward", "forward"]
    strategy: str
    space_size: Optional[int]
    """Every state of the space, reachable or not; None for a space with no dense index."""
    complete: bool
    limit: Optional[str]
    reachable: int
    histogram: list[int]
    """``histogram[d]``: the states at distance ``d``."""
    max_distance: Optional[int]
    example_farthest: Optional[str]
    """A board at the largest distance, as text."""
    states_per_second: float
    peak_memory_bytes: int
    peak_memory_source: str
    engine_memory_bytes: int
    elapsed: float
    threads: int
    stats: dict[str, Any]
