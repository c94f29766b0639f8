//! The demo archive as the corpus reads it: each entry, and the statements of it a draft can
//! restate (the entry's claim with who made it, and the source's other checkable sentences).

use journal_market_audit::Source;
use serde_json::Value;

pub const ARCHIVE: &str = include_str!("../../../data/demo/archive.json");

pub const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// The name the archive gives the company of `ticker` (`Tesla, Inc.`).
pub fn company(ticker: &str) -> String {
    static NAMES: std::sync::OnceLock<Vec<(String, String)>> = std::sync::OnceLock::new();
    let names = NAMES.get_or_init(|| {
        let archive: Value = serde_json::from_str(ARCHIVE).expect("the demo archive is JSON");
        archive["companies"]
            .as_array()
            .expect("companies")
            .iter()
            .map(|c| {
                let text = |k: &str| c[k].as_str().unwrap_or_default().to_string();
                (text("ticker"), text("name"))
            })
            .collect()
    });
    names
        .iter()
        .find(|(t, _)| t == ticker)
        .map(|(_, n)| n.clone())
        .unwrap_or_default()
}

/// Who an entry's claim comes from, as a draft names it.
#[derive(Debug, Clone, PartialEq)]
pub enum Lead {
    /// A news outlet, and the people it cites.
    Outlet { outlet: String, people: String },
    /// A post on X: a person's name, or `None` for the company's own account.
    Post { who: Option<String> },
    /// A 10-Q or 8-K filing.
    Filing { form: String },
    /// The text is a whole sentence on its own.
    Bare,
}

/// A statement a draft can restate.
#[derive(Debug, Clone)]
pub struct Fact {
    pub lead: Lead,
    /// Without its final full stop; the first letter as it stands after "that".
    pub text: String,
    /// The entry's own claim (not one of the source's other sentences).
    pub main: bool,
}

#[derive(Debug, Clone)]
pub struct Entry {
    pub id: String,
    pub ticker: String,
    /// Month (1–12) and day of the date of record.
    pub month: usize,
    pub day: u32,
    pub source: Source,
    pub facts: Vec<Fact>,
}

impl Entry {
    pub fn date(&self) -> String {
        format!("{} {}", MONTHS[self.month - 1], self.day)
    }

    /// Every text of the entry, for telling whether a name occurs in it.
    pub fn all_text(&self) -> String {
        format!(
            "{} {} {}",
            self.source.title, self.source.summary, self.source.says
        )
    }
}

/// The company's short name, as the archive writes it.
pub fn short(ticker: &str) -> &'static str {
    match ticker {
        "NVDA" => "NVIDIA",
        "TSLA" => "Tesla",
        "AAPL" => "Apple",
        "MSFT" => "Microsoft",
        "PLTR" => "Palantir",
        "AMD" => "AMD",
        // The public datasets' entries, as the held-out half reads them.
        "FEVER" => "FEVER",
        "VITC" => "VitaminC",
        "SCIFACT" => "SciFact",
        _ => "the company",
    }
}

fn poster(handle: &str) -> Option<String> {
    let name = match handle {
        "tim_cook" => "Tim Cook",
        "gregjoz" => "Greg Joswiak",
        "satyanadella" => "Satya Nadella",
        "BradSmi" => "Brad Smith",
        "ssankar" => "Shyam Sankar",
        "LisaSu" => "Lisa Su",
        _ => return None,
    };
    Some(name.to_string())
}

fn lower_first(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_lowercase().chain(c).collect(),
        None => String::new(),
    }
}

/// The claim of an entry and who made it, read from its summary and source text.
fn main_fact(kind: &str, name: &str, summary: &str, says: &str) -> Option<Fact> {
    let fact = |lead, text: &str| {
        Some(Fact {
            lead,
            text: text.trim().trim_end_matches('.').to_string(),
            main: true,
        })
    };
    match kind {
        "news" => {
            let at = says.find(", according to ")?;
            let claim = &says[..at];
            let rest = &says[at + ", according to ".len()..];
            let people = rest.split('.').next()?.to_string();
            // The summary writes the claim after "that", with its own first letter.
            let lc = lower_first(claim);
            let text = if summary.contains(&lc) {
                lc
            } else {
                claim.into()
            };
            fact(
                Lead::Outlet {
                    outlet: name.into(),
                    people,
                },
                &text,
            )
        }
        "post" => {
            let (head, rest) = summary.split_once(" posted that ")?;
            let claim = &rest[..rest.rfind(". ")?];
            fact(
                Lead::Post {
                    who: poster(head.trim_start_matches('@')),
                },
                claim,
            )
        }
        _ => {
            if let Some(rest) = summary.strip_prefix("In an 8-K filed with the SEC, ") {
                let (_, claim) = rest.split_once(" disclosed that ")?;
                fact(Lead::Filing { form: "8-K".into() }, claim)
            } else if summary.contains("'s quarterly report for the period ended ") {
                let (_, rest) = summary.split_once(" says ")?;
                let claim = rest.split(". The filing adds detail").next()?;
                fact(
                    Lead::Filing {
                        form: "10-Q".into(),
                    },
                    claim,
                )
            } else {
                fact(Lead::Bare, summary)
            }
        }
    }
}

/// The news source's other sentences a draft may restate as they stand.
fn other_facts(says: &str) -> Vec<Fact> {
    says.split(". ")
        .skip(1)
        .map(|s| s.trim().trim_end_matches('.'))
        .filter(|s| {
            (s.contains(", an analyst at ") && s.contains(", said the development "))
                || (s.starts_with("Shares of ") && s.contains(" this year, compared with a "))
                || s.ends_with("has not commented publicly on the details")
                || s.starts_with("Rivals are expected to respond")
                || s.starts_with("A spokesperson for ")
        })
        .map(|s| Fact {
            lead: Lead::Bare,
            text: s.to_string(),
            main: false,
        })
        .collect()
}

fn str_of<'a>(v: &'a Value, key: &str) -> &'a str {
    v[key].as_str().unwrap_or("")
}

/// Every entry of the demo archive, in the archive's order.
pub fn entries() -> Vec<Entry> {
    let archive: Value = serde_json::from_str(ARCHIVE).expect("the demo archive parses");
    let mut out = Vec::new();
    for e in archive["entries"].as_array().expect("entries") {
        let source = Source {
            accession: str_of(e, "id").into(),
            ticker: str_of(e, "ticker").into(),
            title: str_of(e, "title").into(),
            summary: str_of(e, "summary").into(),
            says: e["source"]["says"].as_str().unwrap_or("").into(),
            publisher: e["source"]["name"].as_str().unwrap_or("").into(),
        };
        let date = str_of(e, "date_of_record");
        let month = date.get(5..7).and_then(|m| m.parse().ok()).unwrap_or(1);
        let day = date.get(8..10).and_then(|d| d.parse().ok()).unwrap_or(1);
        let kind = str_of(e, "kind");
        let mut facts: Vec<Fact> = main_fact(
            kind,
            e["source"]["name"].as_str().unwrap_or(""),
            &source.summary,
            &source.says,
        )
        .into_iter()
        .collect();
        if kind == "news" {
            facts.extend(other_facts(&source.says));
        }
        out.push(Entry {
            id: source.accession.clone(),
            ticker: source.ticker.clone(),
            month,
            day,
            source,
            facts,
        });
    }
    out
}
