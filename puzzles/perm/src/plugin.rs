//! The permutation-puzzle plugin: `[puzzle] kind = "perm"` -> an [`Instance`] through the
//! generic glue.
//!
//! ```toml
//! [puzzle]
//! kind = "perm"
//! definition = "defs/2x2x2.tws"   # relative to this file; .json is KPuzzle, else ksolve text
//!                                 # ("builtin:2x2x2": the project's own, in the binary)
//! moves = ["U", "F", "R"]         # the generators (default: every move but derived ones and rotations)
//! metric = "htm"                  # htm (U, U2, U' each one move) | qtm (U, U' only)
//! [start]
//! scramble = "R U R' F2"          # or board = """CORNERS 0 1 ... / 0 0 ..."""
//! ```
//!
//! The space's byte length picks the state type once, at load ([`with_width`]: `Packed<16>` to
//! `Packed<4096>`, each its own monomorphised set of engines; a smaller state hashes and copies
//! faster, see [`state`](super::state) for the widths). The kit gives bfs,
//! iddfs and export always; the dense index (bitset bfs), the distance table and `explore` when
//! the index fits a `u64` (the kit then refuses what passes the memory budget); the invariants
//! (pieces, orientation, parity) before every engine.
//!
//! Building is under the run's limits ([`Setup`]): reading the definition, its generators'
//! powers and the move tables each count their steps and charge their memory, so a definition
//! of many thousands of moves is read in time linear in its size, and stops at the time limit,
//! on Ctrl-C or before passing the memory budget. At most [`MAX_MOVES`](super::def::MAX_MOVES)
//! moves (powers) and [`MAX_STATE_BYTES`] bytes of state are searched. A state of more than
//! 128 bytes (the 6x6x6 and larger cubes, the gigaminx) has no index (its size is past a
//! `u64`): bfs, iddfs, IDA* and A* over the pruning table or the pattern databases, and export.

use super::classes::{ClassPart, ClassParts, ClassPattern, with_class_table};
use super::def::{Definition, Metric, UnknownMetric};
use super::heuristic::{HeuristicKind, Lookups, MAX_PATTERN_STATES, Pattern, auto_pieces};
use super::space::PermSpace;
use super::state::{ForWidth, MAX_STATE_BYTES, with_width};
use super::{kpuzzle, tws};
use statespace::config::{Checked, Config, Field, Keys, Mode};
use statespace::error::{Error, Location, Result};
use statespace::instance::Instance;
use statespace::kit::{HeuristicFactory, Kit};
use statespace::limit::Limits;
use statespace::registry::{Plugin, PluginInfo};
use statespace::setup::Setup;
use std::path::Path;
use std::sync::Arc;

/// Registered as `perm`.
pub struct PermPlugin;

statespace::keys! {
    /// `[puzzle]` of a permutation puzzle.
    pub struct PermKeys in [puzzle] {
        /// the definition file, relative to the config's directory: .json is KPuzzle, anything else ksolve/twsearch text; builtin:NAME for the project's own (2x2x2, 3x3x3, skewb, pyraminx, loopover-3x3, ...)
        definition: String,
        /// the generators to search with (twsearch's --moves); default every move but derived ones and rotations (x, y, z, Fv)
        moves: Vec<String>,
        /// htm (every power of a generator is one move) or qtm (only the quarter turns)
        #[default("htm")]
        metric: String,
    }
}

statespace::keys! {
    /// `[goal]` of a permutation puzzle.
    pub struct PermGoalKeys in [goal] {}
}

