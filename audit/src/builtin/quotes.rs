//! Quotations: text in double quotes, unless it names a story or a series.

use super::QUOTE_MIN_WORDS;

/// Nouns that make the quoted text before them a name (`the "UK and NATO expansion" story`),
/// not a quotation.
const NAME_NOUNS: &[&str] = &[
    "story",
    "stories",
    "series",
    "section",
    "thread",
    "column",
    "chapter",
    "tag",
    "label",
    "programme",
    "program",
    "project",
    "initiative",
    "campaign",
    "page",
];

pub(super) fn quotations(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let t = text.replace(['\u{201c}', '\u{201d}'], "\"");
    let parts: Vec<&str> = t.split('"').collect();
    for (k, q) in parts.iter().enumerate() {
        if k % 2 == 0 || k + 1 >= parts.len() || q.split_whitespace().count() < QUOTE_MIN_WORDS {
            continue;
        }
        let after = parts[k + 1];
        let next = after
            .split(|c: char| !c.is_alphabetic())
            .find(|w| !w.is_empty())
            .unwrap_or("");
        let names = after.starts_with(' ') && NAME_NOUNS.contains(&next);
        if !names {
            out.push(q.trim().to_string());
        }
    }
    out
}
