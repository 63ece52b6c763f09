//! What both benchmarks share: the classic baseline and the workload.
//!
//! The baseline is the textbook HDU 3278 solution: a byte per 24-bit mask (2^24 bytes = 16 MiB),
//! filled by a FIFO BFS from the goal mask that decodes each state into a 4 x 6 grid, shifts the
//! grid for each of the 20 moves and encodes it back. The answer for a board is the minimum over
//! its three colours' masks.

use statespace::limit::Limits;
use statespace_shift::Geometry;
use statespace_shift::{Board, RegionSolver};
use std::collections::VecDeque;

pub const ROWS: usize = 4;
pub const COLS: usize = 6;
const UNSEEN: u8 = u8::MAX;

/// The classic table: `table[mask]` = moves for the colour at `mask` to fill the interior.
pub fn baseline_table() -> Vec<u8> {
    let mut table = vec![UNSEEN; 1 << (ROWS * COLS)];
    let mut goal = [[false; COLS]; ROWS];
    for row in goal.iter_mut().take(ROWS - 1).skip(1) {
        for cell in row.iter_mut().take(COLS - 1).skip(1) {
            *cell = true;
        }
    }
    let start = encode(&goal);
    table[start as usize] = 0;
    let mut queue = VecDeque::from([start]);
    while let Some(mask) = queue.pop_front() {
        let grid = decode(mask);
        let next_distance = table[mask as usize] + 1;
        for m in 0..2 * (ROWS + COLS) {
            let mut g = grid;
            shift(&mut g, m);
            let t = encode(&g);
            if table[t as usize] == UNSEEN {
                table[t as usize] = next_distance;
                queue.push_back(t);
            }
        }
    }
    table
}

fn decode(mask: u32) -> [[bool; COLS]; ROWS] {
    let mut g = [[false; COLS]; ROWS];
    for (r, row) in g.iter_mut().enumerate() {
        for (c, cell) in row.iter_mut().enumerate() {
            *cell = mask >> (r * COLS + c) & 1 == 1;
        }
    }
    g
}

fn encode(g: &[[bool; COLS]; ROWS]) -> u32 {
    let mut mask = 0;
    for (r, row) in g.iter().enumerate() {
        for (c, &cell) in row.iter().enumerate() {
            mask |= (cell as u32) << (r * COLS + c);
        }
    }
    mask
}

/// Move `m`: rows left, rows right, columns up, columns down.
fn shift(g: &mut [[bool; COLS]; ROWS], m: usize) {
    match m {
        m if m < ROWS => g[m].rotate_left(1),
        m if m < 2 * ROWS => g[m - ROWS].rotate_right(1),
        m => {
            let (c, up) = if m < 2 * ROWS + COLS {
                (m - 2 * ROWS, true)
            } else {
                (m - 2 * ROWS - COLS, false)
            };
            let mut column: Vec<bool> = g.iter().map(|row| row[c]).collect();
            if up {
                column.rotate_left(1);
            } else {
                column.rotate_right(1);
            }
            for (row, v) in g.iter_mut().zip(column) {
                row[c] = v;
            }
        }
    }
}

/// The baseline's answer: the best colour's entry.
pub fn baseline_answer(table: &[u8], board: &Board) -> u32 {
    (0..3)
        .map(|c| table[board.mask(c) as usize] as u32)
        .min()
        .unwrap()
}

/// The HDU geometry and a solver with no table yet.
pub fn solver() -> RegionSolver {
    let g = Geometry {
        rows: ROWS as u32,
        cols: COLS as u32,
    };
    RegionSolver::new(g, g.interior(), None)
}

/// Made once: a cache is a value with a callback, not free to make per board.
static NO_CACHE: std::sync::LazyLock<statespace::cache::TableCache> =
    std::sync::LazyLock::new(statespace::cache::TableCache::disabled);

/// The statespace answer (builds the table on first use). `limits` is made once by the caller:
/// `Limits::default()` reads /proc/meminfo for the memory budget.
pub fn table_answer(solver: &RegionSolver, board: &Board, limits: &Limits) -> u32 {
    solver
        // No cache on disk: the benchmarks time the build.
        .distance(board, limits, &NO_CACHE)
        .expect("fits the budget")
        .expect("some colour has 8 cells")
}

/// `n` random HDU boards (8 cells of each colour), from a fixed seed.
pub fn random_boards(n: usize) -> Vec<Board> {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        // xorshift64*: reproducible without a dependency
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_f491_4f6c_dd1d)
    };
    (0..n)
        .map(|_| {
            let mut cells: Vec<u8> = (0..24).map(|i| (i % 3) as u8).collect();
            for i in (1..cells.len()).rev() {
                let j = (next() % (i as u64 + 1)) as usize;
                cells.swap(i, j);
            }
            Board { cells }
        })
        .collect()
}
