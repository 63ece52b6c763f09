//! How every engine stops for the time limit and Ctrl-C: a [`Latch`] per run, a [`Ticker`] per
//! thread.
//!
//! An engine cannot read the clock for every state (a read costs as much as generating a few
//! successors), so it counts the work it does on a [`Ticker`] and the ticker polls the clock and
//! the interrupt flag every [`WORK_PER_POLL`] units. The unit is what costs time, whatever the
//! engine: a successor generated (every one, including the ones a depth-first search generates
//! at its depth bound and never expands), a table word scanned, a row tabulated. Counting
//! expansions instead would not do: one expansion may generate hundreds of successors, each
//! with successors of its own at the bound (a puzzle with 760 moves made IDDFS poll once in 2
//! billion successors, 13 s past a 1 s limit).
//!
//! The [`Latch`] is the run's side: the limits, the clock the time limit counts from, and the
//! first reason to stop once seen. It is `Sync`: the threads of a parallel sweep share one, each
//! with its own ticker, and when one of them sees the limit the others see it at their next
//! poll, with the same reason. A reason found another way (a cluster peer that stopped, a memory
//! refusal) is latched with [`Latch::trip`].
//!
//! ```
//! use statespace::limit::{Latch, Limit, Limits};
//! use std::time::Duration;
//!
//! let limits = Limits { time_limit: Some(Duration::ZERO), ..Limits::default() };
//! let latch = Latch::new(&limits);
//! let mut ticker = latch.ticker();
//! // A new ticker polls at its first tick; the time limit has passed.
//! assert_eq!(ticker.tick(0), Err(Limit::Time(Duration::ZERO)));
//! // Latched: every other thread's ticker stops for the same reason.
//! assert_eq!(latch.ticker().tick(0), Err(Limit::Time(Duration::ZERO)));
//! ```

use super::{Limit, Limits};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// Units of work (successors generated, words scanned) between two polls of a [`Ticker`].
///
/// Why this many: a poll is an atomic load and a clock read, about 25 ns; the cheapest unit, a
/// successor in a table scan, costs a few nanoseconds, so polling costs under 1 %. The dearest
/// units (a successor of a state of many pieces, or with several pattern-database look-ups)
/// cost microseconds, so a poll still comes every few milliseconds, and within a second as
/// long as one unit costs under 200 µs.
pub const WORK_PER_POLL: u64 = 4096;

/// The stop condition of one run: its limits, the clock its time limit counts from, and the
/// first reason to stop once seen (see the module docs). Shared by the run's threads.
#[derive(Debug)]
pub struct Latch {
    limits: Limits,
    started: Instant,
    reason: OnceLock<Limit>,
}

impl Latch {
    /// The latch of a run that starts now under `limits`; its time limit counts from
    /// [`Limits::clock_start`] when that is set (a command's whole budget), else from now.
    pub fn new(limits: &Limits) -> Latch {
        let started = Instant::now();
        Latch {
            limits: limits.clone(),
            started,
            reason: OnceLock::new(),
        }
    }

    /// When the run started (not the time limit's clock: see [`Latch::new`]).
    pub fn started(&self) -> Instant {
        self.started
    }

    /// Wall-clock time since the run started.
    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// Polls now: `Err` with the reason when the run must stop (latched already, or out of time,
    /// or interrupted).
    #[inline(never)]
    pub fn check(&self) -> Result<(), Limit> {
        if let Some(reason) = self.reason.get() {
            return Err(reason.clone());
        }
        match self.limits.stop_reason(self.started) {
            Some(limit) => Err(self.trip(limit)),
            None => Ok(()),
        }
    }

    /// Stops the run for `limit` unless it was stopped already; returns the reason that holds
    /// (the first).
    pub fn trip(&self, limit: Limit) -> Limit {
        self.reason.get_or_init(|| limit).clone()
    }

    /// The reason the run was stopped, if it was; reads no clock.
    pub fn reason(&self) -> Option<Limit> {
        self.reason.get().cloned()
    }

