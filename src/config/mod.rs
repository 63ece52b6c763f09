//! TOML configs: the sections every config shares, the plugin-owned sections, and helpers that
//! turn raw values into validated settings with errors that name the file, the line and the key.
//!
//! The flow is raw text -> [`Config`] (serde, `deny_unknown_fields`, every value [`Spanned`] so a
//! later check can still point at its line) -> a plugin's own validated settings (see
//! [`registry`](crate::registry)).
//!
//! Who owns which keys:
//!
//! - `[puzzle] kind`, `[search]` and `[start]` are the library's: [`Config`] reads them.
//! - The rest of `[puzzle]`, and all of `[goal]` and `[heuristic]`, belong to the plugin named
//!   by `kind`. A plugin declares each section once with the [`keys!`](crate::keys) macro (a
//!   serde struct with `deny_unknown_fields`, every value spanned; per key a doc line, and
//!   optionally a range and a default) and reads it with [`Config::section`] and the accessors
//!   the macro writes, which check the range, fill in the default and name the key in errors
//!   (`puzzle.rows`: the dotted name is never typed). `statespace puzzles` prints the same
//!   declaration, so the help cannot drift from what is accepted, and a key one plugin adds is
//!   unknown (with its line) to the others without anyone writing a refusal.
//! - `[heuristic] kind` is checked by the registry against the plugin's
//!   [`PluginInfo::heuristics`](crate::registry::PluginInfo::heuristics) (refused where the
//!   puzzle has none), the rest by the plugin.
//!
//! ```toml
//! [puzzle]
//! kind = "flip"      # a registered plugin: `statespace puzzles` lists them and their keys
//! rows = 4
//! cols = 4
//! [goal]
//! kind = "uniform"   # the plugin's goals
//! [search]
//! mode = "auto"      # bfs | bidirectional | iddfs | table | algebraic | auto (what the puzzle supports)
//! max_depth = 20     # optional limits
//! max_states = 1000000
//! time_limit = "30s"  # humantime syntax
//! memory = "4GiB"     # the budget engines check before allocating
//! threads = 2         # explore: worker threads (default: all for large spaces); solve: idastar's (default 1)
//! explore_from = "start"  # explore: from the start board or the goals (default: goals if it can)
//! transpositions = "32MiB"  # iddfs/idastar: the transposition table, or "off" (default "auto")
//! solutions = 3      # solve: the first 3 optimal solutions (table, idastar, iddfs; default 1)
//! beam_width = 10000 # solve: the states beam search keeps at each depth
//! [heuristic]
//! kind = "default"   # astar/idastar: the plugin's heuristics (tiles: linear-conflict, pdb, ...)
//! [start]
//! board = """
//! bwwb
//! bbwb
//! bwwb
//! bwww
//! """
//! ```

use crate::board_text::BoardText;
use crate::error::{Error, Location, Result};
use serde::Deserialize;
use serde::de::IgnoredAny;
use std::ops::{Range, RangeInclusive};
pub use toml::Spanned;

mod keys;
mod mode;
mod search;
pub use keys::{Checked, Field, Key, Keys, RangeCheck, check_choice, trim_doc};
pub use mode::{Auto, Engine, Facts, Gives, Mode, Need, UnsupportedMode, check_mode, choose};
pub use search::{MAX_BEAM_WIDTH, MAX_SOLUTIONS, MAX_THREADS, Overrides, SearchKeys};

/// A parsed config file: the library's sections plus the source text, from which
/// [`sections`](Config::sections) reads the plugin's.
#[derive(Debug)]
pub struct Config {
    /// The file name errors mention.
    pub name: String,
    /// The whole text, to turn byte offsets into line numbers.
    pub text: String,
    /// `[puzzle] kind`: the plugin.
    pub kind: Spanned<String>,
    /// `[search]`: the engine, its limits and its options.
    pub search: SearchKeys,
    /// `[start]`: the position to solve, when given.
    pub start: Option<StartSection>,
    /// `[goal] kind`, when the file has the section (the rest is the plugin's): the registry
    /// checks it against the plugin's declared goals before the plugin reads the section.
    pub goal: Option<Spanned<String>>,
    /// `[heuristic] kind`, when the file has the section (the rest is the plugin's).
    pub heuristic: Option<Spanned<String>>,
}

