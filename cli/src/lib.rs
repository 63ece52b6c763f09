//! The command line of statespace as a library: the clap definitions and the dispatch to one
//! module per subcommand.
//!
//! [`run`] takes the [`Registry`] of puzzles the program knows: the `statespace` binary passes
//! [`statespace_builtins::builtins`]; a crate with a puzzle of its own gets the whole command
//! line for it in a six-line main:
//!
//! ```no_run
//! # use statespace::registry::{Plugin, PluginInfo};
//! # struct MyPlugin;
//! # impl Plugin for MyPlugin {
//! #     fn info(&self) -> PluginInfo { unimplemented!() }
//! #     fn build(&self, _: &statespace::config::Config, _: &statespace::limit::Limits)
//! #         -> statespace::error::Result<statespace::instance::Instance> { unimplemented!() }
//! # }
//! fn main() -> std::process::ExitCode {
//!     match statespace_builtins::builtins().with(&MyPlugin) {
//!         Ok(registry) => statespace_cli::run(registry),
//!         Err(e) => statespace_cli::fail(e),
//!     }
//! }
//! ```
//!
//! Every subcommand returns an [`Exit`] or a library [`Error`]; `exit.rs` prints errors as one
//! line on stderr and turns both into the documented exit codes. Results go to stdout, everything
//! else to stderr (`stdio.rs`).
//!
//! | file | holds |
//! |---|---|
//! | `lib.rs` | the module list, the clap command, [`run`] and the dispatch; clap's errors on one line |
//! | `solve.rs`, `judge.rs`, `puzzles.rs`, `export.rs`, `explore.rs`, `new.rs` | one subcommand each: its flags and its run |
//! | `serve/` | `statespace serve`: the puzzle in a browser and a JSON API (the `serve` feature) |
//! | `config_arg.rs`, `start.rs`, `limits.rs`, `cache.rs` | the flags several subcommands share |
//! | `boards.rs`, `scrambles.rs`, `lines.rs` | the batch inputs, read one item at a time under a cap |
//! | `atomic_output.rs`, `progress.rs` | output files written whole or not at all; the progress line |
//! | `exit.rs`, `stdio.rs` | the exit codes and how a result becomes one; stdout, stderr and whole inputs |
//!
//! The records themselves (a solution's and an exploration's text, JSON and SVG) are
//! `statespace_records`', shared with the Python package. No module here imports from this
//! file: it only declares them and dispatches to them.

#![deny(missing_docs)]

mod atomic_output;
mod boards;
mod cache;
mod cluster_args;
mod config_arg;
mod exit;
mod explore;
mod export;
mod judge;
mod limits;
mod lines;
mod mode_arg;
mod new;
mod progress;
mod puzzles;
mod scrambles;
mod serve;
mod solve;
mod start;
mod stdio;

pub use exit::Exit;

use clap::{Parser, Subcommand};
use exit::report;
use statespace::error::Error;
use statespace::registry::Registry;
use std::process::ExitCode;
use stdio::{stderr_line, write_stdout};

#[derive(Parser)]
#[command(name = "statespace", version, about = "Exact state-space search for puzzles", long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Solve the start board of a config: the fewest moves, or `Impossible`.
    Solve(solve::SolveArgs),
    /// Read a judge problem's stdin and write exactly the judge's expected stdout.
    Judge(judge::JudgeArgs),
    /// List the registered puzzles, their parameters, goals and modes.
    Puzzles(puzzles::PuzzlesArgs),
    /// Write the state graph around the start board as DOT, GraphML or JSON.
    Export(export::ExportArgs),
    /// Sweep every state that can reach the goal: counts by distance, the farthest board.
    Explore(explore::ExploreArgs),
    /// Write a plugin crate for a puzzle of your own into DIR: it builds and runs as it is.
    New(new::NewArgs),
    /// Serve the puzzle in a browser and as a JSON API: play, hints, the optimal solution.
    Serve(serve::ServeArgs),
}

/// Parses the process's command line, runs it with the puzzles of `registry` and maps the
/// result to an exit code.
pub fn run(registry: Registry) -> ExitCode {
    let exit = match parse(&registry) {
        Ok(cli) => dispatch(cli.command, &registry),
        Err(e) => parse_error(&e),
    };
    ExitCode::from(exit as u8)
}

