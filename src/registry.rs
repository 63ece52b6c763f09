//! The plugin registry: a puzzle kind's name -> its [`Plugin`], which turns a config into an
//! [`Instance`].
//!
//! A plugin is small: its [`PluginInfo`] (name, summary, the `[puzzle]` and `[goal]` keys it
//! declared with [`keys!`](crate::keys), its goal kinds, an example config) and a
//! [`Plugin::build`] that reads its sections ([`Config::sections`]), makes its space and hands it
//! to the [`kit`](crate::kit). Building is under the run's [`Limits`] already: a setup whose cost
//! grows with its input counts its work with a [`Setup`](crate::setup::Setup). Everything after that (engines by mode, `auto`, the config's
//! `[search] mode`, explore, export, result conversion) is the library's.
//!
//! The built-in plugins are listed in `puzzles/mod.rs`; a program that links this crate can add
//! its own at run time with [`register`] (see `examples/custom_puzzle.rs`).

use crate::config::{Config, Key};
use crate::error::Result;
use crate::instance::Instance;
use crate::search::Limits;
use std::sync::RwLock;

/// What `statespace puzzles` prints about a plugin.
#[derive(Clone, Debug, serde::Serialize)]
pub struct PluginInfo {
    /// The `[puzzle] kind` name.
    pub kind: &'static str,
    /// One line: what the puzzle is.
    pub summary: &'static str,
    /// The `[puzzle]` keys besides `kind` (from the plugin's [`keys!`](crate::keys) struct).
    pub puzzle_keys: &'static [Key],
    /// `(goal kind, meaning)` for each `[goal] kind` it accepts; the first is the default.
    pub goals: &'static [(&'static str, &'static str)],
    /// The `[goal]` keys besides `kind`.
    pub goal_keys: &'static [Key],
    /// A small config that builds (`statespace puzzles` lists the modes it offers).
    pub example: &'static str,
}

/// A puzzle kind: turns a config into a ready [`Instance`].
pub trait Plugin: Send + Sync {
    /// Its name, keys, goals and an example.
    fn info(&self) -> PluginInfo;
    /// Validates `config` (every error names its file, line and key) into an instance, within
    /// `limits` (time, Ctrl-C, memory: a setup that passes one stops with
    /// [`Error::Limit`](crate::error::Error::Limit)).
    fn build(&self, config: &Config, limits: &Limits) -> Result<Instance>;
}

/// Plugins registered at run time, after the built-in ones.
static REGISTERED: RwLock<Vec<&'static dyn Plugin>> = RwLock::new(Vec::new());

/// Adds a plugin (a puzzle defined outside this crate). A kind already known is refused: the
/// first plugin of a name keeps it.
pub fn register(plugin: &'static dyn Plugin) -> std::result::Result<(), String> {
    let kind = plugin.info().kind;
    if find(kind).is_some() {
        return Err(format!("a puzzle kind `{kind}` is already registered"));
    }
    REGISTERED
        .write()
        .unwrap_or_else(|e| e.into_inner())
        .push(plugin);
    Ok(())
}

/// Every plugin: the built-in ones, then those registered at run time.
pub fn plugins() -> Vec<&'static dyn Plugin> {
    let registered = REGISTERED.read().unwrap_or_else(|e| e.into_inner());
    crate::puzzles::PLUGINS
        .iter()
        .copied()
        .chain(registered.iter().copied())
        .collect()
}

/// The plugin named `kind`.
pub fn find(kind: &str) -> Option<&'static dyn Plugin> {
    plugins().into_iter().find(|p| p.info().kind == kind)
}

/// Builds the instance that `config`'s `[puzzle] kind` names within `limits`, with the config's
/// `[search] mode` as its default (checked against the modes the instance has).
pub fn build(config: &Config, limits: &Limits) -> Result<Instance> {
    let kind = &config.kind;
    let plugin = find(kind.get_ref()).ok_or_else(|| {
        let known: Vec<_> = plugins().iter().map(|p| p.info().kind).collect();
        config.error_at(
            kind.span(),
            "puzzle.kind",
            format!(
                "unknown puzzle kind `{}` (known: {})",
                kind.get_ref(),
                known.join(", ")
            ),
        )
    })?;
    let mut instance = plugin.build(config, limits)?;
    if !instance.modes().contains(&crate::config::Mode::Idastar) {
        let why = "this puzzle has no heuristic (no astar, idastar)";
        config.refuse(&config.search.heuristic, "search.heuristic", why)?;
        config.refuse(&config.search.pdb, "search.pdb", why)?;
        config.refuse(&config.search.reflect, "search.reflect", why)?;
    }
    if let Some((mode, span)) = config.mode()? {
        instance
            .set_default_mode(mode)
            .map_err(|e| config.error_at(span, "search.mode", e))?;
    }
    Ok(instance)
}

/// The instance of a plugin's example config (what `statespace puzzles` describes).
pub fn example(plugin: &dyn Plugin) -> Result<Instance> {
    let info = plugin.info();
    let config = Config::parse(&format!("<example of {}>", info.kind), info.example)?;
    build(&config, &Limits::default())
}
