//! `solve --scrambles FILE`: a batch of scrambles, in twsearch's scramble-file format or one a
//! line, read one at a time.
//!
//! twsearch's `.scr` files hold named blocks:
//!
//! ```text
//! ScrambleAlg TPERM
//!    R U R' U' R' F R2 U' R' U' R U R' F'
//! End
//! ```
//!
//! A `ScrambleAlg NAME` block's moves (any number of lines up to `End`) are one scramble, named.
//! twsearch's position blocks (`Scramble`, `ScrambleState`, `StartState`: a state written in
//! the definition's own numbering, set by set) are handed to the puzzle whole, header to `End`,
//! as a board: the permutation puzzles read them as twsearch does. `CPOS` (twsearch's compact
//! one-line position) is refused with one line naming it: write the position as a block. A
//! file whose first line (blank lines and comments aside) starts no block is read one scramble
//! a line. `#` starts a comment that runs to the end of its line, as in a `.tws` file (and in a
//! scramble's moves: the puzzle reads them so).
//!
//! The file is read line by line ([`Lines`]) and handed out scramble by scramble, as `--boards`
//! reads boards, so memory holds one scramble however long the file is, and the answers start
//! before the file is read to its end. A scramble that cannot be one is an error naming its
//! line, and the others are read as usual: bytes that are not UTF-8, more text than
//! [`item_cap`](super::lines::item_cap) (the rest is read and dropped, never held), a position
//! block, a block the file ends inside, a line outside any block in a file of blocks (one error
//! for the lines up to the next block), or a block in a file of one scramble a line.

use super::lines::{Lines, not_utf8, too_long};
use statespace::board_text::BoardText;
use statespace::error::{Error, Location, QUOTED_CHARS, quoted};
use std::io::BufRead;

/// One scramble of the file: its name (a block's), and its moves as a scramble text, or why
/// it is no scramble.
pub struct Scramble {
    /// The block's name (`TPERM`), or `line N` for a file of one scramble a line.
    pub name: String,
    /// The moves, read as a scramble by the puzzle; or the error.
    pub text: Result<BoardText, Error>,
}

/// The keywords of twsearch's position blocks (handed to the puzzle as boards, `CPOS` refused:
/// module docs).
const POSITION_BLOCKS: [&str; 4] = ["Scramble", "ScrambleState", "StartState", "CPOS"];

/// Bytes of a line past a full block that are held, to see whether it is the block's `End`.
const END_PEEK: usize = 64;

/// How the file is laid out: decided by its first line that is neither blank nor a comment.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Layout {
    Blocks,
    /// One scramble a line; the number of the first.
    Lines(usize),
}

/// The scrambles of a stream, read on demand; see the module docs.
pub struct Scrambles<R> {
    lines: Lines<R>,
    /// The most bytes of text one scramble (a line, or a block with its name) may hold.
    cap: usize,
    layout: Option<Layout>,
    /// Lines outside any block are being skipped (the first was reported).
    skipping: bool,
}

impl<R: BufRead> Scrambles<R> {
    /// The scrambles of `reader`, the file `name`, each at most `cap` bytes of text.
    pub fn new(reader: R, name: &str, cap: usize) -> Self {
        Scrambles {
            lines: Lines::new(reader, name),
            cap,
            layout: None,
            skipping: false,
        }
    }