statespace::keys! {
    /// `[heuristic]` of a permutation puzzle: `kind = "auto"` (the default), `"pdb"` or
    /// `"pruning"`, no other key (see [`HeuristicKind`](super::heuristic::HeuristicKind); the patterns are picked from the orbits:
    /// corners, groups of edges; see [`heuristic`](super::heuristic)).
    pub struct PermHeuristicKeys in [heuristic] {
        /// use the definition's rotations and their mirror images that map the moves onto themselves: the pruning table keeps one cell per orbit (the same bytes hold deeper levels), and each pattern database is also looked up at images of the state that read other pieces (a group of edges sees the others); each estimate computes images; where a database's look-ups along the axes keep every move between them (the 3x3x3's twist_pattern), a state whose largest look-ups all equal its distance is one further, and with dual a look-up at the inverse that equals the moves left rules out the first moves it keeps (nxopt's rule); default false; true is refused when there are no such rotations
        symmetry: bool,
        /// also look each pattern database up at the state's inverse (the position of the reversed, inverted moves, as far from solved: Zahavi et al.'s dual look-ups), where a group of edges reads other pieces; default false; true is refused when the puzzle has no inverse (look-alike pieces, Illegal rules, a move whose inverse is not searched)
        dual: bool,
        /// the most states one pattern database has (default 134217728 = 2^27, 64 MiB at 4 bits: the 3x3x3's corners and two groups of six edges); the patterns are picked as large as this allows, e.g. 5109350400 for groups of eight of the 3x3x3's edges (2.4 GiB)
        #[range(1..=i64::MAX)]
        pattern_states: i64,
        /// pick patterns from the classes as pattern_states allows (the corners, groups of edges); default true; false keeps only twist_pattern and class_pattern (one of them is then needed), which is faster where the groups rarely cut what those do (the 3x3x3's random states: the same nodes within 0.3 %, a fifth less time)
        auto_patterns: bool,
        /// also build a pattern database of the twist in every slot (which piece is where forgotten) and of where the named pieces are, as a set: "EDGES 9 10 11 12", the 3x3x3's middle-layer edges, gives the coordinates of Kociemba's first phase (2,217,093,120 states, 1.0 GiB at 4 bits), looked up along the three axes with symmetry = true; "" keeps the twists alone
        twist_pattern: String,
        /// also build a pattern database of some pieces told apart and others as a set, stored one entry per class of the definition's symmetries (rotations and their mirror images) that keep both (tables by symmetry class): "CORNERS 1 2 3 4 5 6 7 8 + EDGES 9 10 11 12", the 3x3x3's corners and middle-layer edges, 43.6 G abstract states in 3.00 G entries (1.4 GiB at 4 bits; built in minutes, then cached); a part that ends in "with twists" is its pieces as a set with the twist in every slot of their class: "EDGES 9 10 11 12 with twists + CORNERS 1 2 3 4 with twists" is vcube's and nxopt's table (the flips and twists, the middle-layer edges' and the up corners' slots: 155 G abstract states in 9.86 G entries); read first, along the three axes with symmetry = true
        class_pattern: String,
        /// bits an entry of the class_pattern's table: 4 (the default) keeps exact distances; 2 keeps lower bounds in half the memory, each 64-byte line a floor byte and 252 entries coded "below the base: the line's floor", base, base + 1, "base + 2 or more" (twsearch's and nxopt's scheme; the base chosen from the distances): vcube's table in 2.3 GiB instead of 4.6, built exact first (both tables in memory once) and cached compact
        #[range(2..=4)]
        class_bits: i64,
    }
}

/// The project's own definitions (`configs/defs/`), built into the binary: `definition =
/// "builtin:NAME"` needs no file (the example config uses one, so `statespace puzzles` works
/// from any directory).
pub const BUILTIN: &[(&str, &str)] = &[
    ("2x2x2", include_str!("../../../configs/defs/2x2x2.tws")),
    (
        "2x2x2.json",
        include_str!("../../../configs/defs/2x2x2.json"),
    ),
    ("3x3x3", include_str!("../../../configs/defs/3x3x3.tws")),
    (
        "2x2x2-rotations",
        include_str!("../../../configs/defs/2x2x2-rotations.tws"),
    ),
    (
        "3x3x3-rotations",
        include_str!("../../../configs/defs/3x3x3-rotations.tws"),
    ),
    ("wheels", include_str!("../../../configs/defs/wheels.tws")),
    (
        "parity-pair",
        include_str!("../../../configs/defs/parity-pair.tws"),
    ),
    ("4x4x4", include_str!("../../../configs/defs/4x4x4.tws")),
    ("6x6x6", include_str!("../../../configs/defs/6x6x6.tws")),
    ("skewb", include_str!("../../../configs/defs/skewb.tws")),
    (
        "pyraminx",
        include_str!("../../../configs/defs/pyraminx.tws"),
    ),
    (
        "pyraminx-tips",
        include_str!("../../../configs/defs/pyraminx-tips.tws"),
    ),
    ("square1", include_str!("../../../configs/defs/square1.tws")),
    ("rings", include_str!("../../../configs/defs/rings.tws")),
    (
        "loopover-3x3",
        include_str!("../../../configs/defs/loopover-3x3.tws"),
    ),
    (
        "loopover-4x4",
        include_str!("../../../configs/defs/loopover-4x4.tws"),
    ),
    (
        "loopover-3x3-rows",
        include_str!("../../../configs/defs/loopover-3x3-rows.tws"),
    ),
];