/// The command line, with the judges of `registry` as the possible values of `judge PROBLEM` and
/// its puzzles' modes as those of `solve --mode` and `serve --mode` (so `--help` lists them and a misspelt one gets
/// clap's suggestion).
fn parse(registry: &Registry) -> Result<Cli, clap::Error> {
    use clap::builder::{PossibleValue, PossibleValuesParser};
    use clap::{CommandFactory, FromArgMatches};
    let judges = registry.judges();
    let problems = judges
        .iter()
        .map(|j| PossibleValue::new(j.name).help(j.summary));
    let modes = registry.modes();
    let modes = modes
        .iter()
        .map(|(mode, doc)| PossibleValue::new(mode.name()).help(*doc));
    let command = Cli::command()
        .mut_subcommand("judge", |judge| {
            judge.mut_arg("problem", |problem| {
                problem.value_parser(PossibleValuesParser::new(problems))
            })
        })
        .mut_subcommand("solve", |solve| {
            solve.mut_arg("mode", |mode| {
                mode.value_parser(PossibleValuesParser::new(modes.clone()))
            })
        });
    #[cfg(feature = "serve")]
    let command = command.mut_subcommand("serve", |serve| {
        serve.mut_arg("mode", |mode| {
            mode.value_parser(PossibleValuesParser::new(modes))
        })
    });
    Cli::from_arg_matches(&command.try_get_matches()?)
}

/// The exit code of an error met before the command line could run (a registry refused): the
/// error on stderr, one line.
pub fn fail(error: Error) -> ExitCode {
    ExitCode::from(report(Err(error)) as u8)
}

/// Runs a parsed command, catching a panic; see [`report`].
fn dispatch(command: Command, registry: &Registry) -> Exit {
    // A panic ends the command; nothing of the registry is used after it.
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match command {
        Command::Solve(args) => solve::run(args, registry),
        Command::Judge(args) => judge::run(args, registry),
        Command::Puzzles(args) => puzzles::run(args, registry),
        Command::Export(args) => export::run(args, registry),
        Command::Explore(args) => explore::run(args, registry),
        Command::New(args) => new::run(args),
        Command::Serve(args) => serve::run(args, registry),
    }));
    match result {
        Ok(result) => report(result),
        // The panic hook has already printed the message and location.
        Err(_) => {
            stderr_line("statespace: internal error (a bug: please report it)");
            Exit::Internal
        }
    }
}

/// What clap's refusal of the command line becomes: `--help` and `--version` written to stdout
/// (a failed write is an error like any other), anything else one line on stderr, exit 2.
fn parse_error(e: &clap::Error) -> Exit {
    use clap::error::ErrorKind;
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            use std::io::IsTerminal;
            let text = match std::io::stdout().is_terminal() {
                true => e.render().ansi().to_string(),
                false => e.render().to_string(),
            };
            report(write_stdout(&text).map(|()| Exit::Ok))
        }
        _ => {
            stderr_line(&format!("statespace: error: {}", one_line(e)));
            Exit::BadInput
        }
    }
}

/// clap's error on one line, like every other error: its message, the values it lists, its
/// tips, and where to read more. clap writes 3 to 20 lines (a usage line, a whole help page
/// when the command is missing).
fn one_line(e: &clap::Error) -> String {
    use clap::CommandFactory;
    // The command the user meant, for its `--help`: the first word that is not a flag.
    let mut help = "statespace".to_string();
    let command = Cli::command();
    let words: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|w| w.to_string_lossy().into_owned())
        .collect();
    if let Some(sub) = words
        .iter()
        .find(|w| !w.starts_with('-'))
        .and_then(|w| command.find_subcommand(w))
    {
        help = format!("statespace {}", sub.get_name());
    }
    if e.kind() == clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
        let names: Vec<&str> = command
            .get_subcommands()
            .map(|s| s.get_name())
            .filter(|&n| n != "help")
            .collect();
        return format!(
            "missing a command: {} (see {help} --help)",
            names.join(", ")
        );
    }
    // The rendering's parts: `error: MESSAGE`, indented values (`  <CONFIG>`, `[possible
    // values: ...]`), `  tip: ...` lines, and the usage and `--help` lines, left out here.
    let rendered = e.render().to_string();
    let mut lines = rendered.lines();
    let first = lines.next().unwrap_or_default();
    let mut line = first.strip_prefix("error: ").unwrap_or(first).to_string();
    let (mut values, mut tips) = (Vec::new(), Vec::new());
    for part in lines.filter(|l| l.starts_with(char::is_whitespace)) {
        match part.trim() {
            "" => {}
            tip if tip.starts_with("tip:") => tips.push(tip),
            value => values.push(value),
        }
    }
    if !values.is_empty() {
        let separator = if line.ends_with(':') { ", " } else { " " };
        line = format!("{line} {}", values.join(separator));
    }
    for tip in tips {
        line = format!("{line}; {tip}");
    }
    format!("{line} (see {help} --help)")
}
