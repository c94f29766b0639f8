//! The rules a draft must keep (`POST /journal/save`). Every broken rule is reported, one
//! sentence each, so an author fixes them all at once. Pure: the caller looks up the company
//! and the cited entries first.

use std::collections::HashMap;

use super::money::{person_price_problem, usdg_from_f64};
use super::text::citations;

pub const TITLE_CHARS: (usize, usize) = (8, 140);
pub const DEK_CHARS: (usize, usize) = (120, 340);
pub const AUTHOR_CHARS: (usize, usize) = (2, 60);
pub const BODY_WORDS: (usize, usize) = (60, 6_000);
pub const MIN_SECTIONS: usize = 2;
pub const CITED_ENTRIES: (usize, usize) = (2, 40);
/// 0.01 to 1,000 USDG, in base units.
pub const PRICE_UNITS: (i64, i64) = (10_000, 1_000_000_000);

/// A draft as the author sends it.
#[derive(Debug, Clone)]
pub struct Draft {
    pub ticker: String,
    pub title: String,
    pub dek: String,
    pub body: String,
    pub price_usdg: f64,
    pub author_name: String,
}

/// What the database knows about the draft's references.
#[derive(Debug, Clone, Default)]
pub struct Known {
    pub company: bool,
    /// Accession number → ticker, for each cited accession the archive holds.
    pub entries: HashMap<String, String>,
}

fn chars(s: &str) -> usize {
    s.chars().count()
}

fn length(p: &mut Vec<String>, field: &str, s: &str, (min, max): (usize, usize)) {
    let n = chars(s.trim());
    if n < min || n > max {
        p.push(format!(
            "{field} must be {min} to {max} characters long; it is {n}"
        ));
    }
}

/// Control characters: none in one-line fields; the body may hold line breaks and tabs.
fn control(p: &mut Vec<String>, field: &str, s: &str, multiline: bool) {
    if s.chars()
        .any(|c| c.is_control() && !(multiline && matches!(c, '\n' | '\r' | '\t')))
    {
        p.push(format!("{field} must not contain control characters"));
    }
}

/// The `## ` sections of a body: (heading, text under it).
pub fn sections(body: &str) -> Vec<(&str, String)> {
    let mut out: Vec<(&str, String)> = Vec::new();
    for line in body.lines() {
        if let Some(h) = line.strip_prefix("## ") {
            out.push((h.trim(), String::new()));
        } else if let Some((_, text)) = out.last_mut() {
            text.push_str(line);
            text.push('\n');
        }
    }
    out
}

/// The price in base units, when it is a whole number of them.
pub fn price_units(d: &Draft) -> Option<i64> {
    usdg_from_f64(d.price_usdg).ok()
}

