//! The boards of a `solve --boards` input, read one at a time.
//!
//! Boards are blocks of non-blank lines, separated by blank ones. The input is read as bytes,
//! line by line, and handed out board by board, so memory holds one board however long the
//! input is. A board that cannot be one is an error naming its index and line, and the boards
//! around it are read as usual:
//! - bytes that are not UTF-8 (the line and column of the first);
//! - text past [`board_cap`]: at most [`MAX_BOARD_BYTES`] (twice the largest board of any
//!   puzzle) and a quarter of the memory budget. The rest of such a board is read and dropped,
//!   never held, so a 200 MB line costs no more memory than a board may take.
//!
//! Lines end at `\n` or `\r\n`, as `str::lines` has them, and a byte-order mark at the start of
//! the input is dropped, as [`read_input`](super::read_input) drops it.

use statespace::board_text::BoardText;
use statespace::error::{Error, Location};
use statespace::limit::human_bytes;
use std::io::{self, BufRead};

/// The most text one board may take, whatever the memory budget: twice the largest board any
/// puzzle takes (Flip 4096 x 4096, 16 MiB of `b`/`w` and newlines), room for padding.
pub const MAX_BOARD_BYTES: u64 = 32 << 20;

/// The most text one board may take under `memory_budget`: [`MAX_BOARD_BYTES`], and a quarter
/// of the budget (the text is held while the board is parsed and solved).
pub fn board_cap(memory_budget: u64) -> usize {
    MAX_BOARD_BYTES.min(memory_budget / 4) as usize
}

/// One board of the input: its text, or the error that makes it no board (reported, and the
/// batch goes on).
pub type Board = Result<BoardText, Error>;

/// The boards of a stream, read on demand; see the module docs.
pub struct Boards<R> {
    reader: R,
    /// The file name, or `<stdin>`.
    name: String,
    /// The most bytes of text one board may hold.
    cap: usize,
    /// Lines read so far.
    line: usize,
    /// Boards started so far.
    count: usize,
}

impl<R: BufRead> Boards<R> {
    /// The boards of `reader`, the file `name`, each at most `cap` bytes of text.
    pub fn new(reader: R, name: &str, cap: usize) -> Self {
        Boards {
            reader,
            name: name.to_string(),
            cap,
            line: 0,
            count: 0,
        }
    }

    /// The next board, `None` at the end of the input; an error when the input cannot be read.
    pub fn next_board(&mut self) -> Result<Option<Board>, Error> {
        let mut text: Vec<u8> = Vec::new();
        // The line the board starts on, once it has started.
        let mut first_line = None;
        let mut too_long = false;
        loop {
            let start = text.len();
            if start > 0 {
                text.push(b'\n');
            }
            let read =
                read_line(&mut self.reader, &mut text, self.cap).map_err(|source| Error::Io {
                    path: self.name.clone(),
                    source,
                })?;
            let Some((mut len, newline)) = read else {
                text.truncate(start);
                break;
            };
            self.line += 1;
            // Where this line's bytes start in `text`.
            let at = start + (start > 0) as usize;
            if self.line == 1 && text.starts_with(BOM) {
                text.drain(..BOM.len());
                len -= BOM.len();
            }
            let whole = text.len() - at == len;
            if whole && newline && text.ends_with(b"\r") {
                text.pop();
            }
            if whole && is_blank(&text[at..]) {
                text.truncate(start);
                match first_line {
                    Some(_) => break,
                    None => continue,
                }
            }
            if first_line.is_none() {
                first_line = Some(self.line);
                self.count += 1;
            }
            // Past the cap, the rest of the board is read only to find where it ends.
            too_long |= !whole;
            if too_long {
                text.clear();
            }
        }
        let Some(first_line) = first_line else {
            return Ok(None);
        };
        let key = format!("board {}", self.count);
        let at = |line: usize| Location::file(&self.name).at_line(line).with_key(&key);
        if too_long {
            let over = format!("more than {} of text", human_bytes(self.cap as u128));
            let message = match self.cap as u64 == MAX_BOARD_BYTES {
                true => format!("{over}, the most a board may take"),
                false => format!(
                    "{over}, the most a board may take under this memory budget (a quarter of \
                     it; raise it with --memory)"
                ),
            };
            return Ok(Some(Err(Error::input(at(first_line), message))));
        }
        Ok(Some(match String::from_utf8(text) {
            Ok(text) => {
                let mut board = BoardText::from_file(&self.name, text);
                board.first_line = first_line;
                board.key = Some(key.clone());
                Ok(board)
            }
            Err(e) => {
                let bytes = e.as_bytes();
                let bad = e.utf8_error().valid_up_to();
                let line_start = bytes[..bad].iter().rposition(|&b| b == b'\n');
                let lines_before = bytes[..bad].iter().filter(|&&b| b == b'\n').count();
                let prefix = &bytes[line_start.map_or(0, |i| i + 1)..bad];
                let column = std::str::from_utf8(prefix).map_or(0, |p| p.chars().count()) + 1;
                let message = format!(
                    "not UTF-8 text: byte 0x{:02x} at column {column}",
                    bytes[bad]
                );
                Err(Error::input(at(first_line + lines_before), message))
            }
        }))
    }
}

/// The UTF-8 byte-order mark some editors start a file with; it is not part of a row.
const BOM: &[u8] = "\u{feff}".as_bytes();

