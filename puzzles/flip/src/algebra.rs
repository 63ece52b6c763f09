//! The fewest presses on a Flip board of any size, by linear algebra over GF(2).
//!
//! Presses commute and a second press of a cell cancels the first, so a solution is a *set* of
//! cells `p` with `flips(p) = start ^ target`: a linear system over GF(2) in one unknown per cell.
//! [`solve`] finds every solution of it and the one with the fewest presses, in four steps.
//!
//! 1. **Light chasing** reduces the R*C unknowns to the first row's C. Row `r`'s cells must end
//!    right, and only row `r + 1`'s presses can still change them, so
//!    `p[r+1] = d[r] ^ T(p[r]) ^ p[r-1]` (`d = start ^ target`, `T` = a press's horizontal part).
//!    Every row is then an affine function of `p[0]`; the last row's cells give C equations.
//!    The affine functions are tracked *per cell*, as bit vectors over the unknowns plus one
//!    constant bit per target, so one chase serves every target and each step is XORs of whole
//!    words (64 unknowns at a time): `R * C * ceil((C+2)/64)` word operations.
//!    On a torus (`wrap`, 3 rows or more) row 0 depends on the last row too: the unknowns are the
//!    first two rows (2C), the chase runs two rows past the end, and the equations say it came
//!    back to where it started. That keeps the system at 2C unknowns instead of Gaussian
//!    elimination on all R*C (cubic in the cells: 10^12 operations at 100 x 100).
//!    The board is transposed first when it is wider than tall, so C is the shorter side.
//! 2. **Gauss-Jordan elimination** of the C (or 2C) equations gives the rank, which targets are
//!    consistent (`Impossible` when none is), a particular solution and a null-space basis; the
//!    nullity `k` says 2^k press sets reach each consistent target.
//! 3. Each solution of the small system is **chased back to a full press set** (word-parallel,
//!    one row at a time).
//! 4. **The minimum**: the 2^k sets are enumerated in Gray-code order, so each next set differs
//!    from the last by one basis pattern, and the press count is updated from the words that
//!    pattern touches (sparse, sparsest pattern flipped most often). The result is proven minimal.
//!    When 2^k is too many ([`MAX_ENUMERATED_NULLITY`], or more than [`ENUMERATION_BUDGET`] word
//!    operations) or a time limit passes, a greedy descent (add a basis pattern while that lowers
//!    the count) gives a valid answer marked `minimal: false`: never a claimed minimum that was
//!    not proven.
//!
//! Cost: chase and elimination are `O(R * C^2 / 64)` for C <= R; a random 100 x 100 board takes
//! about a millisecond. Memory: a few boards plus two chase rows of `C * ceil((C+2)/64)` words
//! and the equations, checked against [`Limits::memory_budget`] before anything is allocated.
//! Boards are limited to [`MAX_SIDE`] a side and [`MAX_CELLS`] cells, because the answer lists
//! every press as a label.

use super::bitboard::{BitBoard, spread_row, words_for};
use super::board::Geometry;
use statespace::limit::{Latch, Limit, Limits};
use statespace::search::Stats;

/// The longest side the solver accepts.
pub const MAX_SIDE: u32 = 4096;

/// The most cells the solver accepts (2048 x 2048): the answer can list that many press labels.
pub const MAX_CELLS: u64 = 1 << 22;

/// The largest nullity whose 2^k press sets are enumerated for a proven minimum.
pub const MAX_ENUMERATED_NULLITY: u32 = 30;

/// Word operations the enumeration may take (about a second); a null space that needs more is
/// searched greedily and the answer is marked not minimal.
pub const ENUMERATION_BUDGET: u64 = 1 << 31;

/// A press set that solves the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PressSet {
    /// The pressed cells.
    pub presses: BitBoard,
    /// The index of the target it reaches, in the `targets` given to [`solve`].
    pub target: usize,
    /// Whether no press set with fewer presses reaches any target (proven by enumeration).
    pub minimal: bool,
}

