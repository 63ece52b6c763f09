//! What stops a run: its [`Limits`] (depth, states, time, Ctrl-C, memory), the [`Limit`] that
//! stopped it, the memory budget's helpers, and how every engine polls time and Ctrl-C (a
//! [`Latch`] per run, a [`Ticker`] per thread: see [`ticker`]).
//!
//! On the ground floor: the engines, the cache, the setup and the error type all build on it,
//! and it depends on nothing in the crate.

pub mod ticker;

pub use ticker::{Latch, Ticker, WORK_PER_POLL};

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Bounds on one search run. `Default` sets no depth, state or time limit and a memory budget of
/// half the physical memory.
#[derive(Clone, Debug)]
pub struct Limits {
    /// The deepest level searched; reaching it without a goal ends the run with
    /// [`Limit::Depth`].
    pub max_depth: Option<u32>,
    /// The most states an engine may visit (BFS) or expand (IDDFS, A*, IDA*).
    pub max_states: Option<u64>,
    /// Wall-clock time after which the run stops with [`Limit::Time`].
    pub time_limit: Option<Duration>,
    /// When the time limit started counting. `None`: when each engine run starts. A caller that
    /// runs several engines for one answer (a plugin trying each colour, the CLI) sets it once so
    /// that they share one budget of time.
    pub clock_start: Option<Instant>,
    /// Bytes an engine may allocate for its tables and sets; checked before allocating.
    pub memory_budget: u64,
    /// Set from outside (the CLI's Ctrl-C handler) to stop the run with [`Limit::Interrupted`].
    pub interrupt: Option<&'static AtomicBool>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_depth: None,
            max_states: None,
            time_limit: None,
            clock_start: None,
            memory_budget: default_memory_budget(),
            interrupt: None,
        }
    }
}

impl Limits {
    /// Whether the run that began at `started` must stop now: interrupted or out of time
    /// (counted from [`clock_start`](Self::clock_start) when set).
    /// Cheap (an atomic load and, with a time limit, a clock read). Engines do not call it
    /// themselves: they count their work on a [`Ticker`], which polls this through its [`Latch`].
    pub fn stop_reason(&self, started: Instant) -> Option<Limit> {
        if self
            .interrupt
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
        {
            return Some(Limit::Interrupted);
        }
        let since = self.clock_start.unwrap_or(started);
        match self.time_limit {
            Some(limit) if since.elapsed() >= limit => Some(Limit::Time(limit)),
            _ => None,
        }
    }

    /// Refuses an allocation of `needed` bytes that the budget does not cover, or that this
    /// machine could not address.
    pub fn check_memory(&self, needed: u128) -> Result<(), Limit> {
        if needed > self.memory_budget as u128 || needed > isize::MAX as u128 {
            Err(Limit::Memory {
                needed,
                budget: self.memory_budget,
            })
        } else {
            Ok(())
        }
    }
}

/// Half the physical memory (from `/proc/meminfo`), or 4 GiB where that cannot be read.
pub fn default_memory_budget() -> u64 {
    const FALLBACK: u64 = 4 << 30;
    physical_memory().map_or(FALLBACK, |bytes| bytes / 2)
}

/// The machine's physical memory in bytes (`MemTotal` in `/proc/meminfo`), where it can be read.
/// A budget above it would let an engine allocate what the OS cannot give.
pub fn physical_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib = line.split_whitespace().nth(1)?.parse::<u64>().ok()?;
    Some(kib * 1024)
}

/// Which limit stopped a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Limit {
    /// `max_depth` was reached without finding a goal.
    Depth(u32),
    /// `max_states` states were visited without finding a goal.
    States(u64),
    /// The time limit passed.
    Time(Duration),
    /// The run was interrupted (Ctrl-C).
    Interrupted,
    /// A beam of this width ran out of states without reaching a goal, having cut some: a
    /// wider one may find a path (beam search proves nothing else).
    Width(usize),
    /// The run would need `needed` bytes, more than the budget; refused before allocating.
    Memory {
        /// The bytes the work needs.
        needed: u128,
        /// The budget it passes.
        budget: u64,
    },
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Limit::Depth(d) => write!(f, "depth limit {d} reached"),
            Limit::States(n) => write!(f, "state limit {n} reached"),
            Limit::Time(t) => write!(f, "time limit {} reached", humantime::format_duration(*t)),
            Limit::Interrupted => write!(f, "interrupted"),
            Limit::Width(w) => write!(f, "beam width {w} reached (no path within it)"),
            Limit::Memory { needed, budget } => {
                let (mut need, mut have) = (human_bytes(*needed), human_bytes(*budget as u128));
                // Two figures that round alike say nothing: then the bytes too.
                if need == have {
                    need = format!("{need} ({} bytes)", grouped(*needed));
                    have = format!("{have} ({} bytes)", grouped(*budget as u128));
                }
                write!(
                    f,
                    "needs {need} of memory, over the budget of {have} (raise it with --memory)"
                )
            }
        }
    }
}

/// `n` with its digits in groups of three: `67,108,872` (the one formatter of counts: limits,
/// and the records' text).
pub fn grouped(n: u128) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// Formats a byte count with a binary unit: `16.0 MiB`.
pub fn human_bytes(bytes: u128) -> String {
    const UNITS: [&str; 7] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_figures_that_round_alike_show_their_bytes() {
        let close = Limit::Memory {
            needed: (64 << 20) + 8,
            budget: 64 << 20,
        };
        assert_eq!(
            close.to_string(),
            "needs 64.0 MiB (67,108,872 bytes) of memory, over the budget of 64.0 MiB \
             (67,108,864 bytes) (raise it with --memory)"
        );
        let apart = Limit::Memory {
            needed: 3 << 30,
            budget: 1 << 30,
        };
        assert_eq!(
            apart.to_string(),
            "needs 3.0 GiB of memory, over the budget of 1.0 GiB (raise it with --memory)"
        );
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
    }
}
