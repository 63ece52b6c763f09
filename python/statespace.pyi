"""statespace: exact state-space search for puzzles, from Python.

The built-in puzzles (Flip, Shift, sliding tiles, permutation puzzles, sliding blocks, peg
solitaire) and the library's engines (bfs, iddfs, table, astar, idastar, beam, and each puzzle's own),
configured as a TOML config is and answering with the fields of the command line's ``--json``;
and puzzles written in Python (``solve``, ``explore``, ``export`` of any object with ``start``,
``successors`` and ``is_goal``), searched by the same engines.

Exceptions: ``ValueError`` for bad input (a config, key, value, board, mode or argument, with
the library's one-line message); ``TypeError`` for an argument of the wrong type, or a puzzle's
callback that answers with one; ``OSError`` for a file that cannot be read;
``MemoryLimitError`` (a ``MemoryError``) for work refused before it started because it would
pass the memory budget; ``KeyboardInterrupt`` on Ctrl-C (within a second); ``RuntimeError``
for another limit that stopped a puzzle's setup. A limit that stops a search is an answer
(``outcome == "limit-reached"``), not an exception. An exception raised in a Python-defined
puzzle's callback propagates as itself (same type, same traceback). An int argument out of its
range raises ``ValueError`` naming it and the range (``max_depth: -1 is out of range (allowed:
0 to 4294967295)``).
"""

import os
from typing import Any, Hashable, Iterable, Literal, Optional, Protocol, Sequence, Tuple, Union

__version__: str

Duration = Union[float, int, str]
"""Seconds (a number) or humantime words: ``"500ms"``, ``"30s"``, ``"1m 30s"``. Positive, and at
most 2^64 seconds: a larger one (``1e300``) raises ``ValueError`` saying it is too large (None is
no limit)."""

Size = Union[int, str]
"""Bytes (an int) or words: ``"512MiB"``, ``"4GiB"``."""

Board = Union[str, Sequence[Any]]
"""A built-in puzzle's board: its text (``"1 2 3\\n4 5 6\\n7 8 _"``), or, for ``tiles`` and
``flip``, its cells as Python values: a list (or tuple) of rows, each a list of cells or the
row's text, or one flat list of every cell (rows of the puzzle's ``cols``). A tile is an int, 0
the blank (``[[1, 2, 3], [4, 5, 6], [7, 8, 0]]``); a Flip cell ``"b"`` or ``"w"``, or a bool
(``True`` black). They are written as the board text and read by the puzzle's parser, so the
checks are the same; a cell of the wrong kind raises ``ValueError`` naming its row and column."""

Cache = Union[bool, str, os.PathLike[str]]
"""Where distance tables are kept between runs: ``True`` the command line's default directory
(``$XDG_CACHE_HOME/statespace``, else ``~/.cache/statespace``), ``False`` none, or a
directory."""

class SearchStopped(BaseException):
    """Raised inside a Python-defined puzzle's callback that is still running when its search
    is stopped (the time limit, Ctrl-C), so that the search answers within a second however
    slow the callback: it stops Python code at once. A callback blocked in C code (a
    ``time.sleep``, a lock, I/O) meets it only when that call returns: the search answers
    without waiting for it, and the callback's thread ends on its own when the call returns
    (calling your puzzle no more). A ``BaseException``, so that ``except Exception`` lets it
    through; a callback that catches it and goes on runs on until it returns. Never raised out
    of ``solve``, ``explore`` or ``export``."""

class LimitWarning(UserWarning):
    """Warned (``warnings.warn``) when ``explore`` or ``export`` stopped at a limit
    (``max_states``, ``max_depth``, ``time_limit``, ``memory``) and so answers about part of the
    space: ``explore stopped early (depth limit 2 reached): the result counts the 3 layers
    completed, not the whole space (complete is False)``, ``export cut (state limit 5 reached)
    at 5 states: ...``. The result says so too (``complete`` False, and ``limit``, or the graph's
    ``cut``). Silence it with ``warnings.filterwarnings("ignore",
    category=statespace.LimitWarning)``."""

class MemoryLimitError(MemoryError):
    """Work refused before it started because it would pass the memory budget (``memory=``,
    default half the physical memory): an export too large, a puzzle's tables. The message
    gives both figures (``needs 5.7 MiB of memory, over the budget of 1.0 MiB``)."""

    needed: int
    """The bytes the work needs."""
    budget: int
    """The budget it passes, in bytes."""

