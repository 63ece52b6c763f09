//! The configured puzzle the CLI drives ([`Instance`]) and the type-erased results it hands back
//! ([`Solution`], [`Exploration`]; exports are [`StateGraph`]s).
//!
//! # Why a table of closures
//!
//! Engines are generic over a space's capabilities, which is what makes them fast, but the CLI
//! only learns a config's `kind` at run time. An [`Instance`] bridges the two: it is a list of
//! engines by [`Mode`], each a closure that parses a board, runs a generic engine on the
//! plugin's concrete space and converts the result to text, plus an explorer and an exporter.
//! The closures are made in one place, the [`kit`](crate::kit), from the capabilities a space
//! declares; a plugin adds its own engines (Flip's algebra, Shift's region solver) with
//! [`Instance::with_engine`]. Mode checks, `auto`, the default mode and the messages that list
//! the supported modes live here, once, for every puzzle.
//!
//! The trade-off: one indirect call per solve (nothing per state) buys a CLI and a test suite
//! that know nothing about any puzzle's types.

use crate::board_text::BoardText;
use crate::cache::TableCache;
use crate::config::{Engine, ExploreFrom, Facts, Mode, UnsupportedMode, check_mode, choose};
use crate::error::{Error, Location, Result};
use crate::graph::{ExportLimits, StateGraph};
use crate::limit::{Limit, Limits};
use crate::options::SearchOptions;
use crate::picture::BoardStyle;
use crate::search::layers::Layers;
pub use crate::search::table::TableDetails;
use crate::search::{Outcome, Report, Stats};
use serde_json::Value;
use std::fmt::Display;
use std::sync::Arc;

/// An engine as the instance holds it: board text, limits, options and the table cache in, a
/// [`Solution`] out.
pub type SolveFn =
    Box<dyn Fn(&BoardText, &Limits, &SearchOptions, &TableCache) -> Result<Solution> + Send + Sync>;

/// A whole-space sweep: the config's start board (for forward sweeps), options and a progress
/// callback in, an [`Exploration`] out.
pub type ExploreFn = Box<
    dyn Fn(Option<&BoardText>, &ExploreOptions, &mut dyn FnMut(u32, u64)) -> Result<Exploration>
        + Send
        + Sync,
>;

/// A state-graph export: the start board, limits and a progress callback in, a graph out.
pub type ExportFn = Box<
    dyn Fn(&BoardText, &ExportLimits, &mut dyn FnMut(u32, u64)) -> Result<StateGraph> + Send + Sync,
>;

/// A configured puzzle (size, goal): solves boards given as text with the engines it has.
pub struct Instance {
    description: String,
    /// The engines, each with what it is (its guarantees decide which list solutions, and
    /// whether an answer is proven minimal).
    engines: Vec<(&'static Engine, SolveFn)>,
    /// What `auto`'s rule knows of the puzzle.
    facts: Facts,
    /// The engine the plugin asked `auto` to run, when it knows better than the rule.
    preferred: Option<Mode>,
    default_mode: Option<Mode>,
    explore: Option<ExploreFn>,
    export: Option<ExportFn>,
    /// Why engines are missing (`the search engines take at most 64 cells`), added to refusals.
    note: Option<String>,
    /// How the boards' text is drawn (pictures of solutions, the HTML export).
    style: BoardStyle,
    /// Where engines that build tables keep them between runs (disabled unless set).
    cache: TableCache,
}

impl Instance {
    /// An instance with no engine yet; `description` names the puzzle in one line
    /// (`Sliding tiles 3 x 3, goal ordered`).
    pub fn new(description: impl Into<String>) -> Self {
        Instance {
            description: description.into(),
            engines: Vec::new(),
            facts: Facts::default(),
            preferred: None,
            default_mode: None,
            explore: None,
            export: None,
            note: None,
            style: BoardStyle::default(),
            cache: TableCache::disabled(),
        }
    }

    /// Keeps the tables engines build in `cache` (the CLI's `--cache-dir`, `--no-cache`).
    pub fn with_cache(mut self, cache: TableCache) -> Self {
        self.cache = cache;
        self
    }

