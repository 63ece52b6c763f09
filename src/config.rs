//! TOML configs: the raw schema, and helpers that turn raw values into validated settings with
//! errors that name the file, the line and the key.
//!
//! The flow is raw text -> [`Config`] (serde, `deny_unknown_fields`, every value
//! [`Spanned`] so a later check can still point at its line) -> a plugin's own validated
//! settings (see [`registry`](crate::registry)). The schema is one struct for every puzzle:
//! keys a puzzle does not use are refused by that puzzle with the line they stand on.
//!
//! ```toml
//! [puzzle]
//! kind = "flip"      # a registered plugin: `statespace puzzles` lists them
//! rows = 4
//! cols = 4
//! wrap = false       # flip: torus when true
//! [goal]
//! kind = "uniform"   # the plugin's goals
//! [search]
//! mode = "auto"      # bfs | iddfs | table | algebraic | auto (what the plugin supports)
//! max_depth = 20     # optional limits
//! max_states = 1000000
//! time_limit = "30s"  # humantime syntax
//! memory = "4GiB"     # the budget engines check before allocating
//! threads = 2         # explore: worker threads (default: all for large spaces)
//! [start]
//! board = """
//! bwwb
//! bbwb
//! bwwb
//! bwww
//! """
//! ```

use crate::error::{Error, Location, Result};
use serde::Deserialize;
use std::fmt;
use std::ops::{Range, RangeInclusive};
use std::str::FromStr;
pub use toml::Spanned;

/// The most worker threads `[search] threads` and `--threads` accept.
pub const MAX_THREADS: usize = 1024;

/// A parsed config file: the raw sections plus the source text, for error locations.
#[derive(Debug)]
pub struct Config {
    /// The file name errors mention.
    pub name: String,
    /// The whole text, to turn byte offsets into line numbers.
    pub text: String,
    pub puzzle: PuzzleSection,
    pub goal: Option<GoalSection>,
    pub search: SearchSection,
    pub start: Option<StartSection>,
}

/// The whole file as serde sees it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    puzzle: PuzzleSection,
    goal: Option<GoalSection>,
    #[serde(default)]
    search: SearchSection,
    start: Option<StartSection>,
}

/// `[puzzle]`: which plugin, and its size.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PuzzleSection {
    pub kind: Spanned<String>,
    pub rows: Option<Spanned<i64>>,
    pub cols: Option<Spanned<i64>>,
    /// Flip: the board is a torus.
    pub wrap: Option<Spanned<bool>>,
    /// Shift: the colour letters a board may hold (`"BWG"`).
    pub colours: Option<Spanned<String>>,
}

/// `[goal]`: what counts as solved.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GoalSection {
    pub kind: Spanned<String>,
    /// The target board for `pattern` goals, in the same text form as `[start] board`.
    pub target: Option<Spanned<String>>,
    /// Shift `region-uniform`: `[top, left, bottom, right]`, 1-based and inclusive.
    pub region: Option<Spanned<Vec<i64>>>,
    /// Shift `region-uniform`: the one colour that must fill the region (any, when absent).
    pub colour: Option<Spanned<String>>,
}

/// `[search]`: the engine and its limits.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SearchSection {
    pub mode: Option<Spanned<String>>,
    pub max_depth: Option<Spanned<i64>>,
    pub max_states: Option<Spanned<i64>>,
    /// Wall-clock limit, e.g. `"30s"`, `"2m"` (humantime syntax).
    pub time_limit: Option<Spanned<String>>,
    /// Memory budget, e.g. `"4GiB"`, `"512MB"`.
    pub memory: Option<Spanned<String>>,
    /// Worker threads for engines that use several (`explore`); default: chosen by size.
    pub threads: Option<Spanned<i64>>,
}

/// `[start]`: the position to solve.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StartSection {
    pub board: Spanned<String>,
}

impl Config {
    /// Reads and parses the config at `path`.
    pub fn load(path: &str) -> Result<Config> {
        let text = std::fs::read_to_string(path).map_err(|source| Error::Io {
            path: path.to_string(),
            source,
        })?;
        Config::parse(path, &text)
    }