/// The whole file as the library sees it: the plugin's sections are only checked to be tables
/// here; [`Config::sections`] reads them.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    puzzle: KindOnly,
    goal: Option<KindOnly>,
    heuristic: Option<KindOnly>,
    #[allow(dead_code)] // read with its declaration, through Config::section
    search: Option<IgnoredAny>,
    start: Option<StartSection>,
}

/// `[puzzle]` (and `[goal]`, `[heuristic]`) as the library reads it: only `kind` (the other keys are the
/// plugin's).
#[derive(Debug, Deserialize)]
#[serde(expecting = "a section: a table with a `kind`")]
struct KindOnly {
    kind: Spanned<String>,
}

/// `[search]` keys that moved to `[heuristic]`: read only to say where they went.
#[derive(Debug, Default, Deserialize)]
struct MovedSearchKeys {
    heuristic: Option<Spanned<IgnoredAny>>,
    pdb: Option<Spanned<IgnoredAny>>,
    reflect: Option<Spanned<IgnoredAny>>,
}

/// The file read for [`MovedSearchKeys`] alone, every other key skipped.
#[derive(Debug, Default, Deserialize)]
struct MovedOnly {
    #[serde(default)]
    search: MovedSearchKeys,
}

/// `[start]`: the position to solve.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StartSection {
    /// The board, in the puzzle's board text.
    pub board: Option<Spanned<String>>,
    /// Or moves applied to the goal, in the puzzle's move names (puzzles that read scrambles).
    pub scramble: Option<Spanned<String>>,
}

impl Config {
    /// Reads and parses the config at `path`.
    pub fn load(path: &str) -> Result<Config> {
        let text = crate::error::read_text(std::path::Path::new(path))?;
        Config::parse(path, &text)
    }

    /// Parses `text`; `name` is the file name errors mention.
    pub fn parse(name: &str, text: &str) -> Result<Config> {
        let raw: RawConfig = toml::from_str(text).map_err(|e| toml_error(name, text, e))?;
        let mut config = Config {
            name: name.to_string(),
            text: text.to_string(),
            kind: raw.puzzle.kind,
            search: SearchKeys::default(),
            start: raw.start,
            goal: raw.goal.map(|g| g.kind),
            heuristic: raw.heuristic.map(|h| h.kind),
        };
        config.check_moved()?;
        config.search = config.section::<SearchKeys>()?.unwrap_or_default();
        config.check_start()?;
        Ok(config)
    }

