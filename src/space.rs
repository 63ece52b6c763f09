//! The [`StateSpace`] trait and its optional capabilities.
//!
//! A puzzle plugin describes its graph of states through one required trait and a few small
//! optional ones. Engines ask, through their bounds, for exactly what they need:
//!
//! | trait | gives | used by |
//! |---|---|---|
//! | [`StateSpace`] | successors of a state, the goal test, a move-order rule | every engine |
//! | [`BoardFormat`] | a state as board text, both ways | the glue ([`kit`](crate::kit)): boards in, boards out |
//! | [`Indexed`] | a bijection between states and `0..size` | bitset visited sets, flat tables |
//! | [`Invertible`] | the inverse of every move | backward search from the goal set |
//! | [`GoalSet`] | every goal state, enumerated | multi-source backward search |
//! | [`Describe`] | what the graph is (moves as transforms, goal, layout), for content fingerprints | tables cached on disk ([`cache`](crate::cache)) |
//! | [`XorMoves`] | every move is an XOR of the dense index with a fixed mask | word-at-a-time whole-space BFS ([`layers`](crate::search::layers)), and distance tables written from it ([`table::build_xor`](crate::search::table::build_xor)) |
//! | [`SplitMoves`] | the index is two parts every move changes separately | block-at-a-time whole-space BFS from two small move tables ([`layers`](crate::search::layers)), and distance tables and pattern databases written from it ([`table::build_split`](crate::search::table::build_split)) |
//! | [`FlipSplit`] | the index is a block and flip bits a move XORs with a mask that depends on the block | block-at-a-time whole-space BFS, a few word operations per block and move ([`layers`](crate::search::layers)), and pattern databases written from it ([`table::build_flips`](crate::search::table::build_flips)) |
//! | [`Symmetric`] | the images of a state under the space's symmetries | distance tables that expand one state per orbit; pruning tables of one cell per orbit ([`pruning`](crate::search::pruning)) |
//! | [`Invariant`] | a proof, without search, that a state cannot reach the goal | every engine, before it starts (through the [`kit`](crate::kit) glue) |
//! | [`Heuristic`] | an admissible estimate of the moves left (a separate object, so one space can have several) | A*, IDA* |
//!
//! States are small `Copy` values (an integer or a fixed array of words) so that frontiers are flat
//! vectors and nothing is allocated per state. Successors are handed to a caller-supplied closure
//! instead of being returned in a `Vec`, for the same reason: the engine owns every buffer.
//!
//! # Example: a tiny space
//!
//! A counter modulo 10 where a move adds 1 or 3; the goal is 0.
//!
//! ```
//! use statespace::space::StateSpace;
//! use statespace::search::{bfs, Outcome};
//! use statespace::limit::Limits;
//!
//! struct Counter;
//! impl StateSpace for Counter {
//!     type State = u8;
//!     type Move = u8; // the amount added; u8 displays as itself
//!     fn successors(&self, s: u8, visit: &mut dyn FnMut(u8, u8)) {
//!         for step in [1, 3] {
//!             visit(step, (s + step) % 10);
//!         }
//!     }
//!     fn is_goal(&self, s: u8) -> bool {
//!         s == 0
//!     }
//! }
//!
//! let report = bfs::solve(&Counter, 5, &Limits::default());
//! match report.outcome {
//!     Outcome::Solved(path) => assert_eq!(path.len(), 3), // e.g. +3 +1 +1
//!     other => panic!("{other:?}"),
//! }
//! ```

use std::fmt::{Debug, Display};
use std::hash::Hash;

