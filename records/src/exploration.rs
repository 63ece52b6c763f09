//! An [`Exploration`] as its front ends give it: text for people ([`text`]), a JSON object for
//! programs ([`json`], [`json_value`]), the histogram as an SVG bar chart ([`svg`]).
//!
//! `explore` prints the first two and writes the third (`--plot`); the Python package's
//! `Exploration` holds the JSON object's fields as attributes and draws the same chart.
//!
//! Peak memory is the process's high-water mark of resident memory (`VmHWM` in
//! `/proc/self/status`): what the operating system saw, engine and everything else. Where that
//! file does not exist, the engine's own accounting (its bitsets) stands in, and the record says
//! which ([`PeakMemory`]). It is measured once, after the sweep, and the text and the JSON
//! object take the same figure.

use statespace::instance::{Direction, Exploration};
use statespace::limit::grouped;
use statespace::limit::{Limit, human_bytes};
use std::fmt::Write;

/// The histogram of `exploration` as an SVG bar chart (`explore --plot`), or `None` when it has
/// no layer (refused before the first).
pub fn svg(exploration: &Exploration) -> Option<String> {
    if exploration.histogram.is_empty() {
        return None;
    }
    let x_label = match exploration.direction {
        Direction::Backward => "fewest moves to the goal",
        Direction::Forward => "fewest moves from the start",
    };
    let title = format!("{}: states by distance", exploration.description);
    let counts = &exploration.histogram;
    Some(statespace::plot::histogram_svg(
        &title, x_label, "states", counts,
    ))
}

/// The peak memory figure and where it came from: see the module docs.
pub struct PeakMemory {
    bytes: u64,
    source: &'static str,
}

impl PeakMemory {
    /// The figure now: the process's `VmHWM`, else the engine's own accounting of `exploration`.
    pub fn measure(exploration: &Exploration) -> PeakMemory {
        match vm_hwm() {
            Some(bytes) => PeakMemory {
                bytes,
                source: "VmHWM",
            },
            None => PeakMemory {
                bytes: exploration.engine_bytes,
                source: "engine",
            },
        }
    }
}

/// The process's peak resident memory, from `/proc/self/status` (Linux).
fn vm_hwm() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

fn states_per_second(exploration: &Exploration) -> f64 {
    let seconds = exploration.stats.elapsed.as_secs_f64();
    if seconds > 0.0 {
        exploration.reachable() as f64 / seconds
    } else {
        0.0
    }
}

/// `65,536`, or `2^64` for a power of two too long to read as digits.
fn space_size(size: u128) -> String {
    if size.is_power_of_two() && size > 1 << 40 {
        format!("2^{}", size.trailing_zeros())
    } else {
        grouped(size)
    }
}

