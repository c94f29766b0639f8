//! The built-in engine: deterministic, no network. It reads every sentence of the body against
//! the entries it cites (title, summary and `source.says`) and reports what they do not carry.
//! Checks, thresholds and weights: docs/audit-engine.md.

use std::collections::{HashMap, HashSet};

use crate::report::{Check, Issue, Report, Severity, judge};
use crate::{Source, Submission};

pub const ENGINE: &str = "builtin-1";
/// A cited sentence needs this many content words before its drift is measured.
pub const DRIFT_MIN_WORDS: usize = 6;
/// Share of a cited sentence's content words found in its sources under which it drifts
/// (minor), and under which it is about something else (major).
pub const DRIFT_MINOR: f64 = 0.25;
pub const DRIFT_MAJOR: f64 = 0.10;
/// Share of the dek's content words the body must hold.
pub const DEK_OVERLAP: f64 = 0.30;
/// A quotation is this many words or more (shorter quoted text is a term, not a quote).
pub const QUOTE_MIN_WORDS: usize = 4;

const STOP: &[&str] = &[
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

const HEDGED_SOURCE: &[&str] = &[
    "could not be independently confirmed",
    "could not be independently verified",
    "not independently verified",
    "not been independently",
    "unconfirmed",
    "people familiar",
    "familiar with the matter",
    "rumor",
    "rumour",
    "not verified",
    "unverified",
    "alleged",
    "reportedly",
    "declined to comment",
];

const HEDGE_WORDS: &[&str] = &[
    "reportedly",
    "according to",
    "said",
    "says",
    "claimed",
    "claims",
    "unconfirmed",
    "may ",
    "might",
    "could",
    "alleged",
    "reported",
    "if ",
    "rumor",
    "rumour",
    "suggest",
    "appear",
    "unverified",
    "report",
    "called",
    "told",
    "posted",
    "wrote",
    "estimate",
    "expect",
    "believe",
];

const MONTHS: &[&str] = &[
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
    "jan",
    "feb",
    "mar",
    "apr",
    "jun",
    "jul",
    "aug",
    "sep",
    "sept",
    "oct",
    "nov",
    "dec",
];

/// Accession shape: `<PREFIX>-<TICKER>-<yymmdd>-<nn>`.
pub fn is_accession(s: &str) -> bool {
    let parts: Vec<&str> = s.split('-').collect();
    parts.len() == 4
        && (1..=8).contains(&parts[0].len())
        && parts[0].bytes().all(|b| b.is_ascii_uppercase())
        && (1..=10).contains(&parts[1].len())
        && parts[1]
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'.')
        && parts[2].len() == 6
        && parts[2].bytes().all(|b| b.is_ascii_digit())
        && parts[3].len() == 2
        && parts[3].bytes().all(|b| b.is_ascii_digit())
}

/// The text without its bracketed citations, and the accession numbers they cite.
fn strip_citations(text: &str) -> (String, Vec<String>) {
    let mut clean = String::with_capacity(text.len());
    let mut cites = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('[') {
        clean.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let Some(close) = after.find(']') else {
            clean.push_str(&rest[open..]);
            rest = "";
            break;
        };
        let ids: Vec<&str> = after[..close].split([',', ';']).map(str::trim).collect();
        if !ids.is_empty() && ids.iter().all(|i| is_accession(i)) {
            cites.extend(ids.iter().map(|i| i.to_string()));
        } else {
            clean.push_str(&rest[open..open + close + 2]);
        }
        rest = &after[close + 1..];
    }
    clean.push_str(rest);
    (clean, cites)
}

#[derive(Debug)]
struct Sentence {
    text: String,
    cites: Vec<String>,
    paragraph: usize,
}

/// Splits at `.`, `!` or `?` followed by white space (so `1.2` and `U.S.-made` stay whole).
fn split_sentences(paragraph: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let bytes = paragraph.as_bytes();
    let mut start = 0;
    for i in 0..bytes.len() {
        if matches!(bytes[i], b'.' | b'!' | b'?')
            && bytes.get(i + 1).is_none_or(|b| b.is_ascii_whitespace())
        {
            out.push(&paragraph[start..=i]);
            start = i + 1;
        }
    }
    if start < paragraph.len() {
        out.push(&paragraph[start..]);
    }
    out
}

