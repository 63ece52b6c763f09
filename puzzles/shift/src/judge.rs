//! `statespace judge hdu3278`: the HDU 3278 judge's exact stdin and stdout.
//!
//! T, then T cases of 4 rows of 6 letters B/W/G as whitespace-separated tokens (a case's rows on
//! one line or one a line); prints `Case i: N`, the fewest moves that make the 8 interior cells
//! one colour. Nothing but the answers is printed; a malformed stream is one error naming its
//! line, and nothing else.
//!
//! A stream of many cases is cut into chunks of whole cases answered on rayon's threads and
//! printed in order; the output is the same as one thread's, byte for byte, and so is the error
//! on bad input.

use crate::board::{Board, Geometry, Palette};
use crate::solver::RegionSolver;
use statespace::cache::TableCache;
use statespace::error::{Error, Location};
use statespace::limit::Limits;
use statespace::registry::Judge;

/// The judge, for the plugin's [`judges`](statespace::registry::Plugin::judges).
pub const HDU3278: Judge = Judge {
    name: "hdu3278",
    summary: "Shift Puzzle: T, then T cases of 4 rows of 6 letters B/W/G (whitespace-separated \
              tokens); prints `Case i: N`, the fewest moves that make the 8 interior cells one \
              colour",
    run: hdu3278,
};

/// HDU 3278. The whole stream is read and checked before anything is printed, so bad input
/// prints nothing but the error (the first one in the stream). The problem promises 8 cells of
/// each colour, but any counts are answered: on 24 cells of 3 colours some colour has at least 8,
/// so an answer always exists (`Impossible` is printed should none, which cannot happen on this
/// board).
///
/// A large stream is answered on every core: the cases are cut into chunks of whole cases,
/// each parsed, looked up and formatted into its own text on rayon's threads, and the texts are
/// written in order. Below `PARALLEL_FROM` cases one chunk, on this thread.
pub fn hdu3278(input: &str, cache: &TableCache) -> Result<String, Error> {
    let cases = Cases::new(input)?;
    let solver = RegionSolver::new(cases.geometry, cases.geometry.interior(), None);
    let chunks = if cases.count >= PARALLEL_FROM {
        // The table (8 cells of a colour, what the problem promises) is loaded or built on the
        // other thread while this one cuts the stream: both are single-threaded.
        let cells = cases.geometry.interior().count_ones();
        let (chunks, _) = rayon::join(
            || cases.chunks(CHUNK_CASES),
            || solver.table(cells, &Limits::default(), cache),
        );
        chunks
    } else {
        cases.chunks(usize::MAX)
    };
    Ok(cases.answer(&chunks, &solver, cache)?.concat())
}

/// Cases from which `judge hdu3278` answers on several threads: four chunks. Set from
/// instruction counts (a chunk is about 5 M instructions; cutting the stream adds 14 % and is
/// serial), not from a measured wall-time crossover: the VM it was tuned on had no free core
/// (BENCHMARKS.md, "`judge hdu3278` on large inputs").
const PARALLEL_FROM: usize = 8192;
/// Cases per chunk when parallel: enough chunks for the threads to share out evenly, each large
/// enough that its task costs far more than handing it out.
const CHUNK_CASES: usize = 2048;

/// The HDU 3278 stream: its count of cases, read, and the text after it.
struct Cases<'a> {
    count: usize,
    /// The text after the count, and the line it starts on.
    body: &'a str,
    line: usize,
    /// The last line of the stream, where a missing case is reported.
    last_line: usize,
    geometry: Geometry,
}

/// Whole cases of the stream: `cases` cases from case number `first` (1-based), starting at the
/// first token of `text` on line `line`. The last chunk runs to the end of the stream (and
/// reports what is missing or left over).
struct Chunk<'a> {
    text: &'a str,
    line: usize,
    first: usize,
    cases: usize,
    last: bool,
}