/// A graph of states given implicitly by a successor function and a goal test.
///
/// Implemented by every puzzle plugin. Only [`successors`](Self::successors) and
/// [`is_goal`](Self::is_goal) are required.
///
/// Invariants an implementation keeps:
/// - `successors` is deterministic: the same state yields the same moves in the same order
///   (engines and exports rely on it for reproducible output).
/// - [`may_follow`](Self::may_follow) only prunes redundant move sequences: every state that some
///   path reaches is also reached by a path the rule allows, of no greater length.
///
/// `Sync`, like [`Heuristic`]: a parallel search ([`idastar`](crate::search::idastar) on
/// several threads) shares the space between its threads.
pub trait StateSpace: Sync {
    /// A state: small and `Copy`, so frontiers are flat vectors; `Send + Sync`, so the threads
    /// of a parallel search share and return them.
    type State: Copy + Eq + Hash + Debug + Send + Sync;
    /// A move label that displays as a person reads it (`r3c1`, `row 2 left`).
    type Move: Copy + Eq + Debug + Display + Send + Sync;

    /// Calls `visit(move, next_state)` once for every move available in `state`.
    ///
    /// A `dyn` visitor keeps the trait simple; plugins whose successor loop is hot give the
    /// engines a specialised path through the other capabilities (dense index, bit tricks).
    fn successors(&self, state: Self::State, visit: &mut dyn FnMut(Self::Move, Self::State));

    /// Whether some successor of `state` passes `test`, stopping at the first that does.
    ///
    /// Why it exists: a bottom-up distance-table scan asks only whether a state has a neighbour
    /// at the current depth, and most that do find one among the first few moves. The default
    /// generates every successor and tests them until one passes; a space whose moves are cheap
    /// one at a time overrides it so that the rest are not generated at all.
    #[inline]
    fn any_successor(&self, state: Self::State, test: &mut dyn FnMut(Self::State) -> bool) -> bool {
        let mut found = false;
        self.successors(state, &mut |_, t| found = found || test(t));
        found
    }

    /// The successors of `state` whose move `wanted` accepts: `wanted` is asked about each move
    /// in the order [`successors`](Self::successors) visits them, before the successor is made,
    /// and `visit` gets those it accepts.
    ///
    /// Why it exists: IDA* keeps some moves out (one that undoes or commutes with the move
    /// before, one the heuristic rules out), about half of the 3x3x3's. The default makes every
    /// successor and asks after; a space whose successor costs more than the question (a move
    /// applied to a whole state) overrides it so that the others are never made.
    #[inline]
    fn successors_where(
        &self,
        state: Self::State,
        wanted: &mut dyn FnMut(Self::Move) -> bool,
        visit: &mut dyn FnMut(Self::Move, Self::State),
    ) {
        self.successors(state, &mut |m, t| {
            if wanted(m) {
                visit(m, t);
            }
        });
    }

    /// The successor that [`successors`](Self::successors) visits `n`-th (counting from 0), or
    /// `None` when it visits fewer.
    ///
    /// Why it exists: a sweep that counts a layer too large to store keeps each state as its
    /// parent and this `n` (16 bytes where a cube's state takes kilobytes) and makes it again
    /// when it must compare two (`search::layers`, the last layer of a depth-limited sweep).
    /// The default generates the successors up to the `n`-th; a space whose moves are cheap one
    /// at a time overrides it to apply just that one.
    fn nth_successor(&self, state: Self::State, n: usize) -> Option<Self::State> {
        let mut seen = 0;
        let mut found = None;
        self.successors(state, &mut |_, t| {
            if seen == n {
                found = Some(t);
            }
            seen += 1;
        });
        found
    }

    /// Whether `state` is a goal.
    fn is_goal(&self, state: Self::State) -> bool;

    /// Whether `next` may directly follow `previous` in a path that depth-first engines explore.
    ///
    /// The default allows everything. A plugin whose moves are invertible should at least refuse
    /// the inverse of `previous`; one whose moves commute may demand a canonical order (Flip:
    /// each cell at most once, in increasing order), which makes the pruned search tree finite.
    fn may_follow(&self, _previous: Self::Move, _next: Self::Move) -> bool {
        true
    }
}

