//! The engine's readers, each on one text, their results in plain types: the entry points of
//! the fuzz targets (`fuzz/`), which reach them faster this way than through a whole audit.

use super::{align, citations, dates, quotes, tokens, words};

/// A sentence of a body as the engine reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct SentenceRead {
    pub text: String,
    pub cites: Vec<String>,
    pub paragraph: usize,
    pub heading: String,
}

/// A figure as the engine reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct FigureRead {
    pub value: f64,
    pub percent: bool,
    pub text: String,
    pub currency: Option<char>,
    pub unit: Option<String>,
    pub period: Option<String>,
}

/// A date as the engine reads it: year, month, day, and how a finding shows it.
pub type DateRead = (Option<u32>, Option<u32>, Option<u32>, String);

pub fn sentences(body: &str) -> Vec<SentenceRead> {
    super::sentences::sentences(body)
        .into_iter()
        .map(|s| SentenceRead {
            text: s.text,
            cites: s.cites,
            paragraph: s.paragraph,
            heading: s.heading,
        })
        .collect()
}

pub fn split_sentences(paragraph: &str) -> Vec<&str> {
    super::sentences::split_sentences(paragraph)
}

pub fn source_sentences(text: &str) -> Vec<&str> {
    align::source_sentences(text)
}

pub fn figures(text: &str) -> Vec<FigureRead> {
    super::figures::figures(text)
        .into_iter()
        .map(|f| FigureRead {
            value: f.value,
            percent: f.kind == super::figures::Kind::Percent,
            unit: f.unit().map(str::to_string),
            period: f.period().map(str::to_string),
            text: f.text,
            currency: f.currency,
        })
        .collect()
}

pub fn dates(text: &str) -> Vec<DateRead> {
    dates::date_refs(text)
        .into_iter()
        .map(|d| (d.year, d.month, d.day, d.show()))
        .collect()
}

pub fn has_month_day(text: &str) -> bool {
    dates::has_month_day(text)
}

pub fn date_of_record(accession: &str) -> Option<DateRead> {
    dates::date_of_record(accession).map(|d| (d.year, d.month, d.day, d.show()))
}

pub fn quotations(text: &str) -> Vec<String> {
    quotes::quotations(text)
}

pub fn strip_citations(text: &str) -> (String, Vec<String>) {
    citations::strip_citations(text)
}

pub fn leading_citations(text: &str) -> (Vec<String>, &str) {
    citations::leading_citations(text)
}

/// The words of a sentence as alignment compares them (each token's anchor, empty for stop
/// words and punctuation).
pub fn anchors(text: &str, draft: bool) -> Vec<String> {
    align::parse(text, draft)
        .toks
        .into_iter()
        .map(|t| t.anchor)
        .collect()
}

/// How closely `draft` restates `source` (`None` when not aligned).
pub fn alignment(draft: &str, source: &str) -> Option<f64> {
    align::score(&align::parse(draft, true), &align::parse(source, false))
}

pub fn tokens(text: &str) -> usize {
    tokens::tokenize(text).len()
}

pub fn content_words(text: &str) -> Vec<String> {
    words::content_words(text)
}

/// The words the engine's word table gives as synonyms of `word`'s lemma: the rewordings a
/// restatement may use (the property test of `tests/restated.rs` draws them). None for a word
/// the meaning checks read (a negation, a direction, a hedge, a word of attribution or of their
/// phrases: `documents seen by`): those are
/// compared as the lexicon says, not reworded; and none of the words of a record.
pub fn rewordings(word: &str) -> Vec<&'static str> {
    use super::lexicon::{ANONYMOUS, ATTRIBUTING_PHRASES, ATTRIBUTING_WORDS, NAMED};
    let toks = tokens::tokenize(word);
    let in_phrase = |list: &[&str]| list.iter().any(|p| p.split_whitespace().any(|w| w == word));
    let cue = !super::cues::cues(&toks, true).is_empty()
        || ATTRIBUTING_WORDS.contains(&word)
        || in_phrase(ANONYMOUS)
        || in_phrase(NAMED)
        || in_phrase(ATTRIBUTING_PHRASES)
        || in_phrase(super::hedges::HEDGED_SOURCE)
        // `on pace`, `on track`, `on course`, `on schedule`: hedges read from two words.
        || matches!(word, "pace" | "track" | "course" | "schedule");
    if cue {
        return Vec::new();
    }
    // Nor a word of a record (`history`, `record`): the engine finds those only as written.
    super::wordnet::synonyms(&super::wordnet::lemma(word))
        .iter()
        .copied()
        .filter(|w| !super::support::RECORDS.contains(w))
        .collect()
}

/// Whether an entry's text says it is unconfirmed (the hedge check reads a sentence restated
/// from it without attribution as a dropped caveat).
pub fn unconfirmed(text: &str) -> bool {
    let lower = text.to_lowercase();
    super::hedges::HEDGED_SOURCE
        .iter()
        .any(|h| lower.contains(h))
}
