//! The plugin registry: a puzzle kind's name -> its [`Plugin`], which turns a config into an
//! [`Instance`].
//!
//! A plugin is small: its [`PluginInfo`] (name, summary, the `[puzzle]` and `[goal]` keys it
//! declared with [`keys!`](crate::keys), its goal kinds, an example config) and a
//! [`Plugin::build`] that reads its sections ([`Config::sections`]), makes its space and hands it
//! to the [`kit`](crate::kit). The registry checks the config's `[goal] kind` and
//! `[heuristic] kind` against the kinds the plugin declares before its `build` runs (one line
//! naming the kinds it knows), so a plugin meets only kinds it declared. Building is under the run's [`Limits`] already: a setup whose cost
//! grows with its input counts its work with a [`Setup`](crate::setup::Setup). Everything after that (engines by mode, `auto`, the config's
//! `[search] mode`, explore, export, result conversion) is the library's.
//!
//! A [`Registry`] is a value: the command line assembles one from the built-in puzzle crates
//! (the built-in puzzle crates), and a program with a puzzle of its own adds it to that or
//! builds its own (see `examples/custom_puzzle.rs`). This crate names no puzzle.
//!
//! A plugin may also bring judges ([`Judge`]): a problem's exact stdin and stdout formats
//! (`statespace judge poj1753`), answered with the plugin's engines.

use crate::cache::TableCache;
use crate::config::{Config, Engine, Key, Mode, Spanned};
use crate::error::{Error, Location, Result};
use crate::instance::Instance;
use crate::limit::Limits;

/// What `statespace puzzles` prints about a plugin.
#[derive(Clone, Debug, serde::Serialize)]
pub struct PluginInfo {
    /// The `[puzzle] kind` name.
    pub kind: &'static str,
    /// One line: what the puzzle is.
    pub summary: &'static str,
    /// The `[puzzle]` keys besides `kind` (from the plugin's [`keys!`](crate::keys) struct).
    pub puzzle_keys: &'static [Key],
    /// `(goal kind, meaning)` for each `[goal] kind` it accepts; the first is the default. The
    /// registry refuses any other kind (one line naming these) before [`Plugin::build`] runs.
    pub goals: &'static [(&'static str, &'static str)],
    /// The `[goal]` keys besides `kind`.
    pub goal_keys: &'static [Key],
    /// `(heuristic kind, meaning)` for each `[heuristic] kind` of `astar` and `idastar`; the
    /// first is the default. Empty when the puzzle has no heuristic (a `[heuristic]` section is
    /// then refused).
    pub heuristics: &'static [(&'static str, &'static str)],
    /// The `[heuristic]` keys besides `kind`.
    pub heuristic_keys: &'static [Key],
    /// What a `[start] scramble` (or `solve --scramble`) is for this puzzle, when it reads
    /// scrambles ([`BoardFormat::parse_scramble`](crate::space::BoardFormat::parse_scramble));
    /// `None`: boards only.
    pub scramble: Option<&'static str>,
    /// A small config that builds (`statespace puzzles` lists the modes it offers).
    pub example: &'static str,
    /// The plugin's own engines, beside the library's ([`ENGINES`](crate::search::engines::ENGINES)):
    /// each registered with its [`Engine`] (`algebraic`: linear algebra over GF(2)).
    #[serde(skip)]
    pub engines: &'static [&'static Engine],
}

/// A puzzle kind: turns a config into a ready [`Instance`].
pub trait Plugin: Send + Sync {
    /// Its name, keys, goals and an example.
    fn info(&self) -> PluginInfo;
    /// Validates `config` (every error names its file, line and key) into an instance, within
    /// `limits` (time, Ctrl-C, memory: a setup that passes one stops with
    /// [`Error::Limit`]).
    fn build(&self, config: &Config, limits: &Limits) -> Result<Instance>;
    /// The judges this plugin answers (none by default).
    fn judges(&self) -> &'static [Judge] {
        &[]
    }
}

