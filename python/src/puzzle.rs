//! Built-in puzzles from Python: [`Puzzle`], a config and the instance the registry built from
//! it, made by `load` (a path or TOML text) or by `Puzzle(kind, **keys)`.
//!
//! `Puzzle(kind, **keys)` writes the TOML text a user would ([`puzzle_toml`]: each key in the
//! section the plugin declares it in) and parses it with the library, so every check is exactly
//! a config's. Its methods run the instance's engines through [`run_released`] and answer with
//! the records of [`records`](crate::records).

use crate::boards;
use crate::errors::{generated_name, py_error, warn_limit};
use crate::graphs::{export_args, networkx_or_dict, warn_if_cut};
use crate::records::{Exploration, Solution, Svg};
use crate::registry;
use crate::run::{INTERRUPTED, LimitArgs, bytes_arg, duration_arg, int_opt, run_released};
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use statespace::board_text::BoardText;
use statespace::cache::TableCache;
use statespace::config::{Config, ExploreFrom, Mode};
use statespace::graph::{self, ExportLimits};
use statespace::instance::{ExploreOptions, Instance};
use statespace::limit::Limits;
use std::sync::atomic::Ordering;
use std::time::Instant;

/// A Python value as a TOML value: bool, int, float, str, and lists, tuples or dicts of them.
fn toml_value(value: &Bound<'_, PyAny>, key: &str) -> PyResult<toml::Value> {
    if value.is_instance_of::<PyBool>() {
        Ok(toml::Value::Boolean(value.extract()?))
    } else if value.is_instance_of::<PyInt>() {
        let n: i64 = value
            .extract()
            .map_err(|_| PyValueError::new_err(format!("{key}: {value} is out of range")))?;
        Ok(toml::Value::Integer(n))
    } else if value.is_instance_of::<PyFloat>() {
        Ok(toml::Value::Float(value.extract()?))
    } else if value.is_instance_of::<PyString>() {
        Ok(toml::Value::String(value.extract()?))
    } else if let Ok(dict) = value.cast::<PyDict>() {
        // A table: `shapes={"V": "2x1"}` is `[puzzle] shapes = { V = "2x1" }`.
        let mut table = toml::Table::new();
        for (name, item) in dict.iter() {
            let name: String = name
                .extract()
                .map_err(|_| PyTypeError::new_err(format!("{key}: a dict's keys are str")))?;
            let value = toml_value(&item, &format!("{key}.{name}"))?;
            table.insert(name, value);
        }
        Ok(toml::Value::Table(table))
    } else if value.is_instance_of::<PyList>() || value.is_instance_of::<PyTuple>() {
        let items = value.try_iter()?;
        items
            .map(|item| toml_value(&item?, key))
            .collect::<PyResult<Vec<_>>>()
            .map(toml::Value::Array)
    } else {
        Err(PyTypeError::new_err(format!(
            "{key}: a bool, int, float, str, or a list or dict of them, not {}",
            value.get_type().name()?
        )))
    }
}

/// `[search]` keys a keyword argument may set.
const SEARCH_KEYS: [&str; 8] = [
    "mode",
    "max_depth",
    "max_states",
    "time_limit",
    "memory",
    "threads",
    "explore_from",
    "transpositions",
];

