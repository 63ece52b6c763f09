//! How a run is bounded and waited for: the limits given as arguments ([`LimitArgs`]), and the
//! engine on a thread of its own with the GIL released ([`run_released`]), Ctrl-C polled.
//!
//! Every engine, for a built-in puzzle or one written in Python, runs on a thread of its own;
//! the calling thread waits in slices of [`POLL`] with the GIL released, checking Python's
//! signals between them. Ctrl-C sets [`INTERRUPTED`], the flag every run's limits carry (a
//! Python-defined puzzle's adapter passes it on to its run's own flag: see
//! [`defined`](crate::defined)), and the engine stops at its next poll (within a fraction of a
//! second, as in the CLI); then the waiting call raises `KeyboardInterrupt`.

use pyo3::exceptions::{PyOverflowError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBool;
use statespace::config::{Config, parse_bytes, parse_duration};
use statespace::limit::Limits;
use std::ops::RangeInclusive;
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
        max_depth: Option<&Bound<'_, PyAny>>,
        max_states: Option<&Bound<'_, PyAny>>,
        memory: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<LimitArgs> {
        Ok(LimitArgs {
            time_limit: time_limit
                .map(|t| duration_arg(t, "time_limit"))
                .transpose()?,
            max_depth: int_opt(max_depth, "max_depth", 0..=u32::MAX as u64)?.map(|d| d as u32),
            max_states: int_opt(max_states, "max_states", 1..=u64::MAX)?,
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
