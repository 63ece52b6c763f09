//! The differential suite (issue 42, "Trust, round three"): random small instances of every
//! registered plugin, each solved by every mode its instance offers, under every flag that
//! changes how an engine works, and each answer checked against a brute force over a simulator
//! written here.
//!
//! **The simulators** (one file each: `differential/flip.rs`, `shift.rs`, `tiles.rs`,
//! `perm.rs`, `blocks.rs`, `peg.rs`) implement each puzzle from the guide alone (docs/), on plain
//! grids and vectors: the moves, their labels as the guide documents them, the goals and the
//! board text `solve` prints; none calls a plugin (perm reads the project's `.tws` files with a
//! reader of its own). [`sim::brute_force`] is a breadth-first search over a simulator: the
//! fewest moves, or that no goal is reachable, and how many shortest label sequences there are.
//! A plugin registered without a simulator fails the suite, naming it.
//!
//! **The instances**: each generator's random small boards and goals (see each file), with a
//! `[heuristic] kind` picked at random from those the plugin declares (or none: its default).
//!
//! **The checks**, for every mode of `Instance::modes()` (a mode added later is covered as soon
//! as an instance offers it), with transpositions `off`, `auto` and `200` bytes, 1 and 2 threads,
//! and `solutions = 3` where the engine lists solutions:
//! - the fewest moves are the brute force's, or `Impossible` where it finds no goal. Two other
//!   answers are allowed, only to `iddfs` and `idastar` without their table's default size
//!   (`off`, `200`), which the guide does not promise to prove a cyclic space unsolvable: the
//!   depth limit, given one more than the depth of the start's whole component on an
//!   unsolvable start; and a state limit of [`DEPTH_FIRST_BUDGET`] (counted as given up). With
//!   `auto` they get no limit and must prove it, as the guide says they do. An engine whose
//!   answers are not promised minimal (`"optimal": false`: beam search) is held to a path no
//!   shorter than the brute force's that replays to a goal, or a limit, never `Impossible`
//!   where there is a path; its listings are not compared;
//! - the start prints as the simulator prints it; every move label is read by the simulator and
//!   replayed from the start, each board after a move is the text the answer prints, and the
//!   last is a goal;
//! - with `solutions = 3`: at most 3, distinct, each optimal and replaying to a goal, the first
//!   the answer's path; as many as there are where the guide fixes which sequences count (Flip:
//!   sets of presses; tiles: every shortest sequence); `all_optimal` exactly when fewer than
//!   asked; and every engine, thread count and table size lists the same ones in the same order
//!   (the guide's promise);
//! - the table cache: every mode again on two fresh instances sharing a cache directory (the
//!   second loads what the first saved: `table_loaded`), with no warning;
//! - the binary: a third of the modes through `statespace solve --json` with random flags
//!   (`--transpositions`, `--threads`, `--solutions 3`, `--cache-dir` or `--no-cache`), the
//!   same checks on its JSON, its exit code and an empty stderr, and the default mode twice on
//!   one cache directory.
//!
//! A failure names the case (`flip:17`), the config, the mode and the flags, and how to run that
//! case alone.
//!
//! **Size.** By default 10 cases a plugin, about 12 s here (about 5,000 solves). A longer run:
//!
//! ```text
//! STATESPACE_DIFFERENTIAL=2000 cargo test -p statespace-cli --test it differential -- --nocapture
//! ```
//!
//! runs 2,000 cases spread over the plugins (seeds 0, 1, ... of each; the default run's are the
//! first) and prints a line a plugin: cases, solves by outcome, time. One case alone, its config
//! and the brute force's answer printed (with `--nocapture`):
//! `STATESPACE_DIFFERENTIAL_CASE=blocks:17`. CI's `.ci/run` runs the default size.

mod blocks;
mod flip;
mod peg;
mod perm;
mod shift;
mod sim;
mod tiles;

