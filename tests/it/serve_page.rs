//! `statespace serve`'s page in a real browser: headless Chromium, driven through the DevTools
//! protocol over `--remote-debugging-pipe` (JSON messages on file descriptors 3 and 4, each
//! ended by a NUL byte: no WebSocket, no driver to install). The test opens the page, clicks
//! board cells and buttons with real mouse events (`Input.dispatchMouseEvent`), presses keys
//! (`Input.dispatchKeyEvent`), asks for the solution and waits until the board shown is the
//! goal, on Flip 4 x 4 and the 8-puzzle; and on the 3x3x3, moves typed (`?play=`) and a solve
//! its time limit stops, which the page must say. It reads what the page says of itself on `<body>`:
//! `data-rendered`, `data-busy`, `data-moves`, `data-goal`, `data-board`.
//!
//! Without Chromium the tests print a note and pass, except under `CI`, as `view.rs`'s do.
//! `UPDATE_DOCS=1 cargo test serve_page` also writes the guide's screenshots (docs/serve-*.png).

use super::serve::Server;
use super::view::{assert_not_blank, chromium, run_chromium_on};
use serde_json::{Value, json};
use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::os::fd::{FromRawFd, RawFd};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

/// Headless Chromium under the DevTools protocol, one page attached.
struct Browser {
    child: Child,
    to: File,
    from: BufReader<File>,
    next_id: u64,
    session: String,
    _profile: tempfile::TempDir,
}

/// A pipe's two ends, closed on exec (the child gets its own copies on fds 3 and 4).
fn pipe() -> (RawFd, RawFd) {
    let mut fds = [0; 2];
    // SAFETY: `fds` is two ints, as pipe2 wants.
    assert_eq!(unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) }, 0);
    (fds[0], fds[1])
}

