//! `statespace serve`: the JSON API over loopback, as a client uses it.
//!
//! Each test starts the binary on a free port (`--port 0`; the address is read from its first
//! line on stdout) and speaks HTTP/1.1 to it over a plain `TcpStream` (one request a
//! connection), so what is tested is what any client sees: status codes, bodies, the same JSON
//! as `solve --json`, errors as the command line's lines, limits, a search stopped when its
//! client goes away, a queue under a cap, a load of concurrent clients some of which send
//! garbage, and Ctrl-C. The page in a real browser is `serve_page.rs`.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

/// A running `statespace serve`, stopped by Ctrl-C (SIGINT) when dropped.
pub struct Server {
    child: Child,
    pub address: SocketAddr,
}

impl Server {
    /// Serves `config` (a path) with `flags`, on a free loopback port.
    pub fn start(config: &str, flags: &[&str]) -> Server {
        let mut command = std::process::Command::new(assert_cmd::cargo::cargo_bin("statespace"));
        let cache = std::env::temp_dir().join("statespace-serve-tests-cache");
        command
            .env("XDG_CACHE_HOME", cache)
            .args(["serve", config, "--port", "0"])
            .args(flags)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        let mut child = command.spawn().unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let address = line
            .trim()
            .strip_prefix("statespace serve: http://")
            .and_then(|rest| rest.strip_suffix('/'))
            .unwrap_or_else(|| panic!("not an address line: {line:?}"))
            .parse()
            .unwrap();
        Server { child, address }
    }

    /// Sends `raw` bytes as they are: see [`exchange`].
    pub fn raw(&self, raw: &[u8]) -> (u16, String) {
        exchange(self.address, raw)
    }

    /// `METHOD path` with `body` (JSON when it is one): `(status, body as JSON)`.
    pub fn request(&self, method: &str, path: &str, body: &str) -> (u16, Value) {
        let (status, text) = self.raw(http(method, path, body).as_bytes());
        let value = serde_json::from_str(&text).unwrap_or(Value::String(text));
        (status, value)
    }

