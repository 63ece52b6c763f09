//! `statespace puzzles`: what the registry holds.

use super::{Exit, write_stdout};
use statespace::error::Error;
use statespace::registry;
use std::fmt::Write;

#[derive(clap::Args)]
pub struct PuzzlesArgs {
    /// Print one JSON array instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: PuzzlesArgs) -> Result<Exit, Error> {
    let infos: Vec<_> = registry::plugins().iter().map(|p| p.info()).collect();
    if args.json {
        let json = serde_json::to_string(&infos).expect("plain data serializes");
        write_stdout(&format!("{json}\n"))?;
        return Ok(Exit::Ok);
    }
    let mut out = String::new();
    for info in infos {
        writeln!(out, "{}: {}", info.kind, info.summary).unwrap();
        writeln!(out, "  [puzzle] keys:").unwrap();
        for (key, meaning) in &info.parameters {
            writeln!(out, "    {key:<10} {meaning}").unwrap();
        }
        writeln!(out, "  [goal] kinds:").unwrap();
        for (goal, meaning) in &info.goals {
            writeln!(out, "    {goal:<18} {meaning}").unwrap();
        }
        let modes: Vec<_> = info.modes.iter().map(|m| m.name()).collect();
        let default = info.default_mode;
        writeln!(
            out,
            "  [search] modes: {} (default {default})\n",
            modes.join(", ")
        )
        .unwrap();
    }
    write_stdout(&out)?;
    Ok(Exit::Ok)
}
