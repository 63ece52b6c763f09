//! The boards of a `solve --boards` input, read one at a time.
//!
//! Boards are blocks of non-blank lines, separated by blank ones. The input is read line by
//! line ([`Lines`]) and handed out board by board, so memory holds one board however long the
//! input is. A board that cannot be one is an error naming its index and line, and the boards
//! around it are read as usual:
//! - bytes that are not UTF-8 (the line and column of the first);
//! - text past [`item_cap`](super::lines::item_cap): at most
//!   [`MAX_ITEM_BYTES`](super::lines::MAX_ITEM_BYTES) (twice the largest board of any puzzle)
//!   and a quarter of the memory budget. The rest of such a board is read and dropped, never
//!   held, so a 200 MB line costs no more memory than a board may take.

use super::lines::{Lines, is_blank, not_utf8, too_long};
use statespace::board_text::BoardText;
use statespace::error::{Error, Location};
use std::io::BufRead;

/// One board of the input: its text, or the error that makes it no board (reported, and the
/// batch goes on).
pub type Board = Result<BoardText, Error>;

/// The boards of a stream, read on demand; see the module docs.
pub struct Boards<R> {
    lines: Lines<R>,
    /// The most bytes of text one board may hold.
    cap: usize,
    /// Boards started so far.
    count: usize,
}

impl<R: BufRead> Boards<R> {
    /// The boards of `reader`, the file `name`, each at most `cap` bytes of text.
    pub fn new(reader: R, name: &str, cap: usize) -> Self {
        Boards {
            lines: Lines::new(reader, name),
            cap,
            count: 0,
        }
    }

    /// The next board, `None` at the end of the input; an error when the input cannot be read.
    pub fn next_board(&mut self) -> Result<Option<Board>, Error> {
        let mut text: Vec<u8> = Vec::new();
        // The line the board starts on, once it has started.
        let mut first_line = None;
        let mut too_long_seen = false;
        loop {
            let start = text.len();
            if start > 0 {
                text.push(b'\n');
            }
            let Some(line) = self.lines.read_into(&mut text, self.cap)? else {
                text.truncate(start);
                break;
            };
            // Where this line's bytes start in `text`.
            let at = start + (start > 0) as usize;
            if line.whole && is_blank(&text[at..]) {
                text.truncate(start);
                match first_line {
                    Some(_) => break,
                    None => continue,
                }
            }
            if first_line.is_none() {
                first_line = Some(line.number);
                self.count += 1;
            }
            // Past the cap, the rest of the board is read only to find where it ends.
            too_long_seen |= !line.whole;
            if too_long_seen {
                text.clear();
            }
        }
        let Some(first_line) = first_line else {
            return Ok(None);
        };
        let key = format!("board {}", self.count);
        let name = self.lines.name();
        let at = |line: usize| Location::file(name).at_line(line).with_key(&key);
        if too_long_seen {
            let message = too_long(self.cap, "a board");
            return Ok(Some(Err(Error::input(at(first_line), message))));
        }
        if let Some((lines_before, message)) = not_utf8(&text) {
            return Ok(Some(Err(Error::input(
                at(first_line + lines_before),
                message,
            ))));
        }
        let text = String::from_utf8(text).expect("checked to be UTF-8");
        let mut board = BoardText::from_file(name, text);
        board.first_line = first_line;
        board.key = Some(key.clone());
        Ok(Some(Ok(board)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every board of `input`, read through a reader that hands out `chunk` bytes at a time:
    /// `(first line, text)` for a board, `error` for a bad one.
    fn boards(input: &[u8], cap: usize, chunk: usize) -> Vec<Result<(usize, String), String>> {
        let reader = std::io::BufReader::with_capacity(chunk, input);
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
    }
}