    /// Adds `engine` (the library's, from the [engine table](crate::search::engines), or a
    /// plugin's own), replacing one of the same mode the instance had (a plugin's own
    /// implementation takes the place of the generic one).
    pub fn with_engine(mut self, engine: &'static Engine, run: SolveFn) -> Self {
        assert!(
            engine.mode != Mode::AUTO,
            "auto is a choice among engines: with_auto"
        );
        self.engines.retain(|(e, _)| e.mode != engine.mode);
        self.engines.push((engine, run));
        self
    }

    /// Makes `auto` run `mode` (which the instance must have): for a plugin that knows its
    /// puzzle better than the rule ([`choose`]) does.
    pub fn with_auto(mut self, mode: Mode) -> Self {
        self.preferred = Some(mode);
        self
    }

    /// What `auto`'s rule knows of the puzzle (the size of its space, whether moves are
    /// costly).
    pub fn with_facts(mut self, facts: Facts) -> Self {
        self.facts = facts;
        self
    }

    /// The mode used when neither the command line nor the config names one.
    pub fn with_default_mode(mut self, mode: Mode) -> Self {
        self.default_mode = Some(mode);
        self
    }

    /// Sets the explorer.
    pub fn with_explore(mut self, explore: ExploreFn) -> Self {
        self.explore = Some(explore);
        self
    }

    /// Sets the exporter.
    pub fn with_export(mut self, export: ExportFn) -> Self {
        self.export = Some(export);
        self
    }

    /// Takes another instance's explorer for the sweeps from the goals, and for the default
    /// (Shift explores its one-colour mask space while it solves whole boards); `--from start`
    /// stays this instance's: the start board is one of this instance's boards.
    pub fn with_explore_of(mut self, other: Instance) -> Self {
        let (mine, theirs) = (self.explore.take(), other.explore);
        self.explore = match (mine, theirs) {
            (Some(mine), Some(theirs)) => Some(Box::new(move |start, options, on_layer| {
                match options.from {
                    Some(ExploreFrom::Start) => mine(start, options, on_layer),
                    _ => theirs(start, options, on_layer),
                }
            })),
            (mine, theirs) => theirs.or(mine),
        };
        self
    }

    /// Why some engines are missing, said in every refusal: `search mode X is not available
    /// {note}`, `export is not available {note}` (`for a 10 x 10 board (100 cells): ...`).
    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.note = Some(note.into());
        self
    }

    /// How the boards' text is drawn.
    pub fn with_style(mut self, style: BoardStyle) -> Self {
        self.style = style;
        self
    }

    /// How the boards' text is drawn (pictures of solutions, the HTML export).
    pub fn style(&self) -> &BoardStyle {
        &self.style
    }

    /// The one-line description.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// The modes this instance runs: the library's engines in the engine table's order, then
    /// the plugin's own in the order it added them, then `auto` (when it has engines).
    pub fn modes(&self) -> Vec<Mode> {
        let mut modes: Vec<Mode> = self.engines().iter().map(|e| e.mode).collect();
        if !modes.is_empty() {
            modes.push(Mode::AUTO);
        }
        modes
    }

