//! Region goals: the fewest moves over every colour that could fill the region.
//!
//! A board reaches "the region is one colour" as soon as one colour fills it, so the answer is the
//! minimum, over the colours with at least as many cells as the region (or the one colour the goal
//! names), of that colour's distance in its [`ColourMasks`] space. The path is the best colour's.
//!
//! Engines:
//!
//! - `table` (the default): one [`DistanceTable`] per cell count `k`, built on first use and kept
//!   for the life of the [`RegionSolver`]; every later board costs a lookup per colour plus the
//!   path descent. On the HDU board every colour has 8 cells, so one 360 KiB table answers all.
//!   A caller with many boards holds the tables through [`RegionSolver::lookups`] (one per
//!   thread): a board then costs its lookups, not the solver's lock and a hash look-up.
//! - `bfs`: a forward BFS per colour; colours after the first searched are capped one move below
//!   the best found so far, so they stop early.
//! - `iddfs`: all colours deepen together (bound 0 for each, then 1, ...), so the first colour to
//!   reach the goal at a bound is optimal and the others never go deeper than it.

use super::board::{Board, Geometry, Palette, Shift};
use super::space::ColourMasks;
use statespace::cache::{Source, TableCache};
use statespace::config::Mode;
use statespace::limit::{Limit, Limits};
use statespace::options::SearchOptions;
use statespace::search::table::cached::{self, Recipe};
use statespace::search::table::{self, DistanceTable, Inconsistent, Width};
use statespace::search::{Outcome, Path, Stats, bfs, iddfs};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// A colour's space and its distance table.
#[derive(Debug)]
pub struct MaskTable {
    /// The colour's mask space.
    pub space: ColourMasks,
    /// Its distance table.
    pub table: DistanceTable,
    /// Whether it was loaded from the cache (a table that proves inconsistent then is the
    /// file's fault) or built here.
    pub source: Source,
}

/// How one board was solved.
#[derive(Clone, Debug)]
pub struct RegionAnswer {
    /// The best colour's path over its masks, or why there is none.
    pub outcome: Outcome<u64, Shift>,
    /// The colour that fills the region at the end of the path.
    pub colour: Option<u8>,
    /// The work done for this board (for `table`: the build's, when this board built it).
    pub stats: Stats,
    /// For `table`: whether the table already existed.
    pub table_reused: Option<bool>,
    /// For `table`: bytes and bits per entry of the table used.
    pub table_bytes: Option<(u64, u32)>,
}

/// Solves region goals on one geometry; keeps the distance tables it builds.
#[derive(Debug)]
pub struct RegionSolver {
    geometry: Geometry,
    region: u64,
    /// The only colour allowed to fill the region, when the goal names one.
    colour: Option<u8>,
    /// Tables by cell count, shared across boards.
    tables: Mutex<HashMap<u32, Arc<MaskTable>>>,
}

impl RegionSolver {
    /// A solver for "`region` all one colour" (that `colour`, when given) on `geometry`.
    pub fn new(geometry: Geometry, region: u64, colour: Option<u8>) -> Self {
        RegionSolver {
            geometry,
            region,
            colour,
            tables: Mutex::new(HashMap::new()),
        }
    }

    /// The colours that could fill the region, with their masks: those with enough cells
    /// (restricted to the goal's colour when it names one).
    pub fn candidates(&self, board: &Board) -> Vec<(u8, u64)> {
        let masks = board.masks();
        (0..colours(&masks))
            .filter(|&c| self.may_fill(c, masks[c as usize]))
            .map(|c| (c, masks[c as usize]))
            .collect()
    }

    /// Whether `colour`, on the cells of `mask`, is a candidate to fill the region.
    fn may_fill(&self, colour: u8, mask: u64) -> bool {
        self.colour.is_none_or(|only| only == colour)
            && mask.count_ones() >= self.region.count_ones()
    }

