//! The HTML export page in a real browser, and the SVG pictures of solutions.
//!
//! The page tests run headless Chromium: `--dump-dom` after a virtual-time budget (the page's
//! script has run and drawn; the dumped `<body>` carries `data-rendered`, the number of boards
//! drawn) and `--screenshot` (decoded, and checked not to be one colour). Every run goes through
//! a proxy that refuses everything (`--proxy-server=127.0.0.1:9`), so a page that needed the
//! network would not render; the page text is also searched for URLs. Without Chromium these
//! tests print a note and pass, except under `CI` (set by `.ci/run`'s CI runs), where they fail:
//! CI installs Chromium, so a missing one is a broken setup, not a reason to skip.
//!
//! `UPDATE_DOCS=1 cargo test` regenerates the guide's pictures in docs/ (screenshots of the page
//! and a solution strip); otherwise the test checks that the screenshots decode and are not
//! blank (they are not byte-reproducible) and that the solution SVG is current.

use assert_cmd::Command;
use predicates::prelude::*;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn statespace() -> Command {
    Command::cargo_bin("statespace").unwrap()
}

fn config(name: &str) -> String {
    crate::config_path(name).to_str().unwrap().to_string()
}

fn docs(name: &str) -> PathBuf {
    Path::new(crate::ROOT).join("docs").join(name)
}

/// The Chromium binary: `$CHROMIUM`, else the first of the usual names on `PATH`. `None` (with a
/// note) when there is none, locally; a panic under `CI`.
pub(crate) fn chromium() -> Option<PathBuf> {
    let names = ["chromium", "chromium-browser", "google-chrome", "chrome"];
    let found = std::env::var_os("CHROMIUM").map(PathBuf::from).or_else(|| {
        let path = std::env::var_os("PATH")?;
        std::env::split_paths(&path)
            .flat_map(|dir| names.iter().map(move |n| dir.join(n)))
            .find(|p| p.is_file())
    });
    if found.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "Chromium is not installed (CI must have it: .ci/run installs it with apt-get)"
        );
        eprintln!("chromium not found: the browser checks are skipped (apt-get install chromium)");
    }
    found
}

/// Runs Chromium headless on `page` (with `#fragment`) plus `extra` flags; returns its stdout.
fn run_chromium(browser: &Path, page: &Path, fragment: &str, extra: &[String]) -> String {
    run_chromium_on(
        browser,
        &format!("file://{}#{fragment}", page.display()),
        extra,
    )
}

/// Runs Chromium headless on `url` plus `extra` flags; returns its stdout.
/// A fresh profile each run, no sandbox (the tests run as root in CI), no network (loopback
/// still answers: `statespace serve`'s page).
pub(crate) fn run_chromium_on(browser: &Path, url: &str, extra: &[String]) -> String {
    let profile = tempfile::tempdir().unwrap();
    // Into a file, not a pipe: a dumped DOM is larger than a pipe's buffer, and a browser blocked
    // on a full pipe while we wait for it to exit would never finish.
    let stdout_path = profile.path().join("stdout");
    let stdout = std::fs::File::create(&stdout_path).unwrap();
    let mut child = std::process::Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--hide-scrollbars",
            "--proxy-server=127.0.0.1:9",
            "--virtual-time-budget=5000",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .args(extra)
        .arg(url)
        .stdout(stdout)
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("chromium starts");
    // A browser that hangs must fail the test, not stall the suite.
    let deadline = Instant::now() + Duration::from_secs(90);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            child.kill().ok();
            child.wait().ok();
            panic!("chromium did not finish within 90 s on {url}");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "chromium failed on {url}");
    std::fs::read_to_string(stdout_path).unwrap()
}

/// The DOM after the page has run.
fn dump_dom(browser: &Path, page: &Path, fragment: &str) -> String {
    run_chromium(browser, page, fragment, &["--dump-dom".to_string()])
}

/// An attribute of the dumped `<body>`.
fn body_attribute(dom: &str, name: &str) -> Option<String> {
    let body = &dom[dom.find("<body")?..];
    let body = &body[..body.find('>')?];
    let start = body.find(&format!("{name}=\""))? + name.len() + 2;
    Some(body[start..][..body[start..].find('"')?].to_string())
}

