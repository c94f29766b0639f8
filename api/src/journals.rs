//! Journals as the public reads them: the list, the detail, its audit summary and evidence.

use serde::{Deserialize, Serialize};

#[cfg(feature = "openapi")]
use utoipa::ToSchema;

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct Company {
    pub ticker: String,
    pub name: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct Author {
    pub name: String,
    pub wallet: Option<String>,
    pub swarm: bool,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Default)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct Votes {
    pub up: i64,
    pub down: i64,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct JournalListItem {
    pub journal_id: i64,
    pub slug: String,
    pub url: String,
    pub company: Company,
    pub title: String,
    pub preview: String,
    pub author: Author,
    pub price_usdg: f64,
    pub price_units: String,
    pub signatures: u8,
    pub read_minutes: i64,
    pub entries_cited: i64,
    pub audit_score: f64,
    pub readers: i64,
    pub votes: Votes,
    pub published_at: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct JournalList {
    pub journals: Vec<JournalListItem>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct AuditIssue {
    pub severity: String,
    pub check: String,
    pub detail: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct AuditSummary {
    pub verdict: String,
    pub score: f64,
    pub summary: String,
    pub issues: Vec<AuditIssue>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Evidence {
    pub n: i64,
    pub id: String,
    pub date: String,
    pub kind: String,
    pub title: String,
    pub source: String,
    pub source_url: String,
    pub url: String,
    /// The entry's sentences the journal's claims restate, in the order it restates them (an
    /// extra field: what a reader can check each claim against).
    #[serde(default)]
    pub quotes: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct Covers {
    pub from: Option<String>,
    pub to: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct JournalDetail {
    #[serde(flatten)]
    pub item: JournalListItem,
    pub audit: AuditSummary,
    pub evidence: Vec<Evidence>,
    pub covers: Covers,
    pub stock_token_price_at_publication: Option<f64>,
    pub author_holds_stock_token: Option<bool>,
    pub token_id: Option<u64>,
    pub mint_tx: Option<String>,
    /// Whether the registration that minted `tokenId` is `chain.reorg_safe_distance` blocks
    /// deep (until then a reorg may drop it or change the id; the service re-checks it).
    #[serde(default)]
    pub token_final: bool,
    pub content_hash: Option<String>,
    pub unlocked: bool,
    pub body: Option<String>,
}
