//! How a run is bounded and waited for: the limits given as arguments ([`LimitArgs`]), and the
//! engine on a thread of its own with the GIL released ([`run_released`], [`run_watched`]),
//! Ctrl-C polled.
//!
//! Every engine, for a built-in puzzle or one written in Python, runs on a thread of its own;
//! the calling thread waits in slices of [`POLL`] with the GIL released, checking Python's
//! signals between them. Ctrl-C sets [`INTERRUPTED`], the flag every run's limits carry (a
//! Python-defined puzzle's adapter passes it on to its run's own flag: see
//! [`defined`](crate::defined)), and the engine stops at its next poll (within a fraction of a
//! second, as in the CLI); then the waiting call raises `KeyboardInterrupt`.
//!
//! A built-in engine polls its limits however long its work, so [`run_released`] waits for it to
//! stop. A Python-defined puzzle's engine can be held by a callback that does not return (a loop,
//! a long `time.sleep`), and no poll of the engine's notices a limit then; so [`run_watched`]
//! also watches the time limit from the waiting thread, tells the run to stop (the adapter raises
//! an exception inside the running callback), and answers without the engine when it has not
//! stopped within [`GRACE`]: the engine's thread owns everything it touches, and is left to end
//! on its own when the callback returns.

use crate::errors::SearchStopped;
use pyo3::exceptions::{PyOverflowError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::PyBool;
use statespace::config::{Config, Overrides, parse_bytes, parse_duration};
use statespace::limit::{Limit, Limits};
use statespace::options::SearchOptions;
use std::ops::RangeInclusive;
use std::os::raw::c_long;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The interrupt flag every run's [`Limits`] carries; set when Ctrl-C reaches a waiting call.
pub(crate) static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Runs in progress: the flag is cleared only when a run starts with none other running, so a
/// Ctrl-C stops every run of the process (as in the CLI) and none is missed.
static ACTIVE: Mutex<usize> = Mutex::new(0);

/// How long the waiting thread sleeps between two checks of Python's signals.
const POLL: Duration = Duration::from_millis(50);

/// How long [`run_watched`] gives an engine to stop after the time limit or Ctrl-C before it
/// answers without it: time for a callback interrupted in Python code to unwind and the engine
/// to return its own answer (milliseconds), short enough that with [`POLL`] the answer comes
/// well within a second.
const GRACE: Duration = Duration::from_millis(300);

/// One run counted in [`ACTIVE`] while it lives (the first clears [`INTERRUPTED`]).
struct Active;

impl Active {
    fn start() -> Active {
        let mut active = ACTIVE.lock().unwrap_or_else(|e| e.into_inner());
        if *active == 0 {
            INTERRUPTED.store(false, Ordering::SeqCst);
        }
        *active += 1;
        Active
    }
}

impl Drop for Active {
    fn drop(&mut self) {
        *ACTIVE.lock().unwrap_or_else(|e| e.into_inner()) -= 1;
    }
}

/// What [`run_watched`] watches besides Ctrl-C, and how it stops the run.
pub(crate) struct Watch<'a> {
    /// The run's clock start and time limit: at their sum the run is stopped.
    pub(crate) time_limit: Option<(Instant, Duration)>,
    /// Stops the run for a limit (Ctrl-C's or the time's), with the GIL held.
    pub(crate) stop: &'a dyn Fn(Python<'_>, Limit),
}

/// How a wait ended besides the engine's answer.
struct Waited {
    /// The exception a signal handler raised (Ctrl-C's `KeyboardInterrupt`), to raise after.
    raised: Option<PyErr>,
    /// The limit the run was stopped for, when the engine did not stop within [`GRACE`].
    abandoned: Option<Limit>,
}