/// How a solve ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AlgebraOutcome {
    /// The fewest presses found (proven minimal when `minimal`).
    Solved(PressSet),
    /// No press set reaches any target: every target's system is inconsistent.
    Unsolvable,
    /// Refused (memory) or no answer within `max_depth`.
    LimitReached(Limit),
}

/// The outcome with what the algebra found on the way.
#[derive(Clone, Debug)]
pub struct AlgebraReport {
    /// How the solve ended.
    pub outcome: AlgebraOutcome,
    /// The dimension of the null space: 2^nullity press sets reach each reachable target.
    /// `None` when the run was refused before the elimination.
    pub nullity: Option<u32>,
    /// `expanded`: null-space combinations evaluated; `depth`: presses in the answer;
    /// `elapsed`: wall-clock time. The other counts stay 0.
    pub stats: Stats,
}

/// The fewest presses that turn `start` into one of `targets`.
///
/// - `geometry`: the size and `wrap`; at most [`MAX_SIDE`] a side and [`MAX_CELLS`] cells.
/// - `start`, `targets`: boards of that size (a uniform goal has two targets, white and black).
/// - `limits`: `memory_budget` is checked before allocating; `time_limit` cuts the enumeration
///   short (the answer is then marked not minimal); an answer deeper than `max_depth` is
///   reported as [`Limit::Depth`]. `max_states` does not apply.
///
/// ```
/// use statespace_flip::{BitBoard, Geometry, algebra};
/// use statespace::limit::Limits;
/// let g = Geometry { rows: 3, cols: 3, wrap: false };
/// let mut start = BitBoard::new(3, 3);
/// start.press(1, 1, false); // a plus in the middle: one press clears it
/// let white = BitBoard::new(3, 3);
/// let report = algebra::solve(g, &start, &[white], &Limits::default());
/// let algebra::AlgebraOutcome::Solved(set) = report.outcome else { panic!() };
/// assert_eq!(set.presses.ones().collect::<Vec<_>>(), vec![(1, 1)]);
/// assert!(set.minimal);
/// assert_eq!(report.nullity, Some(0));
/// ```
pub fn solve(
    geometry: Geometry,
    start: &BitBoard,
    targets: &[BitBoard],
    limits: &Limits,
) -> AlgebraReport {
    let latch = Latch::new(limits);
    assert!(geometry.rows >= 1 && geometry.cols >= 1 && !targets.is_empty());
    assert!(geometry.rows <= MAX_SIDE && geometry.cols <= MAX_SIDE);
    assert_eq!((start.rows(), start.cols()), (geometry.rows, geometry.cols));
    // Chase along the longer side: the system has one unknown per cell of the shorter one.
    let mut report = if geometry.cols > geometry.rows {
        let flipped = Geometry {
            rows: geometry.cols,
            cols: geometry.rows,
            wrap: geometry.wrap,
        };
        let targets: Vec<BitBoard> = targets.iter().map(BitBoard::transposed).collect();
        let mut report = solve_tall(flipped, &start.transposed(), &targets, limits, &latch);
        if let AlgebraOutcome::Solved(set) = &mut report.outcome {
            set.presses = set.presses.transposed();
        }
        report
    } else {
        solve_tall(geometry, start, targets, limits, &latch)
    };
    report.stats.elapsed = latch.elapsed();
    report
}