    /// The engines this instance runs, as [`modes`](Self::modes) lists them (without `auto`).
    pub fn engines(&self) -> Vec<&'static Engine> {
        let mut engines: Vec<&'static Engine> = self.engines.iter().map(|(e, _)| *e).collect();
        // A stable sort: the plugin's own engines keep the order they were added in.
        engines.sort_by_key(|e| crate::search::engines::rank(e.mode));
        engines
    }

    fn has(&self, mode: Mode) -> bool {
        self.modes().contains(&mode)
    }

    fn engine(&self, mode: Mode) -> Option<&'static Engine> {
        self.engines
            .iter()
            .find(|(e, _)| e.mode == mode)
            .map(|(e, _)| *e)
    }

    /// What `auto` runs for `solutions` asked: the rule over this instance's engines
    /// ([`choose`]), else its first engine.
    fn auto_engine(&self, solutions: usize) -> Option<Mode> {
        choose(&self.engines(), &self.facts, solutions, self.preferred)
            .or_else(|| self.engines().first().map(|e| e.mode))
    }

    /// The mode to use when the command line names none: the config's (set by the registry),
    /// else the plugin's default, else `auto`.
    pub fn default_mode(&self) -> Mode {
        self.default_mode
            .filter(|&m| self.has(m))
            .unwrap_or(Mode::AUTO)
    }

    /// The mode named `name`, if this instance runs it; else the message that lists the
    /// supported modes (and says why others are missing, when the plugin said). Checked before
    /// any work.
    pub fn mode_named(&self, name: &str) -> std::result::Result<Mode, UnsupportedMode> {
        check_mode(name, &self.modes()).map_err(|unsupported| UnsupportedMode {
            note: self.note.clone(),
            ..unsupported
        })
    }

    /// Checks `mode` before any work, as [`mode_named`](Self::mode_named).
    pub fn check_mode(&self, mode: Mode) -> std::result::Result<(), UnsupportedMode> {
        self.mode_named(mode.name()).map(|_| ())
    }

    /// Makes the mode named `name` the default (the config's `[search] mode`), if the instance
    /// has it.
    pub fn set_default_mode(&mut self, name: &str) -> std::result::Result<(), UnsupportedMode> {
        self.default_mode = Some(self.mode_named(name)?);
        Ok(())
    }

    /// The engine `mode` runs when `solutions` are asked for: `auto` resolved by its rule
    /// ([`choose`]: with more than one, an engine that lists them); an error in one line when
    /// that engine gives a single solution and more are asked, naming the engines of this
    /// puzzle that list them. Checked before any work.
    pub fn engine_for(&self, mode: Mode, solutions: usize) -> Result<Mode> {
        self.check_mode(mode).map_err(|e| {
            Error::input(Location::command("solve").with_key("mode"), e.to_string())
        })?;
        let engine = match mode {
            Mode::AUTO => self.auto_engine(solutions),
            other => Some(other),
        }
        .expect("checked: auto has an engine");
        let lists = |m: Mode| self.engine(m).is_some_and(|e| e.gives.lists);
        if solutions <= 1 || lists(engine) {
            return Ok(engine);
        }
        let listing: Vec<&str> = (self.engines().into_iter())
            .filter(|e| e.gives.lists)
            .map(|e| e.mode.name())
            .collect();
        let message = match self.auto_engine(solutions).filter(|&m| lists(m)) {
            Some(auto) => format!(
                "{solutions} asked, but the {engine} engine gives one solution; these list \
                 several here: {} (auto runs {auto})",
                listing.join(", "),
            ),
            None => format!(
                "{solutions} asked, but no engine of {} lists several solutions: ask for 1",
                self.description
            ),
        };
        Err(Error::input(
            Location::command("solve").with_key("solutions"),
            message,
        ))
    }

    /// [`engine_for`](Self::engine_for) with every option checked against the engine: an
    /// engine that runs in one process refuses [`SearchOptions::cluster`] in one line, naming
    /// those that do not. Checked before any work.
    pub fn engine_with(&self, mode: Mode, options: &SearchOptions) -> Result<Mode> {
        let engine = self.engine_for(mode, options.solutions)?;
        let runs_across = |e: &Engine| e.options.contains(&"cluster");
        if options.cluster.is_none() || self.engine(engine).is_some_and(runs_across) {
            return Ok(engine);
        }
        let across: Vec<&str> = (self.engines().into_iter())
            .filter(|e| runs_across(e))
            .map(|e| e.mode.name())
            .collect();
        let message = match across.is_empty() {
            true => format!(
                "no engine of {} searches across processes",
                self.description
            ),
            false => format!(
                "the {engine} engine runs in one process; these search across processes here: \
                 {} (--mode)",
                across.join(", ")
            ),
        };
        Err(Error::input(Location::flag("--processes"), message))
    }

    /// Parses `board` and solves it with `mode` within `limits`, as `options` ask. `auto` runs
    /// the engine it stands for; the solution names that engine and carries `"auto": true`.
    /// With [`SearchOptions::solutions`] above 1, the engine must list solutions
    /// ([`engine_for`](Self::engine_for)). Whether the answer is proven
    /// ([`Solution::optimal`]) is the engine's guarantee.
    pub fn solve(
        &self,
        board: &BoardText,
        mode: Mode,
        limits: &Limits,
        options: &SearchOptions,
    ) -> Result<Solution> {
        self.check_mode(mode).map_err(|e| {
            Error::input(Location::file(&board.file).with_key("mode"), e.to_string())
        })?;
        let engine = self.engine_with(mode, options)?;
        let (about, solve) = self
            .engines
            .iter()
            .find(|(e, _)| e.mode == engine)
            .expect("checked: the instance has this engine");
        let mut solution = solve(board, limits, options, &self.cache)?;
        solution.mode = engine;
        solution.asked = options.solutions.max(1);
        solution.optimal = about.gives.optimal
            && !matches!(solution.answer, Answer::LimitReached(_))
            && solution.details.iter().all(|d| d.proven() != Some(false));
        if !about.gives.optimal {
            solution.details.push(Arc::new(NotProvenMinimal));
        }
        if mode == Mode::AUTO {
            solution.details.push(Arc::new(ChosenByAuto));
        }
        Ok(solution)
    }

    /// Sweeps a whole space and counts it by distance (see
    /// [`search::layers`](crate::search::layers)), from where `options.from` says: backward
    /// from the goal set (every state that can reach a goal), or forward from `start` (the
    /// config's start board; `None` when it has none: its component). By default, backward
    /// when the puzzle can (invertible moves, a goal set it lists), else forward. A direction
    /// the puzzle cannot sweep is one error line. `on_layer(depth, states so far)` is called
    /// after each layer, for a progress line.
    pub fn explore(
        &self,
        start: Option<&BoardText>,
        options: &ExploreOptions,
        on_layer: &mut dyn FnMut(u32, u64),
    ) -> Result<Exploration> {
        match &self.explore {
            Some(explore) => explore(start, options, on_layer),
            None => Err(self.refusal("explore")),
        }
    }

    /// Parses `board` and returns the state graph around it within `limits` (see
    /// [`graph::build`](crate::graph::build)). `on_layer(depth, states)` is called as the BFS
    /// advances, for a progress line.
    pub fn export(
        &self,
        board: &BoardText,
        limits: &ExportLimits,
        on_layer: &mut dyn FnMut(u32, u64),
    ) -> Result<StateGraph> {
        match &self.export {
            Some(export) => export(board, limits, on_layer),
            None => Err(self.refusal("export")),
        }
    }

    fn refusal(&self, what: &str) -> Error {
        let message = match &self.note {
            Some(note) => format!("{what} is not available {note}"),
            None => format!("{what} is not available for {}", self.description),
        };
        Error::input(Location::command(what), message)
    }
}

