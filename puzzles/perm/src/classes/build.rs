//! A class pattern's table: the abstract space by entry, and its own level-by-level build.
//!
//! # The build
//!
//! The table is this module's own breadth-first search over the entries, level by level, on
//! every core: a level is made forward (each entry of the last level marks its successors)
//! while it is small, backward (each entry not reached yet looks for a successor on the last
//! level) once the unreached are fewer than the frontier's moves. Per class the moves of the
//! representative's place are looked up once (a class move table: per class and move, the class
//! and rotation of the successor's place), and the twists' moves come from a table of their
//! own when the twists go with their slots (by slot, as the 3x3x3's corners' are; per class
//! otherwise), so the work per entry is small-table reads and a read in the successor class's
//! entries, which stay in the caches while one class is done. Per class, B's images under each
//! move and the successor's row start per twist and move are worked out before the inner loop,
//! which then adds two numbers a target. The 3x3x3's table (16 symmetries, mirrors included):
//! 148 s wall on two cores (275 s of CPU, 2.4 GiB at most resident; 258 s, 479 s and 3.7 GiB
//! with the 8 rotations alone, side by side), cached after (BENCHMARKS.md).
//!
//! # The abstract space
//!
//! The abstract space is [`Indexed`] by entry, its successors are computed from the
//! representative (slow, but only the cache's probe and checks use them), and its [`Describe`]
//! covers both parts, the rotations' byte rules and the numbering's version: a table is read
//! back only for the same classes.

use super::numbering::{NUMBERING, SYM_BITS, SYM_MASK, SYMMETRIC};
use super::pattern::ClassPattern;
use crate::space::{PermMove, PermSpace};
use crate::state::Packed;
use statespace::cache::fingerprint::Content;
use statespace::limit::{Latch, Limit, Limits};
use statespace::search::Stats;
use statespace::search::pdb::Abstraction;
use statespace::search::table::DistanceTable;
use statespace::space::{Describe, GoalSet, Indexed, Invertible, StateSpace};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// Unreached, in a 4-bit entry.
const UNREACHED: u64 = 0xF;

/// Entries a worker takes at a time in the build, about (whole classes; the limits are polled
/// between them).
const CHUNK_ENTRIES: u64 = 1 << 16;

impl ClassPattern {
    /// Per class and move: the `class_of` word (class and rotation) of the representative's
    /// place after the move.
    fn class_moves(&self, latch: &Latch) -> Result<Vec<u32>, Limit> {
        let mut table = Vec::with_capacity(self.reps.len() * self.moves.len());
        for (i, &rep) in self.reps.iter().enumerate() {
            if i % (1 << 14) == 0 {
                latch.check()?;
            }
            let a = u64::from(rep) * self.twists;
            self.a.successors(self.a.state(a), &mut |_, p| {
                table.push(self.class_of.get(self.a.index(p) / self.twists));
            });
        }
        Ok(table)
    }

