//! The results: a [`Solution`] (the fields of `solve --json`) and an [`Exploration`] (those of
//! `explore --json`), both a [`Record`] of fields read as attributes; and their pictures.
//!
//! The fields are built by the functions the command line prints with
//! ([`statespace_records::solution::json_value`], [`statespace_records::exploration::json_value`])
//! and converted to Python once, so every front end gives the same answer in the same fields. A Python-defined puzzle's results add the user's own
//! objects (see [`defined`](crate::defined)).
//!
//! A record keeps what its picture is drawn from ([`Picture`]), and draws it when asked: a
//! notebook calls `_repr_svg_` (the same SVG as `solve --svg` and `explore --plot`); `to_svg()`
//! returns it as text. [`Svg`] is a picture on its own (a board: `Puzzle.board_svg`).

use pyo3::exceptions::{PyAttributeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use statespace::picture::BoardStyle;
use statespace_records::exploration::PeakMemory;

/// Converts a JSON value (built by the library) to the Python objects `json.loads` gives for
/// its text: `None`, `bool`, `int`, `float`, `str`, `list`, `dict` (keys in the value's order).
/// (Not through the `json` module: its first import costs some 6 ms, `re` included, a twentieth
/// of a small explore.)
pub(crate) fn to_python<'py>(
    py: Python<'py>,
    value: &serde_json::Value,
) -> PyResult<Bound<'py, PyAny>> {
    use pyo3::IntoPyObjectExt;
    use serde_json::Value;
    match value {
        Value::Null => Ok(py.None().into_bound(py)),
        Value::Bool(b) => b.into_bound_py_any(py),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => u.into_bound_py_any(py),
            (_, Some(i)) => i.into_bound_py_any(py),
            _ => n.as_f64().unwrap_or(f64::NAN).into_bound_py_any(py),
        },
        Value::String(text) => text.into_bound_py_any(py),
        Value::Array(items) => {
            let items = items
                .iter()
                .map(|item| to_python(py, item))
                .collect::<PyResult<Vec<_>>>()?;
            pyo3::types::PyList::new(py, items)?.into_bound_py_any(py)
        }
        Value::Object(fields) => {
            let dict = PyDict::new(py);
            for (key, field) in fields {
                dict.set_item(key, to_python(py, field)?)?;
            }
            dict.into_bound_py_any(py)
        }
    }
}

/// A Python-defined puzzle's `board_style`: `"text"` (the default: `board_text` as it is),
/// `"tiles"` (whitespace-separated numbers, `_` the blank) or a dict of one-character cells to
/// colours.
pub(crate) fn board_style(puzzle: &Bound<'_, PyAny>, name: &str) -> PyResult<BoardStyle> {
    let Some(style) = puzzle.getattr_opt("board_style")? else {
        return Ok(BoardStyle::Text);
    };
    if let Ok(word) = style.extract::<String>() {
        return match word.as_str() {
            "text" => Ok(BoardStyle::Text),
            "tiles" => Ok(BoardStyle::Tiles),
            other => Err(PyValueError::new_err(format!(
                "{name}.board_style: `{other}` is not a style (\"text\", \"tiles\", or a dict of \
                 cell characters to colours)"
            ))),
        };
    }
    let Ok(colours) = style.cast::<PyDict>() else {
        return Err(PyTypeError::new_err(format!(
            "{name}.board_style: \"text\", \"tiles\", or a dict of cell characters to colours"
        )));
    };
    let mut cells = Vec::new();
    for (cell, colour) in colours.iter() {
        let cell: String = cell.extract()?;
        let mut chars = cell.chars();
        let (Some(c), None) = (chars.next(), chars.next()) else {
            return Err(PyValueError::new_err(format!(
                "{name}.board_style: `{cell}` is not one character"
            )));
        };
        cells.push((c, colour.extract::<String>()?));
    }
    Ok(BoardStyle::Cells { colours: cells })
}

/// What a record's picture is drawn from.
pub(crate) enum Picture {
    /// A solution: the strip of boards from start to goal (`solve --svg`).
    Solution {
        /// The puzzle's one-line description (the title).
        description: String,
        /// How its boards' text is drawn.
        style: BoardStyle,
        /// The answer, boards as text.
        solution: statespace::instance::Solution,
    },
    /// A sweep: its histogram as a bar chart (`explore --plot`).
    Histogram(statespace::instance::Exploration),
}

impl Picture {
    /// The SVG text, or why there is none.
    fn svg(&self) -> Result<String, String> {
        match self {
            Picture::Solution {
                description,
                style,
                solution,
            } => statespace_records::solution::svg(description, style, solution),
            Picture::Histogram(exploration) => statespace_records::exploration::svg(exploration)
                .ok_or_else(|| "no layer to plot (the sweep stopped before its first)".into()),
        }
    }
}

/// A result: the fields of `solve --json` (a [`Solution`]) or `explore --json` (an
/// [`Exploration`]), as attributes and as `to_dict()`.
#[pyclass(frozen, subclass, module = "statespace")]
pub(crate) struct Record {
    /// `Solution` or `Exploration`.
    name: &'static str,
    fields: Py<PyDict>,
    picture: Picture,
}

