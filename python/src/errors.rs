//! The exceptions the bindings raise, in one place: a library [`Error`] as the Python exception
//! it stands for ([`py_error`]), and [`MemoryLimitError`], the one exception of the package's
//! own.
//!
//! | raised | when |
//! |---|---|
//! | `ValueError` | bad input: a config, key, value, board, mode or argument, with the library's one-line message |
//! | `TypeError` | an argument of the wrong type; a Python-defined puzzle's callback that returns the wrong type |
//! | `OSError` | a file that cannot be read |
//! | [`MemoryLimitError`] (a `MemoryError`) | work refused before it started because it would pass the memory budget (an export, a puzzle's tables), the figures in the message and as `needed` and `budget` |
//! | `KeyboardInterrupt` | Ctrl-C |
//! | [`SearchStopped`] (a `BaseException`) | inside a Python-defined puzzle's callback still running at the time limit or Ctrl-C (see [`run_watched`](crate::run::run_watched)); never out of a search |
//! | [`LimitWarning`] (a `UserWarning`, warned, not raised) | `explore` or `export` stopped at a limit: the answer is about part of the space |
//! | `RuntimeError` | another limit that stopped a puzzle's setup (its time limit), a cluster fault, a bug |
//!
//! A limit that stops a search (time, depth, states, memory) is an answer, not an exception:
//! `outcome == "limit-reached"`, as the command line exits 4 and prints the answer. An exception
//! raised inside a Python-defined puzzle's callback propagates as itself.

use pyo3::exceptions::{
    PyBaseException, PyKeyboardInterrupt, PyMemoryError, PyOSError, PyRuntimeError, PyUserWarning,
    PyValueError,
};
use pyo3::prelude::*;
use statespace::error::{Error, Place};
use statespace::limit::Limit;

pyo3::create_exception!(
    statespace,
    MemoryLimitError,
    PyMemoryError,
    "Work refused before it started because it would pass the memory budget (``memory=``, \
     default half the physical memory). The message gives both figures; the attributes \
     ``needed`` and ``budget`` are the bytes."
);

pyo3::create_exception!(
    statespace,
    SearchStopped,
    PyBaseException,
    "Raised inside a puzzle's callback that is still running when the search it serves is \
     stopped (the time limit, Ctrl-C): the search answers without it. A BaseException, so that \
     ``except Exception`` lets it through; a callback that catches it anyway is left running, \
     and the search answers without waiting for it."
);

pyo3::create_exception!(
    statespace,
    LimitWarning,
    PyUserWarning,
    "Warned when ``explore`` or ``export`` stopped at a limit (``max_states``, ``max_depth``, \
     ``time_limit``, ``memory``) and so answers about part of the space: the result says so too \
     (``complete`` is False, ``limit`` or the graph's ``cut`` names the limit)."
);

/// Warns (a [`LimitWarning`]) that a sweep or an export stopped at a limit: `message`, with the
/// library's words for the memory flag turned into the argument's.
pub(crate) fn warn_limit(py: Python<'_>, message: &str) -> PyResult<()> {
    let message = message.replace("with --memory", "with memory=");
    let message = std::ffi::CString::new(format!("statespace: {message}"))
        .unwrap_or_else(|_| c"statespace: a limit stopped the run".into());
    PyErr::warn(py, &py.get_type::<LimitWarning>(), &message, 1)
}

/// The name a config made from keyword arguments has in errors (`Puzzle("tiles")`): its errors
/// name no line, since the text is ours, not the user's.
pub(crate) fn generated_name(kind: &str) -> String {
    format!("Puzzle({kind:?})")
}

/// A library error as the Python exception it stands for (see the module docs). The message is
/// the library's one line.
pub(crate) fn py_error(error: Error) -> PyErr {
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
        Error::Limit { limit, .. } => limit_error(limit, &error.to_string()),
        Error::Cluster(_) => PyRuntimeError::new_err(error.to_string()),
    }
}

/// The exception of a refusal at `limit`, with `message`.
pub(crate) fn limit_error(limit: &Limit, message: &str) -> PyErr {
    match limit {
        Limit::Memory { needed, budget } => {
            // The library's words name the command line's flag; from Python it is an argument.
            let message = message.replace("with --memory", "with memory=");
            Python::attach(|py| {
                let error = MemoryLimitError::new_err(message);
                let value = error.value(py);
                let set = value
                    .setattr("needed", *needed)
                    .and_then(|()| value.setattr("budget", *budget));
                match set {
                    Ok(()) => error,
                    Err(e) => e,
                }
            })
        }
        Limit::Interrupted => PyKeyboardInterrupt::new_err(message.to_string()),
        _ => PyRuntimeError::new_err(message.to_string()),
    }
}
