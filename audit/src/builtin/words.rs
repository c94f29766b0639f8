//! Words as the engine compares them: lower-cased, stop words out, simple suffix stemming.

pub(super) const STOP: &[&str] = &[
    "the",
    "separately",
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
    "whose",
    "whether",
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

/// Whether `w` (lower case) is a stop word: looked up in a set built once, as every token of
/// every sentence asks.
pub(super) fn is_stop(w: &str) -> bool {
    static SET: std::sync::OnceLock<foldhash::HashSet<&'static str>> = std::sync::OnceLock::new();
    SET.get_or_init(|| STOP.iter().copied().collect())
        .contains(w)
}

pub(super) fn stem(w: &str) -> String {
    let mut root = w.to_string();
    // `verification`, `verified` and `verifies` meet at `verify`; `deployment` at `deploy`.
    for (suffix, keep) in [
        ("ication", "y"),
        ("ies", "y"),
        ("ied", "y"),
        ("ing", ""),
        ("ment", ""),
        ("ed", ""),
        ("es", ""),
        ("s", ""),
    ] {
        // A root of four letters at least; three for `-ed` and `-s` (`asked`, `asks`: `ask`).
        let least = if suffix == "ed" || suffix == "s" {
            3
        } else {
            4
        };
        if w.len() >= suffix.len() + least
            && let Some(r) = w.strip_suffix(suffix)
        {
            root = format!("{r}{keep}");
            break;
        }
    }
    // `exceeds` and `exceeded` leave `exceed`, which `exceed` itself lost as `-ed`.
    if root.ends_with("eed") {
        root.truncate(root.len() - 2);
    }
    // Final `e`s go too, so `acquire`, `acquired` and `acquires` meet at `acquir`, and
    // `agree`, `agreed` and `agrees` at `agr`.
    while root.len() > 3 && root.ends_with('e') {
        root.pop();
    }
    // A doubled final consonant is one: `committed`, `commit`; `stopped`, `stop`.
    let b = root.as_bytes();
    if b.len() >= 4 && b[b.len() - 1] == b[b.len() - 2] && !b"aeiou".contains(&b[b.len() - 1]) {
        root.pop();
    }
    root
}

/// Lower-cased, stemmed content words.
pub(super) fn content_words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric() && c != '\'')
        .map(|w| w.trim_matches('\'').to_lowercase())
        .filter(|w| w.len() >= 3 && w.chars().any(char::is_alphabetic))
        .filter(|w| !is_stop(w))
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

/// The handles a text names (`@Tesla_AI`: `tesla_ai`), lower case.
pub(super) fn handles(text: &str) -> Vec<String> {
    text.split('@')
        .skip(1)
        .filter_map(|h| h.split(|c: char| !c.is_alphanumeric() && c != '_').next())
        .filter(|h| !h.is_empty())
        .map(str::to_lowercase)
        .collect()
}