/// The answer to one board: the fields of `solve --json`.
#[pyclass(frozen, extends = Record, module = "statespace")]
pub(crate) struct Solution;

/// A whole-space sweep: the fields of `explore --json`.
#[pyclass(frozen, extends = Record, module = "statespace")]
pub(crate) struct Exploration;

impl Solution {
    /// A solution whose fields are `fields`, drawn from `picture`.
    pub(crate) fn new(
        py: Python<'_>,
        fields: Bound<'_, PyDict>,
        picture: Picture,
    ) -> PyResult<Py<Solution>> {
        let record = Record {
            name: "Solution",
            fields: fields.unbind(),
            picture,
        };
        Py::new(py, PyClassInitializer::from(record).add_subclass(Solution))
    }

    /// The solution of a built-in puzzle (`description`, boards drawn in `style`): its fields
    /// are those of `solve --json`.
    pub(crate) fn of(
        py: Python<'_>,
        description: &str,
        style: &BoardStyle,
        solution: statespace::instance::Solution,
    ) -> PyResult<Py<Solution>> {
        let fields = Self::fields(py, &solution)?;
        let picture = Picture::Solution {
            description: description.to_string(),
            style: style.clone(),
            solution,
        };
        Solution::new(py, fields, picture)
    }

    /// The fields of `solve --json` for `solution`, as a dict.
    pub(crate) fn fields<'py>(
        py: Python<'py>,
        solution: &statespace::instance::Solution,
    ) -> PyResult<Bound<'py, PyDict>> {
        Ok(
            to_python(py, &statespace_records::solution::json_value(solution))?
                .cast_into::<PyDict>()?,
        )
    }
}

impl Exploration {
    /// An exploration whose fields are `fields`, its histogram drawn from `exploration`.
    pub(crate) fn new(
        py: Python<'_>,
        fields: Bound<'_, PyDict>,
        exploration: statespace::instance::Exploration,
    ) -> PyResult<Py<Exploration>> {
        let record = Record {
            name: "Exploration",
            fields: fields.unbind(),
            picture: Picture::Histogram(exploration),
        };
        Py::new(
            py,
            PyClassInitializer::from(record).add_subclass(Exploration),
        )
    }

    /// The exploration of a built-in puzzle: the fields of `explore --json`.
    pub(crate) fn of(
        py: Python<'_>,
        exploration: statespace::instance::Exploration,
    ) -> PyResult<Py<Exploration>> {
        let fields = Self::fields(py, &exploration)?;
        Exploration::new(py, fields, exploration)
    }

    /// The fields of `explore --json` for `exploration`, as a dict.
    pub(crate) fn fields<'py>(
        py: Python<'py>,
        exploration: &statespace::instance::Exploration,
    ) -> PyResult<Bound<'py, PyDict>> {
        // The process's peak memory now, as `explore` measures it once its sweep is over.
        let memory = PeakMemory::measure(exploration);
        let json = statespace_records::exploration::json_value(exploration, &memory);
        Ok(to_python(py, &json)?.cast_into::<PyDict>()?)
    }
}

#[pymethods]
impl Record {
    fn __getattr__<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        match self.fields.bind(py).get_item(name)? {
            Some(value) => Ok(value),
            None => Err(PyAttributeError::new_err(format!(
                "{} has no field `{name}`",
                self.name
            ))),
        }
    }

    /// Every field, as a new dict (what `--json` prints).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.fields.bind(py).copy()
    }

    /// The picture as SVG text: a solution's boards from start to goal (as `solve --svg`), an
    /// exploration's histogram (as `explore --plot`). `ValueError` when there is none (a limit
    /// stopped the run).
    fn to_svg(&self) -> PyResult<String> {
        self.picture
            .svg()
            .map_err(|why| PyValueError::new_err(format!("no picture: {why}")))
    }

    /// The picture, for notebooks (None when there is none).
    fn _repr_svg_(&self) -> Option<String> {
        self.picture.svg().ok()
    }

    fn __dir__(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        let mut names: Vec<String> = self.fields.bind(py).keys().extract()?;
        names.extend(["to_dict".into(), "to_svg".into()]);
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

/// A picture as SVG text, shown as itself in a notebook (`_repr_svg_`); `str()` is the text.
#[pyclass(frozen, module = "statespace")]
pub(crate) struct Svg {
    text: String,
}

impl Svg {
    /// The picture whose SVG text is `text`.
    pub(crate) fn new(text: String) -> Svg {
        Svg { text }
    }
}

#[pymethods]
impl Svg {
    /// The SVG text, for notebooks.
    fn _repr_svg_(&self) -> String {
        self.text.clone()
    }

    fn __str__(&self) -> String {
        self.text.clone()
    }

    fn __repr__(&self) -> String {
        format!("<statespace.Svg {} bytes>", self.text.len())
    }
}
