//! `[search]`: the engine, its limits and its options, declared with [`keys!`](crate::keys) as
//! the plugins' sections are (the doc lines, ranges and choices that `statespace puzzles`
//! prints and that a value is checked against when the file is read), and the one place where
//! the command line's flags (or the Python arguments) go over them: [`Overrides`].
//!
//! What goes where: budgets into [`Limits`] (`max_depth`, `max_states`, `time_limit`,
//! `memory`), requests into [`SearchOptions`] (`solutions`, `threads`, `transpositions`,
//! `beam_width`); `mode` and `explore_from` are read by the commands that use them.

use super::Keys;
use super::{Config, ExploreFrom, parse_bytes, parse_duration, parse_transpositions};
use crate::error::{Error, Location, Result};
use crate::limit::Limits;
use crate::options::{SearchOptions, Transpositions};
use std::ops::Range;
use std::time::Duration;

/// The most worker threads `[search] threads` and `--threads` accept.
pub const MAX_THREADS: usize = 1024;

/// The most solutions `[search] solutions` and `--solutions` ask for: more than any listing
/// holds in memory (each is a path), enough to count every optimal solution of a puzzle.
pub const MAX_SOLUTIONS: u64 = 1 << 32;

/// The widest beam `[search] beam_width` and `--beam-width` ask for.
pub const MAX_BEAM_WIDTH: u64 = 1 << 32;

crate::keys! {
    /// `[search]`: the engine, its limits and its options.
    pub struct SearchKeys in [search] without kind {
        /// the engine (`statespace puzzles` lists each puzzle's); default the puzzle's
        mode: String,
        /// give up deeper than this many moves
        #[range(0..=u32::MAX as i64)]
        max_depth: i64,
        /// give up after this many states
        #[range(1..=i64::MAX)]
        max_states: i64,
        /// give up after this long (`30s`, `2m`, `1h 30m`)
        time_limit: String,
        /// the memory budget engines check before they allocate (`4GiB`); default half the memory
        memory: String,
        /// worker threads: explore's (default chosen by size), solve's IDA* (default 1)
        #[range(1..=MAX_THREADS as i64)]
        threads: i64,
        /// where explore sweeps from; default the goals where the puzzle can
        #[choices("start", "goals")]
        explore_from: String,
        /// the transposition table of iddfs and idastar: a size (`32MiB`), `auto` or `off`
        transpositions: String,
        /// how many optimal solutions solve gives (table, idastar, iddfs); default 1
        #[range(1..=MAX_SOLUTIONS as i64)]
        solutions: i64,
        /// the states beam search keeps at each depth; default 10000
        #[range(1..=MAX_BEAM_WIDTH as i64)]
        beam_width: i64,
    }
}

impl Config {
    /// `[search]` as declared (every value checked when the file was read).
    fn search(&self) -> &SearchKeys {
        &self.search
    }

    /// `[search] mode` as written, with its span (whether the puzzle has that engine is the
    /// registry's check: engine names are open).
    pub fn mode(&self) -> Option<(&str, Range<usize>)> {
        let raw = self.search().mode.as_ref()?;
        Some((raw.get_ref().as_str(), raw.span()))
    }

    /// `[search]`'s limits, over `base` (which carries the memory budget and the interrupt).
    pub fn limits(&self, mut base: Limits) -> Result<Limits> {
        let search = self.search();
        if let Some(d) = search.max_depth(self).optional()? {
            base.max_depth = Some(d.value() as u32);
        }
        if let Some(n) = search.max_states(self).optional()? {
            base.max_states = Some(n.value() as u64);
        }
        if let Some(t) = search.time_limit(self).optional()? {
            base.time_limit = Some(parse_duration(t.get()).map_err(|e| t.error(e.to_string()))?);
        }
        if let Some(m) = search.memory(self).optional()? {
            base.memory_budget = parse_bytes(m.get()).map_err(|e| m.error(e.to_string()))?;
        }
        Ok(base)
    }

