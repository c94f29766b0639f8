//! Names of companies and people in a draft's sentence that its cited entries never use.

use super::align::Parsed;
use super::tokens::Kind;

/// Capitalised words that are not names: sentence openers, titles, common abbreviations.
const COMMON: &[&str] = &[
    "the",
    "a",
    "an",
    "on",
    "in",
    "at",
    "by",
    "for",
    "from",
    "of",
    "to",
    "as",
    "if",
    "when",
    "where",
    "what",
    "which",
    "who",
    "why",
    "how",
    "there",
    "here",
    "it",
    "its",
    "we",
    "they",
    "he",
    "she",
    "our",
    "their",
    "this",
    "that",
    "these",
    "those",
    "both",
    "each",
    "another",
    "such",
    "even",
    "yet",
    "so",
    "thus",
    "still",
    "also",
    "meanwhile",
    "however",
    "separately",
    "later",
    "earlier",
    "today",
    "yesterday",
    "last",
    "next",
    "overall",
    "together",
    "taken",
    "after",
    "before",
    "since",
    "while",
    "although",
    "though",
    "because",
    "despite",
    "with",
    "without",
    "under",
    "over",
    "no",
    "not",
    "none",
    "some",
    "most",
    "many",
    "much",
    "more",
    "less",
    "few",
    "several",
    "all",
    "any",
    "one",
    "two",
    "three",
    "first",
    "second",
    "third",
    "new",
    "former",
    "current",
    "according",
    "chief",
    "executive",
    "officer",
    "president",
    "vice",
    "senior",
    "head",
    "analyst",
    "analysts",
    "company",
    "board",
    "ceo",
    "cfo",
    "cto",
    "coo",
    "ai",
    "gpu",
    "gpus",
    "cpu",
    "cpus",
    "ev",
    "evs",
    "fy",
    "etf",
    "eps",
    "capex",
    "llm",
    "hbm",
    "api",
    "saas",
    "ipo",
    "q1",
    "q2",
    "q3",
    "q4",
    "h1",
    "h2",
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
    "reviewer",
    "note",
    "update",
    "shares",
    "investors",
];

/// Short and long forms of one name: either may stand in the draft for the other in a source.
const ALIASES: &[(&str, &str)] = &[
    ("uk", "united kingdom"),
    ("britain", "united kingdom"),
    ("us", "united states"),
    ("usa", "united states"),
    ("america", "united states"),
    ("eu", "european union"),
    ("sec", "securities and exchange commission"),
    ("nhtsa", "national highway traffic safety administration"),
    ("ft", "financial times"),
    ("amd", "advanced micro devices"),
    ("google", "alphabet"),
    ("meta", "facebook"),
    ("mod", "ministry of defence"),
    ("dod", "pentagon"),
    ("jpmorgan", "j.p. morgan"),
    ("tsmc", "taiwan semiconductor"),
];

/// Whether `w` (lower case) is known through an alias: its other form is known.
fn alias_known(w: &str, known: &dyn Fn(&str) -> bool) -> bool {
    ALIASES.iter().any(|(short, long)| {
        let all_known = |s: &str| s.split([' ', '.']).filter(|p| !p.is_empty()).all(known);
        (w == *short && all_known(long))
            || (long.split(' ').any(|p| p == w) && (known(short) || all_known(long)))
    })
}

