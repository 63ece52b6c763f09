//! How a cached table was made from its space ([`Recipe`]): the part of a table's name that is
//! not the space, and what a loaded table is checked against.
//!
//! A file of its own, below both [`cached`](super::cached), which names and loads tables, and
//! [`verify`](mod@super::verify), which checks them: both read a recipe, and verify needs
//! nothing else of cached. Its users name it [`cached::Recipe`](super::cached::Recipe), a
//! re-export.

/// How a cached table was made from its space, beyond the space itself: what
/// [`fingerprint`](super::cached::fingerprint) adds to the space's fingerprint and what
/// [`verify`](mod@super::verify) checks a loaded table against.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recipe {
    /// A word for the file's name (`table`, `pdb`); not part of the fingerprint.
    pub label: &'static str,
    /// Whether the table must hold exact distances (a pattern database's lookups), or may hold
    /// them mod 3.
    pub exact: bool,
    /// Whether every move costs 1 (the table engine's BFS), so that a loaded table can be checked
    /// against the moves: a state's distance is one more than its nearest successor's. `false`
    /// for a build with costs of its own, whose loaded tables are checked at the goals only.
    pub unit_cost: bool,
    /// Whatever else the build depends on (the parameters of an abstraction's own search).
    pub params: Vec<u8>,
}

impl Recipe {
    /// The table engine's table of a space: unit cost, any width ([`table::build`]).
    ///
    /// [`table::build`]: super::build
    pub fn distance_table() -> Recipe {
        Recipe {
            label: "table",
            exact: false,
            unit_cost: true,
            params: Vec::new(),
        }
    }

    /// A pattern database's table: exact entries, unit cost unless an abstraction builds its
    /// own ([`Recipe::own_build`]).
    pub fn pattern_database() -> Recipe {
        Recipe {
            label: "pdb",
            exact: true,
            unit_cost: true,
            params: Vec::new(),
        }
    }

    /// This recipe for a build with costs of its own, described by `params`.
    pub fn own_build(self, params: Vec<u8>) -> Recipe {
        Recipe {
            unit_cost: false,
            params,
            ..self
        }
    }
}
