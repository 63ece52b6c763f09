//! Puzzles written in Python (issue 22, item 2): a user's class run by the library's own engines.
//!
//! ```python
//! class Jugs:
//!     start = (0, 0)
//!     def successors(self, state): ...   # iterable of (move, state) pairs
//!     def is_goal(self, state): ...
//!     def heuristic(self, state): ...    # optional: a lower bound on the moves left
//!     def board_text(self, state): ...   # optional: how a state prints (else repr)
//! statespace.solve(Jugs(), mode="astar")
//! ```
//!
//! Optional too (issue 44): `invertible = True` (every move is undone by another: `explore`
//! may sweep from `goals`, the goal states, and `export` is undirected) and `key(state)` (what
//! identifies a state in `explore`). `solve`, `explore` and `export` take `board=`, a state to
//! start from instead of `start`.
//!
//! # Design
//!
//! [`Defined`] is a [`StateSpace`] whose `State` is a `u32` id and whose `Move` is one too: the
//! adapter interns every Python state it meets (a dict from the object to its id, and a `Vec`
//! of the objects by id) and every move object the same way, so the engines see small `Copy`
//! integers, as they do for a built-in puzzle, and keep them in their own tables. States may be
//! any hashable Python value; moves any hashable value, shown by `str(move)`. The tables belong
//! to the adapter, which lives for one run and is dropped after it (with the GIL held): nothing
//! is kept and nothing leaked.
//!
//! The engines are the engine table's ([`engines`]): those a space with no index and no goal
//! set runs (`bfs`, `iddfs`, `beam`), and `astar` and `idastar` when the class has a
//! `heuristic`. They run
//! directly rather than through the [`kit`](statespace::kit): the kit's glue turns results into
//! board text, and here the answer carries the user's own objects (the path's states and
//! moves). `auto` is the table's rule, told that moves are costly (each a Python call): A* when
//! there is a heuristic (each state expanded once: IDA*'s repeated expansions would cost more
//! than A*'s memory), else BFS.
//!
//! `explore` does not go through the adapter's interning: its sweep ([`sweep`]) keeps the
//! states it met as compact keys in Rust ([`keys`]), with no Python object per state, and
//! asks each state's successors once, so that it costs less than a plain Python BFS over the
//! same `successors` (see that module). It shares the adapter's callbacks, limits and stops.
//!
//! **Each callback is called at most once per state.** The successors of a state (as pairs of
//! ids), its goal test and its estimate are recorded the first time the engine asks; every
//! later question (IDDFS and IDA* expand the same states again at every bound; BFS walks back
//! over a layer's successors to rebuild its path; an export generates every node's successors
//! twice) is answered from the record, without Python. So the user's functions run once per
//! state whatever the engine, and the engines see a deterministic space even if the functions
//! are not.
//!
//! # The GIL, errors and stops
//!
//! The engine runs on a thread of its own, as a built-in puzzle's does, but one that owns what
//! it touches (the adapter is shared by an [`Arc`]: [`run_watched`]): the GIL is released while
//! it runs and taken for each callback (the engine thread holds a Python thread state for the
//! whole run, so taking the GIL is a lock, not a new thread state). A state whose answers are
//! recorded needs no GIL at all.
//!
//! A run stops early for four reasons besides the engine's own limits: an exception raised in a
//! callback (or a callback's answer of the wrong type), Ctrl-C ([`INTERRUPTED`], set by the
//! waiting thread), the time limit passing during slow callbacks, and the adapter's tables
//! passing the memory budget. The adapter then records the first reason, sets its run's stop
//! flag (the `interrupt` of the engine's [`Limits`], one flag per run from a small pool:
//! [`StopFlag`]) and calls Python no more: a state not yet recorded has no goal, no estimate, and
//! [`WORK_PER_POLL`] successors that are itself. Those self-loops add no state, but they are
//! work the engine counts, so it polls its latch right after, sees the flag and stops: at once,
//! whatever it was doing. Then the reason decides the answer: an exception is raised again as
//! itself (the same type, the same traceback); a limit becomes the answer's `limit` (a path the
//! engine found before the stop stands: its every step came from the user's own successors).
//!
//! A callback that does not return (a loop, a long `time.sleep`) would hold the engine past
//! any limit, so the waiting thread watches the time limit and Ctrl-C too: it stops the run as
//! above and raises `SearchStopped` inside the callback, which ends one running Python code at
//! once. One blocked in C code meets the exception only when the call returns; if the engine
//! has not stopped a moment later, the answer is given without it (a solve's says nothing of
//! what it found; a sweep's histogram is the layers it completed, with no farthest state), and
//! its thread ends on its own when the callback returns (calling Python no more).
//!
//! # Costs
//!
//! Per state met: the user's callbacks (usually the bulk: a `successors` that builds tuples costs
//! microseconds), a dict look-up per successor to intern it (the state's own `__hash__` and
//! `__eq__`), and about [`BYTES_PER_STATE`] bytes in the adapter's tables beside the user's
//! objects (which the budget does not see). The engines' own work on the ids is what it is for
//! a built-in puzzle. Measured on the 8-puzzle's whole space defined in Python
//! (BENCHMARKS.md, "From Python"): 2.2 us of CPU a board, against 1.4 us for a plain Python BFS
//! over the same `successors` (1.23 times its instructions) and 0.2 us for the built-in plugin.
//! IDDFS and IDA* keep their own memory linear in depth, but the adapter's record of every
//! state met is not. `explore` costs far less per state: see [`sweep`].

