//! `journal-market import PATH`: the archive's JSON format (docs/import-format.md). The whole file
//! is validated before anything is written, then written in one transaction; existing natural
//! keys are skipped, so importing the same file again changes nothing.

use std::collections::{HashMap, HashSet};
use std::fmt;

use chrono::{DateTime, NaiveDate, Utc};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use journal_market_entity::{companies, entries, journals, sitting_logs, sittings, stories};
use sea_orm::{
    ActiveValue::Set, ConnectionTrait, DatabaseConnection, DbErr, EntityTrait, PaginatorTrait,
    QuerySelect,
};
use serde::Deserialize;

use crate::db;
use crate::domain::{accession, money, text};
use crate::store::journals as store;

/// The demo archive compiled into the binary; loaded into an empty database on first start.
pub const DEMO_ARCHIVE: &str = include_str!("../data/demo/archive.json");

const DESKS: [&str; 8] = ["SOC", "NWS", "FIL", "SRC", "STY", "ARC", "JRN", "TOKEN"];
const LEVELS: [&str; 3] = ["info", "warn", "error"];
const KINDS: [&str; 3] = ["post", "news", "filing"];
/// Problems listed in one error before the rest are summarised.
const MAX_PROBLEMS: usize = 20;
/// Rows per INSERT statement (well under SQLite's and PostgreSQL's bind-variable limits).
const CHUNK: usize = 200;

