//! Beam search: breadth-first, but each depth keeps only the `width` most promising states.
//!
//! For puzzles too large to solve optimally in the time at hand (the 24-puzzle's hardest boards
//! take a dedicated solver days, a 6x6x6 is out of reach of any exact search), a path that is
//! short, if not the shortest, found in seconds. Each depth's states are expanded; their
//! successors never met before are ranked and the first `width` kept as the next depth. The
//! first goal generated ends the search, and its path is rebuilt from each kept state's parent.
//!
//! The ranking, fewest first (in the order generated among equals):
//!
//! - the puzzle's [guess](crate::search::caps::Caps::guess) where it declares one (the
//!   permutation puzzles: pieces and twists out of place). A guess is no bound, only an order,
//!   and the better order for a greedy search: an admissible heuristic of a big cube is a small
//!   table's bound, the same few values for most states, and a beam ranked by it drifts;
//! - else its admissible [`Heuristic`](crate::space::Heuristic) (the 24-puzzle's pattern databases);
//! - else none: the order generated alone.
//!
//! Guarantees, and what it does not promise:
//!
//! - a path it returns replays from the start to a goal; it is **not proven minimal** (the
//!   answer says so: `"optimal": false`), and is usually longer than the optimum;
//! - when no depth ever had more successors than `width` (the beam never cut anything), it was
//!   a breadth-first search: an empty beam then proves the start unsolvable, and the first goal
//!   is at the fewest moves;
//! - otherwise an empty beam proves nothing: the answer is [`Limit::Width`], "no path within
//!   the beam" (a wider beam may find one).
//!
//! Memory: every state kept (at most `width` a depth) with its parent and move, and a hash set
//! of every state met, so that no state is ranked twice (a state met again at a later depth is
//! not worth keeping: it was kept, or ranked out, earlier). That set also makes the search end
//! on a finite space whatever the width: each depth ranks only states never met before. (A set
//! of the kept states alone, the others forgotten, would hold less, but a narrow beam on a
//! space whose goal it cannot reach then wanders among the same states for as long as the
//! limits allow.) All of it is checked against the memory budget after every expansion, so a
//! big puzzle's beam stops at the budget with the figure, never past it. Time and Ctrl-C: the
//! successors generated are counted on a [`Ticker`](crate::limit::Ticker), as in every engine.
//!
//! Trade-offs: the width is the one knob (`[search] beam_width`, `--beam-width`): wider finds
//! shorter paths, in time and memory linear in it. Ranking by `h` alone (not `g + h`) is greedy:
//! at one depth every state has the same `g`, so the two orders are the same.

use super::caps::{Caps, Run, guided};
use super::{Outcome, Path, Report, Stats, Step};
use crate::config::{Auto, Engine, Gives, Mode};
use crate::limit::{Latch, Limit, Limits};
use crate::options::SearchOptions;
use crate::space::StateSpace;
use hashbrown::HashSet;
use std::sync::Arc;

/// A state kept at some depth: the state, the index of its parent in the depth before, and the
/// move from it (`None` for the start).
struct Kept<S, M> {
    state: S,
    parent: u32,
    mv: Option<M>,
}

/// A successor ranked for the next depth: its estimate, the order it was generated in, and
/// the entry kept if it makes the cut.
type Ranked<P> = (
    u32,
    u64,
    Kept<<P as StateSpace>::State, <P as StateSpace>::Move>,
);

