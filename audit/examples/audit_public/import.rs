//! The rows as an import file (docs/import-format.md) for `journal-market import`.

use journal_market_audit::Source;
use serde_json::{Value, json};

use crate::rows::{DATASETS, Row, anchor_source, source};

/// The import file (docs/import-format.md) of every row: a company per dataset, its anchor
/// entry and an entry per row.
pub fn import_file(rows: &[(usize, Row)]) -> Value {
    let companies: Vec<Value> = DATASETS
        .iter()
        .map(|(_, t, name)| json!({ "ticker": t, "name": name }))
        .collect();
    let entry = |s: &Source| {
        let date = format!(
            "20{}-{}-{}",
            &s.accession[s.accession.len() - 9..s.accession.len() - 7],
            &s.accession[s.accession.len() - 7..s.accession.len() - 5],
            &s.accession[s.accession.len() - 5..s.accession.len() - 3]
        );
        json!({
            "id": s.accession, "ticker": s.ticker, "date_of_record": date, "kind": "news",
            "title": s.title, "summary": s.summary,
            "source": { "name": s.publisher, "url": "https://github.com/", "says": s.says },
            "verified": true, "merged": false, "filed_at": format!("{date}T12:00:00Z"),
        })
    };
    let mut entries: Vec<Value> = DATASETS
        .iter()
        .map(|(d, _, _)| entry(&anchor_source(d)))
        .collect();
    for (n, r) in rows {
        entries.push(entry(&source(r, *n)));
    }
    json!({ "companies": companies, "entries": entries })
}
