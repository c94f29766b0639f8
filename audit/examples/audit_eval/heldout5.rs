//! The fifth round's held-out set (`Half::Heldout5` and `Half::Heldout5Public`, printed with
//! `--heldout5`), made before that round's tuning, when the fourth round's held-out set became
//! tuning data; looked at once at the end of round 5, tuning data since round 6:
//!
//! - *undrawn facts*: every generated kind applied, with a new seed ([`SEED`]), to the demo
//!   archive's facts that no generated draft of the tuning data (tuning half, old report half,
//!   the third and fourth rounds' held-out sets) drew for that kind, every ticker; not
//!   misattributions and swapped entities on the tuning half's tickers (round 2's wider check
//!   drew all of those);
//! - the hand-written drafts of round 5 (`round: 5` in `audit/corpus/handwritten.json`):
//!   faithful paraphrases, changed bounds and swapped entities of entries no earlier
//!   hand-written draft or demo journal cites where the archive has them;
//! - *public evidence* (`Half::Heldout5Public`, a table of its own): the generated kinds, same
//!   seed, applied to the evidence of public rows (labelled supported or refuted) of runs in
//!   the middle of each dataset's file ([`MIDDLE`]) where no earlier draft took its rows (the
//!   earlier ones took theirs from the start of each half, round 4's from the end), less any
//!   row a public-evidence draft of the tuning data cites (checked each run, and printed: 0).
//!
//! The split is mechanical: it is computed from the tuning drafts each run (the builders are
//! `heldout.rs`'s, shared with rounds 4 and 6).

use crate::archive::Entry;
use crate::generate::{Case, Half};
use crate::heldout;

/// The fifth round's seed: shifts each kind's choices (style, verb, phrase) off the ones the
/// tuning drafts (seeds 0, 7 and 11) make.
pub const SEED: usize = 13;

/// The rows of each dataset the public held-out drafts are taken from (row numbers within the
/// dataset's file, end excluded): the longest runs of rows in the middle of each file that no
/// public-evidence draft of rounds 3 and 4 cites (the earlier drafts took their rows from the
/// start of each half, round 4's from the end of each file). FEVER's are of its dev file,
/// SciFact's of its train split, VitaminC's of both halves: their claims are of the public
/// claims' tuning half (VitaminC's odd rows of its report half), their evidence sentences
/// drew no draft.
pub const MIDDLE: &[(&str, usize, usize)] = &[
    ("fever", 514, 632),
    ("fever", 650, 806),
    ("scifact", 516, 548),
    ("scifact", 716, 780),
    ("vitaminc", 933, 1011),
    ("vitaminc", 1020, 1086),
];

/// The generated held-out drafts of the demo archive (`corpus`: the tuning drafts).
pub fn cases(entries: &[Entry], corpus: &[Case]) -> Vec<Case> {
    heldout::undrawn(
        entries,
        corpus,
        &[Half::Tune, Half::Report, Half::Heldout, Half::Heldout4],
        &heldout::old_kinds(),
        Half::Heldout5,
        SEED,
        "heldout5/",
    )
}

/// The public rows' entries of the middle of each file ([`MIDDLE`]) that no public-evidence
/// tuning draft cites, and how many of the middle's rows an earlier draft cites (0: the runs
/// are untouched).
pub fn public_entries(corpus: &[Case]) -> Result<(Vec<Entry>, usize), Box<dyn std::error::Error>> {
    let cited = heldout::cited_in(
        corpus,
        &[Half::TunePublic, Half::HeldoutPublic, Half::Heldout4Public],
    );
    let middle = heldout::public_entries_where(&|r, n| {
        MIDDLE
            .iter()
            .any(|(d, from, to)| r.dataset == *d && (*from..*to).contains(&n))
    })?;
    let before = middle.len();
    let out: Vec<Entry> = middle
        .into_iter()
        .filter(|e| !cited.contains(e.id.as_str()))
        .collect();
    let touched = before - out.len();
    Ok((out, touched))
}

/// The generated held-out drafts of the public evidence.
pub fn public_cases(entries: &[Entry]) -> Vec<Case> {
    heldout::public_generated(
        entries,
        &heldout::old_kinds(),
        Half::Heldout5Public,
        SEED,
        "heldout5-public/",
    )
}