    /// A ticker for one thread of the run: it polls at its first tick, then every
    /// [`WORK_PER_POLL`] units of work.
    pub fn ticker(&self) -> Ticker<'_> {
        Ticker {
            latch: self,
            next: 0,
            last: 0,
            before: 0,
        }
    }
}

/// One thread's count of its work, polling its [`Latch`] every [`WORK_PER_POLL`] units.
#[derive(Debug)]
pub struct Ticker<'a> {
    latch: &'a Latch,
    /// The work count (counting every count the caller started again) at which the next poll
    /// is due.
    next: u64,
    /// The caller's count at the last call.
    last: u64,
    /// The work of the counts the caller started again, before its current one.
    before: u64,
}

impl<'a> Ticker<'a> {
    /// Counts work and polls when a poll is due: `done` is the work this ticker has seen done
    /// so far (a count that grows, such as the successors generated; see [`due`](Self::due)
    /// for one that starts again). `Err` when the run must stop.
    #[inline]
    pub fn tick(&mut self, done: u64) -> Result<(), Limit> {
        if self.due(done) {
            self.latch.check()
        } else {
            Ok(())
        }
    }

    /// Whether a poll is due at `done` (as in [`tick`](Self::tick)); when it says so, the next is
    /// due [`WORK_PER_POLL`] units later. For engines that check more than the latch on the same
    /// beat (their memory): they call [`Latch::check`] themselves.
    ///
    /// A count that goes back (a sweep that counts each layer's successors from zero) is taken
    /// as a new count added to the old: without that, the next poll would wait until the new
    /// count passed the old one (a whole layer of work with no clock read; never, when every
    /// layer is smaller than the first one polled).
    #[inline]
    pub fn due(&mut self, done: u64) -> bool {
        if done < self.last {
            self.before = self.before.saturating_add(self.last);
        }
        self.last = done;
        let work = self.before.saturating_add(done);
        if work < self.next {
            return false;
        }
        self.next = work.saturating_add(WORK_PER_POLL);
        true
    }

    /// The run's latch.
    pub fn latch(&self) -> &'a Latch {
        self.latch
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::SearchOptions;
    use std::sync::atomic::AtomicBool;

    #[test]
    fn a_ticker_polls_at_its_first_tick_then_every_so_much_work() {
        let latch = Latch::new(&Limits::default());
        let mut ticker = latch.ticker();
        assert!(ticker.due(0));
        assert!(!ticker.due(WORK_PER_POLL - 1));
        assert!(ticker.due(WORK_PER_POLL));
        // A large step of work polls at once, and the next poll is counted from there.
        assert!(ticker.due(10 * WORK_PER_POLL));
        assert!(!ticker.due(11 * WORK_PER_POLL - 1));
        assert!(ticker.due(u64::MAX));
        assert!(ticker.due(u64::MAX), "no overflow past the end");
    }

    #[test]
    fn a_count_that_starts_again_polls_within_the_beat() {
        let latch = Latch::new(&Limits::default());
        let mut ticker = latch.ticker();
        assert!(ticker.due(0));
        // One layer's count: the last poll at 100 beats.
        assert!(ticker.due(100 * WORK_PER_POLL));
        // The next layer counts from zero: a poll within one beat, not after 100.
        let polls: Vec<u64> = (0..=2 * WORK_PER_POLL).filter(|&n| ticker.due(n)).collect();
        assert_eq!(polls, [WORK_PER_POLL, 2 * WORK_PER_POLL]);
    }

