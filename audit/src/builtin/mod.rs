//! The built-in engine: deterministic, no network. It reads every sentence of the body against
//! the entries it cites (title, summary and `source.says`) and reports what they do not carry:
//! figures, quotations and dates they do not hold, and, where a sentence restates one of their
//! sentences, a meaning they do not have (negation, direction, certainty, attribution, names).
//! Checks, thresholds and weights: docs/audit-engine.md.

mod agent;
mod align;
mod borrowed;
mod citations;
mod claims;
mod clause;
mod compared;
mod context;
mod converse;
mod cues;
mod dates;
mod destination;
mod figures;
#[doc(hidden)]
pub mod fuzzing;
mod hedges;
mod hostile;
mod implied;
mod lexicon;
mod meaning;
mod names;
mod order;
mod owners;
mod paired;
mod paragraphs;
mod quotes;
mod read;
mod relations;
mod roles;
mod said;
mod sentences;
mod speakers;
mod support;
mod tokens;
mod traded;
mod transposed;
mod whole;
mod wordclass;
mod wordnet;
mod words;

use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};

use crate::report::{Check, Issue, Report, Severity, Support, judge};
use crate::{Source, Submission};
pub use align::{ALIGN_AT, ALIGN_SHARED};
pub use citations::is_accession;
use citations::strip_citations;
use claims::{Claim, check};
use dates::has_month_day;
use figures::{figures, same};
pub use paragraphs::{ANALYSIS_HEADINGS, ANALYSIS_OPENINGS};
use read::{Read, read};
use sentences::{Sentence, sentences};
use words::content_words;

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

/// `s` cut to `max` characters, with an ellipsis when it was longer (a finding quotes text).
pub(super) fn clip(s: &str, max: usize) -> String {
    let mut out: String = s.chars().take(max).collect();
    if s.chars().count() > max {
        out.push('…');
    }
    out
}

fn short(s: &str) -> String {
    clip(s, 80)
}

pub(super) fn issue(severity: Severity, check: Check, detail: String) -> Issue {
    Issue {
        severity,
        check,
        detail,
    }
}

/// Citations the archive does not hold, or of another company.
fn citation_issues(
    sub: &Submission,
    sents: &[Sentence],
    reads: &HashMap<&str, Read<'_>>,
) -> Vec<Issue> {
    let mut issues = Vec::new();
    let mut cited: Vec<&str> = Vec::new();
    for s in sents {
        for c in &s.cites {
            if !cited.contains(&c.as_str()) {
                cited.push(c);
            }
        }
    }
    for c in &cited {
        match reads.get(c) {
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
    issues
}

/// Names the company's entries use in most of their titles and summaries: the company's own
/// name, which a draft may use where a single entry does not.
fn company_names(sub: &Submission) -> Vec<String> {
    let own: Vec<&Source> = sub
        .sources
        .iter()
        .filter(|s| s.ticker == sub.ticker)
        .collect();
    let mut counts: HashMap<String, usize> = HashMap::new();
    for s in &own {
        let names: HashSet<String> = format!("{} {}", s.title, s.summary)
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| w.chars().next().is_some_and(char::is_uppercase))
            .map(str::to_lowercase)
            .collect();
        for n in names {
            *counts.entry(n).or_default() += 1;
        }
    }
    let mut out: Vec<String> = counts
        .into_iter()
        .filter(|(_, n)| own.len() >= 2 && 2 * n >= own.len())
        .map(|(w, _)| w)
        .collect();
    out.push(sub.ticker.to_lowercase());
    out
}

/// Words written with a lower-case first letter somewhere in the body or the cited entries:
/// common words, which a capital at the start of a sentence does not make names.
fn lower_case_words(sub: &Submission) -> HashSet<String> {
    let mut texts = vec![sub.body.as_str()];
    for s in &sub.sources {
        texts.extend([s.title.as_str(), s.summary.as_str(), s.says.as_str()]);
    }
    texts
        .iter()
        .flat_map(|t| t.split(|c: char| !c.is_alphanumeric() && c != '-'))
        .filter(|w| w.starts_with(char::is_lowercase))
        .map(str::to_string)
        .collect()
}

/// Every sentence of the body with the entries that cover it: its own citations, else its
/// paragraph's.
fn covered(sents: &[Sentence]) -> Vec<(&Sentence, bool, Vec<&str>)> {
    let mut paragraph_cites: HashMap<usize, Vec<&str>> = HashMap::new();
    for s in sents {
        paragraph_cites
            .entry(s.paragraph)
            .or_default()
            .extend(s.cites.iter().map(String::as_str));
    }
    sents
        .iter()
        .map(|s| {
            let own: Vec<&str> = s.cites.iter().map(String::as_str).collect();
            if own.is_empty() {
                let para = paragraph_cites
                    .get(&s.paragraph)
                    .cloned()
                    .unwrap_or_default();
                (s, false, para)
            } else {
                (s, true, own)
            }
        })
        .collect()
}

/// The entries of `covering` the archive holds about the draft's company (the others are
/// findings of their own).
fn of_company<'r>(
    sub: &Submission,
    covering: &[&str],
    reads: &'r HashMap<&str, Read<'r>>,
) -> Vec<&'r Read<'r>> {
    covering
        .iter()
        .filter_map(|c| reads.get(*c))
        .filter(|r| r.source.ticker == sub.ticker)
        .collect()
}

