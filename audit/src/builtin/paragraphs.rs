//! Paragraphs that cite no entry. A paragraph that states facts without a citation goes back to
//! its author (major), marked as analysis or not; a paragraph of commentary costs a little when
//! it is not marked as the author's analysis or opinion (minor), and nothing when it is (its
//! opening says so, or its section's heading does).

use foldhash::{HashMap, HashMapExt, HashSet};

use super::align::{Parsed, parse};
use super::names::is_name;
use super::read::Read;
use super::sentences::Sentence;
use super::short;
use super::tokens::Kind;
use crate::report::{Check, Issue, Severity};

/// An uncited sentence restates an entry when it shares this many content words with one of
/// the entry's sentences, and this share of its own.
pub const RESTATES_SHARED: usize = 4;
pub const RESTATES_SHARE: f64 = 0.6;

/// Words of a heading that mark its section as the author's analysis or opinion.
pub const ANALYSIS_HEADINGS: &[&str] = &[
    "analysis",
    "opinion",
    "view",
    "views",
    "take",
    "commentary",
    "perspective",
    "editorial",
    "interpretation",
];

/// Openings that mark a paragraph as the author's analysis or opinion.
pub const ANALYSIS_OPENINGS: &[&str] = &[
    "in my view",
    "in our view",
    "in my opinion",
    "in our opinion",
    "we think",
    "i think",
    "we believe",
    "i believe",
    "our view",
    "my view",
    "our read",
    "my read",
    "our reading",
    "my reading",
    "our take",
    "my take",
    "analysis:",
    "opinion:",
    "commentary:",
    "arguably",
    "to us,",
    "to me,",
    "we would",
    "i would",
    "we expect",
    "i expect",
    "we suspect",
    "i suspect",
    "my guess",
    "our guess",
];

/// Verbs that make a named party's act or statement of record (`Apple agreed`, `Reuters
/// reported`).
const EVENT_VERBS: &[&str] = &[
    "said",
    "says",
    "told",
    "tells",
    "reported",
    "reports",
    "announced",
    "announces",
    "disclosed",
    "discloses",
    "confirmed",
    "confirms",
    "filed",
    "files",
    "posted",
    "agreed",
    "signed",
    "launched",
    "unveiled",
    "acquired",
    "bought",
    "sold",
    "raised",
    "cut",
    "hired",
    "fired",
    "sued",
    "won",
    "lost",
    "approved",
    "rejected",
    "opened",
    "closed",
    "shipped",
    "delivered",
    "recorded",
    "booked",
    "warned",
    "guided",
    "denied",
    "plans",
    "expects",
    "invested",
    "pledged",
    "released",
    "reached",
    "completed",
    "started",
    "began",
    "ended",
    "cancelled",
    "canceled",
    "paid",
    "priced",
    "registered",
    "authorised",
    "authorized",
    "delayed",
    "halted",
    "suspended",
    "resumed",
    "expanded",
    "reduced",
    "trimmed",
    "missed",
    "topped",
    "lowered",
    "accounted",
    "deployed",
    "received",
    "granted",
];

/// Words between a name and its verb (`Apple has agreed`).
const AUXILIARIES: &[&str] = &["has", "had", "have", "also", "will", "would", "did", "just"];

/// Phrases that attribute a statement to a source.
const SOURCING: &[&str] = &[
    "according to",
    "reportedly",
    "people familiar",
    "familiar with the",
    "sources said",
    "sources say",
    "briefed on",
    "people with knowledge",
];

fn marked_heading(heading: &str) -> bool {
    heading
        .to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .any(|w| ANALYSIS_HEADINGS.contains(&w))
}

/// The paragraphs marked as the author's analysis or opinion (by their section's heading or
/// their first words).
pub(super) fn marked(sents: &[Sentence]) -> HashSet<usize> {
    let mut firsts: HashMap<usize, &Sentence> = HashMap::new();
    for s in sents {
        firsts.entry(s.paragraph).or_insert(s);
    }
    firsts
        .into_iter()
        .filter(|(_, f)| marked_heading(&f.heading) || marked_opening(&f.text))
        .map(|(n, _)| n)
        .collect()
}

fn marked_opening(text: &str) -> bool {
    let lower = text.trim_start_matches(['*', '_', '>', ' ']).to_lowercase();
    ANALYSIS_OPENINGS.iter().any(|m| lower.starts_with(m))
}

