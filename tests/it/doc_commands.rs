//! Every `statespace` command in the shell examples of README.md and the guide (docs/), run as
//! written: each in a folder of its own where `configs/` is the repository's and `boards.txt`
//! holds two boards, under `sh` (quotes and redirections as a user's shell reads them), with
//! the binary under test first on the PATH. Each must exit 0 and print something or write its
//! file.
//!
//! Not run here: the cluster page's two-machine commands (`--hostfile`; the loopback cluster is
//! `cluster.rs`'s), `statespace serve` (it runs until Ctrl-C: `serve.rs` starts it), and the lines that build or install (`cargo build`, `pip install`, the crate
//! `statespace new` writes): `.ci/run` runs those.

use std::path::{Path, PathBuf};

/// `(file, line, command)` of every `statespace` command in a ```sh block of README.md and
/// docs/**/*.md, its trailing comment dropped.
fn commands() -> Vec<(String, usize, String)> {
    let root = Path::new(crate::ROOT);
    let mut files = vec![root.join("README.md")];
    let mut folders = vec![root.join("docs")];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                files.push(path);
            }
        }
    }
    let mut found = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let name = file.strip_prefix(root).unwrap().display().to_string();
        let mut in_sh = false;
        for (i, line) in text.lines().enumerate() {
            if line.starts_with("```") {
                in_sh = !in_sh && line.trim() == "```sh";
                continue;
            }
            let command = line.strip_prefix("$ ").unwrap_or(line);
            let server = command.starts_with("statespace serve");
            if !in_sh
                || !command.starts_with("statespace ")
                || command.contains("--hostfile")
                || server
            {
                continue;
            }
            // A comment starts after a space: `cmd   # what it does`.
            let command = match command.find(" #") {
                Some(at) => command[..at].trim_end(),
                None => command.trim_end(),
            };
            found.push((name.clone(), i + 1, command.to_string()));
        }
    }
    found
}

#[test]
fn every_statespace_command_of_the_readme_and_the_guide_runs_as_written() {
    let commands = commands();
    assert!(commands.len() >= 12, "{commands:?}");
    let binary = assert_cmd::cargo::cargo_bin("statespace");
    let path = format!(
        "{}:{}",
        binary.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let cache = tempfile::tempdir().unwrap();
    for (file, line, command) in commands {
        let dir = tempfile::tempdir().unwrap();
        let work: PathBuf = dir.path().join("work");
        std::fs::create_dir(&work).unwrap();
        std::os::unix::fs::symlink(Path::new(crate::ROOT).join("configs"), work.join("configs"))
            .unwrap();
        let boards = "1 2 3 4\n5 6 7 8\n9 10 11 12\n13 14 _ 15\n\n\
                      1 2 3 4\n5 6 7 8\n9 10 _ 12\n13 14 11 15\n";
        std::fs::write(work.join("boards.txt"), boards).unwrap();
        let out = std::process::Command::new("sh")
            .args(["-c", &command])
            .current_dir(&work)
            .env("PATH", &path)
            .env("XDG_CACHE_HOME", cache.path())
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success(),
            "{file}:{line}: `{command}` failed: {stderr}"
        );
        let wrote =
            std::fs::read_dir(&work).unwrap().count() > 2 || dir.path().join("my-puzzle").exists();
        assert!(
            !stdout.trim().is_empty() || wrote,
            "{file}:{line}: `{command}` printed nothing and wrote nothing"
        );
    }
}