    /// The next scramble, `None` at the end of the input; an error when it cannot be read.
    pub fn next_scramble(&mut self) -> Result<Option<Scramble>, Error> {
        let mut buf = Vec::new();
        loop {
            buf.clear();
            let Some(line) = self.lines.read_into(&mut buf, self.cap)? else {
                return Ok(None);
            };
            let n = line.number;
            let unreadable = match (line.whole, not_utf8(&buf)) {
                (false, _) => Some(too_long(self.cap, "a scramble")),
                (true, Some((_, message))) => Some(message),
                (true, None) => None,
            };
            let (from, to) = match unreadable {
                Some(_) if self.skipping => continue,
                Some(message) => {
                    // In a file of blocks, the lines after it up to a block are its block's.
                    self.skipping = self.layout == Some(Layout::Blocks);
                    return Ok(Some(self.refused(n, message)));
                }
                None => {
                    let text = std::str::from_utf8(&buf).expect("checked to be UTF-8");
                    content_span(text)
                }
            };
            let content = std::str::from_utf8(&buf[from..to]).expect("checked to be UTF-8");
            if content.is_empty() {
                continue;
            }
            let mut words = content.split_whitespace();
            let keyword = words.next().expect("not blank");
            let block = keyword == "ScrambleAlg" || POSITION_BLOCKS.contains(&keyword);
            let layout = *self.layout.get_or_insert(match block {
                true => Layout::Blocks,
                false => Layout::Lines(n),
            });
            match (layout, block) {
                (Layout::Lines(_), false) => {
                    // The line's own bytes become the text: a long scramble is held once.
                    let mut content = String::from_utf8(buf).expect("checked to be UTF-8");
                    content.truncate(to);
                    content.drain(..from);
                    let mut text = BoardText::from_file(self.lines.name(), content);
                    text.first_line = n;
                    text.scramble = true;
                    return Ok(Some(Scramble {
                        name: format!("line {n}"),
                        text: Ok(text),
                    }));
                }
                (Layout::Lines(first), true) => {
                    let message = format!(
                        "{keyword} starts a block, in a file of one scramble a line (line \
                         {first}): write every scramble as a block, or none"
                    );
                    return Ok(Some(self.refused(n, message)));
                }
                (Layout::Blocks, false) if self.skipping => continue,
                (Layout::Blocks, false) => {
                    self.skipping = true;
                    let message = format!(
                        "expected ScrambleAlg NAME (or a position block), found {} (the lines \
                         up to the next block are skipped)",
                        quoted(content)
                    );
                    return Ok(Some(self.refused(n, message)));
                }
                (Layout::Blocks, true) => {
                    self.skipping = false;
                    let keyword = keyword.to_string();
                    let name = words.collect::<Vec<_>>().join(" ");
                    return self.block(n, keyword, name).map(Some);
                }
            }
        }
    }

    /// The block that line `n` starts (`keyword name`), read up to its `End` (a `CPOS` block is
    /// its one line).
    fn block(&mut self, n: usize, keyword: String, name: String) -> Result<Scramble, Error> {
        let title = match name.chars().count() > QUOTED_CHARS {
            true => format!("{keyword} {}", quoted(&name)),
            false => format!("{keyword} {name}"),
        };
        let file = self.lines.name().to_string();
        let at = |line: usize| Location::file(&file).at_line(line);
        let refused = |line: usize, message: String| Scramble {
            name: name.clone(),
            text: Err(Error::input(at(line), message)),
        };
        if keyword == "CPOS" {
            return Ok(refused(n, position_block(&title)));
        }
        // The body, line for line from line n + 1 (blank lines and comments kept, so that the
        // puzzle's errors name the file's lines), within the cap with the name.
        let room = self.cap.saturating_sub(name.len());
        let mut body: Vec<u8> = Vec::new();
        let mut over = false;
        let mut bad: Option<(usize, String)> = None;
        let mut first = true;
        loop {
            let start = body.len();
            if !first {
                body.push(b'\n');
            }
            first = false;
            let at_line = body.len();
            // A full body still holds a few bytes of each line: enough to see its `End`.
            let Some(line) = self
                .lines
                .read_into(&mut body, room.max(at_line) + END_PEEK)?
            else {
                let message = format!("{title}: the file ends before its End");
                return Ok(refused(n, message));
            };
            let held = &body[at_line..];
            if line.whole && is_end(held) {
                body.truncate(start);
                break;
            }
            if bad.is_none()
                && line.whole
                && let Some((_, message)) = not_utf8(held)
            {
                bad = Some((line.number, message));
            }
            over |= !line.whole || body.len() > room;
            if over {
                body.clear();
            }
        }
        if over {
            return Ok(refused(n, too_long(self.cap, "a scramble")));
        }
        if let Some((line, message)) = bad {
            return Ok(refused(line, message));
        }
        let body = String::from_utf8(body).expect("every line checked to be UTF-8");
        if keyword != "ScrambleAlg" {
            // A position: the block as the puzzle's board text, header and End included (a
            // permutation puzzle reads twsearch's blocks; another puzzle says it is no board).
            let mut text = BoardText::from_file(&file, format!("{keyword} {name}\n{body}\nEnd"));
            text.first_line = n;
            return Ok(Scramble {
                name,
                text: Ok(text),
            });
        }
        let mut text = BoardText::from_file(&file, body);
        text.first_line = n + 1;
        text.scramble = true;
        Ok(Scramble {
            name,
            text: Ok(text),
        })
    }

