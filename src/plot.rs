//! A bar chart as SVG text: [`histogram_svg`], for depth histograms (`explore --plot`).
//!
//! # Why a hand-written writer
//!
//! A histogram is rectangles, lines and text on a fixed canvas: about a hundred lines of SVG
//! markup. plotters would draw it too, but even with only its SVG backend it brings a text-layout
//! stack and font handling this chart does not need (SVG viewers lay out the text), and its
//! output is harder to keep byte-for-byte stable across its releases. Written here, the output is
//! deterministic (every coordinate printed with one decimal), dependency-free and small.
//!
//! # The chart
//!
//! A 640 x 400 canvas: the title on top; bars for `counts[0]`, `counts[1]`, ... left to right,
//! labelled below by their index (every k-th index when they would overlap); a y axis from 0 to
//! a round number above the largest count, with 4 to 8 ticks at 1, 2 or 5 times a power of ten
//! and light grid lines; each bar's value above it when the number fits the bar's slot. Text
//! widths are estimated (0.6 em per character in a sans-serif font), which is what decides
//! "fits"; a viewer's real font may be a little narrower or wider.

use crate::escape;
use std::fmt::Write;

const WIDTH: f64 = 640.0;
const HEIGHT: f64 = 400.0;
/// The plot area: left of it the y tick labels and axis label, below it the x ones.
const LEFT: f64 = 80.0;
const RIGHT: f64 = 620.0;
const TOP: f64 = 56.0;
const BOTTOM: f64 = 340.0;
/// Share of a bar's slot the bar fills; the rest is the gap between bars.
const BAR_FILL: f64 = 0.8;
const TICK_FONT: f64 = 11.0;
const VALUE_FONT: f64 = 10.0;
/// Estimated advance of one character, in ems, for a sans-serif font.
const CHAR_EM: f64 = 0.6;