    /// The distance table for masks of `k` cells, built (or loaded from `cache`) on first use
    /// within `limits`. Returns whether this solver already had it.
    pub fn table(
        &self,
        k: u32,
        limits: &Limits,
        cache: &TableCache,
    ) -> Result<(Arc<MaskTable>, bool), Limit> {
        let mut tables = self.tables.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(t) = tables.get(&k) {
            return Ok((Arc::clone(t), true));
        }
        let space = ColourMasks::new(self.geometry, self.region, k);
        // The tables already kept share the budget with this one.
        let held: u64 = tables.values().map(|t| t.table.bytes()).sum();
        let mut rest = limits.clone();
        rest.memory_budget = limits.memory_budget.saturating_sub(held);
        // The board's mirrors keep the region: a quarter of the work on the HDU board.
        let (table, source) =
            cached::load_or_build(cache, &space, &Recipe::distance_table(), &rest, || {
                table::build_symmetric(&space, &rest, Width::Auto)
            })?;
        let built = Arc::new(MaskTable {
            space,
            table,
            source,
        });
        tables.insert(k, Arc::clone(&built));
        Ok((built, false))
    }

    /// Drops the kept table `t`, which proved inconsistent with its space; when it came from the
    /// cache, its file is discarded (one warning) so that the next [`table`](Self::table) builds
    /// it afresh. A table built in this run that is inconsistent is a bug: it panics.
    pub fn forget(&self, t: &MaskTable, cache: &TableCache, why: &Inconsistent) {
        assert!(t.source.is_loaded(), "a table built in this run: {why}");
        let k = t.space.mask_cells();
        self.tables
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&k);
        cached::discard(cache, &t.space, &Recipe::distance_table(), &why.0);
    }

    /// The fewest moves only, by table: `Ok(None)` when no colour can fill the region. What the
    /// judge asks, for many boards (through [`lookups`](Self::lookups), which keeps the tables
    /// at hand).
    pub fn distance(
        &self,
        board: &Board,
        limits: &Limits,
        cache: &TableCache,
    ) -> Result<Option<u32>, Limit> {
        self.lookups().distance(board, limits, cache)
    }

    /// A handle for many [`distance`](Self::distance) queries: it keeps the tables it has used,
    /// so a query after the first costs its lookups, not a lock and a hash look-up per colour.
    /// One per thread.
    pub fn lookups(&self) -> Lookups<'_> {
        Lookups {
            solver: self,
            by_cells: [const { None }; 65],
        }
    }

    /// Solves `board` with `mode` (`table`, `bfs` or `iddfs`); tables kept in `cache`.
    pub fn solve(
        &self,
        board: &Board,
        mode: Mode,
        limits: &Limits,
        options: &SearchOptions,
        cache: &TableCache,
    ) -> RegionAnswer {
        let started = Instant::now();
        let candidates = self.candidates(board);
        let mut answer = match mode {
            Mode::TABLE => self.by_table(&candidates, limits, cache),
            Mode::BFS => self.by_bfs(&candidates, limits),
            Mode::IDDFS => self.by_iddfs(&candidates, limits, options),
            other => unreachable!("the plugin checks modes first: {other}"),
        };
        answer.stats.elapsed = started.elapsed();
        answer
    }

    /// The table engine; a cached table that proves inconsistent is discarded and the board
    /// answered again from a fresh build ([`forget`](Self::forget)).
    fn by_table(
        &self,
        candidates: &[(u8, u64)],
        limits: &Limits,
        cache: &TableCache,
    ) -> RegionAnswer {
        loop {
            match self.by_table_once(candidates, limits, cache) {
                Ok(answer) => return answer,
                Err((t, why)) => self.forget(&t, cache, &why),
            }
        }
    }

    fn by_table_once(
        &self,
        candidates: &[(u8, u64)],
        limits: &Limits,
        cache: &TableCache,
    ) -> Result<RegionAnswer, (Arc<MaskTable>, Inconsistent)> {
        let mut answer = RegionAnswer::unsolvable();
        let mut best: Option<(u32, u8, u64, Arc<MaskTable>)> = None;
        for &(colour, mask) in candidates {
            let asked = Instant::now();
            let found = self.table(mask.count_ones(), limits, cache);
            let (t, reused) = match found {
                Ok(found) => found,
                Err(limit) => {
                    answer.stats.build += asked.elapsed();
                    return Ok(RegionAnswer::limit(limit, answer.stats));
                }
            };
            if !reused {
                answer.stats.build += asked.elapsed();
                add_stats(&mut answer.stats, t.table.stats());
            }
            answer.table_reused = Some(answer.table_reused.unwrap_or(true) && reused);
            let distance = match t.table.distance(&t.space, mask) {
                Ok(distance) => distance,
                Err(why) => return Err((t, why)),
            };
            if let Some(d) = distance
                && best.as_ref().is_none_or(|b| d < b.0)
            {
                best = Some((d, colour, mask, t));
            }
        }
        if let Some((d, colour, mask, t)) = best {
            // Describe the table that gave the answer.
            answer.table_bytes = Some((t.table.bytes(), t.table.bits_per_entry()));
            if let Some(max) = limits.max_depth
                && d > max
            {
                return Ok(RegionAnswer::limit(Limit::Depth(max), answer.stats));
            }
            let path = match t.table.path(&t.space, mask) {
                Ok(Some(path)) => path,
                Ok(None) => {
                    let why = Inconsistent(format!("mask {mask:#x}: a distance and no path"));
                    return Err((t, why));
                }
                Err(why) => return Err((t, why)),
            };
            answer.stats.depth = d;
            answer.outcome = Outcome::Solved(path);
            answer.colour = Some(colour);
        }
        Ok(answer)
    }

    fn by_bfs(&self, candidates: &[(u8, u64)], limits: &Limits) -> RegionAnswer {
        let mut answer = RegionAnswer::unsolvable();
        let mut best: Option<(Path<u64, Shift>, u8)> = None;
        // A colour that hits the user's depth limit may still be beaten by another colour within
        // it: remember the limit and decide after every colour.
        let mut depth_limit = None;
        for &(colour, mask) in candidates {
            let space = ColourMasks::new(self.geometry, self.region, mask.count_ones());
            // Only a strictly shorter path helps: cap this colour one move below the best.
            let cap = best.as_ref().map(|(p, _)| p.len() as u32);
            if cap == Some(0) {
                break;
            }
            let mut capped = limits.clone();
            if let Some(c) = cap {
                capped.max_depth = Some(limits.max_depth.map_or(c - 1, |m| m.min(c - 1)));
            }
            let report = bfs::solve_indexed(&space, mask, &capped);
            add_stats(&mut answer.stats, &report.stats);
            match report.outcome {
                Outcome::Solved(path) => best = Some((path, colour)),
                Outcome::Unsolvable => {}
                Outcome::LimitReached(Limit::Depth(_)) if cap.is_some() => {}
                Outcome::LimitReached(Limit::Depth(d)) => depth_limit = Some(Limit::Depth(d)),
                Outcome::LimitReached(limit) => return RegionAnswer::limit(limit, answer.stats),
            }
        }
        match (best, depth_limit) {
            (Some((path, colour)), _) => {
                answer.stats.depth = path.len() as u32;
                answer.outcome = Outcome::Solved(path);
                answer.colour = Some(colour);
            }
            (None, Some(limit)) => answer.outcome = Outcome::LimitReached(limit),
            (None, None) => {}
        }
        answer
    }

    fn by_iddfs(
        &self,
        candidates: &[(u8, u64)],
        limits: &Limits,
        options: &SearchOptions,
    ) -> RegionAnswer {
        let mut answer = RegionAnswer::unsolvable();
        let mut open: Vec<(u8, u64, ColourMasks)> = candidates
            .iter()
            .map(|&(c, mask)| {
                let space = ColourMasks::new(self.geometry, self.region, mask.count_ones());
                (c, mask, space)
            })
            .collect();
        let mut bound = 0u32;
        while !open.is_empty() {
            if let Some(max) = limits.max_depth
                && bound > max
            {
                return RegionAnswer::limit(Limit::Depth(max), answer.stats);
            }
            let mut round = limits.clone();
            round.max_depth = Some(bound);
            if let Some(max) = limits.max_states {
                round.max_states = Some(max.saturating_sub(answer.stats.expanded).max(1));
            }
            let mut still_open = Vec::with_capacity(open.len());
            for (colour, mask, space) in open {
                let report = iddfs::solve(&space, mask, &round, options);
                add_stats(&mut answer.stats, &report.stats);
                match report.outcome {
                    Outcome::Solved(path) => {
                        answer.stats.depth = path.len() as u32;
                        answer.outcome = Outcome::Solved(path);
                        answer.colour = Some(colour);
                        return answer;
                    }
                    Outcome::Unsolvable => {}
                    Outcome::LimitReached(Limit::Depth(_)) => {
                        still_open.push((colour, mask, space))
                    }
                    // The round's state limit is what is left of the user's: report the user's.
                    Outcome::LimitReached(Limit::States(left)) => {
                        let max = limits.max_states.unwrap_or(left);
                        return RegionAnswer::limit(Limit::States(max), answer.stats);
                    }
                    Outcome::LimitReached(limit) => {
                        return RegionAnswer::limit(limit, answer.stats);
                    }
                }
            }
            open = still_open;
            answer.stats.depth = bound;
            bound += 1;
        }
        answer
    }
}

