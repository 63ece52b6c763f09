//! The data-driven suite: every case in tests/cases/*.toml (the judges' samples copied from
//! shared/cases plus the project's own), solved by every search mode its plugin lists.
//!
//! A case is a table under its puzzle kind (`[[flip]]`, `[[shift]]`, `[[tiles]]`): `name`,
//! `answer` (the fewest moves, or "Impossible"), `board` (rows), optionally `goal` (the goal kind;
//! the plugin's default when absent), `modes` (the engines to run; every mode the instance has
//! when absent) and `heuristic` (`[heuristic] kind`), and any of the puzzle's own `[puzzle]`,
//! `[goal]` and `[heuristic]` keys, which the plugin declares (so a plugin's new key needs no change here). A new
//! engine is checked by every case as soon as an instance offers its mode, by what it guarantees
//! (its entry in the engine table): an exact engine must give the answer, one that is not a
//! path no shorter that ends on a goal, or no answer.

use statespace::config::{Config, Mode};
use statespace::instance::Answer;
use statespace::limit::Limits;
use statespace::options::SearchOptions;
use toml::Value;

pub struct Case {
    pub kind: String,
    pub name: String,
    pub config: String,
    pub answer: Option<usize>,
    /// The modes to run; `None`: every mode the instance has.
    pub modes: Option<Vec<String>>,
}

/// Every case in every file under tests/cases/ whose name ends in `.toml`.
pub fn load_cases() -> Vec<Case> {
    let dir = crate::case_path("");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    let mut cases = Vec::new();
    for file in files {
        let table: toml::Table = std::fs::read_to_string(&file).unwrap().parse().unwrap();
        for (kind, list) in table {
            if crate::registry().find(&kind).is_none() {
                continue; // e.g. [[histogram]] facts, checked elsewhere
            }
            for case in list.as_array().unwrap() {
                cases.push(to_case(&kind, case.as_table().unwrap()));
            }
        }
    }
    cases
}

fn rows_text(value: &Value) -> String {
    match value {
        Value::Array(rows) => rows
            .iter()
            .map(|r| r.as_str().unwrap())
            .collect::<Vec<_>>()
            .join("\n"),
        Value::String(s) => s.clone(),
        other => panic!("a board is rows or a string, not {other}"),
    }
}

fn to_case(kind: &str, case: &toml::Table) -> Case {
    let info = crate::registry().find(kind).unwrap().info();
    let is = |keys: &[statespace::config::Key], key: &str| keys.iter().any(|k| k.name == key);
    let mut puzzle = toml::Table::new();
    puzzle.insert("kind".into(), Value::String(kind.into()));
    let mut goal = toml::Table::new();
    let mut heuristic = toml::Table::new();
    for (key, value) in case {
        if is(info.puzzle_keys, key) {
            puzzle.insert(key.clone(), value.clone());
        } else if key == "goal" {
            goal.insert("kind".into(), value.clone());
        } else if key == "target" {
            goal.insert(key.clone(), Value::String(rows_text(value)));
        } else if is(info.goal_keys, key) {
            goal.insert(key.clone(), value.clone());
        } else if key == "heuristic" {
            heuristic.insert("kind".into(), value.clone());
        } else if is(info.heuristic_keys, key) {
            heuristic.insert(key.clone(), value.clone());
        } else {
            assert!(
                ["name", "board", "answer", "modes"].contains(&key.as_str()),
                "case {:?}: `{key}` is no key of the {kind} plugin",
                case["name"]
            );
        }
    }
    let mut config = toml::Table::new();
    config.insert("puzzle".into(), Value::Table(puzzle));
    if !goal.is_empty() {
        config.insert("goal".into(), Value::Table(goal));
    }
    if !heuristic.is_empty() {
        config.insert("heuristic".into(), Value::Table(heuristic));
    }
    let mut start = toml::Table::new();
    start.insert("board".into(), Value::String(rows_text(&case["board"])));
    config.insert("start".into(), Value::Table(start));
    let answer = match &case["answer"] {
        Value::Integer(n) => Some(*n as usize),
        Value::String(s) if s == "Impossible" => None,
        other => panic!("answer is a number or \"Impossible\", not {other}"),
    };
    let modes = case.get("modes").map(|list| {
        list.as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap().to_string())
            .collect()
    });
    Case {
        kind: kind.to_string(),
        name: case["name"].as_str().unwrap().to_string(),
        config: toml::to_string(&config).unwrap(),
        answer,
        modes,
    }
}

