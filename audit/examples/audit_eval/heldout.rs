//! The third round's held-out set (`Half::Heldout`, printed with `--heldout`), made before that
//! round's tuning and looked at once at its end; tuning data since round 4 (its misses listed
//! with `--misses heldout` and `--misses heldout-public`; round 4's held-out set is
//! `heldout4.rs`):
//!
//! - *fresh entries*: the generated kinds applied, with a new seed ([`SEED`]), to the demo
//!   archive's entries that no draft of the tuning and old report halves cites (generated,
//!   hand-written or demo journal), every ticker;
//! - *undrawn faults*: each fault kind applied, with the same seed, to the facts of the old
//!   report half's tickers (AAPL, AMD, TSLA) that the generator never drew for that kind (it
//!   takes 40 of each kind and half; the tuning half's are left out, as round 2's wider check
//!   drew all its misattributions and swapped entities);
//! - the hand-written drafts of round 3 (`round: 3` in `audit/corpus/handwritten.json`);
//! - *public evidence* (`Half::HeldoutPublic`, a table of its own): the generated kinds, same
//!   seed, applied to the evidence sentences of the public data's report half (FEVER's test
//!   file, SciFact's dev split, odd VitaminC rows; rows labelled supported or refuted, whose
//!   evidence is the gold evidence), each row an entry of its dataset's company, its evidence
//!   sentences its facts: text nobody here wrote, in which the demo archive's phrasing
//!   (outlets, filings, posts) does not occur.
//!
//! The split is mechanical: it is computed from the tuning drafts each run.

use std::collections::HashSet;

use crate::archive::{Entry, Fact, Lead};
use crate::generate::{self, Case, FAULT_KINDS, Half, TUNE_TICKERS};
use crate::rows;

/// The held-out drafts' seed: shifts each kind's choices (style, verb, phrase) off the ones
/// the tuning drafts make.
pub const SEED: usize = 7;

fn cited(corpus: &[Case]) -> HashSet<&str> {
    corpus
        .iter()
        .filter(|c| matches!(c.half, Half::Tune | Half::Report))
        .flat_map(|c| c.sub.sources.iter().map(|s| s.accession.as_str()))
        .collect()
}

/// Entries of the archive no tuning draft cites.
pub fn fresh<'a>(entries: &'a [Entry], corpus: &[Case]) -> Vec<&'a Entry> {
    let used = cited(corpus);
    entries
        .iter()
        .filter(|e| !used.contains(e.id.as_str()))
        .collect()
}

/// The generated held-out drafts (`corpus`: the tuning drafts).
pub fn cases(entries: &[Entry], corpus: &[Case]) -> Vec<Case> {
    let fresh_entries = fresh(entries, corpus);
    let mut out = generate::generated(
        &fresh_entries,
        &[Half::Heldout],
        &|_| Half::Heldout,
        &|_, _, _| false,
        SEED,
        "heldout/",
    );
    let drawn: HashSet<(&str, &str, usize)> = corpus
        .iter()
        .filter_map(|c| {
            c.fact
                .as_ref()
                .map(|(acc, j)| (c.kind.as_str(), acc.as_str(), *j))
        })
        .collect();
    let old_report: Vec<&Entry> = entries
        .iter()
        .filter(|e| !TUNE_TICKERS.contains(&e.ticker.as_str()))
        .collect();
    out.extend(generate::generated(
        &old_report,
        &[Half::Heldout],
        &|_| Half::Heldout,
        &|kind, acc, j| !FAULT_KINDS.contains(&kind) || drawn.contains(&(kind, acc, j)),
        SEED,
        "heldout-undrawn/",
    ));
    out
}

/// The evidence of the public data's `half` as entries: one per row labelled supported or
/// refuted whose first evidence sentence has 6 words or more and was not met before. The
/// report half's make held-out drafts, the tuning half's tuning drafts of the same making.
pub fn public_entries(half: rows::Half) -> Result<Vec<Entry>, Box<dyn std::error::Error>> {
    public_entries_of(&|h| h == half)
}

/// [`public_entries`] of the rows of the halves `keep` takes.
pub fn public_entries_of(
    keep: &dyn Fn(rows::Half) -> bool,
) -> Result<Vec<Entry>, Box<dyn std::error::Error>> {
    public_entries_where(&|r, n| keep(rows::half(r, n)))
}