/// Waits until `finished()`, in slices of [`POLL`] with the GIL released (the engine unparks
/// this thread when it ends), checking Python's signals between them: the first exception a
/// signal handler raises sets [`INTERRUPTED`] and is kept. With a `watch`, also stops the run on
/// Ctrl-C or at its time limit, and gives up waiting [`GRACE`] after.
fn wait(py: Python<'_>, finished: impl Fn() -> bool + Sync, watch: Option<&Watch>) -> Waited {
    let deadline = watch
        .and_then(|w| w.time_limit)
        .and_then(|(start, limit)| Some((start.checked_add(limit)?, limit)));
    let mut raised = None;
    let mut stopped: Option<(Instant, Limit)> = None;
    loop {
        py.detach(|| {
            let until = Instant::now() + POLL;
            while !finished() {
                let now = Instant::now();
                if now >= until {
                    break;
                }
                std::thread::park_timeout(until - now);
            }
        });
        if finished() {
            return Waited {
                raised,
                abandoned: None,
            };
        }
        let mut reason = None;
        if raised.is_none()
            && let Err(error) = py.check_signals()
        {
            INTERRUPTED.store(true, Ordering::SeqCst);
            raised = Some(error);
            reason = Some(Limit::Interrupted);
        }
        if let Some((at, limit)) = deadline
            && Instant::now() >= at
        {
            reason = reason.or(Some(Limit::Time(limit)));
        }
        if let Some(watch) = watch {
            if let (None, Some(limit)) = (&stopped, reason) {
                (watch.stop)(py, limit.clone());
                stopped = Some((Instant::now(), limit));
            }
            if let Some((at, limit)) = &stopped
                && at.elapsed() >= GRACE
            {
                return Waited {
                    raised,
                    abandoned: Some(limit.clone()),
                };
            }
        }
    }
}

/// Runs `work` on a thread of its own with the GIL released, and waits for it in slices of
/// [`POLL`], checking Python's signals between them. On Ctrl-C (or any exception a signal
/// handler raises) it sets [`INTERRUPTED`], waits for the engine to stop (the engines poll the
/// flag every few thousand successors) and raises that exception.
pub(crate) fn run_released<T: Send>(
    py: Python<'_>,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    let _active = Active::start();
    std::thread::scope(|scope| {
        let (done, ended) = Done::new();
        let engine = scope.spawn(move || {
            let result = work();
            done.signal();
            result
        });
        let waited = wait(py, || ended.load(Ordering::SeqCst), None);
        let result = engine.join().map_err(|_| panicked())?;
        match waited.raised {
            Some(error) => Err(error),
            None => Ok(result),
        }
    })
}

/// The engine's word that its work is done, and the waiting thread woken. (Not the thread's
/// `is_finished`: that turns true only once the thread is torn down, after the wake-up, so the
/// waiter often found it false, slept a whole [`POLL`] and answered 50 ms late.)
struct Done {
    set: Arc<AtomicBool>,
    waiter: std::thread::Thread,
}

impl Done {
    /// A word for the calling thread to wait for, and what it reads.
    fn new() -> (Done, Arc<AtomicBool>) {
        let set = Arc::new(AtomicBool::new(false));
        let done = Done {
            set: Arc::clone(&set),
            waiter: std::thread::current(),
        };
        (done, set)
    }

    fn signal(self) {
        self.set.store(true, Ordering::SeqCst);
        self.waiter.unpark();
    }
}

/// What [`run_watched`] answers: the engine's answer, or the limit it was stopped for when it
/// did not stop within [`GRACE`] (a callback held it).
pub(crate) enum Answer<T> {
    Finished(T),
    Abandoned(Limit),
}

