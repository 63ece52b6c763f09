//! How a board's text is drawn as a picture: the style a plugin declares for its boards
//! ([`BoardStyle`]), and the drawing that the HTML export page and `solve --svg` share.
//!
//! # Overview
//!
//! Pictures are drawn from the board text every command already prints, so a plugin only says
//! which style its text has; no plugin draws anything itself.
//!
//! - [`grid`] splits a board's text into rows of cells by its style: characters (`Cells`,
//!   `Blocks`), whitespace-separated numbers (`Tiles`) or whole lines (`Text`).
//! - [`blocks`] cuts a `Blocks` board's letters into its pieces, so that a piece is drawn as one
//!   block with a border, even beside a look-alike.
//! - [`changes`] lists the cells one move changed (what a picture of a solution highlights), and
//!   [`Mark::from_label`] reads the pressed cell or the moved line from a move label.
//! - [`board_svg`] draws one board; [`solution_svg`] draws a solution as a strip of boards, start
//!   to goal, each move's changes highlighted and its label underneath, wrapped onto several
//!   rows when long.
//!
//! The HTML page (`graph::to_html`) draws the same grids on a canvas, in JavaScript, from the
//! same style (serialized as JSON: `{"kind": "cells", "colours": [["b", "black"], ...]}`).
//!
//! # Choices and trade-offs
//!
//! - **Text in, picture out.** Drawing from text keeps plugins free of drawing code and keeps
//!   pictures consistent with what `solve` prints; the cost is that a picture knows only what the
//!   text shows (a Flip board's text cannot say which cell was pressed; the label `r3c1` can, so
//!   [`Mark::from_label`] reads the project's label conventions).
//! - **What changed, generically.** A move's highlight is the cells whose text differs from the
//!   previous board: Flip's flipped cells, a Shift row's cells that changed colour, the tile that
//!   moved (for tiles the blank's cell is left out: the blank is where the tile was). A Shift
//!   move also marks its whole line, since a cell can keep its colour while the row moves.
//! - **Plain SVG, written by hand**, like [`plot`](crate::plot): rectangles and text with every
//!   coordinate printed to one decimal, so the same solution gives the same bytes (the guide's
//!   picture is checked by a test). Text widths are estimated (0.6 em a character).
//! - **Size.** A strip of big boards is large (one rectangle a cell): past [`MAX_SVG_CELLS`] cells
//!   in all, [`solution_svg`] refuses rather than write a file no viewer opens.

use crate::escape;
use std::fmt::{self, Write};

/// How a board's text is drawn.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum BoardStyle {
    /// Each character of a row is a cell filled with its character's colour (CSS colour
    /// names or `#rrggbb`): Flip's `b`/`w`, Shift's colour letters.
    Cells {
        /// `(character, colour)`; a character not listed is drawn grey with the character.
        colours: Vec<(char, String)>,
    },
    /// Rows of whitespace-separated numbers drawn as numbered tiles; `_` is the blank.
    Tiles,
    /// Rectangular pieces written as letters (sliding blocks): each piece one block, its cells
    /// joined, a border around it; `.` is an empty cell and `#` a wall. A letter's cells are cut
    /// into pieces of its size row by row (see [`blocks`]), so two look-alike pieces side by side
    /// are two blocks.
    Blocks {
        /// The letters boards are written with, each with its size and colour.
        pieces: Vec<Block>,
    },
    /// The text as it is, in a monospace font.
    #[default]
    Text,
}

/// A letter of a [`BoardStyle::Blocks`] board: the size of each piece it writes, and its
/// colour.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Block {
    /// The letter.
    pub letter: char,
    /// A piece's height in cells.
    pub rows: u8,
    /// A piece's width in cells.
    pub cols: u8,
    /// Its fill (a CSS colour name or `#rrggbb`).
    pub colour: String,
}

/// One piece of a [`BoardStyle::Blocks`] board, as [`blocks`] cuts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    /// Its top row, 0-based.
    pub row: usize,
    /// Its left column, 0-based.
    pub col: usize,
    /// Height in cells.
    pub rows: usize,
    /// Width in cells.
    pub cols: usize,
    /// Its letter's place in the style's `pieces`; `None` for a letter the style does not list
    /// (drawn as a grey cell of its own).
    pub block: Option<usize>,
}

