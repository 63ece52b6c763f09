//! Engine ids ([`Mode`]): open names, the library's as constants and a plugin's its own; what an
//! engine is ([`Engine`]: what it needs, what it guarantees, the options it reads, when `auto`
//! runs it), and the typed refusal of a mode a puzzle does not run ([`UnsupportedMode`]).
//!
//! The library's engines are listed, each once, in the engine table
//! ([`search::engines`](crate::search::engines)); a plugin's own engine is an [`Engine`] of its
//! own, registered the same way ([`Instance::with_engine`](crate::instance::Instance::with_engine)).

use std::fmt;

/// A search engine's id: the name configs and the command line use for it (`bfs`, `table`, a
/// plugin's own `algebraic`).
///
/// Open, not an enum: the library's engines are the constants here, and a plugin names its own
/// with [`Mode::new`] (and says what it does in [`PluginInfo`](crate::registry::PluginInfo)'s
/// `engines`), so the library never lists a puzzle's engine. Two modes are equal when their
/// names are.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Mode(&'static str);

impl Mode {
    /// Breadth-first search from the start.
    pub const BFS: Mode = Mode("bfs");
    /// Breadth-first search from the start and from the goals until they meet.
    pub const BIDIRECTIONAL: Mode = Mode("bidirectional");
    /// Iterative deepening: memory linear in depth.
    pub const IDDFS: Mode = Mode("iddfs");
    /// A distance table built backward from the goal set, then a lookup.
    pub const TABLE: Mode = Mode("table");
    /// A* with the puzzle's heuristic: optimal, memory for every state it reaches.
    pub const ASTAR: Mode = Mode("astar");
    /// IDA* with the puzzle's heuristic: optimal, memory linear in depth.
    pub const IDASTAR: Mode = Mode("idastar");
    /// The engine the puzzle picks (by size, by what it has).
    pub const AUTO: Mode = Mode("auto");

    /// What `auto` does, for lists of modes.
    pub const AUTO_ABOUT: &'static str = "The engine that fits the puzzle and its size";

    /// A plugin's own engine, named `name` (lowercase, as configs write it).
    pub const fn new(name: &'static str) -> Mode {
        Mode(name)
    }

    /// The name used in configs and on the command line.
    pub fn name(self) -> &'static str {
        self.0
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

impl fmt::Debug for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

impl serde::Serialize for Mode {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_str(self.0)
    }
}

/// What an engine is, for everything that chooses, lists, checks or tests engines: one value per
/// engine, in the engine table ([`search::engines`](crate::search::engines)) for the library's,
/// beside its code for a plugin's own.
#[derive(Debug)]
pub struct Engine {
    /// Its id, as configs and the command line write it.
    pub mode: Mode,
    /// One line: what it does (`statespace puzzles`, `--help`).
    pub about: &'static str,
    /// The capabilities a puzzle must have for it to run.
    pub needs: &'static [Need],
    /// What its answers promise.
    pub gives: Gives,
    /// The `[search]` keys (and flags) it reads beyond the limits: `solutions`, `threads`,
    /// `transpositions`, `beam_width`.
    pub options: &'static [&'static str],
    /// When `auto` runs it.
    pub auto: Auto,
}

/// A capability an engine needs of a puzzle's space (see [`space`](crate::space)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Need {
    /// A dense index (bitsets, flat tables).
    Index,
    /// Invertible moves and an enumerable goal set (a search backward from the goals).
    Goals,
    /// A distance table of the whole space: a dense index, invertible moves, the goals listed
    /// and a description for the cache.
    Table,
    /// An admissible heuristic.
    Heuristic,
}

impl Need {
    /// The capability in words, for refusals and docs.
    pub fn name(self) -> &'static str {
        match self {
            Need::Index => "a dense index",
            Need::Goals => "invertible moves and listed goals",
            Need::Table => "a distance table",
            Need::Heuristic => "a heuristic",
        }
    }
}

/// What an engine's answers promise: what the tests check of it (an exact engine gives the
/// fewest moves; one that is not gives a path that replays to a goal) and what `auto` and
/// `--solutions` may ask of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Gives {
    /// A path it returns has the fewest moves (`"optimal": true` in the JSON).
    pub optimal: bool,
    /// It proves a start unsolvable (`Impossible`) rather than only giving up.
    pub proves: bool,
    /// It lists several optimal solutions when asked (`--solutions N`).
    pub lists: bool,
    /// A run stopped by a limit still has its best answer so far.
    pub anytime: bool,
}

