//! The lines of an untrusted stream, each held up to a cap: what `--boards` ([`boards`]) and
//! `--scrambles` ([`scrambles`]) read their items from.
//!
//! The stream is read as bytes, a line at a time, into the caller's buffer while that holds
//! fewer bytes than the caller's cap; the rest of a longer line is read and dropped, never held,
//! so a 200 MB line costs no more memory than the cap. Bytes are checked as UTF-8 by the
//! caller, per item, so one bad byte costs one item ([`not_utf8`] says where it is), never the
//! stream. The cap that callers use is [`item_cap`]: a share of the memory budget.
//!
//! Lines end at `\n` or `\r\n`, as `str::lines` has them, and a byte-order mark at the start of
//! the stream is dropped, as [`read_input`](super::stdio::read_input) drops it.
//!
//! [`boards`]: super::boards
//! [`scrambles`]: super::scrambles

use statespace::error::Error;
use statespace::limit::human_bytes;
use std::io::{self, BufRead};

/// The most text one item (a board, a scramble) may take, whatever the memory budget: twice the
/// largest board any puzzle takes (Flip 4096 x 4096, 16 MiB of `b`/`w` and newlines), room for
/// padding.
pub const MAX_ITEM_BYTES: u64 = 32 << 20;

/// The most text one item may take under `memory_budget`: [`MAX_ITEM_BYTES`], and a quarter
/// of the budget (the text is held while the item is parsed and solved).
pub fn item_cap(memory_budget: u64) -> usize {
    MAX_ITEM_BYTES.min(memory_budget / 4) as usize
}

/// Why an item of more than `cap` bytes of text is refused: `what` is the item (`a board`).
pub fn too_long(cap: usize, what: &str) -> String {
    let over = format!("more than {} of text", human_bytes(cap as u128));
    match cap as u64 == MAX_ITEM_BYTES {
        true => format!("{over}, the most {what} may take"),
        false => format!(
            "{over}, the most {what} may take under this memory budget (a quarter of it; raise \
             it with --memory)"
        ),
    }
}

/// A line read by [`Lines::read_into`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Line {
    /// Its 1-based number in the stream.
    pub number: usize,
    /// Whether it is held whole: `false` when the cap cut it.
    pub whole: bool,
}

/// The lines of a stream, read on demand; see the module docs.
pub struct Lines<R> {
    reader: R,
    /// The file name, or `<stdin>`.
    name: String,
    /// Lines read so far.
    number: usize,
}

impl<R: BufRead> Lines<R> {
    /// The lines of `reader`, the file `name`.
    pub fn new(reader: R, name: &str) -> Self {
        Lines {
            reader,
            name: name.to_string(),
            number: 0,
        }
    }

    /// The file name, or `<stdin>`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Appends the next line, without its line end (and, on the first line, without a
    /// byte-order mark), to `buf` while `buf` holds fewer than `cap` bytes; the rest of a
    /// longer line is read and dropped. `None` at the end of the stream; an error when it
    /// cannot be read.
    pub fn read_into(&mut self, buf: &mut Vec<u8>, cap: usize) -> Result<Option<Line>, Error> {
        let at = buf.len();
        let read = read_line(&mut self.reader, buf, cap).map_err(|source| Error::Io {
            path: self.name.clone(),
            source,
        })?;
        let Some((mut len, newline)) = read else {
            return Ok(None);
        };
        self.number += 1;
        if self.number == 1 && buf[at..].starts_with(BOM) {
            buf.drain(at..at + BOM.len());
            len -= BOM.len();
        }
        let whole = buf.len() - at == len;
        if whole && newline && buf.ends_with(b"\r") {
            buf.pop();
        }
        Ok(Some(Line {
            number: self.number,
            whole,
        }))
    }
}

/// The UTF-8 byte-order mark some editors start a file with; it is not part of a line.
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
pub fn is_blank(line: &[u8]) -> bool {
    let space = |b: &u8| matches!(b, b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r' | b' ');
    match line.iter().position(|b| !space(b)) {
        None => true,
        Some(i) if line[i].is_ascii() => false,
        Some(_) => std::str::from_utf8(line).is_ok_and(|s| s.trim().is_empty()),
    }
}

/// Where the first byte of `bytes` that is not UTF-8 stands, and what it is: the number of
/// lines (`\n`) before it, and `not UTF-8 text: byte 0xff at column 5`. `None` for UTF-8 text.
pub fn not_utf8(bytes: &[u8]) -> Option<(usize, String)> {
    let bad = std::str::from_utf8(bytes).err()?.valid_up_to();
    let line_start = bytes[..bad].iter().rposition(|&b| b == b'\n');
    let lines_before = bytes[..bad].iter().filter(|&&b| b == b'\n').count();
    let prefix = &bytes[line_start.map_or(0, |i| i + 1)..bad];
    let column = std::str::from_utf8(prefix).map_or(0, |p| p.chars().count()) + 1;
    let message = format!(
        "not UTF-8 text: byte 0x{:02x} at column {column}",
        bytes[bad]
    );
    Some((lines_before, message))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every line of `input` through a reader that hands out `chunk` bytes at a time, each
    /// held up to `cap`: `(number, whole, text held)`.
    fn lines(input: &[u8], cap: usize, chunk: usize) -> Vec<(usize, bool, String)> {
        let mut lines = Lines::new(io::BufReader::with_capacity(chunk, input), "l.txt");
        let mut out = Vec::new();
        let mut buf = Vec::new();
        while let Some(line) = lines.read_into(&mut buf, cap).unwrap() {
            out.push((
                line.number,
                line.whole,
                String::from_utf8(buf.clone()).unwrap(),
            ));
            buf.clear();
        }
        out
    }

    #[test]
    fn lines_end_as_str_lines_has_them_without_a_byte_order_mark() {
        let input = "\u{feff}ab\r\ncd\n\nef\r\r\ngh\r";
        for chunk in [1, 2, 3, 8192] {
            assert_eq!(
                lines(input.as_bytes(), 100, chunk),
                [
                    (1, true, "ab".into()),
                    (2, true, "cd".into()),
                    (3, true, "".into()),
                    (4, true, "ef\r".into()),
                    (5, true, "gh\r".into()),
                ],
                "{chunk}"
            );
        }
        assert_eq!(lines(b"", 100, 8), []);
        assert_eq!(lines(b"\n", 100, 8), [(1, true, "".into())]);
    }

    #[test]
    fn the_cap_bounds_what_is_held_however_long_the_line() {
        let long_line = format!("{}\nab\n", "x".repeat(100_000));
        assert_eq!(
            lines(long_line.as_bytes(), 10, 7),
            [(1, false, "x".repeat(10)), (2, true, "ab".into())]
        );
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
    fn bytes_that_are_not_utf8_are_placed_by_line_and_column() {
        assert_eq!(not_utf8("ab\ncé".as_bytes()), None);
        assert_eq!(
            not_utf8(b"ab\nc\xc3\xa9\xff"),
            Some((1, "not UTF-8 text: byte 0xff at column 3".into()))
        );
        assert_eq!(
            not_utf8(b"\xe9"),
            Some((0, "not UTF-8 text: byte 0xe9 at column 1".into()))
        );
    }

    #[test]
    fn the_cap_is_a_quarter_of_the_budget_and_at_most_the_fixed_cap() {
        assert_eq!(item_cap(16 << 20), 4 << 20);
        assert_eq!(item_cap(u64::MAX), MAX_ITEM_BYTES as usize);
        assert_eq!(
            too_long(item_cap(u64::MAX), "a board"),
            "more than 32.0 MiB of text, the most a board may take"
        );
    }
}
