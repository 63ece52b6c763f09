//! The Python bindings of statespace (issue 22): the built-in puzzles from Python, through the
//! same configs, engines and JSON as the command line.
//!
//! - `load` reads a config (a path or TOML text); `Puzzle::new` builds one from keyword
//!   arguments by writing the TOML text a user would and parsing it with the library, so every
//!   check is exactly a config's. A bad config, key, mode or board raises `ValueError` with the
//!   library's one-line message.
//! - `solve`, `solve_many`, `explore` return `Record`s holding the fields of `solve --json` and
//!   `explore --json`, built by the command line's own functions
//!   ([`statespace_cli::solution_json`], [`statespace_cli::exploration_json`]); `export` returns
//!   the node-link JSON of [`graph::to_json`] as a networkx graph (or the dict without networkx).
//! - Every engine runs on a thread of its own with the GIL released (`run_released`); the
//!   calling thread waits in slices of `POLL`, checking Python's signals between them, so
//!   Ctrl-C sets the interrupt flag the engines poll and raises `KeyboardInterrupt` once the
//!   engine has stopped (within a fraction of a second, as in the CLI).

use pyo3::exceptions::{PyOSError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use statespace::board_text::BoardText;
use statespace::cache::TableCache;
use statespace::config::{Config, Mode, parse_bytes, parse_duration};
use statespace::error::{Error, Place};
use statespace::graph::{self, DEFAULT_MAX_STATES, ExportLimits, MAX_STATES_CAP};
use statespace::instance::{ExploreOptions, Instance};
use statespace::limit::Limits;
use statespace::registry::Registry;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// The interrupt flag every run's [`Limits`] carries; set when Ctrl-C reaches a waiting call.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Runs in progress: the flag is cleared only when a run starts with none other running, so a
/// Ctrl-C stops every run of the process (as in the CLI) and none is missed.
static ACTIVE: Mutex<usize> = Mutex::new(0);

/// How long the waiting thread sleeps between two checks of Python's signals.
const POLL: Duration = Duration::from_millis(50);

/// The built-in puzzles, assembled once.
fn registry() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY.get_or_init(statespace_cli::builtins)
}

/// The config name of a puzzle made from keyword arguments: its errors name no line, since the
/// text is ours, not the user's.
fn generated_name(kind: &str) -> String {
    format!("Puzzle({kind:?})")
}

/// A library error as the Python exception it stands for: bad input is `ValueError`, a file
/// that cannot be read `OSError`, a refusal at a limit (memory) or a cluster fault
/// `RuntimeError`. The message is the library's one line.
fn py_error(error: Error) -> PyErr {
    match &error {
        Error::Input { location, message } => match &location.place {
            // Our own TOML text: its line numbers mean nothing to the caller.
            Place::File(name) if name.starts_with("Puzzle(") => {
                let key = location
                    .key
                    .as_deref()
                    .map_or(String::new(), |k| format!("{k}: "));
                PyValueError::new_err(format!("{name}: {key}{message}"))
            }
            _ => PyValueError::new_err(error.to_string()),
        },
        Error::Io { .. } => PyOSError::new_err(error.to_string()),
        _ => PyRuntimeError::new_err(error.to_string()),
    }
}

/// Runs `work` on a thread of its own with the GIL released, and waits for it in slices of
/// [`POLL`], checking Python's signals between them. On Ctrl-C (or any exception a signal
/// handler raises) it sets [`INTERRUPTED`], waits for the engine to stop (the engines poll the
/// flag every few thousand successors) and raises that exception.
fn run_released<T: Send>(py: Python<'_>, work: impl FnOnce() -> T + Send) -> PyResult<T> {
    {
        let mut active = ACTIVE.lock().unwrap_or_else(|e| e.into_inner());
        if *active == 0 {
            INTERRUPTED.store(false, Ordering::SeqCst);
        }
        *active += 1;
    }
    struct Done;
    impl Drop for Done {
        fn drop(&mut self) {
            *ACTIVE.lock().unwrap_or_else(|e| e.into_inner()) -= 1;
        }
    }
    let _done = Done;
    std::thread::scope(|scope| {
        let waiter = std::thread::current();
        let engine = scope.spawn(move || {
            let result = work();
            waiter.unpark();
            result
        });
        let mut raised = None;
        loop {
            py.detach(|| {
                let until = Instant::now() + POLL;
                while !engine.is_finished() {
                    let now = Instant::now();
                    if now >= until {
                        break;
                    }
                    std::thread::park_timeout(until - now);
                }
            });
            if engine.is_finished() {
                break;
            }
            if raised.is_none()
                && let Err(error) = py.check_signals()
            {
                INTERRUPTED.store(true, Ordering::SeqCst);
                raised = Some(error);
            }
        }
        let result = engine
            .join()
            .map_err(|_| PyRuntimeError::new_err("statespace: the engine panicked (a bug)"))?;
        match raised {
            Some(error) => Err(error),
            None => Ok(result),
        }
    })
}

