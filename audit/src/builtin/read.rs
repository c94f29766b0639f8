//! What the engine knows of one cited entry, read once: its figures, words, dates, names, and
//! each of its sentences parsed for alignment.

use super::align::{Parsed, parse, source_sentences};
use super::cues::{anonymous, attributed};
use super::dates::{DateRef, date_of_record, date_refs};
use super::figures::{Figure, figures};
use super::hedges::HEDGED_SOURCE;
use super::lexicon::demonym;
use super::speakers::{saying, source_speakers};
use super::support::{Offer, offer};
use super::words::{content_words, handles, normal};
use crate::Source;

/// Where in the entry a sentence stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Part {
    Title,
    Summary,
    Says,
}

#[derive(Debug)]
pub(super) struct SourceSentence {
    pub(super) parsed: Parsed,
    pub(super) part: Part,
    /// The title, or the first sentence of the summary or of the source text: where the entry
    /// states its claim.
    pub(super) lead: bool,
    /// It names who says what it says (people familiar, an analyst who said it, …).
    pub(super) attributed: bool,
    /// It has what it says from unnamed or second-hand sources (people familiar, …).
    pub(super) anonymous: bool,
    /// It says itself that it is unconfirmed.
    pub(super) hedged: bool,
    /// What it offers a draft's sentence that rests on it.
    pub(super) offer: Offer,
    /// Who it says said what it says (lenient: every name before a word of saying).
    pub(super) speakers: Vec<String>,
}

pub(super) struct Read<'a> {
    pub(super) source: &'a Source,
    pub(super) figures: Vec<Figure>,
    pub(super) words: foldhash::HashSet<String>,
    /// Letters and digits, lower case, single spaces: for finding quotations.
    pub(super) text: String,
    /// Some sentence of the entry says it is unconfirmed.
    pub(super) hedged: bool,
    pub(super) sentences: Vec<SourceSentence>,
    /// The date of record (from the accession number) and the dates the text gives.
    pub(super) dates: Vec<DateRef>,
    /// Every word of the entry, lower case (names are looked up here).
    pub(super) lower_words: foldhash::HashSet<String>,
    /// Handles of the posts the entry cites (`@ssankar`: `ssankar`), lower case.
    pub(super) handles: Vec<String>,
    /// Words that say where the entry comes from (who said it, in what), lower case: the
    /// title's label (`10-Q`, `On X`, `Form 4`), the summary's lead (`CNBC says`), the form a
    /// filing names itself, whom a filing is told to (`investors`) and the publisher (`SEC
    /// EDGAR`).
    pub(super) provenance: foldhash::HashSet<String>,
    /// The text is a filing (it opens with a filing's heading): the company's own document.
    pub(super) filed: bool,
}

/// Nouns for where a statement comes from: a draft names its source with them.
const PROVENANCE: &[&str] = &[
    "filing",
    "filings",
    "filed",
    "form",
    "report",
    "reports",
    "post",
    "posts",
    "statement",
    "disclosure",
    "document",
    "documents",
    "outlet",
    "sec",
    "x",
    "twitter",
    "account",
];

/// The words of where `s` comes from.
fn provenance(s: &Source, heading: &str) -> foldhash::HashSet<String> {
    let label = s.title.split_once(": ").map_or("", |(l, _)| l);
    let summary = s.summary.as_str();
    // `NVIDIA filed its quarterly report`: the filer is who it comes from.
    let (lead_end, says) = [" that ", " says ", ", ", " filed "]
        .iter()
        .filter_map(|m| {
            summary
                .find(m)
                .map(|at| (at, matches!(*m, " says " | " filed ")))
        })
        .min()
        .unwrap_or((0, false));
    // A lead says where the summary comes from only with a word of saying or of a document
    // (`Financial Times says`, `@satyanadella posted that`, `In an 8-K filed with the SEC,`),
    // not a statement's first clause (`Tangled premiered at the El Capitan Theatre on
    // November 14,`).
    let lead = &summary[..lead_end];
    let sourced = says
        || lead
            .to_lowercase()
            .split(|c: char| !c.is_alphanumeric() && !matches!(c, '-' | '@'))
            .any(|w| saying(w) || PROVENANCE.contains(&w) || w.starts_with('@'));
    let lead = if sourced { lead } else { "" };
    // The form a filing names itself (`is filing this Form S-8`).
    let forms: Vec<&str> = s
        .says
        .split(" Form ")
        .skip(1)
        .filter_map(|rest| rest.split([' ', ',', '.', ';']).next())
        .collect();
    // A filing is told to the company's investors (`told investors in an 8-K`).
    let audience = if heading.is_empty() {
        ""
    } else {
        "investors shareholders"
    };
    let text = format!(
        "{label} {lead} {heading} {audience} {} {}",
        forms.join(" "),
        s.publisher
    )
    .to_lowercase();
    // Each word as written (`s-8`) and in its parts (`s`, `8`).
    let whole = text
        .split(|c: char| !c.is_alphanumeric() && c != '-')
        .map(|w| w.trim_matches('-'));
    let parts = text.split(|c: char| !c.is_alphanumeric());
    whole
        .chain(parts)
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .chain(PROVENANCE.iter().map(|w| w.to_string()))
        .collect()
}

