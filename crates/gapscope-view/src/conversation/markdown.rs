//! Markdown as safe HTML for the trajectory viewer (pulldown-cmark, as the
//! issue allows in this layer): the text of a message can never inject
//! markup or make the page fetch anything.
//!
//! - Raw HTML (`<img src=x onerror=…>`, `<script>`, a whole HTML block) is
//!   shown as text: inline HTML becomes escaped text, an HTML block a code
//!   block.
//! - Links keep their `href` only for `http:`, `https:` and `mailto:` (they
//!   open in a new tab, without referrer); any other target (`javascript:`,
//!   a relative path) is dropped and the link's text kept.
//! - Images: a `data:image/…` source is an inline thumbnail (no request);
//!   any other source is shown as text, `[image: ALT — URL]`, and never
//!   fetched.

use pulldown_cmark::{CodeBlockKind, CowStr, Event, Options, Parser, Tag, TagEnd};

use crate::markup::esc;

/// Whether a URL may be an `<img>` source: an embedded image only.
pub fn is_data_image(url: &str) -> bool {
    url.get(..11)
        .is_some_and(|p| p.eq_ignore_ascii_case("data:image/"))
}

/// Whether a URL may be a link's `href`.
fn is_safe_link(url: &str) -> bool {
    let lower = url.trim_start().to_ascii_lowercase();
    ["http://", "https://", "mailto:"]
        .iter()
        .any(|s| lower.starts_with(s))
}

/// An embedded image as a thumbnail (click or focus shows it whole through
/// the page's CSS), or a remote one as its URL in text.
pub fn image_html(url: &str, alt: &str) -> String {
    if is_data_image(url) {
        format!(
            r#"<img class="thumb" src="{}" alt="{}" loading="lazy" tabindex="0">"#,
            esc(url),
            esc(if alt.is_empty() {
                "embedded image"
            } else {
                alt
            })
        )
    } else if alt.is_empty() {
        format!(r#"<span class="remote-image">[image: {}]</span>"#, esc(url))
    } else {
        format!(
            r#"<span class="remote-image">[image: {} — {}]</span>"#,
            esc(alt),
            esc(url)
        )
    }
}

/// `text` (Markdown) as HTML: escaped, with the rules of this module.
pub fn to_html(text: &str) -> String {
    let mut options = Options::empty();
    options.insert(Options::ENABLE_TABLES);
    options.insert(Options::ENABLE_STRIKETHROUGH);
    options.insert(Options::ENABLE_TASKLISTS);
    let mut events: Vec<Event<'_>> = Vec::new();
    // Inside an image: its alt text is collected, its events dropped.
    let mut image: Option<(String, String)> = None;
    // Per open link: whether its tags are kept.
    let mut links: Vec<bool> = Vec::new();
    for event in Parser::new_ext(text, options) {
        if let Some((url, alt)) = image.as_mut() {
            match event {
                Event::End(TagEnd::Image) => {
                    let html = image_html(url, alt);
                    events.push(Event::InlineHtml(CowStr::from(html)));
                    image = None;
                }
                Event::Text(t) | Event::Code(t) => alt.push_str(&t),
                _ => {}
            }
            continue;
        }
        match event {
            Event::Html(h) | Event::InlineHtml(h) => events.push(Event::Text(h)),
            Event::Start(Tag::HtmlBlock) => {
                events.push(Event::Start(Tag::CodeBlock(CodeBlockKind::Indented)));
            }
            Event::End(TagEnd::HtmlBlock) => events.push(Event::End(TagEnd::CodeBlock)),
            Event::Start(Tag::Image { dest_url, .. }) => {
                image = Some((dest_url.to_string(), String::new()));
            }
            Event::Start(Tag::Link { dest_url, .. }) => {
                let keep = is_safe_link(&dest_url);
                links.push(keep);
                if keep {
                    events.push(Event::InlineHtml(CowStr::from(format!(
                        r#"<a href="{}" target="_blank" rel="noopener noreferrer">"#,
                        esc(&dest_url)
                    ))));
                }
            }
            Event::End(TagEnd::Link) => {
                if links.pop() == Some(true) {
                    events.push(Event::InlineHtml(CowStr::from("</a>")));
                }
            }
            other => events.push(other),
        }
    }
    let mut out = String::with_capacity(text.len() + text.len() / 4);
    pulldown_cmark::html::push_html(&mut out, events.into_iter());
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn markdown_renders() {
        assert_eq!(
            to_html("**bold** and `code`"),
            "<p><strong>bold</strong> and <code>code</code></p>\n"
        );
        assert!(to_html("- a\n- b").contains("<li>a</li>"));
        assert!(to_html("| a | b |\n|---|---|\n| 1 | 2 |").contains("<td>1</td>"));
        assert!(to_html("```py\nx = 1\n```").contains("<code class=\"language-py\">x = 1"));
    }

    #[test]
    fn raw_html_is_text() {
        let h = to_html("hi <img src=x onerror=alert(1)> there");
        assert!(!h.contains("<img"), "{h}");
        assert!(h.contains("&lt;img src=x onerror=alert(1)&gt;"), "{h}");
        let block = to_html("<script>alert(1)</script>\n\nafter");
        assert!(!block.contains("<script"), "{block}");
        assert!(
            block.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
            "{block}"
        );
        assert!(block.contains("<p>after</p>"), "{block}");
        // An attribute cannot be broken out of.
        let q = to_html(r#"[x](https://a.example/"onmouseover="alert(1))"#);
        assert!(!q.contains(r#""onmouseover"#), "{q}");
    }

    #[test]
    fn only_web_links_keep_their_target() {
        let ok = to_html("[site](https://example.org/a?b=1&c=2)");
        assert_eq!(
            ok,
            "<p><a href=\"https://example.org/a?b=1&amp;c=2\" target=\"_blank\" rel=\"noopener noreferrer\">site</a></p>\n"
        );
        let js = to_html("[click](javascript:alert(1)) and [rel](../x)");
        assert_eq!(js, "<p>click and rel</p>\n");
        let auto = to_html("<https://example.org>");
        assert!(auto.contains("href=\"https://example.org\""), "{auto}");
    }

    #[test]
    fn images_embedded_are_thumbnails_and_remote_ones_text() {
        let data = "data:image/png;base64,iVBORw0KGgo=";
        let h = to_html(&format!("see ![a *chart*]({data})"));
        assert!(
            h.contains(&format!(r#"<img class="thumb" src="{data}" alt="a chart""#)),
            "{h}"
        );
        let remote = to_html("![logo](https://tracker.example/p.gif)");
        assert!(!remote.contains("<img"), "{remote}");
        assert!(
            remote.contains("[image: logo — https://tracker.example/p.gif]"),
            "{remote}"
        );
        assert!(is_data_image("DATA:image/jpeg;base64,xx"));
        assert!(!is_data_image("data:text/html,<b>"));
    }
}
