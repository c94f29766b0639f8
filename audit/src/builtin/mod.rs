//! The built-in engine: deterministic, no network. It reads every sentence of the body against
//! the entries it cites (title, summary and `source.says`) and reports what they do not carry.
//! Checks, thresholds and weights: docs/audit-engine.md.

mod citations;
mod dates;
mod figures;
mod hedges;
mod quotes;
mod sentences;
mod words;

use std::collections::{HashMap, HashSet};

use crate::report::{Check, Issue, Report, Severity, judge};
use crate::{Source, Submission};
pub use citations::is_accession;
use citations::strip_citations;
use dates::has_month_day;
use figures::{Figure, figures, same};
use hedges::{HEDGE_WORDS, HEDGED_SOURCE};
use quotes::quotations;
use sentences::sentences;
use words::{content_words, normal};

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
mod tests;
