//! A self-contained HTML page that draws a state graph in any browser, offline.
//!
//! # Overview
//!
//! [`to_html`] writes one file: the graph as JSON in a `<script type="application/json">`, the
//! pinned d3 library (vendored in `src/graph/vendor/`, embedded with `include_str!`) and the
//! page's own script (`src/graph/html/page.js`) and style sheet. The page draws every board as a
//! small picture of its text by the instance's [`BoardStyle`] (Flip cells black and white, Shift
//! cells in their colours, tiles with their numbers, other boards as text), marks the start and
//! the goals as the DOT export does (start filled blue, goals green with a double border), and
//! offers:
//!
//! - two layouts: rows by depth from the start (the default, like the guide's Graphviz picture, docs/explore.md;
//!   wide depths wrap onto several rows) and a force-directed one (d3-force) to switch to;
//! - pan and zoom (d3-zoom), and a hover card with the board, its depth and its goal distance;
//! - a click that lights a shortest path to a goal: read from the goal distances when the graph
//!   is the whole component (they are exact), else found by a BFS inside the page toward the
//!   goal nodes (the shortest within the graph);
//! - a search box that finds a board by its text (rows separated by spaces or `/`);
//! - a banner that says what was cut when the export stopped at a limit.
//!
//! Once drawn, the page sets `document.body.dataset.rendered` to the number of boards it drew
//! (and `data-render-ms`, the milliseconds from navigation to that first frame), which the tests
//! read from a headless browser.
//!
//! # Choices and trade-offs
//!
//! - **Canvas, not SVG.** 5,000 boards of 25 cells are 125,000 rectangles: as SVG elements a
//!   browser lays them out and hit-tests them slowly; on a canvas they are a few `fill` calls
//!   (one path per colour), redrawn each frame. Hit-testing is then ours: a scan over the nodes
//!   per mouse move, which is microseconds at these sizes. Boards smaller than 4 pixels on screen
//!   are drawn as one rectangle in their commonest colour.
//! - **d3, not a graph framework.** d3-force and d3-zoom are the maintained, well-known pieces
//!   this page needs; drawing boards as pictures is specific to this project either way, and a
//!   framework such as cytoscape.js (whose nodes are styled shapes or images) would draw 5,000
//!   distinct board images more slowly than the batched paths here. The whole d3 bundle
//!   (280 KB) is one pinned file with one licence, simpler to keep than six sub-packages.
//! - **Offline by construction.** Nothing is fetched: the library and the data are inline, and a
//!   `Content-Security-Policy` of `default-src 'none'` makes the browser refuse any request the
//!   page might still try. The vendored file's first line, a comment holding d3's web address,
//!   is replaced by one without it, so that the page contains no URL but XML namespaces (tested).
//! - **A lower cap.** A browser draws a few thousand boards smoothly, not a million:
//!   `export --format html` keeps [`HTML_DEFAULT_MAX_STATES`] states unless told otherwise and
//!   at most [`HTML_MAX_STATES`], cutting the graph (and saying so) beyond.
//! - **Compact data.** Moves are a flat array `[source, target, label index, ...]` over a table
//!   of distinct labels, so 5,000 Flip 5 x 5 boards and their 40,000 moves are about 1 MB.

use super::StateGraph;
use crate::escape;
use crate::picture::BoardStyle;
use serde::Serialize;

/// The states `export --format html` keeps unless `--max-states` says otherwise: what the page
/// draws and lays out smoothly.
pub const HTML_DEFAULT_MAX_STATES: u64 = 5_000;

/// The most states the page takes: a larger `--max-states` is lowered to this (and the cut said).
pub const HTML_MAX_STATES: u64 = 20_000;

/// The vendored d3 bundle, as published (see `src/graph/vendor/README.md`).
const D3: &str = include_str!("vendor/d3.min.js");
/// What d3's first line is, and what the page writes instead: the same notice without the URL.
const D3_BANNER: &str = "// https://d3js.org v7.9.2 Copyright 2010-2026 Mike Bostock";
const D3_BANNER_IN_PAGE: &str =
    "// d3 v7.9.2, Copyright 2010-2026 Mike Bostock, ISC licence (src/graph/vendor/LICENSE-d3)";
const PAGE_JS: &str = include_str!("html/page.js");
const PAGE_CSS: &str = include_str!("html/page.css");

#[derive(Serialize)]
struct PageData<'a> {
    title: &'a str,
    directed: bool,
    complete: bool,
    cut: Option<String>,
    style: &'a BoardStyle,
    boards: Vec<&'a str>,
    depth: Vec<u32>,
    goal_distance: Vec<Option<u32>>,
    goals: Vec<usize>,
    labels: Vec<&'a str>,
    links: Vec<usize>,
}

