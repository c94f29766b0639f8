//! The built-in engine's speed on drafts built from the demo archive: drafts of about 2,000
//! words citing 20 entries, and drafts of about 6,000 words citing 40 entries (the budget: under
//! 50 ms of CPU each). Prints the median, p95 and max per audit, wall clock and thread CPU time.
//! `cargo run --release -p journal-market-audit --example audit_bench` (`AUDIT_BENCH_ROUNDS=N`:
//! each draft N times)
// Tooling, not the product: a failure here stops the run with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;
use std::time::Instant;

use journal_market_audit::{Source, Submission, builtin};
use serde_json::Value;

const ARCHIVE: &str = include_str!("../../data/demo/archive.json");
const ANALYSIS: &str = "The pattern matters more than any single quarter, and the archive shows \
how the company's own words and its customers' words line up over time. Readers should weigh \
what management said against what suppliers and customers disclosed.";

fn text<'a>(e: &'a Value, key: &str) -> &'a str {
    e[key].as_str().unwrap_or("")
}

fn source(e: &Value) -> Source {
    Source {
        accession: text(e, "id").into(),
        ticker: text(e, "ticker").into(),
        title: text(e, "title").into(),
        summary: text(e, "summary").into(),
        says: e["source"]["says"].as_str().unwrap_or("").into(),
        publisher: e["source"]["name"].as_str().unwrap_or("").into(),
    }
}

/// The name the archive gives the company of `ticker`.
fn company(ticker: &str) -> String {
    let archive: Value = serde_json::from_str(ARCHIVE).unwrap();
    archive["companies"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["ticker"] == ticker)
        .map(|c| text(c, "name").to_string())
        .unwrap_or_default()
}

/// Drafts citing `cites` consecutive entries of one ticker, each section the entry's summary,
/// a sentence of its source and an uncited paragraph of `analysis` copies of [`ANALYSIS`].
fn drafts(
    by_ticker: &BTreeMap<&str, Vec<&Value>>,
    cites: usize,
    analysis: usize,
) -> Vec<Submission> {
    let mut out = Vec::new();
    for (ticker, list) in by_ticker.iter().filter(|(_, l)| l.len() >= cites) {
        for shift in 0..(list.len() + 1 - cites).min(4) {
            let cited = &list[shift..shift + cites];
            let mut body = String::new();
            for (i, e) in cited.iter().enumerate() {
                let says = e["source"]["says"].as_str().unwrap_or("");
                let first = says.split(". ").next().unwrap_or("");
                body.push_str(&format!(
                    "## Part {}\n{} [{}]\n\n{first} [{}].\n\n",
                    i + 1,
                    text(e, "summary"),
                    text(e, "id"),
                    text(e, "id"),
                ));
                body.push_str(&vec![ANALYSIS; analysis].join(" "));
                body.push_str("\n\n");
            }
            out.push(Submission {
                ticker: ticker.to_string(),
                company: company(ticker),
                title: "A long dossier".into(),
                dek: text(cited[0], "summary").into(),
                body,
                sources: cited.iter().map(|e| source(e)).collect(),
            });
        }
    }
    out
}

/// This thread's CPU time in nanoseconds (Linux), when the kernel tells.
fn cpu_ns() -> Option<u64> {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

fn run(label: &str, drafts: &[Submission], rounds: usize) {
    assert!(
        !drafts.is_empty(),
        "no ticker has enough entries for {label}"
    );
    let words = drafts
        .iter()
        .map(|d| d.body.split_whitespace().count())
        .sum::<usize>()
        / drafts.len();
    let mut wall = Vec::new();
    let cpu_start = cpu_ns();
    for _ in 0..rounds {
        for d in drafts {
            let t = Instant::now();
            std::hint::black_box(builtin::audit(std::hint::black_box(d)));
            wall.push(t.elapsed().as_secs_f64() * 1000.0);
        }
    }
    // The kernel counts CPU time in ticks: only the mean over every audit is meaningful.
    let cpu_mean = cpu_start
        .zip(cpu_ns())
        .map(|(a, b)| b.saturating_sub(a) as f64 / 1e6 / wall.len() as f64);
    let stats = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        let at = |q: f64| v[((v.len() - 1) as f64 * q) as usize];
        format!(
            "median {:.2} ms, p95 {:.2} ms, max {:.2} ms",
            at(0.5),
            at(0.95),
            at(1.0)
        )
    };
    println!(
        "{label}: {} drafts of about {words} words, {} audits\n  wall: {}",
        drafts.len(),
        wall.len(),
        stats(&mut wall)
    );
    if let Some(ms) = cpu_mean {
        println!("  cpu: mean {ms:.2} ms");
    }
}

fn main() {
    let archive: Value = serde_json::from_str(ARCHIVE).expect("the demo archive parses");
    let entries = archive["entries"].as_array().expect("entries");
    let mut by_ticker: BTreeMap<&str, Vec<&Value>> = BTreeMap::new();
    for e in entries {
        by_ticker.entry(text(e, "ticker")).or_default().push(e);
    }
    // `AUDIT_BENCH_ROUNDS=1` audits each draft once: for counting instructions under
    // callgrind (`docs/benchmarks.md`), where a noisy machine's CPU time says little.
    let rounds = |default: usize| {
        std::env::var("AUDIT_BENCH_ROUNDS")
            .ok()
            .and_then(|r| r.parse().ok())
            .unwrap_or(default)
    };
    run("20 entries cited", &drafts(&by_ticker, 20, 2), rounds(50));
    run("40 entries cited", &drafts(&by_ticker, 40, 3), rounds(20));
}