/// Whether token `i` of `d` is (a word of) a name: capitalised, not a common word; the
/// sentence's first word (`first`) only when it looks like a name (an inner capital or digit, a
/// possessive, another capitalised word after it) or is written in lower case nowhere
/// (`lower_case`).
pub(super) fn is_name(
    d: &Parsed,
    i: usize,
    first: Option<usize>,
    lower_case: &foldhash::HashSet<String>,
) -> bool {
    let t = &d.toks[i];
    let raw = t.raw.as_str();
    let mut chars = raw.chars();
    let capital = chars.next().is_some_and(char::is_uppercase);
    if !capital
        || raw.chars().count() < 3
        || raw.contains('.')
        || COMMON.contains(&t.word.as_str())
        || super::dates::is_month(&t.word)
        || (super::dates::is_short_month(&t.word)
            && d.toks.get(i + 1).is_some_and(|n| n.kind == Kind::Number))
        || d.text.contains(&format!("@{raw}"))
    {
        return false;
    }
    // A contraction (`We'll`) or a pronoun is never a name.
    if raw.contains(['\'', '\u{2019}']) || PRONOUNS.contains(&t.word.as_str()) {
        return false;
    }
    if Some(i) != first {
        return true;
    }
    // The sentence's first word is capitalised anyway: a name when it looks like one, or
    // when it is written in lower case nowhere.
    let inner = chars.any(|c| c.is_uppercase() || c.is_ascii_digit());
    let next_cap = d
        .toks
        .get(i + 1)
        .is_some_and(|n| n.kind == Kind::Word && n.raw.starts_with(char::is_uppercase));
    let possessive =
        d.text.contains(&format!("{raw}'s")) || d.text.contains(&format!("{raw}\u{2019}s"));
    inner || next_cap || possessive || !lower_case.contains(&t.word)
}

/// Pronouns, capitalised at a sentence's start.
const PRONOUNS: &[&str] = &[
    "we", "our", "ours", "us", "they", "their", "them", "you", "your", "he", "his", "him", "she",
    "her", "it", "its", "this", "that", "these", "those", "who", "which", "what",
];

/// What a name is checked against.
pub(super) struct Known<'a> {
    /// Whether a word (lower case) occurs in the cited entries or is the company's name.
    pub(super) word: &'a dyn Fn(&str) -> bool,
    /// Handles of posts the entries cite (`@ssankar`), lower case, without the `@`: a person's
    /// name may stand for their handle.
    pub(super) handles: &'a [String],
    /// Words the draft or the entries write in lower case somewhere: common words, not names.
    pub(super) lower_case: &'a foldhash::HashSet<String>,
}

/// The names of `d` with a word none of the cited entries use (consecutive capitalised words
/// make one name), as written.
pub(super) fn unsupported(d: &Parsed, k: &Known<'_>) -> Vec<String> {
    let words: Vec<usize> = (0..d.toks.len())
        .filter(|&i| d.toks[i].kind == Kind::Word)
        .collect();
    // A sentence's first word is no name here: default deny asks a source for it as a word.
    let is_name = |i: usize| Some(&i) != words.first() && is_name(d, i, None, k.lower_case);
    // Each capitalised part of a word (`NVIDIA-based`: `NVIDIA`) must be known.
    let unknown_parts = |i: usize| {
        d.toks[i]
            .raw
            .split(['-', '&'])
            .filter(|p| p.starts_with(char::is_uppercase))
            .map(str::to_lowercase)
            .any(|p| !(k.word)(&p) && !alias_known(&p, k.word))
    };
    let in_handle = |i: usize| {
        let w = &d.toks[i].word;
        w.len() >= 3 && k.handles.iter().any(|h| h.contains(w.as_str()))
    };
    // Consecutive name words, as groups of token indices.
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for &i in words.iter().filter(|&&i| is_name(i)) {
        match groups.last_mut() {
            Some(g) if g.last().is_some_and(|&l| l + 1 == i) => g.push(i),
            _ => groups.push(vec![i]),
        }
    }
    groups
        .into_iter()
        // The sentence's first word, no name here, still names with the words after it
        // (`Greg Joswiak posted` for `@gregjoz`).
        .filter(|g| {
            let opening = words.first().filter(|&&f| {
                g.first() == Some(&(f + 1)) && d.toks[f].raw.starts_with(char::is_uppercase)
            });
            g.iter().any(|&i| unknown_parts(i)) && !g.iter().chain(opening).any(|&i| in_handle(i))
        })
        .map(|g| {
            g.iter()
                .map(|&i| d.toks[i].raw.as_str())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}