impl<'a> Cases<'a> {
    /// Reads the count of cases.
    fn new(input: &'a str) -> Result<Self, Error> {
        let (line, count) = tokens(input, 1).next().ok_or_else(|| {
            Error::input(at(1, "T".into()), "missing: expected the number of cases")
        })?;
        let digits = !count.is_empty() && count.bytes().all(|b| b.is_ascii_digit());
        let parsed: usize = count.parse().ok().filter(|_| digits).ok_or_else(|| {
            Error::input(
                at(line, "T".into()),
                format!("`{count}` is not a number of cases (0 or more)"),
            )
        })?;
        let end = count.as_ptr() as usize - input.as_ptr() as usize + count.len();
        Ok(Cases {
            count: parsed,
            body: &input[end..],
            line,
            // `input.lines().count()`, without a search per line.
            last_line: (input.bytes().filter(|&b| b == b'\n').count()
                + !(input.is_empty() || input.ends_with('\n')) as usize)
                .max(1),
            geometry: Geometry { rows: 4, cols: 6 },
        })
    }

    /// The cases cut into chunks of `per` cases (the last may hold more, or fewer): a cut falls
    /// at the first token of a case, found by counting tokens.
    fn chunks(&self, per: usize) -> Vec<Chunk<'a>> {
        let mut next = Chunk {
            text: self.body,
            line: self.line,
            first: 1,
            cases: self.count,
            last: true,
        };
        let mut chunks = Vec::new();
        if per < self.count {
            let per_chunk = per * self.geometry.rows as usize;
            let body = self.body.as_ptr() as usize;
            let firsts = tokens(self.body, self.line).step_by(per_chunk).skip(1);
            for (line, token) in firsts {
                if next.first + per > self.count {
                    break;
                }
                let at = token.as_ptr() as usize - body;
                let start = next.text.len() - (self.body.len() - at);
                chunks.push(Chunk {
                    text: &next.text[..start],
                    cases: per,
                    last: false,
                    ..next
                });
                next = Chunk {
                    text: &self.body[at..],
                    line,
                    first: next.first + per,
                    cases: next.cases - per,
                    last: true,
                };
            }
        }
        chunks.push(next);
        chunks
    }

    /// Every chunk's answers, in order; on bad input the first error in the stream.
    fn answer(
        &self,
        chunks: &[Chunk],
        solver: &RegionSolver,
        cache: &TableCache,
    ) -> Result<Vec<String>, Error> {
        let answer = |chunk: &Chunk| self.answer_chunk(chunk, solver, cache);
        let answers: Vec<Result<String, Error>> = if chunks.len() > 1 {
            use rayon::prelude::*;
            chunks.par_iter().map(answer).collect()
        } else {
            chunks.iter().map(answer).collect()
        };
        answers.into_iter().collect()
    }

    /// Parses, looks up and formats one chunk's cases: a board buffer and the output reused, no
    /// allocation per case.
    fn answer_chunk(
        &self,
        chunk: &Chunk,
        solver: &RegionSolver,
        cache: &TableCache,
    ) -> Result<String, Error> {
        let palette = &Palette::default();
        let limits = Limits::default();
        let mut lookups = solver.lookups();
        let mut tokens = tokens(chunk.text, chunk.line);
        let mut board = Board {
            cells: Vec::with_capacity(self.geometry.cells() as usize),
        };
        let mut out = String::with_capacity(chunk.text.len() / 2);
        let count = self.count;
        // `first + cases` may pass `usize::MAX` (T is read from the input); the case numbers
        // themselves stay at most T.
        for case in (0..chunk.cases).map(|i| chunk.first + i) {
            board.cells.clear();
            for row in 1..=self.geometry.rows {
                let key = || format!("case {case}, row {row}");
                let (line, token) = tokens.next().ok_or_else(|| {
                    Error::input(
                        at(self.last_line, key()),
                        format!("missing: the input ends before case {case} of {count}"),
                    )
                })?;
                self.geometry
                    .parse_row(palette, token, &mut board.cells)
                    .map_err(|message| {
                        Error::input(at(line, key()), format!("`{token}`{message}"))
                    })?;
            }
            out.push_str("Case ");
            push_decimal(&mut out, case as u64);
            out.push_str(": ");
            match lookups.distance(&board, &limits, cache) {
                Ok(Some(d)) => push_decimal(&mut out, d.into()),
                Ok(None) => out.push_str("Impossible"),
                // Not met in practice (a table over 24 cells holds at most C(24, 12) = 2.7 M
                // masks), but the budget is the machine's: an error, not a panic.
                Err(limit) => {
                    let location = Location::file("<stdin>").with_key(format!("case {case}"));
                    return Err(Error::Limit { location, limit });
                }
            }
            out.push('\n');
        }
        if chunk.last
            && let Some((line, token)) = tokens.next()
        {
            return Err(Error::input(
                at(line, "end".into()),
                format!("unexpected `{token}` after the {count} cases"),
            ));
        }
        Ok(out)
    }
}