/// Reads the definition at `path` within `setup`: KPuzzle JSON for `.json`, ksolve/twsearch
/// text otherwise.
pub fn read_definition(path: &Path, setup: &mut Setup) -> Result<Definition> {
    if path.extension().is_some_and(|e| e == "json") {
        kpuzzle::read(path, setup)
    } else {
        tws::read(path, setup)
    }
}

/// The built-in definition `name` (see [`BUILTIN`]), if there is one, read within `setup`.
pub fn builtin(name: &str, setup: &mut Setup) -> Option<Result<Definition>> {
    let (key, text) = BUILTIN.iter().find(|(k, _)| *k == name)?;
    let file = format!("builtin:{key}");
    Some(if key.ends_with(".json") {
        kpuzzle::parse(text, &file, setup)
    } else {
        tws::parse(text, &file, setup)
    })
}

impl Plugin for PermPlugin {
    fn info(&self) -> PluginInfo {
        PluginInfo {
            kind: "perm",
            summary: "permutation puzzles from a definition file (ksolve/twsearch .tws or KPuzzle .json): cubes, Skewb, Pyraminx, LoopOver",
            puzzle_keys: PermKeys::KEYS,
            goals: &[("solved", "the definition's solved state (default)")],
            goal_keys: PermGoalKeys::KEYS,
            heuristics: &[
                (
                    "auto",
                    "the pattern databases when the table cache holds them (with the pruning table where they tell under 2 moves on average), else a pruning table that grows as the search goes (default)",
                ),
                (
                    "pdb",
                    "the max of pattern databases picked from the orbits, built once and cached",
                ),
                (
                    "pruning",
                    "the states near the solved state, filled as the search pays for it (no build)",
                ),
            ],
            heuristic_keys: PermHeuristicKeys::KEYS,
            scramble: Some(
                "moves applied to the solved state, in the definition's names (`R U2 F'`); any move of the file, a power (`R3`) or a prime",
            ),
            example: "[puzzle]\nkind = \"perm\"\ndefinition = \"builtin:loopover-3x3\"\n",
            engines: &[],
        }
    }

