//! Escaping text for the HTML and SVG the view models write.

/// Escape text for SVG/XML.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    esc_into(&mut out, s);
    out
}

/// [`esc`], appended to `out` (no allocation: tables and heatmaps of
/// thousands of cells are written this way).
pub fn esc_into(out: &mut String, s: &str) {
    let mut rest = s;
    while let Some(i) = rest.find(['&', '<', '>', '"']) {
        out.push_str(&rest[..i]);
        out.push_str(match rest.as_bytes()[i] {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            _ => "&quot;",
        });
        rest = &rest[i + 1..];
    }
    out.push_str(rest);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn esc_escapes_the_four_markup_characters_and_nothing_else() {
        assert_eq!(esc(r#"a<b>&"c"'d é"#), "a&lt;b&gt;&amp;&quot;c&quot;'d é");
        assert_eq!(esc(""), "");
        assert_eq!(esc("&&"), "&amp;&amp;");
        let mut out = String::from("x");
        esc_into(&mut out, "<");
        assert_eq!(out, "x&lt;");
    }
}