/// The whitespace-separated tokens of `text` with their line numbers, `text` starting on line
/// `first_line`.
fn tokens(text: &str, first_line: usize) -> Tokens<'_> {
    Tokens {
        text,
        at: 0,
        line: first_line,
    }
}

/// The tokens `lines()` and `split_whitespace()` give, with their line numbers, in one pass over
/// the bytes: an ASCII byte is classified by a comparison, a non-ASCII character decoded (it may
/// be one of Unicode's spaces). Lines end at `\n` alone; `\r` is a space like any other.
struct Tokens<'a> {
    text: &'a str,
    /// The byte after the last token (a character boundary).
    at: usize,
    line: usize,
}

impl<'a> Iterator for Tokens<'a> {
    type Item = (usize, &'a str);

    #[inline]
    fn next(&mut self) -> Option<(usize, &'a str)> {
        // Locals, not fields: the loops keep them in registers.
        let (text, bytes) = (self.text, self.text.as_bytes());
        let (mut at, mut line) = (self.at, self.line);
        let start = loop {
            let Some(&b) = bytes.get(at) else {
                self.at = at;
                return None;
            };
            match b {
                b'\n' => line += 1,
                b'\t' | b'\x0b' | b'\x0c' | b'\r' | b' ' => {}
                b if b.is_ascii() => break at,
                _ => match wide(text, at) {
                    (true, len) => {
                        at += len;
                        continue;
                    }
                    (false, _) => break at,
                },
            }
            at += 1;
        };
        while let Some(&b) = bytes.get(at) {
            if b.is_ascii() {
                if matches!(b, b'\t'..=b'\r' | b' ') {
                    break;
                }
                at += 1;
            } else {
                match wide(text, at) {
                    (true, _) => break,
                    (false, len) => at += len,
                }
            }
        }
        (self.at, self.line) = (at, line);
        Some((line, &text[start..at]))
    }
}

/// Whether the non-ASCII character at byte `at` of `text` is a space, and its length in bytes.
#[cold]
fn wide(text: &str, at: usize) -> (bool, usize) {
    let ch = text[at..].chars().next().expect("a character boundary");
    (ch.is_whitespace(), ch.len_utf8())
}

/// Appends `n` in decimal: `format!`'s digits without its machinery, which cost a large stream
/// more than its lookups (BENCHMARKS.md, "`judge hdu3278` on large inputs").
fn push_decimal(out: &mut String, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend(digits[at..].iter().map(|&d| d as char));
}

/// A place in the judge's stdin.
fn at(line: usize, key: String) -> Location {
    Location::file("<stdin>").at_line(line).with_key(key)
}

#[cfg(test)]
mod tests {
    use super::*;
    use statespace::random::Lcg;