/// Beam search from `start` (see the module docs).
///
/// - `rank`: ranks the successors (fewest first: a guess or a heuristic's estimate; `|_| 0`
///   keeps them in the order generated).
/// - `limits`: `max_depth` (no deeper path: [`Limit::Depth`]), `max_states` (states kept),
///   time, Ctrl-C and memory.
/// - `width`: the states kept at each depth, at least 1.
///
/// ```
/// # use statespace::space::StateSpace;
/// # use statespace::search::{beam, Outcome};
/// # use statespace::limit::Limits;
/// struct Line; // states 0..=9, a move steps left or right, the goal is 7
/// impl StateSpace for Line {
///     type State = u8;
///     type Move = char;
///     fn successors(&self, s: u8, visit: &mut dyn FnMut(char, u8)) {
///         if s > 0 { visit('L', s - 1) }
///         if s < 9 { visit('R', s + 1) }
///     }
///     fn is_goal(&self, s: u8) -> bool { s == 7 }
/// }
/// let report = beam::solve(&Line, &|_| 0, 2, &Limits::default(), 4);
/// let Outcome::Solved(path) = report.outcome else { panic!() };
/// assert_eq!(path.len(), 5); // the beam never cut: this is BFS's answer
/// ```
pub fn solve<P: StateSpace>(
    space: &P,
    rank: &dyn Fn(P::State) -> u32,
    start: P::State,
    limits: &Limits,
    width: usize,
) -> Report<P::State, P::Move> {
    let latch = Latch::new(limits);
    let mut ticker = latch.ticker();
    let width = width.max(1);
    let mut stats = Stats::default();
    let finish = |outcome, mut stats: Stats| {
        stats.elapsed = latch.elapsed();
        Report::new(outcome, stats)
    };
    let first = Kept {
        state: start,
        parent: 0,
        mv: None,
    };
    if space.is_goal(start) {
        stats.visited = 1;
        let path = Path {
            start,
            steps: Vec::new(),
        };
        return finish(Outcome::Solved(path), stats);
    }
    let mut depths: Vec<Vec<Kept<P::State, P::Move>>> = vec![vec![first]];
    // Every state met (see the module docs).
    let mut seen: HashSet<P::State> = HashSet::from_iter([start]);
    let entry = std::mem::size_of::<Kept<P::State, P::Move>>() as u128;
    let mut kept_bytes = entry;
    let mut cut = false;
    let mut work = 0u64;
    // The successors of one depth, ranked: (estimate, order generated, kept entry).
    let mut next: Vec<Ranked<P>> = Vec::new();
    loop {
        let depth = depths.len() as u32 - 1;
        if limits.max_depth.is_some_and(|max| depth >= max) {
            let max = limits.max_depth.unwrap_or_default();
            return finish(Outcome::LimitReached(Limit::Depth(max)), stats);
        }
        next.clear();
        let layer = depths.last().expect("the start's depth");
        for (i, parent) in layer.iter().enumerate() {
            stats.expanded += 1;
            let previous = parent.mv;
            let mut goal = None;
            space.successors(parent.state, &mut |m, t| {
                work += 1;
                stats.generated += 1;
                if goal.is_some() || previous.is_some_and(|p| !space.may_follow(p, m)) {
                    return;
                }
                if !seen.insert(t) {
                    return;
                }
                let entry = Kept {
                    state: t,
                    parent: i as u32,
                    mv: Some(m),
                };
                if space.is_goal(t) {
                    goal = Some(entry);
                    return;
                }
                next.push((rank(t), work, entry));
            });
            if let Err(limit) = ticker.tick(work) {
                return finish(Outcome::LimitReached(limit), stats);
            }
            // The depths kept, this depth's successors ranked so far, and the set of every
            // state met, against the budget (a set's allocation is a field read; twice it,
            // since growing the set holds the old table beside the new one).
            let ranked = (next.capacity() * std::mem::size_of::<Ranked<P>>()) as u128;
            let set = seen.allocation_size() as u128 * 2;
            if let Err(limit) = limits.check_memory(kept_bytes + ranked + set) {
                return finish(Outcome::LimitReached(limit), stats);
            }
            if let Some(goal) = goal {
                stats.visited = seen.len() as u64;
                let path = rebuild(&depths, goal, start);
                stats.depth = path.len() as u32;
                return finish(Outcome::Solved(path), stats);
            }
        }
        stats.visited = seen.len() as u64;
        stats.peak_frontier = stats.peak_frontier.max(next.len() as u64);
        if next.is_empty() {
            let outcome = match cut {
                false => Outcome::Unsolvable,
                true => Outcome::LimitReached(Limit::Width(width)),
            };
            return finish(outcome, stats);
        }
        if next.len() > width {
            cut = true;
            next.select_nth_unstable_by_key(width - 1, |&(h, order, _)| (h, order));
            next.truncate(width);
        }
        next.sort_unstable_by_key(|&(h, order, _)| (h, order));
        kept_bytes += next.len() as u128 * entry;
        if let Some(max) = limits.max_states
            && seen.len() as u64 > max
        {
            return finish(Outcome::LimitReached(Limit::States(max)), stats);
        }
        stats.depth = depth + 1;
        depths.push(next.drain(..).map(|(_, _, kept)| kept).collect());
    }
}

/// The path to `goal` (a successor of the last depth kept), from each kept state's parent.
fn rebuild<S: Copy, M: Copy>(depths: &[Vec<Kept<S, M>>], goal: Kept<S, M>, start: S) -> Path<S, M> {
    let mut steps = Vec::with_capacity(depths.len());
    let mut at = goal;
    for depth in depths.iter().rev() {
        steps.push(Step {
            mv: at.mv.expect("only the start has no move"),
            state: at.state,
        });
        let parent = &depth[at.parent as usize];
        if parent.mv.is_none() {
            break;
        }
        at = Kept {
            state: parent.state,
            parent: parent.parent,
            mv: parent.mv,
        };
    }
    steps.reverse();
    Path { start, steps }
}

/// `beam` in the [engine table](super::engines): never `auto`'s choice (its paths are not
/// proven minimal).
pub const ENGINE: Engine = Engine {
    mode: Mode::new("beam"),
    about: "Beam search: a short path, not proven minimal, on puzzles too large to solve optimally",
    needs: &[],
    gives: Gives {
        optimal: false,
        proves: false,
        lists: false,
        anytime: false,
    },
    options: &["beam_width"],
    auto: Auto::Never,
};

