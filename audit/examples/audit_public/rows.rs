//! The public claim-verification rows (`audit/eval/public/*.jsonl`: FEVER, VitaminC, SciFact) as
//! archive entries and drafts: each row's evidence is an entry of a company of its dataset, and
//! each claim a draft whose first section states the claim citing that entry. Shared by the
//! engine's evaluation (`audit_public`) and the run through the API (`examples/audit_public.rs`
//! of the service), so both audit the same drafts.

use journal_market_audit::{Source, Submission};
use serde::Deserialize;

/// Where the rows are, from the workspace root.
pub const DIR: &str = "audit/eval/public";
pub const DATASETS: &[(&str, &str, &str)] = &[
    (
        "fever",
        "FEVER",
        "FEVER (Wikipedia sentences), via athnlp/athnlp-labs",
    ),
    (
        "vitaminc",
        "VITC",
        "VitaminC (Wikipedia revisions), via BIG-bench",
    ),
    (
        "scifact",
        "SCIFACT",
        "SciFact (paper abstracts), via XiaZeng0223/active_pets",
    ),
];

#[derive(Debug, Clone, Deserialize)]
pub struct Row {
    pub id: String,
    pub dataset: String,
    pub split: String,
    pub claim: String,
    pub evidence: Vec<String>,
    pub label: String,
    #[serde(default)]
    pub title: String,
    /// Every page of the evidence (FEVER), when the rows give them.
    #[serde(default)]
    pub titles: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Half {
    Tune,
    Report,
}

/// Tuned on FEVER's dev file, SciFact's train split and the even VitaminC rows; reported on
/// FEVER's test file, SciFact's dev split and the odd VitaminC rows.
pub fn half(r: &Row, n: usize) -> Half {
    match (r.dataset.as_str(), r.split.as_str()) {
        ("fever", "dev") | ("scifact", "train") => Half::Tune,
        ("vitaminc", _) if n.is_multiple_of(2) => Half::Tune,
        _ => Half::Report,
    }
}

/// Every row of every dataset, with its number within its dataset.
pub fn load(root: &std::path::Path) -> Result<Vec<(usize, Row)>, Box<dyn std::error::Error>> {
    let mut out = Vec::new();
    for (name, _, _) in DATASETS {
        let text = std::fs::read_to_string(root.join(DIR).join(format!("{name}.jsonl")))?;
        for (n, line) in text.lines().filter(|l| !l.trim().is_empty()).enumerate() {
            out.push((n, serde_json::from_str(line)?));
        }
    }
    Ok(out)
}

pub fn ticker(dataset: &str) -> &'static str {
    DATASETS
        .iter()
        .find(|(d, _, _)| *d == dataset)
        .map_or("PUBLIC", |(_, t, _)| *t)
}

