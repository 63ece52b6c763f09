//! `statespace judge PROBLEM`: a judge problem's exact stdin and stdout formats, answered by the
//! plugin that brings it ([`Judge`](statespace::registry::Judge)): `poj1753` with Flip, `hdu3278`
//! with Shift.
//!
//! Nothing but the answer goes to stdout; a malformed stream is an error on stderr with a
//! non-zero exit, and an answer (`Impossible` included) exits 0.

use super::cache::CacheArgs;
use super::exit::Exit;
use super::stdio::{read_input, write_stdout};
use statespace::error::{Error, Location};
use statespace::registry::Registry;

#[derive(clap::Args)]
pub struct JudgeArgs {
    /// The problem whose input and output format to use
    #[arg(value_name = "PROBLEM")]
    problem: String,
    #[command(flatten)]
    cache: CacheArgs,
}

pub fn run(args: JudgeArgs, registry: &Registry) -> Result<Exit, Error> {
    let judge = registry.judge(&args.problem).ok_or_else(|| {
        let known: Vec<_> = registry.judges().iter().map(|j| j.name).collect();
        Error::input(
            Location::command("judge"),
            format!(
                "unknown problem `{}` (known: {})",
                args.problem,
                known.join(", ")
            ),
        )
    })?;
    let input = read_input("-")?;
    write_stdout(&(judge.run)(&input, &args.cache.cache())?)?;
    Ok(Exit::Ok)
}