    /// Parses `text`; `name` is the file name errors mention.
    pub fn parse(name: &str, text: &str) -> Result<Config> {
        let raw: RawConfig = toml::from_str(text).map_err(|e| {
            let span = e.span().unwrap_or(0..0);
            let mut location = Location::file(name).at_line(line_of(text, span.start));
            if let Some(key) = key_at(text, span.start) {
                location = location.with_key(key);
            }
            Error::input(location, e.message().trim().to_string())
        })?;
        Ok(Config {
            name: name.to_string(),
            text: text.to_string(),
            puzzle: raw.puzzle,
            goal: raw.goal,
            search: raw.search,
            start: raw.start,
        })
    }

    /// An error about the value at `span`, under `key` (`puzzle.rows`).
    pub fn error_at(&self, span: Range<usize>, key: &str, message: impl Into<String>) -> Error {
        let location = Location::file(&self.name)
            .at_line(line_of(&self.text, span.start))
            .with_key(key);
        Error::input(location, message)
    }

    /// An error about a key that is missing (so has no line).
    pub fn missing(&self, key: &str) -> Error {
        Error::input(
            Location::file(&self.name).with_key(key),
            "missing (required here)",
        )
    }

    /// A required integer in `range`.
    pub fn int_in(
        &self,
        value: &Option<Spanned<i64>>,
        key: &str,
        range: RangeInclusive<i64>,
    ) -> Result<i64> {
        let value = value.as_ref().ok_or_else(|| self.missing(key))?;
        let v = *value.get_ref();
        if range.contains(&v) {
            Ok(v)
        } else {
            Err(self.error_at(
                value.span(),
                key,
                format!(
                    "{v} is out of range (allowed: {} to {})",
                    range.start(),
                    range.end()
                ),
            ))
        }
    }

    /// Refuses a key that the chosen plugin does not use.
    pub fn refuse<T>(&self, value: &Option<Spanned<T>>, key: &str, why: &str) -> Result<()> {
        match value {
            Some(v) => Err(self.error_at(v.span(), key, format!("not used here: {why}"))),
            None => Ok(()),
        }
    }

    /// `[goal] target` as board text: the `pattern` goal needs one (`Some`), every other goal
    /// refuses it (`None`).
    pub fn pattern_target(&self, goal: &GoalSection) -> Result<Option<BoardText>> {
        match (&goal.target, goal.kind.get_ref() == "pattern") {
            (Some(target), true) => Ok(Some(self.board_text(target, "goal.target"))),
            (None, true) => Err(self.missing("goal.target")),
            (target, false) => {
                self.refuse(target, "goal.target", "only the pattern goal has a target")?;
                Ok(None)
            }
        }
    }

    /// The search mode, or `default` when the config names none.
    pub fn mode(&self, default: Mode, supported: &[Mode]) -> Result<Mode> {
        match &self.search.mode {
            None => Ok(default),
            Some(raw) => {
                let mode: Mode = raw
                    .get_ref()
                    .parse()
                    .map_err(|e: String| self.error_at(raw.span(), "search.mode", e))?;
                check_mode(mode, supported)
                    .map_err(|e| self.error_at(raw.span(), "search.mode", e))?;
                Ok(mode)
            }
        }
    }

    /// `[search]` limits, over `base` (which carries the memory budget and any CLI limits).
    pub fn limits(&self, mut base: crate::search::Limits) -> Result<crate::search::Limits> {
        if self.search.max_depth.is_some() {
            let d = self.int_in(
                &self.search.max_depth,
                "search.max_depth",
                0..=u32::MAX as i64,
            )?;
            base.max_depth = Some(d as u32);
        }
        if self.search.max_states.is_some() {
            let n = self.int_in(&self.search.max_states, "search.max_states", 1..=i64::MAX)?;
            base.max_states = Some(n as u64);
        }
        if let Some(raw) = &self.search.time_limit {
            let limit = parse_duration(raw.get_ref())
                .map_err(|e| self.error_at(raw.span(), "search.time_limit", e))?;
            base.time_limit = Some(limit);
        }
        if let Some(raw) = &self.search.memory {
            base.memory_budget = parse_bytes(raw.get_ref())
                .map_err(|e| self.error_at(raw.span(), "search.memory", e))?;
        }
        Ok(base)
    }