impl Browser {
    /// Chromium opened on `url`, or `None` where there is none (see the module docs).
    fn open(url: &str) -> Option<Browser> {
        let binary = chromium()?;
        let profile = tempfile::tempdir().unwrap();
        let (to_read, to_write) = pipe();
        let (from_read, from_write) = pipe();
        let mut command = std::process::Command::new(binary);
        command
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--remote-debugging-pipe",
                "--window-size=1200,900",
                "--no-first-run",
                // No network: a page that needed one would not work (loopback bypasses it).
                "--proxy-server=127.0.0.1:9",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg("about:blank")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        // SAFETY: only async-signal-safe calls between fork and exec: the pipe's ends become
        // fds 3 (commands in) and 4 (answers out), copied first above any fd they could clobber.
        unsafe {
            command.pre_exec(move || {
                let commands = libc::fcntl(to_read, libc::F_DUPFD, 10);
                let answers = libc::fcntl(from_write, libc::F_DUPFD, 10);
                if commands < 0 || answers < 0 || libc::dup2(commands, 3) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                if libc::dup2(answers, 4) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = command.spawn().unwrap();
        // SAFETY: the parent's ends, owned from here on; the child's ends closed here.
        let (to, from) = unsafe {
            libc::close(to_read);
            libc::close(from_write);
            (File::from_raw_fd(to_write), File::from_raw_fd(from_read))
        };
        let mut browser = Browser {
            child,
            to,
            from: BufReader::new(from),
            next_id: 0,
            session: String::new(),
            _profile: profile,
        };
        let target = browser.call("Target.createTarget", json!({ "url": url }));
        let attached = browser.call(
            "Target.attachToTarget",
            json!({ "targetId": target["targetId"], "flatten": true }),
        );
        browser.session = attached["sessionId"].as_str().unwrap().to_string();
        Some(browser)
    }

    /// Sends a command (to the page once attached) and returns its result.
    fn call(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut message = json!({ "id": id, "method": method, "params": params });
        if !self.session.is_empty() {
            message["sessionId"] = json!(self.session);
        }
        let mut bytes = message.to_string().into_bytes();
        bytes.push(0);
        self.to.write_all(&bytes).unwrap();
        loop {
            let mut raw = Vec::new();
            let read = self.from.read_until(0, &mut raw).unwrap();
            assert!(read > 0, "Chromium closed the pipe");
            raw.pop();
            let answer: Value = serde_json::from_slice(&raw).unwrap();
            if answer["id"] == id {
                assert!(answer["error"].is_null(), "{method}: {answer}");
                return answer["result"].clone();
            }
        }
    }

    /// The value of a JavaScript expression in the page (promises awaited).
    fn eval(&mut self, expression: &str) -> Value {
        let result = self.call(
            "Runtime.evaluate",
            json!({ "expression": expression, "returnByValue": true, "awaitPromise": true }),
        );
        assert!(
            result["exceptionDetails"].is_null(),
            "{expression}: {result}"
        );
        result["result"]["value"].clone()
    }

    /// `<body data-NAME>`.
    fn body(&mut self, name: &str) -> String {
        // The body is null until the page has loaded.
        let value = self.eval(&format!(
            "(document.body && document.body.dataset.{name}) || ''"
        ));
        value.as_str().unwrap_or_default().to_string()
    }

    /// Waits until the page has drawn and no request or animation runs.
    fn settle(&mut self) {
        let began = Instant::now();
        loop {
            if !self.body("rendered").is_empty() && self.body("busy") == "0" {
                return;
            }
            assert!(
                began.elapsed() < Duration::from_secs(30),
                "the page did not settle: {}",
                self.eval("document.getElementById('status').textContent")
            );
            std::thread::sleep(Duration::from_millis(30));
        }
    }

    /// A real left click at the page point `(x, y)`.
    fn click_at(&mut self, x: f64, y: f64) {
        for kind in ["mousePressed", "mouseReleased"] {
            self.call(
                "Input.dispatchMouseEvent",
                json!({ "type": kind, "x": x, "y": y, "button": "left", "clickCount": 1 }),
            );
        }
    }

    /// Clicks the middle of the element `selector`.
    fn click(&mut self, selector: &str) {
        let at = self.eval(&format!(
            "(() => {{ const b = document.querySelector({selector:?}).getBoundingClientRect(); \
             return [b.left + b.width / 2, b.top + b.height / 2]; }})()"
        ));
        self.click_at(at[0].as_f64().unwrap(), at[1].as_f64().unwrap());
    }

    /// Clicks the board's cell at `row`, `col` (0-based) of a board `cols` cells wide, where
    /// `picture::board_svg` draws it (a 12-pixel margin, square cells).
    fn click_cell(&mut self, row: usize, col: usize, cols: usize) {
        let at = self.eval(&format!(
            "(() => {{ const s = document.querySelector('#board svg'); \
             const b = s.getBoundingClientRect(); const v = s.viewBox.baseVal; \
             const cell = (v.width - 24) / {cols}; const k = b.width / v.width; \
             return [b.left + (12 + ({col} + 0.5) * cell) * k, \
                     b.top + (12 + ({row} + 0.5) * cell) * k]; }})()"
        ));
        self.click_at(at[0].as_f64().unwrap(), at[1].as_f64().unwrap());
    }

    /// Presses and releases `key` (a character key).
    fn press(&mut self, key: &str) {
        for kind in ["keyDown", "keyUp"] {
            self.call(
                "Input.dispatchKeyEvent",
                json!({ "type": kind, "key": key, "text": key }),
            );
        }
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The page of `server`, solutions shown quickly (`?step=20`).
fn page_url(server: &Server) -> String {
    format!("http://{}/?step=20", server.address)
}

#[test]
fn flip_4x4_clicked_then_solved_in_the_browser() {
    let server = Server::start(&crate::config("flip-4x4.toml"), &[]);
    let Some(mut browser) = Browser::open(&page_url(&server)) else {
        return;
    };
    browser.settle();
    assert_eq!(browser.body("board"), "bwwb\nbbwb\nbwwb\nbwww");
    assert_eq!(browser.body("goal"), "false");
    // The histogram and the hints are drawn from the API.
    let moves = browser.eval("document.querySelectorAll('#moves button.move').length");
    assert_eq!(moves, 16);
    // A click on the top-left cell presses it: r1c1 flips it and its two neighbours.
    browser.click_cell(0, 0, 4);
    browser.settle();
    assert_eq!(browser.body("moves"), "1");
    assert_eq!(browser.body("board"), "wbwb\nwbwb\nbwwb\nbwww");
    // The graph has grown by the board reached.
    let circles = browser.eval("document.querySelectorAll('#graph circle').length");
    assert_eq!(circles, 2);
    browser.click("#solve");
    browser.settle();
    assert_eq!(browser.body("goal"), "true");
    let board = browser.body("board");
    assert!(
        board.chars().all(|c| c == 'b' || c == '\n')
            || board.chars().all(|c| c == 'w' || c == '\n'),
        "{board}"
    );
    assert_eq!(
        browser.body("moves"),
        "4",
        "one press and the 3 of the solution"
    );
}

#[test]
fn the_8_puzzle_clicked_undone_by_key_then_solved_in_the_browser() {
    let server = Server::start(&crate::config("tiles-3x3.toml"), &[]);
    let Some(mut browser) = Browser::open(&page_url(&server)) else {
        return;
    };
    browser.settle();
    assert_eq!(browser.body("board"), "8 6 7\n2 5 4\n3 _ 1");
    // Tile 5 is above the blank: a click on it slides it down.
    browser.click_cell(1, 1, 3);
    browser.settle();
    assert_eq!(browser.body("board"), "8 6 7\n2 _ 4\n3 5 1");
    browser.eval("document.getElementById('board').focus()");
    browser.press("u");
    browser.settle();
    assert_eq!(browser.body("moves"), "0");
    assert_eq!(browser.body("board"), "8 6 7\n2 5 4\n3 _ 1");
    browser.click("#solve");
    browser.settle();
    assert_eq!(browser.body("goal"), "true");
    assert_eq!(browser.body("board"), "1 2 3\n4 5 6\n7 8 _");
    assert_eq!(browser.body("moves"), "31", "the hardest board: 31 moves");
    let status = browser.eval("document.getElementById('status').textContent");
    assert!(
        status.as_str().unwrap().starts_with("31 moves, optimal"),
        "{status}"
    );
}

/// The 3x3x3 played by typed moves (`?play=`), then a solve that its time limit stops: the page
/// says which limit, as `solve` says `undecided`.
#[test]
fn the_3x3x3_solve_stopped_by_its_limit_says_so_in_the_browser() {
    let server = Server::start(
        &crate::config("perm-3x3x3.toml"),
        &["--time-limit", "300ms", "--hint-time", "100ms"],
    );
    let url = format!("http://{}/?play=B,D',R2,F,U2,L',B2,D", server.address);
    let Some(mut browser) = Browser::open(&url) else {
        return;
    };
    browser.settle();
    // The start's 4 moves and the 8 typed ones: deeper than 300 ms of IDDFS reach.
    let began = Instant::now();
    while browser.body("moves") != "8" {
        assert!(
            began.elapsed() < Duration::from_secs(30),
            "the typed moves were not played"
        );
        std::thread::sleep(Duration::from_millis(50));
        browser.settle();
    }
    browser.click("#solve");
    browser.settle();
    assert_eq!(browser.body("goal"), "false");
    let banner = browser.eval("document.getElementById('limit').hidden ? '' : document.getElementById('limit').textContent");
    let banner = banner.as_str().unwrap();
    assert!(banner.contains("time limit 300ms reached"), "{banner}");
}

/// The guide's screenshots (docs/serve.md): the 3x3x3 a few moves from its start, Klotski at its
/// start. `UPDATE_DOCS=1` takes them again; otherwise they are checked to decode and not be
/// blank (screenshots are not byte-reproducible).
#[test]
fn the_guide_s_screenshots_of_the_3x3x3_and_klotski() {
    let docs = Path::new(crate::ROOT).join("docs");
    for (config, play, png) in [
        ("perm-3x3x3.toml", "?play=B,D'", "serve-3x3x3.png"),
        ("klotski.toml", "?play=S r5c1 right", "serve-klotski.png"),
    ] {
        let path = docs.join(png);
        if std::env::var_os("UPDATE_DOCS").is_some() {
            let Some(browser) = chromium() else {
                return;
            };
            let server = Server::start(&crate::config(config), &[]);
            let url = format!("http://{}/{play}", server.address);
            let shot = format!("--screenshot={}", path.display());
            run_chromium_on(&browser, &url, &["--window-size=1100,760".into(), shot]);
        }
        assert_not_blank(&path);
    }
}
