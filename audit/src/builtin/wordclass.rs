//! What a word states beyond its lemma: a number or a rank written in words, a decade, the
//! adjective of an adverb. Default deny reads units with these (`support`).

use super::tokens::{Kind, Tok};
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

const DECADES: &[(&str, u32)] = &[
    ("twenties", 1920),
    ("thirties", 1930),
    ("forties", 1940),
    ("fifties", 1950),
    ("sixties", 1960),
    ("seventies", 1970),
    ("eighties", 1980),
    ("nineties", 1990),
];

/// The decade token `i` names: `1970s`, `1970's`, `the eighties` (of the 1900s).
pub(super) fn decade(toks: &[Tok], i: usize) -> Option<u32> {
    let t = &toks[i];
    let year = |digits: &str| {
        digits
            .parse::<u32>()
            .ok()
            .filter(|y| digits.len() == 4 && y % 10 == 0)
    };
    match t.kind {
        // `1970's`: the number, then its `s`.
        Kind::Number => toks
            .get(i + 1)
            .filter(|n| n.word == "s")
            .and_then(|_| year(&t.anchor)),
        Kind::Word => t
            .word
            .strip_suffix('s')
            .and_then(year)
            .or_else(|| DECADES.iter().find(|(w, _)| *w == t.word).map(|(_, d)| *d)),
        Kind::Break => None,
    }
}

/// The decade of a year (`1978` is of the `1970s`).
pub(super) fn decade_of(t: &Tok) -> Option<u32> {
    let y = t.anchor.parse::<u32>().ok()?;
    (t.kind == Kind::Number && t.anchor.len() == 4 && (1000..=2100).contains(&y))
        .then(|| y / 10 * 10)
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
    fn decades() {
        let t = super::super::tokens::tokenize("in the early 1970's, the 1980s and the sixties");
        let found: Vec<u32> = (0..t.len()).filter_map(|i| decade(&t, i)).collect();
        assert_eq!(found, vec![1970, 1980, 1960]);
    }

    #[test]
    fn adverbs_of_adjectives() {
        assert_eq!(adverb_base("positively").as_deref(), Some("positive"));
        assert_eq!(adverb_base("happily").as_deref(), Some("happy"));
        assert_eq!(adverb_base("only"), None);
    }
}
