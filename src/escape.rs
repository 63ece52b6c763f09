//! Text made safe for markup: the one escaper of every XML, SVG and HTML writer in the crate
//! (GraphML export, board pictures, bar charts, the HTML page).
//!
//! On the ground floor: it depends on nothing in the crate.

/// Text safe in XML (GraphML, SVG) and HTML content and in double- or single-quoted attributes:
/// `& < > " '` become entities; the control characters XML forbids become U+FFFD (tab, line
/// feed and carriage return stay).
///
/// ```
/// assert_eq!(statespace::escape::xml("R' <b>"), "R&apos; &lt;b&gt;");
/// ```
pub fn xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            // Characters XML forbids even escaped: shown as the replacement character.
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_covers_markup_quotes_and_forbidden_controls() {
        assert_eq!(
            xml("a<b & \"c\" 'd'>\u{1}\n"),
            "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;\u{FFFD}\n"
        );
    }
}