/// How `explore` runs: where from, its limits and threads (`None`: the engine chooses by size).
#[derive(Clone, Debug, Default)]
pub struct ExploreOptions {
    /// From the start or the goals; `None`: the goals when the puzzle can, else the start.
    pub from: Option<ExploreFrom>,
    /// Time, Ctrl-C, depth, states, memory.
    pub limits: Limits,
    /// Worker threads; `None`: chosen by the space's size.
    pub threads: Option<usize>,
    /// Run on timely-dataflow workers over threads and processes instead
    /// ([`search::cluster`](crate::search::cluster)); `threads` is then not used.
    pub cluster: Option<crate::search::cluster::Cluster>,
    /// Also count the symmetry classes of every layer (`explore --symmetry`; see
    /// [`layers::classes`](crate::search::layers::classes)): backward from the goals, in this
    /// process, where the puzzle has symmetries that keep distances; refused elsewhere.
    pub symmetry: bool,
}

/// Which way an exploration went.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    /// From every goal over inverse moves: distances are to the goal set.
    Backward,
    /// From the start board: distances are from the start.
    Forward,
}

/// A whole-space sweep, with states as text: what `statespace explore` prints.
#[derive(Clone, Debug)]
pub struct Exploration {
    /// One line naming the puzzle, for titles: `Flip 5 x 5, goal uniform`.
    pub description: String,
    /// Backward from the goals or forward from the start.
    pub direction: Direction,
    /// The expansion used: `word-at-a-time`, `block-at-a-time`, `per-state` (a bitset over the
    /// dense index) or `hash-set` (a space with no dense index).
    pub strategy: &'static str,
    /// Every state of the space (reachable or not).
    pub space_size: u128,
    /// `histogram[d]`: states at distance `d` (completed layers only when stopped).
    pub histogram: Vec<u64>,
    /// A state at the largest distance, as board text.
    pub farthest: Option<String>,
    /// `None` when the whole reachable space was swept; else the limit that stopped it.
    pub stopped: Option<Limit>,
    /// What the sweep did.
    pub stats: Stats,
    /// Threads the run used.
    pub threads: usize,
    /// Bytes the engine allocated (its bitsets; on a cluster, this process's).
    pub engine_bytes: u64,
    /// How the cluster ran, when the sweep ran on one.
    pub cluster: Option<crate::search::cluster::Report>,
    /// Why the space has no dense index, when it was swept with a hash set for that reason
    /// (`the index of 2x2x2x2 needs 4.3e22 values, past 2^64`): said beside the histogram.
    pub no_index: Option<String>,
    /// The symmetry classes by distance, when [`ExploreOptions::symmetry`] asked for them.
    pub classes: Option<crate::search::layers::classes::Classes>,
}

