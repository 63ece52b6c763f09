//! Symmetry classes by distance: how many orbits of the space's [`Symmetric`] images lie at each
//! distance from the goal set, counted while a backward sweep runs (`explore --symmetry`).
//!
//! # What a class is
//!
//! A space's symmetries are permutations of its states that map moves to moves and goals to
//! goals ([`Symmetric`]); a class is an orbit of them: a state and all its images. For a
//! permutation puzzle the symmetries are the whole-puzzle rotations that map the searched moves
//! onto themselves, acting by conjugation, `s ~ r⁻¹ · s · r` (the perm plugin's `symmetry`
//! module): the same position seen after turning the whole puzzle, every solution of one a
//! solution of the other with its moves renamed. These are the "positions up to symmetry" of
//! cube20.org and twsearch (which also use the 24 mirror images, and sometimes the inverse, that
//! the perm plugin does not find). For the sliding tiles the one symmetry is the reflection about
//! the main diagonal; for a Shift mask space, the board's mirrors.
//!
//! Not the same thing: *positions up to whole-puzzle rotation*, `s ~ s · r` (the puzzle's
//! orientation in space ignored rather than conjugated). The 2x2x2 with all six faces turning has
//! 88,179,840 positions, 24 of them for every way of holding it; up to rotation that is
//! 3,674,160, the 2x2x2 searched with one corner held still (moves U, F, R:
//! `configs/perm-2x2x2.toml`, which `explore` sweeps as it is). Its conjugation classes are
//! another count, a little more than 88,179,840 / 24: a position that some rotation maps onto
//! itself has fewer than 24 images (BENCHMARKS.md, "Symmetry classes").
//!
//! # How they are counted
//!
//! A symmetry keeps distances, so an orbit lies whole within one layer of the sweep, and exactly
//! one state of every orbit [`is_representative`](Symmetric::is_representative): the classes at
//! depth `d` are the representatives among the states first reached at depth `d`. The sweep lends
//! each completed layer's bitset to [`backward`] (the `_each` sweeps of [`layers`](super)), which
//! decodes every state of it, asks whether it stands for its orbit and counts; nothing is stored
//! but the counts, and the sweep is the one `explore` runs anyway, so the memory is the sweep's
//! and the cost is one unrank and one canonical form per state, on the sweep's threads. A sweep
//! without `--symmetry` runs none of this.
//!
//! The count is only what it claims when the images truly keep distances to the goal set:
//! [`backward`] refuses a space that lists no symmetry, and one whose goal set is not closed
//! under its images (a goal whose image is not a goal), before it sweeps. Forward sweeps are not
//! counted: distances from a start board are kept only by the symmetries that fix it.
//!
//! # Limits
//!
//! The time limit and Ctrl-C are polled as in the sweep (a [`Ticker`](crate::limit::Ticker) per
//! chunk of words, one tick a state). A stop while a layer's classes are counted ends the sweep
//! with that layer counted in the sweep's histogram but not in the classes':
//! [`Classes::histogram`] is then one shorter than [`Layers::histogram`].

use super::sweep::{over_chunks, pool_for};
use super::{CHUNK_WORDS, EachLayer, Layers, Options, threads_for};
use crate::limit::Latch;
use crate::space::{GoalSet, Indexed, StateSpace, Symmetric};
use std::time::{Duration, Instant};

/// A backward sweep that lends each completed layer to a callback: [`backward_each`](super::backward_each),
/// [`xor_backward_each`](super::xor_backward_each) or [`split_backward_each`](super::split_backward_each).
pub type EachSweep<P> = fn(&P, Options, EachLayer) -> Layers<<P as StateSpace>::State>;

/// The symmetry classes of a sweep, by distance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Classes {
    /// The symmetries that act, the identity included (the order of the group; each class has
    /// at most this many states).
    pub symmetries: usize,
    /// `histogram[d]`: the classes at distance `d`, for every layer whose classes were counted
    /// (one fewer than the sweep's layers when a limit stopped the count part-way).
    pub histogram: Vec<u64>,
    /// The time spent counting (within the sweep's elapsed time).
    pub elapsed: Duration,
}

