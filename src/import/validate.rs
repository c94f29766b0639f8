//! The whole file checked before anything is written: every broken rule, one sentence each.

use std::collections::{HashMap, HashSet};

use super::records::ImportFile;
use crate::domain::{accession, money, text};

const DESKS: [&str; 8] = ["SOC", "NWS", "FIL", "SRC", "STY", "ARC", "JRN", "TOKEN"];
const LEVELS: [&str; 3] = ["info", "warn", "error"];
const KINDS: [&str; 3] = ["post", "news", "filing"];
/// Problems listed in one error before the rest are summarised.
pub(super) const MAX_PROBLEMS: usize = 20;

/// Keys already in the database, which records may refer to and which are skipped on import.
#[derive(Default)]
pub(super) struct Existing {
    pub(super) tickers: HashSet<String>,
    pub(super) stories: HashMap<String, String>,
    pub(super) sittings: HashSet<i64>,
    pub(super) entries: HashSet<String>,
    pub(super) journals: HashSet<String>,
}

fn not_blank(problems: &mut Vec<String>, at: &str, field: &str, v: &str) {
    if v.trim().is_empty() {
        problems.push(format!("{at}: {field} must not be empty"));
    }
}

/// A story's or a journal's slug (`rule` says what form it must have), company and title.
fn slug_company_title(
    p: &mut Vec<String>,
    at: &str,
    slug: &str,
    rule: &str,
    ticker: &str,
    tickers: &HashSet<&str>,
    title: &str,
) {
    if !text::is_slug(slug) {
        p.push(format!("{at}: slug must be {rule}"));
    }
    if !tickers.contains(ticker) {
        p.push(format!("{at}: unknown company {ticker}"));
    }
    not_blank(p, at, "title", title);
}

fn is_http_url(s: &str) -> bool {
    (s.starts_with("https://") || s.starts_with("http://"))
        && s.len() > 8
        && !s.chars().any(char::is_whitespace)
}

