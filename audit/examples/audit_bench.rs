//! The built-in engine's speed: drafts of about 2,000 words citing 20 entries of the demo
//! archive, each audited many times; prints the median and p95 per audit.
//! `cargo run --release -p journal-market-audit --example audit_bench`

use std::time::Instant;

use journal_market_audit::{Source, Submission, builtin};
use serde_json::Value;

const ARCHIVE: &str = include_str!("../../data/demo/archive.json");
const ANALYSIS: &str = "The pattern matters more than any single quarter, and the archive shows \
how the company's own words and its customers' words line up over time. Readers should weigh \
what management said against what suppliers and customers disclosed.";

fn main() {
    let archive: Value = serde_json::from_str(ARCHIVE).expect("the demo archive parses");
    let entries = archive["entries"].as_array().expect("entries");
    let mut by_ticker: std::collections::BTreeMap<&str, Vec<&Value>> = Default::default();
    for e in entries {
        by_ticker
            .entry(e["ticker"].as_str().unwrap_or(""))
            .or_default()
            .push(e);
    }
    let mut drafts = Vec::new();
    for (ticker, list) in by_ticker.iter().filter(|(_, l)| l.len() >= 20) {
        for shift in 0..(list.len() - 19).min(4) {
            let cited = &list[shift..shift + 20];
            let mut body = String::new();
            for (i, e) in cited.iter().enumerate() {
                body.push_str(&format!(
                    "## Part {}\n{} [{}]\n\n{ANALYSIS} {ANALYSIS}\n\n",
                    i + 1,
                    e["summary"].as_str().unwrap_or(""),
                    e["id"].as_str().unwrap_or("")
                ));
            }
            let sources = cited
                .iter()
                .map(|e| Source {
                    accession: e["id"].as_str().unwrap_or("").into(),
                    ticker: e["ticker"].as_str().unwrap_or("").into(),
                    title: e["title"].as_str().unwrap_or("").into(),
                    summary: e["summary"].as_str().unwrap_or("").into(),
                    says: e["source"]["says"].as_str().unwrap_or("").into(),
                })
                .collect();
            drafts.push(Submission {
                ticker: ticker.to_string(),
                title: "A long dossier".into(),
                dek: cited[0]["summary"].as_str().unwrap_or("").into(),
                body,
                sources,
            });
        }
    }
    assert!(!drafts.is_empty(), "no ticker has 20 entries");
    let words: usize = drafts
        .iter()
        .map(|d| d.body.split_whitespace().count())
        .sum::<usize>()
        / drafts.len();
    let mut times = Vec::new();
    for _ in 0..50 {
        for d in &drafts {
            let t = Instant::now();
            std::hint::black_box(builtin::audit(std::hint::black_box(d)));
            times.push(t.elapsed().as_secs_f64() * 1000.0);
        }
    }
    times.sort_by(f64::total_cmp);
    let at = |q: f64| times[((times.len() - 1) as f64 * q) as usize];
    println!(
        "{} drafts of about {words} words citing 20 entries, {} audits: median {:.2} ms, p95 {:.2} ms, max {:.2} ms",
        drafts.len(),
        times.len(),
        at(0.5),
        at(0.95),
        at(1.0)
    );
}