/// The graph as a self-contained HTML page titled `title` (the instance's description), its
/// boards drawn by `style`. The same graph gives the same bytes.
///
/// ```
/// use statespace::graph::{self, ExportLimits};
/// use statespace::picture::BoardStyle;
/// use statespace::space::BoardFormat;
/// use statespace::toys::{Lights, LightsGoal};
/// let lights = Lights::new(2, 2, false, LightsGoal::Uniform);
/// let text = |s| lights.format(s);
/// let graph = graph::build(&lights, 0, true, &ExportLimits::default(), text, &mut |_, _| {})
///     .unwrap();
/// let page = graph::to_html(&graph, &BoardStyle::Text, "Lights 2 x 2");
/// assert!(page.starts_with("<!DOCTYPE html>") && page.contains("<title>Lights 2 x 2</title>"));
/// ```
pub fn to_html(graph: &StateGraph, style: &BoardStyle, title: &str) -> String {
    let mut labels: Vec<&str> = Vec::new();
    let mut label_ids: hashbrown::HashMap<&str, usize> = hashbrown::HashMap::new();
    let mut links = Vec::with_capacity(graph.edge_count() * 3);
    for (source, target, edge) in graph.edges() {
        let id = *label_ids.entry(edge.label.as_str()).or_insert_with(|| {
            labels.push(&edge.label);
            labels.len() - 1
        });
        links.extend([source, target, id]);
    }
    let nodes = graph.nodes();
    let data = PageData {
        title,
        directed: graph.is_directed(),
        complete: graph.complete(),
        cut: graph.cut.map(|c| c.to_string()),
        style,
        boards: nodes.iter().map(|n| n.weight.board.as_str()).collect(),
        depth: nodes.iter().map(|n| n.weight.depth).collect(),
        goal_distance: nodes.iter().map(|n| n.weight.goal_distance).collect(),
        goals: (0..nodes.len())
            .filter(|&i| nodes[i].weight.is_goal)
            .collect(),
        labels,
        links,
    };
    // Inside <script>, `</script>` or `<!--` in a board would end or confuse the element: JSON
    // may spell `<` as `\u003c`, and `<` only occurs inside strings.
    let json = serde_json::to_string(&data)
        .expect("plain data serializes")
        .replace('<', "\\u003c");
    let cut = match graph.cut {
        Some(cut) => format!(
            "<div id=\"cut\">Cut: {} at {} states and {} moves. This is not the whole \
             component: goal distances are unknown, and a clicked board's path is the shortest \
             inside this graph (raise --max-states or --depth for more).</div>\n",
            escape::xml(&cut.to_string()),
            graph.node_count(),
            graph.edge_count()
        ),
        None => String::new(),
    };
    let summary = format!(
        "{} states, {} moves{}{}",
        graph.node_count(),
        graph.edge_count(),
        if graph.is_directed() {
            ", directed"
        } else {
            ""
        },
        if graph.complete() {
            ", the whole component"
        } else {
            ", cut"
        }
    );
    let title = escape::xml(title);
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; \
         script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data: blob:\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{title}</title>\n<style>\n{PAGE_CSS}</style>\n</head>\n<body>\n<header>\n\
         <h1>{title}</h1>\n<span id=\"stats\">{summary}</span>\n\
         <button id=\"depth-layout\" type=\"button\" aria-pressed=\"true\">rows by depth</button>\n\
         <button id=\"force-layout\" type=\"button\" aria-pressed=\"false\">force</button>\n\
         <button id=\"fit\" type=\"button\">fit</button>\n\
         <input id=\"find\" type=\"search\" placeholder=\"find a board: rows, e.g. bwb/wbw/bwb\" \
         aria-label=\"find a board by its text\">\n\
         <button id=\"find-button\" type=\"button\">find</button>\n<span id=\"found\"></span>\n\
         <span class=\"legend\"><span style=\"background:#9ecae1\"></span>start\
         <span style=\"background:#a1d99b;border:3px double #31a354\"></span>goal\
         <span style=\"background:#fdae6b\"></span>path to a goal (click a board)</span>\n\
         </header>\n{cut}<div id=\"stage\"><canvas id=\"view\"></canvas><div id=\"tip\" hidden>\
         </div><div id=\"info\"></div></div>\n\
         <script id=\"graph-data\" type=\"application/json\">{json}</script>\n\
         <script>\n{d3}\n</script>\n<script>\n{PAGE_JS}</script>\n</body>\n</html>\n",
        d3 = d3_for_page(),
    )
}

/// The vendored d3 bundle as a page inlines it: its first line, which holds d3's web address,
/// replaced by the same notice without it (so a page holds no URL). Also for other pages that
/// draw with d3 offline (`statespace serve`'s).
pub fn d3_for_page() -> String {
    let (banner, rest) = D3.split_once('\n').expect("d3.min.js has a banner line");
    assert_eq!(
        banner, D3_BANNER,
        "the vendored d3 changed: update D3_BANNER and D3_BANNER_IN_PAGE"
    );
    format!("{D3_BANNER_IN_PAGE}\n{rest}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{ExportLimits, build};
    use crate::toys::{Lights, LightsGoal};

    fn page(max_states: u64, board_text: impl Fn(u64) -> String) -> String {
        let flip = Lights::new(2, 3, false, LightsGoal::Uniform);
        let limits = ExportLimits {
            max_states,
            ..ExportLimits::default()
        };
        let graph = build(&flip, 0b1, true, &limits, board_text, &mut |_, _| {}).unwrap();
        to_html(&graph, &BoardStyle::Text, "Flip <2 x 3>")
    }

    #[test]
    fn the_page_holds_the_graph_and_no_url_but_xml_namespaces() {
        let html = page(100, |s| s.to_string());
        assert!(html.contains("<title>Flip &lt;2 x 3&gt;</title>"));
        assert!(html.contains("16 states, 48 moves, the whole component"));
        assert!(!html.contains("id=\"cut\""));
        let urls = html
            .match_indices("http://")
            .chain(html.match_indices("https://"));
        for (at, _) in urls {
            let rest = &html[at..];
            assert!(
                rest.starts_with("http://www.w3.org/"),
                "a URL in the page: {}",
                &rest[..rest.len().min(60)]
            );
        }
    }

    #[test]
    fn boards_cannot_close_the_script_and_cuts_are_said() {
        let html = page(4, |s| format!("</script><!--{s}"));
        assert!(!html.contains("</script><!--"));
        assert!(html.contains("\\u003c/script>\\u003c!--"));
        assert!(html.contains("<div id=\"cut\">Cut: state limit 4 reached at 4 states"));
    }
}