impl Exploration {
    /// Erases an engine's [`Layers`]: the farthest state becomes board text.
    pub fn from_layers<S: Copy>(
        description: String,
        direction: Direction,
        strategy: &'static str,
        space_size: u128,
        layers: Layers<S>,
        board: impl Fn(S) -> String,
    ) -> Exploration {
        Exploration {
            description,
            direction,
            strategy,
            space_size,
            histogram: layers.histogram,
            farthest: layers.farthest.map(board),
            stopped: layers.stopped,
            stats: layers.stats,
            threads: layers.threads,
            engine_bytes: layers.memory_bytes,
            cluster: None,
            no_index: None,
            classes: None,
        }
    }

    /// States found: the sum of the histogram.
    pub fn reachable(&self) -> u64 {
        self.histogram.iter().sum()
    }
}

/// The answer to one board, with states as text and moves as labels.
#[derive(Clone, Debug)]
pub struct Solution {
    /// The mode that produced the answer (`auto` resolved to the engine it chose).
    pub mode: Mode,
    /// The start board as text.
    pub start: String,
    /// Solved, unsolvable or stopped.
    pub answer: Answer,
    /// The further optimal solutions after the answer's, as move labels, when more than one was
    /// asked for ([`SearchOptions::solutions`]); each as long as the answer's path.
    pub others: Vec<Vec<String>>,
    /// How many solutions were asked for (1 by default): with fewer found, the answer and
    /// [`others`](Self::others) are every optimal solution there is.
    pub asked: usize,
    /// Whether the answer is proven: a path of the fewest moves, or a proof that there is
    /// none (`"optimal"` in the JSON). False for an engine that does not guarantee it (beam
    /// search), an answer its engine could not prove, and a run stopped by a limit.
    pub optimal: bool,
    /// What the engine did (all zero when an invariant proved the answer).
    pub stats: Stats,
    /// The invariant that proved the start unsolvable without a search (`parity`), if one did.
    pub proof: Option<&'static str>,
    /// What the engine adds besides the path (the table it used, what the algebra proved):
    /// printed through [`Details`], whatever the engine.
    pub details: Vec<Arc<dyn Details>>,
}

/// What an engine adds to its answer besides the path, as a typed value that prints itself: the
/// command line prints every engine's details through this one trait and knows none of their
/// fields. Only [`json`](Self::json) is required.
pub trait Details: std::fmt::Debug + Send + Sync {
    /// Fields added to the `--json` object.
    fn json(&self) -> serde_json::Map<String, Value>;
    /// Words after the headline's move count: `not proven minimal`.
    fn qualifier(&self) -> Option<String> {
        None
    }
    /// Whether this answer is proven minimal, where the engine decides it answer by answer
    /// (the Flip algebra on boards too large to enumerate): `Some(false)` makes the solution
    /// not [`optimal`](Solution::optimal). `None`: as the engine guarantees.
    fn proven(&self) -> Option<bool> {
        None
    }
    /// Labelled boards drawn instead of the start and the board after each move (the algebra
    /// draws the start, the cells pressed and the final board of a large board).
    fn summary(&self) -> Option<Vec<(String, String)>> {
        None
    }
    /// Lines printed after the boards.
    fn lines(&self, answer: &Answer) -> Vec<String> {
        let _ = answer;
        Vec::new()
    }
}

/// An answer of an engine that does not guarantee the fewest moves (beam search): said after
/// the move count.
#[derive(Debug)]
struct NotProvenMinimal;

impl Details for NotProvenMinimal {
    fn json(&self) -> serde_json::Map<String, Value> {
        serde_json::Map::new()
    }
    fn qualifier(&self) -> Option<String> {
        Some("not proven minimal".into())
    }
}

