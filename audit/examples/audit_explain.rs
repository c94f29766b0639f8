//! One sentence audited against entries of the demo archive, with the report and its support:
//! `cargo run -p journal-market-audit --example audit_explain -- "SENTENCE" ACCESSION...`
// Tooling, not the product: a failure here stops the run with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use journal_market_audit::{Source, Submission, builtin};
use serde_json::Value;

const ARCHIVE: &str = include_str!("../../data/demo/archive.json");

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (sentence, ids) = args
        .split_first()
        .ok_or("a sentence and accession numbers")?;
    let archive: Value = serde_json::from_str(ARCHIVE)?;
    let entries = archive["entries"].as_array().ok_or("no entries")?;
    let text = |e: &Value, k: &str| e[k].as_str().unwrap_or_default().to_string();
    let sources: Vec<Source> = entries
        .iter()
        .filter(|e| ids.iter().any(|id| e["id"] == id.as_str()))
        .map(|e| Source {
            accession: text(e, "id"),
            ticker: text(e, "ticker"),
            title: text(e, "title"),
            summary: text(e, "summary"),
            says: e["source"]["says"].as_str().unwrap_or_default().to_string(),
            publisher: e["source"]["name"].as_str().unwrap_or_default().to_string(),
        })
        .collect();
    let ticker = sources
        .first()
        .map(|s| s.ticker.clone())
        .unwrap_or_default();
    let company = archive["companies"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|c| c["ticker"] == ticker.as_str())
        .map(|c| text(c, "name"))
        .unwrap_or_default();
    let sub = Submission {
        ticker,
        company,
        title: "Explain".into(),
        dek: String::new(),
        body: format!("## Claim\n{sentence} [{}]\n", ids.join(", ")),
        sources,
    };
    println!("{}", serde_json::to_string_pretty(&builtin::audit(&sub))?);
    Ok(())
}
