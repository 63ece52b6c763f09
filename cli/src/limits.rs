//! Limit flags shared by every subcommand that searches, and the Ctrl-C handler.

use super::atomic_output;
use statespace::config::{Config, Overrides, parse_bytes, parse_duration, parse_transpositions};
use statespace::error::{Error, Location};
use statespace::limit::Limits;
use statespace::options::{SearchOptions, Transpositions};
use std::sync::atomic::{AtomicBool, Ordering};

/// Set by the first Ctrl-C; engines poll it through [`Limits::interrupt`].
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// What the first Ctrl-C does.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum FirstCtrlC {
    /// Asks the running work to stop: it polls the flag ([`Limits::interrupt`]), prints what
    /// it has and exits 130. A second press exits at once.
    Stop,
    /// Exits at once: for a command whose work polls nothing and has nothing to print when
    /// stopped (`export`).
    Exit,
}

/// Installs the Ctrl-C handler (`first` says what the first press does). Exiting at once
/// first removes the temporary files of the outputs not yet in place
/// ([`atomic_output::remove_temporaries`]): no `.statespace-*` file is left beside a target.
pub fn install_interrupt_handler(first: FirstCtrlC) {
    let _ = ctrlc::set_handler(move || {
        let again = INTERRUPTED.swap(true, Ordering::SeqCst);
        if again || first == FirstCtrlC::Exit {
            atomic_output::remove_temporaries();
            std::process::exit(130);
        }
    });
}

/// The default limits under the handler's flag: Ctrl-C stops what polls them.
pub fn interruptible() -> Limits {
    Limits {
        interrupt: Some(&INTERRUPTED),
        ..Limits::default()
    }
}

#[derive(clap::Args, Clone, Debug, Default)]
pub struct LimitArgs {
    /// Give up deeper than this many moves (overrides `[search] max_depth`).
    #[arg(long, value_name = "N")]
    pub max_depth: Option<u32>,
    /// Give up after visiting this many states (overrides `[search] max_states`).
    #[arg(long, value_name = "N")]
    pub max_states: Option<u64>,
    /// Give up after this long, e.g. 30s, 2m (overrides `[search] time_limit`).
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub time_limit: Option<std::time::Duration>,
    /// Memory budget, e.g. 4GiB (overrides `[search] memory`; default: half the physical memory).
    #[arg(long, value_name = "SIZE", value_parser = parse_bytes)]
    pub memory: Option<u64>,
    /// The transposition table of iddfs and idastar: a size (32MiB), auto or off (overrides
    /// `[search] transpositions`; default auto: 8 MiB, at most a quarter of the budget).
    #[arg(long, value_name = "SIZE", value_parser = parse_transpositions)]
    pub transpositions: Option<Transpositions>,
}

impl LimitArgs {
    /// The limits of a run: defaults, then the config's `[search]` keys, then these flags.
    /// Also installs the Ctrl-C handler: only commands whose engines poll the flag take limits.
    pub fn resolve(&self, config: Option<&Config>) -> Result<Limits, Error> {
        Ok(self.resolve_with(config, Overrides::default())?.0)
    }

    /// [`resolve`](Self::resolve), with the options too: the config's, then the command's own
    /// flags in `more` (`--solutions`, `--threads`, `--beam-width`), then these. The one
    /// function that puts flags over the config ([`Overrides::apply`]).
    pub fn resolve_with(
        &self,
        config: Option<&Config>,
        more: Overrides,
    ) -> Result<(Limits, SearchOptions), Error> {
        install_interrupt_handler(FirstCtrlC::Stop);
        self.apply(config, more, interruptible())
    }

    /// [`resolve_with`](Self::resolve_with) over `base` instead of the Ctrl-C handler's
    /// limits, installing no handler: for `serve`, whose requests each stop on a flag of
    /// their own.
    pub fn apply(
        &self,
        config: Option<&Config>,
        more: Overrides,
        base: Limits,
    ) -> Result<(Limits, SearchOptions), Error> {
        let overrides = Overrides {
            max_depth: self.max_depth,
            max_states: self.max_states,
            time_limit: self.time_limit,
            memory: self.memory,
            transpositions: self.transpositions,
            ..more
        };
        overrides.apply(config, base, |key| {
            Location::flag(format!("--{}", key.replace('_', "-")))
        })
    }
}