/// [`run_released`] for an engine that calls Python (a Python-defined puzzle's): `work` runs on
/// a thread of its own that owns `owner` (what the work touches) and holds a Python thread state
/// for the whole run (so each callback only takes the GIL), with the GIL released but for the
/// callbacks. Watched as [`Watch`] says: on Ctrl-C or at the time limit the waiting thread calls
/// `watch.stop` and raises [`SearchStopped`] inside the callback running, if one is; if the
/// engine has not ended [`GRACE`] later (a callback blocked in C code, or one that caught the
/// exception and went on), its thread is left to end on its own, and the answer is
/// [`Answer::Abandoned`]. Ctrl-C's exception is raised either way.
pub(crate) fn run_watched<S: Send + Sync + 'static, T: Send + 'static>(
    py: Python<'_>,
    owner: Arc<S>,
    watch: &Watch,
    work: impl FnOnce(&S) -> T + Send + 'static,
) -> PyResult<Answer<T>> {
    let _active = Active::start();
    let thread = Arc::new(EngineThread::default());
    let (done, ended) = Done::new();
    let engine = {
        let thread = Arc::clone(&thread);
        std::thread::Builder::new()
            .name("statespace engine".into())
            .spawn(move || {
                let result = Python::attach(move |py| {
                    thread.enter(py);
                    let result = py.detach(|| work(&owner));
                    thread.leave(py);
                    // The last owner lets go of Python objects with the GIL held.
                    drop(owner);
                    result
                });
                done.signal();
                result
            })
            .map_err(|e| PyRuntimeError::new_err(format!("statespace: no engine thread: {e}")))?
    };
    let stop = |py: Python<'_>, limit: Limit| {
        (watch.stop)(py, limit);
        thread.interrupt(py);
    };
    let watch = Watch {
        time_limit: watch.time_limit,
        stop: &stop,
    };
    let waited = wait(py, || ended.load(Ordering::SeqCst), Some(&watch));
    if let Some(error) = waited.raised {
        return Err(error);
    }
    if let Some(limit) = waited.abandoned {
        return Ok(Answer::Abandoned(limit));
    }
    engine.join().map(Answer::Finished).map_err(|_| panicked())
}

/// The Python thread an engine's callbacks run on, while it has a thread state: where
/// [`run_watched`] raises [`SearchStopped`]. Read and written only with the GIL held, so the
/// waiting thread never raises in a thread whose state is gone (its id may be another's then).
#[derive(Default)]
struct EngineThread(Mutex<Engine>);

/// What [`EngineThread`] knows of its thread.
#[derive(Default)]
struct Engine {
    /// The thread's id, while it has a thread state.
    ident: Option<u64>,
    /// Whether [`EngineThread::interrupt`] raised in it.
    interrupted: bool,
}

impl EngineThread {
    fn engine(&self) -> std::sync::MutexGuard<'_, Engine> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Records the calling thread (attached). (`_thread`, not `threading`: imported first on
    /// this thread, `threading` would take it for the main thread, and wait for it at exit.)
    fn enter(&self, py: Python<'_>) {
        let ident = py
            .import("_thread")
            .and_then(|module| module.call_method0("get_ident"))
            .and_then(|ident| ident.extract::<u64>());
        *self.engine() = Engine {
            ident: ident.ok(),
            interrupted: false,
        };
    }

    /// Forgets the calling thread, first taking an exception [`interrupt`](Self::interrupt)
    /// raised that no callback met (the engine had stopped calling Python).
    ///
    /// Why taken, not cleared with `PyThreadState_SetAsyncExc(ident, NULL)`: that call (with any
    /// exception, null too) tells the whole interpreter an asynchronous exception is pending, and
    /// only the thread it was set in, meeting it, says it is no longer; a thread that ends first
    /// leaves the flag set for good, and under a profiler or tracer (`cProfile`, `coverage`, a
    /// debugger) the main thread then looped for ever at its next line of Python (CPython
    /// 3.11). So it is raised here, in a line of Python code, and dropped; and nothing is
    /// raised without need.
    fn leave(&self, py: Python<'_>) {
        let mut engine = self.engine();
        if std::mem::take(&mut engine.interrupted) {
            // Its first instruction meets the pending exception (SearchStopped), which is
            // dropped; an `Ok` means it was met already.
            let _ = py.eval(c"None", None, None);
        }
        engine.ident = None;
    }

