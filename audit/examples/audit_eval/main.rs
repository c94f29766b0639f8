//! The built-in engine on a labelled corpus: drafts made from the demo archive's entries, each
//! faithful or with one fault of a known kind (`generate.rs` for the mechanical ones,
//! `audit/corpus/handwritten.json` for the subtle ones; the demo's own journals as long faithful
//! drafts). Tuned on half the tickers, reported
//! on the other half (looked at twice, tuning data since the third round); the third round's
//! held-out set (`heldout.rs`, `--heldout`) is tuning data since the fourth round, the fourth
//! round's (`heldout4.rs`, `--heldout4`) since the fifth, the fifth round's (`heldout5.rs`,
//! `--heldout5`) since the sixth, the sixth round's (`heldout6.rs`, `--heldout6`) since the
//! seventh, the seventh round's (`heldout7.rs`, `--heldout7`) since the eighth, the eighth
//! round's (hand-written, `round: 8`, `--heldout8`) since the ninth, the ninth round's
//! (hand-written, `round: 9`, `--heldout9`) since the tenth, the tenth round's (hand-written,
//! `round: 10`, `--heldout10`) since the eleventh, the eleventh round's (hand-written,
//! `round: 11`, `--heldout11`) since the twelfth, the twelfth round's (hand-written,
//! `round: 12`, `--heldout12`) since the thirteenth, the thirteenth round's (hand-written,
//! `round: 13`, `--heldout13`) since the fourteenth, the fourteenth round's (hand-written,
//! `round: 14`, `--heldout14`) since the fifteenth, the fifteenth round's (hand-written,
//! `round: 15`, `--heldout15`) since the sixteenth, the sixteenth round's (hand-written,
//! `round: 16`, `--heldout16`) since the seventeenth, the seventeenth round's (hand-written,
//! `round: 17`, `--heldout17`) since the eighteenth, the eighteenth round's (hand-written,
//! `round: 18`, `--heldout18`) since the nineteenth, the nineteenth round's (hand-written,
//! `round: 19`, `--heldout19`) since the twentieth, the twentieth round's (hand-written,
//! `round: 20`, `--heldout20`) since the twenty-first, the twenty-first round's (hand-written,
//! `round: 21`, `--heldout21`) since the twenty-second, the twenty-second round's
//! (hand-written, `round: 22`, `--heldout22`) since the twenty-third; the twenty-third round's
//! (hand-written, `round: 23`) is printed only with `--heldout23`, its misses never listed,
//! and is the one that counts.
//! `cargo run -p journal-market-audit --example audit_eval [-- --report] [--heldout]
//! [--public] [--heldout4] [--heldout5] [--heldout6] [--heldout7] [--heldout8] [--heldout9]
//! [--heldout10] [--heldout11] [--heldout12] [--heldout13] [--heldout14] [--heldout15]
//! [--heldout16] [--heldout17] [--heldout18] [--heldout19] [--heldout20] [--heldout21]
//! [--heldout22] [--heldout23]
//! [--misses [report|public|heldout|
//! heldout-public|heldout4|heldout4-public|heldout5|heldout5-public|heldout6|heldout6-public|
//! heldout7|heldout7-public|heldout8|heldout9|heldout10|heldout11|heldout12|heldout13|
//! heldout14|heldout15|heldout16|heldout17|heldout18|heldout19|heldout20|heldout21|heldout22|
//! all]
//! | --show KIND
//! | --draft ID]`
//! (`AUDIT_EVAL_TRY=FILE` adds drafts being tried, as `try/ID`.)
// Tooling, not the product: a failure here stops the run with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod archive;
mod generate;
mod handwritten;
mod heldout;
mod heldout4;
mod heldout5;
mod heldout6;
mod heldout7;
mod journals;
mod mutate;
mod roles;
#[allow(dead_code)]
#[path = "../audit_public/rows.rs"]
mod rows;

use journal_market_audit::{Report, Severity, Verdict, builtin};