/// [`solve`] on a board with `cols <= rows`.
fn solve_tall(
    geometry: Geometry,
    start: &BitBoard,
    targets: &[BitBoard],
    limits: &Limits,
    latch: &Latch,
) -> AlgebraReport {
    let mut stats = Stats::default();
    let refused = |limit, stats| AlgebraReport {
        outcome: AlgebraOutcome::LimitReached(limit),
        nullity: None,
        stats,
    };
    let chase = Chase::new(geometry, targets.len());
    // Two chase buffers, the equations, and the few boards the minimisation holds at once.
    let board_bytes = BitBoard::bytes_needed(geometry.rows, geometry.cols);
    let needed = chase.bytes_needed() + board_bytes * (targets.len() as u128 + 4);
    if let Err(limit) = limits.check_memory(needed) {
        return refused(limit, stats);
    }
    let system = chase.equations(start, targets).eliminate();
    let nullity = system.nullity();
    let solutions: Vec<(usize, BitBoard)> = (0..targets.len())
        .filter_map(|t| system.particular(t).map(|x| (t, x)))
        .map(|(t, x)| {
            let presses = chase.presses(&x, Some((start, &targets[t])));
            (t, presses)
        })
        .collect();
    if solutions.is_empty() {
        return AlgebraReport {
            outcome: AlgebraOutcome::Unsolvable,
            nullity: Some(nullity),
            stats,
        };
    }
    let basis = NullSpace::new(&chase, &system, limits);
    // A time limit or Ctrl-C cuts the enumeration short: the answer stays valid, not proven.
    let mut candidates = Vec::with_capacity(solutions.len());
    for (target, presses) in solutions {
        let (presses, minimal, tried) = basis.minimise(presses, latch);
        stats.expanded += tried;
        candidates.push(PressSet {
            presses,
            target,
            minimal,
        });
    }
    // Proven only if every target's minimum was: one that was not might hide a smaller set.
    let all_minimal = candidates.iter().all(|c| c.minimal);
    let mut best = candidates
        .into_iter()
        .min_by_key(|c| c.presses.count_ones())
        .expect("at least one consistent target");
    best.minimal = all_minimal;
    // An independent check of the whole pipeline: the presses must turn start into the target.
    let mut end = best.presses.flips_of(geometry.wrap);
    end.xor_with(start);
    assert_eq!(
        end, targets[best.target],
        "algebraic presses miss the target"
    );
    let count = best.presses.count_ones();
    stats.depth = count.min(u32::MAX as u64) as u32;
    if let Some(max) = limits.max_depth
        && count > max as u64
    {
        return AlgebraReport {
            outcome: AlgebraOutcome::LimitReached(Limit::Depth(max)),
            nullity: Some(nullity),
            stats,
        };
    }
    AlgebraReport {
        outcome: AlgebraOutcome::Solved(best),
        nullity: Some(nullity),
        stats,
    }
}

/// The light chase of one geometry (with `cols <= rows`): builds the equations in the first
/// row's (torus: first two rows') presses, and turns a solution of them back into a press set.
struct Chase {
    geometry: Geometry,
    /// The torus wraps vertically: from 3 rows on (with 1 or 2 rows the cells above and below
    /// are the same as on a plain board, as a set).
    vertical_wrap: bool,
    /// Unknowns: C, or 2C when `vertical_wrap`.
    unknowns: usize,
    /// Words of one affine function: `ceil((unknowns + targets) / 64)`.
    width: usize,
    /// Each cell's distinct horizontal neighbours (as a set: on a 2-wide torus left = right).
    neighbours: Vec<[Option<u32>; 2]>,
}

impl Chase {
    fn new(geometry: Geometry, targets: usize) -> Self {
        let (rows, cols) = (geometry.rows, geometry.cols);
        let vertical_wrap = geometry.wrap && rows >= 3;
        let unknowns = cols as usize * if vertical_wrap { 2 } else { 1 };
        let neighbours = (0..cols)
            .map(|c| {
                let side = |delta: i64| {
                    let n = c as i64 + delta;
                    let n = if geometry.wrap {
                        n.rem_euclid(cols as i64)
                    } else {
                        n
                    };
                    (n >= 0 && n < cols as i64 && n != c as i64).then_some(n as u32)
                };
                let (left, right) = (side(-1), side(1));
                [left, if right == left { None } else { right }]
            })
            .collect();
        Chase {
            geometry,
            vertical_wrap,
            unknowns,
            width: words_for(unknowns + targets),
            neighbours,
        }
    }