/// Every broken rule, empty when the draft may be saved.
pub fn problems(d: &Draft, known: &Known) -> Vec<String> {
    let mut p = Vec::new();
    if !known.company {
        p.push(format!(
            "ticker {:?} is not a company of the archive",
            d.ticker
        ));
    }
    length(&mut p, "title", &d.title, TITLE_CHARS);
    length(&mut p, "dek", &d.dek, DEK_CHARS);
    length(&mut p, "authorName", &d.author_name, AUTHOR_CHARS);
    control(&mut p, "title", &d.title, false);
    control(&mut p, "dek", &d.dek, false);
    control(&mut p, "authorName", &d.author_name, false);
    control(&mut p, "body", &d.body, true);

    let words = d.body.split_whitespace().count();
    if words < BODY_WORDS.0 || words > BODY_WORDS.1 {
        p.push(format!(
            "the body must be {} to {} words long; it is {words}",
            BODY_WORDS.0, BODY_WORDS.1
        ));
    }
    if !d.body.trim_start().starts_with("## ") {
        p.push("the body must start with a `## ` section heading".into());
    }
    let sections = sections(&d.body);
    if sections.len() < MIN_SECTIONS {
        p.push(format!(
            "the body needs at least {MIN_SECTIONS} `## ` sections; it has {}",
            sections.len()
        ));
    }
    for (heading, text) in &sections {
        if heading.is_empty() {
            p.push("every `## ` section needs a heading".into());
        } else if citations(text).is_empty() {
            p.push(format!(
                "section {heading:?} cites no entry: cite at least one accession number in square brackets"
            ));
        }
    }
    let cited = citations(&d.body);
    if cited.len() < CITED_ENTRIES.0 || cited.len() > CITED_ENTRIES.1 {
        p.push(format!(
            "the body must cite {} to {} distinct entries; it cites {}",
            CITED_ENTRIES.0,
            CITED_ENTRIES.1,
            cited.len()
        ));
    }
    for a in &cited {
        match known.entries.get(a) {
            None => p.push(format!("citation [{a}] is not an entry of the archive")),
            Some(t) if *t != d.ticker => p.push(format!(
                "citation [{a}] is an entry about {t}, not {}",
                d.ticker
            )),
            Some(_) => {}
        }
    }
    match price_units(d) {
        None => p.push(
            "priceUsdg must be a non-negative number of whole USDG base units (6 decimals)".into(),
        ),
        Some(units) if units < PRICE_UNITS.0 || units > PRICE_UNITS.1 => p.push(format!(
            "priceUsdg must be between {} and {} USDG",
            PRICE_UNITS.0 as f64 / 1e6,
            PRICE_UNITS.1 as f64 / 1e6
        )),
        Some(units) => p.extend(person_price_problem(units)),
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(cites: &[&str]) -> String {
        let filler = "word ".repeat(40);
        format!(
            "## The first part\n{filler} as filed [{}].\n\n## The second part\n{filler} as filed [{}].\n",
            cites[0], cites[1]
        )
    }

    fn good() -> (Draft, Known) {
        let a = "JM-NVDA-261104-01";
        let b = "JM-NVDA-261105-02";
        let d = Draft {
            ticker: "NVDA".into(),
            title: "Supply and the second half".into(),
            dek: "x".repeat(150),
            body: body(&[a, b]),
            price_usdg: 1.5,
            author_name: "A. Writer".into(),
        };
        let known = Known {
            company: true,
            entries: [(a.into(), "NVDA".into()), (b.into(), "NVDA".into())].into(),
        };
        (d, known)
    }

    #[test]
    fn a_good_draft_has_no_problems() {
        let (d, k) = good();
        assert_eq!(problems(&d, &k), Vec::<String>::new());
    }

    #[test]
    fn every_broken_rule_is_reported() {
        let (mut d, mut k) = good();
        k.company = false;
        d.title = "Short".into();
        d.dek = "too short".into();
        d.author_name = "A\u{7}".into();
        d.price_usdg = 0.0000001;
        d.body = "no heading [JM-NVDA-261104-01]".into();
        let p = problems(&d, &k);
        for needle in [
            "not a company",
            "title must be",
            "dek must be",
            "authorName must not contain control",
            "words long",
            "start with a `## `",
            "at least 2 `## ` sections",
            "cite 2 to 40",
            "whole USDG base units",
        ] {
            assert!(p.iter().any(|m| m.contains(needle)), "{needle}: {p:?}");
        }
    }

    #[test]
    fn citations_must_be_known_and_of_the_company() {
        let (mut d, mut k) = good();
        d.body = body(&["JM-NVDA-261104-01", "JM-TSLA-261104-01"]);
        k.entries.insert("JM-TSLA-261104-01".into(), "TSLA".into());
        let p = problems(&d, &k);
        assert!(
            p.iter().any(|m| m.contains("about TSLA, not NVDA")),
            "{p:?}"
        );
        d.body = body(&["JM-NVDA-261104-01", "JM-NVDA-991231-09"]);
        let p = problems(&d, &k);
        assert!(
            p.iter().any(|m| m.contains("not an entry of the archive")),
            "{p:?}"
        );
    }

    #[test]
    fn each_section_cites_something() {
        let (mut d, k) = good();
        d.body
            .push_str("\n## A third part\nNothing cited here at all.\n");
        let p = problems(&d, &k);
        assert!(
            p.iter()
                .any(|m| m.contains("\"A third part\" cites no entry")),
            "{p:?}"
        );
    }

    #[test]
    fn price_bounds() {
        let (mut d, k) = good();
        d.price_usdg = 0.001;
        assert!(
            problems(&d, &k)
                .iter()
                .any(|m| m.contains("between 0.01 and 1000"))
        );
        d.price_usdg = 1001.0;
        assert!(problems(&d, &k).iter().any(|m| m.contains("between")));
        d.price_usdg = 0.01;
        assert!(problems(&d, &k).is_empty());
    }

    #[test]
    fn dek_counts_characters_not_bytes() {
        let (mut d, k) = good();
        d.dek = "é".repeat(130);
        assert!(problems(&d, &k).is_empty());
    }
}