use generate::{Case, FAITHFUL_KINDS, FAULT_KINDS, Half, NEW_KINDS, TUNE_TICKERS};

fn approved(r: &Report) -> bool {
    r.verdict == Verdict::Approve
}

fn table(half: Half, results: &[(Case, Report)]) {
    let name = match half {
        Half::Tune => format!("Tuning half ({})", TUNE_TICKERS.join(", ")),
        Half::Report => {
            "Old report half (AAPL, AMD, TSLA): looked at twice, tuning data since round 3"
                .to_string()
        }
        Half::Heldout => {
            "Held-out set of round 3: looked at once, tuning data since round 4".to_string()
        }
        Half::TunePublic => {
            "Public evidence, tuning half (round 3): the public tuning half's evidence sentences"
                .to_string()
        }
        Half::HeldoutPublic => {
            "Held-out set of round 3, public evidence (the public report half's evidence sentences): tuning data since round 4"
                .to_string()
        }
        Half::Heldout4 => format!(
            "Held-out set of round 4 (seed {}): looked at once, tuning data since round 5",
            heldout4::SEED
        ),
        Half::Heldout4Public => {
            "Held-out set of round 4, public evidence: tuning data since round 5".to_string()
        }
        Half::Heldout5 => format!(
            "Held-out set of round 5 (seed {}): looked at once, tuning data since round 6",
            heldout5::SEED
        ),
        Half::Heldout5Public => {
            "Held-out set of round 5, public evidence of the middle of each file: tuning data since round 6".to_string()
        }
        Half::Heldout6 => format!(
            "Held-out set of round 6 (seed {}): looked at once, tuning data since round 7",
            heldout6::SEED
        ),
        Half::Heldout6Public => {
            "Held-out set of round 6, public evidence of the report half no draft drew: tuning data since round 7".to_string()
        }
        Half::Heldout7 => format!(
            "Held-out set of round 7 (seed {}): looked at once, tuning data since round 8",
            heldout7::SEED
        ),
        Half::Heldout7Public => {
            "Held-out set of round 7, public evidence of the report half no draft drew: tuning data since round 8".to_string()
        }
        Half::Heldout8 => {
            "Held-out set of round 8 (hand-written round 8): looked at once, tuning data since round 9".to_string()
        }
        Half::Heldout9 => {
            "Held-out set of round 9 (hand-written round 9): looked at once, tuning data since round 10".to_string()
        }
        Half::Heldout10 => {
            "Held-out set of round 10 (hand-written round 10): looked at once, tuning data since round 11".to_string()
        }
        Half::Heldout11 => {
            "Held-out set of round 11 (hand-written round 11): looked at once, tuning data since round 12".to_string()
        }
        Half::Heldout12 => {
            "Held-out set of round 12 (hand-written round 12): looked at once, tuning data since round 13".to_string()
        }
        Half::Heldout13 => {
            "Held-out set of round 13 (hand-written round 13): looked at once, tuning data since round 14".to_string()
        }
        Half::Heldout14 => {
            "Held-out set of round 14 (hand-written round 14): looked at once, tuning data since round 15".to_string()
        }
        Half::Heldout15 => {
            "Held-out set of round 15 (hand-written round 15): looked at once, tuning data since round 16".to_string()
        }
        Half::Heldout16 => {
            "Held-out set of round 16 (hand-written round 16): looked at once, tuning data since round 17".to_string()
        }
        Half::Heldout17 => {
            "Held-out set of round 17 (hand-written for round 17): looked at once, tuning data since round 18".to_string()
        }
        Half::Heldout18 => {
            "Held-out set of round 18 (hand-written for round 18): looked at once, tuning data since round 19".to_string()
        }
        Half::Heldout19 => {
            "Held-out set of round 19 (hand-written for round 19): looked at once, tuning data since round 20".to_string()
        }
        Half::Heldout20 => {
            "Held-out set of round 20 (hand-written for round 20): looked at once, tuning data since round 21".to_string()
        }
        Half::Heldout21 => {
            "Held-out set of round 21 (hand-written for round 21): looked at once, tuning data since round 22".to_string()
        }
        Half::Heldout22 => {
            "Held-out set of round 22 (hand-written for round 22): looked at once, tuning data since round 23".to_string()
        }
        Half::Heldout23 => {
            "Held-out set of round 23 (hand-written for round 23): the one that counts".to_string()
        }
    };
    println!("\n{name}\n");
    println!(
        "| kind | drafts (hand-written) | approved | not approved | rate | checks that held it back |\n|---|---|---|---|---|---|"
    );
    let kinds = FAITHFUL_KINDS
        .iter()
        .chain(&["hand-written", "demo journal"])
        .chain(FAULT_KINDS)
        .chain(NEW_KINDS);
    let (mut ok, mut faithful, mut caught, mut faults) = (0, 0, 0, 0);
    let mut lowest: Option<(f64, &str)> = None;
    for kind in kinds {
        let rows: Vec<_> = results
            .iter()
            .filter(|(c, _)| c.half == half && c.kind == *kind)
            .collect();
        if rows.is_empty() {
            continue;
        }
        let hand = rows.iter().filter(|(c, _)| c.handwritten).count();
        let yes = rows.iter().filter(|(_, r)| approved(r)).count();
        let no = rows.len() - yes;
        let is_faithful = rows[0].0.faithful;
        let rate = if is_faithful { yes } else { no } as f64 * 100.0 / rows.len() as f64;
        let what = if is_faithful {
            "approved"
        } else {
            "not approved"
        };
        println!(
            "| {kind} | {} ({hand}) | {yes} | {no} | {rate:.1}% {what} | {} |",
            rows.len(),
            blocking(&rows)
        );
        if is_faithful {
            ok += yes;
            faithful += rows.len();
        } else {
            caught += no;
            faults += rows.len();
            if lowest.is_none_or(|(r, _)| rate < r) {
                lowest = Some((rate, kind));
            }
        }
    }
    let pct = |a: usize, b: usize| a as f64 * 100.0 / b.max(1) as f64;
    println!(
        "\nfaithful drafts approved: {ok} of {faithful} ({:.1}%); faulty drafts not approved: {caught} of {faults} ({:.1}%); lowest fault kind: {}",
        pct(ok, faithful),
        pct(caught, faults),
        lowest
            .map(|(r, k)| format!("{k} {r:.1}%"))
            .unwrap_or_default()
    );
}