/// A judge problem: its exact input and output formats, answered by a plugin's engines.
///
/// `run` reads the whole input (the judge's stdin) and returns exactly the expected output; a
/// malformed stream is an [`Error`] that names its line. Tables it builds go through the cache.
#[derive(Clone, Copy)]
pub struct Judge {
    /// The name on the command line (`poj1753`).
    pub name: &'static str,
    /// One line: the input, and what is printed.
    pub summary: &'static str,
    /// Answers a whole input.
    pub run: fn(input: &str, cache: &TableCache) -> Result<String>,
}

impl std::fmt::Debug for Judge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Judge").field("name", &self.name).finish()
    }
}

/// The puzzle kinds a program knows, by `[puzzle] kind`; see the module docs.
#[derive(Default)]
pub struct Registry {
    plugins: Vec<&'static dyn Plugin>,
}

impl std::fmt::Debug for Registry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kinds: Vec<_> = self.plugins.iter().map(|p| p.info().kind).collect();
        f.debug_struct("Registry").field("kinds", &kinds).finish()
    }
}

impl Registry {
    /// A registry of no puzzle.
    pub fn new() -> Registry {
        Registry::default()
    }

    /// This registry with `plugin` added after the others. A kind already known is refused
    /// (the first plugin of a name keeps it), and so is a judge name already known.
    pub fn with(mut self, plugin: &'static dyn Plugin) -> Result<Registry> {
        let kind = plugin.info().kind;
        let at = Location::registry();
        if self.find(kind).is_some() {
            let why = format!("a puzzle kind `{kind}` is already registered");
            return Err(Error::input(at, why));
        }
        if let Some(judge) = plugin
            .judges()
            .iter()
            .find(|j| self.judge(j.name).is_some())
        {
            let why = format!("a judge `{}` is already registered", judge.name);
            return Err(Error::input(at, why));
        }
        self.plugins.push(plugin);
        Ok(self)
    }

    /// Every plugin, in the order they were added.
    pub fn plugins(&self) -> &[&'static dyn Plugin] {
        &self.plugins
    }