/// The TOML text of `Puzzle(kind, **keys)`: each key in the section the plugin declares it in.
fn puzzle_toml(kind: &str, keys: Option<&Bound<'_, PyDict>>) -> PyResult<String> {
    let mut sections: [(&str, toml::Table); 5] = [
        ("puzzle", toml::Table::new()),
        ("goal", toml::Table::new()),
        ("heuristic", toml::Table::new()),
        ("search", toml::Table::new()),
        ("start", toml::Table::new()),
    ];
    sections[0]
        .1
        .insert("kind".into(), toml::Value::String(kind.into()));
    // An unknown kind: the library's error names the known ones; keys cannot be placed.
    if let (Some(plugin), Some(keys)) = (registry().find(kind), keys) {
        let info = plugin.info();
        let names = |list: &[statespace::config::Key]| -> Vec<&'static str> {
            list.iter().map(|k| k.name).collect()
        };
        let (puzzle, goal, heuristic) = (
            names(info.puzzle_keys),
            names(info.goal_keys),
            names(info.heuristic_keys),
        );
        for (key, value) in keys.iter() {
            let key: String = key.extract()?;
            let section = match key.as_str() {
                k if puzzle.contains(&k) => 0,
                "goal" => 1,
                k if goal.contains(&k) => 1,
                "heuristic" => 2,
                k if heuristic.contains(&k) => 2,
                k if SEARCH_KEYS.contains(&k) => 3,
                "board" | "scramble" => 4,
                _ => {
                    let mut known = puzzle.clone();
                    known.push("goal");
                    known.extend(&goal);
                    if !info.heuristics.is_empty() {
                        known.push("heuristic");
                        known.extend(&heuristic);
                    }
                    known.extend(SEARCH_KEYS);
                    known.extend(["board", "scramble"]);
                    return Err(PyValueError::new_err(format!(
                        "{}: unknown key `{key}` for puzzle kind `{kind}` (known: {})",
                        generated_name(kind),
                        known.join(", ")
                    )));
                }
            };
            // `goal=` and `heuristic=` name the section's kind.
            let name = match key.as_str() {
                "goal" | "heuristic" => "kind",
                other => other,
            };
            // A duration or a size given as a number is written as the config's words.
            let value = match (name, value.is_instance_of::<PyString>()) {
                ("time_limit", false) => {
                    // Whole milliseconds (at least one) while they fit the config's reader,
                    // else whole seconds.
                    let d = duration_arg(&value, "time_limit")?;
                    let words = match u64::try_from(d.as_millis()) {
                        Ok(ms) => format!("{}ms", ms.max(1)),
                        Err(_) => format!("{}s", d.as_secs()),
                    };
                    toml::Value::String(words)
                }
                ("memory", false) => toml::Value::String(format!("{}B", bytes_arg(&value, name)?)),
                _ => toml_value(&value, &key)?,
            };
            sections[section].1.insert(name.into(), value);
        }
    }
    let mut document = toml::Table::new();
    for (name, table) in sections {
        if name == "puzzle" || !table.is_empty() {
            document.insert(name.into(), toml::Value::Table(table));
        }
    }
    toml::to_string(&document).map_err(|e| PyRuntimeError::new_err(e.to_string()))
}

/// A configured puzzle: its config and the instance the registry built from it.
#[pyclass(frozen, module = "statespace")]
pub(crate) struct Puzzle {
    config: Config,
    instance: Instance,
}

/// The table cache `cache=` names: `True` the command line's default
/// (`$XDG_CACHE_HOME/statespace`, else `~/.cache/statespace`), `False` none (`--no-cache`), a
/// path that directory (`--cache-dir`). Its warnings go to stderr, as the CLI's.
pub(crate) fn table_cache(cache: &Bound<'_, PyAny>) -> PyResult<TableCache> {
    let warn = |warning: &str| eprintln!("statespace: warning: {warning}");
    if let Ok(enabled) = cache.cast::<PyBool>() {
        return Ok(TableCache::new(None, enabled.is_true(), warn));
    }
    let dir: std::path::PathBuf = cache.extract().map_err(|_| {
        PyTypeError::new_err("cache: True, False or a directory (str or os.PathLike)")
    })?;
    Ok(TableCache::new(Some(dir), true, warn))
}

impl Puzzle {
    /// Parses `text` (named `name` in errors) and builds its instance with the GIL released.
    pub(crate) fn build(
        py: Python<'_>,
        name: &str,
        text: &str,
        cache: TableCache,
    ) -> PyResult<Puzzle> {
        let config = Config::parse(name, text).map_err(py_error)?;
        let (limits, _) = LimitArgs::read(None, None, None, None)?.resolve(Some(&config))?;
        let instance = run_released(py, || registry().build(&config, &limits))?
            .map_err(py_error)?
            .with_cache(cache);
        Ok(Puzzle { config, instance })
    }

    fn mode(&self, mode: Option<&str>) -> PyResult<Mode> {
        match mode {
            Some(name) => self
                .instance
                .mode_named(name)
                .map_err(|e| PyValueError::new_err(format!("mode: {e}"))),
            None => Ok(self.instance.default_mode()),
        }
    }

    /// `board` (board text, or rows of cells: [`boards::board_text`]) or `scramble` (moves from
    /// the goal), or the config's start.
    fn board(
        &self,
        board: Option<&Bound<'_, PyAny>>,
        scramble: Option<&str>,
    ) -> PyResult<BoardText> {
        match (board, scramble) {
            (Some(_), Some(_)) => Err(PyValueError::new_err("give board= or scramble=, not both")),
            (Some(board), None) => Ok(BoardText::from_file(
                "<board>",
                boards::board_text(&self.config, board)?,
            )),
            (None, Some(moves)) => Ok(BoardText {
                scramble: true,
                ..BoardText::from_file("<scramble>", moves.to_string())
            }),
            (None, None) => self.config.start_board().ok_or_else(|| {
                PyValueError::new_err(format!(
                    "{}: start.board: missing: give a [start] board, or board=",
                    self.config.name
                ))
            }),
        }
    }

    /// The answer `solution` as a [`Solution`] (its picture drawn in this puzzle's style).
    fn solution(
        &self,
        py: Python<'_>,
        solution: statespace::instance::Solution,
    ) -> PyResult<Py<Solution>> {
        let instance = &self.instance;
        Solution::of(py, instance.description(), instance.style(), solution)
    }
}