    /// `class`'s twists' moves into `out` (`out[t * moves + m]`): the shared table's when the
    /// twists go with their slots, else from the representative's place.
    pub(super) fn class_twist_moves<'t>(
        &'t self,
        class: usize,
        out: &'t mut Vec<u32>,
    ) -> &'t [u32] {
        if !self.twist_moves.is_empty() {
            return &self.twist_moves;
        }
        out.clear();
        let base = u64::from(self.reps[class]) * self.twists;
        for t in 0..self.twists {
            self.a.successors(self.a.state(base + t), &mut |_, p| {
                out.push((self.a.index(p) % self.twists) as u32)
            });
        }
        out
    }

    /// The exact table, level by level (module docs).
    pub(super) fn build(&self, limits: &Limits) -> Result<DistanceTable, Limit> {
        let row = self.row();
        let size = self.reps.len() as u64 * row;
        let m = self.moves.len();
        let table_bytes = u128::from(size.div_ceil(16)) * 8;
        limits.check_memory(table_bytes + (self.reps.len() * m * 4) as u128)?;
        let started = std::time::Instant::now();
        let latch = Latch::new(limits);
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let class_moves = self.class_moves(&latch)?;
        // Gigabytes: filled under the latch, so the time limit and Ctrl-C hold meanwhile.
        let words = statespace::search::filled(
            size.div_ceil(16) as usize,
            || AtomicU64::new(u64::MAX),
            &latch,
        )?;
        let get = |i: u64| (words[(i / 16) as usize].load(Ordering::Relaxed) >> (i % 16 * 4)) & 0xF;
        // Sets an unreached entry to `d`: an AND, so that two threads setting one entry to the
        // same level agree, and the word's other entries keep theirs.
        // True when this call reached it (the other thread's AND found it reached).
        let set = |i: u64, d: u64| {
            let shift = i % 16 * 4;
            let before =
                words[(i / 16) as usize].fetch_and(!((UNREACHED ^ d) << shift), Ordering::Relaxed);
            (before >> shift) & 0xF == UNREACHED
        };
        set(self.goal, 0);
        let mut histogram = vec![1u64];
        let mut reached = 1u64;
        let (bc, twists) = (self.b_count, self.twists);
        let per_chunk = (CHUNK_ENTRIES / row).max(1) as usize;
        let s = self.syms.len();
        const SLOW: u64 = u64::MAX;
        let chunks = self.reps.len().div_ceil(per_chunk);
        for depth in 0u64.. {
            let frontier = histogram[depth as usize];
            if frontier == 0 || depth + 1 >= UNREACHED {
                break;
            }
            let backward = frontier * m as u64 > (size - reached) * 2;
            let next = AtomicUsize::new(0);
            let found = AtomicU64::new(0);
            std::thread::scope(|scope| -> Result<(), Limit> {
                let workers: Vec<_> = (0..threads)
                    .map(|_| {
                        scope.spawn(|| -> Result<(), Limit> {
                            let mut count = 0u64;
                            let mut own_moves = Vec::new();
                            let (mut b_after, mut t_base) = (Vec::new(), vec![0u64; m]);
                            loop {
                                let k = next.fetch_add(1, Ordering::Relaxed);
                                if k >= chunks {
                                    break;
                                }
                                latch.check()?;
                                let classes =
                                    k * per_chunk..((k + 1) * per_chunk).min(self.reps.len());
                                for class in classes {
                                    let base = class as u64 * row;
                                    let to = &class_moves[class * m..(class + 1) * m];
                                    let twist_moves = self.class_twist_moves(class, &mut own_moves);
                                    // Where move `mv` takes entry `(t, b)`: the successor's
                                    // class, its twist and B taken by the class word's rotation
                                    // (the stabiliser looked at only where the word's flag says
                                    // there is one).
                                    let target = |t: u64, b: u64, mv: usize| -> u64 {
                                        let word = to[mv];
                                        let class = u64::from((word & !SYMMETRIC) >> SYM_BITS);
                                        let t = u64::from(twist_moves[t as usize * m + mv]);
                                        let b = u64::from(self.b_moves[b as usize * m + mv]);
                                        self.cell_in(class, word, t, b)
                                    };
                                    // The same, taken apart so that the inner loop over B adds
                                    // two numbers: per move, B's image under the move and the
                                    // word's rotation (`b_after[mv * |B| + b]`), and per twist
                                    // and move the successor's row start (`t_base[mv]`, SLOW
                                    // where the successor class is symmetric: `target` then).
                                    b_after.clear();
                                    // With one twist the table would cost what it saves
                                    // (vcube's B has 153,090 states): B is taken inline.
                                    for (mv, &word) in to.iter().enumerate().filter(|_| twists > 1)
                                    {
                                        let j = (word & SYM_MASK) as usize;
                                        b_after.extend((0..bc as usize).map(|b| {
                                            let moved = self.b_moves[b * m + mv] as usize;
                                            u64::from(self.b_images[moved * s + j])
                                        }));
                                    }
                                    // A symmetric class's entries of non-least `(t, b)` stand
                                    // for no class (their twin is the least image): never
                                    // set, or a backward level could give one a distance
                                    // larger than its twin's.
                                    let symmetric = self.is_symmetric(class);
                                    for t in 0..twists {
                                        for (mv, &word) in to.iter().enumerate() {
                                            t_base[mv] = if word & SYMMETRIC == 0 {
                                                let j = (word & SYM_MASK) as usize;
                                                let next =
                                                    u64::from((word & !SYMMETRIC) >> SYM_BITS);
                                                let twist =
                                                    twist_moves[t as usize * m + mv] as usize;
                                                next * row
                                                    + u64::from(self.twist_images[twist * s + j])
                                                        * bc
                                            } else {
                                                SLOW
                                            };
                                        }
                                        let after = |b: u64, mv: usize| -> u64 {
                                            match t_base[mv] {
                                                SLOW => target(t, b, mv),
                                                start if twists > 1 => {
                                                    start + b_after[mv * bc as usize + b as usize]
                                                }
                                                start => {
                                                    let j = (to[mv] & SYM_MASK) as usize;
                                                    let moved =
                                                        self.b_moves[b as usize * m + mv] as usize;
                                                    start + u64::from(self.b_images[moved * s + j])
                                                }
                                            }
                                        };
                                        for b in 0..bc {
                                            let within = t * bc + b;
                                            if symmetric && self.least(class, t, b) != within {
                                                continue;
                                            }
                                            let here = get(base + within);
                                            if backward {
                                                if here == UNREACHED
                                                    && (0..m).any(|mv| get(after(b, mv)) == depth)
                                                {
                                                    count +=
                                                        u64::from(set(base + within, depth + 1));
                                                }
                                            } else if here == depth {
                                                for mv in 0..m {
                                                    let next = after(b, mv);
                                                    if get(next) == UNREACHED {
                                                        count += u64::from(set(next, depth + 1));
                                                    }
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                            found.fetch_add(count, Ordering::Relaxed);
                            Ok(())
                        })
                    })
                    .collect();
                for worker in workers {
                    worker.join().expect("a class-table worker panicked")?;
                }
                Ok(())
            })?;
            let new = found.load(Ordering::Relaxed);
            histogram.push(new);
            reached += new;
        }
        while histogram.last() == Some(&0) {
            histogram.pop();
        }
        let stats = Stats {
            expanded: reached,
            visited: reached,
            depth: histogram.len().saturating_sub(1) as u32,
            elapsed: started.elapsed(),
            ..Stats::default()
        };
        // An `AtomicU64` has the size, alignment and bits of a `u64`.
        let words: Vec<u64> = words.into_iter().map(AtomicU64::into_inner).collect();
        Ok(DistanceTable::from_nibble_codes(
            size, words, histogram, stats,
        ))
    }
}

impl StateSpace for ClassPattern {
    type State = u64;
    type Move = PermMove;

    /// The representative's successors, each taken to its class's entry (slow: for the
    /// cache's probe and checks; the build has its own tables).
    fn successors(&self, cell: u64, visit: &mut dyn FnMut(PermMove, u64)) {
        let (class, within) = (cell / self.row(), cell % self.row());
        let (t, b) = (within / self.b_count, within % self.b_count);
        let a = u64::from(self.reps[class as usize]) * self.twists + t;
        let mut at = 0;
        let m = self.moves.len();
        self.a.successors(self.a.state(a), &mut |mv, p| {
            let moved = u64::from(self.b_moves[b as usize * m + at]);
            at += 1;
            visit(mv, self.cell(self.a.index(p), moved));
        });
    }

    fn is_goal(&self, cell: u64) -> bool {
        cell == self.goal
    }
}

impl Indexed for ClassPattern {
    fn size(&self) -> u128 {
        u128::from(self.reps.len() as u64 * self.row())
    }

    fn index(&self, cell: u64) -> u64 {
        cell
    }

    fn state(&self, index: u64) -> u64 {
        index
    }
}

impl Invertible for ClassPattern {
    fn inverse(&self, m: PermMove) -> PermMove {
        self.a.inverse(m)
    }
}

impl GoalSet for ClassPattern {
    fn goals(&self, visit: &mut dyn FnMut(u64)) {
        visit(self.goal)
    }
}

/// Both parts, the rotations' byte rules, the numbering's version: what decides which entry
/// holds which class.
impl Describe for ClassPattern {
    fn describe(&self, content: &mut Content) {
        content.str("perm class pattern").u64(NUMBERING);
        self.a.describe(content);
        // Written only when A is numbered whole: the fingerprints of the tables before stay.
        if self.whole > 0 {
            content.str("whole");
        }
        self.b.describe(content);
        content
            .str("rotations")
            .u64(self.syms.len() as u64)
            .bytes(&self.rules);
    }
}

impl<const N: usize> Abstraction<PermSpace<N>> for ClassPattern {
    type Space = ClassPattern;

    fn space(&self) -> &ClassPattern {
        self
    }

    #[inline]
    fn project(&self, _: &PermSpace<N>, state: Packed<N>) -> u64 {
        self.project_state(&state)
    }

    /// A move turns many pieces at once: every move may count (as for
    /// [`Pattern`](crate::heuristic::Pattern)).
    fn pieces(&self) -> u64 {
        u64::MAX
    }

    fn build_table(&self, limits: &Limits) -> Result<DistanceTable, Limit> {
        self.build(limits)
    }

    /// The table and the class move table beside it.
    fn build_bytes(&self) -> u128 {
        self.size().div_ceil(16) * 8 + (self.reps.len() * self.moves.len() * 4) as u128
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classes::ClassPart;
    use crate::fixtures::{class_pattern, cube};
    use crate::heuristic::Pattern;

    /// The plain table of both parts, by a breadth-first search over every pair `(a, b)`.
    fn plain_distances(pattern: &ClassPattern) -> Vec<u8> {
        let (ac, bc) = (pattern.a.size() as usize, pattern.b_count as usize);
        let m = pattern.moves.len();
        let mut dist = vec![u8::MAX; ac * bc];
        let solved = |p: &Pattern| p.goal_index_for_tests();
        let goal = solved(&pattern.a) as usize * bc + solved(&pattern.b) as usize;
        dist[goal] = 0;
        let mut frontier = vec![goal];
        let mut d = 0;
        while !frontier.is_empty() {
            let mut next = Vec::new();
            for &i in &frontier {
                let (a, b) = (i / bc, i % bc);
                let mut at = 0;
                pattern
                    .a
                    .successors(pattern.a.state(a as u64), &mut |_, p| {
                        let to =
                            pattern.a.index(p) as usize * bc + pattern.b_moves[b * m + at] as usize;
                        at += 1;
                        if dist[to] == u8::MAX {
                            dist[to] = d + 1;
                            next.push(to);
                        }
                    });
            }
            frontier = next;
            d += 1;
        }
        dist
    }

    /// Every abstract state's entry in the class table is its distance in the plain one, and
    /// the class table is smaller by about the rotations' number.
    fn same_as_plain(a: &[u8], b: &[u8], rotations: usize) {
        let space = cube();
        same_pattern_as_plain(class_pattern(&space, a, b), rotations);
    }

    fn same_pattern_as_plain(pattern: ClassPattern, rotations: usize) {
        assert_eq!(pattern.rotations(), rotations, "{}", pattern.name());
        let table = pattern.build(&Limits::default()).unwrap();
        let plain = plain_distances(&pattern);
        let bc = pattern.b_count;
        for a in 0..pattern.a.size() as u64 {
            for b in 0..bc {
                let want = plain[(a * bc + b) as usize];
                let got = table.code(pattern.cell(a, b));
                assert_eq!(
                    got,
                    (want != u8::MAX).then_some(u64::from(want)),
                    "a {a} b {b}"
                );
            }
        }
        let states = pattern.class_of.len();
        assert!(pattern.classes() * rotations as u64 >= states);
        // Fewer classes than places (a class of symmetric places is smaller than the
        // rotations' number: few on the 3x3x3's corners, many among two corners' 56 places).
        assert!(pattern.classes() < states, "{} classes", pattern.classes());
        // The entries of no class (a symmetric class's non-least sets) are never reached, and
        // the table passes the cache's check of every entry against its successors.
        for class in 0..pattern.classes() as usize {
            for within in 0..pattern.row() {
                let cell = class as u64 * pattern.row() + within;
                let (t, b) = (within / bc, within % bc);
                let canonical = pattern.least(class, t, b) == within;
                assert_eq!(
                    table.code(cell).is_some(),
                    canonical,
                    "class {class} t {t} b {b}"
                );
            }
        }
        let recipe = statespace::search::table::cached::Recipe::pattern_database();
        for _ in 0..20 {
            statespace::search::table::verify(&pattern, &table, &recipe).unwrap();
        }
        // The histogram counts one entry per class of abstract states.
        assert_eq!(table.reachable(), table.histogram().iter().sum::<u64>());
        assert!(
            table.reachable() * rotations as u64
                >= plain.iter().filter(|&&d| d != u8::MAX).count() as u64
        );
    }

    #[test]
    fn perm_class_table_equals_the_plain_table_two_rotations() {
        // Opposite corners and opposite edges of the up face: the half turn about its axis.
        same_as_plain(&[1, 3], &[1, 3], 2);
    }

    #[test]
    fn perm_class_table_equals_the_plain_table_with_symmetric_representatives() {
        // Two opposite up corners and the middle layer: the half turn and the two mirrors
        // through the planes that hold the up axis and one of the corners' diagonals, and the
        // solved corners (and others) fixed by them, whose middle-layer sets are canonicalised.
        same_as_plain(&[1, 3], &[9, 10, 11, 12], 4);
    }

    /// A numbered whole (a middle-layer edge, its flip changed by the turns that keep it) and
    /// B a set with twists (the up-layer corners' slots and every corner's twist), read
    /// through the symmetries that swap up and down as the set's complement: the table is the
    /// plain one's, entry for entry.
    #[test]
    fn perm_class_table_equals_the_plain_table_numbered_whole_with_twisted_sets() {
        let space = cube();
        let edge = ClassPart::plain(1, vec![8]);
        let corners = ClassPart {
            with_twists: true,
            ..ClassPart::plain(0, vec![0, 1, 2, 3])
        };
        let pattern = ClassPattern::new(&space, &edge, &corners, &Limits::default(), None).unwrap();
        assert!(pattern.whole > 0);
        let (symmetries, solved) = (space.symmetries(), space.solved());
        let reads = |k| pattern.b.reads(symmetries, &solved, k);
        let complements = pattern.syms.iter().filter(|&&k| reads(k) != reads(None));
        assert_eq!(
            complements.count(),
            2,
            "the turn and the mirror that swap up and down"
        );
        same_pattern_as_plain(pattern, 4);
    }
}
