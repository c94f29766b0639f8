//! The seventh round's held-out set (`Half::Heldout7` and `Half::Heldout7Public`, printed only
//! with `--heldout7`, their misses never listed), made before that round's tuning, when the
//! sixth round's held-out set became tuning data:
//!
//! - *undrawn facts*: every generated kind, swapped roles among them, applied with a new seed
//!   ([`SEED`]) to the demo archive's facts that no generated draft of the tuning data (tuning
//!   half, old report half, the held-out sets of rounds 3 to 6, the swapped roles' tuning
//!   drafts) drew for that kind (the archive is nearly drawn out: most kinds have few left);
//! - the hand-written drafts of round 7 (`round: 7` in `audit/corpus/handwritten.json`);
//! - *public evidence* (`Half::Heldout7Public`, a table of its own): every generated kind,
//!   same seed, applied to the evidence of the public report half's rows (labelled supported
//!   or refuted) that no public-evidence draft of the tuning data cites (rounds 3 to 6's
//!   held-out sets among them); a kind those give fewer than 40 of is topped up with the
//!   report half's facts no such draft drew for that kind ([`public_cases`]). Text nobody here
//!   wrote; their claims are the report half's, looked at once a round, at its end.
//!
//! The split is mechanical: it is computed from the tuning drafts each run.

use std::collections::HashSet;

use crate::archive::Entry;
use crate::generate::{self, CAP, Case, Half, NEW_KINDS};
use crate::heldout;
use crate::rows;

/// The seventh round's seed: shifts each kind's choices (style, verb, phrase) off the ones the
/// tuning drafts (seeds 0, 7, 11, 13 and 17) make.
pub const SEED: usize = 19;

/// Every kind: the earlier ones and swapped roles.
fn kinds() -> Vec<&'static str> {
    let mut kinds = heldout::old_kinds();
    kinds.extend(NEW_KINDS);
    kinds
}

/// The generated held-out drafts of the demo archive (`corpus`: the tuning drafts).
pub fn cases(entries: &[Entry], corpus: &[Case]) -> Vec<Case> {
    heldout::undrawn(
        entries,
        corpus,
        &[
            Half::Tune,
            Half::Report,
            Half::Heldout,
            Half::Heldout4,
            Half::Heldout5,
            Half::Heldout6,
        ],
        &kinds(),
        Half::Heldout7,
        SEED,
        "heldout7/",
    )
}

/// The public-evidence drafts of the tuning data: those of the public tuning half and of
/// rounds 3 to 6's held-out sets.
const PUBLIC_TUNING: &[Half] = &[
    Half::TunePublic,
    Half::HeldoutPublic,
    Half::Heldout4Public,
    Half::Heldout5Public,
    Half::Heldout6Public,
];

/// The public report half's entries: those no public-evidence draft of the tuning data cites
/// (`fresh`), and the others.
pub fn public_entries(
    corpus: &[Case],
) -> Result<(Vec<Entry>, Vec<Entry>), Box<dyn std::error::Error>> {
    let cited = heldout::cited_in(corpus, PUBLIC_TUNING);
    Ok(heldout::public_entries(rows::Half::Report)?
        .into_iter()
        .partition(|e| !cited.contains(e.id.as_str())))
}

/// The generated held-out drafts of the public evidence, every kind: of the entries no earlier
/// draft cites (`fresh`) first; a kind they give fewer than [`CAP`] of (swapped roles, new in
/// round 6, has none left there) is topped up from the report half's other entries, of the
/// facts no public-evidence draft of the tuning data drew for that kind (their sentences were
/// drafted for other kinds, never for this one).
pub fn public_cases(fresh: &[Entry], seen: &[Entry], corpus: &[Case]) -> Vec<Case> {
    let mut out = heldout::public_generated(
        fresh,
        &kinds(),
        Half::Heldout7Public,
        SEED,
        "heldout7-public/",
    );
    let drawn: HashSet<(&str, &str, usize)> = corpus
        .iter()
        .filter(|c| PUBLIC_TUNING.contains(&c.half))
        .filter_map(|c| {
            c.fact
                .as_ref()
                .map(|(acc, j)| (c.kind.as_str(), acc.as_str(), *j))
        })
        .collect();
    let all: Vec<&Entry> = seen.iter().collect();
    for kind in kinds() {
        let have = out.iter().filter(|c| c.kind == kind).count();
        if have >= CAP {
            continue;
        }
        let more = generate::generated_kinds(
            &[kind],
            &all,
            &[Half::Heldout7Public],
            &|_| Half::Heldout7Public,
            &|k, acc, j| drawn.contains(&(k, acc, j)),
            SEED,
            "heldout7-public-undrawn/",
        );
        out.extend(more.into_iter().take(CAP - have));
    }
    out
}