    /// `[search] threads`: 1 to [`MAX_THREADS`], or `None` when absent (the engine chooses).
    pub fn threads(&self) -> Result<Option<usize>> {
        match &self.search.threads {
            None => Ok(None),
            Some(_) => {
                let n = self.int_in(
                    &self.search.threads,
                    "search.threads",
                    1..=MAX_THREADS as i64,
                )?;
                Ok(Some(n as usize))
            }
        }
    }

    /// The `[start] board` text with where its first row stands in the file.
    pub fn start_board(&self) -> Option<BoardText> {
        self.start
            .as_ref()
            .map(|s| self.board_text(&s.board, "start.board"))
    }

    /// A multi-line string value as a [`BoardText`] that reports errors at the file's lines.
    pub fn board_text(&self, value: &Spanned<String>, key: &str) -> BoardText {
        let span = value.span();
        let raw = &self.text[span.clone()];
        // A multi-line string drops the newline right after its opening quotes.
        let starts_on_next_line = (raw.starts_with("\"\"\"") || raw.starts_with("'''"))
            && raw[3..].starts_with(['\n', '\r']);
        BoardText {
            text: value.get_ref().clone(),
            file: self.name.clone(),
            first_line: line_of(&self.text, span.start) + starts_on_next_line as usize,
            key: Some(key.to_string()),
        }
    }
}

/// A board as text, with where it came from so that a parse error can name the file and line.
#[derive(Clone, Debug)]
pub struct BoardText {
    pub text: String,
    /// The file name, or `<stdin>`.
    pub file: String,
    /// The file line where the text's first line stands.
    pub first_line: usize,
    /// The config key it came from, if any.
    pub key: Option<String>,
}

impl BoardText {
    /// A board read whole from a file or stdin.
    pub fn from_file(file: &str, text: String) -> Self {
        BoardText {
            text,
            file: file.to_string(),
            first_line: 1,
            key: None,
        }
    }

    /// An error at `line` (1-based) of this text.
    pub fn error(&self, line: usize, message: impl Into<String>) -> Error {
        let mut location = Location::file(&self.file).at_line(self.first_line + line - 1);
        location.key = self.key.clone();
        Error::input(location, message)
    }

    /// An error about the board as a whole (empty, wrong number of rows).
    pub fn error_whole(&self, message: impl Into<String>) -> Error {
        let mut location = Location::file(&self.file).at_line(self.first_line);
        location.key = self.key.clone();
        Error::input(location, message)
    }

    /// The non-blank lines, trimmed, each with its 1-based line number in the text.
    pub fn rows(&self) -> Vec<(usize, &str)> {
        self.text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim()))
            .filter(|(_, l)| !l.is_empty())
            .collect()
    }
}

/// A search mode. Each plugin says which it supports and which is its default.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Breadth-first search from the start.
    Bfs,
    /// Iterative deepening: memory linear in depth.
    Iddfs,
    /// A distance table built backward from the goal set, then a lookup.
    Table,
    /// Linear algebra over GF(2) (Flip on any size).
    Algebraic,
    /// The plugin picks by board size.
    Auto,
}

impl Mode {
    /// Every mode, in the order the docs list them.
    pub const ALL: [Mode; 5] = [
        Mode::Bfs,
        Mode::Iddfs,
        Mode::Table,
        Mode::Algebraic,
        Mode::Auto,
    ];

    /// The name used in configs and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Bfs => "bfs",
            Mode::Iddfs => "iddfs",
            Mode::Table => "table",
            Mode::Algebraic => "algebraic",
            Mode::Auto => "auto",
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Mode {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Mode, String> {
        Mode::ALL
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| format!("unknown search mode `{s}` (known: {})", names(&Mode::ALL)))
    }
}

/// `Ok` when `mode` is among `supported`, else a message that lists them.
pub fn check_mode(mode: Mode, supported: &[Mode]) -> std::result::Result<(), String> {
    if supported.contains(&mode) {
        Ok(())
    } else {
        Err(format!(
            "search mode `{mode}` is not supported by this puzzle (supported: {})",
            names(supported)
        ))
    }
}

fn names(modes: &[Mode]) -> String {
    modes
        .iter()
        .map(|m| m.name())
        .collect::<Vec<_>>()
        .join(", ")
}