#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct ImportFile {
    #[serde(default)]
    companies: Vec<CompanyRec>,
    #[serde(default)]
    stories: Vec<StoryRec>,
    #[serde(default)]
    sittings: Vec<SittingRec>,
    #[serde(default)]
    entries: Vec<EntryRec>,
    #[serde(default)]
    journals: Vec<JournalRec>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CompanyRec {
    ticker: String,
    name: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct StoryRec {
    slug: String,
    ticker: String,
    title: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SittingRec {
    id: i64,
    date: NaiveDate,
    started_at: DateTime<Utc>,
    finished_at: Option<DateTime<Utc>>,
    note: String,
    leads: i32,
    filed: i32,
    spend_usd: f64,
    #[serde(default)]
    log: Vec<LogRec>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct LogRec {
    ts: DateTime<Utc>,
    desk: String,
    level: String,
    message: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct EntryRec {
    id: String,
    ticker: String,
    date_of_record: NaiveDate,
    kind: String,
    title: String,
    summary: String,
    source: SourceRec,
    verified: bool,
    merged: bool,
    story: Option<String>,
    story_seq: Option<i32>,
    sitting: Option<i64>,
    filed_at: DateTime<Utc>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SourceRec {
    name: String,
    url: String,
    says: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct JournalRec {
    slug: String,
    ticker: String,
    title: String,
    dek: String,
    body: String,
    price: String,
    author_name: String,
    published_at: DateTime<Utc>,
    stock_token_price_at_publication: Option<f64>,
    audit: AuditRec,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct AuditRec {
    verdict: String,
    score: f64,
    summary: String,
    #[serde(default)]
    issues: Vec<IssueRec>,
    engine: String,
    audited_at: DateTime<Utc>,
}

#[derive(Debug, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
struct IssueRec {
    severity: String,
    check: String,
    detail: String,
}

#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error("the file is not valid import JSON: {0}")]
    Parse(#[from] serde_json::Error),
    #[error("the file has {} invalid record(s), nothing was imported:\n  {}", .0.len(), .0.join("\n  "))]
    Invalid(Vec<String>),
    #[error("the database failed during the import, nothing was imported: {0}")]
    Database(#[from] DbErr),
}

/// What an import wrote; records whose key already existed are counted as skipped.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct ImportSummary {
    pub companies: usize,
    pub stories: usize,
    pub sittings: usize,
    pub entries: usize,
    pub journals: usize,
    pub skipped: usize,
}

impl ImportSummary {
    pub fn written(&self) -> usize {
        self.companies + self.stories + self.sittings + self.entries + self.journals
    }
}

impl fmt::Display for ImportSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} companies, {} stories, {} sittings, {} entries, {} journals written; {} already present",
            self.companies, self.stories, self.sittings, self.entries, self.journals, self.skipped
        )
    }
}

/// Keys already in the database, which records may refer to and which are skipped on import.
#[derive(Default)]
struct Existing {
    tickers: HashSet<String>,
    stories: HashMap<String, String>,
    sittings: HashSet<i64>,
    entries: HashSet<String>,
    journals: HashSet<String>,
}

async fn existing(db: &DatabaseConnection) -> Result<Existing, DbErr> {
    let tickers = companies::Entity::find().all(db).await?;
    let stories = stories::Entity::find().all(db).await?;
    let sittings: Vec<i64> = sittings::Entity::find()
        .select_only()
        .column(sittings::Column::Id)
        .into_tuple()
        .all(db)
        .await?;
    let entries: Vec<String> = entries::Entity::find()
        .select_only()
        .column(entries::Column::Accession)
        .into_tuple()
        .all(db)
        .await?;
    let journals: Vec<Option<String>> = journals::Entity::find()
        .select_only()
        .column(journals::Column::Slug)
        .into_tuple()
        .all(db)
        .await?;
    Ok(Existing {
        tickers: tickers.into_iter().map(|c| c.ticker).collect(),
        stories: stories.into_iter().map(|s| (s.slug, s.ticker)).collect(),
        sittings: sittings.into_iter().collect(),
        entries: entries.into_iter().collect(),
        journals: journals.into_iter().flatten().collect(),
    })
}

/// True when the archive has no company yet (a fresh database).
pub async fn is_empty(db: &DatabaseConnection) -> Result<bool, DbErr> {
    Ok(companies::Entity::find().count(db).await? == 0)
}

fn not_blank(problems: &mut Vec<String>, at: &str, field: &str, v: &str) {
    if v.trim().is_empty() {
        problems.push(format!("{at}: {field} must not be empty"));
    }
}

fn is_http_url(s: &str) -> bool {
    (s.starts_with("https://") || s.starts_with("http://"))
        && s.len() > 8
        && !s.chars().any(char::is_whitespace)
}

/// Every rule of docs/import-format.md; returns one sentence per broken rule.
fn validate(file: &ImportFile, have: &Existing) -> Vec<String> {
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
        if !text::is_slug(&s.slug) {
            p.push(format!(
                "{at}: slug must be lower-case letters, digits and single dashes"
            ));
        }
        if !tickers.contains(s.ticker.as_str()) {
            p.push(format!("{at}: unknown company {}", s.ticker));
        }
        not_blank(&mut p, &at, "title", &s.title);
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
        if !text::is_slug(&j.slug) {
            p.push(format!(
                "{at}: slug must be lower-case letters, digits and single dashes, with a letter"
            ));
        }
        if !tickers.contains(j.ticker.as_str()) {
            p.push(format!("{at}: unknown company {}", j.ticker));
        }
        not_blank(&mut p, &at, "title", &j.title);
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

/// Parses, validates and imports `json`. `progress` draws a bar on stderr.
pub async fn import_str(
    db: &DatabaseConnection,
    json: &str,
    progress: bool,
) -> Result<ImportSummary, ImportError> {
    let file: ImportFile = serde_json::from_str(json)?;
    let have = existing(db).await?;
    let mut problems = validate(&file, &have);
    if !problems.is_empty() {
        if problems.len() > MAX_PROBLEMS {
            let more = problems.len() - MAX_PROBLEMS;
            problems.truncate(MAX_PROBLEMS);
            problems.push(format!("… and {more} more"));
        }
        return Err(ImportError::Invalid(problems));
    }

    let total = file.companies.len()
        + file.stories.len()
        + file.sittings.len()
        + file.entries.len()
        + file.journals.len();
    let bar = ProgressBar::with_draw_target(
        Some(total as u64),
        if progress {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        },
    );
    if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} records {msg}") {
        bar.set_style(style);
    }

    let txn = db::begin_write(db).await?;
    let summary = write_all(&txn, &file, &have, &bar).await?;
    txn.commit().await?;
    bar.finish_and_clear();
    Ok(summary)
}

async fn write_all<C: ConnectionTrait>(
    db: &C,
    file: &ImportFile,
    have: &Existing,
    bar: &ProgressBar,
) -> Result<ImportSummary, DbErr> {
    let mut sum = ImportSummary::default();

    let new: Vec<companies::ActiveModel> = file
        .companies
        .iter()
        .filter(|c| !have.tickers.contains(&c.ticker))
        .map(|c| companies::ActiveModel {
            ticker: Set(c.ticker.clone()),
            name: Set(c.name.clone()),
        })
        .collect();
    sum.companies = new.len();
    insert_chunks(db, new, bar).await?;

    let new: Vec<stories::ActiveModel> = file
        .stories
        .iter()
        .filter(|s| !have.stories.contains_key(&s.slug))
        .map(|s| stories::ActiveModel {
            slug: Set(s.slug.clone()),
            ticker: Set(s.ticker.clone()),
            title: Set(s.title.clone()),
            ..Default::default()
        })
        .collect();
    sum.stories = new.len();
    insert_chunks(db, new, bar).await?;

    for s in file
        .sittings
        .iter()
        .filter(|s| !have.sittings.contains(&s.id))
    {
        sittings::Entity::insert(sittings::ActiveModel {
            id: Set(s.id),
            date: Set(s.date),
            started_at: Set(s.started_at),
            finished_at: Set(s.finished_at),
            note: Set(s.note.clone()),
            leads: Set(s.leads),
            filed: Set(s.filed),
            spend_usd: Set(s.spend_usd),
        })
        .exec_without_returning(db)
        .await?;
        let log: Vec<sitting_logs::ActiveModel> = s
            .log
            .iter()
            .map(|l| sitting_logs::ActiveModel {
                sitting_id: Set(s.id),
                ts: Set(l.ts),
                desk: Set(l.desk.clone()),
                level: Set(l.level.clone()),
                message: Set(l.message.clone()),
                ..Default::default()
            })
            .collect();
        insert_chunks(db, log, &ProgressBar::hidden()).await?;
        sum.sittings += 1;
        bar.inc(1);
    }

    let story_ids: HashMap<String, i32> = stories::Entity::find()
        .all(db)
        .await?
        .into_iter()
        .map(|s| (s.slug, s.id))
        .collect();
    let new: Vec<entries::ActiveModel> = file
        .entries
        .iter()
        .filter(|e| !have.entries.contains(&e.id))
        .map(|e| entries::ActiveModel {
            accession: Set(e.id.clone()),
            ticker: Set(e.ticker.clone()),
            date_of_record: Set(e.date_of_record),
            kind: Set(e.kind.clone()),
            title: Set(e.title.clone()),
            summary: Set(e.summary.clone()),
            source_name: Set(e.source.name.clone()),
            canonical_url: Set(e.source.url.clone()),
            says: Set(e.source.says.clone()),
            verified: Set(e.verified),
            merged: Set(e.merged),
            story_id: Set(e.story.as_ref().and_then(|s| story_ids.get(s).copied())),
            story_seq: Set(e.story_seq),
            sitting_id: Set(e.sitting),
            filed_at: Set(e.filed_at),
        })
        .collect();
    sum.entries = new.len();
    insert_chunks(db, new, bar).await?;

    for j in file
        .journals
        .iter()
        .filter(|j| !have.journals.contains(&j.slug))
    {
        write_journal(db, j).await?;
        sum.journals += 1;
        bar.inc(1);
    }
    sum.skipped = file.companies.len()
        + file.stories.len()
        + file.sittings.len()
        + file.entries.len()
        + file.journals.len()
        - sum.written();
    Ok(sum)
}

async fn write_journal<C: ConnectionTrait>(db: &C, j: &JournalRec) -> Result<(), DbErr> {
    // Validated before the transaction began.
    let price_units = money::parse_usdg(&j.price).map_err(DbErr::Custom)?;
    let issues = serde_json::to_value(&j.audit.issues).map_err(|e| DbErr::Custom(e.to_string()))?;
    store::insert_swarm(
        db,
        &store::SwarmJournal {
            slug: &j.slug,
            ticker: &j.ticker,
            author_name: &j.author_name,
            title: &j.title,
            dek: &j.dek,
            body: &j.body,
            price_units,
            stock_price: j.stock_token_price_at_publication,
            published_at: j.published_at,
            audit: store::Audit {
                verdict: &j.audit.verdict,
                score: j.audit.score,
                summary: &j.audit.summary,
                issues,
                engine: &j.audit.engine,
                audited_at: j.audit.audited_at,
            },
        },
    )
    .await?;
    Ok(())
}

async fn insert_chunks<C, A>(db: &C, rows: Vec<A>, bar: &ProgressBar) -> Result<(), DbErr>
where
    C: ConnectionTrait,
    A: sea_orm::ActiveModelTrait + Send,
{
    let mut rows = rows.into_iter().peekable();
    while rows.peek().is_some() {
        let chunk: Vec<A> = rows.by_ref().take(CHUNK).collect();
        let n = chunk.len() as u64;
        <A::Entity as EntityTrait>::insert_many(chunk)
            .exec_without_returning(db)
            .await?;
        bar.inc(n);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn minimal() -> ImportFile {
        serde_json::from_str(
            r###"{
            "companies": [{"ticker": "NVDA", "name": "NVIDIA"}],
            "entries": [{"id": "JM-NVDA-261120-01", "ticker": "NVDA", "date_of_record": "2026-11-20",
                "kind": "news", "title": "t", "summary": "s",
                "source": {"name": "Reuters", "url": "https://example.com/a", "says": "text"},
                "verified": true, "merged": false, "story": null, "story_seq": null,
                "sitting": null, "filed_at": "2026-11-20T06:00:00Z"}]
        }"###,
        )
        .unwrap()
    }

    #[test]
    fn a_valid_file_has_no_problems() {
        assert!(validate(&minimal(), &Existing::default()).is_empty());
    }

    #[test]
    fn names_the_bad_record() {
        let mut f = minimal();
        f.entries[0].kind = "tweet".into();
        f.entries[0].source.url = "ftp://x".into();
        let p = validate(&f, &Existing::default());
        assert_eq!(p.len(), 2, "{p:?}");
        assert!(p[0].starts_with("entries[0] (JM-NVDA-261120-01): kind"));
    }

    #[test]
    fn references_resolve_against_the_database() {
        let mut f = minimal();
        f.companies.clear();
        assert!(validate(&f, &Existing::default())[0].contains("unknown company NVDA"));
        let have = Existing {
            tickers: ["NVDA".to_string()].into(),
            ..Default::default()
        };
        assert!(validate(&f, &have).is_empty());
    }

    #[test]
    fn the_demo_archive_is_valid() {
        let f: ImportFile = serde_json::from_str(DEMO_ARCHIVE).unwrap();
        assert_eq!(validate(&f, &Existing::default()), Vec::<String>::new());
    }
}