/// Appends the next line of `reader`, without its `\n`, to `buf` while `buf` holds fewer than
/// `cap` bytes; the rest of a longer line is read and dropped. Returns the line's whole length
/// and whether a `\n` ended it, or `None` at the end of the input.
fn read_line(
    reader: &mut impl BufRead,
    buf: &mut Vec<u8>,
    cap: usize,
) -> io::Result<Option<(usize, bool)>> {
    let (mut len, mut any) = (0, false);
    loop {
        let chunk = match reader.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok(any.then_some((len, false)));
        }
        any = true;
        let newline = chunk.iter().position(|&b| b == b'\n');
        let part = &chunk[..newline.unwrap_or(chunk.len())];
        let room = cap.saturating_sub(buf.len());
        buf.extend_from_slice(&part[..part.len().min(room)]);
        len += part.len();
        let used = part.len() + newline.is_some() as usize;
        reader.consume(used);
        if newline.is_some() {
            return Ok(Some((len, true)));
        }
    }
}

/// Whether `line` is blank as `str::trim` sees it: only whitespace, Unicode's included.
fn is_blank(line: &[u8]) -> bool {
    let space = |b: &u8| matches!(b, b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r' | b' ');
    match line.iter().position(|b| !space(b)) {
        None => true,
        Some(i) if line[i].is_ascii() => false,
        Some(_) => std::str::from_utf8(line).is_ok_and(|s| s.trim().is_empty()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every board of `input`, read through a reader that hands out `chunk` bytes at a time:
    /// `(first line, text)` for a board, `error` for a bad one.
    fn boards(input: &[u8], cap: usize, chunk: usize) -> Vec<Result<(usize, String), String>> {
        let reader = io::BufReader::with_capacity(chunk, input);
        let mut boards = Boards::new(reader, "b.txt", cap);
        let mut out = Vec::new();
        while let Some(board) = boards.next_board().unwrap() {
            out.push(
                board
                    .map(|b| (b.first_line, b.text))
                    .map_err(|e| e.to_string()),
            );
        }
        assert_eq!(boards.count, out.len());
        out
    }

    #[test]
    fn boards_are_blocks_of_lines_as_str_lines_has_them() {
        let input = "\u{feff}ab\r\ncd\n \t\n\n\u{3000}\nef\r\n\x0b\ngh\nij\r";
        for chunk in [1, 2, 3, 8192] {
            assert_eq!(
                boards(input.as_bytes(), 100, chunk),
                [
                    Ok((1, "ab\ncd".into())),
                    Ok((6, "ef".into())),
                    Ok((8, "gh\nij\r".into()))
                ],
                "{chunk}"
            );
        }
        assert_eq!(boards(b"", 100, 8), []);
        assert_eq!(boards(b"\n \n\r\n", 100, 8), []);
    }

    #[test]
    fn a_board_that_is_not_utf8_is_one_error_and_the_others_are_read() {
        let input = b"ab\n\ncd\ne\xe9\xff\n\n\xffgh\n\nij\n";
        for chunk in [1, 4, 8192] {
            assert_eq!(
                boards(input, 100, chunk),
                [
                    Ok((1, "ab".into())),
                    Err("b.txt:4: board 2: not UTF-8 text: byte 0xe9 at column 2".into()),
                    Err("b.txt:6: board 3: not UTF-8 text: byte 0xff at column 1".into()),
                    Ok((8, "ij".into())),
                ]
            );
        }
    }

    #[test]
    fn a_board_past_the_cap_is_one_error_and_is_never_held() {
        // A 10-byte cap: a board of exactly 10 bytes is whole; one byte more, a long line, or a
        // long board of short lines is refused, and the boards after it are read.
        let long_line = format!("{}\n", "x".repeat(100_000));
        let input = format!(
            "abcd\nefgh\n\nabcd\nefghij\n\n{long_line}ab\n  \nab\n{}\nzz\n",
            "cd\n".repeat(50)
        );
        let over = "more than 10 B of text, the most a board may take under this memory budget";
        for chunk in [1, 7, 8192] {
            let read = boards(input.as_bytes(), 10, chunk);
            let summary: Vec<_> = read
                .iter()
                .map(|b| b.as_ref().map_err(|e| e.split_once(" (").unwrap().0))
                .collect();
            assert_eq!(
                summary,
                [
                    Ok(&(1, "abcd\nefgh".to_string())),
                    Err(format!("b.txt:4: board 2: {over}").as_str()),
                    Err(format!("b.txt:7: board 3: {over}").as_str()),
                    Err(format!("b.txt:10: board 4: {over}").as_str()),
                    Ok(&(62, "zz".to_string())),
                ]
            );
        }
        // The cap bounds what is held, however long the line.
        let mut reader = io::BufReader::with_capacity(64, long_line.as_bytes());
        let mut buf = Vec::new();
        assert_eq!(
            read_line(&mut reader, &mut buf, 10).unwrap(),
            Some((100_000, true))
        );
        assert_eq!(buf.len(), 10);
        assert!(buf.capacity() < 1000, "{}", buf.capacity());
    }

    #[test]
    fn the_cap_is_a_quarter_of_the_budget_and_at_most_the_fixed_cap() {
        assert_eq!(board_cap(16 << 20), 4 << 20);
        assert_eq!(board_cap(u64::MAX), MAX_BOARD_BYTES as usize);
    }
}
