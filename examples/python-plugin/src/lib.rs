//! A Python module of statespace with a plugin of our own: the built-in puzzles and the Tower of
//! Hanoi (`../hanoi.rs`, the plugin `custom_puzzle.rs` solves from Rust).
//!
//! The whole of it is the module function below: a registry (the built-in puzzles with ours
//! added) handed to [`statespace_py::add_to_module`], which adds the API the `statespace` module
//! has (`load`, `Puzzle`, `solve`, `explore`, `export`, `puzzles`, the records and exceptions).
//!
//! ```python
//! import statespace_hanoi as statespace
//! p = statespace.load('[puzzle]\nkind = "hanoi"\ndiscs = 4\n[start]\nboard = "1 1 1 1"\n')
//! assert p.solve().moves == 15
//! ```

#[path = "../../hanoi.rs"]
pub mod hanoi;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// `statespace_hanoi`: statespace's Python API over the built-in puzzles and the Tower of Hanoi.
#[pymodule]
fn statespace_hanoi(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let registry = statespace_builtins::builtins()
        .with(&hanoi::HanoiPlugin)
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    statespace_py::add_to_module(m, registry)
}