use crate::errors::limit_error;
use crate::graphs;
use crate::records::{Exploration, Picture, Solution, board_style};
use crate::run::{Answer, INTERRUPTED, LimitArgs, StopFlag, Watch, run_watched};
use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyInt, PyList, PyString, PyTuple};
use statespace::cache::TableCache;
use statespace::config::{Engine, ExploreFrom, Facts, Mode, check_mode, choose};
use statespace::graph::{self, ExportLimits};
use statespace::instance::{Answer as SolveAnswer, Direction};
use statespace::kit::{HeuristicFactory, SharedHeuristic};
use statespace::limit::{Limit, Limits, WORK_PER_POLL};
use statespace::picture::BoardStyle;
use statespace::search::caps::{Caps, Lazy, Run};
use statespace::search::engines;
use statespace::search::layers::Layers;
use statespace::search::{Outcome, Path, Report, Stats, Step};
use statespace::space::{Heuristic, StateSpace};
use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Instant;

mod keys;
mod runs;
mod sweep;
pub(crate) use runs::{explore, explore_stopped, export, solve};

/// A state: the index of its Python object in the adapter's table.
type StateId = u32;
/// A move: the index of its Python object in the adapter's table, or [`STOPPED`].
type MoveId = u32;
/// The move of a stopped adapter's self-loops (never in an answer: they add no state).
const STOPPED: MoveId = MoveId::MAX;

/// The adapter's bytes per state met, for the memory budget: its `Vec`s (the object, the
/// successor range, the goal and estimate records: 33 bytes) and the dict entry that interns
/// the object with its int id (70 bytes a state, 83 while the dict resizes: measured with
/// `tracemalloc` on a dict of a million tuples to their ids), rounded up. The successor pairs
/// are counted apart (8 bytes each); the user's objects are not counted.
pub(crate) const BYTES_PER_STATE: u64 = 120;

/// The user's class, read once: its callbacks, how its states print and are drawn.
struct Callbacks {
    /// The class name, for messages.
    name: String,
    /// One line naming the puzzle (its `description`, else the class name): picture titles.
    description: String,
    successors: Py<PyAny>,
    is_goal: Py<PyAny>,
    heuristic: Option<Py<PyAny>>,
    board_text: Option<Py<PyAny>>,
    /// The optional `key(state)`: what identifies a state in a sweep ([`sweep`]).
    key: Option<Py<PyAny>>,
    /// `invertible = True`: every move is undone by another (a sweep from the goals; exports
    /// are undirected).
    invertible: bool,
    style: BoardStyle,
}

