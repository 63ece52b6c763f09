//! The Python bindings of statespace (issue 22): the built-in puzzles, and puzzles written in
//! Python, searched by the library's engines, answering with the fields of the command line's
//! `--json`.
//!
//! | file | holds |
//! |---|---|
//! | `lib.rs` | the module: `load`, `puzzles`, and `solve`/`explore`/`export` for a puzzle of either kind |
//! | `puzzle.rs` | `Puzzle`: a built-in puzzle from a config or keyword arguments |
//! | `boards.rs` | a built-in puzzle's board given as rows of cells, written as its board text |
//! | `defined/` | a puzzle written in Python: a space of interned ids the engines search (`mod.rs`, `runs.rs`), and its sweep over compact keys (`sweep.rs`, `keys.rs`) |
//! | `capi.rs` | the C-API calls whose fast form the abi3 wheel lacks, in both forms |
//! | `run.rs` | the limits given as arguments; every engine on its own thread, the GIL released, Ctrl-C polled |
//! | `records.rs` | the results (`Solution`, `Exploration`) and their pictures (`_repr_svg_`, `Svg`) |
//! | `graphs.rs` | exported state graphs as networkx graphs or node-link dicts |
//! | `errors.rs` | the exceptions: a library error as the Python one it stands for, `MemoryLimitError` |
//!
//! What holds everywhere: bad input raises `ValueError` with the library's one-line message; a
//! limit that stops a search is an answer (`outcome == "limit-reached"`), not an exception;
//! engines run with the GIL released and stop within a fraction of a second of Ctrl-C, which
//! raises `KeyboardInterrupt` (see `errors.rs` for the whole story).

mod boards;
mod capi;
mod defined;
mod errors;
mod graphs;
mod puzzle;
mod records;
mod run;

use errors::{LimitWarning, MemoryLimitError, SearchStopped, py_error};
use graphs::export_args;
use puzzle::{Puzzle, table_cache};
use pyo3::exceptions::{PyRuntimeError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::PyBool;
use records::{Exploration, Record, Solution, Svg, to_python};
use run::{LimitArgs, bytes_arg};
use statespace::registry::Registry;
use std::sync::OnceLock;

/// The puzzles the module searches: the built-in ones, or the registry an outside crate gave
/// [`add_to_module`]. Set once, when the module is made (PyO3 makes a module once per process).
static REGISTRY: OnceLock<Registry> = OnceLock::new();

fn registry() -> &'static Registry {
    REGISTRY.get_or_init(statespace_builtins::builtins)
}

/// load(source, *, cache=True): a Puzzle from a config file's path (str or os.PathLike), or
/// from TOML text (a str that [`is_toml_text`]).
#[pyfunction]
#[pyo3(signature = (source, *, cache=None))]
fn load(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    cache: Option<&Bound<'_, PyAny>>,
) -> PyResult<Puzzle> {
    let cache = match cache {
        Some(cache) => table_cache(cache)?,
        None => table_cache(PyBool::new(py, true).as_any())?,
    };
    if let Ok(text) = source.extract::<String>()
        && is_toml_text(&text)
    {
        return Puzzle::build(py, "<toml>", &text, cache);
    }
    let path: std::path::PathBuf = source
        .extract()
        .map_err(|_| PyTypeError::new_err("load: a path or TOML text"))?;
    let text = statespace::error::read_text(&path).map_err(py_error)?;
    Puzzle::build(py, &path.display().to_string(), &text, cache)
}

/// Whether `load`'s str is TOML text rather than a path: it has a newline, or it names no file
/// and looks like TOML (starts with `[` or `#`, or has a `=`: one line can be a whole config,
/// `puzzle = { kind = "flip", rows = 3, cols = 3 }`), so that mistyped TOML gets the parser's
/// error rather than "no such file". A one-line str that names a file is that file.
fn is_toml_text(text: &str) -> bool {
    if text.contains('\n') {
        return true;
    }
    let looks_like_toml = text.trim_start().starts_with(['[', '#']) || text.contains('=');
    looks_like_toml && !std::path::Path::new(text).exists()
}

/// puzzles(): every built-in puzzle kind with its keys, goals and heuristics (as
/// `statespace puzzles --json`, without the modes).
#[pyfunction]
fn puzzles(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    let infos: Vec<_> = registry().plugins().iter().map(|p| p.info()).collect();
    let json = serde_json::to_value(&infos).map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    to_python(py, &json)
}