    /// Raises [`SearchStopped`] in the engine's thread at its next Python instruction: at once in
    /// a callback running Python code, when it returns to Python from C code (`time.sleep`), or
    /// never if no callback runs again (then [`leave`](Self::leave) takes it).
    fn interrupt(&self, py: Python<'_>) {
        let mut engine = self.engine();
        if let Some(ident) = engine.ident
            && !engine.interrupted
        {
            let stopped = py.get_type::<SearchStopped>();
            // SAFETY: the GIL is held (`py`); the thread has its state (see the type's docs);
            // the exception type is a live class the call takes a new reference to.
            unsafe { ffi::PyThreadState_SetAsyncExc(ident as c_long, stopped.as_ptr()) };
            engine.interrupted = true;
        }
    }
}

fn panicked() -> PyErr {
    PyRuntimeError::new_err("statespace: the engine panicked (a bug)")
}

/// Stop flags for the engines' [`Limits::interrupt`], one per run in progress: a flag must be
/// `'static` there, so flags are made when more runs are in progress than ever before and kept
/// in this pool between runs (their number is the most runs ever in progress at once).
static FREE_FLAGS: Mutex<Vec<&'static AtomicBool>> = Mutex::new(Vec::new());

/// One run's stop flag, taken from [`FREE_FLAGS`] (cleared) and given back when dropped.
pub(crate) struct StopFlag(pub(crate) &'static AtomicBool);

impl StopFlag {
    pub(crate) fn take() -> StopFlag {
        let pooled = FREE_FLAGS.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let flag = pooled.unwrap_or_else(|| Box::leak(Box::new(AtomicBool::new(false))));
        flag.store(false, Ordering::SeqCst);
        StopFlag(flag)
    }
}

impl Drop for StopFlag {
    fn drop(&mut self) {
        FREE_FLAGS
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(self.0);
    }
}

/// A limit given in seconds (a number) or in humantime words (`"30s"`, `"1m 30s"`): positive,
/// and at most what a duration holds (2^64 seconds, some 584 billion years: None is no limit).
pub(crate) fn duration_arg(value: &Bound<'_, PyAny>, name: &str) -> PyResult<Duration> {
    if let Ok(text) = value.extract::<String>() {
        return parse_duration(&text).map_err(|e| PyValueError::new_err(format!("{name}: {e}")));
    }
    let seconds: f64 = match value.extract() {
        Ok(seconds) => seconds,
        // An int past every float: too large, as below.
        Err(e) if e.is_instance_of::<PyOverflowError>(value.py()) => f64::INFINITY,
        Err(_) => {
            return Err(PyTypeError::new_err(format!(
                "{name}: seconds (a number) or a string like \"30s\""
            )));
        }
    };
    let shown = value
        .repr()
        .map_or_else(|_| seconds.to_string(), |r| r.to_string());
    if seconds.is_nan() || seconds <= 0.0 {
        return Err(PyValueError::new_err(format!(
            "{name}: must be a positive duration, not {shown}"
        )));
    }
    // Above zero, a number the conversion refuses is too large (infinity included); one that
    // rounds to no time at all is too small.
    match Duration::try_from_secs_f64(seconds) {
        Ok(d) if !d.is_zero() => Ok(d),
        Ok(_) => Err(PyValueError::new_err(format!(
            "{name}: {shown} seconds is shorter than a nanosecond"
        ))),
        Err(_) => Err(PyValueError::new_err(format!(
            "{name}: {shown} seconds is too large (at most {} seconds, some 584 billion years; \
             None for no limit)",
            u64::MAX
        ))),
    }
}

/// A memory budget in bytes (an int) or in words (`"4GiB"`); an int is read as its digits are
/// in words, so both have the same checks (positive, at most the physical memory).
pub(crate) fn bytes_arg(value: &Bound<'_, PyAny>, name: &str) -> PyResult<u64> {
    let text = match value.extract::<String>() {
        Ok(text) => text,
        Err(_) => {
            let expected = "bytes (an int) or a string like \"4GiB\"";
            match int_value(value, name, expected)? {
                Some(n) => n.to_string(),
                None => value.str()?.to_string(),
            }
        }
    };
    parse_bytes(&text).map_err(|e| PyValueError::new_err(format!("{name}: {e}")))
}

/// An int argument within `range` (`max_depth`, `max_states`, ...): `ValueError` naming the
/// argument and the range when out of it, as a config's key is refused; `TypeError` when not an
/// int.
pub(crate) fn int_arg(
    value: &Bound<'_, PyAny>,
    name: &str,
    range: RangeInclusive<u64>,
) -> PyResult<u64> {
    let n = int_value(value, name, "an int")?;
    n.and_then(|n| u64::try_from(n).ok())
        .filter(|n| range.contains(n))
        .ok_or_else(|| {
            let shown = n.map_or_else(
                || value.str().map_or_else(|_| "?".into(), |s| s.to_string()),
                |n| n.to_string(),
            );
            PyValueError::new_err(format!(
                "{name}: {shown} is out of range (allowed: {} to {})",
                range.start(),
                range.end()
            ))
        })
}

/// The value of an int argument (any object with `__index__`, not a bool), `None` when it does
/// not fit 128 bits; `TypeError` (`{name}: {expected}, not float`) when it is not an int.
fn int_value(value: &Bound<'_, PyAny>, name: &str, expected: &str) -> PyResult<Option<i128>> {
    let not_an_int = || -> PyResult<PyErr> {
        let kind = value.get_type().name()?;
        Ok(PyTypeError::new_err(format!(
            "{name}: {expected}, not {kind}"
        )))
    };
    if value.is_instance_of::<PyBool>() {
        return Err(not_an_int()?);
    }
    match value.extract::<i128>() {
        Ok(n) => Ok(Some(n)),
        Err(e) if e.is_instance_of::<PyOverflowError>(value.py()) => Ok(None),
        Err(_) => Err(not_an_int()?),
    }
}

/// [`int_arg`] of an optional argument.
pub(crate) fn int_opt(
    value: Option<&Bound<'_, PyAny>>,
    name: &str,
    range: RangeInclusive<u64>,
) -> PyResult<Option<u64>> {
    value.map(|v| int_arg(v, name, range)).transpose()
}

/// The limits of one run given as arguments; they override a config's `[search]` keys.
pub(crate) struct LimitArgs(pub(crate) Overrides);

impl LimitArgs {
    /// Reads the arguments: a duration in seconds or words, a size in bytes or words.
    pub(crate) fn read(
        time_limit: Option<&Bound<'_, PyAny>>,
        max_depth: Option<&Bound<'_, PyAny>>,
        max_states: Option<&Bound<'_, PyAny>>,
        memory: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<LimitArgs> {
        Ok(LimitArgs(Overrides {
            time_limit: time_limit
                .map(|t| duration_arg(t, "time_limit"))
                .transpose()?,
            max_depth: int_opt(max_depth, "max_depth", 0..=u32::MAX as u64)?.map(|d| d as u32),
            max_states: int_opt(max_states, "max_states", 1..=u64::MAX)?,
            memory: memory.map(|m| bytes_arg(m, "memory")).transpose()?,
            ..Overrides::default()
        }))
    }

    /// The limits and options of a run of `config`'s puzzle (none: a puzzle written in
    /// Python): its `[search]` keys, then the arguments, as the command line's flags go over
    /// them ([`Overrides::apply`]); the clock starts now and Ctrl-C sets [`INTERRUPTED`].
    pub(crate) fn resolve(&self, config: Option<&Config>) -> PyResult<(Limits, SearchOptions)> {
        let base = Limits {
            interrupt: Some(&INTERRUPTED),
            ..Limits::default()
        };
        let at = |key: &str| statespace::error::Location::flag(key);
        self.0
            .apply(config, base, at)
            .map_err(crate::errors::py_error)
    }
}