use sim::{Simulator, Truth, brute_force};
use statespace::cache::TableCache;
use statespace::config::{Config, Mode, parse_transpositions};
use statespace::instance::{Answer, Instance, Solution};
use statespace::limit::Limits;
use statespace::options::SearchOptions;
use statespace::random::Lcg;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A random instance: its simulator, the start board in it, and the config that says the same.
pub struct Case<S: Simulator> {
    pub sim: S,
    pub start: S::Board,
    pub config: String,
    /// The most boards the brute force may store (past it: the generator made too large a
    /// puzzle).
    pub cap: usize,
    /// Keys a `[heuristic] kind` needs on this instance (tiles' `pdb`: its groups), by kind.
    pub heuristic_keys: Vec<(&'static str, String)>,
    /// Heuristic kinds too costly to build for this instance in a test (the 3x3x3's pattern
    /// databases: seconds and 165 MiB), left out of the random choice.
    pub costly_heuristics: &'static [&'static str],
}

/// What a plugin's cases ran: solves by how they ended, and the time.
#[derive(Clone, Debug, Default)]
struct Tally {
    cases: usize,
    solved: usize,
    impossible: usize,
    depth_limited: usize,
    /// Depth-first solves without an effective transposition table that passed their state
    /// budget ([`DEPTH_FIRST_BUDGET`]).
    over_budget: usize,
    time: Duration,
}

impl Tally {
    fn add(&mut self, run: &Run) {
        match run.answer {
            Outcome::Solved { .. } => self.solved += 1,
            Outcome::Unsolvable => self.impossible += 1,
            Outcome::Limit(ref limit) if limit.starts_with("depth limit") => {
                self.depth_limited += 1
            }
            Outcome::Limit(_) => self.over_budget += 1,
        }
    }
}

/// Cases a plugin in the default run.
const DEFAULT_CASES_PER_PLUGIN: usize = 10;

/// The engines that may stop at a limit without their table's default size (see the module
/// docs): they search depth first, and without a table that holds the space the guide promises
/// no proof on a cyclic space (`iddfs` only "when a round meets its depth bound nowhere"). Every
/// other mode, a new one too, must answer.
const DEPTH_FIRST: [Mode; 2] = [Mode::IDDFS, Mode::IDASTAR];

/// The states a depth-first engine may expand with transpositions `off` or a table of 200
/// bytes: without a table that holds the space, IDDFS's tree grows as the branching factor to
/// the depth (a 15-move blocks board in the `path` metric runs for hours), so past this budget
/// such a solve is counted as given up, not failed. With `auto` every engine must answer.
const DEPTH_FIRST_BUDGET: u64 = 500_000;

/// A safety net: an engine that runs this long on a small instance has a bug, which then fails
/// with its limit instead of hanging the suite.
const TIME_LIMIT: Duration = Duration::from_secs(60);

#[test]
fn every_plugin_and_mode_agrees_with_a_brute_force() {
    let kinds: Vec<&str> = (crate::registry().plugins().iter())
        .map(|p| p.info().kind)
        .collect();
    if let Ok(one) = std::env::var("STATESPACE_DIFFERENTIAL_CASE") {
        let (kind, seed) = one
            .split_once(':')
            .and_then(|(k, s)| Some((k, s.parse::<u64>().ok()?)))
            .expect("STATESPACE_DIFFERENTIAL_CASE is KIND:SEED, e.g. blocks:17");
        SHOW.store(true, std::sync::atomic::Ordering::Relaxed);
        run_case(kind, seed, &mut Tally::default());
        return;
    }
    let total = match std::env::var("STATESPACE_DIFFERENTIAL") {
        Ok(n) => n
            .parse::<usize>()
            .expect("STATESPACE_DIFFERENTIAL is a number of cases"),
        Err(_) => DEFAULT_CASES_PER_PLUGIN * kinds.len(),
    };
    let mut tallies = vec![Tally::default(); kinds.len()];
    for i in 0..total {
        let (k, seed) = (i % kinds.len(), (i / kinds.len()) as u64);
        let started = Instant::now();
        run_case(kinds[k], seed, &mut tallies[k]);
        tallies[k].cases += 1;
        tallies[k].time += started.elapsed();
    }
    if std::env::var("STATESPACE_DIFFERENTIAL").is_ok() {
        for (kind, t) in kinds.iter().zip(tallies) {
            eprintln!(
                "differential {kind}: {} cases, {} solves ({} solved, {} impossible, {} depth \
                 limits, {} over the depth-first budget), {:.1?}",
                t.cases,
                t.solved + t.impossible + t.depth_limited + t.over_budget,
                t.solved,
                t.impossible,
                t.depth_limited,
                t.over_budget,
                t.time
            );
        }
    }
}