impl Classes {
    /// The classes counted: the sum of the histogram.
    pub fn total(&self) -> u64 {
        self.histogram.iter().sum()
    }
}

/// Why a space's classes are not counted (see the module docs): one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoClasses(pub String);

impl std::fmt::Display for NoClasses {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The symmetries of `space` (the identity included), when its images keep distances to the goal
/// set: it lists some, and maps every goal onto goals. Costs the images of every goal.
pub fn symmetries<P: Indexed + GoalSet + Symmetric>(space: &P) -> Result<usize, NoClasses> {
    let mut symmetries = 1;
    if space.size() > 0 {
        space.images(space.state(0), |_| symmetries += 1);
    }
    if symmetries == 1 {
        return Err(NoClasses(
            "no symmetry maps its moves and goals onto themselves".into(),
        ));
    }
    let mut outside = None;
    space.goals(&mut |goal| {
        if outside.is_none() {
            space.images(goal, |image| {
                if !space.is_goal(image) {
                    outside = Some(space.index(goal));
                }
            });
        }
    });
    match outside {
        Some(index) => Err(NoClasses(format!(
            "the goal set is not closed under its symmetries (an image of the goal at index \
             {index} is not a goal), so they do not keep distances"
        ))),
        None => Ok(symmetries),
    }
}

/// Sweeps `space` backward from its goals with `sweep`, counting the symmetry classes of every
/// layer as it is completed (see the module docs); `on_layer(depth, states so far)` after each,
/// for a progress line. Refused (before anything runs) as [`symmetries`] says.
pub fn backward<P: Indexed + GoalSet + Symmetric + Sync>(
    space: &P,
    sweep: EachSweep<P>,
    options: Options,
    on_layer: &mut dyn FnMut(u32, u64),
) -> Result<(Layers<P::State>, Classes), NoClasses> {
    let symmetries = symmetries(space)?;
    let threads = threads_for(space.size(), options.threads).max(1);
    let pool = pool_for(threads);
    let latch = Latch::new(options.limits);
    let mut classes = Classes {
        symmetries,
        histogram: Vec::new(),
        elapsed: Duration::ZERO,
    };
    let mut found = 0;
    let layers = sweep(space, options, &mut |depth, words| {
        let started = Instant::now();
        let tally = count(space, words, pool.as_ref(), &latch);
        classes.elapsed += started.elapsed();
        let tally = tally.ok_or_else(|| latch.reason().expect("a count stops for a reason"))?;
        classes.histogram.push(tally.classes);
        found += tally.states;
        on_layer(depth, found);
        Ok(())
    });
    Ok((layers, classes))
}

/// The states of a layer and the classes among them.
#[derive(Clone, Copy, Default)]
struct Tally {
    states: u64,
    classes: u64,
}

impl std::iter::Sum for Tally {
    fn sum<I: Iterator<Item = Tally>>(parts: I) -> Tally {
        parts.fold(Tally::default(), |a, b| Tally {
            states: a.states + b.states,
            classes: a.classes + b.classes,
        })
    }
}

/// The states of the bitset `words` and the representatives among them, a chunk of words per
/// task on `pool`; `None` when `latch` stopped it part-way.
fn count<P: Indexed + Symmetric + Sync>(
    space: &P,
    words: &[u64],
    pool: Option<&rayon::ThreadPool>,
    latch: &Latch,
) -> Option<Tally> {
    let tally = over_chunks(pool, words.len(), CHUNK_WORDS, |chunk| {
        let mut ticker = latch.ticker();
        let mut tally = Tally::default();
        // The state decoded last: the next one in index order steps from it where the space
        // can (`Indexed::state_after`).
        let mut last: Option<(u64, P::State)> = None;
        for (w, &word) in words.iter().enumerate().take(chunk.end).skip(chunk.start) {
            let mut bits = word;
            while bits != 0 {
                if ticker.tick(tally.states).is_err() {
                    return tally;
                }
                let index = (w as u64) << 6 | bits.trailing_zeros() as u64;
                bits &= bits - 1;
                let state = match last {
                    Some((at, from)) => space.state_after(at, from, index),
                    None => space.state(index),
                };
                last = Some((index, state));
                tally.states += 1;
                tally.classes += u64::from(space.is_representative(state));
            }
        }
        tally
    });
    latch.reason().is_none().then_some(tally)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limit::{Limit, Limits};
    use crate::search::layers::backward_each;
    use crate::space::Invertible;
    use std::collections::HashSet;

    /// An `n` x `n` torus: a move steps one cell in one of the four directions; the goal is
    /// the corner (0, 0). Its symmetries are the square's eight (the identity and seven images:
    /// the transpose, the two negations and their products), which fix the corner and map the
    /// four steps onto themselves.
    struct Torus {
        n: u32,
        images: Images,
    }

    /// The images a [`Torus`] lists.
    #[derive(PartialEq)]
    enum Images {
        /// The square's symmetries.
        Square,
        /// The translation by one column: steps onto steps, but the goal onto another cell.
        Shift,
        /// None.
        Nothing,
    }

    fn square(n: u32) -> Torus {
        Torus {
            n,
            images: Images::Square,
        }
    }

    impl StateSpace for Torus {
        type State = (u32, u32);
        type Move = u8;
        fn successors(&self, (x, y): (u32, u32), visit: &mut dyn FnMut(u8, (u32, u32))) {
            let n = self.n;
            visit(0, ((x + 1) % n, y));
            visit(1, ((x + n - 1) % n, y));
            visit(2, (x, (y + 1) % n));
            visit(3, (x, (y + n - 1) % n));
        }
        fn is_goal(&self, s: (u32, u32)) -> bool {
            s == (0, 0)
        }
    }
    impl Indexed for Torus {
        fn size(&self) -> u128 {
            (self.n * self.n) as u128
        }
        fn index(&self, (x, y): (u32, u32)) -> u64 {
            (y * self.n + x) as u64
        }
        fn state(&self, i: u64) -> (u32, u32) {
            (i as u32 % self.n, i as u32 / self.n)
        }
    }
    impl Invertible for Torus {
        fn inverse(&self, m: u8) -> u8 {
            m ^ 1
        }
    }
    impl GoalSet for Torus {
        fn goals(&self, visit: &mut dyn FnMut((u32, u32))) {
            visit((0, 0))
        }
    }
    impl Symmetric for Torus {
        fn images<F: FnMut((u32, u32))>(&self, (x, y): (u32, u32), mut visit: F) {
            let n = self.n;
            match self.images {
                Images::Square => {}
                Images::Shift => return visit(((x + 1) % n, y)),
                Images::Nothing => return,
            }
            let (nx, ny) = ((n - x) % n, (n - y) % n);
            for image in [
                (nx, y),
                (x, ny),
                (nx, ny),
                (y, x),
                (ny, x),
                (y, nx),
                (ny, nx),
            ] {
                visit(image)
            }
        }
        fn is_representative(&self, s: (u32, u32)) -> bool {
            let mut least = true;
            self.images(s, |image| least &= self.index(s) <= self.index(image));
            least
        }
    }

    fn sweep(space: &Torus, limits: &Limits) -> (Layers<(u32, u32)>, Classes) {
        let options = Options {
            limits,
            threads: Some(2),
        };
        backward(space, backward_each::<Torus>, options, &mut |_, _| {}).unwrap()
    }

    /// The distance of every cell and, per distance, the orbits as sets of cells (a brute force
    /// that knows no representative) and their number by Burnside's lemma: the mean number of
    /// cells of that distance each of the eight symmetries fixes.
    fn brute_force(space: &Torus) -> (Vec<u64>, Vec<u64>, Vec<u64>) {
        let n = space.n;
        let distance = |(x, y): (u32, u32)| x.min(n - x) + y.min(n - y);
        let deepest = distance((n / 2, n / 2)) as usize;
        let mut states = vec![0u64; deepest + 1];
        let mut orbits: Vec<HashSet<Vec<u64>>> = vec![HashSet::new(); deepest + 1];
        let mut fixed = vec![0u64; deepest + 1];
        for i in 0..space.size() as u64 {
            let s = space.state(i);
            let d = distance(s) as usize;
            states[d] += 1;
            let mut orbit = vec![i];
            fixed[d] += 1; // the identity fixes every cell
            space.images(s, |image| {
                orbit.push(space.index(image));
                fixed[d] += u64::from(image == s);
            });
            orbit.sort_unstable();
            orbit.dedup();
            orbits[d].insert(orbit);
        }
        let classes: Vec<u64> = orbits.iter().map(|o| o.len() as u64).collect();
        let burnside: Vec<u64> = fixed
            .iter()
            .map(|f| {
                assert_eq!(f % 8, 0, "Burnside's sum is a multiple of the order");
                f / 8
            })
            .collect();
        (states, classes, burnside)
    }

    #[test]
    fn classes_by_distance_are_the_orbits_a_brute_force_finds() {
        for n in [1, 2, 5, 8, 11] {
            let space = square(n);
            let (layers, classes) = sweep(&space, &Limits::default());
            let (states, orbits, burnside) = brute_force(&space);
            assert_eq!(layers.histogram, states, "{n} x {n}");
            assert_eq!(classes.histogram, orbits, "{n} x {n}");
            assert_eq!(classes.histogram, burnside, "{n} x {n}");
            assert_eq!(classes.symmetries, 8);
            assert_eq!(layers.stopped, None);
        }
        // 8 x 8: 64 cells, (4 + 1) * (4 + 2) / 2 = 15 classes (x <= y in 0..=4).
        let (_, classes) = sweep(&square(8), &Limits::default());
        assert_eq!(classes.total(), 15);
        assert_eq!(classes.histogram, vec![1, 1, 2, 2, 3, 2, 2, 1, 1]);
    }

    #[test]
    fn a_depth_limit_counts_the_classes_of_every_layer_swept() {
        let limits = Limits {
            max_depth: Some(3),
            ..Limits::default()
        };
        let (layers, classes) = sweep(&square(11), &limits);
        assert_eq!(layers.stopped, Some(Limit::Depth(3)));
        assert_eq!(layers.histogram, vec![1, 4, 8, 12]);
        assert_eq!(classes.histogram, vec![1, 1, 2, 2]);
    }

    #[test]
    fn an_interrupt_stops_the_count_and_says_which_layers_were_counted() {
        static STOP: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(true);
        let limits = Limits {
            interrupt: Some(&STOP),
            ..Limits::default()
        };
        let (layers, classes) = sweep(&square(11), &limits);
        assert_eq!(layers.stopped, Some(Limit::Interrupted));
        // The count of the goal's layer polled first and stopped: the sweep lists the layer,
        // the classes do not.
        assert_eq!(layers.histogram, vec![1]);
        assert_eq!(classes.histogram, Vec::<u64>::new());
    }

    #[test]
    fn images_that_move_the_goal_or_no_images_at_all_are_refused() {
        let limits = Limits::default();
        let options = Options {
            limits: &limits,
            threads: Some(1),
        };
        let refused = |images| {
            let space = Torus { n: 5, images };
            backward(&space, backward_each::<Torus>, options, &mut |_, _| {})
                .unwrap_err()
                .0
        };
        let why = refused(Images::Shift);
        assert!(
            why.starts_with("the goal set is not closed under its symmetries"),
            "{why}"
        );
        assert_eq!(
            refused(Images::Nothing),
            "no symmetry maps its moves and goals onto themselves"
        );
        // A 1 x 1 torus: every image is the corner itself, so the goal is kept.
        assert_eq!(symmetries(&square(1)), Ok(8));
    }
}
