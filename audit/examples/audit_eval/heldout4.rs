//! The fourth round's held-out set (`Half::Heldout4` and `Half::Heldout4Public`, printed only
//! with `--heldout4`, their misses never listed), made before that round's tuning, when the
//! third round's held-out set became tuning data:
//!
//! - *undrawn facts*: every generated kind applied, with a new seed ([`SEED`]), to the demo
//!   archive's facts that no generated draft of the tuning data (tuning half, old report half,
//!   the third round's held-out set) drew for that kind, every ticker; not misattributions and
//!   swapped entities on the tuning half's tickers (round 2's wider check drew all of those);
//! - the hand-written drafts of round 4 (`round: 4` in `audit/corpus/handwritten.json`):
//!   faithful paraphrases and faults of entries no earlier hand-written draft or demo journal
//!   cites;
//! - *public evidence* (`Half::Heldout4Public`, a table of its own): the generated kinds, same
//!   seed, applied to the evidence of public rows (either half, labelled supported or refuted)
//!   that no public-evidence draft of the tuning data cites, taken from the end of each
//!   dataset's file (the earlier drafts took theirs from its start).
//!
//! The split is mechanical: it is computed from the tuning drafts each run.

use std::collections::HashSet;

use crate::archive::Entry;
use crate::generate::{self, Case, Half, TUNE_TICKERS};
use crate::heldout;

/// The fourth round's seed: shifts each kind's choices (style, verb, phrase) off the ones the
/// tuning drafts (seeds 0 and 7) make.
pub const SEED: usize = 11;

/// The kinds round 2 drew in full on the tuning half's tickers.
const DRAWN_IN_FULL: &[&str] = &["misattribution", "swapped-entity"];

fn ticker_of(accession: &str) -> &str {
    accession.split('-').nth(1).unwrap_or_default()
}

/// The generated held-out drafts of the demo archive (`corpus`: the tuning drafts).
pub fn cases(entries: &[Entry], corpus: &[Case]) -> Vec<Case> {
    let drawn: HashSet<(&str, &str, usize)> = corpus
        .iter()
        .filter(|c| matches!(c.half, Half::Tune | Half::Report | Half::Heldout))
        .filter_map(|c| {
            c.fact
                .as_ref()
                .map(|(acc, j)| (c.kind.as_str(), acc.as_str(), *j))
        })
        .collect();
    let all: Vec<&Entry> = entries.iter().collect();
    generate::generated(
        &all,
        &[Half::Heldout4],
        &|_| Half::Heldout4,
        &|kind, acc, j| {
            drawn.contains(&(kind, acc, j))
                || (DRAWN_IN_FULL.contains(&kind) && TUNE_TICKERS.contains(&ticker_of(acc)))
        },
        SEED,
        "heldout4/",
    )
}

/// The public rows' entries no public-evidence tuning draft cites, last rows first.
pub fn public_entries(corpus: &[Case]) -> Result<Vec<Entry>, Box<dyn std::error::Error>> {
    let cited: HashSet<&str> = corpus
        .iter()
        .filter(|c| matches!(c.half, Half::TunePublic | Half::HeldoutPublic))
        .flat_map(|c| c.sub.sources.iter().map(|s| s.accession.as_str()))
        .collect();
    let mut out: Vec<Entry> = heldout::public_entries_of(&|_| true)?
        .into_iter()
        .filter(|e| !cited.contains(e.id.as_str()))
        .collect();
    out.reverse();
    Ok(out)
}

/// The generated held-out drafts of the public evidence.
pub fn public_cases(entries: &[Entry]) -> Vec<Case> {
    let all: Vec<&Entry> = entries.iter().collect();
    generate::generated(
        &all,
        &[Half::Heldout4Public],
        &|_| Half::Heldout4Public,
        &|_, _, _| false,
        SEED,
        "heldout4-public/",
    )
}