/// A limit given in seconds (a number) or in humantime words (`"30s"`, `"1m 30s"`).
fn duration_arg(value: &Bound<'_, PyAny>, name: &str) -> PyResult<Duration> {
    if let Ok(text) = value.extract::<String>() {
        return parse_duration(&text).map_err(|e| PyValueError::new_err(format!("{name}: {e}")));
    }
    let seconds: f64 = value.extract().map_err(|_| {
        PyTypeError::new_err(format!(
            "{name}: seconds (a number) or a string like \"30s\""
        ))
    })?;
    Duration::try_from_secs_f64(seconds)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or_else(|| PyValueError::new_err(format!("{name}: must be a positive duration")))
}

/// A memory budget in bytes (an int) or in words (`"4GiB"`).
fn bytes_arg(value: &Bound<'_, PyAny>, name: &str) -> PyResult<u64> {
    if let Ok(text) = value.extract::<String>() {
        return parse_bytes(&text).map_err(|e| PyValueError::new_err(format!("{name}: {e}")));
    }
    value.extract().map_err(|_| {
        PyTypeError::new_err(format!("{name}: bytes (an int) or a string like \"4GiB\""))
    })
}

/// A Python value as a TOML value: bool, int, float, str, and lists or tuples of them.
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
    } else if value.is_instance_of::<PyList>() || value.is_instance_of::<PyTuple>() {
        let items = value.try_iter()?;
        items
            .map(|item| toml_value(&item?, key))
            .collect::<PyResult<Vec<_>>>()
            .map(toml::Value::Array)
    } else {
        Err(PyTypeError::new_err(format!(
            "{key}: a bool, int, float, str or list of them, not {}",
            value.get_type().name()?
        )))
    }
}