/// The pieces of a `Blocks` board's grid: row by row, the first cell of a letter not yet cut is
/// the top-left corner of one of its pieces, of its [`Block`]'s size (cells that do not make a
/// whole piece, and letters not listed, are pieces of one cell). `.` and `#` are no piece.
///
/// ```
/// use statespace::picture::{Block, BoardStyle, blocks, grid};
/// let v = Block { letter: 'V', rows: 2, cols: 1, colour: "teal".into() };
/// let style = BoardStyle::Blocks { pieces: vec![v.clone()] };
/// let cut = blocks(&[v], &grid(&style, "V.\nV.\nV.\nV."));
/// assert_eq!(cut.len(), 2); // two 2 x 1 pieces, one above the other
/// assert_eq!((cut[1].row, cut[1].rows), (2, 2));
/// ```
pub fn blocks(pieces: &[Block], grid: &Grid) -> Vec<Piece> {
    let at = |r: usize, c: usize| grid.get(r).and_then(|row| row.get(c)).map(String::as_str);
    let mut taken: Vec<Vec<bool>> = grid.iter().map(|row| vec![false; row.len()]).collect();
    let mut cut = Vec::new();
    for (r, row) in grid.iter().enumerate() {
        for (c, cell) in row.iter().enumerate() {
            if taken[r][c] || cell == "." || cell == "#" {
                continue;
            }
            let block = pieces.iter().position(|b| cell.starts_with(b.letter));
            let (rows, cols) = block.map_or((1, 1), |b| {
                (pieces[b].rows as usize, pieces[b].cols as usize)
            });
            let whole = (0..rows).all(|dr| {
                (0..cols).all(|dc| {
                    at(r + dr, c + dc) == Some(cell.as_str())
                        && !taken
                            .get(r + dr)
                            .and_then(|t| t.get(c + dc))
                            .copied()
                            .unwrap_or(true)
                })
            });
            let (rows, cols) = if whole { (rows, cols) } else { (1, 1) };
            for t in taken.iter_mut().skip(r).take(rows) {
                t[c..c + cols].iter_mut().for_each(|t| *t = true);
            }
            cut.push(Piece {
                row: r,
                col: c,
                rows,
                cols,
                block: block.filter(|_| whole),
            });
        }
    }
    cut
}

/// The most cells [`solution_svg`] draws, over all its boards: about 15 MB of SVG, which
/// browsers still open; a strip past it is refused.
pub const MAX_SVG_CELLS: usize = 250_000;

/// A board's cells, row by row: one character a cell (`Cells`), one whitespace-separated number
/// or `_` a cell (`Tiles`), one line a cell (`Text`).
pub type Grid = Vec<Vec<String>>;

/// Splits a board's text into its cells by `style`. `Cells` and `Tiles` ignore blank lines and the
/// whitespace around a row (as the board parsers do); `Text` keeps each line as it is, less
/// trailing whitespace, and drops blank lines only at the ends.
///
/// ```
/// use statespace::picture::{BoardStyle, grid};
/// assert_eq!(grid(&BoardStyle::Tiles, "1 2\n3 _\n"), [["1", "2"], ["3", "_"]]);
/// ```
pub fn grid(style: &BoardStyle, text: &str) -> Grid {
    let rows = text.lines().map(str::trim).filter(|l| !l.is_empty());
    match style {
        BoardStyle::Cells { .. } | BoardStyle::Blocks { .. } => rows
            .map(|row| row.chars().map(String::from).collect())
            .collect(),
        BoardStyle::Tiles => rows
            .map(|row| row.split_whitespace().map(String::from).collect())
            .collect(),
        BoardStyle::Text => {
            let lines: Vec<&str> = text.lines().map(str::trim_end).collect();
            let first = lines.iter().position(|l| !l.is_empty()).unwrap_or(0);
            let last = lines
                .iter()
                .rposition(|l| !l.is_empty())
                .map_or(0, |i| i + 1);
            lines[first..last.max(first)]
                .iter()
                .map(|l| vec![l.to_string()])
                .collect()
        }
    }
}