impl Callbacks {
    fn read(puzzle: &Bound<'_, PyAny>) -> PyResult<Callbacks> {
        let name = puzzle.get_type().name()?.to_string();
        let required = |method: &str| -> PyResult<Py<PyAny>> {
            match optional(puzzle, method)? {
                Some(f) => Ok(f),
                None => Err(PyTypeError::new_err(format!(
                    "{name} has no {method}(state) method: a puzzle has `start`, \
                     `successors(state)` and `is_goal(state)` (and may have `heuristic(state)` \
                     and `board_text(state)`)"
                ))),
            }
        };
        let description = match puzzle.getattr_opt("description")? {
            Some(d) if d.is_instance_of::<PyString>() => d.extract()?,
            _ => name.clone(),
        };
        let invertible = match puzzle.getattr_opt("invertible")? {
            None => false,
            Some(flag) if flag.is_none() => false,
            Some(flag) => flag.extract::<bool>().map_err(|_| {
                PyTypeError::new_err(format!(
                    "{name}.invertible: True or False (whether every move is undone by another)"
                ))
            })?,
        };
        Ok(Callbacks {
            successors: required("successors")?,
            is_goal: required("is_goal")?,
            heuristic: optional(puzzle, "heuristic")?,
            board_text: optional(puzzle, "board_text")?,
            key: optional(puzzle, "key")?,
            invertible,
            style: board_style(puzzle, &name)?,
            name,
            description,
        })
    }
}

/// The callable attribute `name` of `puzzle`, or None when it has none (or it is None).
fn optional(puzzle: &Bound<'_, PyAny>, name: &str) -> PyResult<Option<Py<PyAny>>> {
    match puzzle.getattr_opt(name)? {
        Some(f) if f.is_none() => Ok(None),
        Some(f) if f.is_callable() => Ok(Some(f.unbind())),
        Some(_) => Err(PyTypeError::new_err(format!(
            "{}.{name} is not callable",
            puzzle.get_type().name()?
        ))),
        None => Ok(None),
    }
}

/// The puzzle's `start`: a state, or a method that returns one.
fn start_of<'py>(puzzle: &Bound<'py, PyAny>, name: &str) -> PyResult<Bound<'py, PyAny>> {
    let Some(start) = puzzle.getattr_opt("start")? else {
        return Err(PyTypeError::new_err(format!(
            "{name} has no `start`: a puzzle has `start` (a state, or a method that returns one)"
        )));
    };
    if start.is_callable() {
        start.call0()
    } else {
        Ok(start)
    }
}

/// The states a sweep from the goals starts from: the puzzle's `goals` (an iterable of states,
/// or a method that returns one), when it also declares `invertible = True`.
fn goals_of<'py>(
    puzzle: &Bound<'py, PyAny>,
    callbacks: &Callbacks,
) -> PyResult<Vec<Bound<'py, PyAny>>> {
    let name = &callbacks.name;
    let goals = puzzle.getattr_opt("goals")?.filter(|g| !g.is_none());
    let Some(goals) = goals.filter(|_| callbacks.invertible) else {
        return Err(PyValueError::new_err(format!(
            "explore_from=\"goals\": {name} needs `invertible = True` and `goals` (the goal \
             states) to be swept from its goals: with every move undone by another, the \
             successors are the predecessors"
        )));
    };
    let goals = if goals.is_callable() {
        goals.call0()?
    } else {
        goals
    };
    let Ok(items) = goals.try_iter() else {
        return Err(PyTypeError::new_err(format!(
            "{name}.goals: {} is not an iterable of states",
            goals.repr()?
        )));
    };
    let goals = items.collect::<PyResult<Vec<_>>>()?;
    if goals.is_empty() {
        return Err(PyValueError::new_err(format!(
            "{name}.goals: no goal state to sweep from"
        )));
    }
    Ok(goals)
}

/// What the adapter has recorded: the objects by id and what each callback answered.
#[derive(Default)]
struct Tables {
    states: Vec<Py<PyAny>>,
    moves: Vec<Py<PyAny>>,
    /// A state's successors once expanded: `pairs[first..first + count]`.
    expanded: Vec<Option<(usize, u32)>>,
    pairs: Vec<(MoveId, StateId)>,
    goal: Vec<Option<bool>>,
    estimate: Vec<Option<u32>>,
}

impl Tables {
    /// The bytes the adapter holds for these tables (see [`BYTES_PER_STATE`]).
    fn bytes(&self) -> u128 {
        let pairs = self.pairs.capacity() * std::mem::size_of::<(MoveId, StateId)>();
        self.states.len() as u128 * BYTES_PER_STATE as u128 + pairs as u128
    }
}

/// Why the adapter stopped its run.
enum Stopped {
    /// A callback raised, or answered with the wrong type: raised again after the run.
    Raised(PyErr),
    /// Ctrl-C, the time limit, or the memory budget: the answer's limit.
    Limit(Limit),
}