    /// Two rows of affine functions and the equations.
    fn bytes_needed(&self) -> u128 {
        let row = self.geometry.cols as u128 * self.width as u128 * 8;
        2 * row + self.unknowns as u128 * self.width as u128 * 8
    }

    /// The equations: one per cell of the row past the last (torus: of the two rows past the
    /// last, compared with the first two), each `unknowns` coefficients then one constant per
    /// target, meaning `sum(coefficient * x) = constant`.
    fn equations(&self, start: &BitBoard, targets: &[BitBoard]) -> System {
        let (rows, cols, width) = (self.geometry.rows, self.geometry.cols as usize, self.width);
        // `previous` holds p[r-1], `current` p[r], one affine function (`width` words) per cell.
        let mut previous = vec![0u64; cols * width];
        let mut current = vec![0u64; cols * width];
        let unit = |buffer: &mut [u64], cell: usize, unknown: usize| {
            buffer[cell * width + unknown / 64] |= 1u64 << (unknown % 64);
        };
        let first_step = if self.vertical_wrap {
            for c in 0..cols {
                unit(&mut previous, c, c); // p[0] = x[0..C]
                unit(&mut current, c, cols + c); // p[1] = x[C..2C]
            }
            1
        } else {
            for c in 0..cols {
                unit(&mut current, c, c); // p[0] = x[0..C], p[-1] = 0
            }
            0
        };
        let last_step = if self.vertical_wrap { rows } else { rows - 1 };
        let mut equations = Vec::with_capacity(self.unknowns * width);
        for r in first_step..=last_step {
            // p[r+1] = d[r] ^ T(p[r]) ^ p[r-1], written over p[r-1] cell by cell.
            let board_row = r % rows;
            for c in 0..cols {
                let next = &mut previous[c * width..(c + 1) * width];
                for cell in
                    std::iter::once(c as u32).chain(self.neighbours[c].into_iter().flatten())
                {
                    let from = &current[cell as usize * width..(cell as usize + 1) * width];
                    for (n, f) in next.iter_mut().zip(from) {
                        *n ^= f;
                    }
                }
                for (t, target) in targets.iter().enumerate() {
                    if start.get(board_row, c as u32) != target.get(board_row, c as u32) {
                        let column = self.unknowns + t;
                        next[column / 64] ^= 1u64 << (column % 64);
                    }
                }
            }
            std::mem::swap(&mut previous, &mut current);
            // On a torus, p[R] must equal p[0] and p[R+1] must equal p[1]: the equation is the
            // chased function XOR the unknown it must equal (a copy: the chase goes on).
            if self.vertical_wrap && r >= rows - 1 {
                let first = if r == rows - 1 { 0 } else { cols };
                let at = equations.len();
                equations.extend_from_slice(&current);
                for c in 0..cols {
                    let unknown = first + c;
                    equations[at + c * width + unknown / 64] ^= 1u64 << (unknown % 64);
                }
            }
        }
        if !self.vertical_wrap {
            equations = current; // p[R] must be 0
        }
        System {
            unknowns: self.unknowns,
            width,
            equations,
            pivots: Vec::new(),
        }
    }

    /// The press set that the unknowns `x` force (with the start/target difference, or none for
    /// a null-space vector), chased row by row 64 cells at a time.
    fn presses(&self, x: &[u64], difference: Option<(&BitBoard, &BitBoard)>) -> BitBoard {
        let (rows, cols) = (self.geometry.rows, self.geometry.cols);
        let mut presses = BitBoard::new(rows, cols);
        let wpr = presses.words_per_row();
        let bit = |i: usize| x[i / 64] >> (i % 64) & 1 == 1;
        let given_rows = if self.vertical_wrap { 2 } else { 1 };
        for r in 0..given_rows {
            for c in 0..cols {
                if bit(r as usize * cols as usize + c as usize) {
                    presses.set(r, c, true);
                }
            }
        }
        let mut next = vec![0u64; wpr];
        for r in given_rows - 1..rows - 1 {
            next.fill(0);
            spread_row(presses.row(r), &mut next, cols as usize, self.geometry.wrap);
            if r > 0 {
                xor_into(&mut next, presses.row(r - 1));
            }
            if let Some((start, target)) = difference {
                xor_into(&mut next, start.row(r));
                xor_into(&mut next, target.row(r));
            }
            presses.row_mut(r + 1).copy_from_slice(&next);
        }
        presses
    }
}

