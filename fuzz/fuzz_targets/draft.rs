//! Drafts: the draft file `jm` reads (front matter, then the body) or the JSON of
//! `POST /journal/save`, every rule a draft must keep, the body rendered to HTML, the citations
//! and accession numbers in it, USDG amounts and slugs.
//!
//! Input: a draft file, or (starting with `{`) a save request's JSON. The archive "knows" a
//! cited entry when its sequence number is odd. Asserts that a draft without problems keeps
//! every bound, that the HTML has only the tags the renderer makes, that accession numbers and
//! amounts read back as written, and that slugs are slugs.
#![no_main]

use std::collections::HashMap;

use journal_market_client::api::DraftInput;
use journal_market_client::publisher::parse_draft_file;
use journal_market_domain::draft::{self, Draft, Known};
use journal_market_domain::{accession, money, render, text};
use libfuzzer_sys::fuzz_target;

/// Tags the renderer writes; anything else with `<` is text that escaped escaping.
const TAGS: [&str; 6] = [
    "<h2>",
    "</h2>",
    "<p>",
    "</p>",
    "<a class=\"cite\" href=\"",
    "</a>",
];

fn html(body: &str) {
    let out = render::to_html(body, "https://o");
    let mut rest = out.as_str();
    while let Some(i) = rest.find('<') {
        rest = &rest[i..];
        let tag = TAGS
            .iter()
            .find(|t| rest.starts_with(*t))
            .unwrap_or_else(|| panic!("an unescaped `<` in {out:?}"));
        rest = &rest[tag.len()..];
    }
}

fn citation(c: &str) {
    let a = accession::parse(c).expect("a citation is an accession number");
    let again = format!(
        "{}-{}-{}-{:02}",
        a.prefix,
        a.ticker,
        a.date.format("%y%m%d"),
        a.seq
    );
    assert_eq!(again, c);
}

fn amount(s: &str) {
    let Ok(units) = money::parse_usdg(s) else {
        return;
    };
    assert!(units >= 0);
    let written = format!("{}.{:06}", units / 1_000_000, units % 1_000_000);
    assert_eq!(money::parse_usdg(&written), Ok(units));
    assert_eq!(money::units_string(units).parse::<i64>(), Ok(units));
    if units <= 1_000_000_000_000 {
        assert_eq!(money::usdg_from_f64(money::units_to_usdg(units)), Ok(units));
    }
    let (fee, rest) = money::split(units);
    assert_eq!(fee + rest, units);
}

fn check(input: DraftInput, price: Option<&str>) {
    // As `POST /journal/save` makes its draft.
    let d = Draft {
        ticker: input.ticker.trim().to_string(),
        title: input.title.trim().to_string(),
        dek: input.dek.trim().to_string(),
        body: input.body,
        price_usdg: input.price_usdg,
        author_name: input.author_name.trim().to_string(),
    };
    let cited = text::citations(&d.body);
    let mut entries = HashMap::new();
    for (i, c) in cited.iter().enumerate() {
        citation(c);
        assert!(!cited[..i].contains(c), "each citation once");
        if let Some(a) = accession::parse(c).filter(|a| a.seq % 2 == 1) {
            entries.insert(c.clone(), a.ticker.to_string());
        }
    }
    let known = Known {
        company: accession::is_ticker(&d.ticker),
        entries,
    };
    let problems = draft::problems(&d, &known);
    assert!(problems.iter().all(|p| !p.is_empty()));
    if problems.is_empty() {
        let units = draft::price_units(&d).expect("a good draft has a price");
        assert!((draft::PRICE_UNITS.0..=draft::PRICE_UNITS.1).contains(&units));
        assert!(money::person_price_problem(units).is_none());
        assert!((draft::CITED_ENTRIES.0..=draft::CITED_ENTRIES.1).contains(&cited.len()));
        assert!(draft::sections(&d.body).len() >= draft::MIN_SECTIONS);
        let title = d.title.chars().count();
        assert!((draft::TITLE_CHARS.0..=draft::TITLE_CHARS.1).contains(&title));
    }
    assert_eq!(draft::sections(&d.body).len(), text::section_count(&d.body));
    html(&d.body);
    html(&d.title);
    if accession::is_ticker(&d.ticker) {
        let slug = text::slugify(&d.ticker, &d.title);
        assert!(text::is_slug(&slug), "{slug:?}");
    }
    let _ = text::read_minutes(&d.body);
    if let Some(p) = price {
        amount(p);
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    if s.starts_with('{') {
        if let Ok(d) = serde_json::from_str::<DraftInput>(s) {
            check(d, None);
        }
        return;
    }
    amount(s);
    let price = s
        .lines()
        .find_map(|l| l.strip_prefix("price:"))
        .map(|p| p.trim().trim_matches('"'));
    if let Ok(d) = parse_draft_file(s) {
        check(d, price);
    }
});