/// The board text of a space: how a person writes a state, and how one prints.
///
/// Why it exists: the engines never see text, but every command reads a board and prints
/// boards; with this the [`kit`](crate::kit) glue does both for any plugin.
///
/// Invariant: `parse` of `format(s)` is `s` again.
pub trait BoardFormat: StateSpace {
    /// Parses `text`; an error names the file and line through
    /// [`BoardText::error`](crate::board_text::BoardText::error).
    fn parse(&self, text: &crate::board_text::BoardText) -> crate::error::Result<Self::State>;
    /// The state as board text (rows, one per line).
    fn format(&self, state: Self::State) -> String;

    /// The state a scramble (moves applied to the goal, in the puzzle's notation) reaches. The
    /// default refuses: only puzzles with a move notation read scrambles.
    ///
    /// A scramble may be millions of moves (a file's line is capped only by the memory budget),
    /// so applying one is work under the run's limits: count each move on `setup`
    /// ([`Setup::step`](crate::setup::Setup::step)), which stops at the time limit and on
    /// Ctrl-C, and apply the moves as they are read rather than listing them first.
    fn parse_scramble(
        &self,
        text: &crate::board_text::BoardText,
        _setup: &mut crate::setup::Setup,
    ) -> crate::error::Result<Self::State> {
        text.board_only()?;
        self.parse(text)
    }

    /// `text` as a state: a scramble (applied under `setup`) or a board, as the text says.
    fn read(
        &self,
        text: &crate::board_text::BoardText,
        setup: &mut crate::setup::Setup,
    ) -> crate::error::Result<Self::State> {
        if text.scramble {
            self.parse_scramble(text, setup)
        } else {
            self.parse(text)
        }
    }
}

/// A dense index: a bijection between the states and `0..size()`.
///
/// Lets an engine keep its visited set as a bitset and its distances as a flat array instead of
/// a hash set. The size is a `u128` because a 64-cell board has 2^64 states: engines compare it
/// against their memory budget before they allocate anything.
///
/// No holes, either way:
///
/// - every index in `0..size()` is a state: engines that scan the whole index (a distance
///   table's bottom-up levels) turn every index into a state with [`state`](Self::state) and
///   generate its successors, so a hole would be decoded into a position that does not exist;
/// - every state the space produces (a board its [`BoardFormat`] parses, a successor, a goal)
///   has an index, and `index(state(i)) == i`.
///
/// States no goal reaches, or that no start reaches, are allowed: they only cost their bits. An
/// encoding with holes is ranked into one without: by a formula ([`rank`](crate::rank); the
/// Tower of Hanoi of `examples/custom_puzzle.rs` keeps two bits a disc in its state and reads
/// them as base-3 digits for its index, which has no holes), or by listing the states
/// ([`index::Enumerated`](crate::index::Enumerated), and [`IndexedBy`](crate::index::IndexedBy)
/// to wear it: the states sorted, an index found by binary search).
pub trait Indexed: StateSpace {
    /// The number of states (every index in `0..size()` is a state).
    fn size(&self) -> u128;
    /// The index of `state`, in `0..size()`.
    fn index(&self, state: Self::State) -> u64;
    /// The state at `index`; `index < size()`.
    fn state(&self, index: u64) -> Self::State;
    /// The state at `index`, given `from`, the state at an earlier index `at` (`at < index`).
    ///
    /// Why it exists: a distance table's level scans visit indices in increasing order, and for
    /// some encodings the next state in index order is much cheaper to step to than to unrank
    /// (colex masks: a few bit operations against about 150 instructions). Such a space steps
    /// when `index` is near `at`. The default is [`state`](Self::state).
    #[inline]
    fn state_after(&self, at: u64, from: Self::State, index: u64) -> Self::State {
        let _ = (at, from);
        self.state(index)
    }
}