/// Nouns that open a filing's heading (`Item 7.01 Regulation FD Disclosure`, `Quarterly report
/// on Form 10-Q`, `Statement of changes in beneficial ownership`).
const HEADING_NOUNS: &[&str] = &[
    "report",
    "statement",
    "item",
    "notice",
    "registration",
    "form",
    "disclosure",
];

/// A source text's first sentence when it is a filing's heading (short, a heading noun among
/// its first two words): it names the document the entry comes from, as a title's label does,
/// so a draft may name it (`in a Regulation FD disclosure`); empty otherwise.
fn heading(says: &str) -> &str {
    let Some(first) = source_sentences(says).into_iter().next() else {
        return "";
    };
    let words: Vec<String> = first.split_whitespace().map(|w| w.to_lowercase()).collect();
    let heads = words
        .iter()
        .take(2)
        .any(|w| HEADING_NOUNS.contains(&w.trim_matches(|c: char| !c.is_alphanumeric())));
    if heads && words.len() <= 14 {
        first
    } else {
        ""
    }
}

fn is_hedged(lower: &str) -> bool {
    HEDGED_SOURCE.iter().any(|h| lower.contains(h))
}

pub(super) fn read(s: &Source) -> Read<'_> {
    let heading = heading(&s.says);
    let all = format!("{} {} {}", s.title, s.summary, s.says);
    let lower = all.to_lowercase();
    let mut sentences = Vec::new();
    for (part, text) in [
        (Part::Title, s.title.as_str()),
        (Part::Summary, s.summary.as_str()),
        (Part::Says, s.says.as_str()),
    ] {
        let split = if part == Part::Title {
            vec![text.trim()]
        } else {
            source_sentences(text)
        };
        for (k, t) in split.into_iter().enumerate().filter(|(_, t)| !t.is_empty()) {
            let l = t.to_lowercase();
            let parsed = parse(t, false);
            let mut offer = offer(&parsed.toks);
            offer.subject = part == Part::Title;
            sentences.push(SourceSentence {
                offer,
                speakers: source_speakers(&parsed.toks),
                parsed,
                part,
                lead: k == 0,
                attributed: part != Part::Title && attributed(&l),
                anonymous: part != Part::Title && anonymous(&l),
                hedged: is_hedged(&l),
            });
        }
    }
    let mut dates: Vec<DateRef> = date_of_record(&s.accession).into_iter().collect();
    dates.extend(date_refs(&all));
    Read {
        source: s,
        provenance: provenance(s, heading),
        filed: !heading.is_empty(),
        handles: handles(&all),
        figures: figures(&all),
        words: content_words(&all).into_iter().collect(),
        text: normal(&all),
        hedged: is_hedged(&lower),
        sentences,
        dates,
        // Whole words and their parts: `cowos-l` and `cowos`, `s&p` and `s`.
        lower_words: lower
            .split(|c: char| !c.is_alphanumeric() && c != '&' && c != '-')
            .flat_map(|w| std::iter::once(w).chain(w.split(['-', '&'])))
            .map(|w| w.trim_matches('-').to_string())
            .filter(|w| !w.is_empty())
            // A place and the word for what is of it name each other (`Chinese`, `China`).
            .flat_map(|w| {
                let other = demonym(&w).map(str::to_string);
                std::iter::once(w).chain(other)
            })
            .collect(),
    }
}
