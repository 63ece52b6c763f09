//! The work before a search (reading a puzzle's definition, compiling its moves) under the
//! run's [`Limits`].
//!
//! Setup of a large input takes time and memory like a search, so it answers to the same
//! limits: it stops at the time limit and on Ctrl-C, and refuses what would pass the memory
//! budget before allocating it. A plugin's [`build`](crate::registry::Plugin::build) makes one
//! [`Setup`] from the limits and hands it to each stage, which counts its steps
//! ([`step`](Setup::step): a line read, a move composed, a move compiled) and charges the bytes
//! it is about to allocate ([`charge`](Setup::charge): the blocks it asks for, each as the
//! allocator takes it, see [`heap`]). Each stage's cost is linear in its input, so counting
//! steps is also how the tests tell that it stays so.
//!
//! Steps are polled like an engine's work: through the run's [`Latch`], every
//! [`WORK_PER_POLL`] of them (a step costs microseconds at most, so a stop comes within a
//! fraction of a second). The clock is the limits' own ([`Limits::clock_start`], which the CLI
//! sets before the setup), so setup and search share one time budget. The bytes charged are
//! the setup's (an engine then checks its tables against the whole budget). A stop is an
//! [`Error::Limit`] at the place in the input where it happened (`big.tws:20481: time limit 1s
//! reached`), which the CLI prints in one line with the exit code of a limit (4; 130 for
//! Ctrl-C).

use crate::error::{Error, Location, Result};
use crate::limit::{Latch, Limits, WORK_PER_POLL};
use std::path::Path;

/// The bytes the allocator takes for a block of `bytes`: glibc's malloc adds an 8-byte header
/// and rounds up to 16, at least 32 (nothing for an empty block, which allocates nothing).
pub fn heap(bytes: usize) -> u128 {
    match bytes {
        0 => 0,
        n => ((n as u128 + 8).div_ceil(16) * 16).max(32),
    }
}

/// The bytes of one more element in a list that grows by doubling: its size, twice.
pub fn listed<T>() -> u128 {
    2 * std::mem::size_of::<T>() as u128
}

/// Setup's account of time, Ctrl-C and memory (see the module docs).
#[derive(Debug)]
pub struct Setup {
    limits: Limits,
    latch: Latch,
    steps: u64,
    /// The step count at which the latch is polled next.
    next_poll: u64,
    bytes: u128,
}

impl Default for Setup {
    /// Under the default limits: no time limit, half the physical memory.
    fn default() -> Self {
        Setup::new(&Limits::default())
    }
}

impl Setup {
    /// A setup under `limits`, starting now (unless the limits' clock started earlier).
    pub fn new(limits: &Limits) -> Setup {
        Setup {
            limits: limits.clone(),
            latch: Latch::new(limits),
            steps: 0,
            next_poll: 0,
            bytes: 0,
        }
    }

    /// Counts one step. The first and every [`WORK_PER_POLL`]-th poll the latch, and stop the
    /// setup at `at` when the time is up or Ctrl-C was pressed.
    pub fn step(&mut self, at: impl FnOnce() -> Location) -> Result<()> {
        let due = self.steps >= self.next_poll;
        self.steps += 1;
        if !due {
            return Ok(());
        }
        self.next_poll = self.steps - 1 + WORK_PER_POLL;
        self.latch.check().map_err(|limit| Error::Limit {
            location: at(),
            limit,
        })
    }

    /// Adds `bytes` that the caller is about to allocate, refused at `at` when the setup's bytes
    /// would pass the memory budget.
    pub fn charge(&mut self, bytes: u128, at: impl FnOnce() -> Location) -> Result<()> {
        self.bytes = self.bytes.saturating_add(bytes);
        self.limits
            .check_memory(self.bytes)
            .map_err(|limit| Error::Limit {
                location: at(),
                limit,
            })
    }

    /// The text of the file at `path`, its length charged before it is read.
    pub fn read(&mut self, path: &Path) -> Result<String> {
        let name = || Location::file(path.display().to_string());
        // A file that cannot be statted is left to the read, which names the problem.
        if let Ok(meta) = std::fs::metadata(path) {
            self.charge(u128::from(meta.len()), name)?;
        }
        crate::error::read_text(path)
    }

    /// The steps counted so far.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// The bytes charged so far.
    pub fn bytes(&self) -> u128 {
        self.bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limit::Limit;
    use std::sync::atomic::AtomicBool;
    use std::time::Duration;

    fn at() -> Location {
        Location::file("t.tws").at_line(7)
    }

    #[test]
    fn a_spent_clock_stops_the_first_step_and_the_next_poll() {
        let limits = Limits {
            time_limit: Some(Duration::from_nanos(1)),
            ..Limits::default()
        };
        let mut setup = Setup::new(&limits);
        std::thread::sleep(Duration::from_millis(1));
        let e = setup.step(at).unwrap_err();
        assert!(
            matches!(
                e,
                Error::Limit {
                    limit: Limit::Time(_),
                    ..
                }
            ),
            "{e}"
        );
        assert_eq!(e.to_string(), "t.tws:7: time limit 1ns reached");
        // Between polls a step is only counted.
        for _ in 1..WORK_PER_POLL {
            setup.step(at).unwrap();
        }
        assert!(setup.step(at).is_err());
        assert_eq!(setup.steps(), WORK_PER_POLL + 1);
    }

    #[test]
    fn ctrl_c_stops_a_step() {
        static PRESSED: AtomicBool = AtomicBool::new(true);
        let limits = Limits {
            interrupt: Some(&PRESSED),
            ..Limits::default()
        };
        let e = Setup::new(&limits).step(at).unwrap_err();
        assert!(
            matches!(
                e,
                Error::Limit {
                    limit: Limit::Interrupted,
                    ..
                }
            ),
            "{e}"
        );
        // Without limits nothing stops.
        let mut setup = Setup::default();
        for _ in 0..3 * WORK_PER_POLL {
            setup.step(at).unwrap();
        }
    }

    #[test]
    fn heap_blocks_are_what_malloc_takes() {
        assert_eq!(
            (heap(0), heap(1), heap(24), heap(25), heap(100)),
            (0, 32, 32, 48, 112)
        );
    }

    #[test]
    fn charges_add_up_to_the_budget() {
        let limits = Limits {
            memory_budget: 1000,
            ..Limits::default()
        };
        let mut setup = Setup::new(&limits);
        setup.charge(600, at).unwrap();
        setup.charge(400, at).unwrap();
        let e = setup.charge(1, at).unwrap_err();
        let Error::Limit {
            limit: Limit::Memory { needed, budget },
            ..
        } = e
        else {
            panic!("{e}")
        };
        assert_eq!((needed, budget), (1001, 1000));
        assert_eq!(setup.bytes(), 1001);
    }
}