    /// The plugin named `kind`.
    pub fn find(&self, kind: &str) -> Option<&'static dyn Plugin> {
        self.plugins.iter().copied().find(|p| p.info().kind == kind)
    }

    /// Every judge of every plugin.
    pub fn judges(&self) -> Vec<Judge> {
        self.plugins
            .iter()
            .flat_map(|p| p.judges())
            .copied()
            .collect()
    }

    /// Every mode some plugin offers, with what it does: the library's, then each plugin's own
    /// in the order they were added, `auto` last.
    pub fn modes(&self) -> Vec<(Mode, &'static str)> {
        let library = crate::search::engines::ENGINES.iter();
        let own = self.plugins.iter().flat_map(|p| p.info().engines.iter());
        (library.chain(own))
            .map(|e| (e.mode, e.about))
            .chain([(Mode::AUTO, Mode::AUTO_ABOUT)])
            .collect()
    }

    /// The judge named `name`.
    pub fn judge(&self, name: &str) -> Option<Judge> {
        self.judges().into_iter().find(|j| j.name == name)
    }

    /// Builds the instance that `config`'s `[puzzle] kind` names within `limits`, with the config's
    /// `[search] mode` as its default (checked against the modes the instance has).
    pub fn build(&self, config: &Config, limits: &Limits) -> Result<Instance> {
        let kind = &config.kind;
        let plugin = self.find(kind.get_ref()).ok_or_else(|| {
            let known: Vec<_> = self.plugins.iter().map(|p| p.info().kind).collect();
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
        let info = plugin.info();
        if let Some(kind) = &config.goal {
            check_goal(config, &info, kind)?;
        }
        if let Some(kind) = &config.heuristic {
            let error = |message: String| config.error_at(kind.span(), "heuristic.kind", message);
            let known: Vec<_> = info.heuristics.iter().map(|(name, _)| *name).collect();
            if known.is_empty() {
                return Err(error(
                    "not used here: this puzzle has no heuristic (no astar, idastar)".into(),
                ));
            }
            if !known.contains(&kind.get_ref().as_str()) {
                return Err(error(format!(
                    "unknown heuristic `{}` (known: {})",
                    kind.get_ref(),
                    known.join(", ")
                )));
            }
        }
        let mut instance = plugin.build(config, limits)?;
        if let Some((mode, span)) = config.mode() {
            instance
                .set_default_mode(mode)
                .map_err(|e| config.error_at(span, "search.mode", e.to_string()))?;
        }
        Ok(instance)
    }

    /// The instance of a plugin's example config (what `statespace puzzles` describes).
    pub fn example(&self, plugin: &dyn Plugin) -> Result<Instance> {
        let info = plugin.info();
        let config = Config::parse(&format!("<example of {}>", info.kind), info.example)?;
        self.build(&config, &Limits::default())
    }
}

/// Refuses a `[goal] kind` that `info` does not declare, at its line, naming the kinds it does:
/// the one place that says so, so a plugin's `build` meets only the goals it declared.
fn check_goal(config: &Config, info: &PluginInfo, kind: &Spanned<String>) -> Result<()> {
    let known: Vec<_> = info.goals.iter().map(|(name, _)| *name).collect();
    if known.contains(&kind.get_ref().as_str()) {
        return Ok(());
    }
    let message = if known.is_empty() {
        format!("not used here: a {} puzzle has no goal kinds", info.kind)
    } else {
        format!(
            "unknown {} goal `{}` (known: {})",
            info.kind,
            kind.get_ref(),
            known.join(", ")
        )
    };
    Err(config.error_at(kind.span(), "goal.kind", message))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::Kit;
    use crate::toys::Line;

    /// A plugin that declares `goals` and whose build reads no `[goal]` at all: whatever the
    /// registry lets through, it builds.
    struct LinePlugin(&'static [(&'static str, &'static str)]);

    impl Plugin for LinePlugin {
        fn info(&self) -> PluginInfo {
            PluginInfo {
                kind: "line",
                summary: "a line of states",
                puzzle_keys: &[],
                goals: self.0,
                goal_keys: &[],
                heuristics: &[],
                heuristic_keys: &[],
                scramble: None,
                example: "[puzzle]\nkind = \"line\"\n",
                engines: &[],
            }
        }
        fn build(&self, _config: &Config, _limits: &Limits) -> Result<Instance> {
            Ok(Kit::new(Line(5), "a line").build(Mode::AUTO))
        }
    }

    static ENDS: LinePlugin = LinePlugin(&[("end", "state 0 (default)"), ("far-end", "the last")]);
    static NO_GOALS: LinePlugin = LinePlugin(&[]);

    /// The registry's answer to `[goal] kind = "goal"`: built, or the error line.
    fn built(plugin: &'static LinePlugin, goal: &str) -> std::result::Result<(), String> {
        let text = format!("[puzzle]\nkind = \"line\"\n\n[goal]\nkind = \"{goal}\"\n");
        let config = Config::parse("c.toml", &text).unwrap();
        let registry = Registry::new().with(plugin).unwrap();
        let built = registry.build(&config, &Limits::default());
        built.map(|_| ()).map_err(|e| e.to_string())
    }

    #[test]
    fn a_goal_kind_the_plugin_does_not_declare_is_refused_at_its_line_before_the_build() {
        // The plugin would build anything: the refusal is the registry's.
        assert_eq!(
            built(&ENDS, "middle"),
            Err("c.toml:5: goal.kind: unknown line goal `middle` (known: end, far-end)".into())
        );
        assert_eq!(
            built(&NO_GOALS, "end"),
            Err("c.toml:5: goal.kind: not used here: a line puzzle has no goal kinds".into())
        );
        // A declared kind reaches the plugin.
        assert_eq!(built(&ENDS, "far-end"), Ok(()));
    }
}
