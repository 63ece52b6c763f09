//! The `--mode` flag of `solve` and `serve`: an engine by name, else the config's.
//!
//! One place for the flag, its help and its error, so the two commands cannot drift: the name
//! is checked against the instance's modes ([`Instance::mode_named`]) and a wrong one is blamed
//! on the flag (`--mode: ...`); none given is the config's `[search] mode`, else the puzzle's
//! default. The command line lists the registry's modes as the flag's possible values (`parse`
//! in the crate root), so `--help` shows them and a misspelt one gets clap's suggestion.

use statespace::config::Mode;
use statespace::error::{Error, Location};
use statespace::instance::Instance;

/// The `--mode` flag.
#[derive(clap::Args)]
pub struct ModeArg {
    /// The search engine (default: the config's `[search] mode`, else the puzzle's default).
    #[arg(long, value_name = "MODE")]
    mode: Option<String>,
}

impl ModeArg {
    /// The mode the flag names for `instance`, or the instance's default without the flag.
    pub fn resolve(&self, instance: &Instance) -> Result<Mode, Error> {
        match &self.mode {
            Some(name) => instance
                .mode_named(name)
                .map_err(|e| Error::input(Location::flag("--mode"), e.to_string())),
            None => Ok(instance.default_mode()),
        }
    }
}