/// An SVG bar chart of `counts` (bar `i` is `counts[i]`), with a title and axis labels.
///
/// The same arguments give the same bytes. An empty `counts` gives the axes and no bars.
///
/// ```
/// let svg = statespace::plot::histogram_svg("Flip 2 x 2", "presses", "boards", &[1, 4, 6, 4, 1]);
/// assert!(svg.starts_with("<svg"));
/// assert_eq!(svg.matches("class=\"bar\"").count(), 5);
/// ```
pub fn histogram_svg(title: &str, x_label: &str, y_label: &str, counts: &[u64]) -> String {
    let max = counts.iter().copied().max().unwrap_or(0);
    let (step, top) = y_scale(max);
    let y_of = |value: u128| BOTTOM - (BOTTOM - TOP) * value as f64 / top as f64;
    let slot = (RIGHT - LEFT) / counts.len().max(1) as f64;

    let mut svg = String::new();
    writeln!(
        svg,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{HEIGHT}\" \
         viewBox=\"0 0 {WIDTH} {HEIGHT}\" font-family=\"sans-serif\">"
    )
    .unwrap();
    writeln!(svg, "<title>{}</title>", escape::xml(title)).unwrap();
    svg.push_str("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
    writeln!(
        svg,
        "<text x=\"{:.1}\" y=\"30\" text-anchor=\"middle\" font-size=\"16\" font-weight=\"bold\">{}</text>",
        WIDTH / 2.0,
        escape::xml(title)
    )
    .unwrap();

    // Y grid, ticks and their labels.
    let mut value = 0;
    while value <= top {
        let y = y_of(value);
        writeln!(
            svg,
            "<line x1=\"{LEFT:.1}\" y1=\"{y:.1}\" x2=\"{RIGHT:.1}\" y2=\"{y:.1}\" stroke=\"#e0e0e0\"/>"
        )
        .unwrap();
        writeln!(
            svg,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\" font-size=\"{TICK_FONT}\">{value}</text>",
            LEFT - 6.0,
            y + TICK_FONT * 0.35
        )
        .unwrap();
        value += step;
    }

    // Bars, their values, and the x tick labels (every `label_every`-th when they would collide).
    let widest_index = counts.len().saturating_sub(1).to_string().len();
    let label_every = (text_width(widest_index, TICK_FONT) / (slot * 0.9))
        .ceil()
        .max(1.0) as usize;
    for (i, &count) in counts.iter().enumerate() {
        let x = LEFT + slot * i as f64 + slot * (1.0 - BAR_FILL) / 2.0;
        let width = slot * BAR_FILL;
        let y = y_of(count as u128);
        let center = x + width / 2.0;
        writeln!(
            svg,
            "<rect class=\"bar\" x=\"{x:.1}\" y=\"{y:.1}\" width=\"{width:.1}\" height=\"{:.1}\" \
             fill=\"#4c78a8\"><title>{i}: {count}</title></rect>",
            BOTTOM - y
        )
        .unwrap();
        if text_width(count.to_string().len(), VALUE_FONT) <= slot * 0.95 {
            writeln!(
                svg,
                "<text class=\"value\" x=\"{center:.1}\" y=\"{:.1}\" text-anchor=\"middle\" \
                 font-size=\"{VALUE_FONT}\">{count}</text>",
                y - 4.0
            )
            .unwrap();
        }
        if i % label_every == 0 {
            writeln!(
                svg,
                "<text x=\"{center:.1}\" y=\"{:.1}\" text-anchor=\"middle\" font-size=\"{TICK_FONT}\">{i}</text>",
                BOTTOM + 16.0
            )
            .unwrap();
        }
    }

    // Axes on top of the bars, then their labels.
    writeln!(
        svg,
        "<path d=\"M{LEFT:.1},{TOP:.1} V{BOTTOM:.1} H{RIGHT:.1}\" fill=\"none\" stroke=\"black\"/>"
    )
    .unwrap();
    writeln!(
        svg,
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" font-size=\"13\">{}</text>",
        (LEFT + RIGHT) / 2.0,
        BOTTOM + 44.0,
        escape::xml(x_label)
    )
    .unwrap();
    let middle = (TOP + BOTTOM) / 2.0;
    writeln!(
        svg,
        "<text x=\"20\" y=\"{middle:.1}\" text-anchor=\"middle\" font-size=\"13\" \
         transform=\"rotate(-90 20 {middle:.1})\">{}</text>",
        escape::xml(y_label)
    )
    .unwrap();
    svg.push_str("</svg>\n");
    svg
}

/// The y tick step and the axis top: the smallest "nice" step (1, 2 or 5 times a power of ten)
/// that covers `max` in at most 8 ticks, and the first multiple of it at or above `max`.
fn y_scale(max: u64) -> (u128, u128) {
    // u128: the top may pass u64::MAX when the largest count is near it.
    let max = max as u128;
    if max == 0 {
        return (1, 1);
    }
    let mut power = 1u128;
    loop {
        for factor in [1, 2, 5] {
            let step = factor * power;
            let ticks = max.div_ceil(step);
            if ticks <= 8 {
                return (step, ticks * step);
            }
        }
        power *= 10;
    }
}

/// Estimated width of `chars` characters at `font_size`.
fn text_width(chars: usize, font_size: f64) -> f64 {
    chars as f64 * font_size * CHAR_EM
}

#[cfg(test)]
mod tests {
    use super::*;

    const FLIP_4X4: [u64; 7] = [2, 32, 228, 880, 1562, 1136, 256];

    fn parse(svg: &str) -> roxmltree::Document<'_> {
        roxmltree::Document::parse(svg).expect("the SVG is well-formed XML")
    }

    fn with_class<'a>(doc: &'a roxmltree::Document, class: &str) -> Vec<roxmltree::Node<'a, 'a>> {
        doc.descendants()
            .filter(|n| n.attribute("class") == Some(class))
            .collect()
    }

    #[test]
    fn one_bar_per_count_with_heights_in_proportion() {
        let svg = histogram_svg("Flip 4 x 4", "presses", "boards", &FLIP_4X4);
        let doc = parse(&svg);
        let bars = with_class(&doc, "bar");
        assert_eq!(bars.len(), FLIP_4X4.len());
        let height = |n: &roxmltree::Node| n.attribute("height").unwrap().parse::<f64>().unwrap();
        // 1562 is the tallest; 256 is about a sixth of it.
        let ratio = height(&bars[6]) / height(&bars[4]);
        assert!((ratio - 256.0 / 1562.0).abs() < 0.01, "{ratio}");
        // Seven bars leave room for every value.
        let values: Vec<_> = with_class(&doc, "value")
            .iter()
            .map(|n| n.text().unwrap().to_string())
            .collect();
        assert_eq!(values, FLIP_4X4.map(|c| c.to_string()));
        assert_eq!(doc.root_element().tag_name().name(), "svg");
    }

    #[test]
    fn same_input_same_bytes_and_text_is_escaped() {
        let a = histogram_svg("a < b & c", "x", "y", &[3, 1]);
        assert_eq!(a, histogram_svg("a < b & c", "x", "y", &[3, 1]));
        let doc = parse(&a);
        let title = doc.descendants().find(|n| n.has_tag_name("title")).unwrap();
        assert_eq!(title.text(), Some("a < b & c"));
    }

    #[test]
    fn crowded_charts_thin_their_labels_and_empty_ones_still_parse() {
        let counts: Vec<u64> = (0..200).map(|i| i * 1000).collect();
        let svg = histogram_svg("many", "x", "y", &counts);
        let doc = parse(&svg);
        assert_eq!(with_class(&doc, "bar").len(), 200);
        assert!(
            with_class(&doc, "value").is_empty(),
            "values do not fit 2.7 px bars"
        );
        let empty = histogram_svg("none", "x", "y", &[]);
        assert!(with_class(&parse(&empty), "bar").is_empty());
    }

    #[test]
    fn the_y_axis_ends_on_a_round_number() {
        assert_eq!(y_scale(1562), (200, 1600));
        assert_eq!(y_scale(7), (1, 7));
        assert_eq!(y_scale(9), (2, 10));
        assert_eq!(y_scale(0), (1, 1));
        assert!(y_scale(u64::MAX).1 >= u64::MAX as u128);
    }
}