    /// Refuses the `[search]` keys that moved to `[heuristic]`, saying where they went.
    fn check_moved(&self) -> Result<()> {
        let moved: MovedOnly =
            toml::from_str(&self.text).map_err(|e| toml_error(&self.name, &self.text, e))?;
        let search = &moved.search;
        let why = "moved: write it in the [heuristic] section as";
        for (raw, key, now) in [
            (&search.heuristic, "search.heuristic", "kind"),
            (&search.pdb, "search.pdb", "groups"),
            (&search.reflect, "search.reflect", "reflect"),
        ] {
            if let Some(raw) = raw {
                return Err(self.error_at(raw.span(), key, format!("{why} `{now}`")));
            }
        }
        Ok(())
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

    /// `[goal] target` as board text: the `pattern` goal (`kind`) needs one (`Some`), every other
    /// goal refuses it (`None`).
    pub fn pattern_target(
        &self,
        kind: &Spanned<String>,
        target: Field<'_, String>,
    ) -> Result<Option<BoardText>> {
        let key = target.key.dotted;
        match (target.raw, kind.get_ref() == "pattern") {
            (Some(raw), true) => Ok(Some(self.board_text(raw, key))),
            (None, true) => Err(self.missing(key)),
            (_, false) => {
                target.refuse("only the pattern goal has a target")?;
                Ok(None)
            }
        }
    }

    /// The `[start] board` (or `scramble`) text with where it stands in the file; an error when
    /// the section gives both or neither.
    pub fn start_board(&self) -> Option<BoardText> {
        let start = self.start.as_ref()?;
        match (&start.board, &start.scramble) {
            (Some(board), None) => Some(self.board_text(board, "start.board")),
            (None, Some(moves)) => {
                let mut text = self.board_text(moves, "start.scramble");
                text.scramble = true;
                Some(text)
            }
            _ => None,
        }
    }

    /// Checks that `[start]`, when present, gives exactly one of `board` and `scramble`.
    pub fn check_start(&self) -> Result<()> {
        let Some(start) = &self.start else {
            return Ok(());
        };
        match (&start.board, &start.scramble) {
            (Some(_), Some(scramble)) => Err(self.error_at(
                scramble.span(),
                "start.scramble",
                "give a board or a scramble, not both",
            )),
            (None, None) => Err(self.missing("start.board")),
            _ => Ok(()),
        }
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
            scramble: false,
        }
    }
}

/// Where `explore` starts its sweep (`explore --from`, `[search] explore_from`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ExploreFrom {
    /// Forward from the start board: the start's component, by distance from the start. Any
    /// puzzle (a bitset over a dense index, else a hash set).
    Start,
    /// Backward from every goal at once: every state that can reach a goal, by distance to the
    /// nearest. Puzzles with invertible moves and a goal set that can be listed.
    Goals,
}

impl ExploreFrom {
    /// Every value, as written.
    pub const NAMES: [&'static str; 2] = ["start", "goals"];

    /// The name as written: `start`, `goals`.
    pub fn name(self) -> &'static str {
        match self {
            ExploreFrom::Start => "start",
            ExploreFrom::Goals => "goals",
        }
    }
}

impl std::str::FromStr for ExploreFrom {
    type Err = UnknownDirection;
    fn from_str(text: &str) -> std::result::Result<Self, UnknownDirection> {
        match text {
            "start" => Ok(ExploreFrom::Start),
            "goals" => Ok(ExploreFrom::Goals),
            _ => Err(UnknownDirection(text.to_string())),
        }
    }
}

/// A direction of `explore` that is neither `start` nor `goals`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a place to explore from (known: start, goals)")]
pub struct UnknownDirection(pub String);

/// A positive duration in humantime syntax: `30s`, `1m 30s`, `500ms`.
pub fn parse_duration(text: &str) -> std::result::Result<std::time::Duration, DurationError> {
    match humantime::parse_duration(text) {
        Ok(d) if !d.is_zero() => Ok(d),
        Ok(_) => Err(DurationError::Zero(text.to_string())),
        Err(e) => Err(DurationError::Unreadable {
            text: text.to_string(),
            why: e.to_string(),
        }),
    }
}

/// A positive byte count no larger than the physical memory: `4GiB`, `512 MB`, `1000000`.
pub fn parse_bytes(text: &str) -> std::result::Result<u64, SizeError> {
    let physical = crate::limit::physical_memory();
    match byte_count(text) {
        Some(size) if physical.is_some_and(|p| size > p) => Err(SizeError::MoreThanMemory {
            text: text.to_string(),
            physical: physical.unwrap_or(0),
        }),
        Some(size) if size > 0 => Ok(size),
        Some(_) => Err(SizeError::Zero(text.to_string())),
        None => Err(SizeError::Unreadable(text.to_string())),
    }
}