/// Why a sentence states something of record: a named party's act or statement, a source it
/// attributes to, or a sentence of a cited entry it restates.
fn of_record(s: &Sentence, index: &Index<'_>, lower_case: &HashSet<String>) -> Option<String> {
    let lower = s.text.to_lowercase();
    if let Some(p) = SOURCING.iter().find(|p| lower.contains(*p)) {
        return Some(format!("it attributes to sources (\u{ab}{p}\u{bb})"));
    }
    let d = parse(&s.text, true);
    let words: Vec<usize> = (0..d.toks.len())
        .filter(|&i| d.toks[i].kind == Kind::Word)
        .collect();
    let first = words.first().copied();
    for (k, &i) in words.iter().enumerate() {
        if !is_name(&d, i, first, lower_case) {
            continue;
        }
        let verb = words[k + 1..]
            .iter()
            .map(|&j| d.toks[j].word.as_str())
            .find(|w| !AUXILIARIES.contains(w));
        if let Some(v) = verb.filter(|v| EVENT_VERBS.contains(v)) {
            return Some(format!("it reports what {} {v}", d.toks[i].raw));
        }
    }
    restated(&d, index).map(|r| format!("it restates [{}]", r.source.accession))
}

/// The cited entries' sentences by content word, built once per audit: which entry sentence an
/// uncited sentence restates is then a count of shared words, not a pass over every sentence.
pub(super) struct Index<'a> {
    reads: Vec<&'a Read<'a>>,
    /// For each sentence (in the entries' order), the entry it belongs to.
    owner: Vec<usize>,
    by_word: HashMap<&'a str, Vec<usize>>,
}

pub(super) fn index<'a>(reads: &[&'a Read<'a>]) -> Index<'a> {
    let mut owner = Vec::new();
    let mut by_word: HashMap<&'a str, Vec<usize>> = HashMap::new();
    for (r, read) in reads.iter().enumerate() {
        for s in &read.sentences {
            let id = owner.len();
            owner.push(r);
            for w in &s.parsed.bag {
                by_word.entry(w.as_str()).or_default().push(id);
            }
        }
    }
    Index {
        reads: reads.to_vec(),
        owner,
        by_word,
    }
}

/// The entry one of whose sentences holds most of `d`: at least [`RESTATES_SHARED`] of its
/// content words and [`RESTATES_SHARE`] of them (stricter than alignment, which commentary on
/// the same subject may meet). The first such entry, in the entries' order.
fn restated<'a>(d: &Parsed, index: &Index<'a>) -> Option<&'a Read<'a>> {
    let need = RESTATES_SHARED.max((RESTATES_SHARE * d.bag.len() as f64).ceil() as usize);
    let mut shared: HashMap<usize, usize> = HashMap::new();
    for w in &d.bag {
        for &id in index.by_word.get(w.as_str()).into_iter().flatten() {
            *shared.entry(id).or_default() += 1;
        }
    }
    shared
        .into_iter()
        .filter(|(_, n)| *n >= need)
        .map(|(id, _)| id)
        .min()
        .map(|id| index.reads[index.owner[id]])
}

/// `uncited-paragraph` findings: each paragraph none of whose sentences cites an entry and
/// without an `uncited-claim` finding of its own (`flagged`: paragraphs already found to state a
/// figure, a quotation or a date).
pub(super) fn uncited(
    sents: &[Sentence],
    index: &Index<'_>,
    lower_case: &HashSet<String>,
    flagged: &HashSet<usize>,
) -> Vec<Issue> {
    let mut paragraphs: Vec<(usize, Vec<&Sentence>)> = Vec::new();
    let mut at: HashMap<usize, usize> = HashMap::new();
    for s in sents {
        let k = *at.entry(s.paragraph).or_insert_with(|| {
            paragraphs.push((s.paragraph, Vec::new()));
            paragraphs.len() - 1
        });
        paragraphs[k].1.push(s);
    }
    let mut out = Vec::new();
    for (n, p) in paragraphs {
        let Some(first) = p.first() else { continue };
        if p.iter().any(|s| !s.cites.is_empty()) || flagged.contains(&n) {
            continue;
        }
        // Facts need a citation whatever the paragraph says it is; commentary needs a mark.
        let marked = marked_heading(&first.heading) || marked_opening(&first.text);
        match p.iter().find_map(|s| of_record(s, index, lower_case)) {
            Some(why) => out.push(Issue {
                severity: Severity::Major,
                check: Check::UncitedParagraph,
                detail: format!(
                    "a paragraph states facts without citing an entry ({why}): \u{ab}{}\u{bb}",
                    short(&first.text)
                ),
            }),
            None if !marked => out.push(Issue {
                severity: Severity::Minor,
                check: Check::UncitedParagraph,
                detail: format!(
                    "a paragraph cites no entry and is not marked as analysis: \u{ab}{}\u{bb}",
                    short(&first.text)
                ),
            }),
            None => {}
        }
    }
    out
}