/// solve(puzzle, mode=None, time_limit=None, max_depth=None, max_states=None, memory=None, *,
/// board=None): solves a puzzle written in Python from its start, or from `board` (one of its
/// states); a built-in `Puzzle` solves `board` (text or rows of cells), else its start board.
#[pyfunction]
#[pyo3(signature = (puzzle, mode=None, time_limit=None, max_depth=None, max_states=None, memory=None, *, board=None))]
fn solve(
    puzzle: &Bound<'_, PyAny>,
    mode: Option<&str>,
    time_limit: Option<&Bound<'_, PyAny>>,
    max_depth: Option<&Bound<'_, PyAny>>,
    max_states: Option<&Bound<'_, PyAny>>,
    memory: Option<&Bound<'_, PyAny>>,
    board: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<Solution>> {
    if let Ok(builtin) = puzzle.cast::<Puzzle>() {
        let args = (board, mode, time_limit, max_depth, max_states, memory);
        return Ok(builtin
            .call_method1("solve", args)?
            .cast_into::<Solution>()?
            .unbind());
    }
    let limits = LimitArgs::read(time_limit, max_depth, max_states, memory)?;
    defined::solve(puzzle, mode, &limits, board)
}

/// explore(puzzle, time_limit=None, max_depth=None, max_states=None, memory=None, *,
/// explore_from=None, board=None): every state of a puzzle written in Python that its start (or
/// `board`) reaches, counted by distance; with `explore_from="goals"` (a puzzle that declares
/// `invertible = True` and `goals`), every state that reaches a goal, by distance to the nearest.
/// A built-in `Puzzle` explores as its method does.
#[pyfunction]
#[pyo3(signature = (puzzle, time_limit=None, max_depth=None, max_states=None, memory=None, *, explore_from=None, board=None))]
fn explore(
    puzzle: &Bound<'_, PyAny>,
    time_limit: Option<&Bound<'_, PyAny>>,
    max_depth: Option<&Bound<'_, PyAny>>,
    max_states: Option<&Bound<'_, PyAny>>,
    memory: Option<&Bound<'_, PyAny>>,
    explore_from: Option<&str>,
    board: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<Exploration>> {
    if let Ok(builtin) = puzzle.cast::<Puzzle>() {
        let args = (
            None::<usize>,
            time_limit,
            max_depth,
            max_states,
            memory,
            explore_from,
            board,
        );
        return Ok(builtin
            .call_method1("explore", args)?
            .cast_into::<Exploration>()?
            .unbind());
    }
    let limits = LimitArgs::read(time_limit, max_depth, max_states, memory)?;
    defined::explore(puzzle, &limits, explore_from, board)
}

/// export(puzzle, depth=None, max_states=10000, memory=None, *, board=None): the state graph
/// around the start (or `board`) of a puzzle written in Python, undirected when it declares
/// `invertible = True` (a built-in `Puzzle` exports as its method does).
#[pyfunction]
#[pyo3(signature = (puzzle, depth=None, max_states=None, memory=None, *, board=None))]
fn export<'py>(
    puzzle: &Bound<'py, PyAny>,
    depth: Option<&Bound<'py, PyAny>>,
    max_states: Option<&Bound<'py, PyAny>>,
    memory: Option<&Bound<'py, PyAny>>,
    board: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    if let Ok(builtin) = puzzle.cast::<Puzzle>() {
        return builtin.call_method1("export", (depth, max_states, board, memory));
    }
    let (depth, max_states) = export_args(depth, max_states)?;
    let memory = memory.map(|m| bytes_arg(m, "memory")).transpose()?;
    defined::export(puzzle, depth, max_states, memory, board)
}

/// statespace: exact state-space search for puzzles, from Python (the built-in puzzles).
///
/// Behind the default feature `module`: an outside crate that makes a module of its own with
/// [`add_to_module`] takes this crate with `default-features = false`, so that its library does
/// not also define this module's entry point (`PyInit_statespace`).
#[cfg(feature = "module")]
#[pymodule]
#[pyo3(name = "statespace")]
fn statespace_py(m: &Bound<'_, PyModule>) -> PyResult<()> {
    add_to_module(m, statespace_builtins::builtins())
}

/// Fills `module` with the whole Python API (`load`, `puzzles`, `solve`, `explore`, `export`,
/// `Puzzle`, the records and the exceptions), searching the puzzles of `registry`: how an outside
/// crate makes a Python module of its own plugins. Its `#[pymodule]` builds a registry
/// (`statespace_builtins::builtins()` with its plugins added, or its plugins alone) and calls
/// this; `examples/python-plugin/` is one, tested in CI (docs/python.md, "Your own puzzles in
/// Rust").
///
/// One registry per process: a second call with another fails with `RuntimeError` (PyO3 makes a
/// module once per process, so only a second module of this library in the same process meets
/// it).
pub fn add_to_module(module: &Bound<'_, PyModule>, registry: Registry) -> PyResult<()> {
    if REGISTRY.set(registry).is_err() {
        return Err(PyRuntimeError::new_err(
            "statespace: the puzzles of this process were set already (one module per process)",
        ));
    }
    let m = module;
    m.add_class::<Puzzle>()?;
    m.add_class::<Record>()?;
    m.add_class::<Solution>()?;
    m.add_class::<Exploration>()?;
    m.add_class::<Svg>()?;
    m.add("MemoryLimitError", m.py().get_type::<MemoryLimitError>())?;
    m.add("SearchStopped", m.py().get_type::<SearchStopped>())?;
    m.add("LimitWarning", m.py().get_type::<LimitWarning>())?;
    m.add_function(wrap_pyfunction!(load, m)?)?;
    m.add_function(wrap_pyfunction!(puzzles, m)?)?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(explore, m)?)?;
    m.add_function(wrap_pyfunction!(export, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
