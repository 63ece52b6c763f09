//! What a search is asked for beyond its budgets: [`SearchOptions`].
//!
//! [`Limits`](crate::limit::Limits) are budgets: when a run must give up (depth, states, time,
//! memory, Ctrl-C), the same for every engine, and checked by all of them. Options are requests
//! that change what an engine does within those budgets: how many optimal solutions to list,
//! how many threads to split the work over, how large a transposition table to keep, how wide a
//! beam to carry. Each engine reads the options it knows (the engine table says which:
//! [`Engine::options`](crate::config::Engine::options)) and leaves the others.
//!
//! Both come from the config's `[search]` section with the command line's flags (or the Python
//! arguments) over it, in one place: [`config::Overrides`](crate::config::Overrides).

/// The options of one solve; see the module docs. `Default` is one solution, one thread, the
/// transposition table's automatic size and the default beam width.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    /// How many optimal solutions a solve gives (`[search] solutions`, `--solutions`; at least
    /// 1, the default): the engines that list solutions (`table`, `idastar`, `iddfs`) give the
    /// first this many distinct ones of the optimal length, all of them when there are fewer,
    /// in the [`Report`](crate::search::Report)'s `others` after the outcome's path.
    pub solutions: usize,
    /// Worker threads of the engines that split their work (`[search] threads`, `--threads`; at
    /// least 1, the default): IDA* searches each iteration's subtrees on this many (see
    /// `search::idastar`); the other path engines run on one.
    pub threads: usize,
    /// The transposition table of the depth-first engines (IDDFS, IDA*): its size, part of
    /// the memory budget, or none.
    pub transpositions: Transpositions,
    /// How many states a beam search keeps at each depth (`[search] beam_width`,
    /// `--beam-width`).
    pub beam_width: usize,
    /// Run the search on these processes instead of this one alone (`solve --processes`):
    /// only IDA* takes it (`search::idastar::cluster`).
    pub cluster: Option<std::sync::Arc<crate::processes::Cluster>>,
}

/// The beam width when none is asked for: wide enough that a beam search finds short paths on
/// puzzles of millions of states, narrow enough that a depth costs milliseconds.
pub const DEFAULT_BEAM_WIDTH: usize = 10_000;

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            solutions: 1,
            threads: 1,
            transpositions: Transpositions::Auto,
            beam_width: DEFAULT_BEAM_WIDTH,
            cluster: None,
        }
    }
}

/// How large a transposition table the depth-first engines keep (`[search] transpositions`,
/// `--transpositions`); what the table does and why it keeps answers optimal is in
/// `search::transpositions`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Transpositions {
    /// The engine's default size, within the memory budget.
    #[default]
    Auto,
    /// No table: a state is searched again along every path the move-order rule allows.
    Off,
    /// A table of at most this many bytes; refused, with the figure, when it passes the budget.
    Bytes(u64),
}
