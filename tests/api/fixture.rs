//! Small archives with known figures, written through the real import path.

use serde_json::{Value, json};

pub fn company(ticker: &str, name: &str) -> Value {
    json!({ "ticker": ticker, "name": name })
}

pub fn entry(id: &str, ticker: &str, date: &str, kind: &str) -> Value {
    json!({
        "id": id, "ticker": ticker, "date_of_record": date, "kind": kind,
        "title": format!("Title of {id}"), "summary": format!("Summary of {id}."),
        "source": { "name": "Reuters", "url": format!("https://example.com/{id}"), "says": "Source text." },
        "verified": true, "merged": false, "story": null, "story_seq": null, "sitting": null,
        "filed_at": format!("{date}T12:00:00Z")
    })
}

pub fn dek() -> String {
    "A preview long enough to pass the rule that a dek holds between one hundred twenty and three hundred forty characters, as the interface says.".to_string()
}

/// A swarm journal citing `cites` in this order, with `words` words of body.
pub fn journal(
    slug: &str,
    ticker: &str,
    price: &str,
    published: &str,
    cites: &[&str],
    words: usize,
) -> Value {
    let cited: Vec<String> = cites.iter().map(|c| format!("[{c}]")).collect();
    let filler = "word ".repeat(words.saturating_sub(cites.len() + 2));
    json!({
        "slug": slug, "ticker": ticker, "title": format!("Journal {slug}"), "dek": dek(),
        "body": format!("## Section\n{} {}\n", cited.join(" "), filler.trim_end()),
        "price": price, "author_name": "Swarm desk", "published_at": published,
        "stock_token_price_at_publication": 123.5,
        "audit": { "verdict": "approve", "score": 88, "summary": "Sound.",
                   "issues": [{ "severity": "minor", "check": "recency", "detail": "One old entry." }],
                   "engine": "swarm-audit-1", "audited_at": published }
    })
}

pub fn archive(companies: Vec<Value>, entries: Vec<Value>, journals: Vec<Value>) -> Value {
    json!({ "companies": companies, "entries": entries, "journals": journals })
}

/// One company, ACME, with one news entry, JM-ACME-261101-01, and `journals`.
pub fn acme_archive(journals: Vec<Value>) -> Value {
    archive(
        vec![company("ACME", "Acme Corp")],
        vec![entry("JM-ACME-261101-01", "ACME", "2026-11-01", "news")],
        journals,
    )
}