fn rendered(dom: &str) -> Option<u64> {
    body_attribute(dom, "data-rendered")?.parse().ok()
}

/// Takes a 1200 x 800 screenshot of `page` into `png`.
fn screenshot(browser: &Path, page: &Path, fragment: &str, png: &Path) {
    run_chromium(
        browser,
        page,
        fragment,
        &[
            "--window-size=1200,800".to_string(),
            format!("--screenshot={}", png.display()),
        ],
    );
}

/// Decodes a PNG; returns (width, height, distinct colours among sampled pixels, share of pixels
/// that are not the commonest colour).
fn png_summary(path: &Path) -> (u32, u32, usize, f64) {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buffer = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buffer).unwrap();
    let channels = info.color_type.samples();
    assert_eq!(info.bit_depth, png::BitDepth::Eight);
    let mut counts = std::collections::HashMap::new();
    for pixel in buffer[..info.buffer_size()].chunks(channels) {
        *counts
            .entry(pixel[..channels.min(3)].to_vec())
            .or_insert(0u64) += 1;
    }
    let total: u64 = counts.values().sum();
    let commonest = *counts.values().max().unwrap();
    (
        info.width,
        info.height,
        counts.len(),
        1.0 - commonest as f64 / total as f64,
    )
}

/// Not blank: many colours, and a fair share of the picture drawn over the background.
pub(crate) fn assert_not_blank(path: &Path) {
    let (w, h, colours, drawn) = png_summary(path);
    assert!(w >= 400 && h >= 300, "{path:?}: {w} x {h}");
    assert!(colours >= 8, "{path:?}: only {colours} colours");
    assert!(drawn > 0.05, "{path:?}: only {:.1}% drawn", drawn * 100.0);
}

/// Exports `config` (plus `args`) to `dir/page.html`, the format from the extension.
fn export_page(dir: &Path, config_name: &str, args: &[&str]) -> PathBuf {
    let page = dir.join("page.html");
    statespace()
        .args(["export", &config(config_name)])
        .args(args)
        .arg("-o")
        .arg(&page)
        .assert()
        .code(0);
    page
}

/// Every `http://` or `https://` in the page, but the XML namespaces (which name, never fetch).
fn urls(text: &str) -> Vec<String> {
    text.match_indices("http")
        .map(|(at, _)| text[at..].chars().take(60).collect::<String>())
        .filter(|s| s.starts_with("http://") || s.starts_with("https://"))
        .filter(|s| !s.starts_with("http://www.w3.org/"))
        .collect()
}

#[test]
fn the_flip_3x3_page_is_self_contained_and_draws_all_512_boards() {
    let dir = tempfile::tempdir().unwrap();
    let page = export_page(dir.path(), "flip-3x3.toml", &[]);
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(html.len() < 3 << 20, "{} bytes", html.len());
    assert_eq!(urls(&html), Vec::<String>::new(), "URLs in the page");
    // Nothing loaded from elsewhere: no src or href at all, and the library is inline.
    assert!(!html.contains(" src=") && !html.contains(" href="));
    assert!(html.contains("forceSimulation") && html.contains("default-src 'none'"));
    assert!(html.contains("512 states, 2304 moves, the whole component"));

    let Some(browser) = chromium() else { return };
    let dom = dump_dom(&browser, &page, "");
    assert_eq!(rendered(&dom), Some(512), "{}", &dom[..dom.len().min(400)]);
    assert_eq!(
        body_attribute(&dom, "data-layout").as_deref(),
        Some("depth")
    );
    let png = dir.path().join("page.png");
    screenshot(&browser, &page, "", &png);
    assert_not_blank(&png);
}