/// [`public_entries`] of the rows `keep` takes (a row and its number within its dataset).
pub fn public_entries_where(
    keep: &dyn Fn(&rows::Row, usize) -> bool,
) -> Result<Vec<Entry>, Box<dyn std::error::Error>> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for (n, r) in rows::load(&root)? {
        if !keep(&r, n) || r.label == "nei" {
            continue;
        }
        let source = rows::source(&r, n);
        let facts: Vec<Fact> = r
            .evidence
            .iter()
            .map(|e| rows::detokenize(e))
            .map(|e| e.trim().trim_end_matches('.').to_string())
            .filter(|e| e.split_whitespace().count() >= 6)
            .enumerate()
            .map(|(k, text)| Fact {
                lead: Lead::Bare,
                text,
                main: k == 0,
            })
            .collect();
        let Some(first) = facts.first() else {
            continue;
        };
        if !seen.insert(first.text.clone()) || !source.summary.starts_with(&first.text) {
            continue;
        }
        // The date of record from the accession number: `JM-FEVER-200103-05`.
        let date = source.accession.split('-').nth(2).unwrap_or("200101");
        let month = date.get(2..4).and_then(|m| m.parse().ok()).unwrap_or(1);
        let day = date.get(4..6).and_then(|d| d.parse().ok()).unwrap_or(1);
        out.push(Entry {
            id: source.accession.clone(),
            ticker: source.ticker.clone(),
            month,
            day,
            source,
            facts,
        });
    }
    Ok(out)
}

/// The generated drafts of the public evidence, in `half` (`HeldoutPublic` of the report
/// half's evidence, `TunePublic` of the tuning half's).
pub fn public_cases(entries: &[Entry], half: Half) -> Vec<Case> {
    let all: Vec<&Entry> = entries.iter().collect();
    let prefix = match half {
        Half::HeldoutPublic => "heldout-public/",
        _ => "public/",
    };
    generate::generated(&all, &[half], &|_| half, &|_, _, _| false, SEED, prefix)
}

/// The kinds round 2 drew in full on the tuning half's tickers.
const DRAWN_IN_FULL: &[&str] = &["misattribution", "swapped-entity"];

fn ticker_of(accession: &str) -> &str {
    accession.split('-').nth(1).unwrap_or_default()
}

/// The held-out drafts of a later round made of the demo archive's *undrawn facts*: each of
/// `kinds`, with the round's `seed`, applied to the facts that no generated draft of the
/// halves `drawn_in` drew for that kind, every ticker; not misattributions and swapped
/// entities on the tuning half's tickers (round 2's wider check drew all of those). Shared by
/// rounds 4, 5 and 6.
pub fn undrawn(
    entries: &[Entry],
    corpus: &[Case],
    drawn_in: &[Half],
    kinds: &[&str],
    half: Half,
    seed: usize,
    prefix: &str,
) -> Vec<Case> {
    let drawn: HashSet<(&str, &str, usize)> = corpus
        .iter()
        .filter(|c| drawn_in.contains(&c.half))
        .filter_map(|c| {
            c.fact
                .as_ref()
                .map(|(acc, j)| (c.kind.as_str(), acc.as_str(), *j))
        })
        .collect();
    let all: Vec<&Entry> = entries.iter().collect();
    generate::generated_kinds(
        kinds,
        &all,
        &[half],
        &|_| half,
        &|kind, acc, j| {
            drawn.contains(&(kind, acc, j))
                || (DRAWN_IN_FULL.contains(&kind) && TUNE_TICKERS.contains(&ticker_of(acc)))
        },
        seed,
        prefix,
    )
}

/// The accession numbers the drafts of `halves` cite.
pub fn cited_in<'a>(corpus: &'a [Case], halves: &[Half]) -> HashSet<&'a str> {
    corpus
        .iter()
        .filter(|c| halves.contains(&c.half))
        .flat_map(|c| c.sub.sources.iter().map(|s| s.accession.as_str()))
        .collect()
}

/// Every generated kind of `kinds`, with `seed`, applied to public evidence entries, in `half`.
pub fn public_generated(
    entries: &[Entry],
    kinds: &[&str],
    half: Half,
    seed: usize,
    prefix: &str,
) -> Vec<Case> {
    let all: Vec<&Entry> = entries.iter().collect();
    generate::generated_kinds(
        kinds,
        &all,
        &[half],
        &|_| half,
        &|_, _, _| false,
        seed,
        prefix,
    )
}

/// Every kind the rounds before the sixth generate (faithful and faulty).
pub fn old_kinds() -> Vec<&'static str> {
    generate::FAITHFUL_KINDS
        .iter()
        .chain(FAULT_KINDS)
        .copied()
        .collect()
}
