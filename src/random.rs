//! A small reproducible pseudo-random generator, for scrambles, sampled states and benchmark
//! inputs: the same numbers on every machine and every run, with no dependency and no seed
//! plumbing. Not for anything that needs unpredictability.
//!
//! ```
//! use statespace::random::Lcg;
//!
//! let (mut a, mut b) = (Lcg(7), Lcg(7));
//! let picks: Vec<usize> = (0..5).map(|_| a.below(6)).collect();
//! assert!(picks.iter().all(|&p| p < 6));
//! assert_eq!(picks, (0..5).map(|_| b.below(6)).collect::<Vec<_>>());
//! ```

/// A 64-bit linear congruential generator (Knuth's MMIX constants); its state is the `u64`
/// seed. Numbers come from the top bits, which are the well-mixed ones.
#[derive(Clone, Debug)]
pub struct Lcg(pub u64);

impl Lcg {
    /// A number in `0..n`; `n` must not be 0.
    pub fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}