/// `"auto": true`: `auto` chose the engine that `mode` names.
#[derive(Debug)]
struct ChosenByAuto;

impl Details for ChosenByAuto {
    fn json(&self) -> serde_json::Map<String, Value> {
        serde_json::Map::from_iter([("auto".to_string(), Value::Bool(true))])
    }
}

/// `table_*` in the JSON: what the table engine used.
impl Details for TableDetails {
    fn json(&self) -> serde_json::Map<String, Value> {
        let mut json = serde_json::Map::new();
        json.insert("table_bytes".into(), self.bytes.into());
        json.insert("table_bits_per_entry".into(), self.bits_per_entry.into());
        if let Some(reused) = self.reused {
            json.insert("table_reused".into(), reused.into());
        }
        if let Some(loaded) = self.loaded {
            json.insert("table_loaded".into(), loaded.into());
        }
        json
    }
}

/// How a solve ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// The fewest moves: their labels and the board after each.
    Solved {
        /// The move labels, in order.
        moves: Vec<String>,
        /// The board after each move.
        boards: Vec<String>,
    },
    /// Proven: no sequence of moves reaches the goal.
    Unsolvable,
    /// Stopped at a limit before deciding.
    LimitReached(Limit),
}

impl Solution {
    /// An answer of `mode` from `start` (board text), with the work done: for an engine of a
    /// plugin's own that has no [`Report`] (the Flip algebra on boards no space holds).
    pub fn new(mode: Mode, start: String, answer: Answer, stats: Stats) -> Solution {
        Solution {
            mode,
            start,
            answer,
            others: Vec::new(),
            asked: 1,
            optimal: false,
            stats,
            proof: None,
            details: Vec::new(),
        }
    }

    /// Erases an engine's [`Report`]: moves become labels, states become board text.
    pub fn from_report<S: Copy, M: Display>(
        mode: Mode,
        start: S,
        report: Report<S, M>,
        board: impl Fn(S) -> String,
    ) -> Solution {
        let answer = match report.outcome {
            Outcome::Solved(path) => Answer::Solved {
                moves: path.steps.iter().map(|s| s.mv.to_string()).collect(),
                boards: path.steps.iter().map(|s| board(s.state)).collect(),
            },
            Outcome::Unsolvable => Answer::Unsolvable,
            Outcome::LimitReached(limit) => Answer::LimitReached(limit),
        };
        let mut solution = Solution::new(mode, board(start), answer, report.stats);
        solution.others = (report.others.iter())
            .map(|path| path.steps.iter().map(|s| s.mv.to_string()).collect())
            .collect();
        solution
    }

    /// Every solution found, the answer's first, as move labels: one when one was asked for;
    /// none unless solved.
    pub fn solutions(&self) -> Vec<Vec<String>> {
        match &self.answer {
            Answer::Solved { moves, .. } => std::iter::once(moves.clone())
                .chain(self.others.iter().cloned())
                .collect(),
            _ => Vec::new(),
        }
    }

    /// Whether the solutions found are every optimal solution there is: solved with fewer than
    /// [`asked`](Self::asked).
    pub fn all_optimal(&self) -> bool {
        matches!(self.answer, Answer::Solved { .. }) && 1 + self.others.len() < self.asked
    }

    /// This solution with `details` added.
    pub fn with_details(mut self, details: impl Details + 'static) -> Solution {
        self.details.push(Arc::new(details));
        self
    }

    /// Every detail's JSON fields, in order.
    pub fn json_fields(&self) -> serde_json::Map<String, Value> {
        self.details.iter().flat_map(|d| d.json()).collect()
    }

    /// The details' qualifiers of the headline, joined.
    pub fn qualifier(&self) -> Option<String> {
        let words: Vec<String> = self.details.iter().filter_map(|d| d.qualifier()).collect();
        (!words.is_empty()).then(|| words.join(", "))
    }

    /// The first detail's summary boards, if one draws them.
    pub fn summary(&self) -> Option<Vec<(String, String)>> {
        self.details.iter().find_map(|d| d.summary())
    }

    /// Every detail's lines after the boards.
    pub fn lines(&self) -> Vec<String> {
        self.details
            .iter()
            .flat_map(|d| d.lines(&self.answer))
            .collect()
    }