/// Every move has an inverse: `s --m--> t` exactly when `t --inverse(m)--> s`.
///
/// Then the predecessors of a state are its successors, and a search may run backward from the
/// goal set over the same successor function.
pub trait Invertible: StateSpace {
    /// The move that undoes `m`.
    fn inverse(&self, m: Self::Move) -> Self::Move;
}

/// The goal states can be listed, so a search can start from all of them at once.
pub trait GoalSet: StateSpace {
    /// Calls `visit` once for every goal state.
    fn goals(&self, visit: &mut dyn FnMut(Self::State));
}

/// What the space's graph is, exactly, for the fingerprints of the tables built from it
/// ([`cache::fingerprint`](crate::cache::fingerprint)): a table read from disk answers for this
/// space only if it was built from a space with the same description.
///
/// Why it exists: a cached table is keyed by what determines its contents, never by a name or a
/// path. The cache measures what it can through the other capabilities (the size, every goal,
/// the successors met along a few walks); the description makes the key exact where the walks
/// could miss a difference.
///
/// An implementation writes into `content` everything [`successors`](StateSpace::successors),
/// [`is_goal`](StateSpace::is_goal) and the [`Indexed`] encoding depend on: dimensions, what
/// each move does as a transform of states (a permutation puzzle's move tables, not its move
/// names), the goal, options that change the moves (a torus). Never a name the user chose or a
/// file's path: two spaces with equal descriptions must have equal graphs.
///
/// ```
/// use statespace::cache::fingerprint::Content;
/// use statespace::space::Describe;
///
/// /// A ring of `n` states (as in the `table` module's example).
/// struct Ring { n: u64 }
/// impl Describe for Ring {
///     fn describe(&self, content: &mut Content) {
///         content.str("ring").u64(self.n);
///     }
/// }
/// ```
pub trait Describe {
    /// Writes the space's description (see the trait docs) into `content`.
    fn describe(&self, content: &mut crate::cache::fingerprint::Content);
}

/// Every move flips a fixed set of bits of the dense index: the successors of `s` are exactly
/// `state(index(s) ^ m)` for the masks `m` of [`xor_masks`](Self::xor_masks), in the order
/// [`successors`](StateSpace::successors) lists them.
///
/// Why it exists: a bitset engine can then move a whole 64-bit word of states per move at once
/// (the word at `w` lands on the word at `w ^ (m >> 6)`, its bits permuted by `i -> i ^ (m & 63)`)
/// instead of one state at a time. See [`layers`](crate::search::layers).
///
/// Invariants an implementation keeps:
/// - [`size`](Indexed::size) is a power of two and every mask is below it, so `index ^ m` is
///   always an index.
/// - XOR undoes itself, so every move is its own inverse: a search backward from the goal set is
///   the same as a search forward from it.
///
/// Implemented by Flip (the board is its index; a press XORs a mask) and the toys' Lights Out
/// ([`toys::Lights`](crate::toys::Lights)).
pub trait XorMoves: Indexed {
    /// One mask per move.
    fn xor_masks(&self) -> &[u64];
}

/// The dense index splits into two parts that every move changes separately: index `i` is
/// `high * low_count + low`, and the `k`-th successor that
/// [`successors`](StateSpace::successors) lists, for every state, has the index
/// `high_k(high) * low_count + low_k(low)`, for some functions `high_k` and `low_k` of one part
/// each.
///
/// Why it exists: a bitset engine then tabulates `high_k` and `low_k` once (two small tables
/// instead of an unrank, a move and a rank per successor) and moves a whole block of states that
/// share `high` with one look-up per state; see [`layers`](crate::search::layers). Permutation
/// puzzles split so: where the pieces are (`high`) and how the slots are twisted (`low`), since a
/// move carries a slot's twist along whatever piece sits there; or, where few or no pieces
/// twist, between classes of slots (a move changes each class on its own: the perm plugin's
/// `Layout::split_low_count` picks the cut).
///
/// Invariants an implementation keeps: every state has the same number of successors, listed in
/// the same move order (no move is ever blocked), and `low_count` divides
/// [`size`](Indexed::size).
pub trait SplitMoves: Indexed {
    /// `low_count`, or `None` when this space's index does not split (engines then go state by
    /// state).
    fn low_count(&self) -> Option<u64>;
}