/// The cells (`(row, column)`, 0-based, row-major) of `after` whose text differs from `before`'s
/// cell at the same place (or that `before` does not have). For `Tiles` the blank's new place is
/// left out: what moved is the tile.
///
/// ```
/// use statespace::picture::{BoardStyle, changes};
/// let flip = BoardStyle::Cells { colours: vec![] };
/// assert_eq!(changes(&flip, "bw\nww", "ww\nwb"), [(0, 0), (1, 1)]);
/// assert_eq!(changes(&BoardStyle::Tiles, "1 2\n3 _", "1 2\n_ 3"), [(1, 1)]);
/// ```
pub fn changes(style: &BoardStyle, before: &str, after: &str) -> Vec<(usize, usize)> {
    let before = grid(style, before);
    let after = grid(style, after);
    let mut changed = Vec::new();
    for (r, row) in after.iter().enumerate() {
        for (c, cell) in row.iter().enumerate() {
            let same = before.get(r).and_then(|b| b.get(c)) == Some(cell);
            let blank = matches!(style, BoardStyle::Tiles) && cell == "_";
            if !same && !blank {
                changed.push((r, c));
            }
        }
    }
    changed
}

/// What a move label says about where the move acted, by the project's label conventions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// `r3c1`: the cell pressed (0-based here; labels are 1-based).
    Cell {
        /// 0-based row.
        row: usize,
        /// 0-based column.
        col: usize,
    },
    /// `row 2 left`: the row that moved (0-based).
    Row(usize),
    /// `col 4 up`: the column that moved (0-based).
    Column(usize),
}

impl Mark {
    /// Reads `rRcC` (a Flip press), `row R ...` or `col C ...` (a Shift move), 1-based; any
    /// other label marks nothing.
    ///
    /// ```
    /// use statespace::picture::Mark;
    /// assert_eq!(Mark::from_label("r3c1"), Some(Mark::Cell { row: 2, col: 0 }));
    /// assert_eq!(Mark::from_label("col 4 up"), Some(Mark::Column(3)));
    /// assert_eq!(Mark::from_label("up"), None);
    /// ```
    pub fn from_label(label: &str) -> Option<Mark> {
        let index = |digits: &str| -> Option<usize> {
            let all_digits = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
            all_digits
                .then(|| digits.parse::<usize>().ok())
                .flatten()
                .and_then(|n| n.checked_sub(1))
        };
        let mut words = label.split_whitespace();
        match (words.next(), words.next()) {
            (Some("row"), Some(n)) => return index(n).map(Mark::Row),
            (Some("col" | "column"), Some(n)) => return index(n).map(Mark::Column),
            _ => {}
        }
        let (row, col) = label.strip_prefix('r')?.split_once('c')?;
        Some(Mark::Cell {
            row: index(row)?,
            col: index(col)?,
        })
    }
}

/// One board of a strip: its caption and its text.
#[derive(Clone, Copy, Debug)]
pub struct Frame<'a> {
    /// Written under the board: `start`, or the move that led to it.
    pub label: &'a str,
    /// The board's text.
    pub board: &'a str,
}

/// A strip too large to draw: the cells it has and the most allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooLarge {
    /// Cells over all the strip's boards.
    pub cells: usize,
    /// [`MAX_SVG_CELLS`].
    pub max: usize,
}

impl fmt::Display for TooLarge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} cells to draw, over the {} a picture may have",
            self.cells, self.max
        )
    }
}

impl std::error::Error for TooLarge {}

/// Width the strip wraps at.
const STRIP_WIDTH: f64 = 960.0;
const MARGIN: f64 = 12.0;
const GAP: f64 = 16.0;
const TITLE_HEIGHT: f64 = 34.0;
/// Room under a board for its label.
const LABEL_HEIGHT: f64 = 26.0;
const LABEL_FONT: f64 = 12.0;
/// Text boards: font size, line height and estimated advance of a monospace character.
const TEXT_FONT: f64 = 12.0;
const TEXT_LINE: f64 = 15.0;
const CHAR_EM: f64 = 0.6;
/// What highlights draw with: orange over a white under-stroke, visible on any cell colour.
const HIGHLIGHT: &str = "#e6550d";

/// One board as a standalone SVG picture.
///
/// ```
/// use statespace::picture::{BoardStyle, board_svg};
/// let style = BoardStyle::Cells { colours: vec![('b', "black".into()), ('w', "white".into())] };
/// let svg = board_svg(&style, "bw\nwb");
/// assert_eq!(svg.matches("<rect class=\"cell\"").count(), 4);
/// ```
pub fn board_svg(style: &BoardStyle, text: &str) -> String {
    let grid = grid(style, text);
    let (w, h) = board_size(style, &grid);
    let (width, height) = (w + 2.0 * MARGIN, h + 2.0 * MARGIN);
    let mut svg = svg_open(width, height);
    writeln!(
        svg,
        "<g class=\"board\" transform=\"translate({MARGIN:.1},{MARGIN:.1})\">"
    )
    .unwrap();
    draw_board(&mut svg, style, &grid, &[], None);
    svg.push_str("</g>\n</svg>\n");
    svg
}

