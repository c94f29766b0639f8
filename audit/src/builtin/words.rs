//! Words as the engine compares them: lower-cased, stop words out, simple suffix stemming.

pub(super) const STOP: &[&str] = &[
    "the",
    "and",
    "for",
    "that",
    "this",
    "with",
    "from",
    "its",
    "are",
    "was",
    "were",
    "has",
    "have",
    "had",
    "but",
    "not",
    "than",
    "then",
    "into",
    "over",
    "more",
    "most",
    "less",
    "about",
    "which",
    "who",
    "whom",
    "what",
    "when",
    "where",
    "while",
    "will",
    "would",
    "could",
    "should",
    "can",
    "may",
    "might",
    "also",
    "been",
    "being",
    "they",
    "them",
    "their",
    "there",
    "these",
    "those",
    "our",
    "out",
    "all",
    "any",
    "each",
    "one",
    "two",
    "its",
    "it's",
    "his",
    "her",
    "she",
    "him",
    "you",
    "your",
    "how",
    "why",
    "did",
    "does",
    "just",
    "only",
    "such",
    "very",
    "some",
    "other",
    "after",
    "before",
    "since",
    "until",
    "through",
    "between",
    "under",
    "above",
    "again",
    "same",
    "both",
    "own",
    "per",
    "via",
    "yet",
    "still",
    "even",
    "much",
    "many",
    "here",
    "now",
    "said",
    "says",
    "say",
    "according",
    "reported",
    "reports",
    "report",
];

pub(super) fn stem(w: &str) -> String {
    for (suffix, keep) in [("ies", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")] {
        if w.len() > suffix.len() + 3
            && let Some(root) = w.strip_suffix(suffix)
        {
            return format!("{root}{keep}");
        }
    }
    w.to_string()
}

/// Lower-cased, stemmed content words.
pub(super) fn content_words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric() && c != '\'')
        .map(|w| w.trim_matches('\'').to_lowercase())
        .filter(|w| w.len() >= 3 && w.chars().any(char::is_alphabetic))
        .filter(|w| !STOP.contains(&w.as_str()))
        .map(|w| stem(&w))
        .collect()
}

/// Lower case, letters and digits, single spaces: for finding quotations.
pub(super) fn normal(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                ' '
            }
        })
        .collect::<String>()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}