/// Undoes the Penn Treebank tokenisation FEVER and VitaminC keep (`-LRB-`, spaces before
/// punctuation, ``` `` ```): the same words, as a reader writes them.
pub fn detokenize(s: &str) -> String {
    let mut t = s
        .replace("-LRB-", "(")
        .replace("-RRB-", ")")
        .replace("-LSB-", "[")
        .replace("-RSB-", "]")
        .replace("-LCB-", "{")
        .replace("-RCB-", "}")
        .replace("``", "\"")
        .replace("''", "\"")
        .replace("--", "\u{2013}");
    for (from, to) in [
        (" ,", ","),
        (" .", "."),
        (" ;", ";"),
        (" :", ":"),
        (" !", "!"),
        (" ?", "?"),
        (" 's", "'s"),
        (" n't", "n't"),
        ("( ", "("),
        (" )", ")"),
        ("[ ", "("),
        (" ]", ")"),
        (" %", "%"),
        ("$ ", "$"),
    ] {
        t = t.replace(from, to);
    }
    // `" quoted "`: the inner spaces go.
    let parts: Vec<&str> = t.split('"').collect();
    let mut out = String::new();
    for (k, p) in parts.iter().enumerate() {
        if k > 0 {
            out.push('"');
        }
        out.push_str(if k % 2 == 1 { p.trim() } else { p });
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The accession number of row `n` of a dataset: 100 a day from 2020-01-01.
pub fn accession(dataset: &str, n: usize) -> String {
    let day = chrono_free_date(n / 100 + 1);
    format!("JM-{}-{day}-{:02}", ticker(dataset), n % 100)
}

/// `yymmdd` of the `k`th day (1-based) counted from 2020-01-01, without a date library.
fn chrono_free_date(mut k: usize) -> String {
    let mut year = 2020;
    loop {
        let leap = year % 4 == 0;
        let months = [
            31,
            if leap { 29 } else { 28 },
            31,
            30,
            31,
            30,
            31,
            31,
            30,
            31,
            30,
            31,
        ];
        for (m, days) in months.iter().enumerate() {
            if k <= *days {
                return format!("{:02}{:02}{k:02}", year % 100, m + 1);
            }
            k -= days;
        }
        year += 1;
    }
}

/// The anchor entry of a dataset: a second entry every draft cites (a draft cites two at
/// least), restated verbatim in its second section.
pub fn anchor(dataset: &str) -> String {
    format!("JM-{}-191231-01", ticker(dataset))
}
pub const ANCHOR_SAYS: &str =
    "The evidence sentences of this dataset are quoted as they were published.";

/// The entry of row `n`.
pub fn source(r: &Row, n: usize) -> Source {
    let evidence: Vec<String> = r.evidence.iter().map(|e| detokenize(e)).collect();
    Source {
        accession: accession(&r.dataset, n),
        ticker: ticker(&r.dataset).to_string(),
        // The evidence's pages, as FEVER reads a sentence with its page's title.
        title: match (r.titles.as_slice(), r.title.as_str()) {
            ([_, _, ..], _) => r
                .titles
                .iter()
                .map(|t| detokenize(t))
                .collect::<Vec<_>>()
                .join("; "),
            (_, "") => format!("Evidence of {}", r.id),
            (_, t) => detokenize(t),
        },
        summary: evidence.first().cloned().unwrap_or_default(),
        says: evidence.join(" "),
        publisher: publisher(&r.dataset).to_string(),
    }
}

pub fn anchor_source(dataset: &str) -> Source {
    Source {
        accession: anchor(dataset),
        ticker: ticker(dataset).to_string(),
        title: format!("About the {} rows", ticker(dataset)),
        summary: ANCHOR_SAYS.to_string(),
        says: ANCHOR_SAYS.to_string(),
        publisher: publisher(dataset).to_string(),
    }
}

/// The dataset's name, as its entries give their source (`source.name`).
fn publisher(dataset: &str) -> &'static str {
    DATASETS
        .iter()
        .find(|(d, _, _)| *d == dataset)
        .map_or("", |(_, _, name)| *name)
}

/// The claim as a sentence citing `acc`.
fn cited(claim: &str, acc: &str) -> String {
    let c = detokenize(claim);
    let c = c.trim_end_matches(['.', ' ']);
    format!("{c} [{acc}].")
}

/// Title, dek and body of the draft of row `n`.
pub fn draft(r: &Row, n: usize) -> (String, String, String) {
    let claim = detokenize(&r.claim);
    let mut dek = claim.clone();
    // The draft rules' 120 characters at least.
    if dek.chars().count() < 120 {
        dek.push_str(" What the cited record says about it, in the words of the entry it cites.");
    }
    if dek.chars().count() < 120 {
        dek.push_str(" The evidence is quoted as it was published.");
    }
    if dek.chars().count() > 340 {
        dek = dek.chars().take(330).collect::<String>();
        dek.truncate(dek.rfind(' ').unwrap_or(dek.len()));
    }
    let body = format!(
        "## The claim\n{}\n\n## The record\n{}\n\nIn our view, the record above is what matters here; a reader should weigh it on its own terms before drawing any wider conclusion about the subject, its history or its prospects, and should read the cited entries in full, as they were written, before taking a view of their own.\n",
        cited(&r.claim, &accession(&r.dataset, n)),
        cited(ANCHOR_SAYS, &anchor(&r.dataset)),
    );
    (format!("Public claim {} of {}", n, r.dataset), dek, body)
}

/// The submission the server builds for the draft of row `n`.
pub fn submission(r: &Row, n: usize) -> Submission {
    let (title, dek, body) = draft(r, n);
    Submission {
        ticker: ticker(&r.dataset).to_string(),
        company: String::new(),
        title,
        dek,
        body,
        sources: vec![source(r, n), anchor_source(&r.dataset)],
    }
}

/// Whether an approval is right for the row's label.
pub fn expected_approval(r: &Row) -> bool {
    r.label == "supported"
}