/// `[search]` keys a keyword argument may set.
const SEARCH_KEYS: [&str; 7] = [
    "mode",
    "max_depth",
    "max_states",
    "time_limit",
    "memory",
    "threads",
    "explore_from",
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
                    let d = duration_arg(&value, "time_limit")?;
                    toml::Value::String(format!("{}ms", d.as_millis().max(1)))
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
struct Puzzle {
    config: Config,
    instance: Instance,
}

/// The table cache `cache=` names: `True` the command line's default
/// (`$XDG_CACHE_HOME/statespace`, else `~/.cache/statespace`), `False` none (`--no-cache`), a
/// path that directory (`--cache-dir`). Its warnings go to stderr, as the CLI's.
fn table_cache(cache: &Bound<'_, PyAny>) -> PyResult<TableCache> {
    let warn = |warning: &str| eprintln!("statespace: warning: {warning}");
    if let Ok(enabled) = cache.cast::<PyBool>() {
        return Ok(TableCache::new(None, enabled.is_true(), warn));
    }
    let dir: std::path::PathBuf = cache.extract().map_err(|_| {
        PyTypeError::new_err("cache: True, False or a directory (str or os.PathLike)")
    })?;
    Ok(TableCache::new(Some(dir), true, warn))
}

/// The limits of one run: the config's `[search]` keys, then the arguments.
struct LimitArgs {
    time_limit: Option<Duration>,
    max_depth: Option<u32>,
    max_states: Option<u64>,
    memory: Option<u64>,
}

impl LimitArgs {
    fn read(
        time_limit: Option<&Bound<'_, PyAny>>,
        max_depth: Option<u32>,
        max_states: Option<u64>,
        memory: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<LimitArgs> {
        if max_states == Some(0) {
            return Err(PyValueError::new_err("max_states: must be at least 1"));
        }
        Ok(LimitArgs {
            time_limit: time_limit
                .map(|t| duration_arg(t, "time_limit"))
                .transpose()?,
            max_depth,
            max_states,
            memory: memory.map(|m| bytes_arg(m, "memory")).transpose()?,
        })
    }

    fn resolve(&self, config: &Config) -> PyResult<Limits> {
        let base = Limits {
            interrupt: Some(&INTERRUPTED),
            ..Limits::default()
        };
        let mut limits = config.limits(base).map_err(py_error)?;
        if self.time_limit.is_some() {
            limits.time_limit = self.time_limit;
        }
        if self.max_depth.is_some() {
            limits.max_depth = self.max_depth;
        }
        if self.max_states.is_some() {
            limits.max_states = self.max_states;
        }
        if let Some(bytes) = self.memory {
            limits.memory_budget = bytes;
        }
        limits.clock_start = Some(Instant::now());
        Ok(limits)
    }
}

impl Puzzle {
    /// Parses `text` (named `name` in errors) and builds its instance with the GIL released.
    fn build(py: Python<'_>, name: &str, text: &str, cache: TableCache) -> PyResult<Puzzle> {
        let config = Config::parse(name, text).map_err(py_error)?;
        let limits = LimitArgs::read(None, None, None, None)?.resolve(&config)?;
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

    /// `board` as board text, or the config's start board.
    fn board(&self, board: Option<&str>, what: &str) -> PyResult<BoardText> {
        match board {
            Some(text) => Ok(BoardText::from_file(what, text.to_string())),
            None => self.config.start_board().ok_or_else(|| {
                PyValueError::new_err(format!(
                    "{}: start.board: missing: give a [start] board, or board=",
                    self.config.name
                ))
            }),
        }
    }
}

/// Converts a JSON value (built by the library) to Python objects through the `json` module.
fn to_python<'py>(py: Python<'py>, value: &serde_json::Value) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?
        .call_method1("loads", (value.to_string(),))
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

    /// Solves `board` (the config's start board when None) and returns a Solution.
    #[pyo3(signature = (board=None, mode=None, time_limit=None, max_depth=None, max_states=None, memory=None))]
    #[allow(clippy::too_many_arguments)]
    fn solve(
        &self,
        py: Python<'_>,
        board: Option<&str>,
        mode: Option<&str>,
        time_limit: Option<&Bound<'_, PyAny>>,
        max_depth: Option<u32>,
        max_states: Option<u64>,
        memory: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Py<Solution>> {
        let mode = self.mode(mode)?;
        let limits =
            LimitArgs::read(time_limit, max_depth, max_states, memory)?.resolve(&self.config)?;
        let board = self.board(board, "<board>")?;
        let solution =
            run_released(py, || self.instance.solve(&board, mode, &limits))?.map_err(py_error)?;
        Solution::new(py, &statespace_cli::solution_json(&solution))
    }

    /// Solves every board of `boards` with one setup (tables built once); a list of Solutions.
    /// The time limit counts per board, as in `solve --boards`.
    #[pyo3(signature = (boards, mode=None, time_limit=None, max_depth=None, max_states=None, memory=None))]
    #[allow(clippy::too_many_arguments)]
    fn solve_many(
        &self,
        py: Python<'_>,
        boards: Vec<String>,
        mode: Option<&str>,
        time_limit: Option<&Bound<'_, PyAny>>,
        max_depth: Option<u32>,
        max_states: Option<u64>,
        memory: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Vec<Py<Solution>>> {
        let mode = self.mode(mode)?;
        let args = LimitArgs::read(time_limit, max_depth, max_states, memory)?;
        let limits = args.resolve(&self.config)?;
        let answers = run_released(py, || {
            let mut answers = Vec::with_capacity(boards.len());
            for (i, text) in boards.iter().enumerate() {
                let board = BoardText::from_file(&format!("<board {}>", i + 1), text.clone());
                let mut limits = limits.clone();
                limits.clock_start = Some(Instant::now());
                let solution = self.instance.solve(&board, mode, &limits)?;
                answers.push(statespace_cli::solution_json(&solution));
                if INTERRUPTED.load(Ordering::SeqCst) {
                    break;
                }
            }
            Ok(answers)
        })?
        .map_err(py_error)?;
        answers
            .iter()
            .map(|answer| Solution::new(py, answer))
            .collect()
    }

    /// Sweeps every state that can reach the goal; an Exploration (the histogram by distance,
    /// the farthest board, the rate, as `explore --json`).
    #[pyo3(signature = (threads=None, time_limit=None, max_depth=None, max_states=None, memory=None))]
    fn explore(
        &self,
        py: Python<'_>,
        threads: Option<usize>,
        time_limit: Option<&Bound<'_, PyAny>>,
        max_depth: Option<u32>,
        max_states: Option<u64>,
        memory: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Py<Exploration>> {
        let limits =
            LimitArgs::read(time_limit, max_depth, max_states, memory)?.resolve(&self.config)?;
        let threads = match threads {
            Some(n) => Some(n),
            None => self.config.threads().map_err(py_error)?,
        };
        let options = ExploreOptions {
            from: self.config.explore_from().map_err(py_error)?,
            limits,
            threads,
            cluster: None,
        };
        let start = self.config.start_board();
        let exploration = run_released(py, || {
            self.instance
                .explore(start.as_ref(), &options, &mut |_, _| {})
        })?
        .map_err(py_error)?;
        Exploration::new(py, &statespace_cli::exploration_json(&exploration))
    }

    /// The state graph around `board` (the start board when None): a networkx graph when
    /// networkx imports, else the node-link dict.
    #[pyo3(signature = (depth=None, max_states=DEFAULT_MAX_STATES, board=None, memory=None))]
    fn export<'py>(
        &self,
        py: Python<'py>,
        depth: Option<u32>,
        max_states: u64,
        board: Option<&str>,
        memory: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        if !(1..=MAX_STATES_CAP).contains(&max_states) {
            return Err(PyValueError::new_err(format!(
                "max_states: 1 to {MAX_STATES_CAP}, not {max_states}"
            )));
        }
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
        let board = self.board(board, "<board>")?;
        let text = run_released(py, || {
            self.instance
                .export(&board, &limits, &mut |_, _| {})
                .map(|g| graph::to_json(&g))
        })?
        .map_err(py_error)?;
        let data = py.import("json")?.call_method1("loads", (text,))?;
        match py.import("networkx") {
            Ok(nx) => networkx_graph(&nx, &data),
            Err(_) => Ok(data),
        }
    }
}

/// The node-link dict as a networkx graph: `Graph`/`DiGraph` (`Multi...` when two moves join
/// the same two states), node attributes `board`, `depth`, `goal_distance`, `goal`, `start`,
/// edge attribute `move`, graph attributes `complete` and `cut`.
fn networkx_graph<'py>(
    nx: &Bound<'py, PyModule>,
    data: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let directed: bool = data.get_item("directed")?.extract()?;
    let multigraph: bool = data.get_item("multigraph")?.extract()?;
    let class = match (directed, multigraph) {
        (false, false) => "Graph",
        (true, false) => "DiGraph",
        (false, true) => "MultiGraph",
        (true, true) => "MultiDiGraph",
    };
    let graph = nx.getattr(class)?.call0()?;
    graph
        .getattr("graph")?
        .call_method1("update", (data.get_item("graph")?,))?;
    for node in data.get_item("nodes")?.try_iter()? {
        let node = node?.cast_into::<PyDict>()?;
        let id = node.get_item("id")?.expect("every node has an id");
        node.del_item("id")?;
        graph.call_method("add_node", (id,), Some(&node))?;
    }
    for link in data.get_item("links")?.try_iter()? {
        let link = link?.cast_into::<PyDict>()?;
        let source = link.get_item("source")?.expect("every link has a source");
        let target = link.get_item("target")?.expect("every link has a target");
        link.del_item("source")?;
        link.del_item("target")?;
        graph.call_method("add_edge", (source, target), Some(&link))?;
    }
    Ok(graph)
}

/// A result: the fields of `solve --json` (a [`Solution`]) or `explore --json` (an
/// [`Exploration`]), as attributes and as `to_dict()`.
#[pyclass(frozen, subclass, module = "statespace")]
struct Record {
    /// `Solution` or `Exploration`.
    name: &'static str,
    fields: Py<PyDict>,
}

impl Record {
    fn new(py: Python<'_>, name: &'static str, json: &serde_json::Value) -> PyResult<Record> {
        let fields = to_python(py, json)?.cast_into::<PyDict>()?.unbind();
        Ok(Record { name, fields })
    }
}

/// The answer to one board: the fields of `solve --json`.
#[pyclass(frozen, extends = Record, module = "statespace")]
struct Solution;

/// A whole-space sweep: the fields of `explore --json`.
#[pyclass(frozen, extends = Record, module = "statespace")]
struct Exploration;

impl Solution {
    fn new(py: Python<'_>, json: &serde_json::Value) -> PyResult<Py<Solution>> {
        let record = Record::new(py, "Solution", json)?;
        Py::new(py, PyClassInitializer::from(record).add_subclass(Solution))
    }
}

impl Exploration {
    fn new(py: Python<'_>, json: &serde_json::Value) -> PyResult<Py<Exploration>> {
        let record = Record::new(py, "Exploration", json)?;
        Py::new(
            py,
            PyClassInitializer::from(record).add_subclass(Exploration),
        )
    }
}

#[pymethods]
impl Record {
    fn __getattr__<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        match self.fields.bind(py).get_item(name)? {
            Some(value) => Ok(value),
            None => Err(pyo3::exceptions::PyAttributeError::new_err(format!(
                "{} has no field `{name}`",
                self.name
            ))),
        }
    }

    /// Every field, as a new dict (what `--json` prints).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.fields.bind(py).copy()
    }

    fn __dir__(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        let mut names: Vec<String> = self.fields.bind(py).keys().extract()?;
        names.push("to_dict".into());
        Ok(names)
    }

    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        match other.cast::<Record>() {
            Ok(other) => self.fields.bind(py).eq(other.get().fields.bind(py)),
            Err(_) => Ok(false),
        }
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let fields = self.fields.bind(py);
        let get = |key: &str| -> PyResult<String> {
            Ok(match fields.get_item(key)? {
                Some(value) => value.repr()?.to_string(),
                None => "None".into(),
            })
        };
        Ok(match self.name {
            "Solution" => format!(
                "<statespace.Solution outcome={} moves={} mode={}>",
                get("outcome")?,
                get("moves")?,
                get("mode")?
            ),
            _ => format!(
                "<statespace.Exploration reachable={} max_distance={} complete={}>",
                get("reachable")?,
                get("max_distance")?,
                get("complete")?
            ),
        })
    }
}

