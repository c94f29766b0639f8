//! The labelled corpus of `examples/audit_eval` as a test: on each half, faithful drafts are
//! approved at 95% or more and every kind of fault is held back at 90% or more (the targets
//! of docs/audit-engine.md). The example prints the tables.
// Tests may unwrap: a failure there is the test failing (the lint is for the product).
#![allow(clippy::unwrap_used, clippy::expect_used)]
#![allow(dead_code)]

#[path = "../examples/audit_eval/archive.rs"]
mod archive;
#[path = "../examples/audit_eval/generate.rs"]
mod generate;
#[path = "../examples/audit_eval/handwritten.rs"]
mod handwritten;
#[path = "../examples/audit_eval/journals.rs"]
mod journals;
#[path = "../examples/audit_eval/mutate.rs"]
mod mutate;
#[path = "../examples/audit_eval/roles.rs"]
mod roles;

use generate::{FAULT_KINDS, Half, NEW_KINDS};
use journal_market_audit::{Verdict, builtin};

#[test]
fn the_corpus_meets_its_targets() {
    let entries = archive::entries();
    let mut cases = generate::cases(&entries);
    cases.extend(handwritten::cases(&entries));
    cases.extend(journals::cases(&entries));
    // Round 6's kind, swapped roles, on the tuning half's tickers only (the old report half's
    // make round 6's held-out set).
    let all: Vec<&archive::Entry> = entries.iter().collect();
    cases.extend(generate::generated_kinds(
        NEW_KINDS,
        &all,
        &[Half::Tune],
        &generate::half_of,
        &|_, _, _| false,
        0,
        "",
    ));
    assert!(cases.len() >= 300);
    assert!(cases.iter().filter(|c| c.handwritten).count() >= 30);
    let judged: Vec<(generate::Case, bool)> = cases
        .into_iter()
        .map(|c| {
            let approved = builtin::audit(&c.sub).verdict == Verdict::Approve;
            (c, approved)
        })
        .collect();
    for half in [Half::Tune, Half::Report] {
        let of_half: Vec<&(generate::Case, bool)> =
            judged.iter().filter(|(c, _)| c.half == half).collect();
        let faithful: Vec<bool> = of_half
            .iter()
            .filter(|(c, _)| c.faithful)
            .map(|(_, a)| *a)
            .collect();
        let rate = faithful.iter().filter(|a| **a).count() as f64 / faithful.len() as f64;
        assert!(rate >= 0.95, "{half:?}: faithful approved {rate:.3}");
        let new = NEW_KINDS.iter().filter(|_| half == Half::Tune);
        for kind in FAULT_KINDS.iter().chain(new) {
            let of_kind: Vec<bool> = of_half
                .iter()
                .filter(|(c, _)| c.kind == *kind)
                .map(|(_, a)| *a)
                .collect();
            assert!(!of_kind.is_empty(), "{half:?}: no {kind} drafts");
            let held = of_kind.iter().filter(|a| !**a).count() as f64 / of_kind.len() as f64;
            assert!(held >= 0.90, "{half:?}: {kind} held back {held:.3}");
        }
    }
}