/// The bracketed citations at the start of `raw`, and the rest.
fn leading_citations(mut raw: &str) -> (Vec<String>, &str) {
    let mut cites = Vec::new();
    loop {
        let t = raw.trim_start();
        let Some(inner) = t.strip_prefix('[') else {
            return (cites, raw);
        };
        let Some(close) = inner.find(']') else {
            return (cites, raw);
        };
        let ids: Vec<&str> = inner[..close].split([',', ';']).map(str::trim).collect();
        if !ids.iter().all(|i| is_accession(i)) {
            return (cites, raw);
        }
        cites.extend(ids.iter().map(|i| i.to_string()));
        raw = &inner[close + 1..];
    }
}

/// The body's sentences (headings are not sentences), with their citations. Citations standing
/// after a sentence's full stop belong to that sentence.
fn sentences(body: &str) -> Vec<Sentence> {
    let mut out: Vec<Sentence> = Vec::new();
    let mut paragraphs: Vec<String> = vec![String::new()];
    for line in body.lines() {
        let l = line.trim();
        if l.is_empty() || l.starts_with("## ") {
            paragraphs.push(String::new());
        } else if let Some(p) = paragraphs.last_mut() {
            p.push_str(l);
            p.push(' ');
        }
    }
    for (n, p) in paragraphs
        .iter()
        .enumerate()
        .filter(|(_, p)| !p.trim().is_empty())
    {
        for raw in split_sentences(p) {
            // Citations opening a chunk stand after the previous sentence's full stop.
            let (lead, raw) = leading_citations(raw);
            if let Some(prev) = out.last_mut().filter(|s| s.paragraph == n) {
                prev.cites.extend(lead);
            }
            let (text, cites) = strip_citations(raw);
            let bare = text
                .trim()
                .trim_matches(|c: char| c.is_ascii_punctuation())
                .trim();
            match out.last_mut() {
                Some(prev) if bare.is_empty() && prev.paragraph == n => prev.cites.extend(cites),
                _ if bare.is_empty() => {}
                _ => out.push(Sentence {
                    text: text.split_whitespace().collect::<Vec<_>>().join(" "),
                    cites,
                    paragraph: n,
                }),
            }
        }
    }
    out
}

fn stem(w: &str) -> String {
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
fn content_words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric() && c != '\'')
        .map(|w| w.trim_matches('\'').to_lowercase())
        .filter(|w| w.len() >= 3 && w.chars().any(char::is_alphabetic))
        .filter(|w| !STOP.contains(&w.as_str()))
        .map(|w| stem(&w))
        .collect()
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    Percent,
    Number,
}

#[derive(Debug, Clone, PartialEq)]
struct Figure {
    value: f64,
    kind: Kind,
    text: String,
}

fn scale_of(word: &str) -> Option<f64> {
    match word {
        "thousand" | "k" => Some(1e3),
        "million" | "millions" | "mn" | "m" | "mln" => Some(1e6),
        "billion" | "billions" | "bn" | "b" | "bln" => Some(1e9),
        "trillion" | "trillions" | "tn" | "t" => Some(1e12),
        _ => None,
    }
}

/// Numbers, amounts and percentages, normalised: `$1.2 billion` = `1.2bn` = `1,200 million`,
/// `14%` = `14 percent`. Years, days after a month, `#5`-style references and numbers glued
/// to letters (`NVL72`, `10-Q`) are not figures.
fn figures(text: &str) -> Vec<Figure> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if !chars[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let start = i;
        let prev = start.checked_sub(1).map(|p| chars[p]);
        let mut digits = String::new();
        while i < chars.len() {
            let c = chars[i];
            let next_digit = chars.get(i + 1).is_some_and(char::is_ascii_digit);
            if c.is_ascii_digit() {
                digits.push(c);
            } else if c == ',' && next_digit {
            } else if c == '.' && next_digit {
                digits.push('.');
            } else {
                break;
            }
            i += 1;
        }
        let hyphen_word =
            chars.get(i) == Some(&'-') && chars.get(i + 1).is_some_and(|c| c.is_alphabetic());
        let glued = hyphen_word
            || prev.is_some_and(|p| p.is_alphabetic() || p == '#' || p == '-' || p == '_');
        // The word after the number, and whether letters are glued to it.
        let mut j = i;
        let attached: String = chars[j..]
            .iter()
            .take_while(|c| c.is_alphabetic())
            .collect::<String>()
            .to_lowercase();
        j += attached.chars().count();
        let mut kind = Kind::Number;
        let mut scale = 1.0;
        let mut end = j;
        if !attached.is_empty() {
            match scale_of(&attached) {
                Some(s) => scale = s,
                // `4th`, `10x`, `72B200`: not a figure this engine reads.
                None => {
                    i = j;
                    continue;
                }
            }
        } else if chars.get(i) == Some(&'%') {
            kind = Kind::Percent;
            end = i + 1;
        } else {
            let rest: String = chars[i..chars.len().min(i + 14)]
                .iter()
                .collect::<String>()
                .to_lowercase();
            let word = rest
                .trim_start()
                .split(|c: char| !c.is_alphabetic())
                .next()
                .unwrap_or("");
            if word == "percent" || rest.trim_start().starts_with("per cent") {
                kind = Kind::Percent;
            } else if let Some(s) = scale_of(word).filter(|_| word.len() > 1) {
                scale = s;
            }
        }
        if glued || digits.is_empty() {
            i = end.max(i + 1);
            continue;
        }
        let Ok(n) = digits.parse::<f64>() else {
            i = end.max(i + 1);
            continue;
        };
        let money = prev == Some('$');
        let plain_int = kind == Kind::Number && scale == 1.0 && !money && !digits.contains('.');
        let before: String = chars[..start].iter().collect::<String>().to_lowercase();
        let prev_word = before
            .split(|c: char| !c.is_alphabetic())
            .rfind(|w| !w.is_empty())
            .unwrap_or("");
        let is_year = plain_int && (1900.0..=2100.0).contains(&n) && digits.len() == 4;
        let is_day = plain_int && n <= 31.0 && MONTHS.contains(&prev_word);
        if !is_year && !is_day {
            out.push(Figure {
                value: n * scale,
                kind,
                text: chars[start..end.max(i)]
                    .iter()
                    .collect::<String>()
                    .trim()
                    .to_string(),
            });
        }
        i = end.max(i + 1);
    }
    out
}