/// A solution as a strip of boards, left to right and wrapped onto rows of at most 960 pixels:
/// `title` on top, then each frame's board with its label underneath. Every frame after the first
/// highlights the cells that changed since the previous board (see [`changes`]) and marks what
/// its label names (see [`Mark::from_label`]). Each board is a `<g class="board">`; a changed
/// cell's highlight has `class="changed"`, a mark `class="mark"`.
///
/// Errors: [`TooLarge`] past [`MAX_SVG_CELLS`] cells in all. The same frames give the same bytes.
///
/// ```
/// use statespace::picture::{BoardStyle, Frame, solution_svg};
/// let style = BoardStyle::Cells { colours: vec![('b', "black".into()), ('w', "white".into())] };
/// let frames = [Frame { label: "start", board: "bw" }, Frame { label: "r1c1", board: "ww" }];
/// let svg = solution_svg(&style, "1 move", &frames).unwrap();
/// assert_eq!(svg.matches("<g class=\"board\"").count(), 2);
/// assert_eq!(svg.matches("class=\"changed\"").count(), 1);
/// ```
pub fn solution_svg(style: &BoardStyle, title: &str, frames: &[Frame]) -> Result<String, TooLarge> {
    let grids: Vec<Grid> = frames.iter().map(|f| grid(style, f.board)).collect();
    let cells: usize = grids.iter().flatten().map(Vec::len).sum();
    if cells > MAX_SVG_CELLS {
        return Err(TooLarge {
            cells,
            max: MAX_SVG_CELLS,
        });
    }
    // One slot size for every board, so the strip reads as a grid even if sizes differ.
    let (mut board_w, mut board_h) = (0f64, 0f64);
    for g in &grids {
        let (w, h) = board_size(style, g);
        board_w = board_w.max(w);
        board_h = board_h.max(h);
    }
    let label_w = frames
        .iter()
        .map(|f| text_width(f.label, LABEL_FONT))
        .fold(0.0, f64::max);
    let slot_w = board_w.max(label_w).max(24.0);
    let slot_h = board_h + LABEL_HEIGHT;
    let title_w = text_width(title, 14.0) + 2.0 * MARGIN;
    let per_row = (((STRIP_WIDTH - 2.0 * MARGIN + GAP) / (slot_w + GAP)).floor() as usize).max(1);
    let per_row = per_row.min(frames.len().max(1));
    let rows = frames.len().div_ceil(per_row).max(1);
    let width = (2.0 * MARGIN + per_row as f64 * (slot_w + GAP) - GAP).max(title_w);
    let height = TITLE_HEIGHT + rows as f64 * (slot_h + GAP) - GAP + MARGIN;

    let mut svg = svg_open(width, height);
    writeln!(svg, "<title>{}</title>", escape::xml(title)).unwrap();
    writeln!(
        svg,
        "<text x=\"{MARGIN:.1}\" y=\"22.0\" font-size=\"14\" font-weight=\"bold\">{}</text>",
        escape::xml(title)
    )
    .unwrap();
    for (i, frame) in frames.iter().enumerate() {
        let (row, col) = (i / per_row, i % per_row);
        let x = MARGIN + col as f64 * (slot_w + GAP);
        let y = TITLE_HEIGHT + row as f64 * (slot_h + GAP);
        let (w, h) = board_size(style, &grids[i]);
        let bx = x + (slot_w - w) / 2.0;
        let by = y + (board_h - h) / 2.0;
        let (changed, mark) = if i == 0 {
            (Vec::new(), None)
        } else {
            (
                changes(style, frames[i - 1].board, frame.board),
                Mark::from_label(frame.label),
            )
        };
        writeln!(
            svg,
            "<g class=\"board\" transform=\"translate({bx:.1},{by:.1})\"><title>{}</title>",
            escape::xml(frame.label)
        )
        .unwrap();
        draw_board(&mut svg, style, &grids[i], &changed, mark);
        svg.push_str("</g>\n");
        writeln!(
            svg,
            "<text class=\"move\" x=\"{:.1}\" y=\"{:.1}\" font-size=\"{LABEL_FONT}\" \
             text-anchor=\"middle\">{}</text>",
            x + slot_w / 2.0,
            y + board_h + 18.0,
            escape::xml(frame.label)
        )
        .unwrap();
    }
    svg.push_str("</svg>\n");
    Ok(svg)
}

