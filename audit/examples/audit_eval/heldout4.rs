//! The fourth round's held-out set (`Half::Heldout4` and `Half::Heldout4Public`, printed with
//! `--heldout4`), made before that round's tuning, when the third round's held-out set became
//! tuning data; looked at once at the end of round 4, tuning data since round 5:
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
//! The split is mechanical: it is computed from the tuning drafts each run (the builders are
//! `heldout.rs`'s, shared with rounds 5 and 6).

use crate::archive::Entry;
use crate::generate::{Case, Half};
use crate::heldout;

/// The fourth round's seed: shifts each kind's choices (style, verb, phrase) off the ones the
/// tuning drafts (seeds 0 and 7) make.
pub const SEED: usize = 11;

/// The generated held-out drafts of the demo archive (`corpus`: the tuning drafts).
pub fn cases(entries: &[Entry], corpus: &[Case]) -> Vec<Case> {
    heldout::undrawn(
        entries,
        corpus,
        &[Half::Tune, Half::Report, Half::Heldout],
        &heldout::old_kinds(),
        Half::Heldout4,
        SEED,
        "heldout4/",
    )
}

/// The public rows' entries no public-evidence tuning draft cites, last rows first.
pub fn public_entries(corpus: &[Case]) -> Result<Vec<Entry>, Box<dyn std::error::Error>> {
    let cited = heldout::cited_in(corpus, &[Half::TunePublic, Half::HeldoutPublic]);
    let mut out: Vec<Entry> = heldout::public_entries_of(&|_| true)?
        .into_iter()
        .filter(|e| !cited.contains(e.id.as_str()))
        .collect();
    out.reverse();
    Ok(out)
}

/// The generated held-out drafts of the public evidence.
pub fn public_cases(entries: &[Entry]) -> Vec<Case> {
    heldout::public_generated(
        entries,
        &heldout::old_kinds(),
        Half::Heldout4Public,
        SEED,
        "heldout4-public/",
    )
}