/// The dense index is `high * 2^bits + flips`, and the `k`-th successor that
/// [`successors`](StateSpace::successors) lists, for every state of block `high`, has the index
/// `high_k(high) * 2^bits + (flips ^ mask_k(high))`.
///
/// Pieces of two orientations tracked by piece split so (a permutation puzzle's pattern of some
/// of the 3x3x3's edges): where the pieces are is `high`, their flips are the bits, and a move
/// flips the pieces in the slots it flips, which depends on where they are, not on how they are
/// flipped. [`SplitMoves`] does not cover it (there the low part moves on its own).
///
/// Why it exists: a bitset engine then moves a whole block of `2^bits` states per move with a few
/// word operations (an XOR of the bit index is a butterfly of swaps, as for [`XorMoves`]), after
/// one unrank and `moves` ranks per block instead of per state; see
/// [`layers`](crate::search::layers).
///
/// Invariants an implementation keeps: every state has the same number of successors, listed in
/// the same move order, and `2^bits` divides [`size`](Indexed::size).
pub trait FlipSplit: Indexed {
    /// `bits` (at most [`MAX_FLIP_BITS`]), or `None` when this space's index does not split so.
    fn flip_bits(&self) -> Option<u32>;
    /// Calls `visit(high_k(high), mask_k(high))` for every move `k`, in the order of
    /// [`successors`](StateSpace::successors).
    fn block_moves(&self, high: u64, visit: &mut dyn FnMut(u64, u64));
}

/// The most flip bits a [`FlipSplit`] block has: 4,096 states, 64 words.
pub const MAX_FLIP_BITS: u32 = 12;

/// Symmetries: permutations of the states that map moves to moves and goals to goals (the
/// mirrors of a Shift board whose region is mirror-symmetric, the tiles' reflection about the
/// diagonal, a permutation puzzle's rotations), so a state and its images are equally far from
/// the goal set. A table build that knows them expands one state per orbit; a symmetric
/// [`PruningTable`](crate::search::pruning::PruningTable) keeps one cell per orbit.
///
/// Invariants: the symmetries form a group, so [`images`](Self::images) of any state of an orbit
/// list the whole orbit (possibly with repeats and the state itself), and exactly one state of
/// every orbit [`is_representative`](Self::is_representative).
pub trait Symmetric: StateSpace {
    /// Calls `visit` with the image of `state` under every symmetry other than the identity.
    /// Generic rather than `dyn` (unlike successors): a table build calls it for every state it
    /// reaches, and an indirect call there costs as much as the images.
    fn images<F: FnMut(Self::State)>(&self, state: Self::State, visit: F);
    /// Whether `state` stands for its orbit.
    fn is_representative(&self, state: Self::State) -> bool;
    /// Calls `visit` with the images of `state`, as [`images`](Self::images) does, and returns
    /// the state that stands for the orbit (`state` or an image). A table build needs both for
    /// every orbit it reaches (it lists the representatives of a small level); a space that gets
    /// them in one pass overrides this. By default, the images, then the one that
    /// [`is_representative`](Self::is_representative) approves.
    fn orbit<F: FnMut(Self::State)>(&self, state: Self::State, mut visit: F) -> Self::State {
        let mut found = state;
        self.images(state, |image| {
            if self.is_representative(image) {
                found = image;
            }
            visit(image)
        });
        found
    }
    /// The state that stands for `state`'s orbit: [`orbit`](Self::orbit)'s answer, for callers
    /// that need no images (a symmetric pruning table's cell). By default `orbit`'s; a space
    /// that can rule an image out before making all of it overrides this.
    fn representative(&self, state: Self::State) -> Self::State {
        self.orbit(state, |_| {})
    }
    /// Whether every state has a 32-bit form ([`narrow`](Self::narrow) and
    /// [`widen`](Self::widen)). A table build that lists an orbit's representative per reached
    /// orbit then lists 4 bytes a state rather than the state (8 bytes for a Shift mask): half
    /// the memory beside the table. By default, no.
    fn narrows(&self) -> bool {
        false
    }
    /// The 32-bit form of `state`; called only when [`narrows`](Self::narrows).
    fn narrow(&self, state: Self::State) -> u32 {
        let _ = state;
        unreachable!("a space that does not narrow its states")
    }
    /// The state whose 32-bit form is `word`: `widen(narrow(s)) == s`.
    fn widen(&self, word: u32) -> Self::State {
        let _ = word;
        unreachable!("a space that does not narrow its states")
    }
}