/// A positive duration in humantime syntax: `30s`, `1m 30s`, `500ms`.
pub fn parse_duration(text: &str) -> std::result::Result<std::time::Duration, String> {
    match humantime::parse_duration(text) {
        Ok(d) if !d.is_zero() => Ok(d),
        Ok(_) => Err(format!("`{text}` is zero: give a positive duration")),
        Err(e) => Err(format!("`{text}` is not a duration like 30s or 2m ({e})")),
    }
}

/// A positive byte count no larger than the physical memory: `4GiB`, `512 MB`, `1000000`.
pub fn parse_bytes(text: &str) -> std::result::Result<u64, String> {
    let physical = crate::search::physical_memory();
    match text.trim().parse::<bytesize::ByteSize>() {
        Ok(size) if physical.is_some_and(|p| size.as_u64() > p) => Err(format!(
            "`{text}` is more than this machine's {} of memory",
            crate::search::human_bytes(physical.unwrap_or(0) as u128)
        )),
        Ok(size) if size.as_u64() > 0 => Ok(size.as_u64()),
        Ok(_) => Err(format!("`{text}` is zero: give a positive size")),
        Err(_) => Err(format!("`{text}` is not a size like 4GiB or 512MB")),
    }
}

/// The 1-based line of byte `offset` in `text`.
pub fn line_of(text: &str, offset: usize) -> usize {
    let offset = offset.min(text.len());
    text.as_bytes()[..offset]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// The dotted key whose value stands at `offset`: the last `[table]` header above it and the key
/// before `=` on its line (for TOML errors, which point at a value but do not name its key).
fn key_at(text: &str, offset: usize) -> Option<String> {
    let offset = offset.min(text.len());
    let before = text.get(..offset)?; // a span always starts on a char boundary; never panic if not
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[offset..].find('\n').map_or(text.len(), |i| offset + i);
    let line = &text[line_start..line_end];
    let table = text[..line_start]
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| l.starts_with('[') && !l.starts_with("[["))
        .map(|l| l.trim_matches(|c| c == '[' || c == ']').trim().to_string());
    let key = line
        .split_once('=')
        .map(|(k, _)| k.trim().trim_matches('"').to_string());
    match (table, key) {
        (Some(t), Some(k)) if !k.is_empty() => Some(format!("{t}.{k}")),
        (None, Some(k)) if !k.is_empty() => Some(k),
        (Some(t), None) => Some(t),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn type_errors_name_line_and_key() {
        let text = "[puzzle]\nkind = \"flip\"\nrows = \"four\"\n";
        let err = Config::parse("x.toml", text).unwrap_err().to_string();
        assert!(
            err.starts_with("x.toml:3: puzzle.rows: invalid type"),
            "{err}"
        );
    }

    #[test]
    fn unknown_keys_are_refused_with_their_line() {
        let text = "[puzzle]\nkind = \"flip\"\ncolour = 3\n";
        let err = Config::parse("x.toml", text).unwrap_err().to_string();
        assert!(
            err.starts_with("x.toml:3: puzzle.colour: unknown field"),
            "{err}"
        );
    }

    #[test]
    fn threads_must_be_positive_and_name_their_line() {
        let config = |n: &str| {
            let text = format!("[puzzle]\nkind = \"flip\"\n[search]\nthreads = {n}\n");
            Config::parse("x.toml", &text).and_then(|c| c.threads())
        };
        assert_eq!(config("2").unwrap(), Some(2));
        let err = config("0").unwrap_err().to_string();
        assert_eq!(
            err,
            "x.toml:4: search.threads: 0 is out of range (allowed: 1 to 1024)"
        );
        assert!(config("\"two\"").is_err());
    }

    #[test]
    fn board_text_knows_its_first_line() {
        let text = "[puzzle]\nkind = \"flip\"\n[start]\nboard = \"\"\"\nbw\nwb\n\"\"\"\n";
        let config = Config::parse("x.toml", text).unwrap();
        let board = config.start_board().unwrap();
        assert_eq!(board.first_line, 5);
        assert_eq!(
            board.error(2, "bad").to_string(),
            "x.toml:6: start.board: bad"
        );
    }
}
