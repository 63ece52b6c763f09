//! The runs of a Python-defined puzzle ([`Defined`]): the engines it has, from the engine table
//! (`bfs`, `iddfs`, `beam`; `astar` and `idastar` when the class has a `heuristic`), `solve`,
//! `explore` and `export`, each on a watched engine thread ([`run_watched`]), and how their
//! reports become the answer's records (the user's own objects along the path).

use super::*;

/// The user's `heuristic`, through the adapter's record.
struct Estimate;

impl Heuristic<Defined> for Estimate {
    fn estimate(&self, space: &Defined, state: StateId) -> u32 {
        space.estimate(state)
    }
}

/// Each engine of a Python-defined puzzle, with its run.
type Engines = Vec<(&'static Engine, Run<Defined>)>;

/// The engines a Python-defined puzzle runs, from the engine table: those that need nothing
/// but the space, and those that need a heuristic when the class has one. Its moves are
/// costly (each a Python call), which `auto`'s rule weighs: A* over IDA* ([`choose`]).
fn engines(heuristic: bool) -> (Arc<Caps<Defined>>, Engines) {
    let heuristic = heuristic.then(|| {
        let made: SharedHeuristic<Defined> = Arc::new(Estimate);
        let factory: HeuristicFactory<Defined> = Arc::new(move |_, _| Ok(made.clone()));
        Arc::new(Lazy::new(factory))
    });
    let caps = Arc::new(Caps {
        heuristic,
        facts: Facts {
            states: None,
            costly_moves: true,
        },
        ..Caps::default()
    });
    let runs = engines::runs(&caps);
    (caps, runs)
}

/// Runs `engine` on the adapter on a thread of its own, the GIL released but for the callbacks
/// ([`run_watched`]): at the time limit or on Ctrl-C the waiting thread stops the run and
/// interrupts the callback running, and answers without the engine if a callback still holds it
/// a moment later.
fn run<T: Send + 'static>(
    py: Python<'_>,
    space: &Arc<Defined>,
    engine: impl FnOnce(&Defined) -> T + Send + 'static,
) -> PyResult<Answer<T>> {
    let limits = &space.limits;
    let watch = Watch {
        time_limit: limits.clock_start.zip(limits.time_limit),
        stop: &|_, limit| space.stop(Stopped::Limit(limit)),
    };
    run_watched(py, Arc::clone(space), &watch, engine)
}

/// The time since the run's clock started.
fn elapsed(space: &Defined) -> std::time::Duration {
    space
        .limits
        .clock_start
        .map(|t| t.elapsed())
        .unwrap_or_default()
}