/// The findings of every sentence, and the support of those that restate a cited entry.
fn claim_issues(
    sub: &Submission,
    sents: &[Sentence],
    reads: &HashMap<&str, Read<'_>>,
) -> (Vec<Issue>, Vec<Support>) {
    let company = company_names(sub);
    let owner = implied::name_words(&sub.company);
    let lower_case = lower_case_words(sub);
    let marked = paragraphs::marked(sents);
    let mut issues = Vec::new();
    let mut support = Vec::new();
    // Paragraphs with an uncited factual sentence: `uncited-paragraph` does not count them twice.
    let mut flagged = HashSet::new();
    // The sentence before, its citations and whether it goes on with a report itself.
    let mut before: Option<(&Sentence, Vec<&str>, bool)> = None;
    for (s, own, covering) in covered(sents) {
        // A sentence that goes on with the report the one before attributes, citing the same
        // entries in the same paragraph (`CNBC reports that shipments are ramping. Oracle is
        // among the first large deployments.`), keeps its attribution. (Read only then: the
        // attribution's reading costs a tokenizing.)
        let carried = before.as_ref().is_some_and(|(b, cites, carried)| {
            b.paragraph == s.paragraph
                && !covering.is_empty()
                && *cites == covering
                && (*carried || cues::attributes(&b.text))
        });
        let previous = before
            .as_ref()
            .filter(|(b, _, _)| b.paragraph == s.paragraph)
            .map(|(b, _, _)| b.text.as_str());
        let prior = before
            .as_ref()
            .map(|(b, cites, _)| (b.text.as_str(), of_company(sub, cites, reads)));
        before = Some((s, covering.clone(), carried));
        if covering.is_empty() {
            let factual = !figures(&s.text).is_empty()
                || !quotes::quotations(&s.text).is_empty()
                || has_month_day(&s.text);
            if factual {
                flagged.insert(s.paragraph);
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
        let cited = of_company(sub, &covering, reads);
        if cited.is_empty() {
            continue;
        }
        let (found, supported) = check(&Claim {
            text: &s.text,
            own,
            ids: covering.join(", "),
            reads: cited,
            company: &company,
            owner: &owner,
            lower_case: &lower_case,
            analysis: marked.contains(&s.paragraph),
            carried,
            previous,
            prior,
        });
        issues.extend(found);
        support.extend(supported);
    }
    // In the submission's order: findings name the first entry a paragraph restates.
    let all: Vec<&Read<'_>> = sub
        .sources
        .iter()
        .filter_map(|s| reads.get(s.accession.as_str()))
        .filter(|r| r.source.ticker == sub.ticker)
        .collect();
    issues.extend(paragraphs::uncited(
        sents,
        &paragraphs::index(&all),
        &lower_case,
        &flagged,
    ));
    (issues, support)
}

/// The dek: no figure that neither the body nor a source holds; about what the body is about.
fn dek_issues(sub: &Submission, reads: &HashMap<&str, Read<'_>>) -> Vec<Issue> {
    let mut issues = Vec::new();
    let (body_text, _) = strip_citations(&sub.body);
    let body_figs = figures(&body_text);
    for f in figures(&sub.dek) {
        let known = body_figs.iter().any(|g| same(&f, g))
            || reads
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
    issues
}

fn read_all(sub: &Submission) -> HashMap<&str, Read<'_>> {
    sub.sources
        .iter()
        .map(|s| (s.accession.as_str(), read(s)))
        .collect()
}

pub fn audit(sub: &Submission) -> Report {
    let reads = read_all(sub);
    let sents = sentences(&sub.body);
    let mut issues = hostile::instructions(&sub.title, &sub.dek, &sub.body);
    issues.extend(citation_issues(sub, &sents, &reads));
    let (found, support) = claim_issues(sub, &sents, &reads);
    issues.extend(found);
    issues.extend(dek_issues(sub, &reads));
    let mut report = judge(issues, ENGINE);
    report.support = support;
    report
}

/// Each sentence of record of the body with its judgement and the sentences of the cited
/// entries it rests on: [`Report::support`] of [`audit`].
pub fn support(sub: &Submission) -> Vec<Support> {
    audit(sub).support
}

/// The accession numbers the body cites, each once, in the order they are first cited.
pub fn cited(body: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for c in strip_citations(body).1 {
        if !out.contains(&c) {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests;
