//! `table` in the [engine table](crate::search::engines): the distance table of the whole
//! space, built (or loaded from the cache on disk) by the first board that needs it and kept
//! for the others; each board is then a look-up and a descent.
//!
//! A loaded table that proves inconsistent with the space in a look-up (a forged or damaged
//! file that passed the load's checks: see [`DistanceTable::path`]) is discarded (one warning,
//! the file removed) and the board answered again from a fresh build: a file on disk never
//! decides an answer it cannot back. After two discarded files the cache is left out (another
//! process keeps writing a bad one).

use crate::cache::{Source, TableCache};
use crate::config::{Auto, Engine, Gives, Mode, Need};
use crate::limit::{Limit, Limits};
use crate::options::SearchOptions;
use crate::search::caps::{Caps, Ran, Run, TableOps};
use crate::search::table::{DistanceTable, TableDetails};
use crate::search::{Outcome, Report, Stats};
use crate::space::StateSpace;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// `auto` builds the distance table when the space has at most this many states (a few
/// milliseconds; 2^20 states take 512 KiB at 4 bits); beyond, it runs a search from the start,
/// which looks at what one board needs rather than the whole space.
pub const AUTO_TABLE_MAX_STATES: u128 = 1 << 20;

/// `table` in the engine table.
pub const ENGINE: Engine = Engine {
    mode: Mode::TABLE,
    about: "A distance table built backward from the goal set, then a lookup",
    needs: &[Need::Table],
    gives: Gives::LISTING,
    options: &["solutions"],
    auto: Auto::When {
        priority: 0,
        condition: |facts| facts.states.is_some_and(|n| n <= AUTO_TABLE_MAX_STATES),
    },
};

/// The table engine where the space has a table; see the module docs.
pub(crate) fn make<P: StateSpace + Send + 'static>(caps: &Arc<Caps<P>>) -> Option<Run<P>> {
    let ops = caps.table?;
    let kept: Mutex<Option<Arc<(DistanceTable, Source)>>> = Mutex::new(None);
    Some(Box::new(move |space, start, limits, options, cache| {
        Ok(answer(&ops, &kept, space, start, limits, options, cache))
    }))
}

/// One board's answer from the table kept in `kept` (built or loaded first when there is none).
fn answer<P: StateSpace>(
    ops: &TableOps<P>,
    kept: &Mutex<Option<Arc<(DistanceTable, Source)>>>,
    space: &P,
    start: P::State,
    limits: &Limits,
    options: &SearchOptions,
    cache: &TableCache,
) -> Ran<P> {
    let started = Instant::now();
    // The time spent building or loading the table, for the stats.
    let mut build = Duration::ZERO;
    let stopped = |limit, build| {
        let stats = Stats {
            elapsed: started.elapsed(),
            build,
            ..Stats::default()
        };
        (Report::new(Outcome::LimitReached(limit), stats), None)
    };
    let mut kept = kept.lock().unwrap_or_else(|e| e.into_inner());
    let reused = kept.is_some();
    let mut discarded = 0;
    let (table, (mut outcome, mut others)) = loop {
        let table = match &*kept {
            Some(table) => table.clone(),
            None => {
                let fetching = Instant::now();
                let fetched = match discarded {
                    0 | 1 => (ops.fetch)(cache, space, limits, ops.build),
                    _ => (ops.build)(space, limits).map(|table| (table, Source::BuiltNotSaved)),
                };
                build += fetching.elapsed();
                match fetched {
                    Ok(fetched) => kept.insert(Arc::new(fetched)).clone(),
                    Err(why) => return stopped(why, build),
                }
            }
        };
        match (ops.lookup)(&table.0, space, start, limits, options) {
            Ok(listed) => break (table, listed),
            Err(inconsistent) if table.1.is_loaded() => {
                (ops.discard)(cache, space, &inconsistent.0);
                *kept = None;
                discarded += 1;
            }
            Err(inconsistent) => panic!("a distance table built in this run: {inconsistent}"),
        }
    };
    // The table holds every distance; a depth limit still means "no deeper answer".
    if let (Outcome::Solved(path), Some(max)) = (&outcome, limits.max_depth)
        && path.len() as u64 > max as u64
    {
        outcome = Outcome::LimitReached(Limit::Depth(max));
        others.clear();
    }
    let (table, source) = &*table;
    let details = TableDetails {
        bytes: table.bytes(),
        bits_per_entry: table.bits_per_entry(),
        reused: Some(reused),
        loaded: Some(source.is_loaded()),
    };
    // The build's counts; the time is this board's, the build's (or the load's) in it.
    let stats = Stats {
        build,
        elapsed: started.elapsed(),
        ..table.stats().clone()
    };
    let report = Report {
        outcome,
        others,
        stats,
    };
    (report, Some(details))
}