    fn build(&self, config: &Config, limits: &Limits) -> Result<Instance> {
        let mut setup = Setup::new(limits);
        // The one goal kind, `solved`, is all the registry lets through.
        let (keys, _goal) = config.sections::<PermKeys, PermGoalKeys>()?;
        // Read before the definition, so that a misspelt heuristic key costs no parse.
        let heuristic_keys = config.section::<PermHeuristicKeys>()?;
        let chosen = match &heuristic_keys {
            Some(keys) => HeuristicKind::from_kind(keys.kind.get_ref()),
            None => HeuristicKind::Auto,
        };
        let symmetry = match &heuristic_keys {
            Some(keys) => keys.symmetry(config).optional()?,
            None => None,
        };
        let dual = match &heuristic_keys {
            Some(keys) => database_key(keys.dual(config), chosen)?,
            None => None,
        };
        let pattern_states = match &heuristic_keys {
            Some(keys) if chosen == HeuristicKind::Pruning => {
                keys.pattern_states(config)
                    .refuse("kind = \"pruning\" uses no pattern database")?;
                MAX_PATTERN_STATES
            }
            Some(keys) => keys
                .pattern_states(config)
                .optional()?
                .map_or(MAX_PATTERN_STATES, |n| n.value() as u64),
            None => MAX_PATTERN_STATES,
        };
        let auto_patterns = match &heuristic_keys {
            Some(keys) => database_key(keys.auto_patterns(config), chosen)?,
            None => None,
        };
        let twist_pattern = match &heuristic_keys {
            Some(keys) => database_key(keys.twist_pattern(config), chosen)?,
            None => None,
        };
        let class_pattern = match &heuristic_keys {
            Some(keys) => database_key(keys.class_pattern(config), chosen)?,
            None => None,
        };
        let class_bits = match &heuristic_keys {
            Some(keys) => database_key(keys.class_bits(config), chosen)?,
            None => None,
        };
        if let Some(bits) = &class_bits {
            if class_pattern.is_none() {
                return Err(bits.error("class_bits without a class_pattern: nothing to store"));
            }
            if bits.value() == 3 {
                return Err(
                    bits.error("class_bits is 4 (exact distances) or 2 (lower bounds), not 3")
                );
            }
        }
        let file = keys.definition(config).value()?;
        let def = match file.get().strip_prefix("builtin:") {
            Some(name) => builtin(name, &mut setup).ok_or_else(|| {
                let known: Vec<&str> = BUILTIN.iter().map(|(k, _)| *k).collect();
                file.error(format!(
                    "no built-in definition \"{name}\" (known: {})",
                    known.join(", ")
                ))
            })??,
            None => {
                let dir = Path::new(&config.name).parent().unwrap_or(Path::new(""));
                read_definition(&dir.join(file.get()), &mut setup)?
            }
        };
        let metric = keys.metric(config).value()?;
        let metric: Metric = metric
            .get()
            .parse()
            .map_err(|e: UnknownMetric| metric.error(e.to_string()))?;
        let moves = keys.moves(config).optional()?;
        let (names, at) = match &moves {
            Some(list) => (Some(list.get().as_slice()), list.location().clone()),
            None => (None, Location::file(&config.name).with_key("puzzle")),
        };
        let bytes = def.state_bytes();
        let too_big = || {
            file.error(format!(
                "{}: a state takes {bytes} bytes, more than the {MAX_STATE_BYTES} supported",
                file.get()
            ))
        };
        // Refused before the generators are expanded.
        if bytes > MAX_STATE_BYTES {
            return Err(too_big());
        }
        // The twist and class patterns keep twists by slot, and the class tables read through
        // symmetries: not made for wild twists (module docs of `tws`).
        if def.has_wild()
            && let Some(key) = twist_pattern.as_ref().or(class_pattern.as_ref())
        {
            return Err(
                key.error("not supported when the definition leaves some twists unknown (?)")
            );
        }
        let powers = def.generators(names, metric, &at, &mut setup)?;
        // The generators' names: a generator's powers come together.
        let mut names: Vec<&str> = powers
            .iter()
            .map(|p| def.moves[p.base].name.as_str())
            .collect();
        names.dedup();
        // Rotations left out by default are named, so that nobody mistakes the puzzle searched.
        let rotations: Vec<&str> = match moves {
            Some(_) => Vec::new(),
            None => def
                .moves
                .iter()
                .filter(|m| m.is_rotation() && !m.derived)
                .map(|m| m.name.as_str())
                .collect(),
        };
        let rotations = match rotations.as_slice() {
            [] => String::new(),
            names => format!(" (rotations {} not searched)", names.join(" ")),
        };
        let description = format!(
            "{} ({}), moves {}{rotations}, {metric}",
            def.name,
            file.get(),
            names.join(" ")
        );
        let build = Build {
            def,
            powers: &powers,
            qtm: metric == Metric::Qtm,
            chosen,
            symmetry,
            dual,
            pattern_states,
            auto_patterns,
            twist_pattern,
            class_pattern,
            class_bits,
            description,
            setup: &mut setup,
        };
        with_width(bytes, build).ok_or_else(too_big)?
    }
}

/// A `[heuristic]` key that only pattern databases use: refused under `kind = "pruning"`,
/// else its value when written.
fn database_key<T: Clone>(
    field: Field<'_, T>,
    chosen: HeuristicKind,
) -> Result<Option<Checked<T>>> {
    match chosen {
        HeuristicKind::Pruning => field
            .refuse("kind = \"pruning\" uses no pattern database")
            .map(|()| None),
        _ => field.optional(),
    }
}

/// What [`instance`] needs, run at the state width of the definition.
struct Build<'a> {
    def: Definition,
    powers: &'a [super::def::Power],
    qtm: bool,
    chosen: HeuristicKind,
    /// `[heuristic] symmetry`, when written or defaulted.
    symmetry: Option<Checked<bool>>,
    /// `[heuristic] dual`, when written or defaulted.
    dual: Option<Checked<bool>>,
    /// `[heuristic] pattern_states`, or the default.
    pattern_states: u64,
    /// `[heuristic] auto_patterns`, when written.
    auto_patterns: Option<Checked<bool>>,
    /// `[heuristic] twist_pattern`, when written.
    twist_pattern: Option<Checked<String>>,
    /// `[heuristic] class_pattern`, when written.
    class_pattern: Option<Checked<String>>,
    /// `[heuristic] class_bits`, when written.
    class_bits: Option<Checked<i64>>,
    description: String,
    setup: &'a mut Setup,
}