/// `statespace.solve(puzzle, ...)` for a Python-defined puzzle (see the module docs).
pub(crate) fn solve(
    puzzle: &Bound<'_, PyAny>,
    mode: Option<&str>,
    limits: &LimitArgs,
    board: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<Solution>> {
    let py = puzzle.py();
    let (base, options) = limits.resolve(None)?;
    let space = Arc::new(Defined::new(puzzle, board, base, WhenStopped::SelfLoops)?);
    let (caps, runs) = engines(space.callbacks.heuristic.is_some());
    let available: Vec<&Engine> = runs.iter().map(|(e, _)| *e).collect();
    let modes: Vec<Mode> = (available.iter().map(|e| e.mode))
        .chain([Mode::AUTO])
        .collect();
    let asked = match mode {
        Some(name) => {
            check_mode(name, &modes).map_err(|e| PyValueError::new_err(format!("mode: {e}")))?
        }
        None => Mode::AUTO,
    };
    let mode = match asked {
        Mode::AUTO => {
            choose(&available, &caps.facts, options.solutions, None).expect("bfs runs every puzzle")
        }
        other => other,
    };
    let (engine, chosen) = (runs.into_iter())
        .find(|(e, _)| e.mode == mode)
        .expect("checked: a mode of the puzzle's");
    let limits = space.limits();
    let answer = run(py, &space, move |space| {
        chosen(space, 0, &limits, &options, &TableCache::disabled()).map(|(report, _)| report)
    })?;
    let mut report = match answer {
        Answer::Finished(report) => report.map_err(crate::errors::py_error)?,
        // A callback holds the engine: what it found is out of reach.
        Answer::Abandoned(limit) => Report::stopped(limit, elapsed(&space)),
    };
    if let Some(limit) = space.take_reason()? {
        // A path found before the stop stands; anything else the stop cut short.
        if !matches!(report.outcome, Outcome::Solved(_)) {
            report.outcome = Outcome::LimitReached(limit);
        }
    }
    solution_of(py, &space, engine, asked == Mode::AUTO, report)
}

/// The [`Solution`] of `report`: the fields of `solve --json` (boards as `board_text` or
/// `repr`), `path` the user's move objects and `states` the user's states after each move;
/// `auto` true when `auto` chose `mode`.
fn solution_of(
    py: Python<'_>,
    space: &Defined,
    engine: &Engine,
    auto: bool,
    report: Report<StateId, MoveId>,
) -> PyResult<Py<Solution>> {
    let mode = engine.mode;
    let steps: &[Step<StateId, MoveId>] = match &report.outcome {
        Outcome::Solved(path) => &path.steps,
        _ => &[],
    };
    let mut texts = HashMap::from([(0, space.board_text(py, 0)?)]);
    for step in steps {
        texts.insert(step.state, space.board_text(py, step.state)?);
    }
    let labels = (steps.iter())
        .map(|step| space.label(py, step.mv))
        .collect::<PyResult<Vec<String>>>()?;
    let moves = PyList::new(py, steps.iter().map(|s| space.move_object(py, s.mv)))?;
    let states = PyList::new(py, steps.iter().map(|s| space.state(py, s.state)))?;
    let outcome = match report.outcome {
        Outcome::Solved(path) => Outcome::Solved(Path {
            start: path.start,
            steps: (path.steps.iter().zip(&labels))
                .map(|(step, label)| Step {
                    mv: label.as_str(),
                    state: step.state,
                })
                .collect(),
        }),
        Outcome::Unsolvable => Outcome::Unsolvable,
        Outcome::LimitReached(limit) => Outcome::LimitReached(limit),
    };
    let labelled = Report::new(outcome, report.stats);
    let mut solution =
        statespace::instance::Solution::from_report(mode, 0, labelled, |s| texts[&s].clone());
    solution.optimal =
        engine.gives.optimal && !matches!(solution.answer, SolveAnswer::LimitReached(_));
    let fields = Solution::fields(py, &solution)?;
    fields.set_item("path", moves)?;
    fields.set_item("states", states)?;
    if auto {
        fields.set_item("auto", true)?;
    }
    let picture = Picture::Solution {
        description: space.callbacks.description.clone(),
        style: space.callbacks.style.clone(),
        solution,
    };
    Solution::new(py, fields, picture)
}

/// `statespace.explore(puzzle, ...)`: forward from the start (or `board`), every state counted
/// by its fewest moves from it; or, `from_goals`, backward from the puzzle's `goals` (it declares
/// `invertible = True`), every state by its fewest moves to a goal ([`sweep::sweep`]). A sweep
/// stopped by a limit warns ([`LimitWarning`](crate::errors::LimitWarning)).
pub(crate) fn explore(
    puzzle: &Bound<'_, PyAny>,
    limits: &LimitArgs,
    explore_from: Option<&str>,
    board: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<Exploration>> {
    let py = puzzle.py();
    let from_goals = match explore_from {
        None => false,
        Some(name) => {
            let from: ExploreFrom = name
                .parse()
                .map_err(|e| PyValueError::new_err(format!("explore_from: {e}")))?;
            from == ExploreFrom::Goals
        }
    };
    if from_goals && board.is_some() {
        return Err(PyValueError::new_err(
            "board= starts a sweep from the start; explore_from=\"goals\" sweeps from the \
             goals and takes none",
        ));
    }
    let (base, _) = limits.resolve(None)?;
    let space = Arc::new(Defined::bare(puzzle, base, WhenStopped::SelfLoops)?);
    let sources: Vec<Py<PyAny>> = match (from_goals, board) {
        (true, _) => goals_of(puzzle, &space.callbacks)?,
        (false, Some(board)) => vec![board.clone()],
        (false, None) => vec![start_of(puzzle, &space.callbacks.name)?],
    }
    .into_iter()
    .map(Bound::unbind)
    .collect();
    let key = space.callbacks.key.as_ref().map(|k| k.clone_ref(py));
    // The states found by the end of each layer, for an answer without the engine.
    let found = Arc::new(Mutex::new(Vec::new()));
    let progress = Arc::clone(&found);
    let answer = run(py, &space, move |space| {
        sweep::sweep(space, sources, key, &mut |_, states| {
            progress
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(states)
        })
    })?;
    let (mut layers, farthest) = match answer {
        Answer::Finished(swept) => (swept.layers, swept.farthest_state),
        Answer::Abandoned(limit) => {
            let found = found.lock().unwrap_or_else(|e| e.into_inner()).clone();
            (layers_found(&found, limit, elapsed(&space)), None)
        }
    };
    if let Some(limit) = space.take_reason()? {
        // The sweep stopped at once and dropped the layer the stop cut short.
        layers.stopped = Some(limit);
    }
    let farthest_text = (farthest.as_ref())
        .map(|s| space.text_of(s.bind(py)))
        .transpose()?;
    let stopped = layers.stopped.clone();
    let exploration = statespace::instance::Exploration::from_layers(
        space.callbacks.description.clone(),
        match from_goals {
            true => Direction::Backward,
            false => Direction::Forward,
        },
        "hash-set",
        // No dense index: the space's size is unknown (null in the fields).
        0,
        layers,
        |_| farthest_text.clone().unwrap_or_default(),
    );
    let layers_done = exploration.histogram.len();
    let fields = Exploration::fields(py, &exploration)?;
    fields.set_item("farthest_state", farthest)?;
    let record = Exploration::new(py, fields, exploration)?;
    if let Some(limit) = stopped {
        crate::errors::warn_limit(py, &explore_stopped(&limit, layers_done))?;
    }
    Ok(record)
}

/// The warning of a sweep stopped by `limit` with `layers` layers completed.
pub(crate) fn explore_stopped(limit: &Limit, layers: usize) -> String {
    format!(
        "explore stopped early ({limit}): the result counts the {layers} layer{} completed, not \
         the whole space (complete is False)",
        if layers == 1 { "" } else { "s" }
    )
}

/// `statespace.export(puzzle, ...)`: the state graph around the start, its nodes the user's
/// states (see [`graphs::defined_graph`]).
pub(crate) fn export<'py>(
    puzzle: &Bound<'py, PyAny>,
    depth: Option<u32>,
    max_states: u64,
    memory: Option<u64>,
    board: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = puzzle.py();
    let mut base = Limits::default();
    if let Some(bytes) = memory {
        base.memory_budget = bytes;
    }
    let space = Arc::new(Defined::new(puzzle, board, base, WhenStopped::Nothing)?);
    let undirected = space.callbacks.invertible;
    let limits = ExportLimits {
        max_depth: depth,
        max_states,
        memory_budget: space.limits.memory_budget,
    };
    // Node boards are the states' ids, turned into the user's objects and texts below.
    let built = match run(py, &space, move |space| {
        graph::build(
            space,
            0,
            undirected,
            &limits,
            |s| s.to_string(),
            &mut |_, _| {},
        )
        .map(|g| graph::to_json(&g))
    })? {
        Answer::Finished(built) => built,
        Answer::Abandoned(limit) => return Err(limit_error(&limit, &format!("export: {limit}"))),
    };
    if let Some(limit) = space.take_reason()? {
        return Err(limit_error(&limit, &format!("export: {limit}")));
    }
    let text = built.map_err(crate::errors::py_error)?;
    let data = py.import("json")?.call_method1("loads", (text,))?;
    graphs::warn_if_cut(&data)?;
    graphs::defined_graph(
        py,
        &data,
        |id| Ok((space.state(py, id), space.board_text(py, id)?)),
        |id| Ok(space.move_object(py, id)),
    )
}

/// The layers of a sweep answered without its engine, from the states found by the end of each
/// completed layer: their histogram, `stopped` by `limit` (the farthest state is not known).
fn layers_found(found: &[u64], limit: Limit, elapsed: std::time::Duration) -> Layers<StateId> {
    let histogram: Vec<u64> = (found.iter())
        .scan(0, |before, &states| {
            Some(states - std::mem::replace(before, states))
        })
        .collect();
    Layers {
        stats: Stats {
            visited: found.last().copied().unwrap_or(0),
            depth: histogram.len().saturating_sub(1) as u32,
            elapsed,
            ..Stats::default()
        },
        histogram,
        farthest: None,
        stopped: Some(limit),
        threads: 1,
        memory_bytes: 0,
    }
}