    /// `[search]`'s options, over `base`.
    pub fn options(&self, mut base: SearchOptions) -> Result<SearchOptions> {
        let search = self.search();
        if let Some(n) = search.solutions(self).optional()? {
            base.solutions = n.value() as usize;
        }
        if let Some(t) = search.transpositions(self).optional()? {
            base.transpositions =
                parse_transpositions(t.get()).map_err(|e| t.error(e.to_string()))?;
        }
        if let Some(threads) = self.threads()? {
            base.threads = threads;
        }
        if let Some(w) = search.beam_width(self).optional()? {
            base.beam_width = w.value() as usize;
        }
        Ok(base)
    }

    /// `[search] threads`, or `None` when absent (the engine chooses).
    pub fn threads(&self) -> Result<Option<usize>> {
        let threads = self.search().threads(self).optional()?;
        Ok(threads.map(|n| n.value() as usize))
    }

    /// `[search] explore_from`, or `None` when absent (explore chooses).
    pub fn explore_from(&self) -> Result<Option<ExploreFrom>> {
        let from = self.search().explore_from(self).optional()?;
        Ok(from.map(|from| match from.get().as_str() {
            "start" => ExploreFrom::Start,
            _ => ExploreFrom::Goals,
        }))
    }
}

/// What the command line's flags (or the Python arguments) say over the config's `[search]`:
/// the one place where they are applied ([`apply`](Self::apply)), for every front end.
#[derive(Clone, Debug, Default)]
pub struct Overrides {
    /// `--max-depth`.
    pub max_depth: Option<u32>,
    /// `--max-states`.
    pub max_states: Option<u64>,
    /// `--time-limit`.
    pub time_limit: Option<Duration>,
    /// `--memory`.
    pub memory: Option<u64>,
    /// `--transpositions`.
    pub transpositions: Option<Transpositions>,
    /// `--solutions`.
    pub solutions: Option<u64>,
    /// `--threads`.
    pub threads: Option<u64>,
    /// `--beam-width`.
    pub beam_width: Option<u64>,
}

impl Overrides {
    /// The limits and options of a run: `base` (the defaults, with the front end's interrupt),
    /// then `config`'s `[search]`, then these. A value out of its key's declared range is an
    /// error at `at(key)` (the front end's name for it: `--max-states`, `max_states=`). The
    /// time limit counts from now: one clock for the whole command, however many engine runs
    /// it takes.
    pub fn apply(
        &self,
        config: Option<&Config>,
        base: Limits,
        at: impl Fn(&str) -> Location,
    ) -> Result<(Limits, SearchOptions)> {
        let (mut limits, mut options) = match config {
            Some(config) => (
                config.limits(base)?,
                config.options(SearchOptions::default())?,
            ),
            None => (base, SearchOptions::default()),
        };
        // Checked against the key's declared range: a flag accepts what the key does.
        let checked = |key: &str, value: u64| -> Result<u64> {
            let declared = SearchKeys::KEYS.iter().find(|k| k.name == key);
            let value_i64 = i64::try_from(value).unwrap_or(i64::MAX);
            match declared.and_then(|k| k.check(value_i64)) {
                Some(complaint) => Err(Error::input(at(key), complaint)),
                None => Ok(value),
            }
        };
        if let Some(d) = self.max_depth {
            limits.max_depth = Some(d);
        }
        if let Some(n) = self.max_states {
            limits.max_states = Some(checked("max_states", n)?);
        }
        if self.time_limit.is_some() {
            limits.time_limit = self.time_limit;
        }
        if let Some(bytes) = self.memory {
            limits.memory_budget = bytes;
        }
        limits.clock_start = Some(std::time::Instant::now());
        if let Some(t) = self.transpositions {
            options.transpositions = t;
        }
        if let Some(n) = self.solutions {
            options.solutions = checked("solutions", n)? as usize;
        }
        if let Some(n) = self.threads {
            options.threads = checked("threads", n)? as usize;
        }
        if let Some(n) = self.beam_width {
            options.beam_width = checked("beam_width", n)? as usize;
        }
        Ok((limits, options))
    }
}