    #[test]
    fn a_sweep_interrupted_in_a_later_layer_stops_within_a_beat() {
        // A line 0 - 1 - ... - 1000 where state n has successors n - 1 and WORK_PER_POLL / 2
        // copies of n + 1 (the hash set ignores repeats): every layer is one state and less
        // than a beat of work. The flag goes up while layer 30 is expanded.
        use crate::search::layers;
        use crate::space::StateSpace;
        use std::sync::atomic::{AtomicU64, Ordering};
        static FLAG: AtomicBool = AtomicBool::new(false);
        static GENERATED: AtomicU64 = AtomicU64::new(0);
        static RAISED_AT: AtomicU64 = AtomicU64::new(0);
        struct Line;
        impl StateSpace for Line {
            type State = u32;
            type Move = u8;
            fn successors(&self, state: u32, visit: &mut dyn FnMut(u8, u32)) {
                if state == 30 && !FLAG.swap(true, Ordering::Relaxed) {
                    RAISED_AT.store(GENERATED.load(Ordering::Relaxed), Ordering::Relaxed);
                }
                for _ in 0..WORK_PER_POLL / 2 {
                    if state < 1000 {
                        GENERATED.fetch_add(1, Ordering::Relaxed);
                        visit(0, state + 1);
                    }
                }
                if state > 0 {
                    GENERATED.fetch_add(1, Ordering::Relaxed);
                    visit(1, state - 1);
                }
            }
            fn is_goal(&self, _: u32) -> bool {
                false
            }
        }
        let limits = Limits {
            interrupt: Some(&FLAG),
            ..Limits::default()
        };
        let options = layers::Options {
            limits: &limits,
            threads: None,
        };
        let sweep = layers::forward_hashed(&Line, 0, options, &mut |_, _| {});
        assert_eq!(sweep.stopped, Some(Limit::Interrupted));
        let after = GENERATED.load(Ordering::Relaxed) - RAISED_AT.load(Ordering::Relaxed);
        // At most a beat, and the rest of the state being expanded when the poll came.
        let bound = WORK_PER_POLL + WORK_PER_POLL / 2 + 1;
        assert!(after <= bound, "{after} successors after the interrupt");
    }

    #[test]
    fn the_first_reason_is_latched_for_every_thread() {
        static FLAG: AtomicBool = AtomicBool::new(true);
        let limits = Limits {
            interrupt: Some(&FLAG),
            ..Limits::default()
        };
        let latch = Latch::new(&limits);
        assert_eq!(latch.reason(), None, "nothing polled yet");
        assert_eq!(latch.trip(Limit::States(5)), Limit::States(5));
        // The interrupt came second: the latched reason holds.
        assert_eq!(latch.check(), Err(Limit::States(5)));
        std::thread::scope(|s| {
            s.spawn(|| assert_eq!(latch.ticker().tick(0), Err(Limit::States(5))));
        });
        let fresh = Latch::new(&limits);
        assert_eq!(fresh.check(), Err(Limit::Interrupted));
        assert_eq!(fresh.trip(Limit::States(5)), Limit::Interrupted);
    }

    /// A hypercube of 2^22 states (a move flips one bit) whose every successor costs 2 µs of
    /// CPU; with `even_goals` every even state is a goal (a first layer of 2 million states),
    /// else the one state of all bits set is (22 moves from 0: path searches from a state near
    /// 0 run until a limit stops them).
    struct Slow {
        even_goals: bool,
    }

    const BITS: u32 = 22;
    const FAR: u32 = (1 << BITS) - 1;

    impl crate::space::StateSpace for Slow {
        type State = u32;
        type Move = u32;
        fn successors(&self, s: u32, visit: &mut dyn FnMut(u32, u32)) {
            for bit in 0..BITS {
                let spent = Instant::now();
                while spent.elapsed() < Duration::from_micros(2) {}
                visit(bit, s ^ 1 << bit);
            }
        }
        fn is_goal(&self, s: u32) -> bool {
            match self.even_goals {
                true => s.is_multiple_of(2),
                false => s == FAR,
            }
        }
        fn may_follow(&self, previous: u32, next: u32) -> bool {
            previous != next
        }
    }

    impl crate::space::Indexed for Slow {
        fn size(&self) -> u128 {
            1 << BITS
        }
        fn index(&self, s: u32) -> u64 {
            s as u64
        }
        fn state(&self, i: u64) -> u32 {
            i as u32
        }
    }

    impl crate::space::Invertible for Slow {
        fn inverse(&self, m: u32) -> u32 {
            m
        }
    }

