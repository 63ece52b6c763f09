//! A built-in puzzle's board given as Python values (issue 44, item 3e): nested lists or tuples
//! (rows of cells), or one flat list of every cell, written as the board text the puzzle's own
//! parser reads, so that every check (size, repeats, characters) is the parser's, and its error
//! names the row.
//!
//! | kind | a cell | text |
//! |---|---|---|
//! | `tiles` | an int, 0 the blank (or `"_"`) | `1 2 3\n4 5 6\n7 8 _` |
//! | `flip` | `"b"` or `"w"`, or a bool (`True` black) | `bwwb\nbbwb` |
//!
//! A row may also be given as a str (`["1 2 3", "4 5 6", "7 8 _"]`, `["bwwb", "bbwb"]`): it is
//! that row's text. Other kinds read text only: a list for them raises `ValueError` saying so.

use crate::registry;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt, PyList, PyString, PyTuple};
use statespace::config::Config;

/// A cell's text, or `None` when the value is not a cell of the kind.
type CellText = fn(&Bound<'_, PyAny>) -> Option<String>;

/// Whether `value` is a list or a tuple (a board's rows, or a row's cells).
fn is_sequence(value: &Bound<'_, PyAny>) -> bool {
    value.is_instance_of::<PyList>() || value.is_instance_of::<PyTuple>()
}

/// The board text of `board` for `config`'s puzzle: a str as it is; a list or tuple of rows
/// (or of every cell, split into rows of the puzzle's `cols`) written as the kind's text.
pub(crate) fn board_text(config: &Config, board: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(text) = board.cast::<PyString>() {
        return Ok(text.to_string());
    }
    if !is_sequence(board) {
        return Err(PyValueError::new_err(format!(
            "board: board text (a str) or a list of rows, not {}",
            board.get_type().name()?
        )));
    }
    let kind = config.kind.get_ref().as_str();
    let (cell, separator): (CellText, &str) = match kind {
        "tiles" => (tile, " "),
        "flip" => (flip_cell, ""),
        other => {
            return Err(PyValueError::new_err(format!(
                "board: a list is read for `tiles` and `flip` boards; give a `{other}` board as \
                 text"
            )));
        }
    };
    let items: Vec<Bound<'_, PyAny>> = board.try_iter()?.collect::<PyResult<_>>()?;
    if items.is_empty() {
        return Err(PyValueError::new_err(
            "board: an empty list (expected rows of cells)",
        ));
    }
    // Rows: lists, or strs of more than one character (a one-character str is a cell: "b").
    let row_text = |i: &Bound<'_, PyAny>| {
        i.cast::<PyString>()
            .is_ok_and(|s| s.len().is_ok_and(|n| n > 1))
    };
    let nested = items.iter().any(|i| is_sequence(i) || row_text(i));
    let rows: Vec<Vec<Bound<'_, PyAny>>> = if nested {
        items
            .into_iter()
            .enumerate()
            .map(|(r, row)| {
                if row.is_instance_of::<PyString>() || is_sequence(&row) {
                    Ok(vec![row])
                } else {
                    Err(PyValueError::new_err(format!(
                        "board: row {}: {} is not a row (a list of cells, or a str): give every \
                         row as a list, or every cell in one flat list",
                        r + 1,
                        row.repr()?
                    )))
                }
            })
            .collect::<PyResult<_>>()?
    } else {
        let cols = cols(config)?;
        if !items.len().is_multiple_of(cols) {
            return Err(PyValueError::new_err(format!(
                "board: {} cells do not fill rows of {cols} (give a list of rows, or \
                 rows x {cols} cells)",
                items.len()
            )));
        }
        items.chunks(cols).map(|row| row.to_vec()).collect()
    };
    let mut lines = Vec::with_capacity(rows.len());
    for (r, row) in rows.iter().enumerate() {
        // A row given whole: a str is its text; a list, its cells.
        let cells: Vec<Bound<'_, PyAny>> = match row.as_slice() {
            [whole] if whole.is_instance_of::<PyString>() => {
                lines.push(whole.extract::<String>()?);
                continue;
            }
            [whole] if is_sequence(whole) => whole.try_iter()?.collect::<PyResult<_>>()?,
            cells => cells.to_vec(),
        };
        let mut texts = Vec::with_capacity(cells.len());
        for (c, value) in cells.iter().enumerate() {
            match cell(value) {
                Some(text) => texts.push(text),
                None => {
                    let what = match kind {
                        "tiles" => "a tile (an int, 0 for the blank)",
                        _ => "a cell (\"b\" or \"w\", or True for black and False for white)",
                    };
                    return Err(PyValueError::new_err(format!(
                        "board: row {}, column {}: {} is not {what}",
                        r + 1,
                        c + 1,
                        value.repr()?
                    )));
                }
            }
        }
        lines.push(texts.join(separator));
    }
    Ok(lines.join("\n"))
}

/// A tile's text: a non-negative int (0 the blank `_`), or `"_"`.
fn tile(value: &Bound<'_, PyAny>) -> Option<String> {
    if value.is_instance_of::<PyBool>() {
        return None;
    }
    if value.is_instance_of::<PyInt>() {
        let n: u64 = value.extract().ok()?;
        return Some(if n == 0 { "_".into() } else { n.to_string() });
    }
    let text: String = value.extract().ok()?;
    (text == "_").then_some(text)
}

/// A Flip cell's text: `b` or `w` (either case), or a bool (`True` black).
fn flip_cell(value: &Bound<'_, PyAny>) -> Option<String> {
    if let Ok(black) = value.cast::<PyBool>() {
        return Some(if black.is_true() { "b" } else { "w" }.into());
    }
    let text: String = value.extract().ok()?;
    matches!(text.as_str(), "b" | "w" | "B" | "W").then(|| text.to_lowercase())
}

/// The puzzle's `[puzzle] cols`: the config's, else the key's default.
fn cols(config: &Config) -> PyResult<usize> {
    let table: toml::Table = config.text.parse().unwrap_or_default();
    let given = (table.get("puzzle"))
        .and_then(|p| p.get("cols"))
        .and_then(|c| c.as_integer());
    let default = || {
        let plugin = registry().find(config.kind.get_ref())?;
        let key = plugin
            .info()
            .puzzle_keys
            .iter()
            .find(|k| k.name == "cols")?;
        key.default?.parse::<i64>().ok()
    };
    given
        .or_else(default)
        .and_then(|c| usize::try_from(c).ok())
        .filter(|&c| c > 0)
        .ok_or_else(|| PyValueError::new_err("board: give the board as a list of rows"))
}
