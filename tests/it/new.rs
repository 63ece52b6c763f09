//! `statespace new NAME DIR`: the crate it writes (its build, run and tests are `.ci/run`'s:
//! minutes of compiling), and what it refuses before writing anything.

use crate::run_statespace as run;

#[test]
fn new_writes_a_plugin_crate_on_this_clone() {
    let dir = tempfile::tempdir().unwrap();
    let crate_dir = dir.path().join("my-puzzle");
    let (code, out, err) = run(&["new", "my-puzzle", crate_dir.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("cargo run --release -- solve configs/my-puzzle.toml"),
        "{out}"
    );
    let read = |path: &str| std::fs::read_to_string(crate_dir.join(path)).unwrap();
    let manifest = read("Cargo.toml");
    let root = std::path::Path::new(crate::ROOT).canonicalize().unwrap();
    assert!(manifest.contains("name = \"my-puzzle\""), "{manifest}");
    let dependency = format!("statespace = {{ path = \"{}\" }}", root.display());
    assert!(manifest.contains(&dependency), "{manifest}");
    assert!(
        !manifest.contains("serde"),
        "no serde of the user's own: {manifest}"
    );
    assert!(read("configs/my-puzzle.toml").contains("kind = \"my-puzzle\""));
    assert!(read("src/main.rs").contains("my_puzzle::plugin::Plugin"));
    assert!(read("src/plugin.rs").contains("kind: \"my-puzzle\""));
    for path in ["src/lib.rs", "src/space.rs", "tests/solve.rs"] {
        assert!(!read(path).contains("{{"), "{path}: a placeholder left");
    }
}

#[test]
fn new_refuses_a_bad_name_an_occupied_folder_and_no_clone() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("x");
    let target = target.to_str().unwrap();
    let (code, _, err) = run(&["new", "My Puzzle", target]);
    assert_eq!(code, 2);
    assert_eq!(
        err,
        "statespace: error: NAME: `My Puzzle` is not a crate name: lowercase letters, digits, `-` and `_`, starting with a letter\n"
    );
    std::fs::create_dir(dir.path().join("x")).unwrap();
    std::fs::write(dir.path().join("x/keep.txt"), "mine").unwrap();
    let (code, _, err) = run(&["new", "ok", target]);
    assert_eq!(code, 2);
    assert!(
        err.ends_with("x exists and is not an empty folder\n"),
        "{err}"
    );
    assert_eq!(std::fs::read_dir(dir.path().join("x")).unwrap().count(), 1);
    let empty = dir.path().join("empty");
    let (code, _, err) = run(&["new", "ok", empty.to_str().unwrap(), "--statespace", "/"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--statespace: / is not a statespace clone"),
        "{err}"
    );
    assert!(!empty.exists(), "nothing written");
}
