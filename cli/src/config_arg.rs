//! The config a command reads: a TOML file, or a puzzle definition file standing in for one.
//!
//! People who solve twisty puzzles have definition files, not configs: `statespace solve
//! 3x3x3.tws --scramble "R U F"` reads the file as twsearch would, with no TOML written. A
//! definition file (`.tws`, `.ksolve`; `.json` is read as KPuzzle) becomes the config
//!
//! ```toml
//! [puzzle]
//! kind = "perm"
//! definition = "<the file>"
//! moves = [...]      # from --moves, when given
//! metric = "..."     # from --metric, when given
//! ```
//!
//! and goes through the registry like any config, so every check is the plugin's. Only the
//! places in errors differ: a key this module wrote is blamed on the flag it came from
//! (`--moves: unknown move "Q" ...`), never on a line of a TOML text nobody wrote.
//!
//! `--moves` and `--metric` are refused with a TOML config: its `[puzzle]` section says them,
//! and two places for one setting would be one too many.

use statespace::config::Config;
use statespace::error::{Error, Location, Place};
use statespace::instance::Instance;
use statespace::limit::Limits;
use statespace::registry::Registry;
use std::path::Path;

/// The extensions read as a permutation puzzle's definition instead of a TOML config.
const DEFINITION_EXTENSIONS: [&str; 3] = ["tws", "ksolve", "json"];

/// The config argument of `solve`, `explore` and `export`, with the flags that stand in for a
/// config's `[puzzle]` keys when it is a definition file.
#[derive(clap::Args)]
pub struct ConfigArg {
    /// The TOML config (puzzle, goal, search mode, start), or a permutation puzzle's definition
    /// file (.tws, .ksolve, or .json for KPuzzle) searched with its own moves.
    config: String,
    /// With a definition file: the generators to search with, e.g. `--moves U,F,R` (default:
    /// every move of the file but derived moves and rotations).
    #[arg(long, value_name = "M,M,...", value_delimiter = ',')]
    moves: Option<Vec<String>>,
    /// With a definition file: `htm` (every power of a generator is one move, the default) or
    /// `qtm` (only the quarter turns).
    #[arg(long, value_name = "METRIC")]
    metric: Option<String>,
}

impl ConfigArg {
    /// The config: the TOML file, or the one a definition file stands for (module docs).
    pub fn load(&self) -> Result<Config, Error> {
        if !self.is_definition() {
            for (flag, given) in [
                ("--moves", self.moves.is_some()),
                ("--metric", self.metric.is_some()),
            ] {
                if given {
                    return Err(Error::input(
                        Location::flag(flag),
                        format!(
                            "only with a definition file (.tws, .ksolve, .json): a TOML config \
                             says it in its [puzzle] section ({})",
                            self.config
                        ),
                    ));
                }
            }
            return Config::load(&self.config);
        }
        // The definition is named relative to the config's directory: the file's own name.
        let file = Path::new(&self.config)
            .file_name()
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut puzzle = toml::Table::new();
        puzzle.insert("kind".into(), "perm".into());
        puzzle.insert("definition".into(), file.into());
        if let Some(moves) = &self.moves {
            puzzle.insert("moves".into(), moves.clone().into());
        }
        if let Some(metric) = &self.metric {
            puzzle.insert("metric".into(), metric.clone().into());
        }
        let mut table = toml::Table::new();
        table.insert("puzzle".into(), puzzle.into());
        let text = toml::to_string(&table).expect("a table of strings serializes");
        Config::parse(&self.config, &text).map_err(|e| self.blame(e))
    }

    /// The instance `config` builds, its errors placed where the user wrote what they are about.
    pub fn build(
        &self,
        registry: &Registry,
        config: &Config,
        limits: &Limits,
    ) -> Result<Instance, Error> {
        registry.build(config, limits).map_err(|e| self.blame(e))
    }

    fn is_definition(&self) -> bool {
        Path::new(&self.config)
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| DEFINITION_EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()))
    }

    /// An error about a key this module wrote, placed on the flag or the file it came from.
    fn blame(&self, error: Error) -> Error {
        let Error::Input { location, message } = &error else {
            return error;
        };
        let ours = self.is_definition()
            && location.place == Place::File(self.config.clone())
            && location.line.is_some();
        if !ours {
            return error;
        }
        let location = match location.key.as_deref() {
            Some("puzzle.moves") => Location::flag("--moves"),
            Some("puzzle.metric") => Location::flag("--metric"),
            _ => Location::file(&self.config),
        };
        Error::input(location, message.clone())
    }
}