/// The text form: the sweep's direction and strategy, the reachable count, the histogram, the
/// largest distance with one board at it, the rate and `memory`.
pub fn text(e: &Exploration, memory: &PeakMemory) -> String {
    let mut out = String::new();
    let from = match e.direction {
        Direction::Backward => "backward from the goal set",
        Direction::Forward => "forward from the start",
    };
    let threads = match &e.cluster {
        Some(c) => format!(
            "{} timely workers in {} process{}",
            c.workers,
            c.processes,
            if c.processes == 1 { "" } else { "es" }
        ),
        None if e.threads == 1 => "1 thread".into(),
        None => format!("{} threads", e.threads),
    };
    writeln!(
        out,
        "explore: {}, {from}, {}, {threads}",
        e.description, e.strategy
    )
    .unwrap();
    if let Some(why) = &e.no_index {
        writeln!(
            out,
            "no dense index: {why}; swept with a hash set, as far as the memory budget allows"
        )
        .unwrap();
    }
    if let Some(classes) = &e.classes {
        writeln!(
            out,
            "symmetry: {} symmetries, the identity included; a class is a state and its images",
            classes.symmetries
        )
        .unwrap();
    }
    // Classes counted for fewer layers than the sweep found: a limit stopped their count.
    let uncounted = e
        .classes
        .as_ref()
        .filter(|c| c.histogram.len() < e.histogram.len());
    match &e.stopped {
        Some(limit) if uncounted.is_some() => writeln!(
            out,
            "stopped: {limit}, while counting the classes at depth {}; the depths above it are \
             complete",
            e.histogram.len() - 1
        )
        .unwrap(),
        // The layer being found is dropped: every depth listed is complete.
        Some(limit) if !matches!(limit, Limit::Depth(_)) && !e.histogram.is_empty() => writeln!(
            out,
            "stopped: {limit}, while finding depth {}; the depths below are complete",
            e.histogram.len()
        )
        .unwrap(),
        Some(limit) => writeln!(out, "stopped: {limit}").unwrap(),
        None => {}
    }
    let so_far = if e.stopped.is_some() { " so far" } else { "" };
    // A space with no dense index has no size to compare with (0).
    let of = match e.space_size {
        0 => String::new(),
        size => format!(" of {}", space_size(size)),
    };
    let classes = match &e.classes {
        Some(c) => format!(", {} classes", grouped(c.total() as u128)),
        None => String::new(),
    };
    writeln!(
        out,
        "reachable: {}{of} states{classes}{so_far}",
        grouped(e.reachable() as u128),
    )
    .unwrap();
    if !e.histogram.is_empty() {
        let width = grouped(*e.histogram.iter().max().unwrap() as u128).len();
        // The class column's header is wider than a small space's counts.
        let width = match e.classes {
            Some(_) => width.max("classes".len()),
            None => width,
        };
        let header = match e.classes {
            Some(_) => format!("{:>width$}  {:>width$}", "states", "classes"),
            None => format!("{:>width$}", "states"),
        };
        writeln!(out, "distance  {header}").unwrap();
        for (d, n) in e.histogram.iter().enumerate() {
            let n = grouped(*n as u128);
            // A depth whose classes were not counted (a limit stopped the count) shows `-`.
            let classes = match e.classes.as_ref().map(|c| c.histogram.get(d)) {
                Some(Some(k)) => format!("  {:>width$}", grouped(*k as u128)),
                Some(None) => format!("  {:>width$}", "-"),
                None => String::new(),
            };
            writeln!(out, "{d:>8}  {n:>width$}{classes}").unwrap();
        }
    }
    if let Some(board) = &e.farthest {
        writeln!(out, "max distance: {}, e.g.", e.histogram.len() - 1).unwrap();
        for line in board.lines() {
            writeln!(out, "  {line}").unwrap();
        }
    }
    writeln!(
        out,
        "elapsed {:.3} s, {} states/s, peak memory {} ({}; engine {} {})",
        e.stats.elapsed.as_secs_f64(),
        grouped(states_per_second(e) as u128),
        human_bytes(memory.bytes as u128),
        memory.source,
        // A space with no dense index, or a depth limit that reaches less than the bitsets
        // would hold, is swept with a hash set.
        if e.strategy == "hash-set" {
            "hash set"
        } else {
            "bitsets"
        },
        human_bytes(e.engine_bytes as u128)
    )
    .unwrap();
    if let Some(c) = &e.classes {
        writeln!(
            out,
            "classes counted in {:.3} s of the elapsed time",
            c.elapsed.as_secs_f64()
        )
        .unwrap();
    }
    if let Some(c) = &e.cluster {
        writeln!(
            out,
            "exchanged {} between workers ({:.2} bytes per state)",
            human_bytes(c.exchanged_bytes as u128),
            c.exchanged_bytes as f64 / e.reachable().max(1) as f64
        )
        .unwrap();
    }
    out
}

/// The JSON form, on one line: the fields of the guide's `explore --json` table (docs/explore.md).
pub fn json(e: &Exploration, memory: &PeakMemory) -> String {
    json_value(e, memory).to_string()
}

/// [`json`] as a value, for callers that convert it (the Python package).
pub fn json_value(e: &Exploration, memory: &PeakMemory) -> serde_json::Value {
    serde_json::json!({
        "puzzle": e.description,
        "direction": e.direction,
        "strategy": e.strategy,
        // A u64 when it fits (2^64 itself does not): JSON readers take larger numbers as floats.
        // null for a space with no dense index (swept with a hash set).
        "space_size": match e.space_size {
            0 => serde_json::Value::Null,
            size => u64::try_from(size).map_or_else(|_| serde_json::Value::from(size as f64), serde_json::Value::from),
        },
        "complete": e.stopped.is_none(),
        "limit": e.stopped.as_ref().map(|l| l.to_string()),
        // The depth the sweep was finding when a limit stopped it (not a depth limit: that
        // ends it after the last depth asked for).
        "stopped_at_depth": match e.stopped {
            None | Some(Limit::Depth(_)) => None,
            Some(_) => Some(e.histogram.len()),
        },
        "no_index": e.no_index,
        "reachable": e.reachable(),
        "histogram": e.histogram,
        "max_distance": e.histogram.len().checked_sub(1),
        "example_farthest": e.farthest,
        "states_per_second": states_per_second(e),
        "peak_memory_bytes": memory.bytes,
        "peak_memory_source": memory.source,
        "engine_memory_bytes": e.engine_bytes,
        "elapsed": e.stats.elapsed.as_secs_f64(),
        "threads": e.threads,
        "cluster": e.cluster,
        // With --symmetry: the classes by distance (one entry per layer whose classes were
        // counted), their sum, the group's order and the seconds spent counting.
        "classes": e.classes.as_ref().map(|c| serde_json::json!({
            "symmetries": c.symmetries,
            "histogram": c.histogram,
            "total": c.total(),
            "elapsed": c.elapsed.as_secs_f64(),
        })),
        "stats": e.stats,
    })
}