impl ForWidth for Build<'_> {
    type Output = Result<Instance>;

    fn run<const N: usize>(self) -> Result<Instance> {
        instance::<N>(self)
    }
}

/// The pieces `text` names, by class: orbit names, each followed by labels (1-based, as in
/// `.tws` files), e.g. `EDGES 9 10 11 12`; commas count as spaces. The reason when a name is no
/// orbit, a label no single piece of one class of it, or a label comes before any orbit.
fn named_pieces<const N: usize>(
    space: &PermSpace<N>,
    text: &str,
) -> std::result::Result<Vec<(usize, Vec<u8>)>, String> {
    let def = space.definition();
    let layout = space.layout();
    let solved = space.solved().0;
    let mut pieces: Vec<(usize, Vec<u8>)> = Vec::new();
    let mut orbit = None;
    for token in text.split(|c: char| c.is_whitespace() || c == ',') {
        if token.is_empty() {
            continue;
        }
        let Ok(label) = token.parse::<u32>() else {
            let Some(o) = def.orbits.iter().position(|o| o.name == token) else {
                let names: Vec<&str> = def.orbits.iter().map(|o| o.name.as_str()).collect();
                return Err(format!(
                    "\"{token}\" is no orbit of {} (orbits: {})",
                    def.name,
                    names.join(", ")
                ));
            };
            orbit = Some(o);
            continue;
        };
        let Some(o) = orbit else {
            return Err(format!("piece {token} comes before any orbit's name"));
        };
        let name = &def.orbits[o].name;
        let class = (1..=256u32).contains(&label).then(|| {
            (0..layout.classes()).find(|&c| {
                let view = layout.class(c);
                view.orbit == o
                    && view
                        .labels
                        .iter()
                        .filter(|&&b| u32::from(solved[usize::from(b)]) + 1 == label)
                        .count()
                        == 1
            })
        });
        let Some(Some(class)) = class else {
            return Err(format!("{name} has no piece {label} (or more than one)"));
        };
        let label = (label - 1) as u8;
        match pieces.iter_mut().find(|(c, _)| *c == class) {
            Some((_, labels)) if labels.contains(&label) => {
                return Err(format!("piece {} of {name} is named twice", label + 1));
            }
            Some((_, labels)) => labels.push(label),
            None => pieces.push((class, vec![label])),
        }
    }
    Ok(pieces)
}

/// The two parts `[heuristic] class_pattern` names, `A + B`: the pieces of `A` told apart,
/// those of `B` as a set, each of one class ([`named_pieces`]'s syntax); a part that ends in
/// `with twists` is its pieces as a set with the twist in every slot of their class. The
/// reason when there are not two parts or a part names no class or more than one.
fn class_parts<const N: usize>(
    space: &PermSpace<N>,
    text: &str,
) -> std::result::Result<ClassParts, String> {
    let halves: Vec<&str> = text.split('+').collect();
    let [a, b] = halves.as_slice() else {
        return Err(format!(
            "\"{text}\" is not two parts \"A + B\" (the pieces told apart, then those kept as a set)"
        ));
    };
    let one = |half: &str, what: &str| -> std::result::Result<ClassPart, String> {
        let (half, with_twists) = match half.trim().strip_suffix("with twists") {
            Some(rest) => (rest, true),
            None => (half, false),
        };
        let mut pieces = named_pieces(space, half)?;
        match pieces.len() {
            1 => {
                let (class, labels) = pieces.remove(0);
                Ok(ClassPart {
                    class,
                    labels,
                    with_twists,
                })
            }
            n => Err(format!(
                "the pieces {what} are {n} classes' (\"{}\"): name one class's",
                half.trim()
            )),
        }
    };
    Ok(ClassParts {
        a: one(a, "told apart")?,
        b: one(b, "kept as a set")?,
        compact: false,
    })
}