/// Whether to print each case's config and the brute force's answer (one case run alone).
static SHOW: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Generates the case `kind:seed` and checks it, counting its solves in `tally`.
fn run_case(kind: &str, seed: u64, tally: &mut Tally) {
    let mut rng = Lcg(seed.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let name = format!("{kind}:{seed}");
    let info = (crate::registry().find(kind))
        .expect("a kind of the registry")
        .info();
    let heuristics: Vec<&str> = info.heuristics.iter().map(|(name, _)| *name).collect();
    match kind {
        "flip" => check(&name, &heuristics, flip::case(&mut rng), &mut rng, tally),
        "shift" => check(&name, &heuristics, shift::case(&mut rng), &mut rng, tally),
        "tiles" => check(&name, &heuristics, tiles::case(&mut rng), &mut rng, tally),
        "perm" => check(&name, &heuristics, perm::case(&mut rng), &mut rng, tally),
        "blocks" => check(&name, &heuristics, blocks::case(&mut rng), &mut rng, tally),
        "peg" => check(&name, &heuristics, peg::case(&mut rng), &mut rng, tally),
        other => panic!(
            "the plugin `{other}` has no simulator in the differential suite: add one in \
             tests/it/differential/ (a simulator and a random small case)"
        ),
    }
}

/// How one solve runs: the flags that change an engine's work.
#[derive(Clone, Debug)]
struct Flags {
    transpositions: &'static str,
    threads: usize,
    solutions: usize,
    max_depth: Option<usize>,
    /// [`DEPTH_FIRST_BUDGET`] where it applies.
    max_states: Option<u64>,
}

impl Flags {
    /// The defaults: the transposition table's default size, one thread, one solution.
    fn plain() -> Flags {
        Flags {
            transpositions: "auto",
            threads: 1,
            solutions: 1,
            max_depth: None,
            max_states: None,
        }
    }

    fn options(&self) -> SearchOptions {
        SearchOptions {
            transpositions: parse_transpositions(self.transpositions).unwrap(),
            threads: self.threads,
            solutions: self.solutions,
            ..SearchOptions::default()
        }
    }

    fn limits(&self) -> Limits {
        Limits {
            max_depth: self.max_depth.map(|d| d as u32),
            max_states: self.max_states,
            time_limit: Some(TIME_LIMIT),
            ..Limits::default()
        }
    }

    /// The command line's flags.
    fn args(&self) -> Vec<String> {
        let mut args = vec![
            "--transpositions".to_string(),
            self.transpositions.to_string(),
            "--threads".to_string(),
            self.threads.to_string(),
            "--solutions".to_string(),
            self.solutions.to_string(),
        ];
        if let Some(depth) = self.max_depth {
            args.extend(["--max-depth".to_string(), depth.to_string()]);
        }
        if let Some(states) = self.max_states {
            args.extend(["--max-states".to_string(), states.to_string()]);
        }
        args
    }
}

/// Every variant of flags `mode` runs with: transpositions off, auto and 200 bytes, 1 and 2
/// threads, 1 solution and 3 where the engine lists them; the depth limit where allowed.
fn variants(instance: &Instance, mode: Mode, truth: &Truth) -> Vec<Flags> {
    let mut all = Vec::new();
    for solutions in [1, 3] {
        let Ok(engine) = instance.engine_for(mode, solutions) else {
            continue; // this engine gives one solution
        };
        let depth_first = DEPTH_FIRST.contains(&engine);
        for transpositions in ["off", "auto", "200"] {
            for threads in [1, 2] {
                all.push(Flags {
                    transpositions,
                    threads,
                    solutions,
                    max_depth: depth_limit(instance, mode, solutions, transpositions, truth),
                    max_states: (depth_first && transpositions != "auto")
                        .then_some(DEPTH_FIRST_BUDGET),
                });
            }
        }
    }
    all
}

/// The depth limit a run gets: on a start the brute force finds unsolvable, for the engines of
/// [`DEPTH_FIRST`] without their transposition table's default size (`off`, `200`), one more
/// than the depth of the start's whole component; none otherwise. With the default table the
/// guide promises the proof ("with the table, a deepening also proves a small cyclic space
/// unsolvable"), so those runs get no limit and must prove it.
fn depth_limit(
    instance: &Instance,
    mode: Mode,
    solutions: usize,
    transpositions: &str,
    truth: &Truth,
) -> Option<usize> {
    let engine = instance.engine_for(mode, solutions).ok()?;
    (truth.optimum.is_none() && DEPTH_FIRST.contains(&engine) && transpositions != "auto")
        .then_some(truth.eccentricity + 1)
}

/// An answer as the checks read it, from the library or from the binary's JSON.
#[derive(Debug)]
struct Run {
    start: String,
    answer: Outcome,
    /// Every solution listed (the answer's path first), when more than one was asked for.
    solutions: Vec<Vec<String>>,
    all_optimal: bool,
    /// Whether the answer says it is the fewest moves (`"optimal"`): false for an engine
    /// that does not promise it (beam search), which is held to a path no shorter.
    optimal: bool,
    table_loaded: Option<bool>,
}

#[derive(Debug)]
enum Outcome {
    Solved {
        moves: Vec<String>,
        boards: Vec<String>,
    },
    Unsolvable,
    Limit(String),
}

impl Run {
    /// Whether the engine gave up at its state budget (its listing then says nothing).
    fn over_budget(&self) -> bool {
        matches!(&self.answer, Outcome::Limit(limit) if limit.starts_with("state limit"))
    }

    fn of(solution: &Solution) -> Run {
        let answer = match &solution.answer {
            Answer::Solved { moves, boards } => Outcome::Solved {
                moves: moves.clone(),
                boards: boards.clone(),
            },
            Answer::Unsolvable => Outcome::Unsolvable,
            Answer::LimitReached(limit) => Outcome::Limit(limit.to_string()),
        };
        Run {
            start: solution.start.clone(),
            answer,
            solutions: solution.solutions(),
            all_optimal: solution.all_optimal(),
            optimal: solution.optimal,
            table_loaded: solution
                .json_fields()
                .get("table_loaded")
                .and_then(|v| v.as_bool()),
        }
    }

    fn of_json(json: &serde_json::Value) -> Run {
        let strings = |v: &serde_json::Value| -> Vec<String> {
            let list = v.as_array().expect("a list");
            list.iter()
                .map(|s| s.as_str().unwrap().to_string())
                .collect()
        };
        let answer = match json["outcome"].as_str().unwrap() {
            "solved" => Outcome::Solved {
                moves: strings(&json["path"]),
                boards: strings(&json["boards"]),
            },
            "unsolvable" => Outcome::Unsolvable,
            _ => Outcome::Limit(json["limit"].as_str().unwrap().to_string()),
        };
        let solutions = match json.get("solutions") {
            Some(list) => list.as_array().unwrap().iter().map(strings).collect(),
            None => match &answer {
                Outcome::Solved { moves, .. } => vec![moves.clone()],
                _ => Vec::new(),
            },
        };
        Run {
            start: json["start"].as_str().unwrap().to_string(),
            answer,
            solutions,
            all_optimal: json.get("all_optimal").and_then(|v| v.as_bool()) == Some(true),
            optimal: json["optimal"]
                .as_bool()
                .expect("every answer says whether it is optimal"),
            table_loaded: json.get("table_loaded").and_then(|v| v.as_bool()),
        }
    }
}

/// `case`'s config with a `[heuristic] kind` of `heuristics` picked at random (or none: the
/// plugin's default), with the keys the case says it needs; none of the costly ones.
fn with_heuristic<S: Simulator>(mut case: Case<S>, heuristics: &[&str], rng: &mut Lcg) -> Case<S> {
    let choices: Vec<&str> = (heuristics.iter().copied())
        .filter(|h| !case.costly_heuristics.contains(h))
        .collect();
    let pick = rng.below(choices.len() + 1);
    if let Some(kind) = choices.get(pick) {
        case.config += &format!("\n[heuristic]\nkind = \"{kind}\"\n");
        for (_, keys) in case.heuristic_keys.iter().filter(|(k, _)| k == kind) {
            case.config += &format!("{keys}\n");
        }
    }
    case
}

/// Checks every mode of `case` with a heuristic of `heuristics` (see the module docs),
/// counting its solves in `tally`.
fn check<S: Simulator>(
    name: &str,
    heuristics: &[&str],
    case: Case<S>,
    rng: &mut Lcg,
    tally: &mut Tally,
) {
    let case = with_heuristic(case, heuristics, rng);
    let about = format!(
        "differential case {name} (alone: STATESPACE_DIFFERENTIAL_CASE={name})\n--- config ---\n\
         {}--- end of config ---",
        case.config
    );
    let truth = brute_force(&case.sim, &case.start, case.cap)
        .unwrap_or_else(|e| panic!("{about}\nthe generator's fault: {e}"));
    if SHOW.load(std::sync::atomic::Ordering::Relaxed) {
        eprintln!("{about}\nthe brute force: {truth:?}");
    }
    let config = Config::parse(&format!("differential-{name}.toml"), &case.config)
        .unwrap_or_else(|e| panic!("{about}\nthe config does not read: {e}"));
    let build = || {
        (crate::registry().build(&config, &Limits::default()))
            .unwrap_or_else(|e| panic!("{about}\nthe instance does not build: {e}"))
    };
    let board = config.start_board().expect("every case has a start");
    let instance = build();
    // Every listing, for the promise that every engine lists the same ones.
    let mut listings: Vec<(String, Vec<Vec<String>>)> = Vec::new();
    for mode in instance.modes() {
        for flags in variants(&instance, mode, &truth) {
            let what = format!("{about}\nlibrary: --mode {mode} {}", flags.args().join(" "));
            let solution = (instance.solve(&board, mode, &flags.limits(), &flags.options()))
                .unwrap_or_else(|e| panic!("{what}\nan error: {e}"));
            let run = Run::of(&solution);
            verify(&case, &truth, &run, &what, &flags);
            tally.add(&run);
            if flags.solutions > 1 && !run.over_budget() && run.optimal {
                listings.push((what, run.solutions));
            }
        }
    }
    check_cache(&case, &truth, &about, &build, &board, tally);
    check_binary(&case, &truth, &about, &instance, rng, &mut listings, tally);
    if let Some((first, list)) = listings.first() {
        for (what, other) in &listings[1..] {
            assert_eq!(
                other, list,
                "{what}\nlists other solutions than\n{first}\n(the guide: every engine that \
                 lists gives the same ones in the same order)"
            );
        }
    }
}

/// Checks one answer against the brute force (see the module docs).
fn verify<S: Simulator>(case: &Case<S>, truth: &Truth, run: &Run, what: &str, flags: &Flags) {
    let sim = &case.sim;
    assert_eq!(
        run.start,
        sim.text(&case.start),
        "{what}\nthe start prints otherwise"
    );
    let expected = match truth.optimum {
        Some(n) => format!("{n} moves"),
        None => "Impossible".to_string(),
    };
    if !run.optimal {
        // Not promised the fewest moves: a path no shorter that replays to a goal, or a limit
        // (the beam's width among them); never "unsolvable" where there is a path.
        match (&run.answer, truth.optimum) {
            (Outcome::Solved { moves, boards }, Some(n)) => {
                assert!(
                    moves.len() >= n,
                    "{what}
answered {moves:?}, shorter than the brute force's {n} moves"
                );
                assert_eq!(
                    boards.len(),
                    moves.len(),
                    "{what}
a board for each move"
                );
                replay(case, moves, Some(boards), what);
            }
            (Outcome::Unsolvable, None) | (Outcome::Limit(_), _) => {}
            (answer, _) => panic!(
                "{what}
answered {answer:?}; the brute force finds {expected}"
            ),
        }
        return;
    }
    match (&run.answer, truth.optimum) {
        (Outcome::Solved { moves, boards }, Some(n)) => {
            assert_eq!(
                moves.len(),
                n,
                "{what}\nanswered {moves:?}; the brute force finds {n} moves"
            );
            assert_eq!(boards.len(), moves.len(), "{what}\na board for each move");
            replay(case, moves, Some(boards), what);
        }
        (Outcome::Unsolvable, None) => {}
        (Outcome::Limit(limit), None)
            if flags.max_depth.is_some() && limit.starts_with("depth limit") => {}
        (Outcome::Limit(limit), _)
            if flags.max_states.is_some() && limit.starts_with("state limit") =>
        {
            return;
        }
        (answer, _) => panic!("{what}\nanswered {answer:?}; the brute force finds {expected}"),
    }
    if flags.solutions == 1 {
        return;
    }
    let listed = &run.solutions;
    let Outcome::Solved { moves, .. } = &run.answer else {
        assert!(
            listed.is_empty(),
            "{what}\nsolutions {listed:?} but no answer"
        );
        return;
    };
    assert_eq!(
        listed.first(),
        Some(moves),
        "{what}\nthe first solution is the answer's"
    );
    assert!(
        listed.len() <= flags.solutions,
        "{what}\n{} solutions",
        listed.len()
    );
    let mut keys = Vec::new();
    for solution in listed {
        assert_eq!(
            solution.len(),
            moves.len(),
            "{what}\n{solution:?} is not optimal"
        );
        replay(case, solution, None, what);
        let key = sim.solution_key(solution);
        assert!(
            !keys.contains(&key),
            "{what}\n{solution:?} is listed twice: {listed:?}"
        );
        keys.push(key);
    }
    if let Some(there) = sim.solutions_there_are(truth.sequences, moves.len()) {
        assert_eq!(
            listed.len() as u128,
            there.min(flags.solutions as u128),
            "{what}\nlisted {listed:?}; there are {there} optimal solutions"
        );
    }
    assert_eq!(
        run.all_optimal,
        listed.len() < flags.solutions,
        "{what}\nall_optimal says otherwise for {} listed of {}",
        listed.len(),
        flags.solutions
    );
}

/// Replays `moves` from the case's start through the simulator: each label a legal move, each
/// board after it the text of `boards` (when given), the last a goal.
fn replay<S: Simulator>(
    case: &Case<S>,
    moves: &[String],
    boards: Option<&Vec<String>>,
    what: &str,
) {
    let mut board = case.start.clone();
    for (i, label) in moves.iter().enumerate() {
        board = (case.sim.apply(&board, label))
            .unwrap_or_else(|e| panic!("{what}\npath {moves:?}, move {}: {e}", i + 1));
        if let Some(boards) = boards {
            assert_eq!(
                boards[i],
                case.sim.text(&board),
                "{what}\npath {moves:?}: the board after move {} ({label}) prints otherwise \
                 (left: printed, right: the simulator's)",
                i + 1
            );
        }
    }
    assert!(
        case.sim.is_goal(&board),
        "{what}\npath {moves:?} ends on a board that is no goal:\n{}",
        case.sim.text(&board)
    );
}

/// Every mode on two fresh instances sharing a cache directory: the same checks, no warning,
/// and what the first saved the second loads.
fn check_cache<S: Simulator>(
    case: &Case<S>,
    truth: &Truth,
    about: &str,
    build: &dyn Fn() -> Instance,
    board: &statespace::board_text::BoardText,
    tally: &mut Tally,
) {
    let dir = tempfile::tempdir().unwrap();
    let mut loaded: Vec<Vec<Option<bool>>> = Vec::new();
    for round in ["built", "loaded"] {
        let warnings = Arc::new(Mutex::new(Vec::<String>::new()));
        let sink = warnings.clone();
        let cache = TableCache::new(Some(dir.path().into()), true, move |w| {
            sink.lock().unwrap().push(w.to_string())
        });
        let instance = build().with_cache(cache);
        let mut this = Vec::new();
        for mode in instance.modes() {
            let flags = Flags::plain();
            let what = format!("{about}\nlibrary, cache {round}: --mode {mode}");
            let solution = (instance.solve(board, mode, &flags.limits(), &flags.options()))
                .unwrap_or_else(|e| panic!("{what}\nan error: {e}"));
            let run = Run::of(&solution);
            verify(case, truth, &run, &what, &flags);
            tally.add(&run);
            this.push(run.table_loaded);
        }
        let warnings = warnings.lock().unwrap();
        assert!(
            warnings.is_empty(),
            "{about}\ncache {round}: warnings {warnings:?}"
        );
        loaded.push(this);
    }
    let (first, second) = (&loaded[0], &loaded[1]);
    for (i, (a, b)) in first.iter().zip(second).enumerate() {
        assert!(
            *a != Some(false) || *b == Some(true),
            "{about}\nmode {} built its table with a cache directory ({a:?}), a second instance \
             did not load it ({b:?})",
            build().modes()[i]
        );
    }
}

/// `statespace solve --json` on a third of the modes with random flags, and on the default mode
/// twice with one cache directory; adds the listings to `listings`.
fn check_binary<S: Simulator>(
    case: &Case<S>,
    truth: &Truth,
    about: &str,
    instance: &Instance,
    rng: &mut Lcg,
    listings: &mut Vec<(String, Vec<Vec<String>>)>,
    tally: &mut Tally,
) {
    let file = crate::config_file(&case.config);
    let path = file.path().to_str().unwrap();
    let cache = tempfile::tempdir().unwrap();
    let cache_dir = cache.path().to_str().unwrap();
    let solve = |mode: Mode, flags: &Flags, cache: &[&str], what: &str| -> Run {
        let out = crate::statespace()
            .args(["solve", path, "--json", "--mode", mode.name()])
            .args(flags.args())
            .args(cache)
            .args(["--time-limit", "60s"])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        let json: serde_json::Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{what}\nno JSON ({e}); stderr: {stderr}"));
        let run = Run::of_json(&json);
        let code = match run.answer {
            Outcome::Solved { .. } => 0,
            Outcome::Unsolvable => 3,
            Outcome::Limit(_) => 4,
        };
        assert_eq!(
            out.status.code(),
            Some(code),
            "{what}\nthe exit code; stderr: {stderr}"
        );
        assert!(stderr.is_empty(), "{what}\nstderr: {stderr}");
        run
    };
    for mode in instance.modes() {
        if rng.below(3) != 0 {
            continue;
        }
        let all = variants(instance, mode, truth);
        let flags = all[rng.below(all.len())].clone();
        let cache_flags: &[&str] = match rng.below(2) {
            0 => &["--no-cache"],
            _ => &["--cache-dir", cache_dir],
        };
        let what = format!(
            "{about}\nstatespace solve CONFIG --json --mode {mode} {} {}",
            flags.args().join(" "),
            cache_flags.join(" ")
        );
        let run = solve(mode, &flags, cache_flags, &what);
        verify(case, truth, &run, &what, &flags);
        tally.add(&run);
        if flags.solutions > 1 && !run.over_budget() && run.optimal {
            listings.push((what, run.solutions));
        }
    }
    // The default mode twice on a fresh cache directory: the second loads what the first saved.
    let fresh = tempfile::tempdir().unwrap();
    let fresh_dir = fresh.path().to_str().unwrap();
    let mode = instance.default_mode();
    let flags = Flags::plain();
    let mut first = None;
    for round in ["built", "loaded"] {
        let what = format!(
            "{about}\nstatespace solve CONFIG --json --mode {mode} {} --cache-dir DIR ({round})",
            flags.args().join(" ")
        );
        let run = solve(mode, &flags, &["--cache-dir", fresh_dir], &what);
        verify(case, truth, &run, &what, &flags);
        tally.add(&run);
        match first {
            None => first = Some(run.table_loaded),
            Some(built) => assert!(
                built != Some(false) || run.table_loaded == Some(true),
                "{what}\nthe table the first run saved was not loaded ({:?})",
                run.table_loaded
            ),
        }
    }
}