/// A proof by invariant: a quantity every move keeps (a permutation parity, a colour count) that
/// differs between a state and every goal, so the state is unsolvable and no search is needed.
///
/// Why it exists: a search proves unsolvability only by exhausting everything reachable, which
/// for half of a sliding puzzle's boards is the whole other half of the space; an invariant
/// answers at once, on any size. The glue consults it before any engine runs, and the answer
/// names the invariant (`"proof": "parity"`).
///
/// Invariant an implementation keeps: `Some` only for states that truly cannot reach a goal
/// (never a false proof). `None` proves nothing: the state may or may not be solvable.
pub trait Invariant: StateSpace {
    /// The name of an invariant that proves `state` cannot reach any goal (`"parity"`), or
    /// `None` when none does.
    fn unsolvable_by(&self, state: Self::State) -> Option<&'static str>;
}

/// An admissible heuristic: a lower bound on the fewest moves from a state to a goal.
///
/// A separate object rather than a method of the space, so that one space can be searched with
/// several (Manhattan distance, pattern databases) and a heuristic can own tables.
///
/// Invariants an implementation keeps:
/// - admissible: `estimate(s)` never exceeds the fewest moves from `s` to a goal (so A* and IDA*
///   return optimal paths);
/// - `estimate(goal) == 0`.
///
/// Optionally consistent (monotone): `estimate(s) <= 1 + estimate(t)` for every move `s -> t`.
/// A* documents what it does when that fails.
pub trait Heuristic<P: StateSpace + ?Sized>: Sync {
    /// A lower bound on the moves from `state` to the nearest goal.
    fn estimate(&self, space: &P, state: P::State) -> u32;

    /// [`estimate`](Self::estimate) when it is below `limit`; otherwise any value from `limit`
    /// up to the estimate (still a lower bound). For a search that only needs to know whether
    /// the estimate reaches `limit` (IDA*'s cut, see [`idastar`](crate::search::idastar)): a
    /// heuristic made of several parts may stop at the first part that reaches it
    /// ([`Max`](crate::search::pdb::Max)).
    ///
    /// By default the estimate itself, which keeps the contract.
    #[inline]
    fn estimate_below(&self, space: &P, state: P::State, limit: u32) -> u32 {
        let _ = limit;
        self.estimate(space, state)
    }

    /// A hint that `state` will be estimated soon: a heuristic that reads large tables may start
    /// loading the entries it will read (IDA* calls it for all of a node's successors before it
    /// estimates the first), and return the table indices it computed for that, which
    /// [`estimate_prefetched`](Self::estimate_prefetched) reads instead of projecting the state
    /// again. By default nothing, and [`Prefetched::NONE`].
    #[inline]
    fn prefetch(&self, space: &P, state: P::State) -> Prefetched {
        let _ = (space, state);
        Prefetched::NONE
    }