/// Beam search on any space, ranked by the puzzle's guess, else its heuristic, else not at all
/// (see the module docs).
pub(crate) fn make<P: StateSpace + Send + 'static>(caps: &Arc<Caps<P>>) -> Option<Run<P>> {
    let lazy = caps.heuristic.clone();
    let guess = caps.guess;
    Some(Box::new(
        move |space, start, limits, options: &SearchOptions, cache| {
            let width = options.beam_width;
            let report = match (guess, &lazy) {
                (Some(guess), _) => solve(space, &|s| guess(space, s), start, limits, width),
                (None, Some(lazy)) => guided(lazy, limits, cache, |h| {
                    solve(space, &|s| h.estimate(space, s), start, limits, width)
                }),
                (None, None) => solve(space, &|_| 0, start, limits, width),
            };
            Ok((report, None))
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::bfs;
    use crate::space::{Heuristic, Indexed, replay};
    use crate::toys::heuristic::{Slide, SlideManhattan};
    use crate::toys::{Lights, LightsGoal};

    #[test]
    fn a_beam_that_never_cuts_is_breadth_first_search() {
        // Lights out 3 x 3 (512 boards): a width of 512 never cuts.
        let lights = Lights::new(3, 3, true, LightsGoal::AllOff);
        let limits = Limits::default();
        for start in 0..512u64 {
            let bfs = bfs::solve(&lights, start, &limits).outcome;
            let beam = solve(&lights, &|_| 0, start, &limits, 512).outcome;
            match (bfs, beam) {
                (Outcome::Solved(b), Outcome::Solved(p)) => {
                    assert_eq!(p.len(), b.len(), "{start}");
                    assert!(lights.is_goal(replay(&lights, start, &p.moves()).unwrap()));
                }
                (Outcome::Unsolvable, Outcome::Unsolvable) => {}
                other => panic!("{start}: {other:?}"),
            }
        }
    }

    #[test]
    fn a_narrow_beam_finds_a_path_no_shorter_than_the_optimum_or_says_it_found_none() {
        let limits = Limits::default();
        let mut found = 0;
        for start in (0..720u64).map(|i| Slide.state(i)) {
            let Outcome::Solved(optimal) = bfs::solve(&Slide, start, &limits).outcome else {
                continue;
            };
            for width in [1, 3, 20] {
                let manhattan = |s| SlideManhattan.estimate(&Slide, s);
                let report = solve(&Slide, &manhattan, start, &limits, width);
                match report.outcome {
                    Outcome::Solved(path) => {
                        found += 1;
                        assert!(path.len() >= optimal.len());
                        let end = replay(&Slide, start, &path.moves()).unwrap();
                        assert!(Slide.is_goal(end));
                    }
                    Outcome::LimitReached(Limit::Width(w)) => assert_eq!(w, width),
                    other => panic!("{other:?}"),
                }
            }
        }
        assert!(found > 0);
    }

    #[test]
    fn the_engine_ranks_by_the_guess_before_the_heuristic() {
        // A guess that is the Manhattan sum and a heuristic that knows nothing: the engine's
        // answers are those of a beam ranked by the Manhattan sum, which differ from a blind
        // beam's on some boards (so the test tells the two apart).
        let manhattan: crate::search::caps::Guess<Slide> = |s, t| SlideManhattan.estimate(s, t);
        let blind: crate::search::caps::SharedHeuristic<Slide> =
            Arc::new(crate::toys::heuristic::Zero);
        let caps = Arc::new(Caps {
            guess: Some(manhattan),
            heuristic: Some(Arc::new(crate::search::caps::Lazy::new(Arc::new(
                move |_, _| Ok(blind.clone()),
            )))),
            ..Caps::default()
        });
        let run = make(&caps).expect("beam runs on any space");
        let options = SearchOptions {
            beam_width: 2,
            ..SearchOptions::default()
        };
        let limits = Limits::default();
        let cache = crate::cache::TableCache::disabled();
        let mut differ = 0;
        for start in (0..720u64).map(|i| Slide.state(i)) {
            let (engine, _) = run(&Slide, start, &limits, &options, &cache).unwrap();
            let ranked = solve(&Slide, &|t| manhattan(&Slide, t), start, &limits, 2);
            let unranked = solve(&Slide, &|_| 0, start, &limits, 2);
            assert_eq!(engine.outcome, ranked.outcome, "{start}");
            differ += usize::from(ranked.outcome != unranked.outcome);
        }
        assert!(differ > 0);
    }

    #[test]
    fn limits_stop_the_beam() {
        let lights = Lights::new(5, 5, true, LightsGoal::AllOff);
        let start = (1 << 25) - 1;
        let limits = Limits {
            max_depth: Some(2),
            ..Limits::default()
        };
        let report = solve(&lights, &|_| 0, start, &limits, 10);
        assert_eq!(report.outcome, Outcome::LimitReached(Limit::Depth(2)));
        let limits = Limits {
            memory_budget: 1 << 10,
            ..Limits::default()
        };
        let report = solve(&lights, &|_| 0, start, &limits, 10_000);
        assert!(matches!(
            report.outcome,
            Outcome::LimitReached(Limit::Memory { .. })
        ));
    }
}
