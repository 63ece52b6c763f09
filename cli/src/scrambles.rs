//! `solve --scrambles FILE`: a batch of scrambles, in twsearch's scramble-file format or one a
//! line.
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
//! twsearch's position blocks (`Scramble`, `ScrambleState`, `StartState`, `CPOS`: a state written
//! in the definition's own numbering) are refused, each with one line naming it: our state text
//! is the board text `solve` prints, so such a position goes in a `--boards` file instead. A
//! file with no block keyword is read one scramble a line; blank lines and lines starting with
//! `#` are skipped either way.
//!
//! The whole file is read first (it is text a person wrote, capped like `--boards` input), so a
//! malformed block is reported before any search, with its line.

use statespace::board_text::BoardText;
use statespace::error::{Error, Location};

/// One scramble of the file: its name (a block's), and its moves as a scramble text, or why
/// the block is refused.
pub struct Scramble {
    /// The block's name (`TPERM`), or `line N` for a file of one scramble a line.
    pub name: String,
    /// The moves, read as a scramble by the puzzle; or the block's error.
    pub text: Result<BoardText, Error>,
}

/// The keywords of twsearch's position blocks (refused: module docs).
const POSITION_BLOCKS: [&str; 4] = ["Scramble", "ScrambleState", "StartState", "CPOS"];

/// The scrambles of `text`, read from the file `name`. An error for a file that ends inside a
/// block or holds none.
pub fn parse(name: &str, text: &str) -> Result<Vec<Scramble>, Error> {
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(i, line)| (i + 1, line.trim()))
        .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'))
        .collect();
    let keyword = |line: &str| line.split_whitespace().next().unwrap_or("").to_string();
    let blocks = lines.iter().any(|(_, line)| {
        let word = keyword(line);
        word == "ScrambleAlg" || POSITION_BLOCKS.contains(&word.as_str())
    });
    let at = |line: usize| Location::file(name).at_line(line);
    let mut scrambles = Vec::new();
    if !blocks {
        for (n, line) in lines {
            let mut text = BoardText::from_file(name, line.to_string());
            text.first_line = n;
            text.scramble = true;
            scrambles.push(Scramble {
                name: format!("line {n}"),
                text: Ok(text),
            });
        }
    } else {
        let mut rest = lines.into_iter();
        while let Some((n, line)) = rest.next() {
            let word = keyword(line);
            let title: Vec<&str> = line.split_whitespace().skip(1).collect();
            let block_name = title.join(" ");
            if word != "ScrambleAlg" && !POSITION_BLOCKS.contains(&word.as_str()) {
                return Err(Error::input(
                    at(n),
                    format!("expected ScrambleAlg NAME (or a position block), found \"{line}\""),
                ));
            }
            // CPOS is one line; the other blocks run to `End`.
            let mut moves = Vec::new();
            if word != "CPOS" {
                loop {
                    match rest.next() {
                        Some((_, "End")) => break,
                        Some((_, body)) => moves.push(body),
                        None => {
                            return Err(Error::input(
                                at(n),
                                format!("{word} {block_name}: the file ends before its End"),
                            ));
                        }
                    }
                }
            }
            let text = if word == "ScrambleAlg" {
                let mut text = BoardText::from_file(name, moves.join(" "));
                text.first_line = n + 1;
                text.scramble = true;
                Ok(text)
            } else {
                Err(Error::input(
                    at(n),
                    format!(
                        "{word} {block_name}: position blocks are not read (write the position \
                         in the puzzle's board text in a --boards file, or its moves as a \
                         ScrambleAlg block)"
                    ),
                ))
            };
            scrambles.push(Scramble {
                name: block_name,
                text,
            });
        }
    }
    if scrambles.is_empty() {
        return Err(Error::input(
            Location::file(name),
            "no scrambles: expected ScrambleAlg NAME ... End blocks, or one scramble a line",
        ));
    }
    Ok(scrambles)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names_and_moves(text: &str) -> Vec<(String, String)> {
        parse("s.scr", text)
            .unwrap()
            .into_iter()
            .map(|s| {
                (
                    s.name,
                    s.text.map(|t| t.text).unwrap_or_else(|e| e.to_string()),
                )
            })
            .collect()
    }

    #[test]
    fn scramble_files_read_blocks_or_lines() {
        let blocks = "# two\nScrambleAlg A\n R U\n F'\nEnd\n\nScrambleAlg B C\nR2\nEnd\n";
        assert_eq!(
            names_and_moves(blocks),
            [("A".into(), "R U F'".into()), ("B C".into(), "R2".into())]
        );
        let scrambles = parse("s.scr", blocks).unwrap();
        let first = scrambles[0].text.as_ref().unwrap();
        assert!(first.scramble);
        assert_eq!(first.first_line, 3);
        assert_eq!(
            names_and_moves("R U\n\n# skip\nF2\n"),
            [
                ("line 1".into(), "R U".into()),
                ("line 4".into(), "F2".into())
            ]
        );
    }

    #[test]
    fn scramble_files_refuse_what_they_cannot_read_with_its_line() {
        let error = |text: &str| match parse("s.scr", text) {
            Err(e) => e.to_string(),
            Ok(_) => panic!("{text:?} was read"),
        };
        assert_eq!(
            error("ScrambleAlg A\nR U\n"),
            "s.scr:1: ScrambleAlg A: the file ends before its End"
        );
        assert_eq!(
            error("ScrambleAlg A\nR\nEnd\nR U\n"),
            "s.scr:4: expected ScrambleAlg NAME (or a position block), found \"R U\""
        );
        assert_eq!(
            error("\n# nothing\n"),
            "s.scr: no scrambles: expected ScrambleAlg NAME ... End blocks, or one scramble a line"
        );
        // A position block is one refused item: the others still run.
        let read = parse(
            "s.scr",
            "Scramble P\nCORNER\n1 2\nEnd\nScrambleAlg Q\nR\nEnd\n",
        )
        .unwrap();
        assert_eq!(read.len(), 2);
        let refused = read[0].text.as_ref().err().unwrap().to_string();
        assert!(refused.starts_with("s.scr:1: Scramble P: position blocks are not read"));
        assert!(read[1].text.is_ok());
    }
}