/// Solves `case` with `mode`; checks the answer, and that the last board of a path is a goal
/// (solving it again takes 0 moves).
fn check(case: &Case, instance: &statespace::instance::Instance, config: &Config, mode: Mode) {
    let label = format!("{} [{}] with {mode}", case.name, case.kind);
    instance
        .check_mode(mode)
        .unwrap_or_else(|e| panic!("{label}: {e}"));
    let board = config.start_board().unwrap();
    let solution = instance
        .solve(&board, mode, &Limits::default(), &SearchOptions::default())
        .unwrap();
    // Keyed on the guarantees of the engine that ran (`auto` resolved): an exact engine gives
    // the answer; one that is not gives a path no shorter, or no answer, and says so.
    let engine = (instance.engines().into_iter())
        .find(|e| e.mode == solution.mode)
        .unwrap_or_else(|| panic!("{label}: ran {}, which it does not list", solution.mode));
    let exact = engine.gives.optimal;
    match (&solution.answer, case.answer) {
        (Answer::Solved { moves, boards }, Some(expected)) => {
            match exact {
                true => assert_eq!(moves.len(), expected, "{label}: moves {moves:?}"),
                false => assert!(moves.len() >= expected, "{label}: shorter than the fewest"),
            }
            // `"optimal"` is true only from an engine that guarantees it (the Flip algebra
            // may say an answer of its own is not proven).
            assert!(
                exact || !solution.optimal,
                "{label}: a claim it cannot make"
            );
            assert_eq!(boards.len(), moves.len(), "{label}");
            let last = boards.last().cloned().unwrap_or(solution.start.clone());
            let end = statespace::board_text::BoardText::from_file("end", last);
            let again = instance
                .solve(
                    &end,
                    Mode::BFS,
                    &Limits::default(),
                    &SearchOptions::default(),
                )
                .unwrap();
            assert!(
                matches!(&again.answer, Answer::Solved { moves, .. } if moves.is_empty()),
                "{label}: the path does not end on a goal"
            );
        }
        (Answer::Unsolvable, None) => {}
        (Answer::LimitReached(_), _) if !exact => assert!(!solution.optimal, "{label}"),
        (answer, expected) => panic!("{label}: got {answer:?}, expected {expected:?}"),
    }
}

#[test]
fn every_case_with_every_engine() {
    let cases = load_cases();
    assert!(
        cases.len() >= 10,
        "the suite lost its cases: {}",
        cases.len()
    );
    let mut runs = 0;
    for case in &cases {
        // Named as if it stood beside the case files: relative paths in a case start there.
        let at = std::path::Path::new(crate::ROOT)
            .join("tests/cases")
            .join(&case.name);
        let config = Config::parse(&at.to_string_lossy(), &case.config).unwrap();
        let instance = crate::registry()
            .build(&config, &Limits::default())
            .unwrap();
        let modes: Vec<Mode> = match &case.modes {
            Some(names) => names
                .iter()
                .map(|n| {
                    instance
                        .mode_named(n)
                        .unwrap_or_else(|e| panic!("{}: {e}", case.name))
                })
                .collect(),
            None => instance.modes(),
        };
        for mode in modes {
            check(case, &instance, &config, mode);
            runs += 1;
        }
    }
    assert!(
        runs >= 2 * cases.len(),
        "every case runs with at least two engines"
    );
}

#[test]
fn shared_samples_are_the_judges() {
    // tests/cases/shared-samples.toml is a copy of ../shared/cases/samples.toml; when the shared
    // folder is beside the checkout, make sure the copy has not drifted.
    let Some(cases) = crate::shared_dir("cases") else {
        return;
    };
    let text = std::fs::read_to_string(cases.join("samples.toml")).unwrap();
    let copy = std::fs::read_to_string(crate::case_path("shared-samples.toml")).unwrap();
    assert_eq!(
        text, copy,
        "tests/cases/shared-samples.toml differs from shared/cases"
    );
}