fn xor_into(dst: &mut [u64], src: &[u64]) {
    for (d, s) in dst.iter_mut().zip(src) {
        *d ^= s;
    }
}

/// Equations over GF(2): rows of `width` words, `unknowns` coefficient bits then one constant bit
/// per target.
struct System {
    unknowns: usize,
    width: usize,
    equations: Vec<u64>,
    /// After elimination: `(equation, column)` of each pivot; equation `i` is the i-th pivot's.
    pivots: Vec<(usize, usize)>,
}

impl System {
    fn bit(&self, equation: usize, column: usize) -> bool {
        self.equations[equation * self.width + column / 64] >> (column % 64) & 1 == 1
    }

    /// Gauss-Jordan: reduced row echelon form over the coefficient columns. A pivot row has
    /// zeros left of its pivot, so each XOR starts at the pivot's word.
    fn eliminate(mut self) -> System {
        let width = self.width;
        let count = self.equations.len() / width;
        let mut rank = 0;
        for column in 0..self.unknowns {
            let word = column / 64;
            let mask = 1u64 << (column % 64);
            let Some(found) = (rank..count).find(|&e| self.equations[e * width + word] & mask != 0)
            else {
                continue;
            };
            if found != rank {
                for w in word..width {
                    self.equations.swap(found * width + w, rank * width + w);
                }
            }
            let (before, rest) = self.equations.split_at_mut(rank * width);
            let (pivot, after) = rest.split_at_mut(width);
            for other in before
                .chunks_exact_mut(width)
                .chain(after.chunks_exact_mut(width))
            {
                if other[word] & mask != 0 {
                    for w in word..width {
                        other[w] ^= pivot[w];
                    }
                }
            }
            self.pivots.push((rank, column));
            rank += 1;
        }
        self
    }

    fn nullity(&self) -> u32 {
        (self.unknowns - self.pivots.len()) as u32
    }

    /// A solution for target `t` (free unknowns 0), or `None` when its equations are
    /// inconsistent (an equation with no coefficient left but a constant of 1).
    fn particular(&self, t: usize) -> Option<Vec<u64>> {
        let constant = self.unknowns + t;
        let count = self.equations.len() / self.width;
        if (self.pivots.len()..count).any(|e| self.bit(e, constant)) {
            return None;
        }
        let mut x = vec![0u64; words_for(self.unknowns)];
        for &(e, column) in &self.pivots {
            if self.bit(e, constant) {
                x[column / 64] |= 1u64 << (column % 64);
            }
        }
        Some(x)
    }

    /// The null-space basis vector of free column `free`: that unknown 1, every pivot unknown
    /// what its equation then demands.
    fn null_vector(&self, free: usize) -> Vec<u64> {
        let mut x = vec![0u64; words_for(self.unknowns)];
        x[free / 64] |= 1u64 << (free % 64);
        for &(e, column) in &self.pivots {
            if self.bit(e, free) {
                x[column / 64] |= 1u64 << (column % 64);
            }
        }
        x
    }

    fn free_columns(&self) -> Vec<usize> {
        let mut is_pivot = vec![false; self.unknowns];
        for &(_, c) in &self.pivots {
            is_pivot[c] = true;
        }
        (0..self.unknowns).filter(|&c| !is_pivot[c]).collect()
    }
}

/// The null space as press patterns: adding any of them to a solution gives another solution.
struct NullSpace<'a> {
    chase: &'a Chase,
    system: &'a System,
    /// The free columns, one basis vector each.
    free: Vec<usize>,
    /// Every basis pattern, sparse over the words where any of them is non-zero, sparsest
    /// first; `None` when the nullity is too large to enumerate (or to hold in memory).
    enumerable: Option<Sparse>,
}