    /// `n` random HDU cases (8 cells of each colour; the letters in either case), their rows
    /// separated by a random mix of spaces, tabs, `\r\n` and newlines, with a non-ASCII space
    /// here and there.
    fn random_stream(n: usize, seed: u64) -> String {
        let mut random = Lcg(seed);
        let mut text = format!("{n}\n");
        for _ in 0..n {
            let mut cells: Vec<char> = "BWGbwg".chars().cycle().take(24).collect();
            for i in (1..cells.len()).rev() {
                cells.swap(i, random.below(i + 1));
            }
            for row in cells.chunks(6) {
                text.extend(row);
                text.push_str(["\n", " ", "\t", "\r\n", "\n\n", "\u{3000}"][random.below(6)]);
            }
        }
        text
    }

    /// The answers, or the error, with chunks of `per` cases (`usize::MAX`: one chunk).
    fn answers(input: &str, per: usize) -> Result<String, String> {
        let cases = Cases::new(input).map_err(|e| e.to_string())?;
        let chunks = cases.chunks(per);
        let solver = RegionSolver::new(cases.geometry, cases.geometry.interior(), None);
        let out = cases.answer(&chunks, &solver, &TableCache::disabled());
        out.map(|texts| texts.concat()).map_err(|e| e.to_string())
    }

    #[test]
    fn chunks_answer_as_one_chunk_does() {
        let input = random_stream(3 * CHUNK_CASES + 5, 14);
        let whole = answers(&input, usize::MAX).unwrap();
        assert_eq!(whole.lines().count(), 3 * CHUNK_CASES + 5);
        assert!(whole.starts_with("Case 1: ") && whole.ends_with('\n'));
        for per in [1, 7, CHUNK_CASES] {
            assert_eq!(
                answers(&input, per).unwrap(),
                whole,
                "{per} cases per chunk"
            );
        }
        // Chunks of exactly `per` cases; the last holds the rest.
        let cases = Cases::new(&input).unwrap();
        let chunks = cases.chunks(CHUNK_CASES);
        let held: Vec<(usize, usize, bool)> =
            chunks.iter().map(|c| (c.first, c.cases, c.last)).collect();
        let per = CHUNK_CASES;
        let expected = vec![
            (1, per, false),
            (per + 1, per, false),
            (2 * per + 1, per, false),
            (3 * per + 1, 5, true),
        ];
        assert_eq!(held, expected);
    }

    #[test]
    fn chunks_report_the_first_error_as_one_chunk_does() {
        let input = random_stream(40, 3);
        let lines: Vec<&str> = input.split_inclusive('\n').collect();
        let broken = [
            // A bad letter early, a token too many at the end: the first is reported.
            format!("{} BBBBBB", input.replacen("G", "X", 1)),
            lines[..lines.len() - 2].concat(),
            format!("{input} BBBBBB"),
            input.replace("40\n", "41\n"),
            {
                let mut late = input.clone();
                let at = late.len() - 3;
                late.insert(at, 'Q');
                late
            },
        ];
        for input in broken {
            let whole = answers(&input, usize::MAX).unwrap_err();
            for per in [1, 3, 16] {
                assert_eq!(answers(&input, per).unwrap_err(), whole, "{per}: {input:?}");
            }
        }
    }

    #[test]
    fn tokens_are_split_whitespaces_tokens_with_lines_lines() {
        for text in [
            "",
            " \n\n",
            "a b\r\nc\u{3000}d\u{a0}e\n\u{85}f\u{1c}g \u{b}h\u{c}i",
            "é é\n\tx\ry",
        ] {
            let expected: Vec<(usize, &str)> = text
                .lines()
                .enumerate()
                .flat_map(|(i, l)| l.split_whitespace().map(move |t| (i + 5, t)))
                .collect();
            assert_eq!(tokens(text, 5).collect::<Vec<_>>(), expected, "{text:?}");
        }
    }

    #[test]
    fn decimals_are_displays() {
        for n in [0, 1, 9, 10, 99, 100_000, u64::MAX] {
            let mut out = String::from("x");
            push_decimal(&mut out, n);
            assert_eq!(out, format!("x{n}"));
        }
    }
}