/// What a stopped adapter answers for a state it has no record of (see the module docs).
#[derive(Clone, Copy, PartialEq, Eq)]
enum WhenStopped {
    /// [`WORK_PER_POLL`] self-loops: an engine with a latch polls it at once.
    SelfLoops,
    /// No successor: an export has no latch, and ends when nothing is left to find.
    Nothing,
}

/// The adapter: a Python puzzle as a [`StateSpace`] of ids (see the module docs).
pub(crate) struct Defined {
    callbacks: Callbacks,
    /// Python object -> its id, for states and for moves. Only touched with the GIL held.
    state_ids: Py<PyDict>,
    move_ids: Py<PyDict>,
    /// Only locked for Rust work (never across a call into Python): the engine thread is the
    /// only one that touches it during a run, so it is never contended.
    tables: Mutex<Tables>,
    flag: StopFlag,
    /// The first reason the run was stopped for (set by the engine's thread or the waiting one).
    reason: Mutex<Option<Stopped>>,
    /// The run's limits, as the adapter checks them between callbacks (time, memory).
    limits: Limits,
    when_stopped: WhenStopped,
}

impl Defined {
    /// The adapter of `puzzle` for one run under `limits` (their `interrupt` is replaced by the
    /// run's own flag: use [`Defined::limits`]), from `start` (else the puzzle's `start`),
    /// interned as state 0.
    fn new(
        puzzle: &Bound<'_, PyAny>,
        start: Option<&Bound<'_, PyAny>>,
        limits: Limits,
        when_stopped: WhenStopped,
    ) -> PyResult<Defined> {
        let space = Defined::bare(puzzle, limits, when_stopped)?;
        let start = match start {
            Some(start) => start.clone(),
            None => start_of(puzzle, &space.callbacks.name)?,
        };
        let id = space.intern_state(puzzle.py(), &start)?;
        debug_assert_eq!(id, 0);
        Ok(space)
    }

    /// The adapter with no state interned: its callbacks, limits and stops, for a sweep
    /// ([`sweep`]), which keeps its states itself.
    fn bare(
        puzzle: &Bound<'_, PyAny>,
        limits: Limits,
        when_stopped: WhenStopped,
    ) -> PyResult<Defined> {
        let py = puzzle.py();
        Ok(Defined {
            callbacks: Callbacks::read(puzzle)?,
            state_ids: PyDict::new(py).unbind(),
            move_ids: PyDict::new(py).unbind(),
            tables: Mutex::new(Tables::default()),
            flag: StopFlag::take(),
            reason: Mutex::new(None),
            limits,
            when_stopped,
        })
    }

    /// The engines' limits: the run's, stopped by the adapter's flag.
    fn limits(&self) -> Limits {
        Limits {
            interrupt: Some(self.flag.0),
            ..self.limits.clone()
        }
    }

    fn tables(&self) -> std::sync::MutexGuard<'_, Tables> {
        self.tables.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Stops the run for `why`, unless it was stopped already.
    fn stop(&self, why: Stopped) {
        self.reason
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get_or_insert(why);
        self.flag.0.store(true, Ordering::SeqCst);
    }

    /// Whether the run is stopped; notices Ctrl-C (every call: one atomic load).
    fn stopped(&self) -> bool {
        if self.flag.0.load(Ordering::Relaxed) {
            return true;
        }
        if INTERRUPTED.load(Ordering::Relaxed) {
            self.stop(Stopped::Limit(Limit::Interrupted));
            return true;
        }
        false
    }

    /// Whether the run may call Python now: not stopped, and the time limit not passed (read
    /// before every callback, so that slow callbacks stop the run on time, however seldom the
    /// engine polls).
    fn may_call(&self) -> bool {
        if self.stopped() {
            return false;
        }
        let started = self.limits.clock_start.unwrap_or_else(Instant::now);
        match self.limits.stop_reason(started) {
            Some(limit) => {
                self.stop(Stopped::Limit(limit));
                false
            }
            None => true,
        }
    }

