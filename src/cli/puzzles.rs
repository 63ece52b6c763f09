//! `statespace puzzles`: what the registry holds.

use super::Exit;
use statespace::error::Error;
use statespace::registry;

#[derive(clap::Args)]
pub struct PuzzlesArgs {
    /// Print one JSON array instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: PuzzlesArgs) -> Result<Exit, Error> {
    let infos: Vec<_> = registry::plugins().iter().map(|p| p.info()).collect();
    if args.json {
        println!(
            "{}",
            serde_json::to_string(&infos).expect("plain data serializes")
        );
        return Ok(Exit::Ok);
    }
    for info in infos {
        println!("{}: {}", info.kind, info.summary);
        println!("  [puzzle] keys:");
        for (key, meaning) in &info.parameters {
            println!("    {key:<10} {meaning}");
        }
        println!("  [goal] kinds:");
        for (goal, meaning) in &info.goals {
            println!("    {goal:<18} {meaning}");
        }
        let modes: Vec<_> = info.modes.iter().map(|m| m.name()).collect();
        println!(
            "  [search] modes: {} (default {})",
            modes.join(", "),
            info.default_mode
        );
        println!();
    }
    Ok(Exit::Ok)
}
