//! The import file's records as the JSON gives them, and what an import wrote.

use std::fmt;

use chrono::{DateTime, NaiveDate, Utc};
use serde::Deserialize;

#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct ImportFile {
    #[serde(default)]
    pub(super) companies: Vec<CompanyRec>,
    #[serde(default)]
    pub(super) stories: Vec<StoryRec>,
    #[serde(default)]
    pub(super) sittings: Vec<SittingRec>,
    #[serde(default)]
    pub(super) entries: Vec<EntryRec>,
    #[serde(default)]
    pub(super) journals: Vec<JournalRec>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct CompanyRec {
    pub(super) ticker: String,
    pub(super) name: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct StoryRec {
    pub(super) slug: String,
    pub(super) ticker: String,
    pub(super) title: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct SittingRec {
    pub(super) id: i64,
    pub(super) date: NaiveDate,
    pub(super) started_at: DateTime<Utc>,
    pub(super) finished_at: Option<DateTime<Utc>>,
    pub(super) note: String,
    pub(super) leads: i32,
    pub(super) filed: i32,
    pub(super) spend_usd: f64,
    #[serde(default)]
    pub(super) log: Vec<LogRec>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct LogRec {
    pub(super) ts: DateTime<Utc>,
    pub(super) desk: String,
    pub(super) level: String,
    pub(super) message: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct EntryRec {
    pub(super) id: String,
    pub(super) ticker: String,
    pub(super) date_of_record: NaiveDate,
    pub(super) kind: String,
    pub(super) title: String,
    pub(super) summary: String,
    pub(super) source: SourceRec,
    pub(super) verified: bool,
    pub(super) merged: bool,
    pub(super) story: Option<String>,
    pub(super) story_seq: Option<i32>,
    pub(super) sitting: Option<i64>,
    pub(super) filed_at: DateTime<Utc>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct SourceRec {
    pub(super) name: String,
    pub(super) url: String,
    pub(super) says: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct JournalRec {
    pub(super) slug: String,
    pub(super) ticker: String,
    pub(super) title: String,
    pub(super) dek: String,
    pub(super) body: String,
    pub(super) price: String,
    pub(super) author_name: String,
    pub(super) published_at: DateTime<Utc>,
    pub(super) stock_token_price_at_publication: Option<f64>,
    pub(super) audit: AuditRec,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct AuditRec {
    pub(super) verdict: String,
    pub(super) score: f64,
    pub(super) summary: String,
    #[serde(default)]
    pub(super) issues: Vec<IssueRec>,
    pub(super) engine: String,
    pub(super) audited_at: DateTime<Utc>,
}

#[derive(Debug, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub(super) struct IssueRec {
    pub(super) severity: String,
    pub(super) check: String,
    pub(super) detail: String,
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