/// The instance over `Packed<N>` states: every engine, IDA* and A* with the `chosen` heuristic
/// over the pattern databases picked from the classes (`auto` when the space is past a table's
/// size).
fn instance<const N: usize>(build: Build) -> Result<Instance> {
    let Build {
        def,
        powers,
        qtm,
        chosen,
        symmetry,
        dual,
        pattern_states,
        auto_patterns,
        twist_pattern,
        class_pattern,
        class_bits,
        description,
        setup,
    } = build;
    let space = PermSpace::<N>::new(def, powers, qtm, setup)?;
    let no_symmetry = space.symmetries().why_none();
    let symmetric = match (symmetry, no_symmetry) {
        (Some(asked), Some(why)) if asked.value() => {
            return Err(asked.error(format!("no symmetry to use: {why}")));
        }
        (Some(asked), _) => asked.value(),
        (None, _) => false,
    };
    let dual = match (dual, space.inversion()) {
        (Some(asked), Err(why)) if asked.value() => {
            return Err(asked.error(format!("no inverse to look up: {why}")));
        }
        (Some(asked), _) => asked.value(),
        (None, _) => false,
    };
    let lookups = Lookups { symmetric, dual };
    let classes = match class_pattern {
        Some(key) => {
            let mut parts = class_parts(&space, key.get()).map_err(|why| key.error(why))?;
            parts.compact = class_bits.is_some_and(|bits| bits.value() == 2);
            ClassPattern::check(&space, &parts.a, &parts.b)
                .map_err(|e| key.error(e.to_string()))?;
            Some(parts)
        }
        None => None,
    };
    let mut pieces = match auto_patterns {
        Some(auto) if !auto.value() => {
            if twist_pattern.is_none() && classes.is_none() {
                return Err(auto.error(
                    "auto_patterns = false leaves no pattern database: name a twist_pattern or a class_pattern",
                ));
            }
            Vec::new()
        }
        _ => auto_pieces(&space, pattern_states),
    };
    // A database of pieces the class pattern tells apart (the 3x3x3's corners) would never
    // exceed it: left out.
    if let Some(ClassParts { a, .. }) = classes.as_ref().filter(|c| !c.a.with_twists) {
        pieces.retain(|p| {
            !p.iter()
                .all(|(c, l)| *c == a.class && l.iter().all(|x| a.labels.contains(x)))
        });
    }
    let bytes = pieces.len() as u128 * space.moves().len() as u128 * Pattern::MOVE_BYTES;
    setup.charge(bytes, || Location::file(&space.definition().name))?;
    let mut patterns = pieces
        .iter()
        .map(|pieces| Pattern::new(&space, pieces))
        .collect::<std::result::Result<Vec<_>, _>>()
        .map_err(|e| Error::input(Location::file(&space.definition().name), e.to_string()))?;
    if let Some(key) = twist_pattern {
        let alike = named_pieces(&space, key.get()).map_err(|why| key.error(why))?;
        let pattern = Pattern::twists(&space, &alike).map_err(|e| key.error(e.to_string()))?;
        setup.charge(space.moves().len() as u128 * Pattern::MOVE_BYTES, || {
            key.location().clone()
        })?;
        patterns.push(pattern);
    }
    let space_for_factory = Arc::new(space.clone());
    let factory: HeuristicFactory<PermSpace<N>> = Arc::new(move |limits, cache| {
        let space = &space_for_factory;
        let others =
            |limits: &Limits| chosen.make::<N>(space, patterns.clone(), lookups, limits, cache);
        match &classes {
            Some(parts) => with_class_table(space, parts, lookups, limits, cache, others),
            None => others(limits),
        }
    });
    let indexable = space.indexable();
    let no_index = space.layout().why_not_indexable();
    let kit = Kit::new(space, description)
        .goals()
        .invariant()
        .heuristic_from(factory)
        .guess(PermSpace::guess);
    let kit = match (indexable, no_index) {
        (true, _) => kit.table().split(),
        (false, Some(why)) => kit.no_index(why),
        (false, None) => kit,
    };
    // `explore --symmetry` counts the classes of the rotations that keep the moves, and IDA*
    // searches one of a symmetric start's first moves per class.
    let kit = match (indexable, no_symmetry) {
        (true, None) => kit.symmetric(),
        (_, Some(why)) => kit.no_symmetry(why),
        (false, None) => kit.symmetric_roots(),
    };
    Ok(kit.build(Mode::AUTO))
}
