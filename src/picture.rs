//! How a board's text is drawn as a picture: the style a plugin declares for its boards, used by
//! the HTML export page and the SVG pictures of solutions.
//!
//! Pictures are drawn from the board text every command already prints, so a plugin only says
//! which style its text has; no plugin draws anything itself.

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
    /// The text as it is, in a monospace font.
    #[default]
    Text,
}
