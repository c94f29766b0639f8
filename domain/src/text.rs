//! Journal text: citations, sections, reading time, slugs.

use super::accession::is_accession;

/// Accession numbers cited in square brackets, in order of first appearance, each once.
pub fn citations(body: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut rest = body;
    while let Some(open) = rest.find('[') {
        rest = &rest[open + 1..];
        let Some(close) = rest.find(']') else { break };
        let inner = &rest[..close];
        // "[A; B]" and "[A, B]" cite several entries at once.
        for part in inner.split([',', ';']) {
            let id = part.trim();
            if is_accession(id) && !out.iter().any(|c| c == id) {
                out.push(id.to_string());
            }
        }
        rest = &rest[close + 1..];
    }
    out
}

/// Number of `## ` section headings.
pub fn section_count(body: &str) -> usize {
    body.lines().filter(|l| l.starts_with("## ")).count()
}

/// Reading time at 200 words a minute, at least one minute.
pub fn read_minutes(body: &str) -> i64 {
    let words = body.split_whitespace().count() as i64;
    ((words + 199) / 200).max(1)
}

/// A public slug: lower-case letters, digits and single dashes, with at least one letter (so a
/// slug is never mistaken for a numeric id).
pub fn is_slug(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 120
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && s.bytes().any(|b| b.is_ascii_lowercase())
        && !s.starts_with('-')
        && !s.ends_with('-')
        && !s.contains("--")
}

/// `NVDA` + "The Blackwell bottleneck!" → `nvda-the-blackwell-bottleneck`: lower-case letters,
/// digits and single dashes, at most about 80 characters, never all digits (the ticker leads).
pub fn slugify(ticker: &str, title: &str) -> String {
    let mut out = String::new();
    for c in format!("{ticker} {title}").chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
        if out.len() >= 80 {
            break;
        }
    }
    let out = out.trim_end_matches('-').to_string();
    if out.bytes().any(|b| b.is_ascii_lowercase()) {
        out
    } else {
        format!("journal-{out}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_citations_in_order_once() {
        let body = "## A\nx [JM-NVDA-261120-01] y [JM-NVDA-261101-02; JM-NVDA-261120-01]\n[not one] [JM-NVDA-261103-03]";
        assert_eq!(
            citations(body),
            vec![
                "JM-NVDA-261120-01",
                "JM-NVDA-261101-02",
                "JM-NVDA-261103-03"
            ]
        );
        assert!(citations("no brackets [").is_empty());
    }

    #[test]
    fn counts_sections_and_minutes() {
        assert_eq!(section_count("## a\ntext\n## b\n### c"), 2);
        assert_eq!(read_minutes("one two"), 1);
        assert_eq!(read_minutes(&"w ".repeat(401)), 3);
    }

    #[test]
    fn slugs() {
        assert!(is_slug("nvda-the-bottleneck-2"));
        assert!(!is_slug("123"));
        assert!(!is_slug("Bad"));
        assert!(!is_slug("a--b"));
        assert_eq!(
            slugify("NVDA", "The Blackwell bottleneck!"),
            "nvda-the-blackwell-bottleneck"
        );
    }
}

#[cfg(test)]
mod slug_tests {
    use super::*;

    #[test]
    fn slugs_from_titles() {
        assert_eq!(
            slugify("NVDA", "The Blackwell bottleneck!"),
            "nvda-the-blackwell-bottleneck"
        );
        assert_eq!(slugify("", "2026"), "journal-2026");
        assert_eq!(slugify("MSFT", "  Capex — 2027  "), "msft-capex-2027");
        assert!(slugify("NVDA", &"word ".repeat(50)).len() <= 81);
    }
}