    /// Runs `call` with the GIL; an error stops the run (and `call`'s answer is `None`).
    fn call<T>(&self, call: impl FnOnce(Python<'_>) -> PyResult<T>) -> Option<T> {
        Python::attach(|py| match call(py) {
            Ok(answer) => Some(answer),
            Err(error) => {
                self.stop(Stopped::Raised(error));
                None
            }
        })
    }

    /// The id of `state`, interned now if it is new (then checked against the memory budget).
    fn intern_state(&self, py: Python<'_>, state: &Bound<'_, PyAny>) -> PyResult<StateId> {
        let ids = self.state_ids.bind(py);
        if let Some(id) = ids.get_item(state)? {
            return id.extract();
        }
        let (id, bytes) = {
            let mut tables = self.tables();
            let id = StateId::try_from(tables.states.len())
                .ok()
                .filter(|&id| id != StateId::MAX)
                .ok_or_else(|| PyOverflowError::new_err("more than 2^32 - 1 states"))?;
            tables.states.push(state.clone().unbind());
            tables.expanded.push(None);
            tables.goal.push(None);
            tables.estimate.push(None);
            (id, tables.bytes())
        };
        ids.set_item(state, id)?;
        if let Err(limit) = self.limits.check_memory(bytes) {
            self.stop(Stopped::Limit(limit));
        }
        Ok(id)
    }

    fn intern_move(&self, py: Python<'_>, mv: &Bound<'_, PyAny>) -> PyResult<MoveId> {
        let ids = self.move_ids.bind(py);
        if let Some(id) = ids.get_item(mv)? {
            return id.extract();
        }
        let id = {
            let mut tables = self.tables();
            let id = MoveId::try_from(tables.moves.len())
                .ok()
                .filter(|&id| id != STOPPED)
                .ok_or_else(|| PyOverflowError::new_err("more than 2^32 - 1 moves"))?;
            tables.moves.push(mv.clone().unbind());
            id
        };
        ids.set_item(mv, id)?;
        Ok(id)
    }

    /// The Python object of state `id`.
    fn state<'py>(&self, py: Python<'py>, id: StateId) -> Bound<'py, PyAny> {
        self.tables().states[id as usize].bind(py).clone()
    }

    /// The Python object of move `id`.
    fn move_object<'py>(&self, py: Python<'py>, id: MoveId) -> Bound<'py, PyAny> {
        self.tables().moves[id as usize].bind(py).clone()
    }

    /// Calls the user's `successors(state)` and records its pairs; their range in the table.
    fn expand(&self, py: Python<'_>, id: StateId) -> PyResult<(usize, u32)> {
        let state = self.state(py, id);
        let answer = self.callbacks.successors.bind(py).call1((&state,))?;
        let Ok(pairs) = answer.try_iter() else {
            return Err(PyTypeError::new_err(format!(
                "{}.successors({}) returned {}: not an iterable of (move, state) pairs",
                self.callbacks.name,
                state.repr()?,
                answer.repr()?
            )));
        };
        let first = self.tables().pairs.len();
        let recorded = (|| -> PyResult<u32> {
            let mut count = 0u32;
            for pair in pairs {
                let pair = pair?;
                let (mv, next) = match pair.cast::<PyTuple>() {
                    Ok(tuple) if tuple.len() == 2 => (tuple.get_item(0)?, tuple.get_item(1)?),
                    _ => {
                        return Err(PyTypeError::new_err(format!(
                            "{}.successors({}) yielded {}: not a (move, state) pair",
                            self.callbacks.name,
                            state.repr()?,
                            pair.repr()?
                        )));
                    }
                };
                let mv = self.intern_move(py, &mv)?;
                let next = self.intern_state(py, &next)?;
                self.tables().pairs.push((mv, next));
                count += 1;
            }
            Ok(count)
        })();
        let mut tables = self.tables();
        match recorded {
            Ok(count) => {
                tables.expanded[id as usize] = Some((first, count));
                Ok((first, count))
            }
            Err(error) => {
                tables.pairs.truncate(first);
                Err(error)
            }
        }
    }

    /// The user's `heuristic(state)`, checked: a non-negative int.
    fn call_heuristic(&self, py: Python<'_>, heuristic: &Py<PyAny>, id: StateId) -> PyResult<u32> {
        let state = self.state(py, id);
        let h = heuristic.bind(py).call1((&state,))?;
        let name = &self.callbacks.name;
        if !h.is_instance_of::<PyInt>() {
            return Err(PyTypeError::new_err(format!(
                "{name}.heuristic({}) returned {}: not an int",
                state.repr()?,
                h.repr()?
            )));
        }
        h.extract::<u32>().map_err(|_| {
            let shown = h.repr().map_or_else(|_| "?".into(), |r| r.to_string());
            let state = state.repr().map_or_else(|_| "?".into(), |r| r.to_string());
            PyValueError::new_err(format!(
                "{name}.heuristic({state}) returned {shown}: not a lower bound on the moves \
                 left (a non-negative int below 2^32)"
            ))
        })
    }

    /// The estimate of state `id` (0 when the class has no heuristic or the run stopped).
    fn estimate(&self, id: StateId) -> u32 {
        if let Some(h) = self.tables().estimate[id as usize] {
            return h;
        }
        let Some(heuristic) = &self.callbacks.heuristic else {
            return 0;
        };
        if !self.may_call() {
            return 0;
        }
        let h = self.call(|py| self.call_heuristic(py, heuristic, id));
        if let Some(h) = h {
            self.tables().estimate[id as usize] = Some(h);
        }
        h.unwrap_or(0)
    }

    /// The text of state `id`: `board_text(state)` (a str), else `repr(state)`.
    fn board_text(&self, py: Python<'_>, id: StateId) -> PyResult<String> {
        self.text_of(&self.state(py, id))
    }

    /// The text of `state`: `board_text(state)` (a str), else `repr(state)`.
    fn text_of(&self, state: &Bound<'_, PyAny>) -> PyResult<String> {
        let py = state.py();
        match &self.callbacks.board_text {
            Some(text) => {
                let text = text.bind(py).call1((state,))?;
                text.extract().map_err(|_| {
                    PyTypeError::new_err(format!(
                        "{}.board_text({}) returned {}: not a str",
                        self.callbacks.name,
                        state.repr().map_or_else(|_| "?".into(), |r| r.to_string()),
                        text.repr().map_or_else(|_| "?".into(), |r| r.to_string())
                    ))
                })
            }
            None => Ok(state.repr()?.to_string()),
        }
    }

    /// The label of move `id`: `str(move)`.
    fn label(&self, py: Python<'_>, id: MoveId) -> PyResult<String> {
        Ok(self.move_object(py, id).str()?.to_string())
    }

    /// The reason the run was stopped, taken: `Err` to raise for an exception, the limit for
    /// a limit, `None` when it was not stopped.
    fn take_reason(&self) -> PyResult<Option<Limit>> {
        match self.reason.lock().unwrap_or_else(|e| e.into_inner()).take() {
            Some(Stopped::Raised(error)) => Err(error),
            Some(Stopped::Limit(limit)) => Ok(Some(limit)),
            None => Ok(None),
        }
    }
}

