//! The page `GET /` serves: one HTML file, its script and style sheet inlined, d3 inlined as
//! the export page inlines it ([`statespace::graph::d3_for_page`]): nothing is fetched but the
//! API's answers, from the same server (the page's `Content-Security-Policy` says so).
//!
//! The script (`page/page.js`) draws the board as `solve --svg` does (the SVG `POST
//! /api/moves` sends, made by `statespace::picture::board_svg`), plays moves by click (a cell:
//! the move that changes it, centred nearest) and keyboard, scrambles (random moves), undoes,
//! animates "solve from here" move by move, shows each move's distance (exact, or "at least"),
//! grows the graph of the positions visited (d3-force, coloured by distance), draws the
//! histogram when the puzzle has one, and shows the limit a request stopped on. Once the first
//! board is drawn it sets `data-rendered` on `<body>` (the browser test waits for it), and
//! `data-moves` (moves played) and `data-goal` (whether the board is a goal) after each move.

use statespace::escape;

const PAGE_HTML: &str = include_str!("page/page.html");
const PAGE_JS: &str = include_str!("page/page.js");
const PAGE_CSS: &str = include_str!("page/page.css");

/// The page for a puzzle described as `title`.
pub fn html(title: &str) -> String {
    // Each placeholder is replaced once; the inlined texts are not searched again.
    let title = escape::xml(title);
    let (before_title, rest) = PAGE_HTML.split_once("{title}").expect("a {title}");
    let (before_css, rest) = rest.split_once("{css}").expect("a {css}");
    let (before_heading, rest) = rest.split_once("{title}").expect("a second {title}");
    let (before_d3, rest) = rest.split_once("{d3}").expect("a {d3}");
    let (before_js, after) = rest.split_once("{js}").expect("a {js}");
    [
        before_title,
        &title,
        before_css,
        PAGE_CSS,
        before_heading,
        &title,
        before_d3,
        &statespace::graph::d3_for_page(),
        before_js,
        PAGE_JS,
        after,
    ]
    .concat()
}