/// The checks of the major or critical findings of drafts not approved, most frequent first.
fn blocking(rows: &[&(Case, Report)]) -> String {
    let mut counts: Vec<(&str, usize)> = Vec::new();
    for (_, r) in rows.iter().filter(|(_, r)| !approved(r)) {
        let mut seen = Vec::new();
        for i in r.issues.iter().filter(|i| i.severity != Severity::Minor) {
            let name = i.check.as_str();
            if seen.contains(&name) {
                continue;
            }
            seen.push(name);
            match counts.iter_mut().find(|(n, _)| *n == name) {
                Some((_, c)) => *c += 1,
                None => counts.push((name, 1)),
            }
        }
    }
    counts.sort_by_key(|c| std::cmp::Reverse(c.1));
    counts
        .iter()
        .map(|(n, c)| format!("{n} {c}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn misses(half: Half, results: &[(Case, Report)]) {
    for (c, r) in results.iter().filter(|(c, _)| c.half == half) {
        if approved(r) == c.faithful {
            continue;
        }
        println!("\n== {} [{}] {:?}\n  {}", c.id, c.kind, r.verdict, c.target);
        for i in &r.issues {
            println!("  - {:?} {} {}", i.severity, i.check.as_str(), i.detail);
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let entries = archive::entries();
    let mut cases = generate::cases(&entries);
    cases.extend(handwritten::cases(&entries));
    cases.extend(journals::cases(&entries));
    let held = heldout::cases(&entries, &cases);
    let fresh = heldout::fresh(&entries, &cases).len();
    cases.extend(held);
    for (rows_half, half) in [
        (rows::Half::Report, Half::HeldoutPublic),
        (rows::Half::Tune, Half::TunePublic),
    ] {
        let public = heldout::public_entries(rows_half).unwrap_or_else(|e| {
            eprintln!("the public rows: {e}");
            Vec::new()
        });
        cases.extend(heldout::public_cases(&public, half));
    }
    // Round 4's held-out set, from what the tuning drafts above leave undrawn.
    let held4 = heldout4::cases(&entries, &cases);
    cases.extend(held4);
    let public4 = heldout4::public_entries(&cases).unwrap_or_else(|e| {
        eprintln!("the public rows: {e}");
        Vec::new()
    });
    cases.extend(heldout4::public_cases(&public4));
    // Round 5's held-out set, from what the tuning drafts above (round 4's held-out set
    // among them) leave undrawn.
    let held5 = heldout5::cases(&entries, &cases);
    cases.extend(held5);
    let (public5, touched5) = heldout5::public_entries(&cases).unwrap_or_else(|e| {
        eprintln!("the public rows: {e}");
        (Vec::new(), 0)
    });
    cases.extend(heldout5::public_cases(&public5));
    // Round 6's new kind, swapped roles: its tuning drafts (the tuning half's tickers and the
    // public tuning half's evidence), made after the earlier sets so that they read as before.
    let public_tune = heldout::public_entries(rows::Half::Tune).unwrap_or_else(|e| {
        eprintln!("the public rows: {e}");
        Vec::new()
    });
    cases.extend(heldout6::tuning_cases(&entries, &public_tune));
    // Round 6's held-out set, from what all the tuning drafts above leave undrawn.
    let held6 = heldout6::cases(&entries, &cases);
    cases.extend(held6);
    let public6 = heldout6::public_entries(&cases).unwrap_or_else(|e| {
        eprintln!("the public rows: {e}");
        Vec::new()
    });
    cases.extend(heldout6::public_cases(&public6));
    // Round 7's held-out set, from what all the tuning drafts above (round 6's held-out set
    // among them) leave undrawn.
    let held7 = heldout7::cases(&entries, &cases);
    cases.extend(held7);
    let (public7, seen7) = heldout7::public_entries(&cases).unwrap_or_else(|e| {
        eprintln!("the public rows: {e}");
        (Vec::new(), Vec::new())
    });
    let held7_public = heldout7::public_cases(&public7, &seen7, &cases);
    cases.extend(held7_public);
    // `--draft ID` audits that draft only.
    let only = (args.first().map(String::as_str) == Some("--draft")).then(|| args.get(1).cloned());
    let results: Vec<(Case, Report)> = cases
        .into_iter()
        .filter(|c| only.as_ref().is_none_or(|id| id.as_ref() == Some(&c.id)))
        .map(|c| {
            let r = builtin::audit(&c.sub);
            (c, r)
        })
        .collect();
    println!(
        "{} drafts ({} hand-written), engine {}",
        results.len(),
        results.iter().filter(|(c, _)| c.handwritten).count(),
        builtin::ENGINE
    );
    // The held-out drafts' number, without their results.
    {
        let (round, half) = (23, Half::Heldout23);
        let mut sizes: Vec<(String, usize)> = Vec::new();
        for (c, _) in results.iter().filter(|(c, _)| c.half == half) {
            let kind = c.kind.clone();
            match sizes.iter_mut().find(|(k, _)| *k == kind) {
                Some((_, n)) => *n += 1,
                None => sizes.push((kind, 1)),
            }
        }
        println!(
            "round {round}'s held-out drafts (results with --heldout{round} only): {}",
            sizes
                .iter()
                .map(|(k, n)| format!("{k} {n}"))
                .collect::<Vec<_>>()
                .join(", "),
        );
    }
    table(Half::Tune, &results);
    if args.iter().any(|a| a == "--report") {
        table(Half::Report, &results);
    }
    if args.iter().any(|a| a == "--public") {
        table(Half::TunePublic, &results);
    }
    // Round 3's held-out set: looked at once at the end of the third round, tuning data since.
    if args.iter().any(|a| a == "--heldout") {
        println!(
            "\nround 3's held-out set (tuning data since round 4): {fresh} entries no earlier tuning draft cites, and the old report half's facts never drawn for a fault kind; seed {}",
            heldout::SEED
        );
        table(Half::Heldout, &results);
        table(Half::HeldoutPublic, &results);
        let third: Vec<&(Case, Report)> = results
            .iter()
            .filter(|(c, _)| c.handwritten && c.half == Half::Heldout)
            .collect();
        let faithful = third.iter().filter(|(c, _)| c.faithful).count();
        let ok = third
            .iter()
            .filter(|(c, r)| c.faithful && approved(r))
            .count();
        let held = third
            .iter()
            .filter(|(c, r)| !c.faithful && !approved(r))
            .count();
        println!(
            "
third-round hand-written drafts (held out in round 3): faithful approved {ok} of {faithful}; faulty held back {held} of {}",
            third.len() - faithful
        );
    }
    // Round 4's held-out set: looked at once at the end of the fourth round, tuning data since.
    if args.iter().any(|a| a == "--heldout4") {
        println!(
            "\nround 4's held-out set: the demo facts no tuning draft drew for each kind, hand-written round 4, and {} public entries no tuning draft cites; seed {}",
            public4.len(),
            heldout4::SEED
        );
        table(Half::Heldout4, &results);
        table(Half::Heldout4Public, &results);
        let fourth: Vec<&(Case, Report)> = results
            .iter()
            .filter(|(c, _)| c.handwritten && c.half == Half::Heldout4)
            .collect();
        let faithful = fourth.iter().filter(|(c, _)| c.faithful).count();
        let ok = fourth
            .iter()
            .filter(|(c, r)| c.faithful && approved(r))
            .count();
        let held = fourth
            .iter()
            .filter(|(c, r)| !c.faithful && !approved(r))
            .count();
        println!(
            "\nfourth-round hand-written drafts (held out in round 4): faithful approved {ok} of {faithful}; faulty held back {held} of {}",
            fourth.len() - faithful
        );
    }
    // Round 5's held-out set: looked at once at the end of the fifth round, tuning data since.
    if args.iter().any(|a| a == "--heldout5") {
        println!(
            "\nround 5's held-out set (tuning data since round 6): the demo facts no tuning draft drew for each kind, hand-written round 5, and {} public entries of the middle of each file ({}; {} of their rows cited by an earlier draft, left out); seed {}",
            public5.len(),
            heldout5::MIDDLE
                .iter()
                .map(|(d, a, b)| format!("{d} {a}..{b}"))
                .collect::<Vec<_>>()
                .join(", "),
            touched5,
            heldout5::SEED
        );
        table(Half::Heldout5, &results);
        table(Half::Heldout5Public, &results);
        let fifth: Vec<&(Case, Report)> = results
            .iter()
            .filter(|(c, _)| c.handwritten && c.half == Half::Heldout5)
            .collect();
        let faithful = fifth.iter().filter(|(c, _)| c.faithful).count();
        let ok = fifth
            .iter()
            .filter(|(c, r)| c.faithful && approved(r))
            .count();
        let held = fifth
            .iter()
            .filter(|(c, r)| !c.faithful && !approved(r))
            .count();
        println!(
            "\nfifth-round hand-written drafts (held out in round 5): faithful approved {ok} of {faithful}; faulty held back {held} of {}",
            fifth.len() - faithful
        );
    }
    // Round 6's held-out set: looked at once at the end of the sixth round, tuning data since.
    if args.iter().any(|a| a == "--heldout6") {
        println!(
            "\nround 6's held-out set: the demo facts no tuning draft drew for each kind, swapped roles on AAPL, AMD and TSLA, hand-written round 6, and {} public entries of the report half no tuning draft cites; seed {}",
            public6.len(),
            heldout6::SEED
        );
        table(Half::Heldout6, &results);
        table(Half::Heldout6Public, &results);
        let sixth: Vec<&(Case, Report)> = results
            .iter()
            .filter(|(c, _)| c.handwritten && c.half == Half::Heldout6)
            .collect();
        let faithful = sixth.iter().filter(|(c, _)| c.faithful).count();
        let ok = sixth
            .iter()
            .filter(|(c, r)| c.faithful && approved(r))
            .count();
        let held = sixth
            .iter()
            .filter(|(c, r)| !c.faithful && !approved(r))
            .count();
        println!(
            "\nsixth-round hand-written drafts (held out in round 6): faithful approved {ok} of {faithful}; faulty held back {held} of {}",
            sixth.len() - faithful
        );
    }
    // Round 7's held-out set: looked at once at the end of the seventh round, tuning data since.
    if args.iter().any(|a| a == "--heldout7") {
        println!(
            "\nround 7's held-out set: the demo facts no tuning draft drew for each kind, hand-written round 7, and {} public entries of the report half no tuning draft cites; seed {}",
            public7.len(),
            heldout7::SEED
        );
        table(Half::Heldout7, &results);
        table(Half::Heldout7Public, &results);
        let seventh: Vec<&(Case, Report)> = results
            .iter()
            .filter(|(c, _)| c.handwritten && c.half == Half::Heldout7)
            .collect();
        let faithful = seventh.iter().filter(|(c, _)| c.faithful).count();
        let ok = seventh
            .iter()
            .filter(|(c, r)| c.faithful && approved(r))
            .count();
        let held = seventh
            .iter()
            .filter(|(c, r)| !c.faithful && !approved(r))
            .count();
        println!(
            "\nseventh-round hand-written drafts (held out in round 7): faithful approved {ok} of {faithful}; faulty held back {held} of {}",
            seventh.len() - faithful
        );
    }
    // Round 8's held-out set: looked at once at the end of the eighth round, tuning data since.
    if args.iter().any(|a| a == "--heldout8") {
        println!(
            "\nround 8's held-out set (tuning data since round 9): the hand-written drafts of round 8"
        );
        table(Half::Heldout8, &results);
    }
    // Round 9's held-out set: looked at once at the end of the ninth round, tuning data since.
    if args.iter().any(|a| a == "--heldout9") {
        println!(
            "\nround 9's held-out set (tuning data since round 10): the hand-written drafts of round 9"
        );
        table(Half::Heldout9, &results);
    }
    // Round 10's held-out set: looked at once at the end of the tenth round, tuning data since.
    if args.iter().any(|a| a == "--heldout10") {
        println!(
            "\nround 10's held-out set (tuning data since round 11): the hand-written drafts of round 10"
        );
        table(Half::Heldout10, &results);
    }
    // Round 11's held-out set: looked at once at the end of the eleventh round, tuning data
    // since.
    if args.iter().any(|a| a == "--heldout11") {
        println!(
            "\nround 11's held-out set (tuning data since round 12): the hand-written drafts of round 11"
        );
        table(Half::Heldout11, &results);
    }
    // Round 12's held-out set: looked at once at the end of the twelfth round, tuning data
    // since.
    if args.iter().any(|a| a == "--heldout12") {
        println!(
            "\nround 12's held-out set (tuning data since round 13): the hand-written drafts of round 12"
        );
        table(Half::Heldout12, &results);
    }
    // Round 13's held-out set: looked at once at the end of the thirteenth round, tuning data
    // since.
    if args.iter().any(|a| a == "--heldout13") {
        println!(
            "\nround 13's held-out set (tuning data since round 14): the hand-written drafts of round 13"
        );
        table(Half::Heldout13, &results);
    }
    // Round 14's held-out set: looked at once at the end of the fourteenth round, tuning data
    // since.
    if args.iter().any(|a| a == "--heldout14") {
        println!(
            "\nround 14's held-out set (tuning data since round 15): the hand-written drafts of round 14"
        );
        table(Half::Heldout14, &results);
    }
    // Round 15's held-out set: looked at once at the end of the fifteenth round, tuning data
    // since.
    if args.iter().any(|a| a == "--heldout15") {
        println!(
            "\nround 15's held-out set (tuning data since round 16): the hand-written drafts of round 15"
        );
        table(Half::Heldout15, &results);
    }
    // Round 16's held-out set: looked at once at the end of the sixteenth round, tuning data
    // since.
    if args.iter().any(|a| a == "--heldout16") {
        println!(
            "\nround 16's held-out set (tuning data since round 17): the hand-written drafts of round 16"
        );
        table(Half::Heldout16, &results);
    }
    // Round 17's held-out set: looked at once at the end of the seventeenth round, tuning data
    // since.
    if args.iter().any(|a| a == "--heldout17") {
        println!(
            "\nround 17's held-out set (tuning data since round 18): the hand-written drafts kept for round 17"
        );
        table(Half::Heldout17, &results);
    }
    // Round 18's held-out set: looked at once at the end of the eighteenth round, tuning data
    // since.
    if args.iter().any(|a| a == "--heldout18") {
        println!(
            "\nround 18's held-out set (tuning data since round 19): the hand-written drafts kept for round 18"
        );
        table(Half::Heldout18, &results);
    }
    // Round 19's held-out set: looked at once at the end of the nineteenth round, tuning data
    // since.
    if args.iter().any(|a| a == "--heldout19") {
        println!(
            "\nround 19's held-out set (tuning data since round 20): the hand-written drafts kept for round 19"
        );
        table(Half::Heldout19, &results);
    }
    // Round 20's held-out set: looked at once at the end of the twentieth round, tuning data
    // since.
    if args.iter().any(|a| a == "--heldout20") {
        println!(
            "\nround 20's held-out set (tuning data since round 21): the hand-written drafts kept for round 20"
        );
        table(Half::Heldout20, &results);
    }
    // Round 21's held-out set: looked at once at the end of the twenty-first round, tuning data
    // since.
    if args.iter().any(|a| a == "--heldout21") {
        println!(
            "\nround 21's held-out set (tuning data since round 22): the hand-written drafts kept for round 21"
        );
        table(Half::Heldout21, &results);
    }
    // Round 22's held-out set: looked at once at the end of the twenty-second round, tuning data
    // since.
    if args.iter().any(|a| a == "--heldout22") {
        println!(
            "\nround 22's held-out set (tuning data since round 23): the hand-written drafts kept for round 22"
        );
        table(Half::Heldout22, &results);
    }
    // Round 23's held-out set is looked at once, at the end of the twenty-third round; its
    // misses are never listed.
    if args.iter().any(|a| a == "--heldout23") {
        println!("\nround 23's held-out set: the hand-written drafts kept for round 23");
        table(Half::Heldout23, &results);
    }
    let second: Vec<&(Case, Report)> = results.iter().filter(|(c, _)| c.second_round).collect();
    if !second.is_empty() {
        let faithful = second.iter().filter(|(c, _)| c.faithful).count();
        let ok = second
            .iter()
            .filter(|(c, r)| c.faithful && approved(r))
            .count();
        let held = second
            .iter()
            .filter(|(c, r)| !c.faithful && !approved(r))
            .count();
        println!(
            "\nsecond-round hand-written drafts (report half, written after it was first measured): faithful approved {ok} of {faithful}; faulty held back {held} of {}",
            second.len() - faithful
        );
    }
    if args.first().map(String::as_str) == Some("--show") {
        let kind = args.get(1).cloned().unwrap_or_default();
        for (c, _) in results
            .iter()
            .filter(|(c, _)| {
                c.kind == kind
                    && matches!(
                        c.half,
                        Half::Tune
                            | Half::Report
                            | Half::TunePublic
                            | Half::Heldout
                            | Half::HeldoutPublic
                            | Half::Heldout4
                            | Half::Heldout4Public
                            | Half::Heldout5
                            | Half::Heldout5Public
                            | Half::Heldout6
                            | Half::Heldout6Public
                            | Half::Heldout7
                            | Half::Heldout7Public
                            | Half::Heldout8
                            | Half::Heldout9
                            | Half::Heldout10
                            | Half::Heldout11
                            | Half::Heldout12
                            | Half::Heldout13
                            | Half::Heldout14
                            | Half::Heldout15
                            | Half::Heldout16
                            | Half::Heldout17
                            | Half::Heldout18
                            | Half::Heldout19
                            | Half::Heldout20
                            | Half::Heldout21
                            | Half::Heldout22
                    )
            })
            .take(6)
        {
            println!("\n== {}\n{}", c.id, c.sub.body);
        }
    }
    // One tuning draft whole, with its sources and report (not round 23's held-out drafts).
    if args.first().map(String::as_str) == Some("--draft") {
        let id = args.get(1).cloned().unwrap_or_default();
        for (c, r) in results
            .iter()
            .filter(|(c, _)| c.id == id && c.half != Half::Heldout23)
        {
            println!("\n== {} [{}]\n{}", c.id, c.kind, c.sub.body);
            for s in &c.sub.sources {
                println!("[{}] {} | {} | {}", s.accession, s.title, s.summary, s.says);
            }
            for i in &r.issues {
                println!("  - {:?} {} {}", i.severity, i.check.as_str(), i.detail);
            }
            for s in &r.support {
                println!("  = {:?} {} «{}»", s.judgement, s.entry, s.quote);
            }
        }
    }
    if args.first().map(String::as_str) == Some("--misses")
        && args.get(1).is_some_and(|a| a == "all")
    {
        for (name, half) in TUNING_HALVES {
            println!("\n#### {name}");
            misses(*half, &results);
        }
        return;
    }
    if args.first().map(String::as_str) == Some("--misses") {
        misses(tuning_half(args.get(1).map(String::as_str)), &results);
    }
}

/// The names `--misses` takes, each with its part: every part that is tuning data.
const TUNING_HALVES: &[(&str, Half)] = &[
    ("tune", Half::Tune),
    ("report", Half::Report),
    ("public", Half::TunePublic),
    ("heldout", Half::Heldout),
    ("heldout-public", Half::HeldoutPublic),
    ("heldout4", Half::Heldout4),
    ("heldout4-public", Half::Heldout4Public),
    ("heldout5", Half::Heldout5),
    ("heldout5-public", Half::Heldout5Public),
    ("heldout6", Half::Heldout6),
    ("heldout6-public", Half::Heldout6Public),
    ("heldout7", Half::Heldout7),
    ("heldout7-public", Half::Heldout7Public),
    ("heldout8", Half::Heldout8),
    ("heldout9", Half::Heldout9),
    ("heldout10", Half::Heldout10),
    ("heldout11", Half::Heldout11),
    ("heldout12", Half::Heldout12),
    ("heldout13", Half::Heldout13),
    ("heldout14", Half::Heldout14),
    ("heldout15", Half::Heldout15),
    ("heldout16", Half::Heldout16),
    ("heldout17", Half::Heldout17),
    ("heldout18", Half::Heldout18),
    ("heldout19", Half::Heldout19),
    ("heldout20", Half::Heldout20),
    ("heldout21", Half::Heldout21),
    ("heldout22", Half::Heldout22),
];

/// The tuning part `--misses NAME` lists; the tuning half when the name is none of
/// [`TUNING_HALVES`].
fn tuning_half(name: Option<&str>) -> Half {
    TUNING_HALVES
        .iter()
        .find(|(n, _)| Some(*n) == name)
        .map_or(Half::Tune, |(_, h)| *h)
}