/// [`RegionSolver::distance`] for many boards; see [`RegionSolver::lookups`].
#[derive(Debug)]
pub struct Lookups<'a> {
    solver: &'a RegionSolver,
    /// The tables fetched from the solver so far, by cell count (0 to 64).
    by_cells: [Option<Arc<MaskTable>>; 65],
}

impl Lookups<'_> {
    /// The fewest moves to fill the region on `board` (as [`RegionSolver::distance`]): the
    /// minimum over the candidate colours of their tables' distances.
    pub fn distance(
        &mut self,
        board: &Board,
        limits: &Limits,
        cache: &TableCache,
    ) -> Result<Option<u32>, Limit> {
        let masks = board.masks();
        let mut best = None;
        for c in 0..colours(&masks) {
            let mask = masks[c as usize];
            if !self.solver.may_fill(c, mask) {
                continue;
            }
            let k = mask.count_ones();
            let slot = &mut self.by_cells[k as usize];
            let t = match slot {
                Some(t) => t,
                None => slot.insert(self.solver.table(k, limits, cache)?.0),
            };
            let distance = match t.table.distance(&t.space, mask) {
                Ok(distance) => distance,
                Err(why) => {
                    // A cached table that does not fit: discarded, rebuilt, asked again.
                    let t = Arc::clone(t);
                    *slot = None;
                    self.solver.forget(&t, cache, &why);
                    return self.distance(board, limits, cache);
                }
            };
            if let Some(d) = distance {
                best = Some(best.map_or(d, |b: u32| b.min(d)));
            }
        }
        Ok(best)
    }
}

/// The number of colours a board's `masks` (from [`Board::masks`]) may name: up to its highest
/// colour present.
fn colours(masks: &[u64; Palette::MAX]) -> u8 {
    masks
        .iter()
        .rposition(|&m| m != 0)
        .map_or(0, |c| c as u8 + 1)
}

impl RegionAnswer {
    fn unsolvable() -> Self {
        RegionAnswer {
            outcome: Outcome::Unsolvable,
            colour: None,
            stats: Stats::default(),
            table_reused: None,
            table_bytes: None,
        }
    }

    fn limit(limit: Limit, stats: Stats) -> Self {
        RegionAnswer {
            outcome: Outcome::LimitReached(limit),
            stats,
            ..RegionAnswer::unsolvable()
        }
    }
}

/// Adds the counts of `more` to `total` (peak frontier: the larger; time: the sum).
fn add_stats(total: &mut Stats, more: &Stats) {
    total.expanded += more.expanded;
    total.generated += more.generated;
    total.visited += more.visited;
    total.peak_frontier = total.peak_frontier.max(more.peak_frontier);
    total.depth = total.depth.max(more.depth);
    total.elapsed += more.elapsed;
}