impl StateSpace for Defined {
    type State = StateId;
    type Move = MoveId;

    fn successors(&self, id: StateId, visit: &mut dyn FnMut(MoveId, StateId)) {
        let recorded = self.tables().expanded[id as usize];
        let range = match recorded {
            Some(range) => Some(range),
            None if self.may_call() => self.call(|py| self.expand(py, id)),
            None => None,
        };
        match range {
            Some((first, count)) => {
                // Ctrl-C is noticed here too: a search over recorded states calls no Python.
                self.stopped();
                // Copied out a chunk at a time: one lock a chunk (not held while the engine
                // visits: its heuristic reads the tables too).
                let mut chunk = [(0, 0); 16];
                let end = first + count as usize;
                for at in (first..end).step_by(chunk.len()) {
                    let n = (end - at).min(chunk.len());
                    chunk[..n].copy_from_slice(&self.tables().pairs[at..at + n]);
                    for &(mv, next) in &chunk[..n] {
                        visit(mv, next);
                    }
                }
            }
            None if self.when_stopped == WhenStopped::SelfLoops => {
                for _ in 0..WORK_PER_POLL {
                    visit(STOPPED, id);
                }
            }
            None => {}
        }
    }

    fn is_goal(&self, id: StateId) -> bool {
        if let Some(goal) = self.tables().goal[id as usize] {
            return goal;
        }
        if !self.may_call() {
            return false;
        }
        let goal = self.call(|py| {
            let state = self.state(py, id);
            self.callbacks.is_goal.bind(py).call1((state,))?.is_truthy()
        });
        if let Some(goal) = goal {
            self.tables().goal[id as usize] = Some(goal);
        }
        goal.unwrap_or(false)
    }
}
