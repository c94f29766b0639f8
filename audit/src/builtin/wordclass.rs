//! What a word states beyond its lemma: a number or a rank written in words, the adjective of
//! an adverb. Default deny reads units with these (`support`).

use super::wordnet;

const CARDINALS: &[&str] = &[
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
    "twenty",
];

const ORDINALS: &[&str] = &[
    "zeroth",
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
    "tenth",
    "eleventh",
    "twelfth",
    "thirteenth",
    "fourteenth",
    "fifteenth",
    "sixteenth",
    "seventeenth",
    "eighteenth",
    "nineteenth",
    "twentieth",
];

const TENS: &[(&str, u32)] = &[
    ("thirty", 30),
    ("forty", 40),
    ("fifty", 50),
    ("sixty", 60),
    ("seventy", 70),
    ("eighty", 80),
    ("ninety", 90),
    ("hundred", 100),
];

/// The value of a number written as a word (`zero`, `nine`, `forty`). Not `one`, which is as
/// often a pronoun (`one of the`).
pub(super) fn cardinal(w: &str) -> Option<u32> {
    if w == "one" {
        return None;
    }
    CARDINALS
        .iter()
        .position(|c| *c == w)
        .and_then(|n| u32::try_from(n).ok())
        .or_else(|| TENS.iter().find(|(t, _)| *t == w).map(|(_, n)| *n))
}

/// The rank an ordinal states: `fifth` 5, `22nd` 22.
pub(super) fn ordinal(w: &str) -> Option<u32> {
    if let Some(n) = ORDINALS.iter().position(|o| *o == w) {
        return u32::try_from(n).ok();
    }
    let digits = w.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let suffix = &w[digits.len()..];
    matches!(suffix, "st" | "nd" | "rd" | "th")
        .then(|| digits.parse().ok())
        .flatten()
}

/// The adjective an adverb is made of: `positively` → `positive`, `happily` → `happy`.
pub(super) fn adverb_base(w: &str) -> Option<String> {
    let stem = w.strip_suffix("ly")?;
    let candidates = [
        stem.to_string(),
        format!("{}y", stem.strip_suffix('i').unwrap_or(stem)),
        format!("{stem}le"),
    ];
    candidates
        .into_iter()
        .find(|c| c.len() >= 3 && wordnet::is_adjective(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_ranks_in_words() {
        assert_eq!(cardinal("zero"), Some(0));
        assert_eq!(cardinal("nine"), Some(9));
        assert_eq!(cardinal("forty"), Some(40));
        assert_eq!(cardinal("one"), None);
        assert_eq!(ordinal("fifth"), Some(5));
        assert_eq!(ordinal("22nd"), Some(22));
        assert_eq!(ordinal("1930s"), None);
    }

    #[test]
    fn adverbs_of_adjectives() {
        assert_eq!(adverb_base("positively").as_deref(), Some("positive"));
        assert_eq!(adverb_base("happily").as_deref(), Some("happy"));
        assert_eq!(adverb_base("only"), None);
    }
}