fn same(a: &Figure, b: &Figure) -> bool {
    a.kind == b.kind
        && (a.value - b.value).abs() <= 1e-9 * a.value.abs().max(b.value.abs()).max(1.0)
}

/// Lower case, letters and digits, single spaces: for finding quotations.
fn normal(text: &str) -> String {
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

fn quotations(text: &str) -> Vec<String> {
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

fn has_month_day(text: &str) -> bool {
    let lower = text.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    words.windows(2).any(|w| {
        MONTHS.contains(&w[0])
            && w[0] != "may"
            && w[1].parse::<u32>().is_ok_and(|d| (1..=31).contains(&d))
    }) || words
        .iter()
        .any(|w| w.len() == 4 && w.parse::<u32>().is_ok_and(|y| (1900..=2100).contains(&y)))
}

fn short(s: &str) -> String {
    let mut out: String = s.chars().take(80).collect();
    if s.chars().count() > 80 {
        out.push('…');
    }
    out
}

/// What the engine knows of one source, read once.
struct Read<'a> {
    source: &'a Source,
    figures: Vec<Figure>,
    words: HashSet<String>,
    text: String,
    hedged: bool,
}

fn read(s: &Source) -> Read<'_> {
    let all = format!("{} {} {}", s.title, s.summary, s.says);
    let lower = all.to_lowercase();
    Read {
        source: s,
        figures: figures(&all),
        words: content_words(&all).into_iter().collect(),
        text: normal(&all),
        hedged: HEDGED_SOURCE.iter().any(|h| lower.contains(h)),
    }
}

fn issue(severity: Severity, check: Check, detail: String) -> Issue {
    Issue {
        severity,
        check,
        detail,
    }
}

