//! `statespace puzzles`: what the registry holds, from each plugin's own declaration of its keys,
//! and the modes its example config offers.

use super::{Exit, write_stdout};
use statespace::config::Mode;
use statespace::error::Error;
use statespace::registry::{PluginInfo, Registry};
use std::fmt::Write;

#[derive(clap::Args)]
pub struct PuzzlesArgs {
    /// Print one JSON array instead of text.
    #[arg(long)]
    json: bool,
}

/// A plugin as listed: its declaration, and what its example config builds.
#[derive(serde::Serialize)]
struct Listing {
    #[serde(flatten)]
    info: PluginInfo,
    /// The modes of the example config (a board too large for some engines has fewer).
    modes: Vec<Mode>,
    default_mode: Mode,
}

pub fn run(args: PuzzlesArgs, registry: &Registry) -> Result<Exit, Error> {
    let mut listings = Vec::new();
    for &plugin in registry.plugins() {
        let example = registry.example(plugin)?;
        listings.push(Listing {
            info: plugin.info(),
            modes: example.modes(),
            default_mode: example.default_mode(),
        });
    }
    if args.json {
        let json = serde_json::to_string(&listings).expect("plain data serializes");
        write_stdout(&format!("{json}\n"))?;
        return Ok(Exit::Ok);
    }
    let mut out = String::new();
    for Listing {
        info,
        modes,
        default_mode,
    } in listings
    {
        writeln!(out, "{}: {}", info.kind, info.summary).unwrap();
        writeln!(out, "  [puzzle] keys:").unwrap();
        for key in info.puzzle_keys {
            writeln!(out, "    {:<12} {}", key.name, key.help()).unwrap();
        }
        writeln!(out, "  [goal] kinds:").unwrap();
        for (goal, meaning) in info.goals {
            writeln!(out, "    {goal:<18} {meaning}").unwrap();
        }
        if !info.goal_keys.is_empty() {
            writeln!(out, "  [goal] keys:").unwrap();
            for key in info.goal_keys {
                writeln!(out, "    {:<12} {}", key.name, key.help()).unwrap();
            }
        }
        if !info.heuristics.is_empty() {
            writeln!(out, "  [heuristic] kinds (astar, idastar):").unwrap();
            for (heuristic, meaning) in info.heuristics {
                writeln!(out, "    {heuristic:<18} {meaning}").unwrap();
            }
        }
        if !info.heuristic_keys.is_empty() {
            writeln!(out, "  [heuristic] keys:").unwrap();
            for key in info.heuristic_keys {
                writeln!(out, "    {:<12} {}", key.name, key.help()).unwrap();
            }
        }
        let modes: Vec<_> = modes.iter().map(|m| m.name()).collect();
        writeln!(
            out,
            "  [search] modes: {} (default {default_mode})",
            modes.join(", ")
        )
        .unwrap();
        writeln!(out, "  example:").unwrap();
        for line in info.example.lines() {
            writeln!(out, "    {line}").unwrap();
        }
        out.push('\n');
    }
    write_stdout(&out)?;
    Ok(Exit::Ok)
}
