//! A draft the built-in rules approve by construction, for tests and load runs: each section is
//! one cited entry's own summary with its citation.

/// The dek and the body of a faithful draft over `entries`, `(summary, accession)` in the order
/// of the sections (at least two). The dek is the first two summaries' words, up to 200
/// characters, padded to 120 (the least a dek may have).
pub fn faithful(entries: &[(&str, &str)]) -> (String, String) {
    let mut body = String::new();
    for (i, (summary, accession)) in entries.iter().enumerate() {
        body.push_str(&format!("## Part {}\n{summary} [{accession}]\n\n", i + 1));
    }
    let mut dek = String::new();
    for w in entries
        .iter()
        .take(2)
        .flat_map(|(summary, _)| summary.split_whitespace())
    {
        if dek.len() + w.len() + 1 > 200 {
            break;
        }
        if !dek.is_empty() {
            dek.push(' ');
        }
        dek.push_str(w);
    }
    while dek.chars().count() < 120 {
        dek.push_str(" What the filings show.");
    }
    (dek, body)
}