    impl crate::space::GoalSet for Slow {
        fn goals(&self, visit: &mut dyn FnMut(u32)) {
            match self.even_goals {
                true => (0..1 << BITS).step_by(2).for_each(visit),
                false => visit(FAR),
            }
        }
    }

    #[test]
    fn every_engine_holds_a_time_limit_however_dear_its_successors() {
        use crate::search::{
            Outcome, astar, beam, bfs, bidirectional, idastar, iddfs, layers, table,
        };
        use crate::toys::heuristic::Zero;
        let limit = Duration::from_millis(100);
        let limits = Limits {
            time_limit: Some(limit),
            ..Limits::default()
        };
        let (sweep, path) = (Slow { even_goals: true }, Slow { even_goals: false });
        let options = layers::Options {
            limits: &limits,
            threads: Some(1),
        };
        type Run<'a> = Box<dyn Fn() -> Option<Limit> + 'a>;
        let stopped = |outcome: Outcome<u32, u32>| match outcome {
            Outcome::LimitReached(limit) => Some(limit),
            _ => None,
        };
        // Before every engine counted successors, the table and the sweeps polled once in
        // 65,536 states (1.4 s of successors here) and IDDFS once in 4,096 expansions, each
        // with 22 x 22 successors at the depth bound (4 s).
        #[cfg(feature = "cluster")]
        let cluster = || {
            let one = crate::search::cluster::Cluster::local(1);
            let swept = crate::search::cluster::backward(
                std::sync::Arc::new(Slow { even_goals: true }),
                &one,
                &limits,
            );
            swept.expect("no peers to lose").layers.stopped
        };
        // The cluster's sweep where this build has it (the cargo feature `cluster`).
        #[cfg(feature = "cluster")]
        let clustered: Vec<(&str, Run)> = vec![("cluster", Box::new(cluster))];
        #[cfg(not(feature = "cluster"))]
        let clustered: Vec<(&str, Run)> = Vec::new();
        let runs: Vec<(&str, Run)> = vec![
            ("table", Box::new(|| table::build(&sweep, &limits).err())),
            (
                "layers",
                Box::new(|| layers::backward(&sweep, options, &mut |_, _| {}).stopped),
            ),
            (
                "bfs",
                Box::new(|| stopped(bfs::solve_indexed(&path, 1, &limits).outcome)),
            ),
            (
                "iddfs",
                Box::new(|| {
                    stopped(iddfs::solve(&path, 1, &limits, &SearchOptions::default()).outcome)
                }),
            ),
            (
                "idastar",
                Box::new(|| {
                    stopped(
                        idastar::solve(&path, &Zero, 1, &limits, &SearchOptions::default()).outcome,
                    )
                }),
            ),
            (
                "astar",
                Box::new(|| stopped(astar::solve_indexed(&path, &Zero, 1, &limits).outcome)),
            ),
            (
                "bidirectional",
                Box::new(|| stopped(bidirectional::solve_indexed(&path, 1, &limits).outcome)),
            ),
            (
                "beam",
                Box::new(|| stopped(beam::solve(&path, &|_| 0, 1, &limits, 1000).outcome)),
            ),
        ];
        for (engine, run) in runs.into_iter().chain(clustered) {
            // Within a second of the start; a run slowed past it by the machine's load (two
            // cores shared with the other tests and builds) gets two more tries, so that only an
            // engine that overruns three times fails.
            let took = (0..3)
                .map(|_| {
                    let started = Instant::now();
                    assert_eq!(run(), Some(Limit::Time(limit)), "{engine}");
                    started.elapsed()
                })
                .find(|took| *took < Duration::from_secs(1));
            assert!(took.is_some(), "{engine}: over a second, three times");
        }
    }

    #[test]
    fn without_limits_a_latch_never_stops() {
        let latch = Latch::new(&Limits::default());
        let mut ticker = latch.ticker();
        for done in (0..100 * WORK_PER_POLL).step_by(1000) {
            assert_eq!(ticker.tick(done), Ok(()));
        }
        assert_eq!(latch.reason(), None);
    }
}