def load(source: Union[str, os.PathLike[str]], *, cache: Cache = True) -> Puzzle:
    """A puzzle from a config file's path, or from TOML text: a str with a newline, or a
    one-line str that names no file and looks like TOML (starts with ``[`` or ``#``, or holds a
    ``=``: ``'puzzle = { kind = "flip", rows = 3, cols = 3 }'``), so that mistyped TOML gets
    the parser's error (``<toml>:1: ...``) rather than "no such file". A one-line str that
    names a file is that file.

    Raises ``ValueError`` with the library's one-line message (file, line, key) for a bad
    config, ``OSError`` for a file that cannot be read.
    """

def puzzles() -> list[dict[str, Any]]:
    """Every built-in puzzle kind: its summary, ``puzzle_keys``, ``goals``, ``goal_keys``,
    ``heuristics``, ``heuristic_keys`` and an example config (as ``statespace puzzles --json``).
    A key is a dict: ``name``, ``dotted``, ``doc``, ``range`` and ``default`` (or ``None``), and
    ``choices`` (the words allowed; empty when any value of its type is)."""

class Puzzle:
    """A configured puzzle: its size, goal, heuristic and default search settings.

    ``Puzzle(kind, **keys)`` writes the config a user would and parses it with the library, so
    the checks are exactly a config's. Each key goes to the section the puzzle declares it in:
    ``[puzzle]`` (``rows``, ``cols``, ...), ``[goal]`` (``goal="pattern"`` is its kind,
    ``target=...``), ``[heuristic]`` (``heuristic="manhattan"`` is its kind, ``groups=...``),
    ``[search]`` (``mode``, ``max_depth``, ``max_states``, ``time_limit``, ``memory``,
    ``threads``, ``explore_from``, ``transpositions``) or ``[start]`` (``board``, ``scramble``). An unknown key raises ``ValueError``
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
        board: Optional[Board] = None,
        mode: Optional[str] = None,
        time_limit: Optional[Duration] = None,
        max_depth: Optional[int] = None,
        max_states: Optional[int] = None,
        memory: Optional[Size] = None,
        *,
        scramble: Optional[str] = None,
        solutions: Optional[int] = None,
    ) -> Solution:
        """Solves ``board`` (board text, or for ``tiles`` and ``flip`` its cells: see ``Board``)
        with ``mode``; or, with ``scramble``, the board those
        moves reach from the goal (puzzles with a move notation: ``perm``,
        ``scramble="R U F'"``); the config's start when neither. ``solutions=N`` gives the
        first N optimal solutions, all when fewer (``solve --solutions``): ``.solutions`` lists
        their moves, ``.all_optimal`` says whether they are all.

        The limits override the config's ``[search]`` keys. A limit that stops the search is an
        answer (``outcome == "limit-reached"``), not an exception. Raises ``ValueError`` for a
        board or scramble that does not parse (or a scramble given to a puzzle that reads
        boards only, or both given) or a mode the puzzle does not run, and
        ``KeyboardInterrupt`` on Ctrl-C (the engine stops first). The GIL is released while
        the engine runs.
        """
    def solve_many(
        self,
        boards: list[Board],
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
        explore_from: Optional[Literal["start", "goals"]] = None,
        board: Optional[Board] = None,
        scramble: Optional[str] = None,
    ) -> Exploration:
        """Sweeps the space and counts its states by distance, as ``explore --json``:
        ``explore_from="goals"`` every state that can reach a goal, by distance to the nearest;
        ``"start"`` the start's component, by distance from it (``explore --from``; default
        ``"start"`` when ``board`` or ``scramble`` is given, else the config's ``explore_from``,
        else goals when the puzzle can). The start is ``board`` or ``scramble``, else the
        config's; with ``explore_from="goals"`` they raise ``ValueError``. A limit stops it with what was found so far
        (``complete`` False) and warns (``LimitWarning``)."""
    def export(
        self,
        depth: Optional[int] = None,
        max_states: int = 10000,
        board: Optional[Board] = None,
        memory: Optional[Size] = None,
    ) -> Any:
        """The state graph around ``board`` (the start board when None): the breadth-first
        neighbourhood of at most ``max_states`` states (1 to 1,000,000) and ``depth`` moves.

        With networkx installed, a ``networkx.Graph`` (``DiGraph`` when moves are not
        invertible; ``Multi...`` when two moves join the same two states): node ids in BFS order
        (0 is the start), node attributes ``board``, ``depth``, ``goal_distance`` (None when
        unknown), ``goal``, ``start``; edge attribute ``move``; graph attributes ``complete``
        and ``cut``. Without networkx, the same as a node-link dict (``nodes``, ``links``). A cut
        graph (a limit stopped it) warns (``LimitWarning``)."""

class Record:
    """The fields of a ``--json`` object as attributes, ``to_dict()``, and a picture."""

    def to_dict(self) -> dict[str, Any]:
        """Every field, as a new dict (what ``--json`` prints)."""
    def to_svg(self) -> str:
        """The picture as SVG text: a solution's boards from start to goal, each move's changes
        highlighted (the same picture as ``solve --svg``), or an exploration's histogram (as
        ``explore --plot``). Raises ``ValueError`` when there is none (a limit stopped the
        run)."""
    def _repr_svg_(self) -> Optional[str]:
        """The picture, for notebooks (None when there is none)."""
    def __getattr__(self, name: str) -> Any: ...

class Svg:
    """A picture (``Puzzle.board_svg``): shown as itself in a notebook; ``str()`` is the SVG
    text."""

    def _repr_svg_(self) -> str: ...

class Solution(Record):
    """The answer to one board: the fields of ``statespace solve --json``.

    For a puzzle written in Python, ``path`` holds the move objects its ``successors`` yielded
    (their ``str()`` labels the picture), ``boards`` the text of the state after each move
    (``board_text(state)``, else ``repr(state)``), and ``states`` the states themselves."""

    solvable: Optional[bool]
    """True, False (proven), or None when a limit stopped the run."""
    moves: Optional[int]
    """The fewest moves, or None."""
    path: list[Any]
    """The move labels, in order (a Python-defined puzzle's own move objects)."""
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
    states: list[Any]
    """A Python-defined puzzle's states after each move, its own objects (not for built-in
    puzzles)."""

class Exploration(Record):
    """A whole-space sweep: the fields of ``statespace explore --json``."""

    puzzle: str
    direction: Literal["backward", "forward"]
    strategy: str
    space_size: Optional[int]
    """Every state of the space, reachable or not; None for a space with no dense index (a
    Python-defined puzzle's)."""
    complete: bool
    limit: Optional[str]
    reachable: int
    histogram: list[int]
    """``histogram[d]``: the states at distance ``d``."""
    max_distance: Optional[int]
    example_farthest: Optional[str]
    """A board at the largest distance, as text."""
    farthest_state: Any
    """A Python-defined puzzle's state at the largest distance, its own object."""
    states_per_second: float
    peak_memory_bytes: int
    peak_memory_source: str
    engine_memory_bytes: int
    elapsed: float
    threads: int
    stats: dict[str, Any]

State = Hashable
"""A Python-defined puzzle's state: any hashable value (a tuple, a frozenset, a str, ...)."""

class PythonPuzzle(Protocol):
    """What ``solve``, ``explore`` and ``export`` need of a puzzle written in Python.

    - ``start``: the start state, or a method returning it.
    - ``successors(state)``: an iterable of ``(move, state)`` pairs; a move is any hashable
      value, labelled by ``str(move)``.
    - ``is_goal(state)``: truthy for a goal.
    - optional ``heuristic(state)``: a lower bound on the moves left (a non-negative int; A* and
      IDA* are optimal only if it never overestimates).
    - optional ``board_text(state)``: how a state prints (a str; else ``repr(state)``).
    - optional ``board_style``: how that text is drawn: ``"text"`` (the default), ``"tiles"``
      (whitespace-separated numbers, ``_`` the blank) or a dict of one-character cells to CSS
      colours.
    - optional ``description``: a name for titles (else the class name).
    - optional ``invertible = True``: every move is undone by another move. Then ``explore``
      can sweep backward from the goals (``explore_from="goals"``: the successors are the
      predecessors), and ``export`` gives an undirected graph (``networkx.Graph``).
    - optional ``goals``: the goal states (an iterable, or a method returning one), where
      ``explore_from="goals"`` starts.
    - optional ``key(state)``: what identifies a state in ``explore`` (an int, str, bytes or
      tuple of ints; else any hashable value): for states that are not hashable or not compact
      themselves (a list, an object). Called once per successor met.

    Each callback is called at most once per state: the library records the answers for the
    run (so depth-first engines re-expand without calling Python), then lets go of everything.
    ``explore`` records nothing but which states it met: a state that is an int, a str, bytes or
    a flat tuple of ints (exact types: not a bool, a float, a subclass) is kept as a few bytes in
    Rust and made again (an equal new object) when its successors are asked for; others are
    hashed by Python.
    """

    start: Any
    def successors(self, state: Any) -> Iterable[Tuple[Hashable, Any]]: ...
    def is_goal(self, state: Any) -> Any: ...

def solve(
    puzzle: Union[PythonPuzzle, Puzzle],
    mode: Optional[str] = None,
    time_limit: Optional[Duration] = None,
    max_depth: Optional[int] = None,
    max_states: Optional[int] = None,
    memory: Optional[Size] = None,
    *,
    board: Any = None,
) -> Solution:
    """Solves a puzzle written in Python from its start (or from ``board``, one of its states:
    ``solve(p, board=(8, 6, 7, 2, 5, 4, 3, 0, 1))``), by the library's engines: ``bfs``,
    ``iddfs``, ``beam``, and with a ``heuristic`` ``astar`` and ``idastar``; ``auto`` (the
    default) is A* with a heuristic, else BFS. Every answer but ``beam``'s is optimal (A* and
    IDA* given an admissible heuristic; ``optimal`` says so in the result); ``unsolvable`` is
    proven by BFS and A* when everything reachable is exhausted.

    The engine runs with the GIL released and takes it for each callback. A limit is an answer
    (``outcome == "limit-reached"``): the time limit holds within a second however slow the
    callbacks (a callback still running then gets ``SearchStopped`` raised in it; one blocked in
    C code is not waited for, and the answer says nothing of what the search found); the memory
    budget counts the engine's tables and the library's record of the states (about 120 bytes a
    state), not your objects. An exception raised in a callback stops
    the run at once and propagates as itself; a callback's answer of the wrong type raises
    ``TypeError`` (successors not yielding pairs, a heuristic not an int) or ``ValueError`` (a
    negative heuristic). A built-in ``Puzzle`` is solved from ``board`` (a ``Board``), else its
    start board, as ``puzzle.solve(...)`` does.
    """

def explore(
    puzzle: Union[PythonPuzzle, Puzzle],
    time_limit: Optional[Duration] = None,
    max_depth: Optional[int] = None,
    max_states: Optional[int] = None,
    memory: Optional[Size] = None,
    *,
    explore_from: Optional[Literal["start", "goals"]] = None,
    board: Any = None,
) -> Exploration:
    """Every state a puzzle written in Python reaches from its start (or from ``board``),
    counted by its fewest moves from it (``direction == "forward"``): ``histogram``,
    ``reachable``, ``max_distance``, ``example_farthest`` (text) and ``farthest_state`` (the
    object). With ``explore_from="goals"``, every state that reaches a goal, by its fewest moves
    to the nearest (``direction == "backward"``): for a puzzle that declares ``invertible =
    True`` and ``goals`` (others raise ``ValueError``; so does a ``board`` with it).

    It calls ``successors`` once per state and keeps no Python object per state met (see
    ``PythonPuzzle``): about 0.3 to 0.55 times the CPU of a plain BFS with a ``deque`` and a
    ``dict`` over the same ``successors`` (the cost of ``successors`` itself is the floor), in
    0.15 to 0.4 times its peak memory (``python/bench/sweep_vs_bfs.py``).
    A limit stops it with the layers completed (``complete`` False) and warns
    (``LimitWarning``); the time limit holds as in ``solve`` (a callback blocked in C code is
    not waited for: the layers completed before it, with no farthest state); the memory budget
    counts the states' keys (a tuple of n small ints: about n + 15 bytes a state), not your
    objects. A built-in ``Puzzle`` explores as ``puzzle.explore(...)`` does."""

def export(
    puzzle: Union[PythonPuzzle, Puzzle],
    depth: Optional[int] = None,
    max_states: int = 10000,
    memory: Optional[Size] = None,
    *,
    board: Any = None,
) -> Any:
    """The state graph around a Python-defined puzzle's start (or ``board``): the breadth-first
    neighbourhood of at most ``max_states`` states (1 to 1,000,000) and ``depth`` moves, every
    move between them; a cut graph warns (``LimitWarning``). With networkx, a
    ``networkx.DiGraph``, or a ``networkx.Graph`` (one edge per pair of states) when the puzzle
    declares ``invertible = True`` (``Multi...`` when two moves join the same
    two states) whose nodes are your states, with attributes ``board`` (text), ``depth``,
    ``goal_distance`` (None when unknown), ``goal``, ``start``, and edge attribute ``move``
    (your move object); without, the node-link dict (int ids in BFS order, each node's state in
    ``state``). Raises ``MemoryLimitError`` when the graph would pass the memory budget. A
    built-in ``Puzzle`` exports as ``puzzle.export(...)`` does."""