pub fn audit(sub: &Submission) -> Report {
    let sources: HashMap<&str, Read<'_>> = sub
        .sources
        .iter()
        .map(|s| (s.accession.as_str(), read(s)))
        .collect();
    let mut issues = Vec::new();
    let sents = sentences(&sub.body);

    // Citations the archive does not hold, or of another company.
    let mut cited: Vec<&str> = Vec::new();
    for s in &sents {
        for c in &s.cites {
            if !cited.contains(&c.as_str()) {
                cited.push(c);
            }
        }
    }
    for c in &cited {
        match sources.get(c) {
            None => issues.push(issue(
                Severity::Critical,
                Check::UnknownCitation,
                format!("[{c}] is not an entry of the archive"),
            )),
            Some(r) if r.source.ticker != sub.ticker => issues.push(issue(
                Severity::Critical,
                Check::ForeignCitation,
                format!(
                    "[{c}] is an entry about {}, not {}",
                    r.source.ticker, sub.ticker
                ),
            )),
            Some(_) => {}
        }
    }

    // Citations of each paragraph: they cover its uncited sentences.
    let mut paragraph_cites: HashMap<usize, Vec<&str>> = HashMap::new();
    for s in &sents {
        paragraph_cites
            .entry(s.paragraph)
            .or_default()
            .extend(s.cites.iter().map(String::as_str));
    }

    for s in &sents {
        let own: Vec<&str> = s.cites.iter().map(String::as_str).collect();
        let covering = if own.is_empty() {
            paragraph_cites
                .get(&s.paragraph)
                .cloned()
                .unwrap_or_default()
        } else {
            own.clone()
        };
        let figs = figures(&s.text);
        let quotes = quotations(&s.text);
        let factual = !figs.is_empty() || !quotes.is_empty() || has_month_day(&s.text);
        if covering.is_empty() {
            if factual {
                issues.push(issue(
                    Severity::Major,
                    Check::UncitedClaim,
                    format!(
                        "a factual sentence cites no entry: \u{ab}{}\u{bb}",
                        short(&s.text)
                    ),
                ));
            }
            continue;
        }
        let reads: Vec<&Read<'_>> = covering
            .iter()
            .filter_map(|c| sources.get(c))
            .filter(|r| r.source.ticker == sub.ticker)
            .collect();
        if reads.is_empty() {
            continue;
        }
        let ids = covering.join(", ");
        for f in &figs {
            if !reads.iter().any(|r| r.figures.iter().any(|g| same(f, g))) {
                issues.push(issue(
                    Severity::Major,
                    Check::UnsupportedFigure,
                    format!(
                        "{} is in none of the cited entries [{ids}]: \u{ab}{}\u{bb}",
                        f.text,
                        short(&s.text)
                    ),
                ));
            }
        }
        for q in &quotes {
            let nq = normal(q);
            if !reads.iter().any(|r| r.text.contains(&nq)) {
                issues.push(issue(
                    Severity::Major,
                    Check::UnverifiedQuote,
                    format!(
                        "the quotation \u{201c}{}\u{201d} is not in the cited entries [{ids}]",
                        short(q)
                    ),
                ));
            }
        }
        let lower = format!("{} ", s.text.to_lowercase());
        // A claim of record (a figure, a quotation, a date) resting on an unconfirmed source.
        if !own.is_empty()
            && factual
            && reads.iter().any(|r| r.hedged)
            && !HEDGE_WORDS.iter().any(|h| lower.contains(h))
        {
            issues.push(issue(
                Severity::Major,
                Check::HedgeDropped,
                format!("a cited entry is unconfirmed but the sentence states it as fact: \u{ab}{}\u{bb}", short(&s.text)),
            ));
        }
        if !own.is_empty() {
            let words = content_words(&s.text);
            if words.len() >= DRIFT_MIN_WORDS {
                let shared = words
                    .iter()
                    .filter(|w| reads.iter().any(|r| r.words.contains(*w)))
                    .count();
                let share = shared as f64 / words.len() as f64;
                if share < DRIFT_MINOR {
                    issues.push(issue(
                        if share < DRIFT_MAJOR { Severity::Major } else { Severity::Minor },
                        Check::ClaimDrift,
                        format!(
                            "the cited entries [{ids}] share {:.0}% of this sentence's words: \u{ab}{}\u{bb}",
                            share * 100.0,
                            short(&s.text)
                        ),
                    ));
                }
            }
        }
    }

    // The dek: no figure that neither the body nor a source holds; about what the body is about.
    let (body_text, _) = strip_citations(&sub.body);
    let body_figs = figures(&body_text);
    for f in figures(&sub.dek) {
        let known = body_figs.iter().any(|g| same(&f, g))
            || sources
                .values()
                .any(|r| r.figures.iter().any(|g| same(&f, g)));
        if !known {
            issues.push(issue(
                Severity::Major,
                Check::DekUnsupported,
                format!(
                    "the dek states {} and neither the body nor a cited entry does",
                    f.text
                ),
            ));
        }
    }
    let body_words: HashSet<String> = content_words(&body_text).into_iter().collect();
    let dek_words = content_words(&sub.dek);
    if dek_words.len() >= 5 {
        let shared = dek_words.iter().filter(|w| body_words.contains(*w)).count();
        let share = shared as f64 / dek_words.len() as f64;
        if share < DEK_OVERLAP {
            issues.push(issue(
                Severity::Major,
                Check::DekUnsupported,
                format!("the body holds only {:.0}% of the dek's words: the dek promises what the body does not say", share * 100.0),
            ));
        }
    }
    judge(issues, ENGINE)
}

#[cfg(test)]
#[path = "builtin_tests.rs"]
mod tests;