    /// Whether [`prefetch_successor`](Self::prefetch_successor) reads the parent's memo: then
    /// IDA* keeps each kept successor's memo to hand down (40 bytes a successor more, and their
    /// copies: some 20 % of a cheap heuristic's search, which is why it asks). By default no.
    fn carries_memo(&self) -> bool {
        false
    }

    /// What [`prefetch_successor`](Self::prefetch_successor) of each of `state`'s successors
    /// reads of `state`, computed once for all of them, when the heuristic carries no memos
    /// ([`carries_memo`](Self::carries_memo) false): IDA* calls it once per node it expands
    /// and hands it to each successor's call as `parent_memo`. For a table whose index a move
    /// changes by small move tables (a class table's parts), so that each successor's index is
    /// a few reads from its parent's parts rather than a projection of the successor. By
    /// default [`Prefetched::NONE`] (nothing).
    #[inline]
    fn successor_context(&self, space: &P, state: P::State) -> Prefetched {
        let _ = (space, state);
        Prefetched::NONE
    }

    /// [`prefetch`](Self::prefetch) of `state`, reached from `parent` by `mv`, given what the
    /// heuristic left in `parent_memo` when it estimated `parent` (its [`Prefetched`] after the
    /// last [`advance`](Self::advance)), or where it carries no memos, the parent's
    /// [`successor_context`](Self::successor_context): for an estimate that is a sum of parts
    /// of which a move changes only some (additive pattern databases: Korf & Felner's
    /// incremental sums), so that only those are projected and read again. IDA* calls it for
    /// every successor of the node it expands, with that node's memo (the root's from
    /// [`memo`]) or context, into `memo`, the search's slot for the successor. By default
    /// [`prefetch`](Self::prefetch), the parent ignored.
    ///
    /// Written into the caller's slot rather than returned: a memo returned from a call that
    /// is not inlined comes back through a temporary in memory, written a word at a time and
    /// copied on 16 bytes at a time, and each such copy waited for the words to reach the
    /// cache (a store that cannot forward to the wider load) once a successor.
    #[inline]
    fn prefetch_successor(
        &self,
        space: &P,
        parent: P::State,
        parent_memo: &Prefetched,
        mv: P::Move,
        state: P::State,
        memo: &mut Prefetched,
    ) {
        let _ = (parent, parent_memo, mv);
        *memo = self.prefetch(space, state);
    }

    /// One stage of a staged estimate of `state`, after [`prefetch`](Self::prefetch): `Some` of
    /// what [`estimate_prefetched`](Self::estimate_prefetched) gives, or `None` when the
    /// heuristic has started loading what its next stage reads and is to be called again.
    ///
    /// For a heuristic whose reads depend on each other (a class number, then the entry it
    /// numbers) or are worth making only while the cheaper ones stay below `limit` (more
    /// look-ups of the same table): IDA* advances every successor still estimating before it
    /// advances any again, so one successor's reads arrive while the others are worked on, and
    /// a successor cut early costs one stage. Once called, it is called until it gives `Some`
    /// (with a limit that may shrink from call to call), and `prefetched` is the heuristic's
    /// to rewrite in between. By default one stage: `estimate_prefetched`.
    #[inline]
    fn advance(
        &self,
        space: &P,
        state: P::State,
        prefetched: &mut Prefetched,
        limit: u32,
    ) -> Option<u32> {
        Some(self.estimate_prefetched(space, state, prefetched, limit))
    }

    /// [`estimate_below`](Self::estimate_below) of `state`, given what
    /// [`prefetch`](Self::prefetch) returned for it: the same value, without the work prefetch
    /// did already. By default `estimate_below`.
    #[inline]
    fn estimate_prefetched(
        &self,
        space: &P,
        state: P::State,
        prefetched: &Prefetched,
        limit: u32,
    ) -> u32 {
        let _ = prefetched;
        self.estimate_below(space, state, limit)
    }