impl Gives {
    /// Optimal, proves unsolvability, one solution.
    pub const EXACT: Gives = Gives {
        optimal: true,
        proves: true,
        lists: false,
        anytime: false,
    };
    /// [`EXACT`](Self::EXACT), and lists several solutions.
    pub const LISTING: Gives = Gives {
        lists: true,
        ..Gives::EXACT
    };
}

/// When `auto` runs an engine: never, or when a condition on the puzzle holds, by priority
/// (lower first) among the engines whose condition holds. `auto` is this one rule over the
/// engine table ([`choose`]).
#[derive(Clone, Copy, Debug)]
pub enum Auto {
    /// Only when asked for by name.
    Never,
    /// When `condition` holds of the puzzle, before engines of a higher `priority`.
    When {
        /// Lower runs first.
        priority: u8,
        /// Whether it suits a puzzle with these [`Facts`].
        condition: fn(&Facts) -> bool,
    },
}

/// What `auto` knows of a puzzle beyond the engines it has.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Facts {
    /// The dense index's size, when the space has one.
    pub states: Option<u128>,
    /// Whether each successor costs far more than an engine's own work per state (a puzzle
    /// written in Python): an engine that expands states again (IDA*) costs more than one that
    /// keeps them (A*).
    pub costly_moves: bool,
}

/// The engine `auto` runs among `engines` (each the [`Engine`] a puzzle has) for a puzzle with
/// `facts`: `preferred` when the plugin named one it has; else, of the engines whose [`Auto`]
/// condition holds, the one of the lowest priority; with `solutions` above 1, the first of them
/// that lists solutions, else the first engine that lists them, by priority. `None` when none
/// fits.
pub fn choose(
    engines: &[&Engine],
    facts: &Facts,
    solutions: usize,
    preferred: Option<Mode>,
) -> Option<Mode> {
    let mut by_priority: Vec<(u8, bool, &Engine)> = engines
        .iter()
        .map(|e| match e.auto {
            Auto::When {
                priority,
                condition,
            } => (priority, condition(facts), *e),
            Auto::Never => (u8::MAX, false, *e),
        })
        .collect();
    by_priority.sort_by_key(|&(priority, _, _)| priority);
    let preferred = preferred.and_then(|m| engines.iter().find(|e| e.mode == m).copied());
    let fitting = || {
        preferred
            .into_iter()
            .chain(by_priority.iter().filter(|(_, fits, _)| *fits).map(|e| e.2))
    };
    if solutions <= 1 {
        return fitting().next().map(|e| e.mode);
    }
    // Several solutions: the first fitting engine that lists them, else the first that lists
    // them at all, else the first fitting (which then refuses, naming the listing engines).
    fitting()
        .find(|e| e.gives.lists)
        .or_else(|| by_priority.iter().map(|e| e.2).find(|e| e.gives.lists))
        .or_else(|| fitting().next())
        .map(|e| e.mode)
}

/// A mode asked of a puzzle that does not run it: the modes it does, and why others are missing
/// when the plugin said (`for a 9 x 9 board: ...`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnsupportedMode {
    /// The mode asked for, as written.
    pub asked: String,
    /// The modes the puzzle runs.
    pub supported: Vec<Mode>,
    /// Why the puzzle lacks some modes, when its plugin said.
    pub note: Option<String>,
}

impl fmt::Display for UnsupportedMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (asked, supported) = (&self.asked, names(&self.supported));
        match &self.note {
            Some(note) => write!(
                f,
                "search mode `{asked}` is not available {note} (supported: {supported})"
            ),
            None => write!(
                f,
                "search mode `{asked}` is not supported by this puzzle (supported: {supported})"
            ),
        }
    }
}

impl std::error::Error for UnsupportedMode {}

/// The mode among `supported` named `mode`, else an [`UnsupportedMode`] that lists them.
pub fn check_mode(mode: &str, supported: &[Mode]) -> std::result::Result<Mode, UnsupportedMode> {
    match supported.iter().find(|m| m.name() == mode) {
        Some(&found) => Ok(found),
        None => Err(UnsupportedMode {
            asked: mode.to_string(),
            supported: supported.to_vec(),
            note: None,
        }),
    }
}

fn names(modes: &[Mode]) -> String {
    modes
        .iter()
        .map(|m| m.name())
        .collect::<Vec<_>>()
        .join(", ")
}
