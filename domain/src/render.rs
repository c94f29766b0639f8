//! Journal text to HTML: `## ` headings, paragraphs, and citations linked to their entries.
//! Everything from the text is escaped; only the tags made here reach the markup.

use super::accession::is_accession;

/// Appends `s` to `out` with `& < > " '` escaped (HTML text and attributes, and XML).
pub fn escape(s: &str, out: &mut String) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
}

/// Escapes a line and turns `[ACCESSION]` into a link to the entry's page.
fn inline(line: &str, origin: &str, out: &mut String) {
    let mut rest = line;
    while let Some(open) = rest.find('[') {
        let after = &rest[open + 1..];
        match after.find(']') {
            Some(close) if is_accession(&after[..close]) => {
                escape(&rest[..open], out);
                let id = &after[..close];
                out.push_str(&format!(
                    "<a class=\"cite\" href=\"{origin}/entry/{id}\">[{id}]</a>"
                ));
                rest = &after[close + 1..];
            }
            _ => {
                escape(&rest[..=open], out);
                rest = after;
            }
        }
    }
    escape(rest, out);
}

pub fn to_html(body: &str, origin: &str) -> String {
    let mut out = String::with_capacity(body.len() + body.len() / 4);
    let mut para: Vec<&str> = Vec::new();
    let flush = |para: &mut Vec<&str>, out: &mut String| {
        if !para.is_empty() {
            out.push_str("<p>");
            inline(&para.join(" "), origin, out);
            out.push_str("</p>\n");
            para.clear();
        }
    };
    for line in body.lines() {
        let t = line.trim();
        if let Some(h) = t.strip_prefix("## ") {
            flush(&mut para, &mut out);
            out.push_str("<h2>");
            inline(h, origin, &mut out);
            out.push_str("</h2>\n");
        } else if t.is_empty() {
            flush(&mut para, &mut out);
        } else {
            para.push(t);
        }
    }
    flush(&mut para, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_sections_paragraphs_and_citations() {
        let html = to_html(
            "## Supply <chains>\nLine one [JM-NVDA-261120-01]\nline two.\n\nNext [not one] & done.",
            "https://o",
        );
        assert_eq!(
            html,
            "<h2>Supply &lt;chains&gt;</h2>\n<p>Line one <a class=\"cite\" href=\"https://o/entry/JM-NVDA-261120-01\">[JM-NVDA-261120-01]</a> line two.</p>\n<p>Next [not one] &amp; done.</p>\n"
        );
    }

    #[test]
    fn scripts_are_escaped() {
        assert!(!to_html("<script>alert(1)</script>", "o").contains("<script>"));
    }
}
