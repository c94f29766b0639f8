//! The third round's held-out set (`Half::Heldout`, printed only with `--heldout`, its misses
//! never listed), made before that round's tuning:
//!
//! - *fresh entries*: the generated kinds applied, with a new seed ([`SEED`]), to the demo
//!   archive's entries that no draft of the tuning and old report halves cites (generated,
//!   hand-written or demo journal), every ticker;
//! - *undrawn faults*: each fault kind applied, with the same seed, to the facts of the old
//!   report half's tickers (AAPL, AMD, TSLA) that the generator never drew for that kind (it
//!   takes 40 of each kind and half; the tuning half's were all drawn in an earlier round's
//!   wider check, so none is held out);
//! - the hand-written drafts of round 3 (`round: 3` in `audit/corpus/handwritten.json`).
//!
//! The split is mechanical: it is computed from the tuning drafts each run.

use std::collections::HashSet;

use crate::archive::Entry;
use crate::generate::{self, Case, FAULT_KINDS, Half, TUNE_TICKERS};

/// The held-out drafts' seed: shifts each kind's choices (style, verb, phrase) off the ones
/// the tuning drafts make.
pub const SEED: usize = 7;

fn cited(corpus: &[Case]) -> HashSet<&str> {
    corpus
        .iter()
        .filter(|c| c.half != Half::Heldout)
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