fn svg_open(width: f64, height: f64) -> String {
    let mut svg = String::new();
    writeln!(
        svg,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.1}\" height=\"{height:.1}\" \
         viewBox=\"0 0 {width:.1} {height:.1}\" font-family=\"sans-serif\">"
    )
    .unwrap();
    svg.push_str("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
    svg
}

/// Pixels a cell takes: boards up to 6 cells a side at 24, larger ones smaller, down to 3.
fn cell_size(grid: &Grid) -> f64 {
    let rows = grid.len();
    let cols = grid.iter().map(Vec::len).max().unwrap_or(0);
    (144.0 / rows.max(cols).max(1) as f64)
        .floor()
        .clamp(3.0, 24.0)
}

/// The board's width and height in pixels.
fn board_size(style: &BoardStyle, grid: &Grid) -> (f64, f64) {
    match style {
        BoardStyle::Text => {
            let longest = grid.iter().map(|l| l[0].chars().count()).max().unwrap_or(0);
            (
                longest as f64 * TEXT_FONT * CHAR_EM + 8.0,
                grid.len() as f64 * TEXT_LINE + 6.0,
            )
        }
        _ => {
            let cell = cell_size(grid);
            let cols = grid.iter().map(Vec::len).max().unwrap_or(0);
            (cols as f64 * cell, grid.len() as f64 * cell)
        }
    }
}

fn text_width(text: &str, font: f64) -> f64 {
    text.chars().count() as f64 * font * CHAR_EM
}

/// The colour of a `Cells` character, exact first, then ignoring case (Flip reads `B` as `b`);
/// `None` for a character the style does not list.
fn colour_of(colours: &[(char, String)], c: char) -> Option<&str> {
    colours
        .iter()
        .find(|(k, _)| *k == c)
        .or_else(|| colours.iter().find(|(k, _)| k.eq_ignore_ascii_case(&c)))
        .map(|(_, colour)| colour.as_str())
}

