//! Engine ids ([`Mode`]): open names, the library's as constants and a plugin's its own, and the
//! typed refusal of a mode a puzzle does not run ([`UnsupportedMode`]).

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

    /// The library's engines, in the order lists show them, with what each does; `auto` last.
    pub const LIBRARY: [(Mode, &'static str); 7] = [
        (Mode::BFS, "Breadth-first search from the start"),
        (
            Mode::BIDIRECTIONAL,
            "Breadth-first search from the start and the goals until they meet",
        ),
        (Mode::IDDFS, "Iterative deepening: memory linear in depth"),
        (
            Mode::TABLE,
            "A distance table built backward from the goal set, then a lookup",
        ),
        (
            Mode::ASTAR,
            "A* with the puzzle's heuristic: optimal, memory for every state it reaches",
        ),
        (
            Mode::IDASTAR,
            "IDA* with the puzzle's heuristic: optimal, memory linear in depth",
        ),
        (Mode::AUTO, "The engine that fits the puzzle and its size"),
    ];

    /// A plugin's own engine, named `name` (lowercase, as configs write it).
    pub const fn new(name: &'static str) -> Mode {
        Mode(name)
    }

    /// The name used in configs and on the command line.
    pub fn name(self) -> &'static str {
        self.0
    }

    /// Where `self` stands in lists: the library's engines in [`LIBRARY`](Self::LIBRARY) order,
    /// then plugins' engines, then `auto`.
    pub fn rank(self) -> usize {
        match Mode::LIBRARY.iter().position(|(m, _)| *m == self) {
            Some(i) if self == Mode::AUTO => usize::MAX - Mode::LIBRARY.len() + i,
            Some(i) => i,
            None => Mode::LIBRARY.len(),
        }
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