/// Basis patterns restricted to `support` (the words where any is non-zero), each a list of
/// `(index into support, word)`.
struct Sparse {
    support: Vec<usize>,
    patterns: Vec<Vec<(u32, u64)>>,
    /// Word operations one full enumeration takes.
    cost: u64,
}

impl<'a> NullSpace<'a> {
    fn new(chase: &'a Chase, system: &'a System, limits: &Limits) -> Self {
        let free = system.free_columns();
        let k = free.len() as u32;
        let g = chase.geometry;
        let pattern_bytes = BitBoard::bytes_needed(g.rows, g.cols);
        // Dense patterns first, then the sparse copy: at most twice the dense size.
        let fits = limits
            .check_memory(pattern_bytes * 3 * k as u128 + pattern_bytes * 8)
            .is_ok();
        let enumerable = (k <= MAX_ENUMERATED_NULLITY && fits).then(|| {
            let dense: Vec<BitBoard> = free
                .iter()
                .map(|&f| chase.presses(&system.null_vector(f), None))
                .collect();
            let words = dense.first().map_or(0, |d| d.words().len());
            let support: Vec<usize> = (0..words)
                .filter(|&w| dense.iter().any(|d| d.words()[w] != 0))
                .collect();
            let mut patterns: Vec<Vec<(u32, u64)>> = dense
                .iter()
                .map(|d| {
                    support
                        .iter()
                        .enumerate()
                        .filter(|&(_, &w)| d.words()[w] != 0)
                        .map(|(i, &w)| (i as u32, d.words()[w]))
                        .collect()
                })
                .collect();
            // Gray code flips bit j 2^(k-1-j) times: the sparsest pattern gets bit 0.
            patterns.sort_by_key(Vec::len);
            let cost = patterns
                .iter()
                .enumerate()
                .map(|(j, p)| (p.len() as u64 + 1) << (k - 1 - j as u32))
                .fold(0u64, u64::saturating_add);
            Sparse {
                support,
                patterns,
                cost,
            }
        });
        NullSpace {
            chase,
            system,
            free,
            enumerable,
        }
    }

    /// The fewest presses among `presses` plus any combination of the basis: `(press set,
    /// proven minimal, combinations evaluated)`.
    /// A time limit or Ctrl-C (`latch`, ticked with the combinations) ends the enumeration: the
    /// answer is then not proven minimal.
    fn minimise(&self, presses: BitBoard, latch: &Latch) -> (BitBoard, bool, u64) {
        match &self.enumerable {
            _ if self.free.is_empty() => (presses, true, 1),
            Some(sparse) if sparse.cost <= ENUMERATION_BUDGET => {
                self.enumerate(sparse, presses, latch)
            }
            _ => {
                let (presses, tried) = self.descend(presses);
                (presses, false, tried)
            }
        }
    }

    /// Every combination, in Gray-code order, keeping a running press count.
    fn enumerate(
        &self,
        sparse: &Sparse,
        mut presses: BitBoard,
        latch: &Latch,
    ) -> (BitBoard, bool, u64) {
        let mut ticker = latch.ticker();
        let k = sparse.patterns.len() as u32;
        let mut current: Vec<u64> = sparse.support.iter().map(|&w| presses.words()[w]).collect();
        let mut count = presses.count_ones() as i64;
        let (mut best_count, mut best_code) = (count, 0u64);
        let mut complete = true;
        let mut tried = 1u64;
        for i in 1u64..1u64 << k {
            // Gray code i ^ (i >> 1) differs from the previous one in bit trailing_zeros(i).
            for &(at, word) in &sparse.patterns[i.trailing_zeros() as usize] {
                let old = current[at as usize];
                let new = old ^ word;
                current[at as usize] = new;
                count += new.count_ones() as i64 - old.count_ones() as i64;
            }
            tried += 1;
            if count < best_count {
                best_count = count;
                best_code = i ^ (i >> 1);
            }
            if ticker.tick(i).is_err() {
                complete = false;
                break;
            }
        }
        let words = presses.words_mut();
        for (j, pattern) in sparse.patterns.iter().enumerate() {
            if best_code >> j & 1 == 1 {
                for &(at, word) in pattern {
                    words[sparse.support[at as usize]] ^= word;
                }
            }
        }
        debug_assert_eq!(presses.count_ones() as i64, best_count);
        (presses, complete, tried)
    }