    /// An error for line `n`, named as the line it is.
    fn refused(&self, n: usize, message: String) -> Scramble {
        Scramble {
            name: format!("line {n}"),
            text: Err(Error::input(
                Location::file(self.lines.name()).at_line(n),
                message,
            )),
        }
    }
}

/// Where the content of `line` stands in it: its text before any comment (`#`), without the
/// whitespace around it.
fn content_span(line: &str) -> (usize, usize) {
    let code = line.split('#').next().unwrap_or("");
    let to = code.trim_end().len();
    (to - code[..to].trim_start().len(), to)
}

/// Whether a block's line is its `End` (a comment after it allowed).
fn is_end(line: &[u8]) -> bool {
    let code = line.split(|&b| b == b'#').next().unwrap_or(b"");
    code.trim_ascii() == b"End"
}

/// Why the position block `title` (`Scramble P`) is refused.
fn position_block(title: &str) -> String {
    format!(
        "{title}: compact positions are not read (write the position as a Scramble block, or \
         its moves as a ScrambleAlg block)"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every scramble of `text` read with `cap`, through a reader that hands out `chunk` bytes
    /// at a time: `(name, moves, first line)` or the error.
    fn read(text: &[u8], cap: usize, chunk: usize) -> Vec<Result<(String, String, usize), String>> {
        let reader = std::io::BufReader::with_capacity(chunk, text);
        let mut scrambles = Scrambles::new(reader, "s.scr", cap);
        let mut out = Vec::new();
        while let Some(s) = scrambles.next_scramble().unwrap() {
            out.push(match s.text {
                Ok(t) => {
                    assert!(t.scramble);
                    Ok((s.name, t.text, t.first_line))
                }
                Err(e) => Err(e.to_string()),
            });
        }
        out
    }

    fn ok(name: &str, moves: &str, line: usize) -> Result<(String, String, usize), String> {
        Ok((name.into(), moves.into(), line))
    }

    #[test]
    fn scramble_files_read_blocks_or_lines() {
        let blocks = "# two\nScrambleAlg A # the first\n R U\n\n F' # a comment\nEnd # done\n\n\
                      ScrambleAlg B C\nR2\nEnd\n";
        for chunk in [1, 3, 8192] {
            assert_eq!(
                read(blocks.as_bytes(), 100, chunk),
                [ok("A", " R U\n\n F' # a comment", 3), ok("B C", "R2", 9)]
            );
            assert_eq!(
                read(b"R U # two moves\n\n  # skip\nF2\r\n", 100, chunk),
                [ok("line 1", "R U", 1), ok("line 4", "F2", 4)]
            );
        }
    }

    #[test]
    fn a_line_that_is_not_utf8_or_too_long_is_one_error_and_the_others_are_read() {
        let lines = b"R U\nF \xff\n\nL\nD D D D D D D D\nB\n";
        assert_eq!(
            read(lines, 10, 8192),
            [
                ok("line 1", "R U", 1),
                Err("s.scr:2: not UTF-8 text: byte 0xff at column 3".into()),
                ok("line 4", "L", 4),
                Err(
                    "s.scr:5: more than 10 B of text, the most a scramble may take under this \
                     memory budget (a quarter of it; raise it with --memory)"
                        .into()
                ),
                ok("line 6", "B", 6),
            ]
        );
        // In a block: the block is the error, named by its bad line; the next block is read.
        let blocks = b"ScrambleAlg A\nR\nF \xff\nEnd\nScrambleAlg B\nU\nEnd\n";
        for chunk in [1, 7, 8192] {
            assert_eq!(
                read(blocks, 100, chunk),
                [
                    Err("s.scr:3: not UTF-8 text: byte 0xff at column 3".into()),
                    ok("B", "U", 6)
                ]
            );
        }
        // Past the cap: the block is the error, its lines read to its End and dropped.
        let long = format!("ScrambleAlg L\n{}\nEnd\n", "R U ".repeat(1000));
        let blocks = format!("{long}ScrambleAlg B\nU\nEnd\n");
        let read_back = read(blocks.as_bytes(), 100, 7);
        assert!(
            read_back[0]
                .as_ref()
                .is_err_and(|e| e.starts_with("s.scr:1: more than 100 B of text")),
            "{read_back:?}"
        );
        assert_eq!(read_back[1], ok("B", "U", 5));
    }

    proptest::proptest! {
        /// Any bytes, in pieces that make files of both layouts, bad bytes and long lines: the
        /// reader never panics and reads the same however the stream is cut.
        #[test]
        fn any_file_reads_the_same_however_the_stream_is_cut(
            pieces in proptest::collection::vec(0usize..10, 0..40),
            chunk in 1usize..16,
        ) {
            const PIECES: [&[u8]; 10] = [
                b"R U", b" ", b"\n", b"# c", b"End", b"ScrambleAlg A", b"\xff", b"\r\n",
                b"CPOS", b"R U R U R U",
            ];
            let text: Vec<u8> = pieces.iter().flat_map(|&i| PIECES[i].to_vec()).collect();
            proptest::prop_assert_eq!(read(&text, 12, chunk), read(&text, 12, 8192));
        }
    }

    #[test]
    fn scramble_files_refuse_what_they_cannot_read_with_its_line() {
        assert_eq!(
            read(b"ScrambleAlg A\nR U\n", 100, 8192),
            [Err(
                "s.scr:1: ScrambleAlg A: the file ends before its End".into()
            )]
        );
        // Stray lines: one error for the run of them, up to the next block.
        assert_eq!(
            read(
                b"ScrambleAlg A\nR\nEnd\nR U\nF\nEnd\nScrambleAlg B\nU\nEnd\n",
                100,
                8192
            ),
            [
                ok("A", "R", 2),
                Err(
                    "s.scr:4: expected ScrambleAlg NAME (or a position block), found \"R U\" \
                     (the lines up to the next block are skipped)"
                        .into()
                ),
                ok("B", "U", 8),
            ]
        );
        assert_eq!(
            read(b"R U\nScrambleAlg A\nF\n", 100, 8192),
            [
                ok("line 1", "R U", 1),
                Err(
                    "s.scr:2: ScrambleAlg starts a block, in a file of one scramble a line \
                     (line 1): write every scramble as a block, or none"
                        .into()
                ),
                ok("line 3", "F", 3),
            ]
        );
        assert_eq!(read(b"\n# nothing\n", 100, 8192), []);
        // A position block is handed on whole, a board from its header's line; a compact
        // position is one refused item: the others still run.
        let reader = std::io::BufReader::new(
            &b"Scramble P\nCORNER # c\n1 2\nEnd\nCPOS Q\nScrambleAlg Q\nR\nEnd\n"[..],
        );
        let mut scrambles = Scrambles::new(reader, "s.scr", 100);
        let position = scrambles.next_scramble().unwrap().unwrap();
        let text = position.text.unwrap();
        assert_eq!(position.name, "P");
        assert_eq!(
            (text.text.as_str(), text.first_line),
            ("Scramble P\nCORNER # c\n1 2\nEnd", 1)
        );
        assert!(!text.scramble);
        let compact = scrambles.next_scramble().unwrap().unwrap();
        let refused = compact.text.unwrap_err().to_string();
        assert!(
            refused.starts_with("s.scr:5: CPOS Q: compact positions are not read"),
            "{refused}"
        );
        let alg = scrambles.next_scramble().unwrap().unwrap();
        assert_eq!((alg.name.as_str(), alg.text.unwrap().first_line), ("Q", 7));
        // A long name or line is quoted by its start.
        let name = "N".repeat(1000);
        let e = read(format!("ScrambleAlg {name}\nR\n").as_bytes(), 4096, 8192);
        assert_eq!(
            e,
            [Err(format!(
                "s.scr:1: ScrambleAlg \"{}…\" (1000 bytes): the file ends before its End",
                &name[..QUOTED_CHARS]
            ))]
        );
    }
}