/// load(source, *, cache=True): a Puzzle from a config file's path (str or os.PathLike), or
/// from TOML text (any str with a newline in it).
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
        && text.contains('\n')
    {
        return Puzzle::build(py, "<toml>", &text, cache);
    }
    let path: std::path::PathBuf = source
        .extract()
        .map_err(|_| PyTypeError::new_err("load: a path or TOML text"))?;
    let text = statespace::error::read_text(&path).map_err(py_error)?;
    Puzzle::build(py, &path.display().to_string(), &text, cache)
}

/// puzzles(): every built-in puzzle kind with its keys, goals and heuristics (as
/// `statespace puzzles --json`, without the modes).
#[pyfunction]
fn puzzles(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    let infos: Vec<_> = registry().plugins().iter().map(|p| p.info()).collect();
    let json = serde_json::to_value(&infos).map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    to_python(py, &json)
}

/// statespace: exact state-space search for puzzles, from Python.
#[pymodule]
#[pyo3(name = "statespace")]
fn statespace_py(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Puzzle>()?;
    m.add_class::<Record>()?;
    m.add_class::<Solution>()?;
    m.add_class::<Exploration>()?;
    m.add_function(wrap_pyfunction!(load, m)?)?;
    m.add_function(wrap_pyfunction!(puzzles, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