    /// `start` proven unsolvable by the invariant `proof`, before any search.
    pub fn proven_unsolvable(mode: Mode, start: String, proof: &'static str) -> Solution {
        Solution {
            mode,
            start,
            answer: Answer::Unsolvable,
            others: Vec::new(),
            asked: 1,
            optimal: true,
            stats: Stats::default(),
            proof: Some(proof),
            details: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::Kit;
    use crate::toys::{Lights, LightsGoal};

    fn lights() -> Lights {
        Lights::new(3, 3, true, LightsGoal::AllOff)
    }

    #[test]
    fn several_solutions_run_an_engine_that_lists_them_or_are_refused_in_one_line() {
        let table = Kit::new(lights(), "Lights").table().build(Mode::AUTO);
        assert_eq!(table.engine_for(Mode::AUTO, 1).unwrap(), Mode::TABLE);
        assert_eq!(table.engine_for(Mode::AUTO, 3).unwrap(), Mode::TABLE);
        assert_eq!(table.engine_for(Mode::BFS, 1).unwrap(), Mode::BFS);
        let refused = table.engine_for(Mode::BFS, 3).unwrap_err().to_string();
        assert_eq!(
            refused,
            "solve: solutions: 3 asked, but the bfs engine gives one solution; these list \
             several here: iddfs, table (auto runs table)"
        );
        // No table: auto's BFS gives way to IDDFS.
        let plain = Kit::new(lights(), "Lights").indexed().build(Mode::AUTO);
        assert_eq!(plain.engine_for(Mode::AUTO, 1).unwrap(), Mode::BFS);
        assert_eq!(plain.engine_for(Mode::AUTO, 2).unwrap(), Mode::IDDFS);
        // A plugin's own engine gives one; replacing a listing engine makes it give one.
        const OWN: Engine = Engine {
            mode: Mode::new("own"),
            about: "a plugin's own",
            needs: &[],
            gives: crate::config::Gives::EXACT,
            options: &[],
            auto: crate::config::Auto::Never,
        };
        const ONE_AT_A_TIME: Engine = Engine {
            gives: crate::config::Gives::EXACT,
            ..crate::search::iddfs::ENGINE
        };
        let one: fn() -> SolveFn = || Box::new(|_, _, _, _| unreachable!("not run"));
        let mine = Instance::new("Mine").with_engine(&OWN, one());
        let refused = mine.engine_for(Mode::AUTO, 2).unwrap_err().to_string();
        assert_eq!(
            refused,
            "solve: solutions: 2 asked, but no engine of Mine lists several solutions: ask for 1"
        );
        let replaced = Kit::new(lights(), "Lights")
            .build(Mode::AUTO)
            .with_engine(&ONE_AT_A_TIME, one());
        assert!(replaced.engine_for(Mode::AUTO, 2).is_err());
    }

    #[test]
    fn a_solution_carries_the_others_and_says_when_they_are_all() {
        use crate::space::BoardFormat;
        let instance = Kit::new(lights(), "Lights").table().build(Mode::AUTO);
        let solve_board = |board: u64, mode, solutions| {
            let board = BoardText::from_file("t", lights().format(board));
            let options = SearchOptions {
                solutions,
                ..SearchOptions::default()
            };
            instance
                .solve(&board, mode, &Limits::default(), &options)
                .unwrap()
        };
        // The first board with several optimal solutions.
        let board = (0..512)
            .find(|&b| solve_board(b, Mode::TABLE, 2).solutions().len() == 2)
            .expect("a board with two solutions");
        let solve = |mode, solutions| solve_board(board, mode, solutions);
        let one = solve(Mode::TABLE, 1);
        assert!(one.others.is_empty() && one.asked == 1 && !one.all_optimal());
        let all = solve(Mode::TABLE, 1000);
        let count = all.solutions().len();
        assert!(count > 1 && all.all_optimal(), "{count}");
        assert_eq!(solve(Mode::IDDFS, 1000).solutions(), all.solutions());
        let first = solve(Mode::AUTO, count);
        assert_eq!(first.solutions(), all.solutions());
        assert!(!first.all_optimal(), "as many as asked: there may be more");
        let two = solve(Mode::IDDFS, 2);
        assert_eq!(two.solutions(), all.solutions()[..2]);
    }
}
