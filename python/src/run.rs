//! How a run is bounded and waited for: the limits given as arguments ([`LimitArgs`]), and the
//! engine on a thread of its own with the GIL released ([`run_released`]), Ctrl-C polled.
//!
//! Every engine, for a built-in puzzle or one written in Python, runs on a thread of its own;
//! the calling thread waits in slices of [`POLL`] with the GIL released, checking Python's
//! signals between them. Ctrl-C sets [`INTERRUPTED`], the flag every run's limits carry (a
//! Python-defined puzzle's adapter passes it on to its run's own flag: see
//! [`defined`](crate::defined)), and the engine stops at its next poll (within a fraction of a
//! second, as in the CLI); then the waiting call raises `KeyboardInterrupt`.

use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use statespace::config::{Config, parse_bytes, parse_duration};
use statespace::limit::Limits;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The interrupt flag every run's [`Limits`] carries; set when Ctrl-C reaches a waiting call.
pub(crate) static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Runs in progress: the flag is cleared only when a run starts with none other running, so a
/// Ctrl-C stops every run of the process (as in the CLI) and none is missed.
static ACTIVE: Mutex<usize> = Mutex::new(0);

/// How long the waiting thread sleeps between two checks of Python's signals.
const POLL: Duration = Duration::from_millis(50);

/// Runs `work` on a thread of its own with the GIL released, and waits for it in slices of
/// [`POLL`], checking Python's signals between them. On Ctrl-C (or any exception a signal
/// handler raises) it sets [`INTERRUPTED`], waits for the engine to stop (the engines poll the
/// flag every few thousand successors) and raises that exception.
pub(crate) fn run_released<T: Send>(
    py: Python<'_>,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
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
pub(crate) fn duration_arg(value: &Bound<'_, PyAny>, name: &str) -> PyResult<Duration> {
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
pub(crate) fn bytes_arg(value: &Bound<'_, PyAny>, name: &str) -> PyResult<u64> {
    if let Ok(text) = value.extract::<String>() {
        return parse_bytes(&text).map_err(|e| PyValueError::new_err(format!("{name}: {e}")));
    }
    value.extract().map_err(|_| {
        PyTypeError::new_err(format!("{name}: bytes (an int) or a string like \"4GiB\""))
    })
}

/// The limits of one run given as arguments; they override a config's `[search]` keys.
pub(crate) struct LimitArgs {
    time_limit: Option<Duration>,
    max_depth: Option<u32>,
    max_states: Option<u64>,
    memory: Option<u64>,
}

impl LimitArgs {
    /// Reads the arguments: a duration in seconds or words, a size in bytes or words.
    pub(crate) fn read(
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

    /// The limits of a run of `config`'s puzzle: its `[search]` keys, then the arguments; the
    /// clock starts now and Ctrl-C sets [`INTERRUPTED`].
    pub(crate) fn resolve(&self, config: &Config) -> PyResult<Limits> {
        let base = Limits {
            interrupt: Some(&INTERRUPTED),
            ..Limits::default()
        };
        let limits = config.limits(base).map_err(crate::errors::py_error)?;
        Ok(self.over(limits))
    }

    /// `limits` with the arguments given set over them, the clock starting now.
    pub(crate) fn over(&self, mut limits: Limits) -> Limits {
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
        limits
    }
}