/// A number (`4`, `1.5`) and a unit, any case, spaces between allowed: none or `B` for bytes,
/// `KB` (or `K`), `MB`, `GB`, `TB`, `PB` for powers of 1000, `KiB` (or `Ki`), `MiB`, `GiB`,
/// `TiB`, `PiB` for powers of 1024 (as the `bytesize` crate read them before this was written
/// here, to spare the library a dependency). Past `u64::MAX`: `u64::MAX`, which is more than
/// any machine's memory.
fn byte_count(text: &str) -> Option<u64> {
    let text = text.trim();
    let split = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let number: f64 = number.parse().ok()?;
    let power = |base: f64, k: i32| base.powi(k);
    let scale = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1.0,
        "k" | "kb" => power(1000.0, 1),
        "m" | "mb" => power(1000.0, 2),
        "g" | "gb" => power(1000.0, 3),
        "t" | "tb" => power(1000.0, 4),
        "p" | "pb" => power(1000.0, 5),
        "ki" | "kib" => power(1024.0, 1),
        "mi" | "mib" => power(1024.0, 2),
        "gi" | "gib" => power(1024.0, 3),
        "ti" | "tib" => power(1024.0, 4),
        "pi" | "pib" => power(1024.0, 5),
        _ => return None,
    };
    // `as` saturates: a count past u64::MAX is u64::MAX.
    Some((number * scale) as u64)
}

/// A transposition table's size: `auto`, `off`, or a byte count as [`parse_bytes`] reads it.
pub fn parse_transpositions(
    text: &str,
) -> std::result::Result<crate::options::Transpositions, SizeError> {
    use crate::options::Transpositions;
    match text.trim() {
        "auto" => Ok(Transpositions::Auto),
        "off" => Ok(Transpositions::Off),
        size => match parse_bytes(size) {
            Ok(bytes) => Ok(Transpositions::Bytes(bytes)),
            Err(SizeError::Unreadable(text)) => Err(SizeError::NotATableSize(text)),
            Err(other) => Err(other),
        },
    }
}

/// Why [`parse_duration`] refused a text (a flag's value or `[search] time_limit`); each
/// displays as one line that quotes the text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DurationError {
    /// A duration of zero: no limit can be that short.
    #[error("`{0}` is zero: give a positive duration")]
    Zero(String),
    /// Not a duration in humantime syntax.
    #[error("`{text}` is not a duration like 30s or 2m ({why})")]
    Unreadable {
        /// The text given.
        text: String,
        /// What the parser said (`unknown time unit "x"`).
        why: String,
    },
}

/// Why [`parse_bytes`] refused a text (a flag's value or `[search] memory`); each displays as
/// one line that quotes the text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SizeError {
    /// More than the machine's physical memory.
    #[error(
        "`{text}` is more than this machine's {} of memory",
        crate::limit::human_bytes(*physical as u128)
    )]
    MoreThanMemory {
        /// The text given.
        text: String,
        /// The physical memory, in bytes.
        physical: u64,
    },
    /// A size of zero.
    #[error("`{0}` is zero: give a positive size")]
    Zero(String),
    /// Not a size (`4GiB`, `512 MB`, `1000000`).
    #[error("`{0}` is not a size like 4GiB or 512MB")]
    Unreadable(String),
    /// Not a transposition table's size: `auto`, `off` or a size.
    #[error("`{0}` is not auto, off or a size like 64MiB")]
    NotATableSize(String),
}

/// A TOML or serde error as a one-line [`Error`] at its line and key.
fn toml_error(name: &str, text: &str, e: toml::de::Error) -> Error {
    let span = e.span().unwrap_or(0..0);
    let mut location = Location::file(name).at_line(line_of(text, span.start));
    if let Some(key) = key_at(text, span.start) {
        location = location.with_key(key);
    }
    Error::input(location, e.message().trim().to_string())
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
    let header = line.trim();
    if header.starts_with('[') && !header.starts_with("[[") {
        // An error on a table header (an unknown section): the section is the key.
        return Some(
            header
                .trim_matches(|c| c == '[' || c == ']')
                .trim()
                .to_string(),
        );
    }
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
mod tests;
