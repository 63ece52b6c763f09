//! The integration tests: one binary, one module per concern.
//!
//! - `cases`: the data-driven suite (tests/cases/*.toml), run by every engine a plugin lists.
//! - `flip`: Flip engines against brute force over press subsets, paths replayed.
//! - `cli`: the binary: solve, judge, puzzles, exit codes and every class of bad input.
//! - `shift`: the Shift plugin: HDU samples, table against BFS, encodings, bad input.
//! - `table`: the distance-table engine: whole-space histograms, paths, memory refusal.

mod cases;
mod cli;
mod flip;
mod shift;
mod table;

use std::path::PathBuf;

/// A file under tests/cases/.
pub fn case_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/cases")
        .join(name)
}

/// A file under configs/.
pub fn config_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("configs")
        .join(name)
}
