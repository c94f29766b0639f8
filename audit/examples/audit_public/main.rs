//! The built-in engine on public claim-verification data (FEVER, VitaminC, SciFact; see
//! `audit/eval/public/README.md`): each claim a draft citing its evidence as an archive entry.
//! Prints, per dataset and label, how many drafts were approved. Tuned on one half
//! (`rows::half`); `--report` prints the other, looked at once.
//! `cargo run --release -p journal-market-audit --example audit_public [-- --report] [--misses LABEL|all] [--import FILE]`
//! The same drafts through the API: `bash bench/audit_public.sh`.
// Tooling, not the product: a failure here stops the run with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod import;
mod rows;
mod table;

use journal_market_audit::{Verdict, builtin};
use rows::Half;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let half = if args.iter().any(|a| a == "--report") {
        Half::Report
    } else {
        Half::Tune
    };
    if let Some(out) = args
        .iter()
        .position(|a| a == "--import")
        .and_then(|i| args.get(i + 1))
    {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let rows = rows::load(&root)?;
        std::fs::write(out, serde_json::to_string(&import::import_file(&rows))?)?;
        return Ok(());
    }
    let misses = args
        .iter()
        .position(|a| a == "--misses")
        .and_then(|i| args.get(i + 1));
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let rows = rows::load(&root)?;
    let mut results = Vec::new();
    for (n, r) in rows.iter().filter(|(n, r)| rows::half(r, *n) == half) {
        let report = builtin::audit(&rows::submission(r, *n));
        let approved = report.verdict == Verdict::Approve;
        let listed = misses.is_some_and(|m| m == "all" || *m == r.label);
        if listed && approved != rows::expected_approval(r) {
            println!(
                "\n== {} [{}] {:?}\n  {}",
                r.id, r.label, report.verdict, r.claim
            );
            println!("  evidence: {}", rows::detokenize(&r.evidence.join(" ")));
            for i in report.issues.iter().take(3) {
                println!("  - {} {}", i.check.as_str(), i.detail);
            }
        }
        results.push((r.dataset.clone(), r.label.clone(), approved));
    }
    print!("{}", table::table(half, &results));
    Ok(())
}