#[test]
fn the_page_lights_a_path_finds_boards_and_runs_the_force_layout() {
    let dir = tempfile::tempdir().unwrap();
    let page = export_page(dir.path(), "flip-3x3.toml", &[]);
    let Some(browser) = chromium() else { return };
    // Node 0 is the start, bwb/wbw/bwb: every cell pressed once (goal distance 9).
    let dom = dump_dom(&browser, &page, "layout=force&select=0");
    assert_eq!(
        body_attribute(&dom, "data-layout").as_deref(),
        Some("force")
    );
    assert_eq!(rendered(&dom), Some(512));
    assert!(
        dom.contains("board #0: depth 0, goal distance 9. Shortest path to a goal: 9 moves: "),
        "{dom}"
    );
    // A board typed with `/` between rows, in capitals: found ignoring case; it is the goal.
    let dom = dump_dom(&browser, &page, "find=WWW/WWW/WWW");
    assert!(dom.contains("goal distance 0. It is a goal."), "{dom}");
}

#[test]
fn a_5000_board_page_renders_and_says_what_was_cut() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("near.html");
    // The page's default cap is 5,000 states; 5 x 5 has 2^25.
    statespace()
        .args(["export", &config("flip-5x5.toml"), "--format", "html", "-o"])
        .arg(&page)
        .assert()
        .code(0)
        .stderr(
            predicate::str::contains("state limit 5000 reached")
                .and(predicate::str::is_match("^[^\n]*\n$").unwrap()),
        );
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("<div id=\"cut\">Cut: state limit 5000 reached at 5000 states"));
    assert!(html.len() < 3 << 20, "{} bytes", html.len());
    let Some(browser) = chromium() else { return };
    let started = Instant::now();
    let dom = dump_dom(&browser, &page, "");
    assert_eq!(rendered(&dom), Some(5000));
    eprintln!(
        "5,000 boards: {} bytes, first frame {} ms after navigation, browser run {:.1} s",
        html.len(),
        body_attribute(&dom, "data-render-ms").unwrap_or_default(),
        started.elapsed().as_secs_f64()
    );
}

#[test]
fn the_page_cap_lowers_max_states_and_says_so() {
    let out = statespace()
        .args([
            "export",
            &config("flip-5x5.toml"),
            "--format",
            "html",
            "--max-states",
            "30000",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("state limit 20000 reached: the html page takes at most 20000 states"),
        "{stderr}"
    );
    let html = String::from_utf8(out.stdout).unwrap();
    let json = html
        .split("<script id=\"graph-data\" type=\"application/json\">")
        .nth(1)
        .and_then(|rest| rest.split("</script>").next())
        .unwrap();
    let data: serde_json::Value = serde_json::from_str(json).unwrap();
    assert_eq!(data["boards"].as_array().unwrap().len(), 20_000);
    assert_eq!(data["complete"], false);
    assert_eq!(data["style"]["kind"], "cells");
}

/// `solve --svg` on `config_name` (stdin `board`, if any): the exit code and the SVG, if written.
fn solve_svg(
    dir: &Path,
    config_name: &str,
    args: &[&str],
    board: Option<&str>,
) -> (i32, String, Option<String>) {
    let svg = dir.join("solution.svg");
    let mut command = statespace();
    command
        .args(["solve", &config(config_name)])
        .args(args)
        .arg("--svg")
        .arg(&svg);
    if let Some(board) = board {
        command.args(["--board", "-"]).write_stdin(board);
    }
    let out = command.output().unwrap();
    let written = std::fs::read_to_string(&svg).ok();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        written,
    )
}

/// The boards (`<g class="board">`) of a strip: each one's label, changed cells and marks.
fn strip(svg: &str) -> Vec<(String, usize, usize)> {
    let doc = roxmltree::Document::parse(svg).expect("well-formed SVG");
    let labels: Vec<String> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("move"))
        .map(|n| n.text().unwrap().to_string())
        .collect();
    let boards: Vec<_> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("board"))
        .collect();
    assert_eq!(labels.len(), boards.len());
    boards
        .iter()
        .zip(labels)
        .map(|(b, label)| {
            let count = |class| {
                b.descendants()
                    .filter(|n| n.attribute("class") == Some(class))
                    .count()
            };
            (label, count("changed"), count("mark"))
        })
        .collect()
}