/// Draws `grid` with its top-left corner at the origin: cells, then highlights, then the mark.
fn draw_board(
    svg: &mut String,
    style: &BoardStyle,
    grid: &Grid,
    changed: &[(usize, usize)],
    mark: Option<Mark>,
) {
    let (w, h) = board_size(style, grid);
    match style {
        BoardStyle::Text => {
            writeln!(
                svg,
                "<rect x=\"0\" y=\"0\" width=\"{w:.1}\" height=\"{h:.1}\" fill=\"#f7f7f7\" \
                 stroke=\"#999999\"/>"
            )
            .unwrap();
            for &(r, _) in changed {
                writeln!(
                    svg,
                    "<rect class=\"changed\" x=\"1.0\" y=\"{:.1}\" width=\"{:.1}\" height=\"{TEXT_LINE:.1}\" \
                     fill=\"#fdd0a2\"/>",
                    3.0 + r as f64 * TEXT_LINE,
                    w - 2.0
                )
                .unwrap();
            }
            for (r, line) in grid.iter().enumerate() {
                writeln!(
                    svg,
                    "<text x=\"4.0\" y=\"{:.1}\" font-family=\"monospace\" font-size=\"{TEXT_FONT}\" \
                     style=\"white-space:pre\">{}</text>",
                    3.0 + (r as f64 + 0.8) * TEXT_LINE,
                    escape::xml(&line[0])
                )
                .unwrap();
            }
            return;
        }
        BoardStyle::Cells { colours } => {
            let cell = cell_size(grid);
            let grid_lines = if cell >= 8.0 {
                " stroke=\"#999999\" stroke-width=\"0.5\""
            } else {
                ""
            };
            for (r, row) in grid.iter().enumerate() {
                for (c, text) in row.iter().enumerate() {
                    let ch = text.chars().next().unwrap_or(' ');
                    let (x, y) = (c as f64 * cell, r as f64 * cell);
                    let colour = colour_of(colours, ch);
                    writeln!(
                        svg,
                        "<rect class=\"cell\" x=\"{x:.1}\" y=\"{y:.1}\" width=\"{cell:.1}\" \
                         height=\"{cell:.1}\" fill=\"{}\"{grid_lines}/>",
                        colour.unwrap_or("#bbbbbb")
                    )
                    .unwrap();
                    if colour.is_none() && cell >= 8.0 {
                        cell_text(svg, x, y, cell, text, "#333333");
                    }
                }
            }
        }
        BoardStyle::Blocks { pieces } => draw_blocks(svg, pieces, grid),
        BoardStyle::Tiles => {
            let cell = cell_size(grid);
            for (r, row) in grid.iter().enumerate() {
                for (c, text) in row.iter().enumerate() {
                    let (x, y) = (c as f64 * cell, r as f64 * cell);
                    if text == "_" {
                        writeln!(
                            svg,
                            "<rect class=\"cell\" x=\"{x:.1}\" y=\"{y:.1}\" width=\"{cell:.1}\" \
                             height=\"{cell:.1}\" fill=\"#e0e0e0\"/>"
                        )
                        .unwrap();
                    } else {
                        writeln!(
                            svg,
                            "<rect class=\"cell\" x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" \
                             height=\"{:.1}\" fill=\"#f2d49b\" stroke=\"#8a6d3b\"/>",
                            x + 0.5,
                            y + 0.5,
                            cell - 1.0,
                            cell - 1.0
                        )
                        .unwrap();
                        if cell >= 8.0 {
                            cell_text(svg, x, y, cell, text, "#3b2a10");
                        }
                    }
                }
            }
        }
    }
    writeln!(
        svg,
        "<rect x=\"0\" y=\"0\" width=\"{w:.1}\" height=\"{h:.1}\" fill=\"none\" stroke=\"#555555\"/>"
    )
    .unwrap();
    let cell = cell_size(grid);
    let stroke = (cell * 0.12).clamp(1.0, 3.0);
    for &(r, c) in changed {
        let inset = stroke / 2.0 + 0.5;
        let (x, y, s) = (
            c as f64 * cell + inset,
            r as f64 * cell + inset,
            cell - 2.0 * inset,
        );
        writeln!(
            svg,
            "<rect class=\"changed\" x=\"{x:.1}\" y=\"{y:.1}\" width=\"{s:.1}\" height=\"{s:.1}\" \
             fill=\"none\" stroke=\"white\" stroke-width=\"{:.1}\"/><rect x=\"{x:.1}\" \
             y=\"{y:.1}\" width=\"{s:.1}\" height=\"{s:.1}\" fill=\"none\" stroke=\"{HIGHLIGHT}\" \
             stroke-width=\"{stroke:.1}\"/>",
            stroke + 1.5
        )
        .unwrap();
    }
    match mark {
        Some(Mark::Cell { row, col }) if row < grid.len() && col < grid[row].len() => {
            writeln!(
                svg,
                "<circle class=\"mark\" cx=\"{:.1}\" cy=\"{:.1}\" r=\"{:.1}\" fill=\"{HIGHLIGHT}\" \
                 stroke=\"white\" stroke-width=\"1.5\"/>",
                (col as f64 + 0.5) * cell,
                (row as f64 + 0.5) * cell,
                (cell * 0.22).max(1.5)
            )
            .unwrap();
        }
        Some(Mark::Row(row)) if row < grid.len() => {
            line_mark(svg, -2.0, row as f64 * cell - 2.0, w + 4.0, cell + 4.0);
        }
        Some(Mark::Column(col)) if grid.iter().any(|r| col < r.len()) => {
            line_mark(svg, col as f64 * cell - 2.0, -2.0, cell + 4.0, h + 4.0);
        }
        _ => {}
    }
}

/// A `Blocks` board: the floor, walls dark, then each piece a rounded block inset from its cells
/// (so a border shows between two pieces), its letter in the middle when there is room.
fn draw_blocks(svg: &mut String, pieces: &[Block], grid: &Grid) {
    let cell = cell_size(grid);
    for (r, row) in grid.iter().enumerate() {
        for (c, text) in row.iter().enumerate() {
            let fill = if text == "#" { "#444444" } else { "#f4f1ea" };
            writeln!(
                svg,
                "<rect class=\"cell\" x=\"{:.1}\" y=\"{:.1}\" width=\"{cell:.1}\" \
                 height=\"{cell:.1}\" fill=\"{fill}\"/>",
                c as f64 * cell,
                r as f64 * cell
            )
            .unwrap();
        }
    }
    let inset = (cell * 0.06).clamp(0.5, 2.0);
    for piece in blocks(pieces, grid) {
        let colour = piece.block.map_or("#bbbbbb", |b| pieces[b].colour.as_str());
        let (x, y) = (piece.col as f64 * cell, piece.row as f64 * cell);
        let (w, h) = (piece.cols as f64 * cell, piece.rows as f64 * cell);
        writeln!(
            svg,
            "<rect class=\"piece\" x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" \
             rx=\"{:.1}\" fill=\"{colour}\" stroke=\"#333333\" stroke-width=\"1\"/>",
            x + inset,
            y + inset,
            w - 2.0 * inset,
            h - 2.0 * inset,
            inset * 2.0
        )
        .unwrap();
        if cell >= 8.0 {
            let letter = &grid[piece.row][piece.col];
            let (cx, cy) = (x + w / 2.0 - cell / 2.0, y + h / 2.0 - cell / 2.0);
            cell_text(svg, cx, cy, cell, letter, "#ffffff");
        }
    }
}