    /// The moves that cannot begin a path of at most `budget` moves from `state` to a goal, as
    /// bits in the order [`StateSpace::successors`] visits them (bit `j` the `j`-th; moves past
    /// the 64th are never ruled out): IDA* generates none of them. For a heuristic whose
    /// look-ups tell more than a bound when they equal `budget` (a permutation puzzle's look-up
    /// at the inverse rules out the first moves its pattern keeps). By default none.
    ///
    /// `note` is the [note](Prefetched::note) of what the heuristic left when it estimated
    /// `state` in full (IDA* keeps it with each successor it searches), or 0 where there is
    /// none (the start): a heuristic whose last stage leaves there what these look-ups read,
    /// marked as its own, need not make them again.
    #[inline]
    fn ruled_out(&self, space: &P, state: P::State, note: u64, budget: u32) -> u64 {
        let _ = (space, state, note, budget);
        0
    }

    /// Whether the tables this heuristic reads in place from cache files are still whole,
    /// asked after each answer. A file another program cut short while in use reads zeros
    /// past the cut: lower bounds, so the answers stay optimal, but the search slows, perhaps
    /// past its limits. A heuristic that finds such a table discards its file from `cache`
    /// (one warning line, the file removed) and returns `false`; its owner then makes it
    /// afresh, so the next answer reads a rebuilt table. By default `true`: no tables.
    fn intact(&self, cache: &crate::cache::TableCache) -> bool {
        let _ = cache;
        true
    }
}

/// What `heuristic` leaves in its [`Prefetched`] for `state` once it has estimated it in full
/// (no parent: [`Heuristic::prefetch`], then [`Heuristic::advance`] until it answers, with no
/// limit), and that estimate: a search's root memo for [`Heuristic::prefetch_successor`].
pub fn memo<P: StateSpace + ?Sized, H: Heuristic<P> + ?Sized>(
    heuristic: &H,
    space: &P,
    state: P::State,
) -> (Prefetched, u32) {
    let mut memo = heuristic.prefetch(space, state);
    loop {
        if let Some(h) = heuristic.advance(space, state, &mut memo, u32::MAX) {
            return (memo, h);
        }
    }
}

/// What [`Heuristic::prefetch`] computed for a state, handed back to
/// [`Heuristic::estimate_prefetched`] with it: up to four words (table indices, for a pattern
/// database), so that a state is projected once rather than once to prefetch and once to
/// estimate. Opaque to the engines, which keep one per successor; its meaning is the
/// heuristic's own, valid only for the state it was made for.
///
/// The second field is [`Max`](crate::search::pdb::Max)'s: where a staged estimate
/// ([`Heuristic::advance`]) is among its parts, 16 bits for each `Max` the estimate passes
/// through (the outermost in the low bits). Other heuristics leave it as it is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Prefetched(pub [u64; 4], pub u64);

impl Prefetched {
    /// Nothing computed.
    pub const NONE: Prefetched = Prefetched([0; 4], 0);

    /// The word a heuristic's last stage may leave for its
    /// [`ruled_out`](Heuristic::ruled_out) of the same state: the last of the first field.
    /// IDA* keeps it with each successor it searches (8 bytes, where the whole memo is kept only
    /// for heuristics that [carry memos](Heuristic::carries_memo)).
    #[inline]
    pub fn note(&self) -> u64 {
        self.0[3]
    }
}

/// Replays `moves` from `start`, following each move by its label; `None` if a move is not
/// available where it is played. Tests and the CLI use it to check a path independently of the
/// engine that found it.
pub fn replay<P: StateSpace + ?Sized>(
    space: &P,
    start: P::State,
    moves: &[P::Move],
) -> Option<P::State> {
    let mut state = start;
    for &wanted in moves {
        let mut next = None;
        space.successors(state, &mut |m, t| {
            if m == wanted && next.is_none() {
                next = Some(t);
            }
        });
        state = next?;
    }
    Some(state)
}