#[pymethods]
impl Puzzle {
    /// Puzzle(kind, *, cache=True, **keys): a built-in puzzle configured by keyword arguments.
    #[new]
    #[pyo3(signature = (kind, *, cache=None, **keys))]
    fn new(
        py: Python<'_>,
        kind: &str,
        cache: Option<&Bound<'_, PyAny>>,
        keys: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Puzzle> {
        let cache = match cache {
            Some(cache) => table_cache(cache)?,
            None => table_cache(PyBool::new(py, true).as_any())?,
        };
        let text = puzzle_toml(kind, keys)?;
        Puzzle::build(py, &generated_name(kind), &text, cache)
    }

    /// The config's `[puzzle] kind`.
    #[getter]
    fn kind(&self) -> String {
        self.config.kind.get_ref().clone()
    }

    /// One line naming the puzzle: `Sliding tiles 3 x 3, goal ordered`.
    #[getter]
    fn description(&self) -> String {
        self.instance.description().to_string()
    }

    /// The modes this puzzle runs, `auto` last.
    #[getter]
    fn modes(&self) -> Vec<&'static str> {
        self.instance.modes().into_iter().map(Mode::name).collect()
    }

    /// The mode `solve` runs when given none.
    #[getter]
    fn default_mode(&self) -> &'static str {
        self.instance.default_mode().name()
    }

    /// The config's TOML text (for `Puzzle(...)`, the text written from its arguments).
    #[getter]
    fn toml(&self) -> String {
        self.config.text.clone()
    }

    /// The config's `[start] board` (or scramble) text, or None.
    #[getter]
    fn start(&self) -> Option<String> {
        self.config.start_board().map(|b| b.text)
    }

    fn __repr__(&self) -> String {
        format!("<statespace.Puzzle {}>", self.instance.description())
    }

    /// Solves `board` (or the board `scramble` reaches; the config's start when neither) and
    /// returns a Solution; `solutions=N` gives the first N optimal ones (`solve --solutions`).
    #[pyo3(signature = (board=None, mode=None, time_limit=None, max_depth=None, max_states=None, memory=None, *, scramble=None, solutions=None))]
    #[allow(clippy::too_many_arguments)]
    fn solve(
        &self,
        py: Python<'_>,
        board: Option<&Bound<'_, PyAny>>,
        mode: Option<&str>,
        time_limit: Option<&Bound<'_, PyAny>>,
        max_depth: Option<&Bound<'_, PyAny>>,
        max_states: Option<&Bound<'_, PyAny>>,
        memory: Option<&Bound<'_, PyAny>>,
        scramble: Option<&str>,
        solutions: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Py<Solution>> {
        let mode = self.mode(mode)?;
        let mut args = LimitArgs::read(time_limit, max_depth, max_states, memory)?;
        let most = statespace::config::MAX_SOLUTIONS;
        args.0.solutions = int_opt(solutions, "solutions", 1..=most)?;
        let (limits, options) = args.resolve(Some(&self.config))?;
        let board = self.board(board, scramble)?;
        let solution = run_released(py, || self.instance.solve(&board, mode, &limits, &options))?
            .map_err(py_error)?;
        self.solution(py, solution)
    }

    /// Solves every board of `boards` with one setup (tables built once); a list of Solutions.
    /// The time limit counts per board, as in `solve --boards`.
    #[pyo3(signature = (boards, mode=None, time_limit=None, max_depth=None, max_states=None, memory=None))]
    #[allow(clippy::too_many_arguments)]
    fn solve_many(
        &self,
        py: Python<'_>,
        boards: Vec<Bound<'_, PyAny>>,
        mode: Option<&str>,
        time_limit: Option<&Bound<'_, PyAny>>,
        max_depth: Option<&Bound<'_, PyAny>>,
        max_states: Option<&Bound<'_, PyAny>>,
        memory: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Vec<Py<Solution>>> {
        let mode = self.mode(mode)?;
        let args = LimitArgs::read(time_limit, max_depth, max_states, memory)?;
        let (limits, options) = args.resolve(Some(&self.config))?;
        let boards = (boards.iter())
            .map(|b| boards::board_text(&self.config, b))
            .collect::<PyResult<Vec<String>>>()?;
        let answers = run_released(py, || {
            let mut answers = Vec::with_capacity(boards.len());
            for (i, text) in boards.iter().enumerate() {
                let board = BoardText::from_file(&format!("<board {}>", i + 1), text.clone());
                let mut limits = limits.clone();
                limits.clock_start = Some(Instant::now());
                answers.push(self.instance.solve(&board, mode, &limits, &options)?);
                if INTERRUPTED.load(Ordering::SeqCst) {
                    break;
                }
            }
            Ok(answers)
        })?
        .map_err(py_error)?;
        answers
            .into_iter()
            .map(|answer| self.solution(py, answer))
            .collect()
    }

    /// Sweeps the space as `explore --json` does: backward from the goals (every state that
    /// can reach one) or forward from the start (its component), per `explore_from` ("goals",
    /// "start"; default: "start" when `board` or `scramble` is given, else the config's
    /// `[search] explore_from`, else the puzzle's choice). The start is `board` or `scramble`,
    /// else the config's. An Exploration (the histogram by
    /// distance, the farthest board, the rate).
    #[pyo3(signature = (threads=None, time_limit=None, max_depth=None, max_states=None, memory=None, explore_from=None, board=None, scramble=None))]
    #[allow(clippy::too_many_arguments)]
    fn explore(
        &self,
        py: Python<'_>,
        threads: Option<&Bound<'_, PyAny>>,
        time_limit: Option<&Bound<'_, PyAny>>,
        max_depth: Option<&Bound<'_, PyAny>>,
        max_states: Option<&Bound<'_, PyAny>>,
        memory: Option<&Bound<'_, PyAny>>,
        explore_from: Option<&str>,
        board: Option<&Bound<'_, PyAny>>,
        scramble: Option<&str>,
    ) -> PyResult<Py<Exploration>> {
        let (limits, _) = LimitArgs::read(time_limit, max_depth, max_states, memory)?
            .resolve(Some(&self.config))?;
        let most = statespace::config::MAX_THREADS as u64;
        let threads = match int_opt(threads, "threads", 1..=most)? {
            Some(n) => Some(n as usize),
            None => self.config.threads().map_err(py_error)?,
        };
        let given_start = board.is_some() || scramble.is_some();
        let from = match explore_from {
            Some(name) => Some(
                name.parse()
                    .map_err(|e| PyValueError::new_err(format!("explore_from: {e}")))?,
            ),
            // A start given is the start of the sweep: its component, by distance from it.
            None if given_start => Some(ExploreFrom::Start),
            None => self.config.explore_from().map_err(py_error)?,
        };
        if given_start && from == Some(ExploreFrom::Goals) {
            return Err(PyValueError::new_err(
                "board= and scramble= start a sweep from the start; explore_from=\"goals\" \
                 sweeps from the goals and takes neither",
            ));
        }
        let options = ExploreOptions {
            from,
            limits,
            threads,
            cluster: None,
            symmetry: false,
        };
        let start = match (board, scramble) {
            (None, None) => self.config.start_board(),
            _ => Some(self.board(board, scramble)?),
        };
        let exploration = run_released(py, || {
            self.instance
                .explore(start.as_ref(), &options, &mut |_, _| {})
        })?
        .map_err(py_error)?;
        if let Some(limit) = &exploration.stopped {
            let message = crate::defined::explore_stopped(limit, exploration.histogram.len());
            warn_limit(py, &message)?;
        }
        Exploration::of(py, exploration)
    }

    /// The state graph around `board` (the start board when None): a networkx graph when
    /// networkx imports, else the node-link dict.
    #[pyo3(signature = (depth=None, max_states=None, board=None, memory=None))]
    fn export<'py>(
        &self,
        py: Python<'py>,
        depth: Option<&Bound<'py, PyAny>>,
        max_states: Option<&Bound<'py, PyAny>>,
        board: Option<&Bound<'py, PyAny>>,
        memory: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (depth, max_states) = export_args(depth, max_states)?;
        let memory_budget = match memory {
            Some(m) => bytes_arg(m, "memory")?,
            None => {
                self.config
                    .limits(Limits::default())
                    .map_err(py_error)?
                    .memory_budget
            }
        };
        let limits = ExportLimits {
            max_depth: depth,
            max_states,
            memory_budget,
        };
        let board = self.board(board, None)?;
        let text = run_released(py, || {
            self.instance
                .export(&board, &limits, &mut |_, _| {})
                .map(|g| graph::to_json(&g))
        })?
        .map_err(py_error)?;
        let data = py.import("json")?.call_method1("loads", (text,))?;
        warn_if_cut(&data)?;
        networkx_or_dict(py, data)
    }

    /// A picture of `board` (the config's start board when None) in the puzzle's style, as
    /// `solve --svg` draws boards. The text is drawn as written: it is not checked.
    #[pyo3(signature = (board=None))]
    fn board_svg(&self, board: Option<&Bound<'_, PyAny>>) -> PyResult<Svg> {
        let board = self.board(board, None)?;
        let text = statespace::picture::board_svg(self.instance.style(), &board.text);
        Ok(Svg::new(text))
    }
}
