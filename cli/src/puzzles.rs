//! `statespace puzzles`: what the registry holds, from each plugin's own declaration of its keys,
//! and the modes its example config offers.

use super::exit::Exit;
use super::stdio::write_stdout;
use statespace::config::{Key, Mode};
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
        keys(&mut out, "[puzzle] keys", info.puzzle_keys);
        kinds(&mut out, "[goal] kinds", info.goals);
        keys(&mut out, "[goal] keys", info.goal_keys);
        kinds(
            &mut out,
            "[heuristic] kinds (astar, idastar)",
            info.heuristics,
        );
        keys(&mut out, "[heuristic] keys", info.heuristic_keys);
        start_keys(&mut out, info.scramble);
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

/// A section's keys with their help (doc, range, default), under `title`; nothing when none.
fn keys(out: &mut String, title: &str, keys: &[Key]) {
    if !keys.is_empty() {
        writeln!(out, "  {title}:").unwrap();
        for key in keys {
            writeln!(out, "    {:<12} {}", key.name, key.help()).unwrap();
        }
    }
}

/// The `[start]` keys: a board always, a scramble for puzzles that read one (one of the two).
fn start_keys(out: &mut String, scramble: Option<&str>) {
    let title = match scramble {
        Some(_) => "[start] keys (one of)",
        None => "[start] keys",
    };
    writeln!(out, "  {title}:").unwrap();
    writeln!(
        out,
        "    {:<12} the position, in the board text solve prints",
        "board"
    )
    .unwrap();
    if let Some(meaning) = scramble {
        writeln!(out, "    {:<12} {meaning}", "scramble").unwrap();
    }
}

/// A section's kinds (goals, heuristics) with their meaning, under `title`; nothing when none.
fn kinds(out: &mut String, title: &str, kinds: &[(&str, &str)]) {
    if !kinds.is_empty() {
        writeln!(out, "  {title}:").unwrap();
        for (kind, meaning) in kinds {
            writeln!(out, "    {kind:<18} {meaning}").unwrap();
        }
    }
}