    pub fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        self.request("POST", path, &body.to_string())
    }

    pub fn get(&self, path: &str) -> (u16, Value) {
        self.request("GET", path, "")
    }

    /// Ctrl-C, and the exit code, which must come within `within`.
    pub fn interrupt(mut self, within: Duration) -> i32 {
        let pid = self.child.id() as i32;
        // SAFETY: a signal to our own child process.
        unsafe { libc::kill(pid, libc::SIGINT) };
        let began = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.code().unwrap_or(-1);
            }
            assert!(
                began.elapsed() < within,
                "the server did not stop within {within:?} of Ctrl-C"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `solve --json`'s object for `config` and `args`, without its timings.
fn solve_json(config: &str, args: &[&str]) -> Value {
    let mut all = vec!["solve", config, "--json"];
    all.extend(args);
    let (_, out, err) = crate::run_statespace(&all);
    let mut value: Value = serde_json::from_str(&out).unwrap_or_else(|_| panic!("{out}{err}"));
    untimed(&mut value);
    value
}

/// The fields of a solve that differ from run to run (times; whether a table was reused).
fn untimed(value: &mut Value) {
    let fields = value.as_object_mut().unwrap();
    for field in ["table_reused", "table_loaded"] {
        fields.remove(field);
    }
    let stats = fields["stats"].as_object_mut().unwrap();
    stats.remove("elapsed");
    stats.remove("build");
}

#[test]
fn solve_answers_what_solve_json_prints_for_a_board_and_a_scramble() {
    let flip = crate::config("flip-4x4.toml");
    let server = Server::start(&flip, &[]);
    let board = "bwwb\nbbwb\nbwwb\nbwww\n";
    let (status, mut answer) = server.post("/api/solve", &json!({ "board": board }));
    assert_eq!(status, 200, "{answer}");
    untimed(&mut answer);
    assert_eq!(answer, solve_json(&flip, &[]));
    assert_eq!(answer["moves"], 4);

    let cube = crate::config("perm-3x3x3.toml");
    let server = Server::start(&cube, &[]);
    let (status, mut answer) = server.post("/api/solve", &json!({ "scramble": "R U F' L2" }));
    assert_eq!(status, 200, "{answer}");
    untimed(&mut answer);
    assert_eq!(answer, solve_json(&cube, &["--scramble", "R U F' L2"]));
    assert_eq!(answer["path"], json!(["L2", "F", "U'", "R'"]));
    // Another engine by name, as `--mode`.
    let (status, answer) = server.post(
        "/api/solve",
        &json!({ "scramble": "R U", "mode": "bidirectional" }),
    );
    assert_eq!((status, &answer["moves"]), (200, &json!(2)), "{answer}");
}

/// Every built-in kind: the puzzle's description, the start's moves with their boards and
/// distances, a move played, and the solution from there.
#[test]
fn every_kind_of_puzzle_plays_and_solves_through_the_api() {
    for name in [
        "flip-4x4.toml",
        "shift-4x6.toml",
        "tiles-3x3.toml",
        "tiles-4x4.toml",
        "klotski.toml",
        "peg-triangle.toml",
        "perm-3x3x3.toml",
    ] {
        let server = Server::start(&crate::config(name), &["--time-limit", "20s"]);
        let (status, puzzle) = server.get("/api/puzzle");
        assert_eq!(status, 200, "{name}: {puzzle}");
        assert!(puzzle["description"].as_str().unwrap().len() > 3, "{name}");
        let start = puzzle["start"].clone();
        let (status, here) = server.post("/api/moves", &start);
        assert_eq!(status, 200, "{name}: {here}");
        assert!(here["svg"].as_str().unwrap().starts_with("<svg"), "{name}");
        let moves = here["moves"].as_array().unwrap();
        assert!(!moves.is_empty(), "{name}: no moves");
        // Each move leads to a board one move away: its distance differs by at most one from
        // the start's, where both are known exactly.
        let distance = &here["distance"];
        for m in moves {
            let d = &m["distance"];
            let exact = d["at_least"] == false && distance["at_least"] == false;
            if let (true, Some(a), Some(b)) =
                (exact, d["moves"].as_i64(), distance["moves"].as_i64())
            {
                assert!((a - b).abs() <= 1, "{name}: {m} from {distance}");
            }
        }
        // The best move (the least distance) is one the solution could start with.
        let next = moves
            .iter()
            .filter(|m| m["distance"]["at_least"] == false && m["distance"]["moves"].is_u64())
            .min_by_key(|m| m["distance"]["moves"].as_u64())
            .unwrap_or(&moves[0]);
        let (status, solved) =
            server.post("/api/solve", &json!({ "board": next["board"].clone() }));
        assert_eq!(status, 200, "{name}: {solved}");
        assert_eq!(solved["outcome"], "solved", "{name}: {solved}");
        let exact = next["distance"]["at_least"] == false && solved["optimal"] == true;
        if let (true, Some(d)) = (exact, next["distance"]["moves"].as_u64()) {
            assert_eq!(solved["moves"].as_u64(), Some(d), "{name}: {next}");
        }
    }
}

#[test]
fn the_3x3x3_hints_are_lower_bounds_when_the_search_stops() {
    let server = Server::start(&crate::config("perm-3x3x3.toml"), &["--hint-time", "200ms"]);
    let (status, here) = server.post("/api/moves", &json!({ "scramble": "R U F' L2 B D'" }));
    assert_eq!(status, 200, "{here}");
    let moves = here["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 18, "the 3x3x3 has 18 moves in htm");
    for m in moves {
        let d = &m["distance"];
        assert!(d["moves"].is_u64(), "{m}");
        if d["at_least"] == true {
            assert!(d["limit"].as_str().unwrap().contains("time limit"), "{m}");
        }
    }
}

#[test]
fn errors_are_the_command_line_s_lines_with_their_status() {
    let flip = crate::config("flip-4x4.toml");
    let server = Server::start(&flip, &[]);
    // A bad board: 400 and the line `solve --board -` prints, but for where the board came from.
    let bad = "bwwb\nbxwb\nbwwb\nbwww\n";
    let (status, answer) = server.post("/api/solve", &json!({ "board": bad }));
    assert_eq!(status, 400);
    let out = crate::statespace()
        .args(["solve", &flip, "--board", "-"])
        .write_stdin(bad)
        .output()
        .unwrap();
    let line = String::from_utf8(out.stderr).unwrap();
    let cli = line
        .trim()
        .strip_prefix("statespace: error: <stdin>")
        .unwrap();
    let api = answer["error"].as_str().unwrap().strip_prefix("request");
    assert_eq!(api, Some(cli), "{answer}");
    for (body, says) in [
        ("{\"board\": ", "expected a JSON object"),
        ("[1, 2]", "expected a JSON object"),
        ("{\"bord\": \"x\"}", "unknown field `bord`"),
        ("{}", "give one of \"board\" and \"scramble\""),
        ("{\"board\": \"x\", \"scramble\": \"R\"}", "give one of"),
        ("{\"board\": \"bwwb\", \"mode\": \"nope\"}", "request: mode"),
        ("\u{0}\u{1}\u{2}", "expected a JSON object"),
    ] {
        let (status, answer) = server.request("POST", "/api/solve", body);
        assert_eq!(status, 400, "{body}: {answer}");
        let error = answer["error"].as_str().unwrap();
        assert!(
            error.contains(says) && !error.contains('\n'),
            "{body}: {error}"
        );
    }
    let (status, answer) = server.get("/api/nothing");
    assert_eq!(
        (status, answer["error"].as_str()),
        (404, Some("no such path: /api/nothing"))
    );
    let (status, _) = server.get("/api/solve");
    assert_eq!(status, 405);
    let big = format!("{{\"board\": \"{}\"}}", "b".repeat(2 << 20));
    let (status, answer) = server.request("POST", "/api/solve", &big);
    assert_eq!(status, 413, "{answer}");
    assert!(
        answer["error"]
            .as_str()
            .unwrap()
            .contains("over 1048576 bytes")
    );
    // The server is still there, and no file a request names is opened.
    let (status, answer) = server.post("/api/solve", &json!({ "board": "/etc/passwd" }));
    assert_eq!(status, 400, "{answer}");
    let (status, page) = server.request("GET", "/", "");
    assert_eq!(status, 200);
    assert!(page.as_str().unwrap().contains("data-rendered") || page.is_string());
}

#[test]
fn a_limit_gives_the_answer_solve_gives() {
    let cube = crate::config("perm-3x3x3.toml");
    let scramble = "R U F' L2 B D' R2 F U2 L' B2 D";
    let server = Server::start(&cube, &["--time-limit", "300ms"]);
    let began = Instant::now();
    let (status, mut answer) = server.post("/api/solve", &json!({ "scramble": scramble }));
    assert!(began.elapsed() < Duration::from_secs(3));
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["outcome"], "limit-reached");
    assert_eq!(answer["limit"], "time limit 300ms reached");
    untimed(&mut answer);
    let mut cli = solve_json(&cube, &["--scramble", scramble, "--time-limit", "300ms"]);
    // The depth reached and the work done depend on the machine's speed: the rest is the same.
    for value in [&mut answer, &mut cli] {
        value.as_object_mut().unwrap().remove("stats");
    }
    assert_eq!(answer, cli);
}

/// Polls `/api/status` until no search runs, or panics after `within`.
fn wait_idle(server: &Server, within: Duration) {
    let began = Instant::now();
    loop {
        let (_, status) = server.get("/api/status");
        if status["running"] == 0 && status["waiting"] == 0 {
            return;
        }
        assert!(began.elapsed() < within, "still running: {status}");
        std::thread::sleep(Duration::from_millis(25));
    }
}

#[test]
fn a_search_stops_when_its_client_goes_away_and_the_queue_waits_its_turn() {
    let cube = crate::config("perm-3x3x3.toml");
    let server = Server::start(&cube, &["--solves", "1", "--time-limit", "60s"]);
    let deep = json!({ "scramble": "R U F' L2 B D' R2 F U2 L' B2 D" }).to_string();
    let request = format!(
        "POST /api/solve HTTP/1.1\r\nHost: t\r\nContent-Length: {}\r\n\r\n{deep}",
        deep.len()
    );
    let mut stream = TcpStream::connect(server.address).unwrap();
    stream.write_all(request.as_bytes()).unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let (_, status) = server.get("/api/status");
    assert_eq!(status["running"], 1, "{status}");
    drop(stream);
    wait_idle(&server, Duration::from_secs(2));

    // One slot, three clients: each is answered in turn.
    let clients: Vec<_> = ["R U", "F2 D", "L B'"]
        .into_iter()
        .map(|scramble| {
            let address = server.address;
            std::thread::spawn(move || solve_scramble(address, scramble))
        })
        .collect();
    for client in clients {
        assert_eq!(client.join().unwrap(), 2);
    }
}

/// A request's bytes: `METHOD path` with `body`, one request a connection.
fn http(method: &str, path: &str, body: &str) -> String {
    format!(
        "{method} {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
}

/// Sends `raw` bytes as they are to `address`, and reads the whole answer: `(status, body)`;
/// status 0 when the server closed the connection without an answer.
fn exchange(address: SocketAddr, raw: &[u8]) -> (u16, String) {
    let mut stream = TcpStream::connect(address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    let _ = stream.write_all(raw);
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    let answer = String::from_utf8_lossy(&answer).into_owned();
    let status = answer
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let body = answer
        .split_once("\r\n\r\n")
        .map_or("", |(_, b)| b)
        .to_string();
    (status, body)
}

/// The moves of the solution to `scramble`, asked of the server at `address`.
fn solve_scramble(address: SocketAddr, scramble: &str) -> u64 {
    let body = json!({ "scramble": scramble }).to_string();
    let (status, text) = exchange(address, http("POST", "/api/solve", &body).as_bytes());
    assert_eq!(status, 200, "{text}");
    let answer: Value = serde_json::from_str(&text).unwrap();
    answer["moves"].as_u64().unwrap()
}

/// 32 clients at once, 800 requests in all, a third of them garbage (bytes that are not HTTP,
/// a body cut short, JSON that is not a position, a board that does not parse): every good
/// request is answered right, and the server is alive after. Bounded: 30 s at most.
#[test]
fn a_load_of_clients_some_sending_garbage_leaves_every_good_request_answered() {
    let flip = crate::config("flip-4x4.toml");
    let server = Server::start(&flip, &["--solves", "2"]);
    let address = server.address;
    let began = Instant::now();
    let clients: Vec<_> = (0..32)
        .map(|client| {
            std::thread::spawn(move || {
                let mut good = 0;
                for i in 0..25 {
                    let body = json!({ "board": "bwwb\nbbwb\nbwwb\nbwww\n" }).to_string();
                    let request = |path: &str, body: &str| http("POST", path, body);
                    match (client + i) % 6 {
                        0 => {
                            let (_, _) = exchange(address, b"\x00\x01garbage\r\n\r\n\xff\xfe");
                        }
                        1 => {
                            // A body cut short, and the client's side closed: the server sees
                            // the request end early (one that stayed open would wait BODY_TIME).
                            let cut = request("/api/solve", &body);
                            let mut stream = TcpStream::connect(address).unwrap();
                            stream.write_all(&cut.as_bytes()[..cut.len() - 10]).unwrap();
                            stream.shutdown(std::net::Shutdown::Write).unwrap();
                            let _ = stream.read_to_end(&mut Vec::new());
                        }
                        2 => {
                            let (status, _) =
                                exchange(address, request("/api/moves", "{\"x\": 1}").as_bytes());
                            assert_eq!(status, 400);
                        }
                        3 => {
                            let (status, text) =
                                exchange(address, request("/api/moves", &body).as_bytes());
                            assert_eq!(status, 200, "{text}");
                            let here: Value = serde_json::from_str(&text).unwrap();
                            assert_eq!(here["distance"]["moves"], 4);
                            good += 1;
                        }
                        _ => {
                            let (status, text) =
                                exchange(address, request("/api/solve", &body).as_bytes());
                            assert_eq!(status, 200, "{text}");
                            let answer: Value = serde_json::from_str(&text).unwrap();
                            assert_eq!(answer["moves"], 4);
                            good += 1;
                        }
                    }
                }
                good
            })
        })
        .collect();
    let good: u32 = clients.into_iter().map(|c| c.join().unwrap()).sum();
    // Kinds 3 to 5 of the six are good requests.
    let expected = (0..32)
        .flat_map(|client| (0..25).map(move |i| (client + i) % 6))
        .filter(|&kind| kind >= 3)
        .count();
    assert_eq!(good as usize, expected);
    let elapsed = began.elapsed();
    assert!(elapsed < Duration::from_secs(30), "{elapsed:?}");
    eprintln!("serve load: {good} good requests among 800, 32 clients, in {elapsed:.2?}");
    let (status, _) = server.get("/api/status");
    assert_eq!(status, 200);
    wait_idle(&server, Duration::from_secs(2));
}

#[test]
fn ctrl_c_stops_the_server_and_its_searches_within_a_second() {
    let cube = crate::config("perm-3x3x3.toml");
    let server = Server::start(&cube, &["--time-limit", "60s"]);
    let address = server.address;
    let deep = std::thread::spawn(move || {
        let body = json!({ "scramble": "R U F' L2 B D' R2 F U2 L' B2 D" }).to_string();
        exchange(address, http("POST", "/api/solve", &body).as_bytes())
    });
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(server.interrupt(Duration::from_millis(1500)), 0);
    // The search was stopped, and its client given what `solve` prints on Ctrl-C: undecided,
    // interrupted (or its connection closed, if the stop came first).
    let (status, body) = deep.join().unwrap();
    if status != 0 {
        assert_eq!(status, 200, "{body}");
        let answer: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(
            (&answer["outcome"], &answer["limit"]),
            (&json!("limit-reached"), &json!("interrupted"))
        );
    }
}

#[test]
fn the_histogram_is_the_table_s_and_is_refused_where_there_is_none() {
    let server = Server::start(&crate::config("tiles-3x3.toml"), &[]);
    let began = Instant::now();
    let histogram = loop {
        let (_, answer) = server.get("/api/histogram");
        if answer["pending"] != true {
            break answer;
        }
        assert!(began.elapsed() < Duration::from_secs(30));
        std::thread::sleep(Duration::from_millis(50));
    };
    let counts = histogram["histogram"].as_array().unwrap();
    assert_eq!(counts.len(), 32, "the 8-puzzle's distances are 0 to 31");
    let total: u64 = counts.iter().map(|c| c.as_u64().unwrap()).sum();
    assert_eq!(total, 181_440);
    let server = Server::start(&crate::config("perm-3x3x3.toml"), &[]);
    let (_, answer) = server.get("/api/histogram");
    assert_eq!(answer["histogram"], Value::Null);
    assert!(
        answer["why"]
            .as_str()
            .unwrap()
            .contains("no distance table")
    );
}