#[test]
fn solve_svg_draws_a_board_per_move_with_the_changes_highlighted() {
    let dir = tempfile::tempdir().unwrap();
    // POJ 1753's sample: r1c1 r1c2 r2c2 r4c3; a corner press flips 3 cells, an edge one 4, an
    // inner one 5.
    let (code, stderr, svg) = solve_svg(dir.path(), "flip-4x4.toml", &[], None);
    assert_eq!((code, stderr.as_str()), (0, ""));
    let boards = strip(&svg.unwrap());
    let expected = [
        ("start", 0, 0),
        ("r1c1", 3, 1),
        ("r1c2", 4, 1),
        ("r2c2", 5, 1),
        ("r4c3", 4, 1),
    ];
    let got: Vec<_> = boards
        .iter()
        .map(|(l, c, m)| (l.as_str(), *c, *m))
        .collect();
    assert_eq!(got, expected);

    // Shift: a move marks its whole row or column and highlights the cells that changed colour.
    let (code, _, svg) = solve_svg(dir.path(), "shift-3x5.toml", &[], None);
    assert_eq!(code, 0);
    let boards = strip(&svg.unwrap());
    assert_eq!(boards.len(), 4);
    assert!(
        boards[1..]
            .iter()
            .all(|(_, changed, mark)| *changed > 0 && *mark == 1)
    );
}

#[test]
fn solve_svg_draws_the_start_alone_when_impossible_and_nothing_at_a_limit() {
    let dir = tempfile::tempdir().unwrap();
    let (code, _, svg) = solve_svg(
        dir.path(),
        "flip-4x4.toml",
        &[],
        Some("wwww\nwwww\nwwww\nwwwb\n"),
    );
    assert_eq!(code, 3);
    let svg = svg.unwrap();
    assert!(svg.contains("Impossible"));
    assert_eq!(strip(&svg).len(), 1);

    let dir = tempfile::tempdir().unwrap();
    let (code, stderr, svg) = solve_svg(dir.path(), "flip-4x4.toml", &["--max-depth", "1"], None);
    assert_eq!(code, 4);
    assert!(svg.is_none());
    assert_eq!(stderr.lines().count(), 1);
    assert!(stderr.contains("not written: undecided (depth limit 1 reached)"));
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert!(left.is_empty(), "left behind: {left:?}");

    statespace()
        .args([
            "solve",
            &config("flip-4x4.toml"),
            "--svg",
            "/nonexistent/x.svg",
        ])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::is_match("^statespace: error: .*no such directory\n$").unwrap());
}

/// The guide's pictures: the page on the whole 3 x 3 Flip space and on a Shift neighbourhood,
/// made by `export` and Chromium, and a solution strip made by `solve --svg`.
/// `UPDATE_DOCS=1 cargo test` remakes them.
#[test]
fn the_pictures_in_docs_are_current() {
    let update = std::env::var_os("UPDATE_DOCS").is_some();
    let dir = tempfile::tempdir().unwrap();

    let (code, _, svg) = solve_svg(dir.path(), "flip-4x4.toml", &[], None);
    assert_eq!(code, 0);
    let svg = svg.unwrap();
    let path = docs("flip-4x4-solution.svg");
    if update {
        std::fs::write(&path, &svg).unwrap();
    }
    assert!(
        std::fs::read_to_string(&path).unwrap() == svg,
        "docs/flip-4x4-solution.svg is stale: run UPDATE_DOCS=1 cargo test"
    );

    let screenshots: [(&str, &str, &[&str], &str); 3] = [
        ("view-flip-3x3.png", "flip-3x3.toml", &[], "select=300"),
        (
            "view-tiles-3x3.png",
            "tiles-3x3.toml",
            &["--depth", "4"],
            "select=0",
        ),
        (
            "view-shift-3x5.png",
            "shift-3x5.toml",
            &["--depth", "3"],
            "select=0",
        ),
    ];
    for (name, config_name, args, fragment) in screenshots {
        let path = docs(name);
        if update {
            let browser = chromium().expect("UPDATE_DOCS needs chromium");
            let page = export_page(dir.path(), config_name, args);
            screenshot(&browser, &page, fragment, &path);
        }
        assert!(
            path.is_file(),
            "docs/{name} is missing: run UPDATE_DOCS=1 cargo test"
        );
        assert_not_blank(&path);
    }
}

