//! Ranking: dense indices, bijections between a family of states and `0..count`, so that a
//! plugin's [`Indexed`](crate::space::Indexed) space can hand engines bitsets and flat distance
//! tables without holes.
//!
//! | type | ranks | count | rank / unrank cost | limits |
//! |---|---|---|---|---|
//! | [`Permutations`] | permutations of `0..n` (`&[u8]`), lexicographic | `n!` | `O(n)`: a popcount per value / a division and a select per value | `n <= 20` |
//! | [`Permutations`]' half | the permutations of one parity, lexicographic | `n! / 2` | one rank / one unrank and a swap | `2 <= n <= 20` |
//! | [`Arrangements`] | `k` distinct pieces in `n` cells: each piece's cell (`&[u8]`), lexicographic | `n! / (n - k)!` | `O(k)`, as permutations | `n <= 64`, count fits a `u64` |
//! | [`Colex`] | `k`-subsets of `n` cells as a `u64` mask, numeric (colex) order | `C(n, k)` | two look-ups up to 24 cells, one more per byte past that / `n - 16` steps and one look-up, or a few bit operations per step to a near rank | `n <= 64`; tables of 8192 words, `256 * (k + 1)` per middle byte, plus 128 KiB |
//! | [`Multiset`] | pieces that look alike: each cell's symbol (`&[u8]`), lexicographic | `n! / (c_0! c_1! ...)` | `O(n * symbols)` multiplications | `n <= 64`, count fits a `u64` |
//!
//! Choosing: a puzzle whose pieces are all distinct ranks its permutation (halved when its moves
//! keep the parity); a pattern database over some of the pieces ranks their cells as an
//! arrangement; when only where one kind of piece is matters, a mask and [`Colex`] is the fastest
//! (look-ups, no per-piece work); several kinds of interchangeable pieces make a [`Multiset`].
//! A multiset with two symbols has the same count as [`Colex`], and [`Multiset`] with every count
//! 1 is [`Permutations`]; the specialised types are faster at those.
//!
//! Conventions shared by all: ranks start at 0; the slice types compare position 0 first; a
//! value or cell `v` is bit `v` when held in a mask. Nothing allocates per call: the slice types
//! keep their working state in registers and on the stack, and only [`Colex`] has (precomputed)
//! tables. Constructors whose count depends on several parameters ([`Arrangements::new`],
//! [`Multiset::new`]) return `None` when it does not fit a `u64`; [`Permutations::new`] and
//! [`Colex::new`] panic past their fixed limits, since every `n` below them fits.
//!
//! ```
//! use statespace::rank::{Arrangements, Colex, Multiset, Permutations};
//!
//! // The 8 puzzle's tiles and blank: 9! boards, or 9! / 2 of one parity.
//! assert_eq!(Permutations::new(9).half_count(), 181_440);
//! // A pattern database of tiles 1, 2, 3 of the 15 puzzle: their cells.
//! assert_eq!(Arrangements::new(16, 3).unwrap().count(), 3_360);
//! // Where the 8 cells of one colour are on a 4 x 6 board.
//! assert_eq!(Colex::new(24, 8).count(), 735_471);
//! // A 3-colour board of 8 cells, 2 + 3 + 3.
//! assert_eq!(Multiset::new(&[2, 3, 3]).unwrap().count(), 560);
//! ```

pub mod combination;
pub mod multiset;
pub mod permutation;

pub use combination::{Binomial, Colex, next_same_popcount};
pub use multiset::Multiset;
pub use permutation::{Arrangements, Permutations, parity};