fn cell_text(svg: &mut String, x: f64, y: f64, cell: f64, text: &str, colour: &str) {
    writeln!(
        svg,
        "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"{:.1}\" text-anchor=\"middle\" fill=\"{colour}\">{}</text>",
        x + cell / 2.0,
        y + cell * 0.68,
        (cell * 0.5).floor(),
        escape::xml(text)
    )
    .unwrap();
}

/// A dashed frame around the row or column a move shifted.
fn line_mark(svg: &mut String, x: f64, y: f64, w: f64, h: f64) {
    writeln!(
        svg,
        "<rect class=\"mark\" x=\"{x:.1}\" y=\"{y:.1}\" width=\"{w:.1}\" height=\"{h:.1}\" \
         fill=\"none\" stroke=\"{HIGHLIGHT}\" stroke-width=\"2\" stroke-dasharray=\"4 3\"/>"
    )
    .unwrap();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flip() -> BoardStyle {
        BoardStyle::Cells {
            colours: vec![('b', "black".into()), ('w', "white".into())],
        }
    }

    #[test]
    fn grids_by_style() {
        assert_eq!(grid(&flip(), "  bw\n\n wb \n"), [["b", "w"], ["w", "b"]]);
        assert_eq!(
            grid(&BoardStyle::Tiles, "10  2\n _ 3"),
            [["10", "2"], ["_", "3"]]
        );
        assert_eq!(grid(&BoardStyle::Text, "\n  a\nb  \n\n"), [["  a"], ["b"]]);
    }

    #[test]
    fn a_row_shift_marks_its_row_and_highlights_what_changed_colour() {
        let style = BoardStyle::Cells {
            colours: vec![('B', "#1f77b4".into()), ('W', "white".into())],
        };
        let frames = [
            Frame {
                label: "start",
                board: "BBW\nWWW",
            },
            Frame {
                label: "row 1 left",
                board: "BWB\nWWW",
            },
        ];
        let svg = solution_svg(&style, "1 move", &frames).unwrap();
        assert_eq!(svg.matches("class=\"changed\"").count(), 2);
        assert_eq!(svg.matches("class=\"mark\"").count(), 1);
        assert!(svg.contains("stroke-dasharray"));
    }

    #[test]
    fn labels_are_escaped_and_long_strips_wrap() {
        let boards: Vec<String> = (0..30)
            .map(|i| if i % 2 == 0 { "bw" } else { "ww" }.into())
            .collect();
        let labels: Vec<String> = (0..30).map(|i| format!("<{i}>")).collect();
        let frames: Vec<Frame> = labels
            .iter()
            .zip(&boards)
            .map(|(label, board)| Frame { label, board })
            .collect();
        let svg = solution_svg(&flip(), "a & b", &frames).unwrap();
        assert!(svg.contains("a &amp; b") && svg.contains("&lt;3&gt;"));
        let width: f64 = svg
            .split("width=\"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!(width <= STRIP_WIDTH, "{width}");
    }

    #[test]
    fn unknown_characters_are_grey_with_the_character() {
        let svg = board_svg(&flip(), "bx");
        assert!(svg.contains("#bbbbbb") && svg.contains(">x</text>"));
    }

    #[test]
    fn huge_strips_are_refused() {
        let board = "b".repeat(1000);
        let board = vec![board; 300].join("\n");
        let frames = [Frame {
            label: "start",
            board: &board,
        }];
        let err = solution_svg(&flip(), "big", &frames).unwrap_err();
        assert_eq!(err.cells, 300_000);
    }
}
