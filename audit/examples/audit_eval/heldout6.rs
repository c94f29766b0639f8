//! The sixth round's held-out set (`Half::Heldout6` and `Half::Heldout6Public`, printed only
//! with `--heldout6`, their misses never listed), made before that round's tuning, when the
//! fifth round's held-out set became tuning data. Round 6 reads who does what to whom, so the
//! set is made to hold enough swapped entities to judge them:
//!
//! - *undrawn facts*: every earlier generated kind applied, with a new seed ([`SEED`]), to the
//!   demo archive's facts that no generated draft of the tuning data (tuning half, old report
//!   half, the held-out sets of rounds 3 to 5) drew for that kind (the archive is nearly drawn
//!   out: most kinds have few or none left);
//! - *swapped roles* (a kind new in round 6, `roles::swapped_roles` of `audit_eval`): two names of one
//!   statement exchanged around its verb, on the old report half's tickers (AAPL, AMD, TSLA;
//!   the tuning half's make the kind's tuning drafts);
//! - the hand-written drafts of round 6 (`round: 6` in `audit/corpus/handwritten.json`):
//!   faithful paraphrases, swapped roles and swapped entities;
//! - *public evidence* (`Half::Heldout6Public`, a table of its own): every generated kind,
//!   swapped roles among them, same seed, applied to the evidence of the public report half's
//!   rows (labelled supported or refuted) that no public-evidence draft of the tuning data
//!   cites (rounds 3 to 5's held-out sets and the kind's tuning drafts among them): text
//!   nobody here wrote whose evidence no draft drew; their claims are the report half's,
//!   looked at once a round, at its end.
//!
//! The split is mechanical: it is computed from the tuning drafts each run.

use crate::archive::Entry;
use crate::generate::{self, Case, Half, NEW_KINDS, TUNE_TICKERS};
use crate::heldout;
use crate::rows;

/// The sixth round's seed: shifts each kind's choices (style, verb, phrase) off the ones the
/// tuning drafts (seeds 0, 7, 11 and 13) make.
pub const SEED: usize = 17;

/// The generated held-out drafts of the demo archive (`corpus`: the tuning drafts).
pub fn cases(entries: &[Entry], corpus: &[Case]) -> Vec<Case> {
    let mut out = heldout::undrawn(
        entries,
        corpus,
        &[
            Half::Tune,
            Half::Report,
            Half::Heldout,
            Half::Heldout4,
            Half::Heldout5,
        ],
        &heldout::old_kinds(),
        Half::Heldout6,
        SEED,
        "heldout6/",
    );
    let all: Vec<&Entry> = entries.iter().collect();
    out.extend(generate::generated_kinds(
        NEW_KINDS,
        &all,
        &[Half::Heldout6],
        &|t| {
            if TUNE_TICKERS.contains(&t) {
                Half::Tune
            } else {
                Half::Heldout6
            }
        },
        &|_, _, _| false,
        SEED,
        "heldout6-roles/",
    ));
    out
}

/// The new kinds' tuning drafts: the tuning half's tickers, and the public tuning half's
/// evidence (`public`), with the tuning seeds (0; 7 for public evidence, as round 3's).
pub fn tuning_cases(entries: &[Entry], public: &[Entry]) -> Vec<Case> {
    let all: Vec<&Entry> = entries.iter().collect();
    let mut out = generate::generated_kinds(
        NEW_KINDS,
        &all,
        &[Half::Tune],
        &generate::half_of,
        &|_, _, _| false,
        0,
        "",
    );
    out.extend(heldout::public_generated(
        public,
        NEW_KINDS,
        Half::TunePublic,
        heldout::SEED,
        "public/",
    ));
    out
}

/// The public report half's entries that no public-evidence draft of the tuning data cites.
pub fn public_entries(corpus: &[Case]) -> Result<Vec<Entry>, Box<dyn std::error::Error>> {
    let cited = heldout::cited_in(
        corpus,
        &[
            Half::TunePublic,
            Half::HeldoutPublic,
            Half::Heldout4Public,
            Half::Heldout5Public,
        ],
    );
    Ok(heldout::public_entries(rows::Half::Report)?
        .into_iter()
        .filter(|e| !cited.contains(e.id.as_str()))
        .collect())
}

/// The generated held-out drafts of the public evidence: every kind.
pub fn public_cases(entries: &[Entry]) -> Vec<Case> {
    let mut kinds = heldout::old_kinds();
    kinds.extend(NEW_KINDS);
    heldout::public_generated(
        entries,
        &kinds,
        Half::Heldout6Public,
        SEED,
        "heldout6-public/",
    )
}
