//! Ranking: dense indices (bijections between states and `0..count`) for plugins.

pub mod combination;
pub mod multiset;
pub mod permutation;

pub use combination::{Binomial, Colex, next_same_popcount};
pub use multiset::Multiset;
pub use permutation::{Arrangements, Permutations, parity};