/// Every rule of docs/import-format.md; returns one sentence per broken rule.
pub(super) fn validate(file: &ImportFile, have: &Existing) -> Vec<String> {
    let mut p = Vec::new();
    let mut tickers: HashSet<&str> = have.tickers.iter().map(String::as_str).collect();
    let mut seen = HashSet::new();
    for (i, c) in file.companies.iter().enumerate() {
        let at = format!("companies[{i}] ({})", c.ticker);
        if !accession::is_ticker(&c.ticker) {
            p.push(format!(
                "{at}: ticker must be 1 to 10 upper-case letters or digits"
            ));
        }
        not_blank(&mut p, &at, "name", &c.name);
        if !seen.insert(c.ticker.as_str()) {
            p.push(format!("{at}: the ticker appears twice in the file"));
        }
        tickers.insert(&c.ticker);
    }

    let mut story_ticker: HashMap<&str, &str> = have
        .stories
        .iter()
        .map(|(s, t)| (s.as_str(), t.as_str()))
        .collect();
    let mut seen = HashSet::new();
    for (i, s) in file.stories.iter().enumerate() {
        let at = format!("stories[{i}] ({})", s.slug);
        let rule = "lower-case letters, digits and single dashes";
        slug_company_title(&mut p, &at, &s.slug, rule, &s.ticker, &tickers, &s.title);
        if !seen.insert(s.slug.as_str()) {
            p.push(format!("{at}: the slug appears twice in the file"));
        }
        story_ticker.entry(&s.slug).or_insert(&s.ticker);
    }

    let mut sitting_ids: HashSet<i64> = have.sittings.clone();
    let mut seen = HashSet::new();
    for (i, s) in file.sittings.iter().enumerate() {
        let at = format!("sittings[{i}] ({})", s.id);
        if s.leads < 0 || s.filed < 0 {
            p.push(format!("{at}: leads and filed must not be negative"));
        }
        if !s.spend_usd.is_finite() || s.spend_usd < 0.0 {
            p.push(format!("{at}: spend_usd must be a non-negative number"));
        }
        if s.finished_at.is_some_and(|f| f < s.started_at) {
            p.push(format!("{at}: finished_at is before started_at"));
        }
        for (j, l) in s.log.iter().enumerate() {
            if !DESKS.contains(&l.desk.as_str()) {
                p.push(format!(
                    "{at}: log[{j}]: desk must be one of {}",
                    DESKS.join(", ")
                ));
            }
            if !LEVELS.contains(&l.level.as_str()) {
                p.push(format!("{at}: log[{j}]: level must be info, warn or error"));
            }
            not_blank(&mut p, &format!("{at}: log[{j}]"), "message", &l.message);
        }
        if !seen.insert(s.id) {
            p.push(format!("{at}: the id appears twice in the file"));
        }
        sitting_ids.insert(s.id);
    }

    let mut accessions: HashSet<&str> = have.entries.iter().map(String::as_str).collect();
    let mut seen = HashSet::new();
    for (i, e) in file.entries.iter().enumerate() {
        let at = format!("entries[{i}] ({})", e.id);
        match accession::parse(&e.id) {
            None => p.push(format!(
                "{at}: id must be an accession number <PREFIX>-<TICKER>-<yymmdd>-<nn>"
            )),
            Some(a) => {
                if a.ticker != e.ticker {
                    p.push(format!(
                        "{at}: the accession number names {} but ticker is {}",
                        a.ticker, e.ticker
                    ));
                }
                if a.date != e.date_of_record {
                    p.push(format!(
                        "{at}: the accession number's date differs from date_of_record"
                    ));
                }
            }
        }
        if !tickers.contains(e.ticker.as_str()) {
            p.push(format!("{at}: unknown company {}", e.ticker));
        }
        if !KINDS.contains(&e.kind.as_str()) {
            p.push(format!("{at}: kind must be post, news or filing"));
        }
        not_blank(&mut p, &at, "title", &e.title);
        not_blank(&mut p, &at, "summary", &e.summary);
        not_blank(&mut p, &at, "source.name", &e.source.name);
        not_blank(&mut p, &at, "source.says", &e.source.says);
        if !is_http_url(&e.source.url) {
            p.push(format!("{at}: source.url must be an http or https URL"));
        }
        if let Some(story) = &e.story {
            match story_ticker.get(story.as_str()) {
                None => p.push(format!("{at}: unknown story {story}")),
                Some(t) if *t != e.ticker => p.push(format!(
                    "{at}: story {story} belongs to {t}, not {}",
                    e.ticker
                )),
                _ => {}
            }
        }
        if e.story_seq.is_some_and(|s| s < 1) {
            p.push(format!("{at}: story_seq must be at least 1"));
        }
        if let Some(s) = e.sitting
            && !sitting_ids.contains(&s)
        {
            p.push(format!("{at}: unknown sitting {s}"));
        }
        if !seen.insert(e.id.as_str()) {
            p.push(format!(
                "{at}: the accession number appears twice in the file"
            ));
        }
        accessions.insert(&e.id);
    }

    let mut seen = HashSet::new();
    for (i, j) in file.journals.iter().enumerate() {
        let at = format!("journals[{i}] ({})", j.slug);
        let rule = "lower-case letters, digits and single dashes, with a letter";
        slug_company_title(&mut p, &at, &j.slug, rule, &j.ticker, &tickers, &j.title);
        not_blank(&mut p, &at, "author_name", &j.author_name);
        let dek_len = j.dek.chars().count();
        if !(120..=340).contains(&dek_len) {
            p.push(format!(
                "{at}: dek must be 120 to 340 characters, it has {dek_len}"
            ));
        }
        if text::section_count(&j.body) == 0 {
            p.push(format!("{at}: body needs at least one \"## \" section"));
        }
        let cites = text::citations(&j.body);
        if cites.is_empty() {
            p.push(format!(
                "{at}: body cites no accession number in square brackets"
            ));
        }
        for c in cites.iter().filter(|c| !accessions.contains(c.as_str())) {
            p.push(format!("{at}: cites {c}, which is not in the archive"));
        }
        match money::parse_usdg(&j.price) {
            Ok(0) => p.push(format!("{at}: price must be greater than zero")),
            Ok(_) => {}
            Err(e) => p.push(format!("{at}: price: {e}")),
        }
        if j.audit.verdict != "approve" {
            p.push(format!(
                "{at}: a published journal needs an audit verdict of approve"
            ));
        }
        if !j.audit.score.is_finite() || !(0.0..=100.0).contains(&j.audit.score) {
            p.push(format!("{at}: audit.score must be between 0 and 100"));
        }
        if j.stock_token_price_at_publication
            .is_some_and(|v| !v.is_finite() || v <= 0.0)
        {
            p.push(format!(
                "{at}: stock_token_price_at_publication must be a positive number"
            ));
        }
        if !seen.insert(j.slug.as_str()) {
            p.push(format!("{at}: the slug appears twice in the file"));
        }
    }
    p
}