    /// Greedy descent: add a basis pattern whenever that lowers the press count, until none
    /// does or the work budget is spent. Valid, not proven minimal.
    fn descend(&self, mut presses: BitBoard) -> (BitBoard, u64) {
        let pattern_words = presses.words().len() as u64;
        let mut work = 0u64;
        let mut tried = 1u64;
        let mut count = presses.count_ones();
        let mut improved = true;
        while improved && work < ENUMERATION_BUDGET {
            improved = false;
            for &f in &self.free {
                if work >= ENUMERATION_BUDGET {
                    break;
                }
                let pattern = self.chase.presses(&self.system.null_vector(f), None);
                let mut candidate = presses.clone();
                candidate.xor_with(&pattern);
                work += 4 * pattern_words;
                tried += 1;
                let n = candidate.count_ones();
                if n < count {
                    (presses, count, improved) = (candidate, n, true);
                }
            }
        }
        (presses, tried)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn geometry(rows: u32, cols: u32, wrap: bool) -> Geometry {
        Geometry { rows, cols, wrap }
    }

    fn nullity(g: Geometry) -> u32 {
        let white = BitBoard::new(g.rows, g.cols);
        solve(g, &white, std::slice::from_ref(&white), &Limits::default())
            .nullity
            .unwrap()
    }

    #[test]
    fn known_nullities() {
        // The 4x4 plain board has 2^16 / 2^4 = 4096 reachable boards; the 5x5 has nullity 2.
        assert_eq!(nullity(geometry(4, 4, false)), 4);
        assert_eq!(nullity(geometry(5, 5, false)), 2);
        assert_eq!(nullity(geometry(3, 3, false)), 0);
        // Transposed shapes have the same null space dimension.
        assert_eq!(
            nullity(geometry(4, 9, false)),
            nullity(geometry(9, 4, false))
        );
    }

    #[test]
    fn unsolvable_when_no_target_is_consistent() {
        let g = geometry(4, 4, false);
        let mut start = BitBoard::new(4, 4);
        start.set(3, 3, true); // one black corner: the POJ 1753 `Impossible` board
        let targets = [BitBoard::new(4, 4), BitBoard::full(4, 4)];
        let report = solve(g, &start, &targets, &Limits::default());
        assert_eq!(report.outcome, AlgebraOutcome::Unsolvable);
        assert_eq!(report.nullity, Some(4));
    }

    #[test]
    fn a_tiny_memory_budget_is_refused_before_allocating() {
        let g = geometry(64, 64, false);
        let start = BitBoard::new(64, 64);
        let limits = Limits {
            memory_budget: 1000,
            ..Limits::default()
        };
        let report = solve(g, &start, std::slice::from_ref(&start), &limits);
        assert!(matches!(
            report.outcome,
            AlgebraOutcome::LimitReached(Limit::Memory { .. })
        ));
    }

    #[test]
    fn max_depth_bounds_the_answer() {
        let g = geometry(3, 3, false);
        let mut start = BitBoard::new(3, 3);
        start.press(0, 0, false);
        start.press(2, 2, false);
        let limits = Limits {
            max_depth: Some(1),
            ..Limits::default()
        };
        let report = solve(g, &start, &[BitBoard::new(3, 3)], &limits);
        assert_eq!(
            report.outcome,
            AlgebraOutcome::LimitReached(Limit::Depth(1))
        );
    }
}