/// A 2 x 2 sliding puzzle (12 reachable arrangements), to draw tiles and text before any tiles
/// plugin exists: cells are nibbles, 0 the blank; a move slides the tile it names.
struct Slide2x2;

impl statespace::space::StateSpace for Slide2x2 {
    type State = [u8; 4];
    type Move = u8;
    fn successors(&self, s: [u8; 4], visit: &mut dyn FnMut(u8, [u8; 4])) {
        let blank = s.iter().position(|&t| t == 0).unwrap();
        // Neighbours in a 2 x 2: the cell beside (flip the column) and the one below or above.
        for other in [blank ^ 1, blank ^ 2] {
            let mut t = s;
            t.swap(blank, other);
            visit(s[other], t);
        }
    }
    fn is_goal(&self, s: [u8; 4]) -> bool {
        s == [1, 2, 3, 0]
    }
}

#[test]
fn tiles_and_text_boards_are_drawn_too() {
    use statespace::graph::{self, ExportLimits};
    use statespace::picture::BoardStyle;
    let text = |s: [u8; 4]| {
        let cell = |t: u8| {
            if t == 0 {
                "_".to_string()
            } else {
                t.to_string()
            }
        };
        format!(
            "{} {}\n{} {}",
            cell(s[0]),
            cell(s[1]),
            cell(s[2]),
            cell(s[3])
        )
    };
    let g = graph::build(
        &Slide2x2,
        [0, 1, 3, 2],
        true,
        &ExportLimits::default(),
        text,
        &mut |_, _| {},
    )
    .unwrap();
    assert_eq!(
        (g.node_count(), g.edge_count(), g.complete()),
        (12, 12, true)
    );
    let Some(browser) = chromium() else { return };
    let dir = tempfile::tempdir().unwrap();
    for (name, style) in [("tiles", BoardStyle::Tiles), ("text", BoardStyle::Text)] {
        let page = dir.path().join(format!("{name}.html"));
        std::fs::write(&page, graph::to_html(&g, &style, "2 x 2 slide")).unwrap();
        let dom = dump_dom(&browser, &page, "select=0");
        assert_eq!(rendered(&dom), Some(12), "{name}");
        assert!(dom.contains("Shortest path to a goal: "), "{name}: {dom}");
    }
}

#[test]
fn sliding_blocks_are_drawn_as_one_block_a_piece() {
    let dir = tempfile::tempdir().unwrap();
    // Rush Hour card 40: 51 moves; every board has its 13 cars as 13 blocks.
    let (code, _, svg) = solve_svg(dir.path(), "rush-hour.toml", &[], None);
    assert_eq!(code, 0);
    let svg = svg.unwrap();
    let doc = roxmltree::Document::parse(&svg).expect("well-formed SVG");
    let boards: Vec<_> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("board"))
        .collect();
    assert_eq!(boards.len(), 52);
    for board in &boards {
        let pieces = board
            .descendants()
            .filter(|n| n.attribute("class") == Some("piece"))
            .count();
        assert_eq!(pieces, 13);
    }
    // Klotski's start: two generals stacked in each outer column are four blocks, not two.
    use statespace::picture::{BoardStyle, board_svg};
    let instance = crate::registry()
        .build(
            &statespace::config::Config::load(&config("klotski.toml")).unwrap(),
            &statespace::limit::Limits::default(),
        )
        .unwrap();
    let style: &BoardStyle = instance.style();
    let start = board_svg(style, "VBBV\nVBBV\nVHHV\nVSSV\nS..S");
    assert_eq!(start.matches("class=\"piece\"").count(), 10);

    let page = export_page(dir.path(), "klotski.toml", &["--depth", "4"]);
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("\"kind\":\"blocks\""));
    let Some(browser) = chromium() else { return };
    let dom = dump_dom(&browser, &page, "select=3");
    assert_eq!(rendered(&dom), Some(46), "{}", &dom[..dom.len().min(400)]);
    let png = dir.path().join("blocks.png");
    screenshot(&browser, &page, "", &png);
    assert_not_blank(&png);
}
