//! Whole-process comparison: build the 4 x 6 table and answer 1000 random HDU boards, once with
//! statespace's distance table and once with the classic baseline (see `common`), each in its
//! own child process so that peak memory (VmHWM) is measured separately. Prints a table.
//!
//!     cargo bench --bench shift_vs_baseline

mod common;

use std::process::Command;
use std::time::Instant;

const BOARDS: usize = 1000;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args
        .iter()
        .find(|a| *a == "--child-table" || *a == "--child-baseline")
    {
        Some(which) => child(which),
        None => parent(),
    }
}

/// Runs one engine, prints `seconds table_bytes checksum peak_rss_kib`.
fn child(which: &str) {
    let boards = common::random_boards(BOARDS);
    let started = Instant::now();
    let (sum, bytes) = if which == "--child-table" {
        let limits = statespace::limit::Limits::default();
        let solver = common::solver();
        let sum: u32 = boards
            .iter()
            .map(|b| common::table_answer(&solver, b, &limits))
            .sum();
        let (t, _) = solver
            .table(8, &limits, &statespace::cache::TableCache::disabled())
            .unwrap();
        (sum, t.table.bytes())
    } else {
        let table = common::baseline_table();
        let sum: u32 = boards
            .iter()
            .map(|b| common::baseline_answer(&table, b))
            .sum();
        (sum, table.len() as u64)
    };
    let seconds = started.elapsed().as_secs_f64();
    println!("{seconds} {bytes} {sum} {}", peak_rss_kib());
}

fn peak_rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

fn parent() {
    let exe = std::env::current_exe().expect("own path");
    let run = |flag: &str| {
        let out = Command::new(&exe).arg(flag).output().expect("child runs");
        let text = String::from_utf8(out.stdout).expect("utf-8");
        let f: Vec<f64> = text
            .split_whitespace()
            .map(|x| x.parse().unwrap())
            .collect();
        (f[0], f[1] as u64, f[2] as u64, f[3] as u64)
    };
    // Best of 5 for time; memory is the same every run.
    let best = |flag: &str| {
        (0..5)
            .map(|_| run(flag))
            .min_by(|a, b| a.0.total_cmp(&b.0))
            .unwrap()
    };
    let base = best("--child-baseline");
    let ours = best("--child-table");
    assert_eq!(base.2, ours.2, "both answer the same boards the same");
    println!("workload: build the 4x6 table, answer {BOARDS} random HDU boards (best of 5)");
    println!(
        "{:<28} {:>10} {:>14} {:>14}",
        "engine", "time (ms)", "table bytes", "peak RSS (KiB)"
    );
    for (name, r) in [
        ("baseline (2^24 byte table)", base),
        ("statespace table", ours),
    ] {
        println!("{name:<28} {:>10.2} {:>14} {:>14}", r.0 * 1e3, r.1, r.3);
    }
    println!(
        "speed-up {:.1}x, table {:.1}x smaller, peak RSS {:.1}x smaller (answer sum {})",
        base.0 / ours.0,
        base.1 as f64 / ours.1 as f64,
        base.3 as f64 / ours.3 as f64,
        ours.2
    );
}
